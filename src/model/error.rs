//! The errors of the service: a fixed code, the exact text a model sees, and the
//! JSON-RPC form they travel in. An answerer's own error passes through untouched, so
//! the type keeps the whole error object rather than just a known code.

use serde_json::{json, Map, Value};

/// Every JSON-RPC error number the product uses, in one place.
pub mod jsonrpc {
    /// A line that is not JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// A JSON value that is not a request, response or notification; a batch; a frame
    /// too large; a second `initialize`.
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Malformed params (`data.code` `BAD_REQUEST`).
    pub const INVALID_PARAMS: i64 = -32602;
    /// A request before `initialize`.
    pub const NOT_INITIALIZED: i64 = -32002;
    /// Every domain error: the domain code is in `data.code`.
    pub const DOMAIN_ERROR: i64 = -32000;
}

pub use jsonrpc::{DOMAIN_ERROR, INVALID_PARAMS};

/// Every domain code the product raises itself. Answerers may raise others, which pass
/// through unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    EmptyQuestions,
    BadIntent,
    NoProvider,
    AskAborted,
    CallerNotLive,
    DelegatedCaller,
    BadRequest,
    BadAnswer,
    NotPending,
    AgentLive,
    ShuttingDown,
    /// A person dismissed the question (the window, `userq answer`).
    AskCancelled,
    /// The server's reply could not be read (a client's error).
    BadReply,
    /// The server stopped while a question was pending and none came back (a client's).
    ServerGone,
    /// No server is listening (the MCP tool's result when it cannot reach one).
    NoServer,
    /// The server serves as many connections as it takes (not in the contract).
    TooManyConnections,
    /// The window was asked for a language no catalog has.
    BadLanguage,
    /// The window could not read or write the history (or none is kept).
    History,
    /// The window was asked to forget a rule that does not exist.
    NoSuchRule,
    /// What was pasted into feedback is not a picture the window keeps.
    BadPicture,
    /// The window could not read this machine's circle or make an invite to it.
    Relay,
    /// The window could not connect or disconnect an agent (no such agent, no `userq`
    /// to point its hooks at, settings that cannot be read or written).
    Setup,
    /// Nobody answered within the person's deadline: the question was dismissed.
    DeadlinePassed,
    /// The window could not read the Matrix bridge (its files, or its homeserver).
    Matrix,
}

impl ErrorCode {
    /// Every code, for what lists them (the window's generated union of codes).
    pub const ALL: [ErrorCode; 24] = [
        Self::EmptyQuestions,
        Self::BadIntent,
        Self::NoProvider,
        Self::AskAborted,
        Self::CallerNotLive,
        Self::DelegatedCaller,
        Self::BadRequest,
        Self::BadAnswer,
        Self::NotPending,
        Self::AgentLive,
        Self::ShuttingDown,
        Self::AskCancelled,
        Self::BadReply,
        Self::ServerGone,
        Self::NoServer,
        Self::TooManyConnections,
        Self::BadLanguage,
        Self::History,
        Self::NoSuchRule,
        Self::BadPicture,
        Self::Relay,
        Self::Setup,
        Self::DeadlinePassed,
        Self::Matrix,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::EmptyQuestions => "EMPTY_QUESTIONS",
            Self::BadIntent => "BAD_INTENT",
            Self::NoProvider => "NO_PROVIDER",
            Self::AskAborted => "ASK_ABORTED",
            Self::CallerNotLive => "CALLER_NOT_LIVE",
            Self::DelegatedCaller => "DELEGATED_CALLER",
            Self::BadRequest => "BAD_REQUEST",
            Self::BadAnswer => "BAD_ANSWER",
            Self::NotPending => "NOT_PENDING",
            Self::AgentLive => "AGENT_LIVE",
            Self::ShuttingDown => "SHUTTING_DOWN",
            Self::AskCancelled => "ASK_CANCELLED",
            Self::BadReply => "BAD_REPLY",
            Self::ServerGone => "SERVER_GONE",
            Self::NoServer => "NO_SERVER",
            Self::TooManyConnections => "TOO_MANY_CONNECTIONS",
            Self::BadLanguage => "BAD_LANGUAGE",
            Self::History => "HISTORY",
            Self::NoSuchRule => "NO_SUCH_RULE",
            Self::BadPicture => "BAD_PICTURE",
            Self::Relay => "RELAY",
            Self::Setup => "SETUP",
            Self::DeadlinePassed => "DEADLINE_PASSED",
            Self::Matrix => "MATRIX",
        }
    }
}

/// An error of the question service, as the asker receives it.
///
/// `data` always holds `{"code": <code>}` and may carry more fields; an error an
/// answerer raised keeps its JSON-RPC code, message and data exactly.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct UserQuestionError {
    rpc_code: i64,
    message: String,
    data: Value,
}

