//! Reviewing an agent's changes: a diff asked as one question with the code-review
//! intent (Approve, or Request changes with the review as text), read back as a
//! verdict. [`diff`] reads git's diffs, [`feedback`] words the comments an agent acts
//! on, and [`git`] takes the working tree as git sees it, untracked files included,
//! so a review can be of only what changed since the last one. `userq review`, the
//! MCP tool and Claude Code's `Stop` hook all ask through here.
//!
//! The diff travels as a diff: the intent carries it as its `diff` field, which the
//! window reads into files and lines; the detail holds the same text in a `diff` code
//! block for a door that does not know the intent (a terminal, another UI).

pub mod diff;
pub mod feedback;
pub mod git;
pub mod plan;
pub mod shown;

use serde_json::Map;

use crate::model::labels::{APPROVE, CODE_REVIEW, REQUEST_CHANGES, REVIEW_HEADER, REVIEW_QUESTION};
use crate::model::{Answer, Intent, Kind, Question};
use shown::fenced;

/// The question of a review of `diff`.
pub fn question(diff: &str) -> Question {
    let mut q = Question::new("review", REVIEW_QUESTION)
        .option(APPROVE, Some("The changes are good as they are"))
        .option(REQUEST_CHANGES, Some("The agent goes on working, with your comments"));
    q.header = Some(REVIEW_HEADER.into());
    q.detail = Some(fenced("diff", diff));
    let extra = Map::from_iter([(DIFF.to_owned(), diff.into())]);
    q.intent = Some(Intent { kind: CODE_REVIEW.into(), approve: APPROVE.into(), extra });
    q
}

/// The code-review intent's field that carries the diff.
pub const DIFF: &str = "diff";

/// The diff a code-review question carries, as the asker gave it; `None` for any other
/// question, and for a code review asked without it (shown as a generic question).
pub fn diff_of(q: &Question) -> Option<&str> {
    q.intent.as_ref().and_then(diff_in)
}

/// The diff a code-review intent carries; `None` for any other intent.
pub fn diff_in(intent: &Intent) -> Option<&str> {
    let diff = intent.extra.get(DIFF).filter(|_| Kind::of_tag(&intent.kind) == Kind::CodeReview)?.as_str()?;
    Some(diff).filter(|d| !d.trim().is_empty())
}

/// What the reviewer decided.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Approved,
    /// Changes requested, with the feedback text the agent reads.
    Changes(String),
    /// Skipped: no decision.
    None,
}

/// The verdict of an answer to [`question`]. Typed text is the review (the window's
/// comments come already worded); text without the directive preamble gets it.
pub fn verdict(answer: &Answer) -> Verdict {
    let Some(item) = answer.answers.first() else { return Verdict::None };
    match (item.custom.as_deref().map(str::trim).filter(|t| !t.is_empty()), item.selected.first().map(String::as_str)) {
        (Some(text), _) if text.starts_with(feedback::PREAMBLE) => Verdict::Changes(text.to_owned()),
        (Some(text), _) => Verdict::Changes(format!("{}\n\n{text}", feedback::PREAMBLE)),
        (None, Some(APPROVE)) => Verdict::Approved,
        (None, Some(REQUEST_CHANGES)) => Verdict::Changes(feedback::PREAMBLE.to_owned()),
        _ => Verdict::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AnswerItem;

    #[test]
    fn a_review_is_approved_or_changes_with_the_preamble_once() {
        let q = question("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
        assert_eq!(q.detail.as_deref(), Some("```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```"));
        assert_eq!(q.intent.as_ref().unwrap().kind, "code-review");
        assert_eq!(diff_of(&q), Some("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"));
        let one = |item| Answer::new(vec![item]);
        assert_eq!(verdict(&one(AnswerItem::selected("review", &["Approve"]))), Verdict::Approved);
        let typed = verdict(&one(AnswerItem::custom("review", "Rename it.")));
        assert_eq!(typed, Verdict::Changes(format!("{}\n\nRename it.", feedback::PREAMBLE)));
        let worded = format!("{}\n\nx.rs, line 1:\n  Rename it.", feedback::PREAMBLE);
        assert_eq!(verdict(&one(AnswerItem::custom("review", worded.clone()))), Verdict::Changes(worded));
        assert_eq!(verdict(&one(AnswerItem::skipped("review"))), Verdict::None);
    }

    #[test]
    fn only_a_code_review_with_its_diff_has_a_diff() {
        let mut q = question("--- a/x\n+++ b/x\n");
        q.intent.as_mut().unwrap().extra.clear();
        assert_eq!(diff_of(&q), None);
        let mut other = question("--- a/x\n+++ b/x\n");
        other.intent.as_mut().unwrap().kind = "plan-review".into();
        assert_eq!(diff_of(&other), None);
    }
}
