//! `agents/leave`: an agent (and every agent it owns) goes away.

use serde_json::{Map, Value};

use super::{Empty, FromParams};
use crate::model::{AgentRef, UserQuestionError};

method!(
    /// Its params are the agent, as `agents/enter` gave it.
    Leave = "agents/leave", AgentRef => Empty
);

impl FromParams for AgentRef {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError> {
        AgentRef::from_value(&Value::Object(params), "params")
    }
}
