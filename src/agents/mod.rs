//! The agents people run, met at their own hooks. Each agent's module knows that
//! agent's hook input and output shapes and nothing of sockets or windows: it turns one
//! hook input into questions (a [`HookAsk`]) and the person's answer back into the
//! JSON the agent reads. `userq hook <agent>` carries the ask through the socket;
//! [`setup`] writes the hooks into each agent's settings.

pub mod antigravity;
pub mod claude_code;
pub mod codex;
pub mod connection;
pub mod copilot;
pub mod cursor;
pub mod droid;
pub mod gemini;
pub mod hook;
pub mod kimi;
pub mod kiro;
pub mod opencode;
pub mod qwen;
pub mod setup;
pub mod stop_review;
pub mod transcript;
pub mod version;

use crate::model::labels::DENIED;
use serde_json::{Map, Value};

use crate::model::{Answer, Context, Question};
use setup::{FileChange, Setup, SetupError};
use user_questions_i18n::Text;
pub use version::Version;

/// How User Questions meets one agent at its hooks, in that agent's own file: how its
/// hook input becomes questions and the answer its decision, and the edits `userq
/// setup` makes to its settings. Its names are data, in the same file's [`Agent`].
pub trait Integration: Sync {
    /// The ask one hook input makes. `Ok(None)`: an event this hook takes no part in.
    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError>;
    /// The changes `setup` makes (or takes out) in the agent's settings.
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError>;
    /// What the hook prints when it takes no decision (`why` says why); `None`: nothing,
    /// which most agents read as "ask in your own prompt".
    fn no_decision(&self, _why: &str) -> Option<Value> {
        None
    }
    /// The version each event setup writes came in, where an older version of the
    /// agent is still about: setup leaves out what the installed version does not know.
    fn since(&self) -> &'static [(&'static str, Version)] {
        &[]
    }
    /// Whether the agent reads a hook that exits non-zero as a deny (Antigravity): its
    /// hook then exits 0 with [`no_decision`](Self::no_decision) even on input it
    /// cannot read, so a fault of ours never silently denies.
    fn fails_closed(&self) -> bool {
        false
    }
    /// How the hook hands its decision to the agent: printed on stdout, unless the
    /// agent reads it another way (Kiro CLI: a deny is exit code 2).
    fn delivery(&self, output: Value) -> Delivery {
        Delivery::Stdout(output)
    }
    /// The event that says a session ended: Claude Code's `SessionEnd`, which every
    /// agent but Cursor (`sessionEnd`) names so.
    fn session_end(&self) -> &'static str {
        "SessionEnd"
    }
    /// Where the agent keeps its transcript, whose last message shows beside the ask.
    fn transcript(&self, hook: &HookInput) -> Option<std::path::PathBuf> {
        hook.text("transcript_path").filter(|p| !p.is_empty()).map(Into::into)
    }
    /// Reads the hook's stdin: Claude Code's shape (`hook_event_name`, `tool_name`,
    /// `tool_input`, `cwd`, `session_id`) unless the agent says otherwise.
    fn read(&self, input: &str) -> Result<HookInput, HookInputError> {
        HookInput::parse(input)
    }
}

/// How a hook's decision reaches its agent.
#[derive(Debug, Clone, PartialEq)]
pub enum Delivery {
    /// The agent's JSON on stdout, and exit code 0.
    Stdout(Value),
    /// Exit code 2 with the reason on stderr: the call is refused, and the model
    /// reads why.
    Block(String),
}

/// An agent whose hooks User Questions answers: its names and what `userq` says of it,
/// and its [`Integration`]. Each agent's file declares its own (`AGENT`); a new agent
/// is one file and one line in [`Agent::ALL`].
#[derive(Clone, Copy)]
pub struct Agent {
    /// The name on the command line (`userq hook <name>`, `userq setup <name>`).
    pub name: &'static str,
    /// The agent's own name, as people know it; the ask's `context.source`.
    pub display_name: &'static str,
    /// The agent's own command, as `userq doctor` looks for it on `PATH`.
    pub program: &'static str,
    /// The hook events (and tools) it answers, for `userq hook --help`.
    pub events: &'static str,
    /// The catalog message `userq setup` prints once done (it may name `$userq`).
    pub setup_done: &'static str,
    /// Whether `userq setup --project` can write a project's settings instead.
    pub project_settings: bool,
    /// The version this release was tested with: in the agent's real CLI, or where
    /// that is out of reach (Cursor, Antigravity, Kiro CLI) through the hook input its
    /// documentation of that version shows.
    pub tested: Version,
    hooks: &'static dyn Integration,
}

