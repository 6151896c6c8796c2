//! GitHub Copilot CLI's `permissionRequest` hook (its hooks reference, and what its CLI
//! sends): camelCase input (`hookName`, `sessionId`, `toolName`, `toolInput` as an
//! object), its own tool names (`bash`, `edit` with `path`/`old_str`/`new_str`,
//! `create` with `path`/`file_text`), and a flat `{behavior, message}` answer (Claude
//! Code's nested `decision` is ignored by Copilot). It runs before Copilot's own rules
//! and prompt; no decision falls through to them. Hooks live in files of their own
//! under `~/.copilot/hooks/` (or `$COPILOT_HOME/hooks/`), timeouts in seconds, 30 by
//! default, after which Copilot goes on without the hook: setup writes a day.

use serde_json::{json, Map, Value};
use user_questions_i18n::Text;

use super::hook::call::{text, Call, Replace};
use super::hook::permission::{self, Verdict};
use super::setup::{FileChange, Setup, SetupError, DAY_SECS};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version, DENIED};

pub struct Copilot;

/// GitHub Copilot CLI, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: "copilot",
    display_name: "GitHub Copilot CLI",
    program: "copilot",
    events: "permissionRequest",
    setup_done: "setup-done-copilot",
    project_settings: false,
    tested: Version(1, 0, 102),
    hooks: &Copilot,
};

impl Integration for Copilot {
    /// Copilot's camelCase, in the names the rest of the hooks read.
    fn read(&self, input: &str) -> Result<HookInput, HookInputError> {
        let value: Value = serde_json::from_str(input).map_err(|e| HookInputError::NotJson(e.to_string()))?;
        let Value::Object(theirs) = value else { return Err(HookInputError::NotObject) };
        let event = theirs.get("hookName").and_then(Value::as_str).ok_or(HookInputError::NoEvent)?.to_owned();
        let mut fields = Map::new();
        for (ours, their) in [("tool_name", "toolName"), ("session_id", "sessionId"), ("cwd", "cwd")] {
            if let Some(v) = theirs.get(their) {
                fields.insert(ours.into(), v.clone());
            }
        }
        let input = theirs.get("toolInput").or_else(|| theirs.get("toolArgs")).cloned();
        // Older releases sent the arguments as a JSON string.
        let input = match input {
            Some(Value::String(s)) => serde_json::from_str(&s).ok(),
            other => other,
        };
        if let Some(input) = input {
            fields.insert("tool_input".into(), input);
        }
        Ok(HookInput { event, fields })
    }

    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        if hook.event != "permissionRequest" {
            return Ok(None);
        }
        let (tool, input) = hook.tool()?;
        let call = call(tool, input);
        let question =
            permission::question(call.question(hook.cwd(), words), tool, call.detail(hook.cwd(), words), &[]);
        Ok(Some(
            HookAsk::new(vec![question], |answer| match permission::verdict(answer, &[], DENIED) {
                Verdict::Allow => Some(json!({"behavior": "allow"})),
                Verdict::Deny(message) => Some(json!({"behavior": "deny", "message": message})),
                Verdict::Choice(_) | Verdict::NoDecision => None,
            })
            .judged(&call),
        ))
    }

    /// A hooks file of User Questions' own: `~/.copilot/hooks/user-questions.json`.
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let home = setup.agent_home("COPILOT_HOME", ".copilot");
        let hooks = json!({"version": 1, "hooks": {"permissionRequest": [
            {"type": "command", "bash": setup.command(), "timeoutSec": DAY_SECS}
        ]}});
        let text = format!("{}\n", serde_json::to_string_pretty(&hooks).expect("JSON values serialise"));
        Ok(setup.own_file(&home.join("hooks/user-questions.json"), &text)?.into_iter().collect())
    }

    /// Its permissionRequest hook came in 1.0.16 (its changelog).
    fn since(&self) -> &'static [(&'static str, Version)] {
        &[("permissionRequest", Version(1, 0, 16))]
    }
}

/// Copilot's tools, in the terms a person judges them by.
fn call(tool: &str, input: &Value) -> Call {
    let path = text(input, "path");
    let known = match tool {
        "bash" | "powershell" => {
            text(input, "command").map(|command| Call::Shell { command, description: text(input, "description") })
        }
        "edit" => path.zip(text(input, "old_str")).map(|(path, old)| Call::Edit {
            path,
            edits: vec![Replace { old, new: text(input, "new_str").unwrap_or_default(), all: false }],
        }),
        "create" => path.zip(text(input, "file_text")).map(|(path, content)| Call::Write { path, content }),
        _ => Call::mcp(tool, input),
    };
    known.unwrap_or_else(|| Call::Other { tool: tool.to_owned(), input: input.clone() })
}
