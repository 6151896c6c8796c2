//! The question service: `ask(request)` runs the reference's checks in order, then the
//! answerer waterfall, and waits for the first outcome. Async and in-process only:
//! sockets, terminals and windows are front doors built on top of it.

mod ask;
pub mod count;
mod pending;
mod registry;
mod scope;
mod signal;
mod waterfall;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

pub use ask::Ask;
pub use count::{Count, Progress, Vote};
pub use pending::{Ending, PendingAsk, PendingEvent};
pub use scope::Scope;
pub use waterfall::{Answerer, Next, Registration};

use crate::model::{AgentRef, Answer, AskRequest, Question, Request, UserQuestionError};
use pending::Pending;
use registry::Registry;
use waterfall::Waterfall;

/// The question service. Clones share one service.
#[derive(Clone, Default)]
pub struct UserQuestions(Arc<Inner>);

#[derive(Default)]
struct Inner {
    registry: Registry,
    waterfall: Arc<Waterfall>,
    pending: Arc<Pending>,
    /// The asks not yet ended, by id, for [`UserQuestions::answer_pending`].
    live: Mutex<std::collections::HashMap<String, ask::Kept>>,
    asks: AtomicU64,
    stopping: CancellationToken,
    /// Which questions a team decides (see [`count`]), while a team is set up.
    team: std::sync::RwLock<Option<TeamRule>>,
}

/// Whether a question is one a team decides, not one person alone.
pub type TeamRule = Arc<dyn Fn(&Question) -> bool + Send + Sync>;

impl UserQuestions {
    pub fn new() -> Self {
        Self::default()
    }

    /// Enters an agent: a new live runtime with an unguessable token.
    pub fn enter(
        &self,
        id: &str,
        owner: Option<&AgentRef>,
        delegation_depth: u32,
    ) -> Result<AgentRef, UserQuestionError> {
        self.0.registry.enter(id, owner, delegation_depth, None)
    }

    /// Enters an agent on behalf of a named client (a socket connection's
    /// `initialize` name), which in-process answerers may show beside the agent.
    pub fn enter_from(
        &self,
        client: &str,
        id: &str,
        owner: Option<&AgentRef>,
        delegation_depth: u32,
    ) -> Result<AgentRef, UserQuestionError> {
        self.0.registry.enter(id, owner, delegation_depth, Some(client).filter(|c| !c.is_empty()))
    }

    /// Leaves an agent and every agent it owns; their pending asks end with `ASK_ABORTED`.
    pub fn leave(&self, agent: &AgentRef) -> Result<(), UserQuestionError> {
        self.0.registry.leave(agent)
    }

    pub fn is_live(&self, agent: &AgentRef) -> bool {
        self.0.registry.is_live(agent)
    }

    /// Adds an answerer to the waterfall.
    pub fn register(&self, name: &str, scope: Scope, priority: i64, answerer: Arc<dyn Answerer>) -> Registration {
        self.0.waterfall.register(name, scope, priority, answerer)
    }

