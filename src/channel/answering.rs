//! The answerer's side of the protocol, as a library type: it registers in the
//! waterfall, hears offers, withdrawals and misfits, sends answers and dismissals,
//! and rides out a restart of the server (it waits for one to listen again and
//! registers anew). `userq answer` puts a terminal on it; anything else that answers
//! from elsewhere (a relay to other machines) is another front on the same type.
//!
//! Ask ids are unique only for one server's lifetime, so each ask is known by an
//! [`AskKey`]: its id and the connection it came on. Answering an ask of a
//! connection that is gone fails with [`ClientError::Closed`] rather than reaching
//! a new server's ask of the same id.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::backoff::Backoff;
use super::client::{Client, ClientError, ServerMessage};
use super::protocol::{
    AnswerParams, AnswerQuestion, BadAnswer, BadAnswerParams, Method, Notice, Offer as OfferMethod, OfferParams,
    OfferReply, Register, Reject, RejectParams, Withdraw, WithdrawParams,
};
use crate::model::{jsonrpc, Answer, Request, UserQuestionError};

pub use super::protocol::Registration;

/// One ask, on the connection it came on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AskKey {
    /// Which connection (1, 2, ... as the client reconnects).
    pub session: u64,
    pub ask: String,
}

/// Which connection is in use (1, 2, ... as the client reconnects); clones share it.
#[derive(Debug, Clone)]
pub struct Session(Arc<AtomicU64>);

impl Default for Session {
    fn default() -> Self {
        Self(Arc::new(AtomicU64::new(1)))
    }
}

impl Session {
    fn now(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }

    /// Whether `key` is an ask of the connection in use (else it went with its server).
    pub fn is_current(&self, key: &AskKey) -> bool {
        key.session == self.now()
    }
}

/// What the server told this answerer.
#[derive(Debug)]
pub enum Event {
    /// An ask it is offered: reply with [`Answering::claim`] or [`Answering::pass`].
    Offered(Box<Offer>),
    /// An ask it held was withdrawn (the asker left, the server stops).
    Withdrawn(AskKey),
    /// An answer it gave with a claim did not fit; the ask is still its to answer.
    BadAnswer { key: AskKey, message: String },
    /// The server went away with every ask it held; this client waits for the next.
    ServerGone,
    /// A server listens again and took the registration.
    Reconnected,
}

/// An offer waiting for its reply.
#[derive(Debug)]
pub struct Offer {
    pub key: AskKey,
    pub request: Request,
    id: Value,
}

/// A registered answerer on the socket.
pub struct Answering {
    socket: PathBuf,
    client_name: String,
    registration: Registration,
    client: Client,
    incoming: mpsc::UnboundedReceiver<ServerMessage>,
    session: Session,
    /// The server went away; the next call waits for another.
    gone: bool,
}

/// The longest wait between two tries to reach a server again.
const CEILING: Duration = Duration::from_millis(500);

impl Answering {
    /// Connects as `client_name` and registers.
    pub async fn connect(socket: &Path, client_name: &str, registration: Registration) -> Result<Self, ClientError> {
        let (client, incoming) = register(socket, client_name, &registration).await?;
        Ok(Self {
            socket: socket.to_owned(),
            client_name: client_name.to_owned(),
            registration,
            client,
            incoming,
            session: Session::default(),
            gone: false,
        })
    }

    /// The next thing the server says; a request it sends that this client does not
    /// know is answered `METHOD_NOT_FOUND`, an offer whose request cannot be read is
    /// passed. After [`Event::ServerGone`], the next call waits for a server and
    /// returns [`Event::Reconnected`]. Cancel-safe: it may be raced in a `select!`.
    pub async fn next(&mut self) -> Event {
        loop {
            if self.gone {
                self.reconnect().await;
                self.gone = false;
                return Event::Reconnected;
            }
            let Some(m) = self.incoming.recv().await else {
                // Its asks went with it: keys of this connection are moot from now on.
                self.session.0.fetch_add(1, Ordering::SeqCst);
                self.gone = true;
                return Event::ServerGone;
            };
            if let Some(event) = self.on_message(m) {
                return event;
            }
        }
    }

