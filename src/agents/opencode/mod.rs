//! OpenCode, through a plugin of User Questions' own (OpenCode's plugins documentation,
//! and what its 1.18 server sends): OpenCode has no command hooks, and its plugin
//! `permission.ask` hook is never called, so `userq setup opencode` writes
//! `plugin.js` into OpenCode's plugins folder. It hands each `permission.asked` and
//! `question.asked` event (with the session's `directory`) to `userq hook opencode`
//! and replies through OpenCode's own API with what the hook prints: a permission's
//! `{reply: once | always | reject, message?}`, a question's `{answers: [[label]]}`.
//! A plain Deny is OpenCode's own Reject (the agent stops); a Deny with a reason
//! rejects with it, and the agent goes on with that feedback. Printing nothing is no
//! decision: OpenCode's own prompt stays, and an answer there ends the hook.

use serde_json::{json, Value};
use user_questions_i18n::Text;

use super::hook::call::{shown_path, text, Call};
use super::hook::permission::{self, Choice, Verdict};
use super::setup::{FileChange, Setup, SetupError};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version, DENIED};
use crate::model::{Answer, Question};
use crate::review::shown::fenced;

pub struct OpenCode;

/// OpenCode, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: "opencode",
    display_name: "OpenCode",
    program: "opencode",
    events: "permission.asked, question.asked (from the plugin setup writes)",
    setup_done: "setup-done-opencode",
    project_settings: false,
    tested: Version(1, 18, 33),
    hooks: &OpenCode,
};

/// The plugin, with `__USERQ__` standing for `userq`'s path as a JS string.
const PLUGIN: &str = include_str!("plugin.js");

impl Integration for OpenCode {
    /// The event's properties, with OpenCode's names for the session and folder in
    /// the names the rest of the hooks read.
    fn read(&self, input: &str) -> Result<HookInput, HookInputError> {
        let mut hook = HookInput::parse(input)?;
        for (ours, theirs) in [("session_id", "sessionID"), ("cwd", "directory")] {
            if let Some(v) = hook.fields.get(theirs).cloned() {
                hook.fields.insert(ours.into(), v);
            }
        }
        Ok(hook)
    }

    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        match hook.event.as_str() {
            "permission.asked" => permission_asked(hook, words).map(Some),
            "question.asked" => Ok(question_asked(hook)),
            _ => Ok(None),
        }
    }

    /// `~/.config/opencode/plugins/user-questions.js` (under `$XDG_CONFIG_HOME` when set).
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let config = setup.agent_home("XDG_CONFIG_HOME", ".config");
        let userq = serde_json::to_string(&setup.userq.display().to_string()).expect("a string serialises");
        let plugin = PLUGIN.replace("__USERQ__", &userq);
        Ok(setup.own_file(&config.join("opencode/plugins/user-questions.js"), &plugin)?.into_iter().collect())
    }
}

/// A permission request: what it would do, Allow, "always allow" its patterns for the
/// session where OpenCode offers that, and Deny.
fn permission_asked(hook: &HookInput, words: &Text) -> Result<HookAsk, HookInputError> {
    let missing = |field| HookInputError::Missing { event: hook.event.clone(), field };
    let kind = hook.text("permission").ok_or_else(|| missing("permission"))?;
    let metadata = hook.fields.get("metadata").cloned().unwrap_or(json!({}));
    let patterns = strings(hook.fields.get("patterns"));
    let always = strings(hook.fields.get("always"));
    let (title, detail) = match (kind, text(&metadata, "filepath"), text(&metadata, "diff")) {
        ("edit", Some(path), Some(diff)) => {
            (words.tr_args("hook-edit", &[("path", (&shown_path(&path, hook.cwd())).into())]), fenced("diff", &diff))
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
            (call.question(hook.cwd(), words), call.detail(hook.cwd(), words))
        }
    };
    let choices: Vec<Choice> = (!always.is_empty())
        .then(|| Choice {
            label: words.tr_args("hook-always-allow", &[("what", (&always.join(", ")).into())]),
            description: words.tr_args("hook-rule", &[("where", "session".into())]),
        })
        .into_iter()
        .collect();
    let question = permission::question(title, kind, detail, &choices);
    Ok(HookAsk::new(vec![question], move |answer| match permission::verdict(answer, &choices, DENIED) {
        Verdict::Allow => Some(json!({"reply": "once"})),
        Verdict::Choice(_) => Some(json!({"reply": "always"})),
        // A plain Deny is OpenCode's own Reject; a reason goes to the agent with it.
        Verdict::Deny(reason) if reason == DENIED => Some(json!({"reply": "reject"})),
        Verdict::Deny(reason) => Some(json!({"reply": "reject", "message": reason})),
        Verdict::NoDecision => None,
    }))
}

/// The question tool's questions, answered with each one's labels (typed text as one
/// more); a skipped question has none.
fn question_asked(hook: &HookInput) -> Option<HookAsk> {
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

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}
