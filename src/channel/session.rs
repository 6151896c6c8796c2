//! One client's session: it reads the client's lines, dispatches each request to the
//! service (initialize, agents, asks, answerers, answers, the pending set), parses each
//! method's params next to what they build, and when the client goes, cancels its
//! asks, leaves its agents and passes on what its answerers held.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Map, Value};
use tokio::io::BufReader;
use tokio::net::UnixStream;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::connection::Conn;
use super::frame::{next_frame, Frame};
use super::outbox::Outbox;
use super::protocol::{
    AnswerParams, AnswerQuestion, Ask, Cancel, CancelParams, Decide, Empty, Enter, EnterParams, FromParams, Initialize,
    InitializeParams, InitializeReply, Leave, Method, Notice, Pending, PendingReply, Register, RegisterReply,
    Registration, Reject, RejectParams, Unregister, UnregisterParams,
};
use super::remote::RemoteAnswerer;
use super::rpc::{self, Json, Message};
use crate::model::{AgentRef, AskRequest, UserQuestionError};
use crate::service::{self, UserQuestions};

/// Serves one connection until the client leaves or the server stops.
pub(crate) async fn serve(stream: UnixStream, service: UserQuestions, stopping: CancellationToken) {
    let (read, write) = stream.into_split();
    let conn = Arc::new(Conn::new(Outbox::new(write)));
    let flushed = CancellationToken::new();
    let writer = tokio::spawn({
        let (conn, flushed) = (conn.clone(), flushed.clone());
        async move { conn.out.run(flushed).await }
    });
    let mut session = Session {
        conn: conn.clone(),
        service,
        initialized: false,
        client: String::new(),
        tasks: TaskTracker::new(),
        asks: Arc::default(),
        agents: Vec::new(),
        answerers: HashMap::new(),
    };
    let mut reader = BufReader::new(read);
    let mut buf = Vec::new();
    // Made once, not for every line: a wait made anew registers with its token, and
    // unregisters when it is dropped, each time.
    let (closed, stopped) = (conn.closed(), stopping.cancelled());
    tokio::pin!(closed, stopped);
    loop {
        let frame = tokio::select! {
            frame = next_frame(&mut reader, &mut buf) => frame,
            () = &mut closed => break,
            () = &mut stopped => break,
        };
        match frame {
            Ok(Some(Frame::Line)) => session.on_line(&buf).await,
            Ok(Some(Frame::TooLarge)) => {
                let e = rpc::error(Value::Null, rpc::INVALID_REQUEST, "frame too large", None);
                conn.send_reply(e.to_string()).await;
            }
            Ok(None) | Err(_) => break,
        }
    }
    tracing::debug!(stopping = stopping.is_cancelled(), closed = conn.is_closed(), "connection ends");
    session.close(stopping.is_cancelled()).await;
    flushed.cancel();
    let _ = writer.await;
}

struct Session {
    conn: Arc<Conn>,
    service: UserQuestions,
    initialized: bool,
    /// The `client.name` the client gave in `initialize`.
    client: String,
    tasks: TaskTracker,
    /// Asks in progress from this client, by request id (as JSON text).
    asks: Arc<Mutex<HashMap<String, CancellationToken>>>,
    agents: Vec<AgentRef>,
    answerers: HashMap<String, service::Registration>,
}

type Outcome = Result<Value, Value>;

fn domain(e: UserQuestionError) -> Value {
    e.to_rpc()
}

/// Reads `M`'s params and serves them with `handle`, its reply written as the protocol says.
fn serve_method<M: Method>(
    params: Map<String, Value>,
    handle: impl FnOnce(M::Params) -> Result<M::Reply, UserQuestionError>,
) -> Outcome {
    let params = M::Params::from_params(params).map_err(domain)?;
    let reply = handle(params).map_err(domain)?;
    Ok(serde_json::to_value(reply).expect("a reply serializes"))
}

impl Session {
    async fn on_line(&mut self, line: &[u8]) {
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let message = match rpc::read(line) {
            Some(message) => Ok(message),
            None => match serde_json::from_slice(line) {
                Ok(value) => rpc::classify(value),
                Err(e) => {
                    let msg = format!("parse error: {e}");
                    self.conn.send_reply(rpc::error(Value::Null, rpc::PARSE_ERROR, &msg, None).to_string()).await;
                    return;
                }
            },
        };
        match message {
            Err(error) => {
                self.conn.send_reply(error.to_string()).await;
            }
            Ok(Message::Response { id, outcome }) => self.conn.on_reply(&id, outcome),
            Ok(Message::Notification { method, params }) => {
                if self.initialized && method == Cancel::NAME {
                    if let Some(CancelParams { id }) =
                        params.into_value().ok().and_then(|p| serde_json::from_value(p).ok())
                    {
                        if let Some(cancel) = self.asks.lock().unwrap().get(&id.to_string()) {
                            cancel.cancel();
                        }
                    }
                }
            }
            Ok(Message::Request { id, method, params }) => {
                if let Some(outcome) = self.on_request(&id, &method, params) {
                    self.conn.reply(&id, outcome).await;
                }
            }
        }
    }

