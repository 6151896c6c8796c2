//! The question service: `ask(request)` runs the reference's checks in order, then the
//! answerer waterfall, and waits for the first outcome. Async and in-process only:
//! sockets, terminals and windows are front doors built on top of it.

mod ask;
mod pending;
mod registry;
mod scope;
mod waterfall;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use futures::FutureExt;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

pub use ask::Ask;
pub use pending::{Ending, PendingAsk, PendingEvent};
pub use scope::Scope;
pub use waterfall::{Answerer, Next, Registration};

use crate::model::{AgentRef, Answer, AskRequest, ErrorCode, Question, Request, UserQuestionError};
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
    asks: AtomicU64,
    stopping: CancellationToken,
}

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

    /// Every ask not yet ended, oldest first.
    pub fn pending(&self) -> Vec<PendingAsk> {
        self.0.pending.snapshot()
    }

    /// Changes to the pending set from now on. Subscribe before reading [`Self::pending`].
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

    /// Asks a person, through whichever answerer claims the request first. The checks
    /// run in the reference's order before any answerer sees the request. Cancelling
    /// `cancel` ends the ask with `ASK_ABORTED` and withdraws it from its holder.
    pub async fn ask(&self, request: AskRequest, cancel: &CancellationToken) -> Result<Answer, UserQuestionError> {
        self.post(request, cancel.clone())?.outcome().await
    }

    /// The synchronous half of [`Self::ask`]: runs the checks and posts the ask to the
    /// pending set, so asks are ordered as they were received; the waterfall starts
    /// when [`Posted::outcome`] is awaited.
    pub fn post(&self, request: AskRequest, cancel: CancellationToken) -> Result<Posted, UserQuestionError> {
        // The checks of docs/protocol.md ("Asking"), numbered as there.
        // 1. shape (the parser has checked the types; the rules no type carries):
        request.check_shape()?;
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
        let (agent, agent_gone) = match admitted {
            Some(a) => (Some(a.info), a.gone),
            None => (None, CancellationToken::new()),
        };
        let seq = self.0.asks.fetch_add(1, Ordering::Relaxed) + 1;
        let request = Request { questions: request.questions, agent, context: request.context };
        let ask = Ask::post(seq, request, self.0.pending.clone());
        Ok(Posted { service: self.clone(), ask, cancel, agent_gone })
    }

    async fn run(&self, ask: &Ask, cancel: &CancellationToken, agent_gone: &CancellationToken) {
        let tried = Mutex::new(Vec::new());
        let mut dispatch = self.0.waterfall.dispatch(ask, &tried);
        // Biased: an outcome already settled wins; then a stop, so that answerers
        // going away as the server stops never turn it into NO_PROVIDER.
        tokio::select! {
            biased;
            () = ask.ended() => {}
            () = self.0.stopping.cancelled() => withdraw(ask, &mut dispatch, UserQuestionError::shutting_down()),
            outcome = &mut dispatch => {
                ask.settle(outcome.and_then(|a| a.fit(&ask.request().questions)));
            }
            () = cancel.cancelled() => withdraw(ask, &mut dispatch, UserQuestionError::aborted()),
            () = agent_gone.cancelled() => withdraw(ask, &mut dispatch, UserQuestionError::aborted()),
        }
    }
}

/// An ask that passed its checks and waits in the pending set.
pub struct Posted {
    service: UserQuestions,
    ask: Ask,
    cancel: CancellationToken,
    agent_gone: CancellationToken,
}

impl Posted {
    pub fn id(&self) -> &str {
        self.ask.id()
    }

    /// Runs the waterfall and waits for the first outcome.
    pub async fn outcome(self) -> Result<Answer, UserQuestionError> {
        self.service.run(&self.ask, &self.cancel, &self.agent_gone).await;
        self.ask.take_outcome()
    }
}

impl Drop for Posted {
    /// A posted ask nobody waits for any more is withdrawn, never left pending.
    fn drop(&mut self) {
        if self.ask.ending().is_none() {
            self.ask.withdraw();
            self.ask.settle(Err(UserQuestionError::aborted()));
        }
    }
}

/// Tells the holder the ask is withdrawn and gives it one chance to end the ask with
/// its own domain error (which wins over `ASK_ABORTED`), then ends it with `error`.
fn withdraw(
    ask: &Ask,
    dispatch: &mut futures::future::BoxFuture<'_, Result<Answer, UserQuestionError>>,
    error: UserQuestionError,
) {
    ask.withdraw();
    if let Some(Err(own)) = dispatch.now_or_never() {
        // Only an answerer's own error wins; the waterfall's errors (an answerer that
        // passed as the ask was withdrawn leaves NO_PROVIDER behind) do not.
        let waterfall_error = [ErrorCode::AskAborted, ErrorCode::NoProvider, ErrorCode::ShuttingDown];
        if !waterfall_error.iter().any(|c| own.is(*c)) {
            ask.settle(Err(own));
        }
    }
    ask.settle(Err(error));
}

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
