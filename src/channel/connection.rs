//! What the tasks of one client connection share: its write side, the table of the
//! server's calls waiting for the client's reply, and the asks its answerers hold.
//! The rules that keep one client from hurting the others live here: replies to a
//! client's own requests wait for it to read them, while the server's own messages to
//! a client that stopped reading close that client instead of stalling anyone else.
//! [`super::session`] reads the client's requests; [`super::remote`] is the
//! answerer on the other end.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::{oneshot, Notify};

use super::outbox::Outbox;
use super::rpc;
use crate::model::UserQuestionError;
use crate::service::Ask;

/// Lines waiting to be written to one client.
const OUT_QUEUE: usize = 1024;

type CallReply = oneshot::Sender<Result<Value, Value>>;

/// What other tasks (asks, answerer adapters) share of a connection.
pub(crate) struct Conn {
    pub(super) out: Outbox,
    pub(super) calls: Mutex<HashMap<u64, CallReply>>,
    call_ids: AtomicU64,
    held: Mutex<HashMap<String, Held>>,
}

struct Held {
    ask: Ask,
    claimed: Arc<Notify>,
}

/// An ask this connection's answerer holds; dropping it lets go, and tells the
/// answerer when the ask was withdrawn.
pub(crate) struct HeldGuard<'a> {
    conn: &'a Conn,
    ask: Ask,
    claimed: Arc<Notify>,
}

impl HeldGuard<'_> {
    /// Resolves when the answerer answered or rejected before replying to the offer.
    pub async fn claimed(&self) {
        self.claimed.notified().await
    }
}

impl Drop for HeldGuard<'_> {
    fn drop(&mut self) {
        self.conn.held.lock().unwrap().remove(self.ask.id());
        if self.ask.is_withdrawn() {
            self.conn.notify("questions/withdraw", json!({"ask": self.ask.id(), "reason": "aborted"}));
        }
    }
}

impl Conn {
    pub(super) fn new(out: Outbox) -> Self {
        Self { out, calls: Mutex::default(), call_ids: AtomicU64::new(1), held: Mutex::default() }
    }

    pub fn is_closed(&self) -> bool {
        self.out.closed().is_cancelled()
    }

    pub async fn closed(&self) {
        self.out.closed().cancelled().await
    }

    /// Sends a server-initiated line; a client too far behind is disconnected.
    fn push(&self, line: String) {
        if self.out.push(line, OUT_QUEUE).is_err() {
            tracing::warn!("closing a connection that stopped reading");
            self.out.closed().cancel();
        }
    }

    pub fn notify(&self, method: &str, params: impl Serialize) {
        self.push(rpc::notification(method, params));
    }

    /// Sends a request to the client; the receiver gets its result or error object.
    pub fn call(&self, method: &str, params: impl Serialize) -> oneshot::Receiver<Result<Value, Value>> {
        let id = self.call_ids.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.calls.lock().unwrap().insert(id, tx);
        self.push(rpc::request(&id.into(), method, params));
        rx
    }

    pub fn hold(&self, ask: &Ask) -> HeldGuard<'_> {
        let claimed = Arc::new(Notify::new());
        self.held.lock().unwrap().insert(ask.id().to_owned(), Held { ask: ask.clone(), claimed: claimed.clone() });
        HeldGuard { conn: self, ask: ask.clone(), claimed }
    }

    /// The ask this connection holds under `id`, marked as claimed.
    pub(super) fn held_ask(&self, id: &str) -> Result<Ask, UserQuestionError> {
        let held = self.held.lock().unwrap();
        let h = held.get(id).ok_or_else(|| UserQuestionError::not_pending(id))?;
        h.claimed.notify_one();
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
