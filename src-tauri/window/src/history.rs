//! The window's History and Rules views, read from the history file (the same one
//! `userq history` reads), and "Remember this answer": one page of asks at a time,
//! newest first, worded for the person; the remembered answers and their removal; a
//! rule made from an answer given in the window.

use std::path::Path;
use user_questions::history::decider::Decider;

use serde::Serialize;
use user_questions::history::store::{self, Query, Rule};
use user_questions::model::{Answer, ErrorCode, Intent};
use user_questions::wording;
use user_questions::Ask;
use user_questions_i18n::Text;

use crate::error::UiError;
use crate::markdown;

/// Asks per page of the History view.
pub const PAGE: u64 = 50;

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct HistoryItem {
    #[cfg_attr(test, ts(type = "number"))]
    pub ask: i64,
    pub question: String,
    /// The answer's words, or how the ask ended ("NO_PROVIDER", "pending").
    pub outcome: String,
    pub answered: bool,
    pub agent: Option<String>,
    pub client: Option<String>,
    pub asked_at: String,
    /// "waited 2m 3s", or empty while pending.
    pub waited: String,
    pub answered_by: Option<String>,
    /// "by remembered answer 3", "by you, on beta".
    pub by_label: Option<String>,
    /// A plan review's plan, rendered and sanitized, to open again.
    pub plan_html: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct HistoryPage {
    pub items: Vec<HistoryItem>,
    /// Pass as `before` for the next page; `None` on the last.
    #[cfg_attr(test, ts(type = "number | null"))]
    pub next: Option<i64>,
}

/// The history could not be read or written: the system's reason, in the person's words.
fn failed<E: std::fmt::Display>(text: &Text) -> impl Fn(E) -> UiError + '_ {
    |e| UiError::new(ErrorCode::History, text.tr_args("window-error-history", &[("error", (&e.to_string()).into())]))
}

/// One page: the newest asks (matching `search`), older than `before` when given.
pub fn page(path: &Path, search: Option<String>, before: Option<i64>, text: &Text) -> Result<HistoryPage, UiError> {
    if !path.exists() {
        return Ok(HistoryPage { items: Vec::new(), next: None });
    }
    let conn = user_questions::history::open_for_reading(path).map_err(failed(text))?;
    let query = Query { search, before_ask: before, limit: Some(PAGE + 1), ..Default::default() };
    let mut entries = store::list(&conn, &query).map_err(failed(text))?;
    let next = (entries.len() as u64 > PAGE).then(|| {
        entries.truncate(PAGE as usize);
        entries.last().map(|e| e.ask)
    });
    Ok(HistoryPage { items: entries.iter().map(|e| item(e, text)).collect(), next: next.flatten() })
}

fn item(e: &store::Entry, text: &Text) -> HistoryItem {
    let questions = e.request["questions"].as_array().cloned().unwrap_or_default();
    let question = questions.iter().filter_map(|q| q["question"].as_str()).collect::<Vec<_>>().join(" · ");
    let plan_html = questions
        .iter()
        .find(|q| q["intent"]["kind"] == Intent::PLAN_REVIEW)
        .and_then(|q| q["detail"].as_str())
        .map(markdown::render);
    let words = e.answer_words(&text.tr("history-skipped"), " · ");
    let answered = words.is_some();
    let outcome = words
        .or_else(|| e.error_code().map(|code| wording::ended(code, text)))
        .unwrap_or_else(|| text.tr("history-pending"));
    let waited = e
        .waited()
        .map(|d| humantime::format_duration(std::time::Duration::from_secs(d.as_secs())).to_string())
        .map(|w| text.tr_args("window-history-waited", &[("waited", (&w).into())]))
        .unwrap_or_default();
    HistoryItem {
        ask: e.ask,
        question,
        outcome,
        answered,
        agent: e.agent.as_ref().and_then(|a| a["id"].as_str()).map(str::to_owned),
        client: e.agent.as_ref().and_then(|a| a["client"].as_str()).map(str::to_owned),
        asked_at: e.asked_at.clone(),
        waited,
        answered_by: e.answered_by.clone(),
        by_label: e.answered_by.as_deref().map(|b| {
            let who = Decider::parse(b).words(text);
            text.tr_args("window-history-by", &[("by", (&who).into())])
        }),
        plan_html,
    }
}

