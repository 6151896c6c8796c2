//! `questions/answer`: answer an ask this connection's answerer holds.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{string, Empty, FromParams, Method};
use crate::model::{Answer, UserQuestionError};

pub struct AnswerQuestion;

impl Method for AnswerQuestion {
    const NAME: &'static str = "questions/answer";
    type Params = AnswerParams;
    type Reply = Empty;
}

#[derive(Debug, Clone, Serialize)]
pub struct AnswerParams {
    pub ask: String,
    pub answer: Answer,
}

impl FromParams for AnswerParams {
    fn from_params(params: &Map<String, Value>) -> Result<Self, UserQuestionError> {
        let ask = string(params, "ask")?;
        let answer = params.get("answer").ok_or_else(|| UserQuestionError::bad_request("answer is missing"))?;
        Ok(Self { ask, answer: Answer::from_value(answer)? })
    }
}
