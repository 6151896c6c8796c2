//! `questions/answer`: answer an ask this connection's answerer holds.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{string, Empty, FromParams};
use crate::model::{Answer, UserQuestionError};

method!(AnswerQuestion = "questions/answer", AnswerParams => Empty);

#[derive(Debug, Clone, Serialize)]
pub struct AnswerParams {
    pub ask: String,
    pub answer: Answer,
}

impl FromParams for AnswerParams {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError> {
        let ask = string(&params, "ask")?;
        let answer = params.get("answer").ok_or_else(|| UserQuestionError::bad_request("answer is missing"))?;
        Ok(Self { ask, answer: Answer::from_value(answer)? })
    }
}
