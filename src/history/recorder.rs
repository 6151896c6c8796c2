//! The recorder: the first answerer of the waterfall. It hands every ask on, sees the
//! outcome come back, and has it written before it returns it, so an asker never holds
//! an answer the history lacks. Writes go to one thread that commits whatever has
//! queued up in one transaction (group commit): a burst of asks costs one commit, and
//! no ask waits on the disk for longer than the commit in progress plus its own.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use rusqlite::{params, Connection};
use serde_json::{json, Value};
use tokio::sync::oneshot;

use super::store;
use crate::model::{Answer, Request, UserQuestionError};
use crate::{Answerer, Ask, Next};

/// The longest an ask waits for its outcome to be written: a history that cannot keep
/// up never stops a question.
const ACK: Duration = Duration::from_secs(1);

/// An ask as the history first sees it.
pub struct NewAsk {
    asked_at: SystemTime,
    seq: u64,
    request: Request,
}

pub enum Write {
    Begin { key: u64, ask: NewAsk },
    End { key: u64, ended_at: SystemTime, outcome: Value, answer_text: String, by: Option<String>, done: Done },
    Refused { ask: NewAsk, outcome: Value, done: Done },
    RuleUsed { id: i64, at: SystemTime },
    AddRule { question: String, answer: String, client: Option<String>, detail: Option<String>, done: Done },
}

type Done = oneshot::Sender<()>;

/// The answer as the asker received it, or the error.
pub fn outcome_json(outcome: &Result<Answer, UserQuestionError>) -> Value {
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

/// The writer's end: sends writes to its thread.
#[derive(Clone)]
pub struct Writer(mpsc::Sender<Write>);

impl Writer {
    /// Starts the writing thread on an open connection; `retention` is applied at once
    /// and then daily.
    pub fn start(conn: Connection, path: PathBuf, retention: super::Retention) -> Writer {
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("history-writer".into())
            .spawn(move || write_loop(conn, path, rx, retention))
            .expect("a thread for the history");
        Writer(tx)
    }

    pub fn send(&self, write: Write) -> bool {
        self.0.send(write).is_ok()
    }

    /// Sends a write and waits (bounded) until it is committed.
    pub async fn send_and_wait(&self, make: impl FnOnce(Done) -> Write) {
        let (done, committed) = oneshot::channel();
        if self.send(make(done)) {
            let _ = tokio::time::timeout(ACK, committed).await;
        }
    }
}

fn write_loop(conn: Connection, path: PathBuf, rx: mpsc::Receiver<Write>, retention: super::Retention) {
    let mut rows: HashMap<u64, i64> = HashMap::new();
    let mut failing = false;
    let mut next_retention = SystemTime::now();
    loop {
        if SystemTime::now() >= next_retention {
            if let Err(e) = store::retain(&conn, retention.days, retention.max, SystemTime::now()) {
                tracing::warn!("history: retention in {}: {e}", path.display());
            }
            next_retention = SystemTime::now() + Duration::from_secs(86_400);
        }
        let first = match rx.recv_timeout(Duration::from_secs(3600)) {
            Ok(w) => w,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        let mut batch = vec![first];
        while batch.len() < 4096 {
            match rx.try_recv() {
                Ok(w) => batch.push(w),
                Err(_) => break,
            }
        }
        match write_batch(&conn, &mut rows, &batch) {
            Ok(()) if failing => {
                failing = false;
                eprintln!("user-questions: history: writing to {} again", path.display());
            }
            Ok(()) => {}
            Err(e) if !failing => {
                failing = true;
                eprintln!(
                    "user-questions: history: cannot write {}: {e}; questions go on, unrecorded until it can",
                    path.display()
                );
            }
            Err(_) => {}
        }
        for w in batch {
            match w {
                Write::End { done, .. } | Write::Refused { done, .. } | Write::AddRule { done, .. } => {
                    let _ = done.send(());
                }
                Write::Begin { .. } | Write::RuleUsed { .. } => {}
            }
        }
    }
}

fn insert(conn: &Connection, ask: &NewAsk) -> rusqlite::Result<i64> {
    let r = &ask.request;
    let agent = r.agent.as_ref();
    let questions = json!({"questions": r.questions});
    conn.prepare_cached(
        "INSERT INTO asks (asked_at, seq, agent_id, agent_client, agent_depth, request, context, search)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )?
    .execute(params![
        store::nanos(ask.asked_at),
        ask.seq as i64,
        agent.map(|a| a.id.as_str()),
        agent.and_then(|a| a.client.as_deref()),
        agent.map(|a| a.delegation_depth),
        questions.to_string(),
        r.context.as_ref().map(|c| json!(c).to_string()),
        request_text(r).to_lowercase(),
    ])?;
    Ok(conn.last_insert_rowid())
}

fn end(
    conn: &Connection,
    row: i64,
    ended_at: SystemTime,
    outcome: &Value,
    text: &str,
    by: Option<&str>,
) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "UPDATE asks SET ended_at = ?, outcome = ?, answered_by = ?, search = search || ? WHERE id = ?",
    )?
    .execute(params![store::nanos(ended_at), outcome.to_string(), by, text.to_lowercase(), row])?;
    Ok(())
}

fn write_batch(conn: &Connection, rows: &mut HashMap<u64, i64>, batch: &[Write]) -> rusqlite::Result<()> {
    let tx = conn.unchecked_transaction()?;
    for w in batch {
        match w {
            Write::Begin { key, ask } => {
                rows.insert(*key, insert(&tx, ask)?);
            }
            Write::End { key, ended_at, outcome, answer_text, by, .. } => {
                if let Some(row) = rows.remove(key) {
                    end(&tx, row, *ended_at, outcome, answer_text, by.as_deref())?;
                }
            }
            Write::Refused { ask, outcome, .. } => {
                let row = insert(&tx, ask)?;
                end(&tx, row, ask.asked_at, outcome, "", None)?;
            }
            Write::RuleUsed { id, at } => store::rule_used(&tx, *id, *at)?,
            Write::AddRule { question, answer, client, detail, .. } => {
                store::add_rule(&tx, question, answer, client.as_deref(), detail.as_deref())?;
            }
        }
    }
    tx.commit()
}

/// The waterfall's first answerer.
pub struct Recorder {
    writer: Writer,
    keys: AtomicU64,
}

impl Recorder {
    pub fn new(writer: Writer) -> Self {
        Self { writer, keys: AtomicU64::new(0) }
    }
}

#[async_trait]
impl Answerer for Recorder {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Result<Answer, UserQuestionError> {
        let key = self.keys.fetch_add(1, Ordering::Relaxed);
        let new = NewAsk { asked_at: ask.since(), seq: ask.order(), request: (**ask.request()).clone() };
        self.writer.send(Write::Begin { key, ask: new });
        let outcome = next.run().await;
        let (json, text, by) =
            (outcome_json(&outcome), answer_text(&outcome), ask.answered_by().map(|b| b.to_string()));
        self.writer
            .send_and_wait(|done| Write::End {
                key,
                ended_at: SystemTime::now(),
                outcome: json,
                answer_text: text,
                by,
                done,
            })
            .await;
        outcome
    }

    async fn refused(&self, request: &Request, error: &UserQuestionError) {
        let ask = NewAsk { asked_at: SystemTime::now(), seq: 0, request: request.clone() };
        let outcome = outcome_json(&Err(error.clone()));
        self.writer.send_and_wait(|done| Write::Refused { ask, outcome, done }).await;
    }
}
