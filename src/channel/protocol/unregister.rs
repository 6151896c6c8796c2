//! `answerers/unregister`: leave the waterfall.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{string, Empty, FromParams, Method};
use crate::model::UserQuestionError;

pub struct Unregister;

impl Method for Unregister {
    const NAME: &'static str = "answerers/unregister";
    type Params = UnregisterParams;
    type Reply = Empty;
}

#[derive(Debug, Clone, Serialize)]
pub struct UnregisterParams {
    /// As `answerers/register` replied.
    pub answerer: String,
}

impl FromParams for UnregisterParams {
    fn from_params(params: &Map<String, Value>) -> Result<Self, UserQuestionError> {
        Ok(Self { answerer: string(params, "answerer")? })
    }
}