impl UserQuestionError {
    /// A domain error (`-32000`) with a code and message.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self { rpc_code: DOMAIN_ERROR, message: message.into(), data: json!({ "code": code.into() }) }
    }

    fn fixed(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::new(code.as_str(), message)
    }

    pub fn empty_questions() -> Self {
        Self::fixed(ErrorCode::EmptyQuestions, "ask_user_question requires at least one question")
    }
    pub fn aborted() -> Self {
        Self::fixed(ErrorCode::AskAborted, "ask_user_question was aborted before the user answered")
    }
    pub fn caller_not_live() -> Self {
        Self::fixed(
            ErrorCode::CallerNotLive,
            "human interaction requires the exact live calling agent when an agent is supplied",
        )
    }
    pub fn delegated_caller() -> Self {
        Self::fixed(
            ErrorCode::DelegatedCaller,
            "human interaction is unavailable while the calling agent is owned by another live agent; include the unresolved question or decision in the child agent's final result",
        )
    }
    pub fn no_provider() -> Self {
        Self::fixed(ErrorCode::NoProvider, "no user-questions answerer accepted the request")
    }
    pub fn bad_intent_label(id: &str, kind: &str, approve: &str) -> Self {
        let label = Value::String(approve.to_owned());
        Self::fixed(
            ErrorCode::BadIntent,
            format!("question {id} declares intent {kind} whose approve label {label} names none of its options"),
        )
    }
    pub fn bad_intent_detail(id: &str, kind: &str) -> Self {
        Self::fixed(ErrorCode::BadIntent, format!("question {id} declares intent {kind} without the detail it reviews"))
    }
    /// Malformed params: `-32602` with `data.code` `BAD_REQUEST`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self { rpc_code: INVALID_PARAMS, ..Self::fixed(ErrorCode::BadRequest, message) }
    }
    pub fn bad_answer(message: impl Into<String>) -> Self {
        Self::fixed(ErrorCode::BadAnswer, message)
    }
    pub fn not_pending(ask: &str) -> Self {
        Self::fixed(
            ErrorCode::NotPending,
            format!("ask {ask} is not pending with this answerer (answered, withdrawn, unknown, or held by another)"),
        )
    }
    pub fn agent_live(id: &str) -> Self {
        Self::fixed(ErrorCode::AgentLive, format!("an agent with id {id:?} is live already"))
    }
    pub fn shutting_down() -> Self {
        Self::fixed(ErrorCode::ShuttingDown, "the server is stopping; the ask was not answered")
    }
    /// The error a person's Dismiss sends back to the asker.
    pub fn user_cancelled() -> Self {
        Self::fixed(ErrorCode::AskCancelled, "the user cancelled ask_user_question")
    }
    /// The error a question with nothing to deny gets at the person's deadline.
    pub fn deadline_passed(after: &str) -> Self {
        Self::fixed(
            ErrorCode::DeadlinePassed,
            format!(
                "nobody answered within {after}, the person's deadline for questions; the question was dismissed: \
                 go on without the answer, or ask again later"
            ),
        )
    }
    pub fn bad_reply(message: impl Into<String>) -> Self {
        Self::fixed(ErrorCode::BadReply, message)
    }
    pub fn server_gone(patience_secs: u64) -> Self {
        Self::fixed(
            ErrorCode::ServerGone,
            format!(
                "the user-questions server stopped while the question was pending and none came back within {patience_secs} s"
            ),
        )
    }
    pub fn no_server(message: impl Into<String>) -> Self {
        Self::fixed(ErrorCode::NoServer, message)
    }
    pub fn too_many_connections() -> Self {
        Self::fixed(ErrorCode::TooManyConnections, "too many connections; try again later")
    }

    /// Rebuilds an error from a JSON-RPC error object, keeping every field. Returns
    /// `None` when the value is not an error object (no integer code or no message).
    pub fn from_rpc(error: &Value) -> Option<Self> {
        let rpc_code = error.get("code")?.as_i64()?;
        let message = error.get("message")?.as_str()?.to_owned();
        let data = error.get("data").cloned().unwrap_or(Value::Null);
        Some(Self { rpc_code, message, data })
    }

    /// The JSON-RPC error object this error travels as.
    pub fn to_rpc(&self) -> Value {
        let mut error = Map::new();
        error.insert("code".into(), self.rpc_code.into());
        error.insert("message".into(), self.message.clone().into());
        if !self.data.is_null() {
            error.insert("data".into(), self.data.clone());
        }
        Value::Object(error)
    }

    /// The domain code (`data.code`), or `""` when the error carries none.
    pub fn code(&self) -> &str {
        self.data.get("code").and_then(Value::as_str).unwrap_or("")
    }
    pub fn message(&self) -> &str {
        &self.message
    }
    pub fn is(&self, code: ErrorCode) -> bool {
        self.code() == code.as_str()
    }
    /// Adds a field to `data` (for example the protocol versions a server supports).
    pub fn with_data(mut self, key: &str, value: Value) -> Self {
        if let Value::Object(map) = &mut self.data {
            map.insert(key.into(), value);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_intent_quotes_the_label_as_json() {
        let e = UserQuestionError::bad_intent_label("plan", "plan-review", "Go \"now\"");
        assert_eq!(
            e.message(),
            r#"question plan declares intent plan-review whose approve label "Go \"now\"" names none of its options"#
        );
        assert!(e.is(ErrorCode::BadIntent));
    }

    #[test]
    fn rpc_round_trip_keeps_foreign_errors_whole() {
        let foreign = json!({"code": -32099, "message": "nope", "data": {"code": "X", "extra": [1]}});
        let e = UserQuestionError::from_rpc(&foreign).unwrap();
        assert_eq!(e.to_rpc(), foreign);
        assert_eq!(e.code(), "X");
    }

    #[test]
    fn bad_request_uses_invalid_params() {
        let e = UserQuestionError::bad_request("questions[0].id is missing");
        assert_eq!(e.to_rpc()["code"], -32602);
        assert_eq!(e.to_rpc()["data"]["code"], "BAD_REQUEST");
    }
}
