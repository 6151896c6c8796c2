//! What the page reads of the app beside its questions: its words in the person's
//! language ([`UiText`]) and the app's state at the moment it starts ([`Status`]),
//! with why the history is not written, if it is not ([`HistoryProblem`]).

use serde::Serialize;
use user_questions_i18n::Language;

/// The window's words in the person's language: its static labels by message id, the
/// language in use and the ones to pick from.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct UiText {
    pub lang: String,
    pub languages: Vec<Language>,
    pub messages: std::collections::BTreeMap<String, String>,
}

/// The app's state as the page starts.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Status {
    pub do_not_disturb: bool,
    pub socket: String,
    /// The question a notification click asked to show, once.
    pub focus: Option<String>,
    /// Why the history is not kept (a file that cannot be opened or written).
    pub history_problem: Option<HistoryProblem>,
    /// How many questions the page may build before it is loaded again, once nothing
    /// waits.
    #[cfg_attr(test, ts(type = "number"))]
    pub renew_after: u64,
}

/// What the window says of a history that is not written: off (it could not be
/// opened: nothing is kept until the next start), or paused (a file cannot be written
/// for now: a full disk; it goes on once it can), in the person's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct HistoryProblem {
    pub paused: bool,
    pub why: String,
}
