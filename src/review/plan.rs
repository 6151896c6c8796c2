//! A plan's review as the one text an agent acts on. A reviewer annotates the lines of
//! the plan's markdown (a comment, "remove this", or a replacement) and may add general
//! notes; Revise sends them under a directive preamble (the plan was not approved;
//! address every point), Approve under one that says the plan goes ahead with these
//! notes. Each annotation is listed in document order with its source lines and the
//! text it quotes. On the next version of the plan, [`status`] tells which earlier
//! annotations were addressed (their lines changed) and which are still open, and
//! where their lines are now.

use serde::{Deserialize, Serialize};
use similar::{ChangeTag, TextDiff};

use crate::model::labels::{APPROVE, APPROVE_EDITS, REVISE};
use crate::model::Answer;

/// What an annotation asks of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "AnnotationKind"))]
pub enum Kind {
    Comment,
    Remove,
    Replace,
}

/// One annotation of a plan: the source lines it points at (1-based, first and last),
/// the text the reviewer selected, and what they wrote (the comment, the replacement,
/// or why to remove it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "PlanAnnotation"))]
pub struct Annotation {
    pub lines: (u32, u32),
    pub quote: String,
    pub kind: Kind,
    #[serde(default)]
    pub text: String,
}

/// The first line of a plan sent back for revision.
pub const REVISE_PREAMBLE: &str = "Plan not approved: revise it. Address every point below, \
then present the revised plan for review again.";

/// The first line of a plan approved with notes. A single-select answer's text
/// replaces its choice (the protocol's rule), so an approval with notes is this text:
/// [`approval`] reads the choice back from it.
pub const APPROVED_PREAMBLE: &str = "Plan approved, with notes from the reviewer: \
go ahead with the plan and follow these notes as you carry it out.";

/// The same, for the approval that also accepts file edits for the session.
pub const APPROVED_EDITS_PREAMBLE: &str = "Plan approved, with file edits accepted for the rest of this session, \
and with notes from the reviewer: go ahead with the plan and follow these notes as you carry it out.";

/// The approve label a feedback text stands for, when it is an approval with notes.
pub fn approval(feedback: &str) -> Option<&'static str> {
    if feedback.starts_with(APPROVED_EDITS_PREAMBLE) {
        Some(APPROVE_EDITS)
    } else {
        feedback.starts_with(APPROVED_PREAMBLE).then_some(APPROVE)
    }
}

/// What a plan's reviewer decided, read the same whichever door the answer came
/// through: the window's worded review, a terminal's typed text, another machine's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Approved with `label` (Approve, or the approval that also accepts edits), with
    /// the reviewer's notes when they wrote any.
    Approved { label: &'static str, notes: Option<String> },
    /// Sent back: the directive the agent acts on, naming the plan's file when it has one.
    Revise(String),
    /// Skipped: no decision.
    None,
}

/// The verdict of an answer to a plan review whose plan is kept in `plan_file`. Typed
/// text that is not an approval is a revision; every revision, however it was given,
/// opens with the one directive ([`REVISE_PREAMBLE`]).
pub fn verdict(answer: &Answer, plan_file: Option<&str>) -> Verdict {
    let Some(item) = answer.answers.first() else { return Verdict::None };
    let text = item.custom.as_deref().map(str::trim).filter(|t| !t.is_empty());
    if let Some(label) = text.and_then(approval) {
        return Verdict::Approved { label, notes: text.map(str::to_owned) };
    }
    match (item.selected.first().map(String::as_str), text) {
        (Some(APPROVE), None) => Verdict::Approved { label: APPROVE, notes: None },
        (Some(APPROVE_EDITS), None) => Verdict::Approved { label: APPROVE_EDITS, notes: None },
        (_, Some(text)) => Verdict::Revise(revision(text, plan_file)),
        (Some(REVISE), None) => Verdict::Revise(revision("", plan_file)),
        _ => Verdict::None,
    }
}

/// The directive, where the plan is kept, then what the reviewer wrote.
fn revision(text: &str, plan_file: Option<&str>) -> String {
    let written = without_preamble(text);
    let mut out = REVISE_PREAMBLE.to_owned();
    if let Some(path) = plan_file {
        out.push_str(&format!(" The plan is in {path}: edit it there."));
    }
    if !written.is_empty() {
        out.push_str("\n\n");
        out.push_str(written);
    }
    out
}

/// What a review's text says past its preamble (what the reviewer wrote).
pub fn without_preamble(text: &str) -> &str {
    [REVISE_PREAMBLE, APPROVED_EDITS_PREAMBLE, APPROVED_PREAMBLE]
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .unwrap_or(text)
        .trim()
}

