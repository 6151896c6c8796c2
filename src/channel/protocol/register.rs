//! `answerers/register`: join the waterfall as an answerer.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{optional, string, FromParams};
use crate::model::UserQuestionError;
use crate::service::Scope;

method!(Register = "answerers/register", Registration => RegisterReply);

/// How an answerer joins the waterfall.
#[derive(Debug, Clone, Serialize)]
pub struct Registration {
    /// Shown as the holder of the asks it takes.
    pub name: String,
    pub scope: Scope,
    /// Higher priorities are offered asks first.
    pub priority: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RegisterReply {
    /// The registration's id on this connection, for `answerers/unregister`.
    pub answerer: String,
}

impl FromParams for Registration {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError> {
        let name = string(&params, "name")?;
        let scope = Scope::from_value(params.get("scope"))?;
        let priority = match optional(&params, "priority") {
            None => 0,
            Some(v) => v.as_i64().ok_or_else(|| UserQuestionError::bad_request("priority must be an integer"))?,
        };
        Ok(Self { name, scope, priority })
    }
}
