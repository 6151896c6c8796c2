//! `agents/leave`: an agent (and every agent it owns) goes away.

use serde_json::{Map, Value};

use super::{Empty, FromParams, Method};
use crate::model::{AgentRef, UserQuestionError};

pub struct Leave;

impl Method for Leave {
    const NAME: &'static str = "agents/leave";
    /// The agent, as `agents/enter` gave it.
    type Params = AgentRef;
    type Reply = Empty;
}

impl FromParams for AgentRef {
    fn from_params(params: &Map<String, Value>) -> Result<Self, UserQuestionError> {
        AgentRef::from_value(&Value::Object(params.clone()), "params")
    }
}
