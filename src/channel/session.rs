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
use super::methods;
use super::outbox::Outbox;
use super::remote::RemoteAnswerer;
use super::rpc::{self, Json, Message};
use super::PROTOCOL_VERSION;
use crate::model::{AgentRef, Answer, AskRequest, UserQuestionError};
use crate::service::{Registration, Scope, UserQuestions};

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
    answerers: HashMap<String, Registration>,
}

type Outcome = Result<Value, Value>;

fn domain(e: UserQuestionError) -> Value {
    e.to_rpc()
}

fn bad_params(message: impl Into<String>) -> Value {
    UserQuestionError::bad_request(message).to_rpc()
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
                if self.initialized && method == methods::CANCEL {
                    if let Some(id) = params.into_value().ok().as_ref().and_then(|p| p.get("id")) {
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
        if !self.initialized && method != methods::INITIALIZE {
            return Some(Err(json!({"code": rpc::NOT_INITIALIZED, "message": "not initialized"})));
        }
        // The hot path: an ask's params parsed straight into their type.
        if method == methods::ASK {
            if let Some(request) = params.parse::<AskRequest>() {
                return self.ask(id, Ok(request)).err().map(Err);
            }
        }
        let params = match params.into_value() {
            Ok(Value::Object(params)) => params,
            Ok(_) => return Some(Err(bad_params("params must be an object"))),
            Err(e) => return Some(Err(json!({"code": rpc::PARSE_ERROR, "message": format!("parse error: {e}")}))),
        };
        Some(match method {
            methods::INITIALIZE => self.initialize(&params),
            methods::ENTER => self.enter(&params),
            methods::LEAVE => self.leave(&params),
            methods::ASK => return self.ask(id, Err(params)).err().map(Err),
            methods::REGISTER => self.register(&params),
            methods::UNREGISTER => self.unregister(&params),
            methods::ANSWER => self.answer(&params),
            methods::REJECT => self.reject(&params),
            methods::PENDING => Ok(json!({"pending": self.service.pending()})),
            _ => Err(json!({"code": rpc::METHOD_NOT_FOUND, "message": format!("method not found: {method}")})),
        })
    }

    fn initialize(&mut self, params: &Map<String, Value>) -> Outcome {
        if self.initialized {
            return Err(json!({"code": rpc::INVALID_REQUEST, "message": "already initialized"}));
        }
        if params.get("protocolVersion").and_then(Value::as_u64) != Some(PROTOCOL_VERSION) {
            let e = UserQuestionError::bad_request(format!(
                "unsupported protocolVersion {}; this server speaks [1]",
                params.get("protocolVersion").unwrap_or(&Value::Null)
            ));
            return Err(e.with_data("supported", json!([PROTOCOL_VERSION])).to_rpc());
        }
        self.initialized = true;
        self.client =
            params.get("client").and_then(|c| c.get("name")).and_then(Value::as_str).unwrap_or_default().to_owned();
        Ok(json!({
            "protocolVersion": PROTOCOL_VERSION,
            "server": {"name": "user-questions", "version": env!("CARGO_PKG_VERSION")}
        }))
    }

    fn enter(&mut self, params: &Map<String, Value>) -> Outcome {
        let id = string(params, "id")?;
        let owner = match params.get("owner").filter(|v| !v.is_null()) {
            None => None,
            Some(v) => Some(AgentRef::from_value(v, "owner").map_err(domain)?),
        };
        let depth = match params.get("delegationDepth").filter(|v| !v.is_null()) {
            None => 0,
            Some(v) => v
                .as_u64()
                .and_then(|d| u32::try_from(d).ok())
                .ok_or_else(|| bad_params("delegationDepth must be a non-negative integer"))?,
        };
        let agent = self.service.enter_from(&self.client, &id, owner.as_ref(), depth).map_err(domain)?;
        self.agents.push(agent.clone());
        Ok(json!(agent))
    }

    fn leave(&mut self, params: &Map<String, Value>) -> Outcome {
        let agent = AgentRef::from_value(&Value::Object(params.clone()), "params").map_err(domain)?;
        self.service.leave(&agent).map_err(domain)?;
        self.agents.retain(|a| a != &agent);
        Ok(json!({}))
    }

    /// Starts an ask in its own task; an error in its params is replied at once. The
    /// params come parsed, or as a tree to read the slow way, naming what is wrong.
    fn ask(&mut self, id: &Value, params: Result<AskRequest, Map<String, Value>>) -> Result<(), Value> {
        let request = match params {
            Ok(request) => request,
            Err(params) => AskRequest::from_value(&Value::Object(params)).map_err(domain)?,
        };
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

    fn register(&mut self, params: &Map<String, Value>) -> Outcome {
        let name = string(params, "name")?;
        let scope = Scope::from_value(params.get("scope")).map_err(domain)?;
        let priority = match params.get("priority").filter(|v| !v.is_null()) {
            None => 0,
            Some(v) => v.as_i64().ok_or_else(|| bad_params("priority must be an integer"))?,
        };
        let registration =
            self.service.register(&name, scope, priority, Arc::new(RemoteAnswerer { conn: self.conn.clone() }));
        let id = format!("r{}", registration.id());
        self.answerers.insert(id.clone(), registration);
        Ok(json!({"answerer": id}))
    }

    fn unregister(&mut self, params: &Map<String, Value>) -> Outcome {
        let id = string(params, "answerer")?;
        let registration = self
            .answerers
            .remove(&id)
            .ok_or_else(|| bad_params(format!("answerer {id:?} is not registered on this connection")))?;
        registration.remove();
        Ok(json!({}))
    }

    fn answer(&mut self, params: &Map<String, Value>) -> Outcome {
        let ask = self.conn.held_ask(&string(params, "ask")?).map_err(domain)?;
        let answer = params.get("answer").ok_or_else(|| bad_params("answer is missing"))?;
        Answer::from_value(answer).and_then(|a| ask.answer(a)).map_err(domain)?;
        self.conn.settled(ask.id());
        Ok(json!({}))
    }

    fn reject(&mut self, params: &Map<String, Value>) -> Outcome {
        let (code, message) = (string(params, "code")?, string(params, "message")?);
        let ask = self.conn.held_ask(&string(params, "ask")?).map_err(domain)?;
        ask.reject(UserQuestionError::new(code, message)).map_err(domain)?;
        self.conn.settled(ask.id());
        Ok(json!({}))
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

fn string(params: &Map<String, Value>, key: &str) -> Result<String, Value> {
    match params.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        None | Some(Value::Null) => Err(bad_params(format!("{key} is missing"))),
        Some(_) => Err(bad_params(format!("{key} must be a string"))),
    }
}
