//! Antigravity CLI's `PreToolUse` hook (`agy`; the hooks reference it ships in its
//! `agy-customizations` skill, `docs/hooks.md`, as of agy 1.0.16). Its input is
//! camelCase protojson with the tool as `toolCall: {name, args}` (PascalCase args:
//! `run_command`'s `CommandLine` and `Cwd`, `write_to_file`'s `TargetFile` and
//! `CodeContent`), no event name and no `cwd`; its answer is a flat `decision`:
//! `allow`, `deny` with a `reason` the model reads, `ask`, `force_ask`.
//!
//! Antigravity fails closed: an empty decision, output that is not its JSON, or a hook
//! that exits non-zero denies the tool, and silence with exit 0 runs it unasked. So
//! this hook always answers and always exits 0: when it takes no decision (no server,
//! dismissed, input it cannot read) it answers `ask`, which hands the choice back to
//! Antigravity's own prompt under the person's own rules, never a silent deny.

use crate::model::AgentName;
use serde_json::{json, Map, Value};
use user_questions_i18n::Text;

use super::hook::call::{text, Call, Replace};
use super::hook::permission::{self, Verdict};
use super::setup::{FileChange, JsonEdit, Section, Setup, SetupError, DAY_SECS, MCP_NAME};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version};
use crate::model::labels::DENIED;

pub struct Antigravity;

/// Antigravity CLI, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::ANTIGRAVITY.name,
    display_name: AgentName::ANTIGRAVITY.display_name,
    program: "agy",
    events: "PreToolUse for run_command, write_to_file, replace_file_content and multi_replace_file_content",
    setup_done: "setup-done-antigravity",
    project_settings: false,
    tested: Version(1, 0, 16),
    hooks: &Antigravity,
};

/// The tools setup sends here: the shell and the file-writing tools.
pub const MATCHER: &str = "^(run_command|write_to_file|replace_file_content|multi_replace_file_content)$";

/// The only event setup sends here; Antigravity's input does not name it.
const EVENT: &str = "PreToolUse";

impl Integration for Antigravity {
    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        let (tool, input) = hook.tool()?;
        let call = call(tool, input);
        let question = permission::question(&call.title(hook.cwd()), words, tool, call.detail(hook.cwd(), words), &[]);
        Ok(Some(
            HookAsk::new(vec![question], |answer| match permission::verdict(answer, &[], DENIED) {
                Verdict::Allow => Some(json!({"decision": "allow"})),
                Verdict::Deny(reason) => Some(json!({"decision": "deny", "reason": reason})),
                Verdict::Choice(_) | Verdict::NoDecision => Antigravity.no_decision("no answer"),
            })
            .judged(&call),
        ))
    }

    /// `~/.gemini/config/hooks.json`, the one hooks file every Antigravity loads: a
    /// named hook set of its own, `user-questions`, beside the person's (timeouts in
    /// seconds).
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let handler = json!({"type": "command", "command": setup.command(), "timeout": DAY_SECS});
        let groups = [(EVENT, json!({"matcher": MATCHER, "hooks": [handler]}))];
        let edit = JsonEdit { section: Section::Named(MCP_NAME), groups: &groups, ..Default::default() };
        let path = setup.home.join(".gemini/config/hooks.json");
        Ok(setup.json_file(&path, edit)?.into_iter().collect())
    }

    fn no_decision(&self, why: &str) -> Option<Value> {
        Some(json!({"decision": "ask", "reason": format!("User Questions: {why}")}))
    }

    fn fails_closed(&self) -> bool {
        true
    }

    /// Antigravity's input in the shape the others share: `toolCall` as `tool_name` and
    /// `tool_input`, the command's `Cwd` (else the first workspace) as `cwd`, the
    /// conversation as `session_id`.
    fn read(&self, input: &str) -> Result<HookInput, HookInputError> {
        let value: Value = serde_json::from_str(input).map_err(|e| HookInputError::NotJson(e.to_string()))?;
        let Value::Object(given) = value else { return Err(HookInputError::NotObject) };
        let missing = |field| HookInputError::Missing { event: EVENT.into(), field };
        let call = given.get("toolCall").and_then(Value::as_object).ok_or_else(|| missing("toolCall"))?;
        let name = call.get("name").and_then(Value::as_str).ok_or_else(|| missing("toolCall.name"))?;
        let args = match call.get("args") {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(v @ Value::Object(_)) => v.clone(),
            Some(_) => {
                return Err(HookInputError::Invalid {
                    event: EVENT.into(),
                    why: "toolCall.args is not an object".into(),
                })
            }
        };
        let workspace = given.get("workspacePaths").and_then(Value::as_array).and_then(|w| w.first()).cloned();
        let cwd = args.get("Cwd").filter(|c| c.is_string()).cloned().or(workspace.filter(Value::is_string));
        let mut fields = Map::new();
        fields.insert("tool_name".into(), name.into());
        fields.insert("tool_input".into(), args);
        if let Some(cwd) = cwd {
            fields.insert("cwd".into(), cwd);
        }
        if let Some(session) = given.get("conversationId").filter(|s| s.is_string()) {
            fields.insert("session_id".into(), session.clone());
        }
        Ok(HookInput { event: EVENT.into(), fields })
    }
}

