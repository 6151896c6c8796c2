//! Cursor's hooks (its hooks documentation: the editor's agent and the `cursor-agent`
//! CLI read the same files): `beforeShellExecution` (the command, its `cwd`) and
//! `beforeMCPExecution` (the tool, its arguments as a JSON string, and the server's
//! `url` or `command`), answered with a flat `{permission, user_message,
//! agent_message}`. Both run before every call, whatever Cursor's own rules would
//! do, so the person sees each one. A denial's reason goes in both messages: the
//! model reads `user_message`. No output is no decision, and Cursor goes on by its
//! own rules; a failing hook lets the call through unless `failClosed` (setup leaves
//! it off, so User Questions never stops Cursor). Hooks live in `~/.cursor/hooks.json`
//! (`version: 1`, each event a flat list of handlers, timeouts in seconds).

use crate::model::AgentName;
use serde_json::{json, Map, Value};
use user_questions_i18n::Text;

use super::hook::call::Call;
use super::hook::permission::{self, Verdict};
use super::setup::{FileChange, JsonEdit, Setup, SetupError, DAY_SECS};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version};
use crate::model::labels::DENIED;

pub struct Cursor;

/// Cursor, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::CURSOR.name,
    display_name: AgentName::CURSOR.display_name,
    program: "cursor-agent",
    events: "beforeShellExecution, beforeMCPExecution; sessionEnd (a conversation's rules end with it)",
    setup_done: "setup-done-cursor",
    project_settings: false,
    tested: Version(3, 21, 16),
    hooks: &Cursor,
};

/// The events setup registers.
const EVENTS: [&str; 2] = ["beforeShellExecution", "beforeMCPExecution"];

impl Integration for Cursor {
    /// Cursor's fields in the names the rest of the hooks read: the conversation as
    /// the session, the first workspace root where `cwd` is empty or absent, and each
    /// event's call as a tool and its input.
    fn read(&self, input: &str) -> Result<HookInput, HookInputError> {
        let mut hook = HookInput::parse(input)?;
        let f = &mut hook.fields;
        if let Some(id) = f.get("conversation_id").cloned() {
            f.entry("session_id").or_insert(id);
        }
        let root = f.get("workspace_roots").and_then(|r| r.get(0)).cloned();
        if f.get("cwd").and_then(Value::as_str).is_none_or(str::is_empty) {
            match root {
                Some(root) => f.insert("cwd".into(), root),
                None => f.remove("cwd"),
            };
        }
        Ok(hook)
    }

    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        let missing = |field| HookInputError::Missing { event: hook.event.clone(), field };
        let (tool, call) = match hook.event.as_str() {
            "beforeShellExecution" => {
                let command = hook.text("command").ok_or_else(|| missing("command"))?;
                ("Shell".to_owned(), Call::Shell { command: command.to_owned(), description: None })
            }
            "beforeMCPExecution" => {
                let tool = hook.text("tool_name").ok_or_else(|| missing("tool_name"))?;
                let input = match hook.fields.get("tool_input") {
                    Some(Value::String(s)) => serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone())),
                    Some(other) => other.clone(),
                    None => Value::Object(Map::new()),
                };
                // Cursor names the server by where it runs, not by its name.
                let server = hook.text("url").or_else(|| hook.text("command")).unwrap_or("?");
                let call = Call::Mcp { server: server.to_owned(), tool: tool.to_owned(), input };
                (format!("MCP:{tool}"), call)
            }
            _ => return Ok(None),
        };
        let question = permission::question(&call.title(hook.cwd()), words, &tool, call.detail(hook.cwd(), words), &[]);
        Ok(Some(
            HookAsk::new(vec![question], |answer| match permission::verdict(answer, &[], DENIED) {
                Verdict::Allow => Some(json!({"permission": "allow"})),
                Verdict::Deny(message) => {
                    Some(json!({"permission": "deny", "user_message": message, "agent_message": message}))
                }
                Verdict::Choice(_) | Verdict::NoDecision => None,
            })
            .judged(&call),
        ))
    }

    /// A conversation's end, whose id its calls name as their session.
    fn session_end(&self) -> &'static str {
        "sessionEnd"
    }

    /// `~/.cursor/hooks.json`: a handler of ours in each event's list, a day to wait;
    /// and at a conversation's end, where the policy's rules for it end.
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let handler = json!({"command": setup.command(), "timeout": DAY_SECS});
        let mut groups: Vec<(&str, Value)> = EVENTS.iter().map(|event| (*event, handler.clone())).collect();
        groups.push((self.session_end(), json!({"command": setup.command(), "timeout": 30})));
        let edit = JsonEdit { groups: &groups, required: &[("version", json!(1))], ..Default::default() };
        Ok(setup.json_file(&setup.home.join(".cursor/hooks.json"), edit)?.into_iter().collect())
    }
}
