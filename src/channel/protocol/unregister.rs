//! `answerers/unregister`: leave the waterfall.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{string, Empty, FromParams};
use crate::model::UserQuestionError;

method!(Unregister = "answerers/unregister", UnregisterParams => Empty);

#[derive(Debug, Clone, Serialize)]
pub struct UnregisterParams {
    /// As `answerers/register` replied.
    pub answerer: String,
}

impl FromParams for UnregisterParams {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError> {
        Ok(Self { answerer: string(&params, "answerer")? })
    }
}
