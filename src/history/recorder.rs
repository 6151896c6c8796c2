//! The recorder: the first answerer of the waterfall. It hands every ask on, sees the
//! outcome come back, and has it written before it returns it, so an asker never holds
//! an answer the history lacks. Whatever has queued up is committed in one transaction
//! (group commit): a burst of asks costs one commit, and no ask waits on the disk for
//! longer than the commit in progress plus its own.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use async_trait::async_trait;
use rusqlite::{params, Connection};
use serde_json::{json, Value};
use tokio::sync::watch;

use super::store;
use crate::model::{Answer, Request, UserQuestionError};
use crate::{Answerer, Ask, Next};

/// The longest an ask waits for its outcome to be written: a history that cannot keep
/// up never stops a question.
const ACK: Duration = Duration::from_secs(1);

/// An ask still waiting after this long is written down as pending; one that ends
/// sooner (most: a rule, a script, a quick answer) is written once, when it ends.
const PENDING_AFTER: Duration = Duration::from_millis(50);

/// An ask as the history first sees it.
#[derive(Clone)]
pub struct NewAsk {
    asked_at: SystemTime,
    seq: u64,
    request: Request,
}

/// How an ask ended, as the history keeps it.
pub struct Ending {
    at: SystemTime,
    /// `{"answer": …}` or `{"error": {code, message}}`.
    outcome: Value,
    /// The answer's words, for search.
    words: String,
    by: Option<String>,
}

impl Ending {
    fn of(outcome: &Result<Answer, UserQuestionError>, by: Option<String>) -> Self {
        Self { at: SystemTime::now(), outcome: outcome_json(outcome), words: answer_text(outcome), by }
    }
}

/// One thing to write.
pub enum Write {
    /// An ask still pending: its row, whose id lands in `row`.
    Begin {
        row: Arc<AtomicI64>,
        ask: NewAsk,
    },
    /// How the ask of that row ended.
    End {
        row: Arc<AtomicI64>,
        ending: Ending,
    },
    /// An ask that ended before it was written as pending (a refused one among them):
    /// one row, whole.
    Whole {
        ask: NewAsk,
        ending: Ending,
    },
    RuleUsed {
        id: i64,
        at: SystemTime,
    },
}

/// The answer as the asker received it, or the error.
fn outcome_json(outcome: &Result<Answer, UserQuestionError>) -> Value {
    match outcome {
        Ok(answer) => json!({"answer": answer}),
        Err(e) => json!({"error": {"code": e.code(), "message": e.message()}}),
    }
}

/// The words of an answer, for search.
fn answer_text(outcome: &Result<Answer, UserQuestionError>) -> String {
    let Ok(answer) = outcome else { return String::new() };
    answer.answers.iter().flat_map(|a| a.selected.iter().cloned().chain(a.custom.clone())).collect::<Vec<_>>().join(" ")
}

/// The words of a request, for search: question, header and detail of each question.
fn request_text(request: &Request) -> String {
    let mut text = String::new();
    for q in &request.questions {
        for part in [Some(&q.question), q.header.as_ref(), q.detail.as_ref()].into_iter().flatten() {
            text.push_str(part);
            text.push('\n');
        }
    }
    text
}

/// The one connection that writes, shared by every ask. Whoever writes while no commit
/// is in progress commits everything queued so far, its own write with the rest
/// (group commit, with no thread to hand over to: a hand-over costs two wake-ups,
/// more than the commit); the others wait for that commit. A commit that fails is
/// said once on stderr, and for a few seconds writes are dropped rather than waited
/// for, so a locked or full history never slows the questions.
#[derive(Clone)]
pub struct Writer(Arc<Shared>);

struct Shared {
    path: PathBuf,
    conn: Mutex<Connection>,
    queue: Mutex<Queue>,
    committed: watch::Sender<u64>,
    failing_until: Mutex<Option<Instant>>,
}

#[derive(Default)]
struct Queue {
    writes: Vec<Write>,
    issued: u64,
}

/// How long writes are dropped after a commit failed.
const BACK_OFF: Duration = Duration::from_secs(5);

impl Writer {
    /// The writer over an open connection; `retention` is applied at once and then
    /// daily, on a thread of its own.
    pub fn start(conn: Connection, path: PathBuf, retention: super::Retention) -> Writer {
        retain_daily(path.clone(), retention);
        Writer(Arc::new(Shared {
            path,
            conn: Mutex::new(conn),
            queue: Mutex::new(Queue::default()),
            committed: watch::channel(0).0,
            failing_until: Mutex::new(None),
        }))
    }

    /// Queues a write for the next commit, without waiting for it.
    pub fn enqueue(&self, write: Write) -> u64 {
        let mut q = self.0.queue.lock().unwrap();
        q.writes.push(write);
        q.issued += 1;
        q.issued
    }

    /// Writes and returns once the write is committed (or dropped: see [`Writer`]).
    pub async fn write(&self, write: Write) {
        if self.0.failing_until.lock().unwrap().is_some_and(|t| Instant::now() < t) {
            return;
        }
        let mut committed = self.0.committed.subscribe();
        let ticket = self.enqueue(write);
        loop {
            if *committed.borrow_and_update() >= ticket {
                return;
            }
            if let Ok(conn) = self.0.conn.try_lock() {
                let (batch, upto) = {
                    let mut q = self.0.queue.lock().unwrap();
                    (std::mem::take(&mut q.writes), q.issued)
                };
                self.commit(&conn, &batch);
                drop(conn);
                self.0.committed.send_replace(upto);
                continue;
            }
            if tokio::time::timeout(ACK, committed.changed()).await.is_err() {
                return;
            }
        }
    }