    /// Resolves when the next answerer registers after this call (one that asks again
    /// after `NO_PROVIDER` waits on it, made before it asks).
    pub fn answerer_registered(&self) -> tokio::sync::futures::Notified<'_> {
        self.0.waterfall.registered.notified()
    }

    /// The pending ask `id` itself, wherever it is held: for a part of the service that
    /// takes up an ask another answerer holds (the Matrix bridge, its earlier run's
    /// question).
    pub(crate) fn live_ask(&self, id: &str) -> Option<Ask> {
        self.0.live.lock().unwrap().get(id).and_then(ask::Kept::ask)
    }

    /// Every ask not yet ended, oldest first.
    pub fn pending(&self) -> Vec<PendingAsk> {
        self.0.pending.snapshot()
    }

    /// Changes to the pending set from now on. Subscribe before reading [`Self::pending`].
    /// Answers the pending ask `id` wherever it is held, as the person's answer from
    /// `by` (a door of theirs that does not hold it: a terminal's batch): the holder
    /// takes it down as for any answer. A misfit is `BAD_ANSWER`, and an ask that is not
    /// pending `NOT_PENDING`, each leaving the ask as it was.
    pub fn answer_pending(&self, id: &str, answer: Answer, by: &str) -> Result<(), UserQuestionError> {
        let ask = self.live_ask(id).ok_or_else(|| UserQuestionError::not_pending(id))?;
        let answer = answer.fit(&ask.request().questions)?;
        if ask.ending().is_some() || ask.is_withdrawn() {
            return Err(UserQuestionError::not_pending(id));
        }
        ask.note_answered_by(by);
        ask.answer(answer)
    }

    pub fn subscribe(&self) -> broadcast::Receiver<PendingEvent> {
        self.0.pending.subscribe()
    }

    /// Stops the service: every pending ask and every later one ends with `SHUTTING_DOWN`.
    pub fn shut_down(&self) {
        self.0.stopping.cancel();
    }

    pub fn is_stopping(&self) -> bool {
        self.0.stopping.is_cancelled()
    }

    /// Which questions a team decides, from the next ask on (`None`: no team). Each
    /// ask knows whether it is one ([`Ask::needs_team`]): a remembered answer never
    /// decides it alone, and an answer given here is one vote of its count.
    pub fn set_team(&self, rule: Option<TeamRule>) {
        *self.0.team.write().unwrap() = rule;
    }

    /// Asks a person, through whichever answerer claims the request first. The checks
    /// run in the reference's order before any answerer sees the request. Cancelling
    /// `cancel` ends the ask with `ASK_ABORTED` and withdraws it from its holder.
    pub async fn ask(&self, request: AskRequest, cancel: &CancellationToken) -> Result<Answer, UserQuestionError> {
        self.post(request, cancel.clone())?.outcome().await
    }

    /// The synchronous half of [`Self::ask`]: runs the checks and posts the ask to the
    /// pending set, so asks are ordered as they were received; the waterfall starts
    /// when [`Posted::outcome`] is awaited. A request of the wrong shape is refused
    /// here; one refused by a later check comes out of [`Posted::outcome`], after the
    /// answerers have heard of it (a recorder writes it down).
    pub fn post(&self, request: AskRequest, cancel: CancellationToken) -> Result<Posted, UserQuestionError> {
        self.post_from(None, request, cancel)
    }

    /// [`Self::post`] on behalf of a named client (a socket connection's `initialize`
    /// name): the ask knows who asked ([`Ask::client`]), with or without an agent.
    pub fn post_from(
        &self,
        client: Option<&str>,
        request: AskRequest,
        cancel: CancellationToken,
    ) -> Result<Posted, UserQuestionError> {
        // The checks of docs/protocol.md ("Asking"), numbered as there.
        // 1. shape (the parser has checked the types; the rules no type carries):
        request.check_shape()?;
        let refused = |error: UserQuestionError, request: &AskRequest| {
            let agent = request.agent.as_ref().map(|a| self.0.registry.describe(a));
            let request = Request { questions: request.questions.clone(), agent, context: request.context.clone() };
            Ok(Posted { service: self.clone(), state: State::Refused { request: Box::new(request), error } })
        };
        match self.check(&request, &cancel) {
            Ok(admitted) => Ok(self.admit(client, request, admitted, cancel)),
            Err(error) => refused(error, &request),
        }
    }

    /// Checks 2 to 6, and whether the service is stopping; the admitted agent.
    fn check(
        &self,
        request: &AskRequest,
        cancel: &CancellationToken,
    ) -> Result<Option<registry::Admitted>, UserQuestionError> {
        // 2. cancelled already:
        if cancel.is_cancelled() {
            return Err(UserQuestionError::aborted());
        }
        // 3. no questions:
        if request.questions.is_empty() {
            return Err(UserQuestionError::empty_questions());
        }
        // 4. not the exact live runtime, and 5. owned by another live agent:
        let admitted = request.agent.as_ref().map(|a| self.0.registry.admit(a)).transpose()?;
        // 6. an intent that names none of its options, or reviews no detail:
        check_intents(&request.questions)?;
        // 7. the waterfall runs when the outcome is awaited.
        if self.is_stopping() {
            return Err(UserQuestionError::shutting_down());
        }
        Ok(admitted)
    }

    fn admit(
        &self,
        client: Option<&str>,
        request: AskRequest,
        admitted: Option<registry::Admitted>,
        cancel: CancellationToken,
    ) -> Posted {
        let (agent, agent_gone) = match admitted {
            Some(a) => (Some(a.info), Some(a.gone)),
            None => (None, None),
        };
        let seq = self.0.asks.fetch_add(1, Ordering::Relaxed) + 1;
        let request = Request { questions: request.questions, agent, context: request.context };
        // The asking client: the connection's own name, else the one that entered the agent.
        let client = client
            .filter(|c| !c.is_empty())
            .map(Arc::from)
            .or_else(|| request.agent.as_ref().and_then(|a| a.client.as_deref()).map(Arc::from));
        let team = self.0.team.read().unwrap().as_ref().is_some_and(|needs| request.questions.iter().any(|q| needs(q)));
        let ask = Ask::post(seq, request, client, self.0.pending.clone(), team);
        let mut live = self.0.live.lock().unwrap();
        live.retain(|_, kept| kept.ask().is_some_and(|a| a.ending().is_none()));
        live.insert(ask.id().to_owned(), ask.kept());
        drop(live);
        Posted { service: self.clone(), state: State::Asked { ask, cancel, agent_gone } }
    }

    async fn run(&self, ask: &Ask, cancel: &CancellationToken, agent_gone: Option<&CancellationToken>) {
        let tried = Mutex::new(Vec::new());
        let mut dispatch = self.0.waterfall.dispatch(ask, &tried);
        // Biased: a stop first, so that answerers going away as the server stops never
        // turn it into NO_PROVIDER; an outcome already on its way back still wins.
        let reason = tokio::select! {
            biased;
            () = self.0.stopping.cancelled() => UserQuestionError::shutting_down(),
            outcome = &mut dispatch => {
                ask.settle(outcome);
                return;
            }
            () = cancel.cancelled() => UserQuestionError::aborted(),
            () = gone(agent_gone) => UserQuestionError::aborted(),
        };
        // The holder is told; the ending comes back up the waterfall, through every
        // answerer that handed the ask on, before the asker hears it.
        ask.withdraw(reason.clone());
        let outcome = tokio::time::timeout(UNWIND, &mut dispatch).await.unwrap_or(Err(reason));
        ask.settle(waterfall::after_withdrawal(ask, outcome));
    }
}

