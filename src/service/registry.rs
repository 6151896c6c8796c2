//! The live agent registry: who may ask. Only the exact live runtime of an agent is
//! admitted, and only when no other live agent owns it. Delegation depth is durable
//! lineage, recorded and shown but never used to admit or refuse.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio_util::sync::CancellationToken;

use crate::model::{AgentInfo, AgentRef, UserQuestionError};

struct Live {
    runtime: String,
    owner: Option<AgentRef>,
    depth: u32,
    client: Option<String>,
    /// Cancelled when this runtime leaves: its pending asks end with `ASK_ABORTED`.
    gone: CancellationToken,
}

/// An admitted asker: what answerers may know of it, and the signal of its leaving.
pub(crate) struct Admitted {
    pub info: AgentInfo,
    pub gone: CancellationToken,
}

#[derive(Default)]
pub(crate) struct Registry {
    agents: Mutex<HashMap<String, Live>>,
}

fn is_exact(agents: &HashMap<String, Live>, r: &AgentRef) -> bool {
    agents.get(&r.id).is_some_and(|live| live.runtime == r.runtime)
}

/// 128 random bits from the operating system's CSPRNG, as hex.
fn runtime_token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

impl Registry {
    pub fn enter(
        &self,
        id: &str,
        owner: Option<&AgentRef>,
        depth: u32,
        client: Option<&str>,
    ) -> Result<AgentRef, UserQuestionError> {
        if id.is_empty() {
            return Err(UserQuestionError::bad_request("id is empty"));
        }
        let mut agents = self.agents.lock().unwrap();
        if agents.contains_key(id) {
            return Err(UserQuestionError::agent_live(id));
        }
        if owner.is_some_and(|o| !is_exact(&agents, o)) {
            return Err(UserQuestionError::caller_not_live());
        }
        let runtime = runtime_token();
        agents.insert(
            id.to_owned(),
            Live {
                runtime: runtime.clone(),
                owner: owner.cloned(),
                depth,
                client: client.map(str::to_owned),
                gone: CancellationToken::new(),
            },
        );
        Ok(AgentRef { id: id.to_owned(), runtime })
    }

    /// Leaves an agent and, transitively, every agent it owns.
    pub fn leave(&self, agent: &AgentRef) -> Result<(), UserQuestionError> {
        let mut agents = self.agents.lock().unwrap();
        if !is_exact(&agents, agent) {
            return Err(UserQuestionError::caller_not_live());
        }
        let mut leaving = vec![agent.clone()];
        while let Some(r) = leaving.pop() {
            if let Some(live) = agents.remove(&r.id) {
                live.gone.cancel();
            }
            leaving.extend(
                agents
                    .iter()
                    .filter(|(_, l)| l.owner.as_ref() == Some(&r))
                    .map(|(id, l)| AgentRef { id: id.clone(), runtime: l.runtime.clone() }),
            );
        }
        Ok(())
    }

    pub fn admit(&self, agent: &AgentRef) -> Result<Admitted, UserQuestionError> {
        let agents = self.agents.lock().unwrap();
        let live = agents
            .get(&agent.id)
            .filter(|l| l.runtime == agent.runtime)
            .ok_or_else(UserQuestionError::caller_not_live)?;
        if live.owner.as_ref().is_some_and(|o| is_exact(&agents, o)) {
            return Err(UserQuestionError::delegated_caller());
        }
        let info = AgentInfo { id: agent.id.clone(), delegation_depth: live.depth, client: live.client.clone() };
        Ok(Admitted { info, gone: live.gone.clone() })
    }

    /// What answerers may know of an agent a request names, live or not: the live
    /// runtime's depth and client when the reference is exact, else only its id.
    pub fn describe(&self, agent: &AgentRef) -> AgentInfo {
        let agents = self.agents.lock().unwrap();
        match agents.get(&agent.id).filter(|l| l.runtime == agent.runtime) {
            Some(live) => AgentInfo { id: agent.id.clone(), delegation_depth: live.depth, client: live.client.clone() },
            None => AgentInfo { id: agent.id.clone(), delegation_depth: 0, client: None },
        }
    }

    pub fn is_live(&self, agent: &AgentRef) -> bool {
        is_exact(&self.agents.lock().unwrap(), agent)
    }
}
