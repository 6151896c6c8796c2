//! Claude Code's channels (its channels reference; Claude Code 2.1.80 and later): an
//! MCP server that declares `claude/channel` may push messages into the running
//! session, and with `claude/channel/permission` it receives the session's tool
//! approval prompts as they open and may answer them. So `userq mcp`, loaded as a
//! channel (`claude --dangerously-load-development-channels server:user-questions`),
//! lets the agent leave a question and go on (the answer arrives in the session as a
//! message when the person gives it), and sends each approval prompt here while
//! Claude Code's own dialog stays open: the first answer, there or here, decides.
//! Claude Code does not tell a channel that its dialog was answered, so such a
//! question stays here until answered; Claude Code then ignores the late verdict.

use rmcp::model::{CustomNotification, Tool};
use serde::Deserialize;
use serde_json::{json, Value};
use user_questions_i18n::Text;

use crate::agents::claude_code::TOOLS;
use crate::agents::hook::call::Call;
use crate::agents::hook::permission::{self, Verdict};
use crate::model::labels::DENIED;
use crate::model::{Answer, Question, UserQuestionError};
use crate::tool;

/// The capability that makes a server a channel.
pub const CAPABILITY: &str = "claude/channel";
/// The capability that brings the session's approval prompts.
pub const PERMISSION_CAPABILITY: &str = "claude/channel/permission";
/// Claude Code → channel: an approval prompt opened.
pub const PERMISSION_REQUEST: &str = "notifications/claude/channel/permission_request";
const PERMISSION: &str = "notifications/claude/channel/permission";
const MESSAGE: &str = "notifications/claude/channel";

/// The tool that leaves a question and returns at once.
pub const LATER: &str = "ask_user_question_later";

/// The question tool's shape, for a question whose answer comes later as a message.
pub fn later_tool(schema: std::sync::Arc<serde_json::Map<String, Value>>) -> Tool {
    Tool::new(
        LATER,
        "Leave questions for the user without waiting: this returns at once, and the user's answer arrives later \
         in this session as a <channel source=\"user-questions\"> message naming the question ids. Use it for a \
         decision you can work around meanwhile; use ask_user_question when you cannot go on without the answer. \
         Works only in a session that loaded user-questions as a channel.",
        schema,
    )
}

/// What the tool returns at once.
pub fn left(request: &crate::model::AskRequest) -> String {
    let ids: Vec<&str> = request.questions.iter().map(|q| q.id.as_str()).collect();
    format!(
        "Asked the user ({}); the answer will arrive in this session as a channel message. Go on with other work.",
        ids.join(", ")
    )
}

/// The message that brings a later question's answer (or why there is none) into the session.
pub fn answered(questions: &[Question], outcome: &Result<Answer, UserQuestionError>) -> CustomNotification {
    let asked: Vec<&str> = questions.iter().map(|q| q.question.as_str()).collect();
    let ids: Vec<&str> = questions.iter().map(|q| q.id.as_str()).collect();
    let said = match outcome {
        Ok(_) => "The user answered your question",
        Err(_) => "Your question got no answer",
    };
    let content = format!("{said} ({}):\n{}", asked.join(" / "), tool::render(outcome));
    CustomNotification::new(MESSAGE, Some(json!({"content": content, "meta": {"questions": ids.join(",")}})))
}

/// An approval prompt as Claude Code relays it.
#[derive(Debug, Deserialize)]
pub struct PermissionRequest {
    pub request_id: String,
    pub tool_name: String,
    #[serde(default)]
    /// What the call is for, in the agent's words: the ask's `context.description`.
    pub description: String,
    #[serde(default)]
    pub input_preview: String,
}

impl PermissionRequest {
    /// The permission question: what the tool would do (its input read as the hooks
    /// read it when the preview is whole JSON, else shown as given), Allow and Deny.
    pub fn question(&self, words: &Text) -> Question {
        let call = match serde_json::from_str::<Value>(&self.input_preview) {
            Ok(input) if input.is_object() => Call::from_tool(&self.tool_name, &input, &TOOLS),
            _ => Call::Other { tool: self.tool_name.clone(), input: Value::String(self.input_preview.clone()) },
        };
        permission::question(&call.title(None), words, &self.tool_name, call.detail(None, words), &[])
    }

    /// Claude Code's verdict for the person's answer; `None` (dismissed) leaves the
    /// decision to its own dialog. The verdict carries no reason.
    pub fn verdict(&self, answer: &Answer) -> Option<CustomNotification> {
        let behavior = match permission::verdict(answer, &[], DENIED) {
            Verdict::Allow => "allow",
            Verdict::Deny(_) => "deny",
            Verdict::Choice(_) | Verdict::NoDecision => return None,
        };
        Some(CustomNotification::new(PERMISSION, Some(json!({"request_id": self.request_id, "behavior": behavior}))))
    }
}
