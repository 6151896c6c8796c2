//! Qwen Code's hooks (its hooks documentation, and what its CLI sends): Claude Code's
//! `PermissionRequest` shapes, snake_case, with Gemini-style tool names. Its
//! `PreToolUse` runs after approval, so only `PermissionRequest` can decide. Its hook
//! timeouts are seconds, except that a value of 1000 or more is read as milliseconds.

use crate::model::AgentName;
use serde_json::json;
use user_questions_i18n::Text;

use super::claude_code::permission_request;
use super::hook::call::ToolNames;
use super::setup::{handler, FileChange, JsonEdit, Setup, SetupError, DAY_SECS};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version};

pub struct Qwen;

/// Qwen Code, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::QWEN.name,
    display_name: AgentName::QWEN.display_name,
    program: "qwen",
    events: "PermissionRequest; SessionEnd (a session's rules end with it)",
    setup_done: "setup-done-qwen",
    project_settings: false,
    tested: Version(0, 24, 4),
    hooks: &Qwen,
};

/// Qwen Code's tools, by what they do.
pub const TOOLS: ToolNames = ToolNames {
    shell: &["run_shell_command"],
    edit: &["edit"],
    multi_edit: &[],
    write: &["write_file"],
    fetch: &["web_fetch"],
};

impl Integration for Qwen {
    /// Its PermissionRequest hook first fires in 0.13.0 (its changelog).
    fn since(&self) -> &'static [(&'static str, Version)] {
        &[("PermissionRequest", Version(0, 13, 0))]
    }

    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        if hook.event != "PermissionRequest" {
            return Ok(None);
        }
        let (tool, input) = hook.tool()?;
        Ok(Some(permission_request(hook, tool, input, &TOOLS, words)))
    }

    /// `~/.qwen/settings.json`: the PermissionRequest and SessionEnd hooks, a day written in
    /// milliseconds (Qwen reads 1000 and more as milliseconds), and the MCP server.
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let handler = handler(&setup.command(), DAY_SECS * 1000);
        let groups = [
            ("PermissionRequest", json!({"hooks": [handler]})),
            // The policy's rules for one session end with it.
            ("SessionEnd", json!({"hooks": [handler]})),
        ];
        let edit = JsonEdit { groups: &groups, mcp: Some(setup.mcp_server(None)), ..Default::default() };
        Ok(setup.json_file(&setup.home.join(".qwen/settings.json"), edit)?.into_iter().collect())
    }
}