/// A remembered answer as the Rules view shows it.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RuleView {
    #[serde(flatten)]
    pub rule: Rule,
    /// The client it is for, or "every client".
    pub client_label: String,
    /// "used 3 times".
    pub uses_label: String,
}

pub fn rules(path: &Path, text: &Text) -> Result<Vec<RuleView>, UiError> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let rules =
        store::rules(&user_questions::history::open_for_reading(path).map_err(failed(text))?).map_err(failed(text))?;
    Ok(rules
        .into_iter()
        .map(|rule| RuleView {
            client_label: rule.client.clone().unwrap_or_else(|| text.tr("window-rules-every-client")),
            uses_label: text.tr_args("window-rules-uses", &[("count", (rule.uses as u64).into())]),
            rule,
        })
        .collect())
}

pub fn remove_rule(path: &Path, id: i64, text: &Text) -> Result<(), UiError> {
    let conn = user_questions::history::open_for_writing(path).map_err(failed(text))?;
    match store::remove_rule(&conn, id).map_err(failed(text))? {
        true => Ok(()),
        false => Err(UiError::new(
            ErrorCode::NoSuchRule,
            text.tr_args("window-error-no-such-rule", &[("id", (&id.to_string()).into())]),
        )),
    }
}

/// What to remember: the answer, for whom; or, for a permission, an Allow as the
/// rules of one of the ways offered ([`crate::remember`]), by its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum RememberFor {
    /// Asks from the same client only.
    Client,
    /// Asks from every client.
    Everyone,
    /// The policy's rules of this way.
    Way(usize),
}

/// Whether an ask's answer can be remembered: one single-select question with
/// options, not a plan review, not one a team decides.
pub fn can_remember(ask: &Ask) -> bool {
    let [q] = ask.request().questions.as_slice() else { return false };
    // Never a plan, a change under review, or a server's form or page: each is judged
    // when it comes.
    use user_questions::model::labels::{CODE_REVIEW, ELICITATION};
    let judged = |i: &Intent| [Intent::PLAN_REVIEW, CODE_REVIEW, ELICITATION].contains(&i.kind.as_str());
    // Nor one a team decides: a remembered answer would be one person's.
    !q.multi_select && !q.options.is_empty() && !q.intent.as_ref().is_some_and(judged) && !ask.needs_team()
}

/// Makes a rule of the answer the person gave in the window: the question's text and
/// detail as they came, the label picked. `None` when the answer picked no label
/// (typed text, skipped) or the ask cannot be remembered.
pub fn remember(
    path: &Path,
    ask: &Ask,
    answer: &Answer,
    whom: RememberFor,
    text: &Text,
) -> Result<Option<i64>, UiError> {
    if !can_remember(ask) {
        return Ok(None);
    }
    let q = &ask.request().questions[0];
    let Some(item) = answer.answers.iter().find(|a| a.id == q.id) else { return Ok(None) };
    let [label] = item.selected.as_slice() else { return Ok(None) };
    if item.custom.as_deref().is_some_and(|c| !c.trim().is_empty()) {
        return Ok(None);
    }
    let client = match whom {
        RememberFor::Client => ask.client().map(str::to_owned),
        RememberFor::Everyone => None,
        RememberFor::Way(_) => return Ok(None),
    };
    let conn = user_questions::history::open_for_writing(path).map_err(failed(text))?;
    store::add_rule(&conn, &q.question, label, client.as_deref(), q.detail.as_deref()).map(Some).map_err(failed(text))
}
