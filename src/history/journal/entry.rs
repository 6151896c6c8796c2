//! What a journal holds: one JSON line per entry, externally tagged (`begin`, `end`,
//! `whole`, `ruleUsed`). Written from the service's own values, borrowed; read back
//! with the request and outcome kept as the raw JSON they were written as.

use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::super::store;
use crate::model::{Answer, UserQuestionError};
/// How an ask ended, as it is appended: the answer as the asker received it, or the
/// error.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum OutcomeRef<'a> {
    Answer(&'a Answer),
    Error { code: &'a str, message: &'a str },
}

impl<'a> From<&'a Result<Answer, UserQuestionError>> for OutcomeRef<'a> {
    fn from(outcome: &'a Result<Answer, UserQuestionError>) -> Self {
        match outcome {
            Ok(answer) => OutcomeRef::Answer(answer),
            Err(e) => OutcomeRef::Error { code: e.code(), message: e.message() },
        }
    }
}

/// An ask as it is appended, borrowed from the service's own values.
#[derive(Serialize, Clone, Copy)]
#[serde(rename_all = "camelCase")]
pub struct AskRef<'a> {
    pub asked_at: i64,
    pub seq: u64,
    /// The request's JSON, as the ask wrote it once for everyone (see `Ask::request_json`).
    pub request: &'a RawValue,
}

/// An ending as it is appended.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndRef<'a> {
    ended_at: i64,
    outcome: OutcomeRef<'a>,
    by: Option<&'a str>,
}

impl<'a> EndRef<'a> {
    pub fn new(at: SystemTime, outcome: &'a Result<Answer, UserQuestionError>, by: Option<&'a str>) -> Self {
        Self { ended_at: store::nanos(at), outcome: outcome.into(), by }
    }
}

/// One thing to write, as it is appended. `n` ties an ending to the ask it began.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub enum EntryRef<'a> {
    /// An ask still pending.
    Begin { n: u64, ask: AskRef<'a> },
    /// How the ask begun as `n` ended.
    End { n: u64, end: EndRef<'a> },
    /// An ask that ended before it was written as pending (a refused one among them).
    Whole { ask: AskRef<'a>, end: EndRef<'a> },
    /// A rule answered an ask.
    RuleUsed { id: i64, at: i64 },
}

/// An entry as it is read back, the JSON of the request and outcome kept as it came
/// (externally tagged: serde reads raw JSON only where it needs no buffering).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum Entry {
    Begin { n: u64, ask: AskRow },
    End { n: u64, end: EndRow },
    Whole { ask: AskRow, end: EndRow },
    RuleUsed { id: i64, at: i64 },
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct AskRow {
    pub(super) asked_at: i64,
    pub(super) seq: i64,
    pub(super) request: Box<RawValue>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct EndRow {
    pub(super) ended_at: i64,
    pub(super) outcome: Box<RawValue>,
    pub(super) by: Option<String>,
}

/// The parts of a request the history keeps in columns of their own.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct RequestParts {
    pub(super) questions: Vec<Box<RawValue>>,
    pub(super) agent: Option<AgentParts>,
    pub(super) context: Option<Box<RawValue>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct AgentParts {
    pub(super) id: String,
    pub(super) client: Option<String>,
    pub(super) delegation_depth: i64,
}

/// A question's words, for search.
#[derive(Deserialize)]
pub(super) struct QuestionWords {
    pub(super) question: String,
    pub(super) header: Option<String>,
    pub(super) detail: Option<String>,
}

/// An answer's words, for search.
#[derive(Deserialize)]
pub(super) struct OutcomeWords {
    pub(super) answer: Option<AnswerWords>,
}
#[derive(Deserialize)]
pub(super) struct AnswerWords {
    pub(super) answers: Vec<ItemWords>,
}
#[derive(Deserialize)]
pub(super) struct ItemWords {
    #[serde(default)]
    pub(super) selected: Vec<String>,
    pub(super) custom: Option<String>,
}
