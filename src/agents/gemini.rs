//! Gemini CLI's BeforeTool hook (its hooks reference): the tool and its input, answered
//! with the top-level `decision` and `reason`. Other events are left to Gemini CLI.

use serde_json::json;
use user_questions_i18n::Text;

use super::call::{Call, ToolNames};
use super::permission::{self, Verdict};
use super::setup::{FileChange, JsonEdit, Setup, SetupError, DAY_SECS, MCP_NAME};
use super::{HookAsk, HookInput, HookInputError, Integration, DENIED};

pub struct Gemini;

impl Integration for Gemini {
    fn name(&self) -> &'static str {
        "gemini"
    }

    fn display_name(&self) -> &'static str {
        "Gemini CLI"
    }

    fn events(&self) -> &'static str {
        "BeforeTool"
    }

    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        ask_from(hook, words)
    }

    fn setup_done(&self) -> &'static str {
        "setup-done-gemini"
    }

    /// `~/.gemini/settings.json`: the BeforeTool hook (timeouts in milliseconds), the
    /// MCP server, and hooks turned on when they were off.
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let ms = DAY_SECS * 1000;
        let handler = json!({"name": MCP_NAME, "type": "command", "command": setup.command(), "timeout": ms});
        let groups = [("BeforeTool", json!({"matcher": MATCHER, "hooks": [handler]}))];
        let edit = JsonEdit {
            groups: &groups,
            mcp: Some(setup.mcp_server(Some(ms))),
            switch: Some(("hooksConfig", "enabled")),
        };
        Ok(setup.json_file(&setup.home.join(".gemini/settings.json"), edit)?.into_iter().collect())
    }
}

/// The tools `userq setup gemini` sends here: the shell and the file-writing tools.
pub const MATCHER: &str = "run_shell_command|write_file|replace";

/// Gemini CLI's tools, by what they do.
pub const TOOLS: ToolNames = ToolNames {
    shell: &["run_shell_command"],
    edit: &["replace"],
    multi_edit: &[],
    write: &["write_file"],
    fetch: &["web_fetch"],
};

fn ask_from(hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
    if hook.event != "BeforeTool" {
        return Ok(None);
    }
    let (tool, input) = hook.tool()?;
    let call = Call::from_tool(tool, input, &TOOLS);
    let question = permission::question(call.question(hook.cwd(), words), tool, call.detail(hook.cwd(), words), &[]);
    Ok(Some(HookAsk::new(vec![question], |answer| match permission::verdict(answer, &[], DENIED) {
        Verdict::Allow => Some(json!({"decision": "allow"})),
        Verdict::Deny(reason) => Some(json!({"decision": "deny", "reason": reason})),
        Verdict::Choice(_) | Verdict::NoDecision => None,
    })))
}