    fn key(&self, ask: String) -> AskKey {
        AskKey { session: self.session.now(), ask }
    }

    fn on_message(&self, m: ServerMessage) -> Option<Event> {
        let params = m.params;
        match (m.id, m.method.as_str()) {
            (Some(id), OfferMethod::NAME) => match serde_json::from_value::<OfferParams>(params) {
                Ok(OfferParams { ask, request }) => {
                    Some(Event::Offered(Box::new(Offer { key: self.key(ask), request, id })))
                }
                Err(_) => {
                    self.client.respond::<OfferMethod>(&id, Ok(OfferReply::PASS));
                    None
                }
            },
            (Some(id), method) => {
                let message = format!("method not found: {method}");
                self.client.refuse(&id, json!({"code": jsonrpc::METHOD_NOT_FOUND, "message": message}));
                None
            }
            (None, Withdraw::NAME) => {
                let WithdrawParams { ask, .. } = serde_json::from_value(params).ok()?;
                Some(Event::Withdrawn(self.key(ask)))
            }
            (None, BadAnswer::NAME) => {
                let BadAnswerParams { ask, message } = serde_json::from_value(params).ok()?;
                Some(Event::BadAnswer { key: self.key(ask), message })
            }
            (None, _) => None,
        }
    }

    /// Takes the offered ask: it is this answerer's until it answers or dismisses it.
    pub fn claim(&self, offer: &Offer) {
        self.client.respond::<OfferMethod>(&offer.id, Ok(OfferReply::CLAIM));
    }

    /// Hands the offered ask on down the waterfall.
    pub fn pass(&self, offer: &Offer) {
        self.client.respond::<OfferMethod>(&offer.id, Ok(OfferReply::PASS));
    }

    /// Answers a held ask; a misfit comes back as `BAD_ANSWER` and the ask stays held.
    pub async fn answer(&self, key: &AskKey, answer: &Answer) -> Result<(), ClientError> {
        self.current(key)?;
        let params = AnswerParams { ask: key.ask.clone(), answer: answer.clone() };
        self.client.call::<AnswerQuestion>(&params).await.map(drop)
    }

    /// Where a team question this answerer voted on stands, while it waits for the
    /// rest of the team (its answer was counted as the desk's vote).
    pub async fn progress(&self, key: &AskKey) -> Option<crate::service::Progress> {
        let pending = self.client.call::<super::protocol::Pending>(&super::protocol::Empty {}).await.ok()?;
        pending.pending.into_iter().find(|p| p.ask == key.ask)?.progress.map(|p| *p)
    }

    /// The person dismissed a held ask: it ends with `ASK_CANCELLED`.
    pub async fn dismiss(&self, key: &AskKey) -> Result<(), ClientError> {
        self.current(key)?;
        let params = RejectParams::new(&key.ask, &UserQuestionError::user_cancelled());
        self.client.call::<Reject>(&params).await.map(drop)
    }

    /// Whether `key` is an ask of the connection in use (else it went with its server).
    pub fn is_current(&self, key: &AskKey) -> bool {
        self.session.is_current(key)
    }

    /// The connection in use, for another thread to tell moot asks with.
    pub fn session(&self) -> Session {
        self.session.clone()
    }

    fn current(&self, key: &AskKey) -> Result<(), ClientError> {
        self.is_current(key).then_some(()).ok_or(ClientError::Closed)
    }

    /// Waits for a server to take the registration again.
    async fn reconnect(&mut self) {
        let mut backoff = Backoff::new(CEILING);
        loop {
            backoff.wait().await;
            if let Ok((client, incoming)) = register(&self.socket, &self.client_name, &self.registration).await {
                (self.client, self.incoming) = (client, incoming);
                return;
            }
        }
    }
}

async fn register(
    socket: &Path,
    client_name: &str,
    registration: &Registration,
) -> Result<(Client, mpsc::UnboundedReceiver<ServerMessage>), ClientError> {
    let (client, incoming) = Client::connect(socket, client_name).await?;
    client.call::<Register>(registration).await?;
    Ok((client, incoming))
}