/// The notes on the whole plan in a review's text, as the reviewer wrote them.
pub fn general_of(text: &str) -> Option<String> {
    let (_, general) = text.split_once("On the whole plan:\n")?;
    Some(general.lines().map(|l| l.strip_prefix("  ").unwrap_or(l)).collect::<Vec<_>>().join("\n"))
}

/// The feedback text of a review: `approve` (the approve label chosen, or none for a
/// revision) chooses the preamble; annotations in document order (by their first
/// line, then last), then the general notes. `None` when nothing was written: an
/// approval is then the label alone, a revision the preamble alone.
pub fn feedback(approve: Option<&str>, annotations: &[Annotation], general: &str) -> Option<String> {
    let approved = approve.is_some();
    let mut ordered: Vec<&Annotation> = annotations.iter().collect();
    ordered.sort_by_key(|a| a.lines);
    let mut parts: Vec<String> = ordered.into_iter().map(point).collect();
    if !general.trim().is_empty() {
        parts.push(format!("On the whole plan:\n{}", indent(general.trim())));
    }
    if parts.is_empty() && approved {
        return None;
    }
    let preamble = match approve {
        Some(APPROVE_EDITS) => APPROVED_EDITS_PREAMBLE,
        Some(_) => APPROVED_PREAMBLE,
        None => REVISE_PREAMBLE,
    };
    parts.insert(0, preamble.to_owned());
    Some(parts.join("\n\n"))
}

fn point(a: &Annotation) -> String {
    let (from, to) = a.lines;
    let at = if from == to { format!("Line {from}") } else { format!("Lines {from}-{to}") };
    let quote = a.quote.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = a.text.trim();
    let ask = match a.kind {
        Kind::Comment => text.to_owned(),
        Kind::Remove if text.is_empty() => "Remove this.".to_owned(),
        Kind::Remove => format!("Remove this: {text}"),
        Kind::Replace => format!("Replace with:\n{}", indent(text)),
    };
    format!("{at}, \"{quote}\":\n{}", indent(&ask))
}

fn indent(text: &str) -> String {
    text.lines().map(|l| if l.is_empty() { String::new() } else { format!("  {l}") }).collect::<Vec<_>>().join("\n")
}

/// An earlier annotation seen on the next version of its plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "AnnotationStatus"))]
pub struct Status {
    pub annotation: Annotation,
    /// Its lines changed or went: the agent acted on it.
    pub addressed: bool,
    /// Where its lines are in the new version, when they are all still there.
    pub now: Option<(u32, u32)>,
}

