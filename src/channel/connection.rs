//! What the tasks of one client connection share: its write side, the table of the
//! server's calls waiting for the client's reply, and the asks its answerers hold.
//! The rules that keep one client from hurting the others live here: replies to a
//! client's own requests wait for it to read them, while the server's own messages to
//! a client that stopped reading close that client instead of stalling anyone else.
//! [`super::session`] reads the client's requests; [`super::remote`] is the
//! answerer on the other end.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;
use tokio::sync::{oneshot, Notify};

use super::outbox::Outbox;
use super::protocol::{BadAnswer, BadAnswerParams, Method, Notice, Offer, OfferParams, Withdraw, WithdrawParams};
use super::rpc::{self, Json};
use crate::model::{Answer, UserQuestionError};
use crate::service::Ask;

/// Lines waiting to be written to one client.
const OUT_QUEUE: usize = 1024;

/// What the answerer on this connection made of an offer, read by the session in the
/// order the connection's messages arrived (so a claim is seen before the request
/// that follows it on the same connection).
pub(crate) enum Reply {
    /// The answerer passes: the ask goes on down the waterfall.
    Pass,
    /// The answerer claimed it (or answered at once): it holds the ask until it ends.
    Hold,
    /// The answerer replied with one of the service's errors.
    Error(UserQuestionError),
}

/// What an answerer's reply to an offer says: an answer given at once (which may not
/// be one), or whether it claims the ask.
struct OfferReply {
    answer: Option<Result<Answer, UserQuestionError>>,
    claim: bool,
}

/// The reply's members as JSON text; `null` counts as there.
#[derive(serde::Deserialize)]
struct Members<'a> {
    #[serde(borrow, default, deserialize_with = "rpc::present")]
    answer: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "rpc::present")]
    claim: Option<&'a RawValue>,
}

impl OfferReply {
    /// Straight from the reply's text when it is well-formed; from a tree of values,
    /// which names what is wrong with an answer, otherwise.
    fn read(result: Json) -> Self {
        if let Some(m) = result.parse::<Members>() {
            let answer = m.answer.map(|raw| {
                serde_json::from_str::<Answer>(raw.get())
                    .or_else(|_| Answer::from_value(&serde_json::from_str(raw.get()).unwrap_or_default()))
            });
            return Self { answer, claim: m.claim.is_some_and(|c| c.get() == "true") };
        }
        let result = result.into_value().unwrap_or_default();
        Self {
            answer: result.get("answer").map(Answer::from_value),
            claim: result.get("claim") == Some(&Value::Bool(true)),
        }
    }
}

/// An offer waiting for its reply: the ask it offers and the answerer waiting.
pub(super) struct Offered {
    ask: Ask,
    reply: oneshot::Sender<Reply>,
}

/// What other tasks (asks, answerer adapters) share of a connection.
pub(crate) struct Conn {
    pub(super) out: Outbox,
    offers: Mutex<HashMap<u64, Offered>>,
    call_ids: AtomicU64,
    held: Mutex<HashMap<String, Held>>,
}

struct Held {
    ask: Ask,
    state: Arc<Holding>,
}

/// What the session and the ask's answerer both see of a held ask.
#[derive(Default)]
struct Holding {
    claimed: Notify,
    /// This connection's answerer answered or rejected it.
    settled: AtomicBool,
}

/// An ask this connection's answerer holds; dropping it lets go, and tells the
/// answerer when the ask was withdrawn.
pub(crate) struct HeldGuard<'a> {
    conn: &'a Conn,
    ask: Ask,
    state: Arc<Holding>,
}

impl HeldGuard<'_> {
    /// Resolves when the answerer answered or rejected before replying to the offer.
    pub async fn claimed(&self) {
        self.state.claimed.notified().await
    }
}

impl Drop for HeldGuard<'_> {
    fn drop(&mut self) {
        self.conn.held.lock().unwrap().remove(self.ask.id());
        // Withdrawn, or answered elsewhere (another machine of a relay's circle).
        let elsewhere = self.ask.is_delivered() && !self.state.settled.load(Ordering::Relaxed);
        if self.ask.is_withdrawn() || elsewhere {
            self.conn.notify::<Withdraw>(&WithdrawParams { ask: self.ask.id().to_owned(), reason: "aborted".into() });
        }
    }
}

