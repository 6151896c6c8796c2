//! The agents people run, met at their own hooks. Each agent's module knows that
//! agent's hook input and output shapes and nothing of sockets or windows: it turns one
//! hook input into questions (a [`HookAsk`]) and the person's answer back into the
//! JSON the agent reads. `userq hook <agent>` carries the ask through the socket;
//! [`setup`] writes the hooks into each agent's settings.

pub mod call;
pub mod claude_code;
pub mod codex;
pub mod gemini;
pub mod permission;
pub mod setup;

use serde_json::{Map, Value};

use crate::model::{Answer, Context, Question};
use user_questions_i18n::Text;

/// An agent whose hooks User Questions answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    ClaudeCode,
    Codex,
    Gemini,
}

impl Agent {
    pub const ALL: [Agent; 3] = [Agent::ClaudeCode, Agent::Codex, Agent::Gemini];

    /// The name on the command line: `claude-code`, `codex`, `gemini`.
    pub fn command_name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude-code",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
        }
    }

    /// The agent's own name, as people know it; the ask's `context.source`.
    pub fn display_name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "Claude Code",
            Self::Codex => "Codex",
            Self::Gemini => "Gemini CLI",
        }
    }

    pub fn from_command_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.command_name() == name)
    }

    /// The ask one hook input makes. `Ok(None)`: an event this hook takes no part in.
    /// The questions are worded in `text`'s language; what the agent reads back is not.
    pub fn ask_from(self, input: &str, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        let hook = HookInput::parse(input)?;
        let ask = match self {
            Self::ClaudeCode => claude_code::ask_from(&hook, words)?,
            Self::Codex => codex::ask_from(&hook, words)?,
            Self::Gemini => gemini::ask_from(&hook, words)?,
        };
        Ok(ask.map(|mut ask| {
            ask.context = hook.context(self);
            ask
        }))
    }
}

/// Input that is not the agent's hook JSON.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HookInputError {
    #[error("the hook input is not JSON: {0}")]
    NotJson(String),
    #[error("the hook input is not a JSON object")]
    NotObject,
    #[error("the hook input has no hook_event_name")]
    NoEvent,
    #[error("the {event} hook input has no {field}")]
    Missing { event: String, field: &'static str },
}

/// One hook input: its event and fields.
pub struct HookInput {
    pub event: String,
    pub fields: Map<String, Value>,
}

impl HookInput {
    pub fn parse(input: &str) -> Result<Self, HookInputError> {
        let value: Value = serde_json::from_str(input).map_err(|e| HookInputError::NotJson(e.to_string()))?;
        let Value::Object(fields) = value else { return Err(HookInputError::NotObject) };
        let event = fields.get("hook_event_name").and_then(Value::as_str).ok_or(HookInputError::NoEvent)?.to_owned();
        Ok(Self { event, fields })
    }

    pub fn text(&self, key: &str) -> Option<&str> {
        self.fields.get(key).and_then(Value::as_str)
    }

    /// The `tool_name` and `tool_input` every tool event carries.
    pub fn tool(&self) -> Result<(&str, &Value), HookInputError> {
        let missing = |field| HookInputError::Missing { event: self.event.clone(), field };
        let name = self.text("tool_name").ok_or_else(|| missing("tool_name"))?;
        let input = self.fields.get("tool_input").filter(|v| v.is_object()).ok_or_else(|| missing("tool_input"))?;
        Ok((name, input))
    }

    pub fn cwd(&self) -> Option<&str> {
        self.text("cwd")
    }

    fn context(&self, agent: Agent) -> Context {
        Context {
            project: self.cwd().map(str::to_owned),
            session: self.text("session_id").map(str::to_owned),
            source: Some(agent.display_name().to_owned()),
        }
    }
}

/// Writes the person's answer back in the agent's shape; `None` is no decision.
type Decide = Box<dyn FnOnce(&Answer) -> Option<Value> + Send>;

/// The questions one hook input asks, and how to write the answer back.
pub struct HookAsk {
    pub questions: Vec<Question>,
    pub context: Context,
    decide: Decide,
}

impl HookAsk {
    fn new(questions: Vec<Question>, decide: impl FnOnce(&Answer) -> Option<Value> + Send + 'static) -> Self {
        Self { questions, context: Context::default(), decide: Box::new(decide) }
    }

    /// The hook's output for the person's answer; `None` is no decision.
    pub fn decide(self, answer: &Answer) -> Option<Value> {
        (self.decide)(answer)
    }
}

/// The sentence an agent reads when the person pressed Deny.
pub const DENIED: &str = "The user denied this in User Questions.";
