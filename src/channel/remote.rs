//! An answerer on the other end of a connection: one adapter over the core's
//! [`Answerer`] trait. Its pass, claim, answer-at-once and error map onto `next`, a
//! held ask, [`Ask::answer`] and an error; a connection that closes while holding an
//! ask passes it on; an ask withdrawn while held is reported with `questions/withdraw`.
//! The reply to an offer is read by the connection's session, in order with the
//! connection's other messages ([`Conn::on_reply`]); this side waits for what it made
//! of it.

use std::sync::Arc;

use async_trait::async_trait;

use super::connection::{Conn, Reply};
use crate::model::{Answer, UserQuestionError};
use crate::service::{Answerer, Ask, Next};

pub(crate) struct RemoteAnswerer {
    pub conn: Arc<Conn>,
}

#[async_trait]
impl Answerer for RemoteAnswerer {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Result<Answer, UserQuestionError> {
        if self.conn.is_closed() {
            return next.run().await;
        }
        let held = self.conn.hold(ask);
        let offer = self.conn.offer(ask);
        let reply = tokio::select! {
            biased;
            () = held.claimed() => Reply::Hold,
            reply = offer => reply.unwrap_or(Reply::Pass),
            () = self.conn.closed() => Reply::Pass,
        };
        match reply {
            Reply::Error(error) => return Err(error),
            Reply::Hold => {
                ask.claim();
                self.conn.closed().await;
            }
            Reply::Pass => {}
        }
        tracing::debug!(ask = ask.id(), "answerer passes the ask on");
        drop(held);
        next.run().await
    }
}
