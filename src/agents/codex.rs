//! Codex's PermissionRequest hook (`permission-request.command.input` and `.output`
//! schemas): a shell command with its justification, allowed or denied. Codex fails
//! closed on any other decision field (`updatedInput`, `updatedPermissions`,
//! `interrupt: true`), so none is ever sent.

use serde_json::json;
use user_questions_i18n::Text;

use super::call::{text, Call};
use super::permission::{self, Verdict};
use super::{HookAsk, HookInput, HookInputError, DENIED};

pub fn ask_from(hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
    if hook.event != "PermissionRequest" {
        return Ok(None);
    }
    let (tool, input) = hook.tool()?;
    let justification = hook.fields.get("approval_context").and_then(|c| text(c, "justification"));
    let call = match text(input, "command") {
        Some(command) => Call::Shell { command, description: justification.or_else(|| text(input, "description")) },
        None => Call::Other { tool: tool.to_owned(), input: input.clone() },
    };
    let question = permission::question(call.question(hook.cwd(), words), tool, call.detail(hook.cwd(), words), &[]);
    Ok(Some(HookAsk::new(vec![question], |answer| {
        let decision = match permission::verdict(answer, &[], DENIED) {
            Verdict::Allow => json!({"behavior": "allow"}),
            Verdict::Deny(message) => json!({"behavior": "deny", "message": message}),
            Verdict::Choice(_) | Verdict::NoDecision => return None,
        };
        Some(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}))
    })))
}
