//! The error every window command returns: a code the page branches on and a message
//! in the person's language, never text to parse (GitButler's shape). Apart from the
//! views, so each of them reaches it without reaching into another.

use serde::Serialize;
use user_questions::model::{ErrorCode, UserQuestionError};

/// The error a command returns: a code and a message, never text to parse.
#[derive(Debug, Clone, Serialize, thiserror::Error)]
#[error("{message}")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UiError {
    /// One of [`ErrorCode`]'s (the page sees their union, `ErrorCode`).
    #[cfg_attr(test, ts(type = "ErrorCode"))]
    pub code: String,
    pub message: String,
}

impl UiError {
    /// One of the window's own errors, its message in the person's language.
    pub fn new(code: ErrorCode, message: String) -> Self {
        Self { code: code.as_str().to_owned(), message }
    }
}

impl From<UserQuestionError> for UiError {
    fn from(e: UserQuestionError) -> Self {
        Self { code: e.code().to_owned(), message: e.message().to_owned() }
    }
}
