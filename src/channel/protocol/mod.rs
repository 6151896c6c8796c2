//! The protocol of docs/protocol.md as types: one file per method, each naming the
//! method, its params and its reply (mini-redis's `cmd/`). The server parses and
//! answers with these types and every client calls with them, so a field renamed on
//! one side does not compile on the other. Tests speak the wire literally on purpose.
//!
//! A server reads params through [`FromParams`], which names what is wrong in the
//! protocol's own words (its texts are part of the contract); a client reads a reply
//! with serde.

/// Declares a method: `method!(Name = "wire/name", Params => Reply);`.
macro_rules! method {
    ($(#[$doc:meta])* $name:ident = $wire:literal, $params:ty => $reply:ty) => {
        $(#[$doc])*
        pub struct $name;

        impl $crate::channel::protocol::Method for $name {
            const NAME: &'static str = $wire;
            type Params = $params;
            type Reply = $reply;
        }
    };
}

/// Declares a notification: `notice!(Name = "wire/name", Params);`.
macro_rules! notice {
    ($(#[$doc:meta])* $name:ident = $wire:literal, $params:ty) => {
        $(#[$doc])*
        pub struct $name;

        impl $crate::channel::protocol::Notice for $name {
            const NAME: &'static str = $wire;
            type Params = $params;
        }
    };
}

mod answer;
mod ask;
mod decide;
mod enter;
mod initialize;
mod leave;
mod offer;
mod pending;
mod register;
mod reject;
mod unregister;

pub use answer::{AnswerParams, AnswerQuestion};
pub use ask::{Ask, Cancel, CancelParams};
pub use decide::{Decide, DecideParams};
pub use enter::{Enter, EnterParams};
pub use initialize::{ClientInfo, Initialize, InitializeParams, InitializeReply, ServerInfo};
pub use leave::Leave;
pub use offer::{BadAnswer, BadAnswerParams, Offer, OfferParams, OfferReply, Withdraw, WithdrawParams};
pub use pending::{Pending, PendingReply};
pub use register::{Register, RegisterReply, Registration};
pub use reject::{Reject, RejectParams};
pub use unregister::{Unregister, UnregisterParams};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::model::UserQuestionError;

/// A request of the protocol: its name on the wire, what the caller sends, and what
/// the callee replies.
pub trait Method {
    const NAME: &'static str;
    type Params: Serialize + FromParams;
    type Reply: Serialize + DeserializeOwned;
}

/// A notification of the protocol: its name and what it carries; nothing replies.
pub trait Notice {
    const NAME: &'static str;
    type Params: Serialize + DeserializeOwned;
}

/// Params as a server reads them from a request's object, naming what is missing or
/// of the wrong type (`BAD_REQUEST`) in the words docs/protocol.md gives.
pub trait FromParams: Sized {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError>;
}

/// A reply or params with no members: `{}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Empty {}

impl FromParams for Empty {
    fn from_params(_: Map<String, Value>) -> Result<Self, UserQuestionError> {
        Ok(Empty {})
    }
}

/// A member that must be a string.
pub(crate) fn string(params: &Map<String, Value>, key: &str) -> Result<String, UserQuestionError> {
    match params.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        None | Some(Value::Null) => Err(UserQuestionError::bad_request(format!("{key} is missing"))),
        Some(_) => Err(UserQuestionError::bad_request(format!("{key} must be a string"))),
    }
}

/// A member that may be absent or `null`.
pub(crate) fn optional<'a>(params: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    params.get(key).filter(|v| !v.is_null())
}
