//! The answerer waterfall: answerers in order (higher priority first, ties in
//! registration order), each of which claims an ask or hands it to `next`. The next
//! answerer is chosen when it is needed, so one registered mid-flight can still be
//! offered the ask, and an answerer that goes away while holding an ask passes it on.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};

use async_trait::async_trait;
use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use super::scope::Scope;
use super::Ask;
use crate::model::{AgentInfo, Answer, UserQuestionError};

/// Something that can answer asks: a person behind a window or a terminal, a script,
/// a rule. It returns an answer to claim the ask at once, calls `next` to pass (and
/// may look at what came back), or holds the ask and settles it later through
/// [`Ask::answer`] / [`Ask::reject`] while its future stays pending.
#[async_trait]
pub trait Answerer: Send + Sync + 'static {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Result<Answer, UserQuestionError>;
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
    pub async fn run(self) -> Result<Answer, UserQuestionError> {
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

    pub fn dispatch<'a>(
        &'a self,
        ask: &'a Ask,
        tried: &'a Mutex<Vec<u64>>,
    ) -> BoxFuture<'a, Result<Answer, UserQuestionError>> {
        Box::pin(async move {
            let Some(entry) = self.pick(ask.request().agent.as_ref(), tried) else {
                return Err(UserQuestionError::no_provider());
            };
            ask.offer_to(&entry.name);
            let delegated = AtomicBool::new(false);
            let next = Next { waterfall: self, ask, tried, delegated: &delegated };
            // An answerer that goes away while it holds the ask passes it on; once it
            // has handed the ask on itself, its going away changes nothing.
            let gone_while_holding = async {
                entry.gone.cancelled().await;
                if delegated.load(Ordering::Relaxed) {
                    std::future::pending::<()>().await;
                }
            };
            tokio::select! {
                biased;
                outcome = entry.answerer.answer(ask, next) => outcome,
                () = gone_while_holding => self.dispatch(ask, tried).await,
            }
        })
    }
}