/// Each annotation of `before` judged against `after`: addressed when any line it
/// points at was changed or removed; open, with its lines' new numbers, when not.
pub fn status(before: &str, after: &str, annotations: &[Annotation]) -> Vec<Status> {
    // For each old line (1-based), its new number when it is unchanged.
    let mut kept: Vec<Option<u32>> = vec![None];
    for change in TextDiff::from_lines(before, after).iter_all_changes() {
        match change.tag() {
            ChangeTag::Equal => kept.push(change.new_index().map(|i| i as u32 + 1)),
            ChangeTag::Delete => kept.push(None),
            ChangeTag::Insert => {}
        }
    }
    let mut ordered = annotations.to_vec();
    ordered.sort_by_key(|a| a.lines);
    ordered
        .into_iter()
        .map(|annotation| {
            let (from, to) = annotation.lines;
            let lines: Vec<Option<u32>> = (from..=to).map(|n| kept.get(n as usize).copied().flatten()).collect();
            let open = !lines.is_empty() && lines.iter().all(Option::is_some);
            let now = open.then(|| (lines[0].unwrap_or(from), lines[lines.len() - 1].unwrap_or(to)));
            Status { annotation, addressed: !open, now }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// An annotation's first line, whether it was addressed, and where it is now.
    type Seen = (u32, bool, Option<(u32, u32)>);

    use super::*;

    fn note(lines: (u32, u32), quote: &str, kind: Kind, text: &str) -> Annotation {
        Annotation { lines, quote: quote.into(), kind, text: text.into() }
    }

    #[test]
    fn revise_lists_every_annotation_in_document_order_then_the_general_notes() {
        let annotations = [
            note((7, 7), "Remove the in-memory store.", Kind::Remove, ""),
            note((3, 4), "Add a  SessionStore\ntrait", Kind::Comment, "Name it Sessions.\nIt reads better."),
            note((5, 5), "Dual-write for one release", Kind::Replace, "Dual-write for two releases"),
            note((6, 6), "behind a flag", Kind::Remove, "flags linger"),
        ];
        assert_eq!(
            feedback(None, &annotations, "  Keep the tests fast.  ").unwrap(),
            "Plan not approved: revise it. Address every point below, then present the revised plan for review again.

Lines 3-4, \"Add a SessionStore trait\":
  Name it Sessions.
  It reads better.

Line 5, \"Dual-write for one release\":
  Replace with:
    Dual-write for two releases

Line 6, \"behind a flag\":
  Remove this: flags linger

Line 7, \"Remove the in-memory store.\":
  Remove this.

On the whole plan:
  Keep the tests fast."
        );
    }

    #[test]
    fn approve_with_notes_has_its_own_preamble_and_without_notes_is_the_label_alone() {
        let text = feedback(Some(APPROVE), &[], "Mind the TTL.").unwrap();
        assert!(text.starts_with(APPROVED_PREAMBLE) && text.ends_with("On the whole plan:\n  Mind the TTL."));
        assert_eq!(approval(&text), Some(APPROVE));
        let edits = feedback(Some(APPROVE_EDITS), &[], "Mind the TTL.").unwrap();
        assert_eq!(approval(&edits), Some(APPROVE_EDITS));
        assert_eq!(feedback(Some(APPROVE), &[], " \n"), None);
        assert_eq!(feedback(None, &[], "").as_deref(), Some(REVISE_PREAMBLE));
        assert_eq!(approval(REVISE_PREAMBLE), None);
        assert_eq!(without_preamble(&text), "On the whole plan:\n  Mind the TTL.");
        assert_eq!(without_preamble("typed by hand"), "typed by hand");
        assert_eq!(general_of(&text).as_deref(), Some("Mind the TTL."));
        assert_eq!(general_of(REVISE_PREAMBLE), None);
    }

    #[test]
    fn a_revision_given_at_any_door_opens_with_the_directive_and_names_the_plan_file() {
        use crate::model::AnswerItem;
        let one = |item| Answer::new(vec![item]);
        let file = Some("/home/me/.claude/plans/auth.md");
        let directive = format!("{REVISE_PREAMBLE} The plan is in /home/me/.claude/plans/auth.md: edit it there.");
        let typed = format!("{directive}\n\nuse the in-process cache instead");
        // Typed at a terminal (the text replaces the choice), or chosen with text.
        let bare = one(AnswerItem::custom("plan", "  use the in-process cache instead "));
        assert_eq!(verdict(&bare, file), Verdict::Revise(typed.clone()));
        let mut chosen = AnswerItem::selected("plan", &[REVISE]);
        chosen.custom = Some("use the in-process cache instead".into());
        assert_eq!(verdict(&one(chosen), file), Verdict::Revise(typed));
        // The window's worded review keeps its points, once under the directive.
        let worded = feedback(None, &[], "Keep the old store.").unwrap();
        assert_eq!(
            verdict(&one(AnswerItem::custom("plan", worded)), file),
            Verdict::Revise(format!("{directive}\n\nOn the whole plan:\n  Keep the old store."))
        );
        assert_eq!(
            verdict(&one(AnswerItem::selected("plan", &[REVISE])), None),
            Verdict::Revise(REVISE_PREAMBLE.into())
        );
        let notes = feedback(Some(APPROVE_EDITS), &[], "Mind the TTL.").unwrap();
        assert_eq!(
            verdict(&one(AnswerItem::custom("plan", notes.clone())), file),
            Verdict::Approved { label: APPROVE_EDITS, notes: Some(notes) }
        );
        assert_eq!(
            verdict(&one(AnswerItem::selected("plan", &[APPROVE])), file),
            Verdict::Approved { label: APPROVE, notes: None }
        );
        assert_eq!(verdict(&one(AnswerItem::skipped("plan")), file), Verdict::None);
    }

    #[test]
    fn an_annotation_whose_lines_changed_is_addressed_and_one_whose_lines_stayed_is_open_where_they_are_now() {
        let before = "# Plan\n\n1. Add a trait\n2. Dual-write\n3. Remove the old store\n";
        let after = "# Plan\n\nWhy: sessions outlive a deploy.\n\n1. Add a trait\n2. Dual-write for two releases\n3. Remove the old store\n";
        let annotations = [
            note((5, 5), "Remove the old store", Kind::Remove, ""),
            note((4, 4), "Dual-write", Kind::Comment, "For how long?"),
            note((3, 3), "Add a trait", Kind::Comment, "Say why first."),
        ];
        let found: Vec<Seen> = status(before, after, &annotations)
            .into_iter()
            .map(|s| (s.annotation.lines.0, s.addressed, s.now))
            .collect();
        assert_eq!(found, [(3, false, Some((5, 5))), (4, true, None), (5, false, Some((7, 7)))]);
        // Lines past the end of the old plan (a stale annotation) count as gone.
        assert!(status(before, after, &[note((40, 41), "x", Kind::Comment, "y")])[0].addressed);
    }
}
