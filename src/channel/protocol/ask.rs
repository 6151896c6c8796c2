//! `ask`: ask a person; the reply is the answer, or the error that ended the ask.
//! `$/cancelRequest` stops waiting for one.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{FromParams, Method, Notice};
use crate::model::{Answer, AskRequest, UserQuestionError};

pub struct Ask;

impl Method for Ask {
    const NAME: &'static str = "ask";
    type Params = AskRequest;
    type Reply = Answer;
}

impl FromParams for AskRequest {
    fn from_params(params: &Map<String, Value>) -> Result<Self, UserQuestionError> {
        AskRequest::from_value(&Value::Object(params.clone()))
    }
}

/// Client → server: stop waiting for the ask of request `id` on this connection.
pub struct Cancel;

impl Notice for Cancel {
    const NAME: &'static str = "$/cancelRequest";
    type Params = CancelParams;
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CancelParams {
    pub id: Value,
}