impl Agent {
    pub const ALL: [Agent; 11] = [
        claude_code::AGENT,
        codex::AGENT,
        gemini::AGENT,
        copilot::AGENT,
        qwen::AGENT,
        droid::AGENT,
        cursor::AGENT,
        opencode::AGENT,
        antigravity::AGENT,
        kimi::AGENT,
        kiro::AGENT,
    ];

    /// The agent a context's `source` names (its display name: `Claude Code`).
    pub fn shown_as(display_name: &str) -> Option<Agent> {
        Self::ALL.into_iter().find(|a| a.display_name == display_name)
    }

    pub fn from_command_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.name == name)
    }

    /// Every agent's command-line name, for help and errors: `claude-code, codex, …`.
    pub fn names() -> String {
        Self::ALL.map(|a| a.name).join(", ")
    }

    /// The hook's output when it takes no decision; `None`: print nothing.
    pub fn no_decision(self, why: &str) -> Option<Value> {
        self.hooks.no_decision(why)
    }

    /// How the hook hands `output` to this agent.
    pub fn delivery(self, output: Value) -> Delivery {
        self.hooks.delivery(output)
    }
    /// Whether a hook that exits non-zero denies in this agent.
    pub fn fails_closed(self) -> bool {
        self.hooks.fails_closed()
    }

    pub(crate) fn integration(self) -> &'static dyn Integration {
        self.hooks
    }

    /// The agent session this hook input says has ended (by its `session_id`), whose
    /// rules end with it.
    pub fn session_ended(self, input: &str) -> Option<String> {
        let hook = self.hooks.read(input).ok()?;
        (hook.event == self.hooks.session_end()).then(|| hook.text("session_id").map(str::to_owned)).flatten()
    }

    /// The ask one hook input makes. `Ok(None)`: an event this hook takes no part in.
    /// The questions are worded in `text`'s language; what the agent reads back is not.
    pub fn ask_from(self, input: &str, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        let hook = self.hooks.read(input)?;
        let ask = self.hooks.ask_from(&hook, words)?;
        Ok(ask.map(|mut ask| {
            // What the call says of itself, read by the agent's module from its call.
            let description = ask.context.description.take();
            ask.context = Context { description, ..hook.context(self) };
            ask.transcript = self.hooks.transcript(&hook);
            ask
        }))
    }
}

impl PartialEq for Agent {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Agent {}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
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
    #[error("the {event} hook input: {why}")]
    Invalid { event: String, why: String },
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

    /// Where the hook was called from; what the agent says of its call comes from the
    /// call ([`HookAsk::judged`]), and the transcript's last message is read later,
    /// only for an ask a person sees ([`HookAsk::hear_the_agent`]).
    fn context(&self, agent: Agent) -> Context {
        let mut context = Context {
            project: self.cwd().map(str::to_owned),
            session: self.text("session_id").map(str::to_owned),
            source: Some(agent.display_name.to_owned()),
            ..Context::default()
        };
        crate::place::locate(&mut context);
        context
    }
}

/// What follows the person's answer: the hook's output (`None` is no decision), or
/// the questions asked again (an answer that did not fit, each problem shown).
pub enum Next {
    Done(Option<Value>),
    Again(Box<HookAsk>),
}

/// Turns the person's answer into what follows it.
type Decide = Box<dyn FnOnce(&Answer) -> Next + Send>;

/// The questions one hook input asks, and how to write the answer back.
pub struct HookAsk {
    pub questions: Vec<Question>,
    pub context: Context,
    /// The output when the person dismisses the questions; `None`: no decision.
    pub dismissed: Option<Value>,
    /// What the policy judges, for a permission: the hook asks it before the person.
    pub action: Option<crate::policy::Kind>,
    /// Whether the person is asked when the policy does not decide; not where the
    /// agent's hook can only block (Kimi Code), whose own prompt asks instead.
    pub asks_the_person: bool,
    /// Where the agent keeps its transcript, read only when the ask reaches a person.
    transcript: Option<std::path::PathBuf>,
    decide: Decide,
}