    fn commit(&self, conn: &Connection, batch: &[Write]) {
        let mut failing = self.0.failing_until.lock().unwrap();
        match write_batch(conn, batch) {
            Ok(()) if failing.is_some() => {
                *failing = None;
                eprintln!("user-questions: history: writing to {} again", self.0.path.display());
            }
            Ok(()) => {}
            Err(e) => {
                if failing.is_none() {
                    eprintln!(
                        "user-questions: history: cannot write {}: {e}; questions go on, unrecorded until it can",
                        self.0.path.display()
                    );
                }
                *failing = Some(Instant::now() + BACK_OFF);
            }
        }
    }
}

/// Retention, at once and then daily, on its own connection and thread.
fn retain_daily(path: PathBuf, retention: super::Retention) {
    let _ = std::thread::Builder::new().name("history-retention".into()).spawn(move || loop {
        match Connection::open(&path) {
            Ok(conn) => {
                let _ = conn.busy_timeout(Duration::from_secs(5));
                if let Err(e) = store::retain(&conn, retention.days, retention.max, SystemTime::now()) {
                    tracing::warn!("history: retention in {}: {e}", path.display());
                }
            }
            Err(e) => tracing::warn!("history: retention in {}: {e}", path.display()),
        }
        std::thread::sleep(Duration::from_secs(86_400));
    });
}

/// The ask's row, with its ending when it has one already.
fn insert(conn: &Connection, ask: &NewAsk, ending: Option<&Ending>) -> rusqlite::Result<i64> {
    let r = &ask.request;
    let agent = r.agent.as_ref();
    let words = ending.map(|e| e.words.as_str()).unwrap_or_default();
    conn.prepare_cached(
        "INSERT INTO asks (asked_at, seq, agent_id, agent_client, agent_depth, request, context, search,
                           ended_at, outcome, answered_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )?
    .execute(params![
        store::nanos(ask.asked_at),
        ask.seq as i64,
        agent.map(|a| a.id.as_str()),
        agent.and_then(|a| a.client.as_deref()),
        agent.map(|a| a.delegation_depth),
        json!({"questions": r.questions}).to_string(),
        r.context.as_ref().map(|c| json!(c).to_string()),
        format!("{}{words}", request_text(r)).to_lowercase(),
        ending.map(|e| store::nanos(e.at)),
        ending.map(|e| e.outcome.to_string()),
        ending.and_then(|e| e.by.as_deref()),
    ])?;
    Ok(conn.last_insert_rowid())
}

fn end(conn: &Connection, row: i64, e: &Ending) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "UPDATE asks SET ended_at = ?, outcome = ?, answered_by = ?, search = search || ? WHERE id = ?",
    )?
    .execute(params![store::nanos(e.at), e.outcome.to_string(), e.by, e.words.to_lowercase(), row])?;
    Ok(())
}

fn write_batch(conn: &Connection, batch: &[Write]) -> rusqlite::Result<()> {
    let tx = conn.unchecked_transaction()?;
    for w in batch {
        match w {
            Write::Begin { row, ask } => row.store(insert(&tx, ask, None)?, Ordering::Relaxed),
            Write::End { row, ending } => match row.load(Ordering::Relaxed) {
                0 => {}
                row => end(&tx, row, ending)?,
            },
            Write::Whole { ask, ending } => {
                insert(&tx, ask, Some(ending))?;
            }
            Write::RuleUsed { id, at } => store::rule_used(&tx, *id, *at)?,
        }
    }
    tx.commit()
}

/// The waterfall's first answerer.
pub struct Recorder {
    writer: Writer,
}

impl Recorder {
    pub fn new(writer: Writer) -> Self {
        Self { writer }
    }
}

#[async_trait]
impl Answerer for Recorder {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Result<Answer, UserQuestionError> {
        let new = NewAsk { asked_at: ask.since(), seq: ask.order(), request: (**ask.request()).clone() };
        let rest = next.run();
        tokio::pin!(rest);
        let (outcome, row) = tokio::select! {
            biased;
            outcome = &mut rest => (outcome, None),
            () = tokio::time::sleep(PENDING_AFTER) => {
                let row = Arc::new(AtomicI64::new(0));
                self.writer.write(Write::Begin { row: row.clone(), ask: new.clone() }).await;
                (rest.await, Some(row))
            }
        };
        let ending = Ending::of(&outcome, ask.answered_by().map(|b| b.to_string()));
        self.writer
            .write(match row {
                Some(row) => Write::End { row, ending },
                None => Write::Whole { ask: new, ending },
            })
            .await;
        outcome
    }

    async fn refused(&self, request: &Request, error: &UserQuestionError) {
        let ask = NewAsk { asked_at: SystemTime::now(), seq: 0, request: request.clone() };
        self.writer.write(Write::Whole { ask, ending: Ending::of(&Err(error.clone()), None) }).await;
    }
}
