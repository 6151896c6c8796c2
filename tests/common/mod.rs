//! Helpers of the integration tests: a server on a socket in a temp folder, and a
//! peer that speaks raw JSON lines to it, as outside clients do.
#![allow(dead_code)]

pub mod process;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::UnixStream;
use tokio::sync::oneshot;
use user_questions::channel::server;
use user_questions::UserQuestions;

pub const WAIT: Duration = Duration::from_secs(5);

/// An in-process answerer that claims every ask and hands it to the test, which
/// answers it later.
pub struct Holding(tokio::sync::mpsc::UnboundedSender<user_questions::Ask>);

#[async_trait::async_trait]
impl user_questions::Answerer for Holding {
    async fn answer(
        &self,
        ask: &user_questions::Ask,
        _next: user_questions::Next<'_>,
    ) -> Result<user_questions::Answer, user_questions::UserQuestionError> {
        ask.claim();
        self.0.send(ask.clone()).unwrap();
        std::future::pending().await
    }
}

/// A [`Holding`] answerer and the asks it holds.
pub fn holding() -> (std::sync::Arc<Holding>, tokio::sync::mpsc::UnboundedReceiver<user_questions::Ask>) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    (std::sync::Arc::new(Holding(tx)), rx)
}

/// Asks `request` in a task of its own, so the test can answer it meanwhile.
pub fn spawn_ask(
    service: &UserQuestions,
    request: user_questions::AskRequest,
) -> tokio::task::JoinHandle<Result<user_questions::Answer, user_questions::UserQuestionError>> {
    let service = service.clone();
    tokio::spawn(async move { service.ask(request, &tokio_util::sync::CancellationToken::new()).await })
}

pub struct TestServer {
    pub dir: tempfile::TempDir,
    pub path: PathBuf,
    pub service: UserQuestions,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl TestServer {
    pub async fn start() -> Self {
        Self::start_with_limit(server::MAX_CONNECTIONS).await
    }

    pub async fn start_with_limit(limit: usize) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run").join("userq.sock");
        let listener = server::bind(&path).unwrap();
        let service = UserQuestions::new();
        let (tx, rx) = oneshot::channel();
        let task = tokio::spawn(server::run_with_limit(
            listener,
            service.clone(),
            async {
                let _ = rx.await;
            },
            limit,
        ));
        Self { dir, path, service, stop: Some(tx), task: Some(task) }
    }

    pub async fn stop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.task.take() {
            tokio::time::timeout(WAIT, t).await.expect("the server stops").unwrap();
        }
    }

    /// An initialized asker, and an answerer named `t` registered with `scope`.
    pub async fn asker_and_answerer(&self, scope: Value) -> (Peer, Peer) {
        let asker = self.client("asker").await;
        let mut answerer = self.client("answerer").await;
        answerer.register("t", scope).await;
        (asker, answerer)
    }

    pub async fn peer(&self) -> Peer {
        Peer::connect(&self.path).await
    }

    /// A peer that has initialized.
    pub async fn client(&self, name: &str) -> Peer {
        let mut p = self.peer().await;
        let r = p.call("initialize", json!({"protocolVersion": 1, "client": {"name": name, "version": "1"}})).await;
        assert_eq!(r["result"]["protocolVersion"], 1, "{r}");
        p
    }
}

pub struct Peer {
    read: BufReader<OwnedReadHalf>,
    pub write: OwnedWriteHalf,
    next_id: u64,
}

impl Peer {
    pub async fn connect(path: &std::path::Path) -> Self {
        let (r, w) = UnixStream::connect(path).await.unwrap().into_split();
        Self { read: BufReader::new(r), write: w, next_id: 100 }
    }

    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.write.write_all(bytes).await.unwrap();
    }

    pub async fn send(&mut self, v: Value) {
        let mut line = v.to_string();
        line.push('\n');
        self.send_raw(line.as_bytes()).await;
    }

    /// The next line from the server, parsed; panics after [`WAIT`].
    pub async fn recv(&mut self) -> Value {
        self.try_recv(WAIT).await.expect("a message from the server")
    }

    pub async fn try_recv(&mut self, wait: Duration) -> Option<Value> {
        let mut line = String::new();
        match tokio::time::timeout(wait, self.read.read_line(&mut line)).await {
            Ok(Ok(0)) | Err(_) => None,
            Ok(Ok(_)) => Some(serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))),
            Ok(Err(e)) => panic!("{e}"),
        }
    }

    /// True when the server closed the connection.
    pub async fn is_closed(&mut self) -> bool {
        let mut line = String::new();
        matches!(tokio::time::timeout(WAIT, self.read.read_line(&mut line)).await, Ok(Ok(0)) | Ok(Err(_)))
    }

    pub fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Sends a request and returns its id.
    pub async fn start(&mut self, method: &str, params: Value) -> u64 {
        let id = self.id();
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await;
        id
    }

    /// Sends a request and returns the whole reply (skipping nothing: the next line).
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.start(method, params).await;
        let reply = self.recv().await;
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params})).await;
    }

    pub async fn enter(&mut self, id: &str) -> Value {
        self.call("agents/enter", json!({"id": id})).await["result"].clone()
    }

    pub async fn register(&mut self, name: &str, scope: Value) -> String {
        let r = self.call("answerers/register", json!({"name": name, "scope": scope})).await;
        r["result"]["answerer"].as_str().unwrap().to_owned()
    }

    /// Waits for a server request of `method`, returning it whole.
    pub async fn expect(&mut self, method: &str) -> Value {
        let m = self.recv().await;
        assert_eq!(m["method"], method, "{m}");
        m
    }

    /// Waits until the server has this ask as held by an answerer (a claim it has
    /// processed), asking `questions/pending`; fails after [`WAIT`].
    pub async fn wait_held(&mut self, ask: &Value) {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let pending = self.call("questions/pending", json!({})).await;
            let entry =
                pending["result"]["pending"].as_array().and_then(|p| p.iter().find(|e| &e["ask"] == ask).cloned());
            if entry.is_some_and(|e| !e["answerer"].is_null()) {
                return;
            }
            assert!(tokio::time::Instant::now() < deadline, "ask {ask} was never held: {pending}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    pub async fn reply(&mut self, id: &Value, result: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "result": result})).await;
    }
}

pub fn question(id: &str) -> Value {
    json!({"id": id, "question": "Deploy?", "options": [{"label": "Yes"}, {"label": "No"}]})
}

pub fn yes(id: &str) -> Value {
    json!({"answers": [{"id": id, "selected": ["Yes"]}]})
}
