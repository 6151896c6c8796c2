//! `ask`: ask a person; the reply is the answer, or the error that ended the ask.
//! `$/cancelRequest` stops waiting for one.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::FromParams;
use crate::model::{Answer, AskRequest, UserQuestionError};

method!(Ask = "ask", AskRequest => Answer);

impl FromParams for AskRequest {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError> {
        AskRequest::from_value(&Value::Object(params))
    }
}

notice!(
    /// Client → server: stop waiting for the ask of request `id` on this connection.
    Cancel = "$/cancelRequest", CancelParams
);

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CancelParams {
    pub id: Value,
}
