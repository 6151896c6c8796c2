//! The set of asks not yet ended, and the stream of changes to it that UIs watch.
//! A UI subscribes first and reads the snapshot second, so it never misses a change;
//! a subscriber that falls behind reads the snapshot again.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use super::count::Progress;
use crate::model::{Request, UserQuestionError};

/// An ask as observers see it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PendingAsk {
    pub ask: String,
    pub request: Arc<Request>,
    /// The answerer holding the ask, `None` while it is being offered.
    pub answerer: Option<Arc<str>>,
    #[serde(with = "rfc3339")]
    pub since: SystemTime,
    /// A team question's count, once a vote came (see [`super::count`]); boxed, as
    /// most asks have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<Box<Progress>>,
}

/// How an ask ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "how", rename_all = "camelCase")]
pub enum Ending {
    Answered,
    /// The asker cancelled or left.
    Withdrawn,
    ShuttingDown,
    /// An answerer's error or no answerer at all; `code` is the error's `data.code`.
    Failed {
        code: String,
    },
}

impl Ending {
    pub fn of(outcome: &Result<crate::model::Answer, UserQuestionError>) -> Self {
        use crate::model::ErrorCode;
        match outcome {
            Ok(_) => Self::Answered,
            Err(e) if e.is(ErrorCode::AskAborted) => Self::Withdrawn,
            Err(e) if e.is(ErrorCode::ShuttingDown) => Self::ShuttingDown,
            Err(e) => Self::Failed { code: e.code().to_owned() },
        }
    }
}

/// A change to the pending set.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "camelCase")]
pub enum PendingEvent {
    Posted {
        pending: PendingAsk,
    },
    Claimed {
        ask: String,
        answerer: Arc<str>,
    },
    /// Back to being offered: its holder went away and the waterfall goes on.
    Released {
        ask: String,
    },
    Ended {
        ask: String,
        ending: Ending,
    },
    /// A team question's count changed.
    Counted {
        ask: String,
        progress: Progress,
    },
}

pub(crate) struct Pending {
    asks: Mutex<BTreeMap<u64, PendingAsk>>,
    events: broadcast::Sender<PendingEvent>,
}

impl Default for Pending {
    fn default() -> Self {
        Self { asks: Mutex::new(BTreeMap::new()), events: broadcast::channel(4096).0 }
    }
}

impl Pending {
    pub fn snapshot(&self) -> Vec<PendingAsk> {
        self.asks.lock().unwrap().values().cloned().collect()
    }

    pub fn subscribe(&self) -> broadcast::Receiver<PendingEvent> {
        self.events.subscribe()
    }

    pub fn post(&self, seq: u64, pending: PendingAsk) {
        let mut asks = self.asks.lock().unwrap();
        let pending = &*asks.entry(seq).or_insert(pending);
        self.emit(|| PendingEvent::Posted { pending: pending.clone() });
    }

    pub fn hold(&self, seq: u64, answerer: Option<Arc<str>>) {
        let mut asks = self.asks.lock().unwrap();
        let Some(entry) = asks.get_mut(&seq) else { return };
        if entry.answerer == answerer {
            return;
        }
        entry.answerer = answerer.clone();
        let ask = &entry.ask;
        self.emit(|| match answerer {
            Some(answerer) => PendingEvent::Claimed { ask: ask.clone(), answerer },
            None => PendingEvent::Released { ask: ask.clone() },
        });
    }

    pub fn progress(&self, seq: u64, progress: Progress) {
        let mut asks = self.asks.lock().unwrap();
        let Some(entry) = asks.get_mut(&seq) else { return };
        entry.progress = Some(Box::new(progress.clone()));
        let ask = entry.ask.clone();
        self.emit(|| PendingEvent::Counted { ask, progress });
    }

    pub fn end(&self, seq: u64, ending: Ending) {
        if let Some(p) = self.asks.lock().unwrap().remove(&seq) {
            self.emit(|| PendingEvent::Ended { ask: p.ask, ending });
        }
    }

    /// Sends the event `make` builds, built only when someone watches.
    fn emit(&self, make: impl FnOnce() -> PendingEvent) {
        if self.events.receiver_count() > 0 {
            let _ = self.events.send(make());
        }
    }
}

/// A time as RFC 3339 text, to the millisecond.
mod rfc3339 {
    use std::time::SystemTime;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &SystemTime, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&humantime::format_rfc3339_millis(*t))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SystemTime, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        humantime::parse_rfc3339_weak(&text).map_err(serde::de::Error::custom)
    }
}