    /// Handles a request; `None` when the reply is sent later (an ask).
    fn on_request(&mut self, id: &Value, method: &str, params: Json) -> Option<Outcome> {
        if !self.initialized && method != Initialize::NAME {
            return Some(Err(json!({"code": rpc::NOT_INITIALIZED, "message": "not initialized"})));
        }
        // The hot path: an ask's params parsed straight into their type.
        if method == Ask::NAME {
            if let Some(request) = params.parse::<AskRequest>() {
                return self.ask(id, request).err().map(Err);
            }
        }
        let params = match params.into_value() {
            Ok(Value::Object(params)) => params,
            Ok(_) => return Some(Err(domain(UserQuestionError::bad_request("params must be an object")))),
            Err(e) => return Some(Err(json!({"code": rpc::PARSE_ERROR, "message": format!("parse error: {e}")}))),
        };
        Some(match method {
            Initialize::NAME if self.initialized => {
                Err(json!({"code": rpc::INVALID_REQUEST, "message": "already initialized"}))
            }
            Initialize::NAME => serve_method::<Initialize>(params, |p| Ok(self.initialize(p))),
            Enter::NAME => serve_method::<Enter>(params, |p| self.enter(p)),
            Leave::NAME => serve_method::<Leave>(params, |agent| self.leave(agent)),
            Ask::NAME => {
                return match AskRequest::from_params(params) {
                    Ok(request) => self.ask(id, request).err().map(Err),
                    Err(e) => Some(Err(domain(e))),
                }
            }
            Register::NAME => serve_method::<Register>(params, |r| Ok(self.register(r))),
            Unregister::NAME => serve_method::<Unregister>(params, |p| self.unregister(p)),
            AnswerQuestion::NAME => serve_method::<AnswerQuestion>(params, |p| self.answer(p)),
            Decide::NAME => serve_method::<Decide>(params, |p| {
                let by = p.by.unwrap_or_else(|| self.client.clone());
                self.service.answer_pending(&p.ask, p.answer, &by).map(|()| Empty {})
            }),
            Reject::NAME => serve_method::<Reject>(params, |p| self.reject(p)),
            Pending::NAME => {
                serve_method::<Pending>(params, |Empty {}| Ok(PendingReply { pending: self.service.pending() }))
            }
            _ => Err(json!({"code": rpc::METHOD_NOT_FOUND, "message": format!("method not found: {method}")})),
        })
    }

    fn initialize(&mut self, params: InitializeParams) -> InitializeReply {
        self.initialized = true;
        self.client = params.client.name;
        InitializeReply::ours()
    }

    fn enter(&mut self, p: EnterParams) -> Result<AgentRef, UserQuestionError> {
        let agent = self.service.enter_from(&self.client, &p.id, p.owner.as_ref(), p.delegation_depth)?;
        self.agents.push(agent.clone());
        Ok(agent)
    }

    fn leave(&mut self, agent: AgentRef) -> Result<Empty, UserQuestionError> {
        self.service.leave(&agent)?;
        self.agents.retain(|a| a != &agent);
        Ok(Empty {})
    }

    /// Starts an ask in its own task; an error in its request is replied at once.
    fn ask(&mut self, id: &Value, request: AskRequest) -> Result<(), Value> {
        let key = id.to_string();
        let cancel = CancellationToken::new();
        let posted = self.service.post_from(Some(&self.client), request, cancel.clone()).map_err(domain)?;
        self.asks.lock().unwrap().insert(key.clone(), cancel);
        let (conn, asks, id) = (self.conn.clone(), self.asks.clone(), id.clone());
        self.tasks.spawn(async move {
            let outcome = posted.outcome().await;
            asks.lock().unwrap().remove(&key);
            conn.reply(&id, outcome.map_err(domain)).await;
        });
        Ok(())
    }

    fn register(&mut self, r: Registration) -> RegisterReply {
        let registration =
            self.service.register(&r.name, r.scope, r.priority, Arc::new(RemoteAnswerer { conn: self.conn.clone() }));
        let id = format!("r{}", registration.id());
        self.answerers.insert(id.clone(), registration);
        RegisterReply { answerer: id }
    }

    fn unregister(&mut self, p: UnregisterParams) -> Result<Empty, UserQuestionError> {
        let id = p.answerer;
        let registration = self.answerers.remove(&id).ok_or_else(|| {
            UserQuestionError::bad_request(format!("answerer {id:?} is not registered on this connection"))
        })?;
        registration.remove();
        Ok(Empty {})
    }

    fn answer(&mut self, p: AnswerParams) -> Result<Empty, UserQuestionError> {
        let ask = self.conn.held_ask(&p.ask)?;
        ask.answer(p.answer)?;
        self.conn.settled(ask.id());
        Ok(Empty {})
    }

    fn reject(&mut self, p: RejectParams) -> Result<Empty, UserQuestionError> {
        let ask = self.conn.held_ask(&p.ask)?;
        ask.reject(UserQuestionError::new(p.code, p.message))?;
        self.conn.settled(ask.id());
        Ok(Empty {})
    }

    /// The client is gone or the server stops: its asks are cancelled (after a stop
    /// they have ended with `SHUTTING_DOWN` already), its agents leave, and its
    /// answerers pass what they hold on.
    async fn close(mut self, stopping: bool) {
        if stopping {
            self.tasks.close();
            let _ = tokio::time::timeout(Duration::from_secs(2), self.tasks.wait()).await;
        }
        for cancel in self.asks.lock().unwrap().values() {
            cancel.cancel();
        }
        for agent in self.agents.drain(..) {
            let _ = self.service.leave(&agent);
        }
        for (_, registration) in self.answerers.drain() {
            registration.remove();
        }
        self.tasks.close();
        let _ = tokio::time::timeout(Duration::from_secs(2), self.tasks.wait()).await;
        if !stopping {
            self.conn.out.closed().cancel();
        }
    }
}
