//! Codex's PermissionRequest hook (`permission-request.command.input` and `.output`
//! schemas, and what Codex sends for each kind of request): a shell command with its
//! justification, a network access (a `Bash` request whose description is
//! `network-access <scheme>://<host>:<port>`), an `apply_patch` as the files it
//! changes, an MCP tool call (`mcp__<server>__<tool>`), allowed or denied. Codex fails
//! closed on any other decision field (`updatedInput`, `updatedPermissions`,
//! `interrupt: true`), so none is ever sent.

use crate::model::AgentName;
use std::path::Path;

use serde_json::{json, Value};
use user_questions_i18n::Text;

use super::hook::call::{text, Call};
use super::hook::patch;
use super::hook::permission::{self, Verdict};
use super::setup::{handler, read, FileChange, JsonEdit, Setup, SetupError, Step, DAY_SECS, MCP_NAME};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version};
use crate::model::labels::DENIED;

pub struct Codex;

/// The longest Codex lets a SessionEnd hook run; ending a session's rules takes far less.
const SESSION_END_SECS: u64 = 3;

/// Codex, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::CODEX.name,
    display_name: AgentName::CODEX.display_name,
    program: "codex",
    events: "PermissionRequest; PreToolUse (the policy's denies hold in every approval mode); SessionEnd (a session's rules end with it)",
    setup_done: "setup-done-codex",
    project_settings: false,
    tested: Version(0, 171, 0),
    hooks: &Codex,
};

impl Integration for Codex {
    /// Its PermissionRequest event came in 0.122.0, SessionEnd in 0.145.0.
    fn since(&self) -> &'static [(&'static str, Version)] {
        &[
            ("PermissionRequest", Version(0, 122, 0)),
            ("SessionEnd", Version(0, 145, 0)),
            ("PreToolUse", Version(0, 171, 0)),
        ]
    }

    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        ask_from(hook, words)
    }

    /// `$CODEX_HOME/hooks.json` for the hooks, `config.toml` for the MCP server.
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let codex_home = setup.agent_home("CODEX_HOME", ".codex");
        let groups = [
            ("PermissionRequest", json!({"hooks": [handler(&setup.command(), DAY_SECS)]})),
            // A deny holds even where Codex asks no one (`--dangerously-bypass-approvals-
            // and-sandbox`, full auto): the policy alone decides here, in a moment.
            ("PreToolUse", json!({"hooks": [handler(&setup.command(), PRE_TOOL_USE_SECS)]})),
            // The policy's rules for one session end with it; Codex caps this event's
            // timeout at 3 seconds.
            ("SessionEnd", json!({"hooks": [handler(&setup.command(), SESSION_END_SECS)]})),
        ];
        let mut changes: Vec<FileChange> = config_toml(setup, &codex_home.join("config.toml"))?.into_iter().collect();
        changes.extend(
            setup.json_file(&codex_home.join("hooks.json"), JsonEdit { groups: &groups, ..Default::default() })?,
        );
        Ok(changes)
    }
}

/// What a request asks for, in the terms a person judges it by.
fn call(tool: &str, input: &Value, justification: Option<String>) -> Call {
    let command = text(input, "command");
    let description = text(input, "description");
    if let Some(target) = description.as_deref().and_then(|d| d.strip_prefix("network-access ")) {
        return Call::Network { target: target.trim().to_owned(), command };
    }
    if tool == "apply_patch" {
        if let Some(files) = command.as_deref().and_then(patch::parse) {
            return Call::Patch { files };
        }
    }
    match command {
        Some(command) => Call::Shell { command, description: justification.or(description) },
        None => Call::mcp(tool, input).unwrap_or_else(|| Call::Other { tool: tool.to_owned(), input: input.clone() }),
    }
}

/// PreToolUse decides from the rules alone, reading no one: a minute is ample.
const PRE_TOOL_USE_SECS: u64 = 60;

fn ask_from(hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
    if hook.event == "PreToolUse" {
        let (tool, input) = hook.tool()?;
        let call = call(tool, input, None);
        return Ok(Some(HookAsk::denies_only(
            hook,
            tool,
            &call,
            words,
            |reason| json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}),
        )));
    }
    if hook.event != "PermissionRequest" {
        return Ok(None);
    }
    let (tool, input) = hook.tool()?;
    let justification = hook.fields.get("approval_context").and_then(|c| text(c, "justification"));
    let call = call(tool, input, justification);
    let question = permission::question(&call.title(hook.cwd()), words, tool, call.detail(hook.cwd(), words), &[]);
    Ok(Some(
        HookAsk::new(vec![question], |answer| {
            let decision = match permission::verdict(answer, &[], DENIED) {
                Verdict::Allow => json!({"behavior": "allow"}),
                Verdict::Deny(message) => json!({"behavior": "deny", "message": message}),
                Verdict::Choice(_) | Verdict::NoDecision => return None,
            };
            Some(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}))
        })
        .judged(&call),
    ))
}

/// Codex's `config.toml`: the MCP server with a day's tool timeout.
fn config_toml(setup: &Setup, path: &Path) -> Result<Option<FileChange>, SetupError> {
    let original = read(path)?;
    let mut doc: toml_edit::DocumentMut =
        original.as_deref().unwrap_or("").parse().map_err(|e: toml_edit::TomlError| SetupError::Invalid {
            path: path.to_owned(),
            format: "TOML",
            error: e.to_string(),
        })?;
    let what;
    if setup.remove {
        let Some(servers) = doc.get_mut("mcp_servers").and_then(|s| s.as_table_like_mut()) else { return Ok(None) };
        if servers.remove(MCP_NAME).is_none() {
            return Ok(None);
        }
        if servers.is_empty() {
            doc.remove("mcp_servers");
        }
        what = Step::RemovedMcp;
    } else {
        let mut table = toml_edit::Table::new();
        table["command"] = toml_edit::value(setup.userq.display().to_string());
        table["args"] = toml_edit::value(toml_edit::Array::from_iter(["mcp"]));
        table["tool_timeout_sec"] = toml_edit::value(DAY_SECS as i64);
        let servers = doc.entry("mcp_servers").or_insert_with(|| {
            let mut t = toml_edit::Table::new();
            t.set_implicit(true);
            toml_edit::Item::Table(t)
        });
        let Some(servers) = servers.as_table_like_mut() else {
            return Err(SetupError::Invalid {
                path: path.to_owned(),
                format: "TOML",
                error: "mcp_servers is not a table".into(),
            });
        };
        let current = servers.get(MCP_NAME).map(|i| i.to_string());
        if current.as_deref().map(str::trim) == Some(table.to_string().trim()) {
            return Ok(None);
        }
        servers.insert(MCP_NAME, toml_edit::Item::Table(table));
        what = Step::AddedMcp;
    }
    let text = doc.to_string();
    let empty = text.trim().is_empty();
    let change = FileChange::new(path, vec![what], text.clone());
    Ok(Some(setup.finish(setup.remove, change, original.is_some(), |bak| bak == text, empty)))
}
