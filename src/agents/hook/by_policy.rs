//! The policy's decision on a hook's ask, before anyone is asked and with no server
//! needed: the action judged, an allow or a deny written back in the agent's shape and
//! kept in the history with the rules that gave it, or the ask handed on to the person
//! with the verdict's reasons explained. Every door that hears an agent's hook decides
//! here, so the same rules give the same answer, the same words and the same record.

use std::path::Path;

use serde_json::Value;

use super::permission;
use crate::agents::{Agent, HookAsk, Next};
use crate::history::{self, decider::Decider, decider::PolicyRule};
use crate::model::{AgentInfo, Answer, Request};
use crate::policy::{reading, Decision, Policy};

/// What the policy made of an ask.
pub enum ByPolicy {
    /// It decided: the agent's output (`None`: a hook that only refuses, and printed
    /// nothing, so the agent goes on by its own rules), and why the history could not
    /// keep the decision, if it could not.
    Decided { output: Option<Value>, unkept: Option<String> },
    /// The person decides: the ask, with the verdict's reasons explained; and why the
    /// rules decided nothing, when they could not be read.
    Person { ask: Box<HookAsk>, unreadable: Option<String> },
}

/// The policy's decision on `ask` from `agent`; `history`: the folder its decisions
/// are kept in (`None`: not kept).
pub fn decide(agent: Agent, ask: HookAsk, history: Option<&Path>) -> ByPolicy {
    let person = |ask: HookAsk, unreadable| ByPolicy::Person { ask: Box::new(ask), unreadable };
    let Some(action) = ask.policy_action(agent) else { return person(ask, None) };
    let policy = match Policy::here(action.cwd.as_deref()) {
        Ok(policy) => policy,
        Err(e) => return person(ask, Some(e.to_string())),
    };
    let decision = policy.decide(&action);
    let Some(answer) = permission::answer_for(&decision) else {
        let mut ask = ask;
        ask.explain(&reading::explain(&action, &decision));
        return person(ask, None);
    };
    let request = Request {
        questions: ask.questions.clone(),
        agent: Some(AgentInfo {
            id: agent_id(agent, &ask),
            delegation_depth: 0,
            client: Some(agent.display_name.into()),
        }),
        context: Some(ask.context.clone()),
    };
    let asks_the_person = ask.asks_the_person;
    match ask.decide(&answer) {
        Next::Done(output) => {
            // A hook that only refuses and printed nothing decided nothing: nothing to keep.
            let kept = output.is_some() || asks_the_person;
            let unkept = history.filter(|_| kept).and_then(|dir| keep(dir, &request, &answer, &decision).err());
            ByPolicy::Decided { output, unkept }
        }
        Next::Again(again) => person(*again, None),
    }
}

/// The policy's decision in the history, with the rules that gave it.
fn keep(dir: &Path, request: &Request, answer: &Answer, decision: &Decision) -> Result<(), String> {
    let by = Decider::Policy(decision.deciding().into_iter().map(PolicyRule::from).collect());
    history::record_one(dir, request, answer, &by).map(|_| ()).map_err(|e| e.to_string())
}

/// The agent a hook asks as: one of its own, so parallel hooks never collide.
pub fn agent_id(agent: Agent, ask: &HookAsk) -> String {
    let session = ask.context.session.as_deref().unwrap_or("no-session");
    format!("{}-{session}-{}-{:06x}", agent.name, std::process::id(), rand::random::<u32>() & 0xff_ffff)
}
