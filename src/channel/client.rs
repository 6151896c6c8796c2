//! The Rust client of the socket: what `userq` and the MCP server speak through. Calls
//! are matched to replies by id; the server's own requests and notifications (offers,
//! withdrawals) arrive on a channel of their own.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tokio::io::BufReader;
use tokio::net::UnixStream;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::frame::{next_frame, Frame};
use super::outbox::Outbox;
use super::peer;
use super::protocol::{Initialize, InitializeParams, Method, Notice};
use super::rpc::{self, Message};
use crate::model::UserQuestionError;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("no user-questions server is listening on {0}; start one with `userq serve` (or the desktop app)")]
    NotRunning(PathBuf),
    #[error("the connection to the user-questions server closed")]
    Closed,
    #[error("refusing the server on {path}: it runs as uid {uid}, not as this user (uid {own}); a container that trusts it sets USERQ_SERVER_UID={uid}")]
    ForeignServer { path: PathBuf, uid: u32, own: u32 },
    #[error("the {method} request is {size} bytes, over the socket's limit of {limit} bytes; send a shorter detail or diff", limit = super::MAX_FRAME)]
    TooLarge { method: &'static str, size: usize },
    #[error(transparent)]
    Service(#[from] UserQuestionError),
}

/// A request or notification the server sent.
#[derive(Debug)]
pub struct ServerMessage {
    /// `Some` for a request, which wants a reply through [`Client::respond`].
    pub id: Option<Value>,
    pub method: String,
    pub params: Value,
}

/// The calls waiting for their reply; `None` once the connection closed, so a call
/// started after that fails at once instead of waiting for ever.
type Calls = Arc<Mutex<Option<HashMap<u64, oneshot::Sender<Result<Value, Value>>>>>>;

/// A connection to the server, initialized. Clones share the connection.
#[derive(Clone)]
pub struct Client(Arc<Inner>);

struct Inner {
    out: Arc<Outbox>,
    /// Cancelled when the last clone goes: the writer sends what is queued and closes
    /// the socket, which tells the server this client left.
    done: CancellationToken,
    calls: Calls,
    ids: AtomicU64,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.done.cancel();
    }
}

impl Inner {
    fn send(&self, line: String) {
        let _ = self.out.push(line, usize::MAX);
    }
}

impl Client {
    /// Connects and initializes; server requests and notifications go to the receiver.
    pub async fn connect(
        path: &Path,
        name: &str,
    ) -> Result<(Self, mpsc::UnboundedReceiver<ServerMessage>), ClientError> {
        let stream = UnixStream::connect(path).await.map_err(|_| ClientError::NotRunning(path.to_owned()))?;
        let own = peer::own_uid();
        match peer::peer_uid(&stream) {
            Ok(uid) if uid == own || Some(uid) == peer::trusted_server_uid() => {}
            Ok(uid) => return Err(ClientError::ForeignServer { path: path.to_owned(), uid, own }),
            Err(_) => return Err(ClientError::Closed),
        }
        let (read, write) = stream.into_split();
        let out = Arc::new(Outbox::new(write));
        let done = CancellationToken::new();
        let (incoming_tx, incoming) = mpsc::unbounded_channel();
        let calls: Calls = Arc::new(Mutex::new(Some(HashMap::new())));
        tokio::spawn({
            let (out, done) = (out.clone(), done.clone());
            async move { out.run(done).await }
        });
        tokio::spawn(read_messages(BufReader::new(read), calls.clone(), incoming_tx));
        let client = Self(Arc::new(Inner { out, done, calls, ids: AtomicU64::new(1) }));
        client.call::<Initialize>(&InitializeParams::new(name)).await?;
        Ok((client, incoming))
    }

    /// Sends a request of method `M` and returns its id and the future of its reply.
    pub fn start<M: Method>(
        &self,
        params: &M::Params,
    ) -> (u64, impl std::future::Future<Output = Result<M::Reply, ClientError>> + Send + 'static) {
        let id = self.0.ids.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        let line = rpc::request(&id.into(), M::NAME, params);
        // The server would skip a longer line unanswered: refused here, by name.
        let too_large = (line.len() > super::MAX_FRAME).then_some(line.len());
        if too_large.is_none() {
            if let Some(calls) = self.0.calls.lock().unwrap().as_mut() {
                calls.insert(id, tx);
            }
            self.0.send(line);
        }
        let reply = async move {
            if let Some(size) = too_large {
                return Err(ClientError::TooLarge { method: M::NAME, size });
            }
            match rx.await {
                Ok(Ok(result)) => serde_json::from_value(result)
                    .map_err(|e| ClientError::Service(UserQuestionError::bad_reply(format!("{}: {e}", M::NAME)))),
                Ok(Err(error)) => Err(ClientError::Service(
                    UserQuestionError::from_rpc(&error)
                        .unwrap_or_else(|| UserQuestionError::bad_reply(format!("malformed error: {error}"))),
                )),
                Err(_) => Err(ClientError::Closed),
            }
        };
        (id, reply)
    }

    /// Calls method `M` and waits for its reply.
    pub async fn call<M: Method>(&self, params: &M::Params) -> Result<M::Reply, ClientError> {
        self.start::<M>(params).1.await
    }

    pub fn notify<N: Notice>(&self, params: &N::Params) {
        self.0.send(rpc::notification(N::NAME, params));
    }

    /// Replies to a request of method `M` the server sent.
    pub fn respond<M: Method>(&self, id: &Value, outcome: Result<M::Reply, Value>) {
        self.0.send(rpc::response(id, outcome));
    }

    /// Replies with `error` to a request the server sent, of whatever method.
    pub fn refuse(&self, id: &Value, error: Value) {
        self.0.send(rpc::response(id, Err::<(), _>(error)));
    }
}

async fn read_messages(
    mut reader: BufReader<tokio::net::unix::OwnedReadHalf>,
    calls: Calls,
    incoming: mpsc::UnboundedSender<ServerMessage>,
) {
    let mut buf = Vec::new();
    while let Ok(Some(frame)) = next_frame(&mut reader, &mut buf).await {
        let Frame::Line = frame else { continue };
        let message = match rpc::read(&buf) {
            Some(m) => Ok(m),
            None => {
                let Ok(value) = serde_json::from_slice::<Value>(&buf) else { continue };
                rpc::classify(value)
            }
        };
        match message {
            Ok(Message::Response { id, outcome }) => {
                let call = id.as_u64().and_then(|id| calls.lock().unwrap().as_mut().and_then(|c| c.remove(&id)));
                if let Some(call) = call {
                    let outcome = match outcome {
                        Ok(result) => result.into_value().map_err(|e| json!({"message": e.to_string()})),
                        Err(error) => Err(error),
                    };
                    let _ = call.send(outcome);
                }
            }
            Ok(Message::Request { id, method, params }) => {
                let (method, params) = (method.into_owned(), params.into_value().unwrap_or_default());
                let _ = incoming.send(ServerMessage { id: Some(id), method, params });
            }
            Ok(Message::Notification { method, params }) => {
                let (method, params) = (method.into_owned(), params.into_value().unwrap_or_default());
                let _ = incoming.send(ServerMessage { id: None, method, params });
            }
            Err(_) => {}
        }
    }
    // Dropping the waiting calls' senders tells each caller the connection closed.
    calls.lock().unwrap().take();
}
