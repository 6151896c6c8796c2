//! The answerer waterfall: answerers in order (higher priority first, ties in
//! registration order), each of which claims an ask or hands it to `next`. The next
//! answerer is chosen when it is needed, so one registered mid-flight can still be
//! offered the ask, and an answerer that goes away while holding an ask passes it on.
//! Every ending comes back up the waterfall: what a holder delivers later, what a
//! withdrawal leaves, each answerer that handed the ask on sees it returned from
//! `next` before the asker receives it (a recorder above the rest writes it down).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};

use async_trait::async_trait;
use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use super::scope::Scope;
use super::Ask;
use crate::model::{AgentInfo, Answer, ErrorCode, Request, UserQuestionError};

/// Something that can answer asks: a person behind a window or a terminal, a script,
/// a rule. It returns an answer to claim the ask at once, calls `next` to pass (and
/// sees what came back: the outcome the asker will receive), or holds the ask and
/// settles it later through [`Ask::answer`] / [`Ask::reject`] while its future stays
/// pending.
#[async_trait]
pub trait Answerer: Send + Sync + 'static {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Result<Answer, UserQuestionError>;

    /// A request the service refused after reading it (a later check than its shape:
    /// `CALLER_NOT_LIVE`, `BAD_INTENT`, ...), before the asker hears `error`. Most
    /// answerers have nothing to do with it; a recorder writes it down.
    async fn refused(&self, _request: &Request, _error: &UserQuestionError) {}
}

/// The rest of the waterfall after the current answerer.
pub struct Next<'a> {
    waterfall: &'a Waterfall,
    ask: &'a Ask,
    tried: &'a Mutex<Vec<u64>>,
    /// Set once the answerer hands the ask on: it no longer holds it.
    delegated: &'a AtomicBool,
}

impl Next<'_> {
    /// Offers the ask to the remaining answerers; `NO_PROVIDER` when none claims it.
    /// What this answerer delivered before letting go stands instead: an answerer on a
    /// socket that answers and hangs up at once has answered, whichever the service
    /// reads first.
    pub async fn run(self) -> Result<Answer, UserQuestionError> {
        if self.ask.is_delivered() {
            return self.ask.delivery();
        }
        self.delegated.store(true, Ordering::Relaxed);
        self.waterfall.dispatch(self.ask, self.tried).await
    }
}

struct Entry {
    id: u64,
    name: Arc<str>,
    scope: Scope,
    priority: i64,
    answerer: Arc<dyn Answerer>,
    gone: CancellationToken,
}

#[derive(Default)]
pub(crate) struct Waterfall {
    /// Sorted: higher priority first, then registration order.
    entries: RwLock<Vec<Arc<Entry>>>,
    ids: AtomicU64,
    /// Told of every registration.
    pub(crate) registered: tokio::sync::Notify,
}

/// An answerer's place in the waterfall. [`Registration::remove`] takes it out; the
/// asks it holds go on down the waterfall. Removing twice is harmless.
pub struct Registration {
    waterfall: Weak<Waterfall>,
    id: u64,
}

impl Registration {
    pub fn id(&self) -> u64 {
        self.id
    }
    pub fn remove(&self) {
        if let Some(w) = self.waterfall.upgrade() {
            w.remove(self.id);
        }
    }
}

impl Waterfall {
    pub fn register(
        self: &Arc<Self>,
        name: &str,
        scope: Scope,
        priority: i64,
        answerer: Arc<dyn Answerer>,
    ) -> Registration {
        let id = self.ids.fetch_add(1, Ordering::Relaxed);
        let entry =
            Arc::new(Entry { id, name: name.into(), scope, priority, answerer, gone: CancellationToken::new() });
        let mut entries = self.entries.write().unwrap();
        let at = entries.partition_point(|e| e.priority >= priority);
        entries.insert(at, entry);
        drop(entries);
        self.registered.notify_waiters();
        Registration { waterfall: Arc::downgrade(self), id }
    }