impl HookAsk {
    fn new(questions: Vec<Question>, decide: impl FnOnce(&Answer) -> Option<Value> + Send + 'static) -> Self {
        Self::checked(questions, move |answer| Next::Done(decide(answer)))
    }

    /// An ask whose answer is checked, and may be asked again.
    fn checked(questions: Vec<Question>, decide: impl FnOnce(&Answer) -> Next + Send + 'static) -> Self {
        Self {
            questions,
            context: Context::default(),
            dismissed: None,
            action: None,
            asks_the_person: true,
            transcript: None,
            decide: Box::new(decide),
        }
    }

    /// A permission for `call`, which the policy judges first.
    /// Its question's intent names the action, for a door that offers to remember
    /// the answer as a rule.
    fn judged(mut self, call: &hook::call::Call) -> Self {
        self.action = call.action();
        self.context.description = call.description().map(str::to_owned);
        let intent = self.questions.first_mut().and_then(|q| q.intent.as_mut());
        if let (Some(intent), Some(action)) = (intent, &self.action) {
            if let Ok(value) = serde_json::to_value(action) {
                intent.extra.insert(crate::policy::ACTION.into(), value);
            }
        }
        self
    }

    /// A hook that enforces the policy alone: what it leaves, the agent's prompt asks.
    fn policy_only(mut self) -> Self {
        self.asks_the_person = false;
        self
    }

    /// The ask of an agent whose hook can only refuse (Kimi Code, Kiro CLI): the
    /// policy's verdict on `call`, a deny written by `deny` with its reason, and
    /// nothing else.
    fn denies_only(
        hook: &HookInput,
        tool: &str,
        call: &hook::call::Call,
        words: &Text,
        deny: fn(String) -> Value,
    ) -> Self {
        use hook::permission::{self, Verdict};
        let question = permission::question(&call.title(hook.cwd()), words, tool, call.detail(hook.cwd(), words), &[]);
        let ask = HookAsk::new(vec![question], move |answer| match permission::verdict(answer, &[], DENIED) {
            Verdict::Deny(reason) => Some(deny(reason)),
            Verdict::Allow | Verdict::Choice(_) | Verdict::NoDecision => None,
        });
        ask.judged(call).policy_only()
    }

    /// What each part of its action does and why it reaches the person, in its
    /// question's intent (`parts`), for every door to show above the answer.
    pub fn explain(&mut self, parts: &[crate::policy::reading::Explained]) {
        let intent = self.questions.first_mut().and_then(|q| q.intent.as_mut());
        if let (Some(intent), Ok(parts)) = (intent, serde_json::to_value(parts)) {
            intent.extra.insert(crate::policy::reading::PARTS.into(), parts);
        }
    }

    /// The agent's last message before it asked, from the end of its transcript, in
    /// the ask's context: read only for an ask a person sees, as the policy's own
    /// decisions need none of it.
    /// A transcript still behind the agent's turn is read again, a few times, briefly.
    pub fn hear_the_agent(&mut self) {
        let Some(path) = &self.transcript else { return };
        for _ in 0..transcript::READS {
            match transcript::read(path) {
                transcript::Heard::Said(text) => {
                    self.context.last_message = Some(text);
                    return;
                }
                transcript::Heard::Nothing => return,
                transcript::Heard::Behind => std::thread::sleep(transcript::BEHIND),
            }
        }
    }

    /// The policy's action for this ask, by `agent`, where the hook input says.
    pub fn policy_action(&self, agent: Agent) -> Option<crate::policy::Action> {
        Some(crate::policy::Action {
            kind: self.action.clone()?,
            cwd: self.context.project.as_deref().map(std::path::PathBuf::from),
            agent: Some(agent.name.to_owned()),
            session: self.context.session.clone(),
        })
    }

    /// What follows the person's answer.
    pub fn decide(self, answer: &Answer) -> Next {
        let context = self.context;
        match (self.decide)(answer) {
            Next::Again(mut again) => {
                again.context = context;
                Next::Again(again)
            }
            done => done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AgentName;

    /// The layers below the hooks know each agent by its names alone: every agent here
    /// is named there, in the same order.
    #[test]
    fn every_agent_is_named_below_the_hooks() {
        let here = Agent::ALL.map(|a| (a.name, a.display_name));
        let named = AgentName::ALL.map(|a| (a.name, a.display_name));
        assert_eq!(here, named);
    }
}
