//! GitHub Copilot CLI's `permissionRequest` hook (its hooks reference, and what its CLI
//! sends): camelCase input (`hookName`, `sessionId`, `toolName`, `toolInput` as an
//! object), its own tool names (`bash`, `edit` with `path`/`old_str`/`new_str`,
//! `create` with `path`/`file_text`), and a flat `{behavior, message}` answer (Claude
//! Code's nested `decision` is ignored by Copilot). It runs before Copilot's own rules
//! and prompt; no decision falls through to them. Hooks live in files of their own
//! under `~/.copilot/hooks/` (or `$COPILOT_HOME/hooks/`), timeouts in seconds, 30 by
//! default, after which Copilot goes on without the hook: setup writes a day.

use crate::model::AgentName;
use serde_json::{json, Map, Value};
use user_questions_i18n::Text;

use super::hook::call::{text, Call, Replace};
use super::hook::permission::{self, Verdict};
use super::setup::{FileChange, Setup, SetupError, DAY_SECS};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version};
use crate::model::labels::DENIED;

pub struct Copilot;

/// The first Copilot CLI that reads events by their PascalCase names, in Claude Code's
/// shapes (its changelog).
const PASCAL_CASE_EVENTS: Version = Version(1, 0, 21);

/// GitHub Copilot CLI, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::COPILOT.name,
    display_name: AgentName::COPILOT.display_name,
    program: "copilot",
    events: "permissionRequest; SessionEnd (a session's rules end with it)",
    setup_done: "setup-done-copilot",
    project_settings: false,
    tested: Version(1, 0, 102),
    hooks: &Copilot,
};

impl Integration for Copilot {
    /// Copilot's camelCase, in the names the rest of the hooks read; an event set up by
    /// its PascalCase name (`SessionEnd`) comes in Claude Code's shape already.
    fn read(&self, input: &str) -> Result<HookInput, HookInputError> {
        let value: Value = serde_json::from_str(input).map_err(|e| HookInputError::NotJson(e.to_string()))?;
        let Value::Object(theirs) = value else { return Err(HookInputError::NotObject) };
        if theirs.contains_key("hook_event_name") {
            return HookInput::parse(input);
        }
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
        let question = permission::question(&call.title(hook.cwd()), words, tool, call.detail(hook.cwd(), words), &[]);
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
        let handler = |timeout| json!([{"type": "command", "bash": setup.command(), "timeoutSec": timeout}]);
        let mut hooks = Map::new();
        hooks.insert("permissionRequest".into(), handler(DAY_SECS));
        // The policy's rules for one session end with it. Named in PascalCase, it
        // comes with Claude Code's `hook_event_name` and `session_id`; its camelCase
        // `sessionEnd` names no event at all.
        if setup.knows(PASCAL_CASE_EVENTS) {
            hooks.insert("SessionEnd".into(), handler(30));
        }
        let hooks = json!({"version": 1, "hooks": hooks});
        let text = format!("{}\n", serde_json::to_string_pretty(&hooks).expect("JSON values serialise"));
        Ok(setup.own_file(&home.join("hooks/user-questions.json"), &text)?.into_iter().collect())
    }

    /// Its permissionRequest hook came in 1.0.16 (its changelog). SessionEnd is written
    /// only where it is known, without which the rest still holds.
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

#[cfg(test)]
mod tests {
    use super::AGENT;

    #[test]
    fn its_session_end_set_up_by_its_pascal_case_name_names_the_session() {
        // As Copilot CLI 1.0.102 sends them, to a hook set up under `SessionEnd` and
        // under `sessionEnd` (which names no event), and its permissionRequest.
        let pascal = r#"{"hook_event_name":"SessionEnd","session_id":"8fd73ad7","timestamp":"2026-12-06T15:18:29.350Z","cwd":"/p","reason":"complete"}"#;
        assert_eq!(AGENT.session_ended(pascal).as_deref(), Some("8fd73ad7"));
        let camel = r#"{"sessionId":"8fd73ad7","timestamp":1796570309350,"cwd":"/p","reason":"complete"}"#;
        assert_eq!(AGENT.session_ended(camel), None);
        let permission =
            r#"{"hookName":"permissionRequest","sessionId":"8fd73ad7","toolName":"bash","toolInput":{"command":"ls"}}"#;
        assert_eq!(AGENT.session_ended(permission), None);
    }
}