    fn remove(&self, id: u64) {
        let mut entries = self.entries.write().unwrap();
        if let Some(at) = entries.iter().position(|e| e.id == id) {
            entries.remove(at).gone.cancel();
        }
    }

    fn pick(&self, agent: Option<&AgentInfo>, tried: &Mutex<Vec<u64>>) -> Option<Arc<Entry>> {
        let mut tried = tried.lock().unwrap();
        let entries = self.entries.read().unwrap();
        let entry = entries.iter().find(|e| !tried.contains(&e.id) && e.scope.admits(agent))?.clone();
        tried.push(entry.id);
        Some(entry)
    }

    /// Every answerer hears of a refused request, before the asker does.
    pub async fn refused(&self, request: &Request, error: &UserQuestionError) {
        let entries: Vec<Arc<Entry>> = self.entries.read().unwrap().clone();
        for entry in entries {
            entry.answerer.refused(request, error).await;
        }
    }

    pub fn dispatch<'a>(
        &'a self,
        ask: &'a Ask,
        tried: &'a Mutex<Vec<u64>>,
    ) -> BoxFuture<'a, Result<Answer, UserQuestionError>> {
        Box::pin(async move {
            if let Some(reason) = ask.withdrawal() {
                return Err(reason);
            }
            let Some(entry) = self.pick(ask.request().agent.as_ref(), tried) else {
                return Err(UserQuestionError::no_provider());
            };
            ask.offer_to(&entry.name);
            let delegated = AtomicBool::new(false);
            let next = Next { waterfall: self, ask, tried, delegated: &delegated };
            // While the answerer holds the ask (it has not handed it on): what it
            // delivers later is its outcome; its going away passes the ask on; a
            // withdrawal ends it, after the answerer's own future had the first look
            // (its own error wins). Once it has handed the ask on, the rest of the
            // waterfall deals with all three and the outcome comes back through `next`.
            let outcome = tokio::select! {
                biased;
                outcome = entry.answerer.answer(ask, next) => outcome.and_then(|a| a.fit(&ask.request().questions)),
                () = while_holding(ask.delivered(), &delegated) => ask.delivery(),
                () = while_holding(entry.gone.cancelled(), &delegated) => return self.dispatch(ask, tried).await,
                () = while_holding(ask.withdrawn(), &delegated) => Err(ask.withdrawal().expect("withdrawn with a reason")),
            };
            if !delegated.load(Ordering::Relaxed) {
                ask.answered_by_default(&entry.name);
            }
            after_withdrawal(ask, outcome)
        })
    }
}

/// Resolves on `event` while the answerer still holds the ask; never once it has
/// handed the ask on. An answerer that handed the ask on before this is first polled
/// (most do, in their first poll) never listens for the event at all: each listener
/// is a lock taken and a waiter queued, at every level of the waterfall.
async fn while_holding(event: impl std::future::Future<Output = ()>, delegated: &AtomicBool) {
    if !delegated.load(Ordering::Relaxed) {
        event.await;
    }
    if delegated.load(Ordering::Relaxed) {
        std::future::pending::<()>().await;
    }
}

/// Once an ask is withdrawn, what the waterfall itself leaves behind (an answerer that
/// passed as the ask was taken back leaves `NO_PROVIDER`) gives way to the reason it
/// was withdrawn; an answer that came first, or an answerer's own error, stands.
pub(crate) fn after_withdrawal(
    ask: &Ask,
    outcome: Result<Answer, UserQuestionError>,
) -> Result<Answer, UserQuestionError> {
    let waterfall = [ErrorCode::AskAborted, ErrorCode::NoProvider, ErrorCode::ShuttingDown];
    match (outcome, ask.withdrawal()) {
        (Err(e), Some(reason)) if waterfall.iter().any(|c| e.is(*c)) => Err(reason),
        (outcome, _) => outcome,
    }
}
