//! Kimi Code's `PreToolUse` hook (its hooks documentation, `docs/en/customization/
//! hooks.md`, and its tools reference): a hook there can only block. It fires before
//! Kimi Code's own permission check; a `permissionDecision` of `deny` in
//! `hookSpecificOutput` refuses the call with its reason, which the model reads, and
//! anything else lets Kimi Code go on to its own prompt. So this hook enforces the
//! policy's denies and nothing more: an allow, and what the person would decide, stay
//! with Kimi Code's own prompt. Hooks are `[[hooks]]` tables in
//! `~/.kimi-code/config.toml` (`event`, `matcher`, a regex on the tool name;
//! `command`; `timeout` in seconds); its tools are `Bash` (`command`), `Write`
//! (`path`, `content`) and `Edit` (`path`, `old_string`, `new_string`).

use crate::model::AgentName;
use std::path::Path;

use serde_json::{json, Value};
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table};
use user_questions_i18n::Text;

use super::hook::call::{text, Call, Replace};
use super::setup::{read, FileChange, Setup, SetupError, Step};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version};

pub struct Kimi;

/// Kimi Code, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::KIMI.name,
    display_name: AgentName::KIMI.display_name,
    program: "kimi",
    events: "PreToolUse for Bash, Write and Edit (the policy's denies only)",
    setup_done: "setup-done-kimi",
    project_settings: false,
    tested: Version(2, 1, 0),
    hooks: &Kimi,
};

/// The tools the hook is set up for, as Kimi Code's matcher reads them.
const MATCHER: &str = "^(Bash|Write|Edit)$";

impl Integration for Kimi {
    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        if hook.event != "PreToolUse" {
            return Ok(None);
        }
        let (tool, input) = hook.tool()?;
        let call = call(tool, input);
        Ok(Some(HookAsk::denies_only(
            hook,
            tool,
            &call,
            words,
            |reason| json!({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": reason}}),
        )))
    }

    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        Ok(config_toml(setup, &setup.home.join(".kimi-code/config.toml"))?.into_iter().collect())
    }
}

fn call(tool: &str, input: &Value) -> Call {
    let path = text(input, "path");
    let known = match tool {
        "Bash" => text(input, "command").map(|command| Call::Shell { command, description: None }),
        "Write" => path.zip(text(input, "content")).map(|(path, content)| Call::Write { path, content }),
        "Edit" => path.zip(Replace::from_input(input)).map(|(path, edit)| Call::Edit { path, edits: vec![edit] }),
        _ => None,
    };
    known.unwrap_or_else(|| Call::Other { tool: tool.to_owned(), input: input.clone() })
}

/// Adds (or takes out) the one `[[hooks]]` table of ours, leaving the person's own.
fn config_toml(setup: &Setup, path: &Path) -> Result<Option<FileChange>, SetupError> {
    let original = read(path)?;
    let invalid = |error: String| SetupError::Invalid { path: path.to_owned(), format: "TOML", error };
    let mut doc: DocumentMut =
        original.as_deref().unwrap_or("").parse().map_err(|e: toml_edit::TomlError| invalid(e.to_string()))?;
    let command = setup.command();
    let ours = |t: &Table| t.get("command").and_then(Item::as_str).is_some_and(|c| c.ends_with(" hook kimi"));
    let hooks = doc.entry("hooks").or_insert_with(|| Item::ArrayOfTables(ArrayOfTables::new()));
    let Some(hooks) = hooks.as_array_of_tables_mut() else {
        return Err(invalid("hooks is not a list of [[hooks]] tables".into()));
    };
    let mut table = Table::new();
    table["event"] = toml_edit::value("PreToolUse");
    table["matcher"] = toml_edit::value(MATCHER);
    table["command"] = toml_edit::value(command);
    table["timeout"] = toml_edit::value(30);
    let current: Vec<String> = hooks.iter().filter(|t| ours(t)).map(|t| t.to_string()).collect();
    if !setup.remove && current == [table.to_string()] {
        return Ok(None);
    }
    if setup.remove && current.is_empty() {
        return Ok(None);
    }
    hooks.retain(|t| !ours(t));
    let what = if setup.remove {
        Step::RemovedHook { event: "PreToolUse".into() }
    } else {
        hooks.push(table);
        Step::AddedHook { event: "PreToolUse".into() }
    };
    if hooks.is_empty() {
        doc.remove("hooks");
    }
    let text = doc.to_string();
    let empty = text.trim().is_empty();
    let change = FileChange::new(path, vec![what], text.clone());
    Ok(Some(setup.finish(setup.remove, change, original.is_some(), |bak| bak == text, empty)))
}