impl Conn {
    pub(super) fn new(out: Outbox) -> Self {
        Self { out, offers: Mutex::default(), call_ids: AtomicU64::new(1), held: Mutex::default() }
    }

    pub fn is_closed(&self) -> bool {
        self.out.closed().is_cancelled()
    }

    pub async fn closed(&self) {
        self.out.closed().cancelled().await
    }

    /// Sends a server-initiated line; a client too far behind is disconnected. The line
    /// leaves with the others sent in the same turn of the runtime: the offers of asks
    /// that arrived together reach an answerer in one write and wake it once.
    fn push(&self, line: String) {
        if self.out.push_batched(line, OUT_QUEUE).is_err() {
            tracing::warn!("closing a connection that stopped reading");
            self.out.closed().cancel();
        }
    }

    pub fn notify<N: Notice>(&self, params: &N::Params) {
        self.push(rpc::notification(N::NAME, params));
    }

    /// Offers `ask` to the answerer on this connection; the receiver gets what its
    /// reply made of it (see [`Self::on_reply`]).
    pub fn offer(&self, ask: &Ask) -> oneshot::Receiver<Reply> {
        let params = OfferParams { ask: ask.id(), request: ask.request_json() };
        let id = self.call_ids.fetch_add(1, Ordering::Relaxed);
        let (reply, rx) = oneshot::channel();
        self.offers.lock().unwrap().insert(id, Offered { ask: ask.clone(), reply });
        self.push(rpc::request(&id.into(), Offer::NAME, params));
        rx
    }

    /// A reply to one of the server's offers, taken in the order it arrived: a claim
    /// marks the ask held, and an answer given at once is delivered, before the next
    /// message of this connection is read. A reply matching no offer is ignored;
    /// anything unknown counts as a pass.
    pub(super) fn on_reply(&self, id: &Value, outcome: Result<Json, Value>) {
        let Some(offered) = id.as_u64().and_then(|id| self.offers.lock().unwrap().remove(&id)) else { return };
        if offered.reply.is_closed() {
            // Nobody waits for it any more: the ask was answered through
            // `questions/answer` first, or has ended.
            return;
        }
        let ask = &offered.ask;
        let reply = match outcome {
            Err(error) => UserQuestionError::from_rpc(&error).map_or(Reply::Pass, Reply::Error),
            Ok(result) => match OfferReply::read(result) {
                OfferReply { answer: Some(answer), .. } => {
                    ask.claim();
                    match answer.and_then(|a| ask.answer(a)) {
                        Ok(()) => self.settled(ask.id()),
                        Err(misfit) => {
                            let params =
                                BadAnswerParams { ask: ask.id().to_owned(), message: misfit.message().to_owned() };
                            self.notify::<BadAnswer>(&params)
                        }
                    }
                    Reply::Hold
                }
                OfferReply { claim: true, .. } => {
                    ask.claim();
                    Reply::Hold
                }
                OfferReply { .. } => Reply::Pass,
            },
        };
        let _ = offered.reply.send(reply);
    }

    pub fn hold(&self, ask: &Ask) -> HeldGuard<'_> {
        let state = Arc::new(Holding::default());
        self.held.lock().unwrap().insert(ask.id().to_owned(), Held { ask: ask.clone(), state: state.clone() });
        HeldGuard { conn: self, ask: ask.clone(), state }
    }

    /// This connection's answerer answered or rejected the ask it holds under `id`.
    pub(super) fn settled(&self, id: &str) {
        if let Some(h) = self.held.lock().unwrap().get(id) {
            h.state.settled.store(true, Ordering::Relaxed);
        }
    }

    /// The ask this connection holds under `id`, marked as claimed.
    pub(super) fn held_ask(&self, id: &str) -> Result<Ask, UserQuestionError> {
        let held = self.held.lock().unwrap();
        let h = held.get(id).ok_or_else(|| UserQuestionError::not_pending(id))?;
        h.state.claimed.notify_one();
        Ok(h.ask.clone())
    }

    /// Replies to the client's own request, once it has read enough of the earlier ones.
    pub(super) async fn reply(&self, id: &Value, outcome: Result<impl Serialize, Value>) {
        self.send_reply(rpc::response(id, outcome)).await
    }

    /// Sends a line the client's own message called for (a reply or an error),
    /// waiting while the client is far behind in reading: that client stalls, no other.
    pub(super) async fn send_reply(&self, line: String) {
        self.out.send(line, OUT_QUEUE).await
    }
}
