//! OpenCode 2: what the plugin's `setup(ctx)` hands on (OpenCode's v2 plugin
//! documentation, `build/plugins/index.mdx`, and its `question` tool's source).
//! - `permission.evaluate`: the `PermissionEvaluation` that OpenCode's `evaluate`
//!   permission hook receives before it would show its own prompt (`action`,
//!   `resources`, `metadata`), answered with the hook's `{effect: allow | deny,
//!   message?}`; the message is the reason the agent reads.
//! - `form.created`: the form its `question` tool makes (a field per question, key
//!   `q0`, `q1`..., `type` `string` or `multiselect`), answered with the form reply's
//!   `{answer: {q0: label, q1: [labels]}}`; a skipped question's key is left out.

use crate::wording::Worded;
use serde_json::{json, Map, Value};
use user_questions_i18n::Text;

use super::strings;
use crate::agents::hook::call::{shown_path, text, Call};
use crate::agents::hook::permission::{self, Verdict};
use crate::agents::{HookAsk, HookInput, HookInputError};
use crate::model::labels::DENIED;
use crate::model::{Answer, Question};

/// A permission OpenCode would ask about: what it would do, Allow and Deny. (The
/// `evaluate` hook has no "always": OpenCode's own prompt offers that.)
pub(super) fn permission_evaluate(hook: &HookInput, words: &Text) -> Result<HookAsk, HookInputError> {
    let missing = |field| HookInputError::Missing { event: hook.event.clone(), field };
    let action = hook.text("action").ok_or_else(|| missing("action"))?;
    let resources = strings(hook.fields.get("resources"));
    let metadata = hook.fields.get("metadata").cloned().unwrap_or(json!({}));
    let call = match action {
        "shell" => Call::Shell { command: resources.join("\n"), description: None },
        "webfetch" => Call::Fetch { url: resources.first().cloned().unwrap_or_default(), prompt: None },
        _ => Call::Other { tool: action.to_owned(), input: json!({"resources": resources, "metadata": metadata}) },
    };
    let title = match (action, resources.first()) {
        ("edit", Some(path)) => Worded::new("hook-edit").arg("path", shown_path(path, hook.cwd())),
        _ => call.title(hook.cwd()),
    };
    let question = permission::question(&title, words, action, call.detail(hook.cwd(), words), &[]);
    Ok(HookAsk::new(vec![question], |answer| match permission::verdict(answer, &[], DENIED) {
        Verdict::Allow => Some(json!({"effect": "allow"})),
        Verdict::Deny(reason) => Some(json!({"effect": "deny", "message": reason})),
        Verdict::Choice(_) | Verdict::NoDecision => None,
    })
    .judged(&call))
}

/// The question tool's form: each field a question with its options; typed text is
/// one more answer where the field takes it (`custom`).
pub(super) fn form_created(hook: &HookInput) -> Option<HookAsk> {
    let is_question = hook.fields.get("metadata").and_then(|m| text(m, "kind")).as_deref() == Some("question");
    let fields = hook.fields.get("fields")?.as_array()?;
    if !is_question || fields.is_empty() {
        return None;
    }
    let mut questions = Vec::new();
    for field in fields {
        let key = text(field, "key")?;
        let mut question = Question::new(&key, text(field, "description").or_else(|| text(field, "title"))?);
        question.header = text(field, "title");
        question.multi_select = text(field, "type").as_deref() == Some("multiselect");
        for o in field.get("options").and_then(Value::as_array).into_iter().flatten() {
            let label = text(o, "label").or_else(|| text(o, "value"));
            if let Some(label) = label.filter(|l| !question.has_option(l)) {
                question = question.option(label, o.get("description").and_then(Value::as_str));
            }
        }
        questions.push(question);
    }
    let multi: Vec<String> = questions.iter().filter(|q| q.multi_select).map(|q| q.id.clone()).collect();
    Some(HookAsk::new(questions, move |answer: &Answer| {
        let mut reply = Map::new();
        for item in &answer.answers {
            let given: Vec<&String> = item.selected.iter().chain(&item.custom).collect();
            // A single answer takes the typed text over a picked option, as the form does.
            let value = match given.last() {
                None => continue,
                Some(last) if !multi.contains(&item.id) => json!(last),
                Some(_) => json!(given),
            };
            reply.insert(item.id.clone(), value);
        }
        Some(json!({"answer": reply}))
    }))
}
