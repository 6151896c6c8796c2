//! Remembering a permission's Allow as rules of the policy, beside its buttons: the
//! ways the policy offers ([`user_questions::policy::remember`]), each with how many
//! past questions it would have answered, worked out once when the ask arrives. The
//! one picked is added to the person's rules file when they press Allow; a Deny
//! remembers nothing.

use std::path::Path;

use serde::Serialize;
use user_questions::history::past;
use user_questions::model::ErrorCode;
use user_questions::policy::remember::{self, Way};
use user_questions::policy::{session, words, Policy};
use user_questions::{Answer, Ask};
use user_questions_i18n::Text;

use crate::error::UiError;

/// How many recent asks the counts look through, so a long history never slows an
/// ask's arrival.
const LOOKED_THROUGH: u64 = 2_000;

/// A way offered for one ask, with its count.
#[derive(Debug, Clone, PartialEq)]
pub struct Offered {
    pub way: Way,
    /// Past questions it would have answered; `None` with no history to count in.
    pub past: Option<usize>,
}

/// A way as the window lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WayView {
    /// What `answer_question`'s `remember` names it by.
    pub way: usize,
    /// "“cargo test …” with any arguments, in ~/src/shop".
    pub label: String,
    /// "would have answered 3 past questions".
    pub past_label: Option<String>,
}

/// The ways to remember an Allow of `ask`, a permission whose intent names its action,
/// judged by the rules in `config`; counted in the history at `history`.
pub fn offered(ask: &Ask, config: &Path, history: Option<&Path>) -> Vec<Offered> {
    let Some(action) = session::action_of(ask.request()) else { return Vec::new() };
    let Ok(policy) = Policy::load(config, action.cwd.as_deref()) else { return Vec::new() };
    let ways = remember::ways(&action, &policy);
    let candidates: Vec<_> = ways.iter().map(Way::rules).collect();
    let counts = history
        .and_then(user_questions::history::open_if_kept)
        .and_then(|conn| past::would_have_decided(&conn, config, &candidates, Some(LOOKED_THROUGH)).ok());
    ways.into_iter().enumerate().map(|(i, way)| Offered { way, past: counts.as_ref().map(|c| c[i]) }).collect()
}

/// The ways, worded for the person.
pub fn views(offered: &[Offered], text: &Text) -> Vec<WayView> {
    offered
        .iter()
        .enumerate()
        .map(|(i, o)| WayView {
            way: i,
            label: words::way(&o.way, text),
            past_label: o.past.map(|n| text.tr_args("remember-past", &[("count", n.into())])),
        })
        .collect()
}

/// Adds the rules of the `way` of `offered` to the person's rules file in `config`,
/// when `answer` is the Allow (`approve`, the permission's approve label); any other
/// answer keeps nothing.
pub fn keep_allowed(
    config: Option<&Path>,
    offered: &[Offered],
    approve: Option<&str>,
    way: usize,
    answer: &Answer,
    text: &Text,
) -> Result<(), UiError> {
    let Some(config) = config else { return Ok(()) };
    let allowed = answer.answers.first().is_some_and(|a| {
        a.custom.as_deref().is_none_or(|c| c.trim().is_empty()) && a.selected.first().map(String::as_str) == approve
    });
    if !allowed {
        return Ok(());
    }
    let not_offered =
        || UiError::new(ErrorCode::BadRequest, text.tr_args("window-remember-no-way", &[("way", way.into())]));
    keep(config, offered.get(way).ok_or_else(not_offered)?, text)
}

/// Adds the rules of `offered` to the person's rules file in `config`.
fn keep(config: &Path, offered: &Offered, text: &Text) -> Result<(), UiError> {
    remember::keep(config, &offered.way).map_err(|e| {
        UiError::new(ErrorCode::BadRequest, text.tr_args("window-rules-problem", &[("error", (&e.to_string()).into())]))
    })
}