/// A call in a person's terms; anything not in the shape read here is shown as JSON.
fn call(tool: &str, args: &Value) -> Call {
    let path = || text(args, "TargetFile");
    let replace = |chunk: &Value| {
        Some(Replace {
            old: text(chunk, "TargetContent")?,
            new: text(chunk, "ReplacementContent")?,
            all: chunk.get("AllowMultiple").and_then(Value::as_bool).unwrap_or(false),
        })
    };
    let known = match tool {
        "run_command" => text(args, "CommandLine").map(|command| Call::Shell { command, description: None }),
        "write_to_file" => path().zip(text(args, "CodeContent")).map(|(path, content)| Call::Write { path, content }),
        "replace_file_content" => path().zip(replace(args)).map(|(path, edit)| Call::Edit { path, edits: vec![edit] }),
        "multi_replace_file_content" => {
            let chunks = args.get("ReplacementChunks").and_then(Value::as_array);
            let edits: Option<Vec<Replace>> = chunks.and_then(|c| c.iter().map(replace).collect());
            path().zip(edits.filter(|e| !e.is_empty())).map(|(path, edits)| Call::Edit { path, edits })
        }
        _ => None,
    };
    known.unwrap_or_else(|| Call::Other { tool: tool.to_owned(), input: args.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tools_read_as_a_person_judges_them_and_the_rest_as_json() {
        let shell = call("run_command", &json!({"CommandLine": "npm test", "Cwd": "/p"}));
        assert_eq!(shell, Call::Shell { command: "npm test".into(), description: None });
        let write = call("write_to_file", &json!({"TargetFile": "/p/a.txt", "CodeContent": "hi\n"}));
        assert_eq!(write, Call::Write { path: "/p/a.txt".into(), content: "hi\n".into() });
        let edit = call(
            "replace_file_content",
            &json!({"TargetFile": "/p/a.txt", "TargetContent": "hi", "ReplacementContent": "ho"}),
        );
        assert_eq!(
            edit,
            Call::Edit {
                path: "/p/a.txt".into(),
                edits: vec![Replace { old: "hi".into(), new: "ho".into(), all: false }]
            }
        );
        // Without the text it replaces, an edit is shown whole, as JSON.
        let bare = json!({"TargetFile": "/p/a.txt", "ReplacementContent": "ho"});
        assert_eq!(
            call("replace_file_content", &bare),
            Call::Other { tool: "replace_file_content".into(), input: bare }
        );
    }

    #[test]
    fn input_without_a_tool_call_is_named() {
        let e = Antigravity.read(r#"{"conversationId": "c"}"#).err().unwrap();
        assert_eq!(e.to_string(), "the PreToolUse hook input has no toolCall");
        let e = Antigravity.read(r#"{"toolCall": {"name": "run_command", "args": [1]}}"#).err().unwrap();
        assert_eq!(e.to_string(), "the PreToolUse hook input: toolCall.args is not an object");
    }
}
