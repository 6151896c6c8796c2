//! A permission prompt as one question: `Allow`, any "always allow" choices the agent
//! offers, and `Deny`; typed text is a reason to deny (under the single-select rule,
//! text replaces the choice). The answer maps back to a [`Verdict`] that each agent's
//! hook writes in its own shape. A skipped question is no decision.

use crate::model::labels::{ALLOW, DENY, PERMISSION};
use crate::model::{Answer, AnswerItem, Intent, Question};
use crate::policy::{Decision, Verdict as PolicyVerdict};
use crate::wording::{Worded, TITLE};
use user_questions_i18n::Text;

/// The id of the one question a permission ask holds.
pub const ID: &str = "permission";

/// What the person decided about a permission.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Allow,
    /// The n-th extra choice (an "always allow" rule, a mode), in the order given.
    Choice(usize),
    Deny(String),
    /// Skipped: the agent's own prompt decides.
    NoDecision,
}

/// A choice besides Allow and Deny: its label and what it does.
pub struct Choice {
    pub label: String,
    pub description: String,
}

/// The permission question: `Allow`, the extra choices, `Deny`; its title worded in
/// `words`' language here and kept in its intent for each door to word in its own.
pub fn question(title: &Worded, words: &Text, header: &str, detail: String, choices: &[Choice]) -> Question {
    let mut q = Question::new(ID, title.said(words).unwrap_or_default()).option(ALLOW, Some("Let it run this once"));
    for c in choices {
        q = q.option(c.label.clone(), Some(&c.description));
    }
    q = q.option(DENY, Some("Do not let it run; the agent is told you said no"));
    q.header = Some(header.to_owned());
    q.detail = Some(detail);
    let extra = serde_json::to_value(title).ok().map(|t| [(TITLE.to_owned(), t)].into_iter().collect());
    q.intent = Some(Intent { kind: PERMISSION.into(), approve: ALLOW.into(), extra: extra.unwrap_or_default() });
    q
}

/// Reads the person's answer; `denied` is the message an agent reads after a plain Deny.
pub fn verdict(answer: &Answer, choices: &[Choice], denied: &str) -> Verdict {
    let Some(item) = answer.answers.first() else { return Verdict::NoDecision };
    if let Some(text) = item.custom.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        return Verdict::Deny(text.to_owned());
    }
    match item.selected.first().map(String::as_str) {
        Some(ALLOW) => Verdict::Allow,
        Some(DENY) => Verdict::Deny(denied.to_owned()),
        Some(label) => match choices.iter().position(|c| c.label == label) {
            Some(i) => Verdict::Choice(i),
            None => Verdict::NoDecision,
        },
        None => Verdict::NoDecision,
    }
}

/// The answer the policy's verdict gives a permission question: Allow, or a deny with
/// the policy's reason; `None` when the person decides.
pub fn answer_for(decision: &Decision) -> Option<Answer> {
    let item = match decision.decision {
        PolicyVerdict::Allow => AnswerItem::selected(ID, &[ALLOW]),
        PolicyVerdict::Deny => AnswerItem::custom(ID, decision.deny_message()),
        PolicyVerdict::Ask => return None,
    };
    Some(Answer::new(vec![item]))
}

/// Makes each label unique by numbering repeats, as a question's options must be.
pub fn unique_labels(choices: &mut [Choice]) {
    let mut seen = std::collections::HashSet::new();
    for c in choices.iter_mut() {
        let base = c.label.clone();
        let mut n = 1;
        while !seen.insert(c.label.clone()) || c.label == ALLOW || c.label == DENY {
            n += 1;
            c.label = format!("{base} ({n})");
        }
    }
}

/// A permission request from Claude Code for `command` in `/home/me/shop`, its action
/// named, as the tests of every door that answers one use it.
#[cfg(test)]
pub(crate) fn request_for(command: &str, session: Option<&str>) -> crate::model::Request {
    let mut q =
        question(&Worded::new("hook-run-command"), &Text::for_tag("en"), "Bash", format!("```sh\n{command}\n```"), &[]);
    q.intent.as_mut().unwrap().extra.insert(crate::policy::ACTION.into(), serde_json::json!({"command": command}));
    let context = crate::model::Context {
        project: Some("/home/me/shop".into()),
        session: session.map(Into::into),
        source: Some("Claude Code".into()),
        ..Default::default()
    };
    crate::model::Request { questions: vec![q], agent: None, context: Some(context) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AnswerItem;

    fn choices() -> Vec<Choice> {
        vec![Choice { label: "Always allow npm test".into(), description: "d".into() }]
    }

    #[test]
    fn each_answer_maps_to_its_verdict() {
        let c = choices();
        let v = |item| verdict(&Answer::new(vec![item]), &c, "no");
        assert_eq!(v(AnswerItem::selected(ID, &[ALLOW])), Verdict::Allow);
        assert_eq!(v(AnswerItem::selected(ID, &["Always allow npm test"])), Verdict::Choice(0));
        assert_eq!(v(AnswerItem::selected(ID, &[DENY])), Verdict::Deny("no".into()));
        assert_eq!(v(AnswerItem::custom(ID, " not in prod ")), Verdict::Deny("not in prod".into()));
        assert_eq!(v(AnswerItem::skipped(ID)), Verdict::NoDecision);
    }

    #[test]
    fn the_question_is_single_select_with_a_permission_intent() {
        let q = question(
            &Worded::new("hook-run-command"),
            &Text::for_tag("en"),
            "Bash",
            "```sh\nls\n```".into(),
            &choices(),
        );
        let labels: Vec<_> = q.options.iter().map(|o| o.label.as_str()).collect();
        assert_eq!(labels, ["Allow", "Always allow npm test", "Deny"]);
        assert!(!q.multi_select);
        assert_eq!(q.intent.unwrap().approve, "Allow");
    }

    #[test]
    fn repeated_labels_are_numbered() {
        let mut c = vec![
            Choice { label: "Always allow x".into(), description: String::new() },
            Choice { label: "Always allow x".into(), description: String::new() },
        ];
        unique_labels(&mut c);
        assert_eq!((c[0].label.as_str(), c[1].label.as_str()), ("Always allow x", "Always allow x (2)"));
    }
}
