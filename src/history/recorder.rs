//! The recorder: the first answerer of the waterfall. It answers what a rule remembers
//! and hands every other ask on, sees the outcome come back, and appends it to this
//! process's journal before it returns it, so an asker never holds an answer the
//! history lacks. The append is one `write`, shared by the asks that end at the same
//! moment; the database is written off the asker's path, by the journal's folder
//! thread.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;

use super::journal::{AskRef, EndRef, EntryRef, Journal};
use super::rules::Rules;
use super::store;
use crate::model::{Answer, Request, UserQuestionError};
use crate::{Answerer, Ask, Next};

/// An ask still waiting after this long is written down as pending; one that ends
/// sooner (most: a rule, a script, a quick answer) is written once, when it ends.
const PENDING_AFTER: Duration = Duration::from_millis(50);

/// The waterfall's first answerer.
pub struct Recorder {
    journal: Arc<Journal>,
    rules: Rules,
}

impl Recorder {
    pub fn new(journal: Arc<Journal>, rules: Rules) -> Self {
        Self { journal, rules }
    }
}

#[async_trait]
impl Answerer for Recorder {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Result<Answer, UserQuestionError> {
        let entry = AskRef { asked_at: store::nanos(ask.since()), seq: ask.order(), request: ask.request_json() };
        let rest = async {
            match self.rules.answer(ask) {
                Some(remembered) => Ok(remembered),
                None => next.run().await,
            }
        };
        tokio::pin!(rest);
        let (outcome, begun) = tokio::select! {
            biased;
            outcome = &mut rest => (outcome, None),
            () = tokio::time::sleep(PENDING_AFTER) => {
                let n = self.journal.next_n();
                let begin = self.journal.queue(&EntryRef::Begin { n, ask: entry });
                self.journal.written(begin).await;
                (rest.await, Some(n))
            }
        };
        // A permission its hook let go of was left to the agent, whoever held it here.
        let left = super::decider::Decider::of_withdrawn(ask.request(), &outcome);
        let by = left.map(|d| d.to_string().into()).or_else(|| ask.answered_by());
        let end = EndRef::new(SystemTime::now(), &outcome, by.as_deref());
        let ended = self.journal.queue(&match begun {
            Some(n) => EntryRef::End { n, end },
            None => EntryRef::Whole { ask: entry, end },
        });
        self.journal.written(ended).await;
        outcome
    }

    async fn refused(&self, request: &Request, error: &UserQuestionError) {
        let outcome = Err(error.clone());
        let now = SystemTime::now();
        let request = request.to_json();
        let ask = AskRef { asked_at: store::nanos(now), seq: 0, request: &request };
        let refused = self.journal.queue(&EntryRef::Whole { ask, end: EndRef::new(now, &outcome, None) });
        self.journal.written(refused).await;
    }
}
