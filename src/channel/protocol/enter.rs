//! `agents/enter`: a new live runtime for an agent, owned by another or by none.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{optional, string, FromParams};
use crate::model::{AgentRef, UserQuestionError};

method!(
    /// Its reply is the agent's id and its live runtime token.
    Enter = "agents/enter", EnterParams => AgentRef
);

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EnterParams {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<AgentRef>,
    pub delegation_depth: u32,
}

impl FromParams for EnterParams {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError> {
        let id = string(&params, "id")?;
        let owner = optional(&params, "owner").map(|v| AgentRef::from_value(v, "owner")).transpose()?;
        let delegation_depth = match optional(&params, "delegationDepth") {
            None => 0,
            Some(v) => v
                .as_u64()
                .and_then(|d| u32::try_from(d).ok())
                .ok_or_else(|| UserQuestionError::bad_request("delegationDepth must be a non-negative integer"))?,
        };
        Ok(Self { id, owner, delegation_depth })
    }
}
