//! `initialize`: the first request of every connection. The server speaks one version
//! and says which when asked another.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::FromParams;
use crate::channel::PROTOCOL_VERSION;
use crate::model::UserQuestionError;

method!(Initialize = "initialize", InitializeParams => InitializeReply);

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeParams {
    pub protocol_version: u64,
    pub client: ClientInfo,
}

/// Who connects: shown as the client of its agents and answerers.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ClientInfo {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub version: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeReply {
    pub protocol_version: u64,
    pub server: ServerInfo,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServerInfo {
    pub name: String,
    pub version: String,
}

impl InitializeParams {
    /// This build's params, for a client named `name`.
    pub fn new(name: &str) -> Self {
        let client = ClientInfo { name: name.to_owned(), version: env!("CARGO_PKG_VERSION").to_owned() };
        Self { protocol_version: PROTOCOL_VERSION, client }
    }
}

impl InitializeReply {
    /// This server's reply.
    pub fn ours() -> Self {
        let server = ServerInfo { name: "user-questions".into(), version: env!("CARGO_PKG_VERSION").into() };
        Self { protocol_version: PROTOCOL_VERSION, server }
    }
}

impl FromParams for InitializeParams {
    fn from_params(params: Map<String, Value>) -> Result<Self, UserQuestionError> {
        let version = params.get("protocolVersion");
        if version.and_then(Value::as_u64) != Some(PROTOCOL_VERSION) {
            let e = UserQuestionError::bad_request(format!(
                "unsupported protocolVersion {}; this server speaks [1]",
                version.unwrap_or(&Value::Null)
            ));
            return Err(e.with_data("supported", json!([PROTOCOL_VERSION])));
        }
        let name = params.get("client").and_then(|c| c.get("name")).and_then(Value::as_str).unwrap_or_default();
        let version = params.get("client").and_then(|c| c.get("version")).and_then(Value::as_str).unwrap_or_default();
        let client = ClientInfo { name: name.to_owned(), version: version.to_owned() };
        Ok(Self { protocol_version: PROTOCOL_VERSION, client })
    }
}
