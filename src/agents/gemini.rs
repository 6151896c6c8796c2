//! Gemini CLI's BeforeTool hook (its hooks reference): the tool and its input, answered
//! with the top-level `decision` and `reason`. Other events are left to Gemini CLI.

use serde_json::json;
use user_questions_i18n::Text;

use super::call::{Call, ToolNames};
use super::permission::{self, Verdict};
use super::{HookAsk, HookInput, HookInputError, DENIED};

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

pub fn ask_from(hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
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
