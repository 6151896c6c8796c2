//! Server → answerer: `questions/offer` (an ask it may pass, claim, or answer at
//! once), and the notifications about a held ask: `questions/withdraw` and
//! `questions/badAnswer`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::FromParams;
use crate::model::{Answer, Request, UserQuestionError};

method!(Offer = "questions/offer", OfferParams => OfferReply);

/// An ask offered: its id and its request. The server writes them borrowed, the
/// request's JSON as it was given (`OfferParams<&str, &RawValue>`); an answerer reads
/// them owned and parsed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OfferParams<A = String, R = Request> {
    pub ask: A,
    pub request: R,
}

impl FromParams for OfferParams {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError> {
        serde_json::from_value(Value::Object(params))
            .map_err(|e| UserQuestionError::bad_request(format!("questions/offer: {e}")))
    }
}

/// The answerer's reply: pass (`claim: false`), take it (`claim: true`), or answer
/// at once.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct OfferReply {
    #[serde(default)]
    pub claim: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
}

impl OfferReply {
    pub const PASS: Self = Self { claim: false, answer: None };
    pub const CLAIM: Self = Self { claim: true, answer: None };
}

notice!(
    /// A held ask was withdrawn: its asker left, or it was answered elsewhere.
    Withdraw = "questions/withdraw", WithdrawParams
);

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WithdrawParams {
    pub ask: String,
    /// Why: `aborted` (the asker left or it was answered elsewhere).
    #[serde(default)]
    pub reason: String,
}

notice!(
    /// An answer given with the claim did not fit; the ask stays held.
    BadAnswer = "questions/badAnswer", BadAnswerParams
);

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BadAnswerParams {
    pub ask: String,
    #[serde(default)]
    pub message: String,
}
