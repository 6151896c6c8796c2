//! An answerer on the other end of a connection: one adapter over the core's
//! [`Answerer`] trait. Its pass, claim, answer-at-once and error map onto `next`, a
//! held ask, [`Ask::answer`] and an error; a connection that closes while holding an
//! ask passes it on; an ask withdrawn while held is reported with `questions/withdraw`.

use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

use super::connection::Conn;
use crate::model::{Answer, UserQuestionError};
use crate::service::{Answerer, Ask, Next};

pub(crate) struct RemoteAnswerer {
    pub conn: Arc<Conn>,
}

/// The params of `questions/offer`, with the request's JSON copied as it was written.
#[derive(Serialize)]
struct Offer<'a> {
    ask: &'a str,
    request: &'a RawValue,
}

enum Reply {
    Pass,
    Hold,
}

#[async_trait]
impl Answerer for RemoteAnswerer {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Result<Answer, UserQuestionError> {
        if self.conn.is_closed() {
            return next.run().await;
        }
        let held = self.conn.hold(ask);
        let offer = self.conn.call("questions/offer", Offer { ask: ask.id(), request: ask.request_json() });
        let reply = tokio::select! {
            biased;
            () = held.claimed() => Reply::Hold,
            reply = offer => match reply {
                Ok(Ok(result)) => self.take(ask, &result),
                Ok(Err(error)) => match UserQuestionError::from_rpc(&error) {
                    Some(error) => return Err(error),
                    None => Reply::Pass,
                },
                Err(_) => Reply::Pass,
            },
            () = self.conn.closed() => Reply::Pass,
        };
        if let Reply::Hold = reply {
            ask.claim();
            self.conn.closed().await;
        }
        tracing::debug!(ask = ask.id(), "answerer passes the ask on");
        drop(held);
        next.run().await
    }
}

impl RemoteAnswerer {
    /// Reads the answerer's reply to an offer; anything unknown counts as a pass.
    fn take(&self, ask: &Ask, result: &Value) -> Reply {
        if let Some(answer) = result.get("answer") {
            ask.claim();
            if let Err(misfit) = Answer::from_value(answer).and_then(|a| ask.answer(a)) {
                self.conn.notify("questions/badAnswer", json!({"ask": ask.id(), "message": misfit.message()}));
            }
            return Reply::Hold;
        }
        match result.get("claim") {
            Some(Value::Bool(true)) => Reply::Hold,
            _ => Reply::Pass,
        }
    }
}
