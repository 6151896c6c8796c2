//! OpenCode 1 (1.18.29 and later): the `permission.asked` and `question.asked` events
//! the plugin's `server()` hands on, answered with the bodies of OpenCode's own reply
//! routes: a permission's `{reply: once | always | reject, message?}`, a question's
//! `{answers: [[label]]}`. A plain Deny is OpenCode's own Reject (the agent stops); a
//! Deny with a reason rejects with it, and the agent goes on with that feedback.

use crate::wording::Worded;
use serde_json::{json, Value};
use user_questions_i18n::Text;

use super::strings;
use crate::agents::hook::call::{shown_path, text, Call};
use crate::agents::hook::permission::{self, Choice, Verdict};
use crate::agents::{HookAsk, HookInput, HookInputError};
use crate::model::labels::DENIED;
use crate::model::{Answer, Question};
use crate::review::shown::fenced;

/// A permission request: what it would do, Allow, "always allow" its patterns for the
/// session where OpenCode offers that, and Deny.
pub(super) fn permission_asked(hook: &HookInput, words: &Text) -> Result<HookAsk, HookInputError> {
    let missing = |field| HookInputError::Missing { event: hook.event.clone(), field };
    let kind = hook.text("permission").ok_or_else(|| missing("permission"))?;
    let metadata = hook.fields.get("metadata").cloned().unwrap_or(json!({}));
    let patterns = strings(hook.fields.get("patterns"));
    let always = strings(hook.fields.get("always"));
    let action;
    let mut description = None;
    let (title, detail) = match (kind, text(&metadata, "filepath"), text(&metadata, "diff")) {
        ("edit", Some(path), Some(diff)) => {
            let title = Worded::new("hook-edit").arg("path", shown_path(&path, hook.cwd()));
            action = Some(crate::policy::Kind::Edit(vec![path]));
            (title, fenced("diff", &diff))
        }
        _ => {
            let call = match kind {
                "bash" => Call::Shell {
                    command: text(&metadata, "command").unwrap_or_else(|| patterns.join("\n")),
                    description: text(&metadata, "description"),
                },
                "webfetch" => Call::Fetch {
                    url: text(&metadata, "url").or_else(|| patterns.first().cloned()).unwrap_or_default(),
                    prompt: None,
                },
                _ => Call::Other { tool: kind.to_owned(), input: json!({"patterns": patterns, "metadata": metadata}) },
            };
            action = call.action();
            description = call.description().map(str::to_owned);
            (call.title(hook.cwd()), call.detail(hook.cwd(), words))
        }
    };
    let choices: Vec<Choice> = (!always.is_empty())
        .then(|| Choice {
            label: words.tr_args("hook-always-allow", &[("what", (&always.join(", ")).into())]),
            description: words.tr_args("hook-rule", &[("where", "session".into())]),
        })
        .into_iter()
        .collect();
    let question = permission::question(&title, words, kind, detail, &choices);
    let mut ask = HookAsk::new(vec![question], move |answer| match permission::verdict(answer, &choices, DENIED) {
        Verdict::Allow => Some(json!({"reply": "once"})),
        Verdict::Choice(_) => Some(json!({"reply": "always"})),
        // A plain Deny is OpenCode's own Reject; a reason goes to the agent with it.
        Verdict::Deny(reason) if reason == DENIED => Some(json!({"reply": "reject"})),
        Verdict::Deny(reason) => Some(json!({"reply": "reject", "message": reason})),
        Verdict::NoDecision => None,
    });
    ask.action = action;
    ask.context.description = description;
    Ok(ask)
}

/// The question tool's questions, answered with each one's labels (typed text as one
/// more); a skipped question has none.
pub(super) fn question_asked(hook: &HookInput) -> Option<HookAsk> {
    let asked = hook.fields.get("questions")?.as_array()?;
    let questions: Vec<Question> = asked
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let mut question = Question::new(format!("q{}", i + 1), text(q, "question").unwrap_or_default());
            question.header = text(q, "header");
            question.multi_select = q.get("multiple").and_then(Value::as_bool).unwrap_or(false);
            for o in q.get("options").and_then(Value::as_array).into_iter().flatten() {
                if let Some(label) = text(o, "label").filter(|l| !question.has_option(l)) {
                    question = question.option(label, o.get("description").and_then(Value::as_str));
                }
            }
            question
        })
        .collect();
    if questions.is_empty() {
        return None;
    }
    Some(HookAsk::new(questions, |answer: &Answer| {
        let answers: Vec<Vec<String>> = answer
            .answers
            .iter()
            .map(|item| item.selected.iter().cloned().chain(item.custom.clone()).collect())
            .collect();
        Some(json!({"answers": answers}))
    }))
}
