//! `questions/reject`: end a held ask with an error (a person's dismissal is
//! `ASK_CANCELLED`).

use serde::Serialize;
use serde_json::{Map, Value};

use super::{string, Empty, FromParams};
use crate::model::UserQuestionError;

method!(Reject = "questions/reject", RejectParams => Empty);

#[derive(Debug, Clone, Serialize)]
pub struct RejectParams {
    pub ask: String,
    pub code: String,
    pub message: String,
}

impl RejectParams {
    /// Ends `ask` with `error`.
    pub fn new(ask: &str, error: &UserQuestionError) -> Self {
        Self { ask: ask.to_owned(), code: error.code().to_owned(), message: error.message().to_owned() }
    }
}

impl FromParams for RejectParams {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError> {
        let (code, message) = (string(&params, "code")?, string(&params, "message")?);
        Ok(Self { ask: string(&params, "ask")?, code, message })
    }
}