/// An ask that passed its checks and waits in the pending set, or a request a later
/// check refused, whose error the answerers hear of before the asker.
pub struct Posted {
    service: UserQuestions,
    state: State,
}

enum State {
    /// `agent_gone` for an ask on behalf of an agent: cancelled when it leaves.
    Asked {
        ask: Ask,
        cancel: CancellationToken,
        agent_gone: Option<CancellationToken>,
    },
    Refused {
        request: Box<Request>,
        error: UserQuestionError,
    },
}

impl Posted {
    /// The ask's id; `None` for a refused request.
    pub fn id(&self) -> Option<&str> {
        match &self.state {
            State::Asked { ask, .. } => Some(ask.id()),
            State::Refused { .. } => None,
        }
    }

    /// Runs the waterfall and waits for the first outcome.
    pub async fn outcome(self) -> Result<Answer, UserQuestionError> {
        match &self.state {
            State::Asked { ask, cancel, agent_gone } => {
                self.service.run(ask, cancel, agent_gone.as_ref()).await;
                ask.take_outcome()
            }
            State::Refused { request, error } => {
                self.service.0.waterfall.refused(request, error).await;
                Err(error.clone())
            }
        }
    }
}

impl Drop for Posted {
    /// A posted ask nobody waits for any more is withdrawn, never left pending.
    fn drop(&mut self) {
        if let State::Asked { ask, .. } = &self.state {
            if ask.ending().is_none() {
                ask.withdraw(UserQuestionError::aborted());
                ask.settle(Err(UserQuestionError::aborted()));
            }
        }
    }
}

/// Resolves when the asking agent left; never for an ask made on nobody's behalf.
async fn gone(agent_gone: Option<&CancellationToken>) {
    match agent_gone {
        Some(token) => token.cancelled().await,
        None => std::future::pending().await,
    }
}

/// How long a withdrawn ask's ending may take to come back up the waterfall (an
/// answerer above the holder writing it down) before the asker hears it anyway.
const UNWIND: std::time::Duration = std::time::Duration::from_secs(2);

/// Check 6: an intent must name one of its own options and come with the detail it
/// reviews. Within one question the label check comes first.
fn check_intents(questions: &[Question]) -> Result<(), UserQuestionError> {
    for q in questions {
        let Some(intent) = &q.intent else { continue };
        if !q.has_option(&intent.approve) {
            return Err(UserQuestionError::bad_intent_label(&q.id, &intent.kind, &intent.approve));
        }
        if q.detail.as_deref().unwrap_or("").is_empty() {
            return Err(UserQuestionError::bad_intent_detail(&q.id, &intent.kind));
        }
    }
    Ok(())
}
