//! `questions/decide`: the person answers a pending ask from a door that does not
//! hold it (`userq answer --allow ID…`), wherever it is held; the holder takes it
//! down as for any answer. The socket is the person's own, so any connection may.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{string, Empty, FromParams};
use crate::model::{Answer, UserQuestionError};

method!(Decide = "questions/decide", DecideParams => Empty);

#[derive(Debug, Clone, Serialize)]
pub struct DecideParams {
    pub ask: String,
    pub answer: Answer,
    /// Who decided, as the history names them (`terminal`); the connection's
    /// `client.name` when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

impl FromParams for DecideParams {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError> {
        let ask = string(&params, "ask")?;
        let answer = params.get("answer").ok_or_else(|| UserQuestionError::bad_request("answer is missing"))?;
        let by = match params.get("by") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
            Some(_) => return Err(UserQuestionError::bad_request("by must be a non-empty string")),
        };
        Ok(Self { ask, answer: Answer::from_value(answer)?, by })
    }
}
