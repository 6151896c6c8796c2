//! Gemini CLI's BeforeTool hook (its hooks reference): the tool and its input, answered
//! with the top-level `decision` and `reason`. Other events are left to Gemini CLI.

use serde_json::{json, Value};

use super::call::{text, Call, Replace};
use super::permission::{self, Verdict};
use super::{HookAsk, HookInput, HookInputError, DENIED};

/// The tools `userq setup gemini` sends here: the shell and the file-writing tools.
pub const MATCHER: &str = "run_shell_command|write_file|replace";

pub fn translate(hook: &HookInput) -> Result<Option<HookAsk>, HookInputError> {
    if hook.event != "BeforeTool" {
        return Ok(None);
    }
    let (tool, input) = hook.tool()?;
    let call = call(tool, input);
    let question = permission::question(call.question(hook.cwd()), tool, call.detail(hook.cwd()), &[]);
    Ok(Some(HookAsk::new(vec![question], |answer| match permission::verdict(answer, &[], DENIED) {
        Verdict::Allow => Some(json!({"decision": "allow"})),
        Verdict::Deny(reason) => Some(json!({"decision": "deny", "reason": reason})),
        Verdict::Choice(_) | Verdict::NoDecision => None,
    })))
}

fn call(tool: &str, input: &Value) -> Call {
    let other = || Call::Other { tool: tool.to_owned(), input: input.clone() };
    let path = text(input, "file_path");
    match tool {
        "run_shell_command" => match text(input, "command") {
            Some(command) => Call::Shell { command, description: text(input, "description") },
            None => other(),
        },
        "replace" => match (path, Replace::from_input(input)) {
            (Some(path), Some(edit)) => Call::Edit { path, edits: vec![edit] },
            _ => other(),
        },
        "write_file" => match (path, text(input, "content")) {
            (Some(path), Some(content)) => Call::Write { path, content },
            _ => other(),
        },
        "web_fetch" => match text(input, "url") {
            Some(url) => Call::Fetch { url, prompt: text(input, "prompt") },
            None => other(),
        },
        _ => other(),
    }
}
