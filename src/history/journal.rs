//! The journal: how an ending is kept before the asker has it, for the price of one
//! append. Each server appends its entries, one JSON line each, to a journal file of
//! its own (`journal/<origin>.<part>.jsonl` beside the database, locked while it is
//! written), with one `write` before the answer is released: once that returns the
//! entry is the kernel's, and outlives the process being killed the next instant.
//!
//! The entries are folded into the database in batches: by the server's folder
//! thread, by any reader before it reads (`userq history`, the window), and on the
//! next start. The database says how far each journal is folded, in the same
//! transaction as the rows, so an entry is folded exactly once, whoever folds it. A
//! journal wholly folded is removed by whoever finds its writer gone.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::store;
use crate::model::{Answer, Request, UserQuestionError};

/// The journals' folder, beside the database.
pub const DIR: &str = "journal";

/// A journal grown past this, and wholly folded, is replaced by a new part.
const ROTATE_AT: u64 = 4 << 20;

/// The journals' folder of a history file.
pub fn dir_of(history: &Path) -> PathBuf {
    history.parent().unwrap_or(Path::new(".")).join(DIR)
}

/// How an ask ended, as it is appended: the answer as the asker received it, or the
/// error.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
enum OutcomeRef<'a> {
    Answer(&'a Answer),
    Error { code: &'a str, message: &'a str },
}

impl<'a> From<&'a Result<Answer, UserQuestionError>> for OutcomeRef<'a> {
    fn from(outcome: &'a Result<Answer, UserQuestionError>) -> Self {
        match outcome {
            Ok(answer) => OutcomeRef::Answer(answer),
            Err(e) => OutcomeRef::Error { code: e.code(), message: e.message() },
        }
    }
}

/// An ask as it is appended, borrowed from the service's own values.
#[derive(Serialize, Clone, Copy)]
#[serde(rename_all = "camelCase")]
pub struct AskRef<'a> {
    pub asked_at: i64,
    pub seq: u64,
    pub request: &'a Request,
}

/// An ending as it is appended.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndRef<'a> {
    ended_at: i64,
    outcome: OutcomeRef<'a>,
    by: Option<&'a str>,
}

impl<'a> EndRef<'a> {
    pub fn new(at: SystemTime, outcome: &'a Result<Answer, UserQuestionError>, by: Option<&'a str>) -> Self {
        Self { ended_at: store::nanos(at), outcome: outcome.into(), by }
    }
}

/// One thing to write, as it is appended. `n` ties an ending to the ask it began.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub enum EntryRef<'a> {
    /// An ask still pending.
    Begin { n: u64, ask: AskRef<'a> },
    /// How the ask begun as `n` ended.
    End { n: u64, end: EndRef<'a> },
    /// An ask that ended before it was written as pending (a refused one among them).
    Whole { ask: AskRef<'a>, end: EndRef<'a> },
    /// A rule answered an ask.
    RuleUsed { id: i64, at: i64 },
}

/// An entry as it is read back, the JSON of the request and outcome kept as it came
/// (externally tagged: serde reads raw JSON only where it needs no buffering).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum Entry {
    Begin { n: u64, ask: AskRow },
    End { n: u64, end: EndRow },
    Whole { ask: AskRow, end: EndRow },
    RuleUsed { id: i64, at: i64 },
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AskRow {
    asked_at: i64,
    seq: i64,
    request: Box<RawValue>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EndRow {
    ended_at: i64,
    outcome: Box<RawValue>,
    by: Option<String>,
}

/// The parts of a request the history keeps in columns of their own.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RequestParts {
    questions: Vec<Box<RawValue>>,
    agent: Option<AgentParts>,
    context: Option<Box<RawValue>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AgentParts {
    id: String,
    client: Option<String>,
    delegation_depth: i64,
}

/// A question's words, for search.
#[derive(Deserialize)]
struct QuestionWords {
    question: String,
    header: Option<String>,
    detail: Option<String>,
}

/// An answer's words, for search.
#[derive(Deserialize)]
struct OutcomeWords {
    answer: Option<AnswerWords>,
}
#[derive(Deserialize)]
struct AnswerWords {
    answers: Vec<ItemWords>,
}
#[derive(Deserialize)]
struct ItemWords {
    #[serde(default)]
    selected: Vec<String>,
    custom: Option<String>,
}

/// This process's journal: the file it appends to, and the thread that folds it.
pub struct Journal {
    dir: PathBuf,
    origin: String,
    open: Mutex<Part>,
    /// Entries serialized and not yet written.
    queue: Mutex<Queue>,
    folder: Mutex<Option<std::thread::Thread>>,
    /// Until when appends are dropped, after one failed (a full disk).
    failing_until: Mutex<Option<Instant>>,
}

/// How long appends are dropped after one failed, so a full disk never slows the
/// questions.
const BACK_OFF: Duration = Duration::from_secs(5);

struct Part {
    number: u32,
    file: File,
    len: u64,
    next_n: u64,
    /// Bytes appended by this process, in every part.
    appended: u64,
    /// The tickets written so far.
    flushed: u64,
}

#[derive(Default)]
struct Queue {
    bytes: Vec<u8>,
    queued: u64,
}

/// The most a burst appends before it is folded while it goes on.
const FOLD_AT_MOST: u64 = 8 << 20;

impl Journal {
    /// A new journal in `dir` (made if missing), named for this process.
    pub fn create(dir: &Path) -> std::io::Result<Arc<Journal>> {
        std::fs::create_dir_all(dir)?;
        let origin = format!("{:020}-{}", store::nanos(SystemTime::now()), std::process::id());
        let file = open_part(dir, &origin, 0)?;
        Ok(Arc::new(Journal {
            dir: dir.to_owned(),
            origin,
            open: Mutex::new(Part { number: 0, file, len: 0, next_n: 1, appended: 0, flushed: 0 }),
            queue: Mutex::default(),
            folder: Mutex::new(None),
            failing_until: Mutex::new(None),
        }))
    }

    /// The number that ties an ask's ending to its beginning.
    pub fn next_n(&self) -> u64 {
        let mut part = self.open.lock().unwrap();
        part.next_n += 1;
        part.next_n - 1
    }

    /// Appends one entry; when this returns the entry outlives the process. The
    /// entries of every ask that ends at the same moment go in one `write` (whoever
    /// comes first after the others queued theirs writes them all). An append that
    /// fails is said once on stderr, and for a few seconds entries are dropped: a
    /// history that cannot be written never stops a question.
    pub async fn record(&self, entry: &EntryRef<'_>) {
        if self.failing_until.lock().unwrap().is_some_and(|t| Instant::now() < t) {
            return;
        }
        let ticket = {
            let mut queue = self.queue.lock().unwrap();
            let before = queue.bytes.len();
            if let Err(e) = serde_json::to_writer(&mut queue.bytes, entry) {
                queue.bytes.truncate(before);
                tracing::warn!("history: an entry that cannot be written: {e}");
                return;
            }
            queue.bytes.push(b'\n');
            queue.queued += 1;
            queue.queued
        };
        tokio::task::yield_now().await;
        self.flush(ticket);
    }

    /// Writes what is queued unless an earlier flush wrote `ticket` already.
    fn flush(&self, ticket: u64) {
        let mut part = self.open.lock().unwrap();
        if part.flushed >= ticket {
            return;
        }
        let (bytes, upto) = {
            let mut queue = self.queue.lock().unwrap();
            (std::mem::take(&mut queue.bytes), queue.queued)
        };
        part.flushed = upto;
        let mut failing = self.failing_until.lock().unwrap();
        match part.file.write_all(&bytes) {
            Ok(()) => {
                part.len += bytes.len() as u64;
                part.appended += bytes.len() as u64;
                if failing.take().is_some() {
                    eprintln!("user-questions: history: writing to {} again", self.dir.display());
                }
            }
            Err(e) => {
                if failing.is_none() {
                    eprintln!(
                        "user-questions: history: cannot write the journal in {}: {e}; questions go on, unrecorded until it can",
                        self.dir.display()
                    );
                }
                *failing = Some(Instant::now() + BACK_OFF);
            }
        }
        drop((failing, part));
        if let Some(folder) = &*self.folder.lock().unwrap() {
            folder.unpark();
        }
    }

    /// Folds the journals into the history on a thread of its own: woken by each
    /// append, it waits `gather` for more to come and folds them all in one
    /// transaction. A fold that fails is tried again at the next append; the entries
    /// wait in the journal meanwhile.
    pub fn fold_in_background(self: &Arc<Self>, conn: Connection, path: PathBuf, gather: std::time::Duration) {
        let journal = Arc::clone(self);
        let thread = std::thread::Builder::new()
            .name("history-folder".into())
            .spawn(move || {
                lowest_priority();
                // Off every asker's path: it may wait for a reader's fold to finish.
                let _ = conn.busy_timeout(std::time::Duration::from_secs(5));
                let mut failing = false;
                loop {
                    std::thread::park();
                    journal.wait_for_a_lull(gather);
                    match fold(&conn, &journal.dir) {
                        Ok(folded) if folded > 0 => {
                            // The write-ahead log back into the file (a passive checkpoint
                            // never waits for readers).
                            if let Err(e) = conn.execute_batch("PRAGMA wal_checkpoint(PASSIVE);") {
                                tracing::debug!("history: checkpoint of {}: {e}", path.display());
                            }
                            if failing {
                                failing = false;
                                eprintln!("user-questions: history: writing to {} again", path.display());
                            }
                        }
                        Ok(_) if failing => {
                            failing = false;
                            eprintln!("user-questions: history: writing to {} again", path.display());
                        }
                        Ok(_) => {}
                        Err(e) if !failing => {
                            failing = true;
                            eprintln!(
                                "user-questions: history: cannot write {}: {e}; the journal in {} keeps every ask until it can",
                                path.display(),
                                journal.dir.display()
                            );
                        }
                        Err(_) => {}
                    }
                    if let Err(e) = journal.rotate_if_folded(&conn) {
                        tracing::warn!("history: a new journal part in {}: {e}", journal.dir.display());
                    }
                }
            })
            .expect("a thread for the history");
        *self.folder.lock().unwrap() = Some(thread.thread().clone());
    }

    /// Returns once no entry came for `gather`, or a burst has appended
    /// [`FOLD_AT_MOST`]: a burst of asks is folded after it, in one transaction, and
    /// never competes with its own questions.
    fn wait_for_a_lull(&self, gather: std::time::Duration) {
        let appended = || self.open.lock().unwrap().appended;
        let start = appended();
        loop {
            let before = appended();
            std::thread::sleep(gather);
            let now = appended();
            if now == before || now - start >= FOLD_AT_MOST {
                return;
            }
        }
    }

    /// Begins a new part once this one is large and wholly folded, so journals stay
    /// small; the old part is removed by the next fold.
    fn rotate_if_folded(&self, conn: &Connection) -> rusqlite::Result<()> {
        let mut part = self.open.lock().unwrap();
        if part.len < ROTATE_AT {
            return Ok(());
        }
        let name = part_name(&self.origin, part.number);
        if folded_to(conn, &name)? != Some(part.len as i64) {
            return Ok(());
        }
        let file = open_part(&self.dir, &self.origin, part.number + 1).map_err(io_error)?;
        part.number += 1;
        part.file = file;
        part.len = 0;
        Ok(())
    }
}

/// Puts the calling thread at the lowest priority short of idle (nice 19): under load
/// the folding mostly waits for a quiet moment, and the journal holds the entries
/// meanwhile, yet it is never starved while it holds the file's write lock.
fn lowest_priority() {
    // SAFETY: gettid and setpriority touch no memory; on Linux a thread id names the
    // calling thread alone.
    let done = unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 19) };
    if done != 0 {
        tracing::debug!("history: the folder keeps its priority: {}", std::io::Error::last_os_error());
    }
}

fn part_name(origin: &str, number: u32) -> String {
    format!("{origin}.{number:06}.jsonl")
}

/// A new part, locked for as long as this process holds it. It is locked before it
/// is given its name, so no folder ever finds it unlocked and takes it for done.
fn open_part(dir: &Path, origin: &str, number: u32) -> std::io::Result<File> {
    let name = dir.join(part_name(origin, number));
    let unnamed = name.with_extension("new");
    let file = File::options().create_new(true).append(true).read(true).open(&unnamed)?;
    file.try_lock().map_err(|e| std::io::Error::other(format!("cannot lock a new journal: {e}")))?;
    std::fs::rename(&unnamed, &name)?;
    Ok(file)
}

fn io_error(e: std::io::Error) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(Box::new(e))
}

fn folded_to(conn: &Connection, name: &str) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached("SELECT offset FROM journals WHERE name = ?")?.query_row([name], |r| r.get(0)).optional()
}

/// The journals in `dir`, oldest first, with their lengths.
fn journals(dir: &Path) -> std::io::Result<Vec<(String, u64)>> {
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".jsonl") {
            found.push((name, entry.metadata()?.len()));
        }
    }
    found.sort();
    Ok(found)
}

/// Folds every journal in `dir` into the history on `conn` and removes those wholly
/// folded whose writer is gone; how many entries it folded. Nothing to fold costs no
/// write transaction.
pub fn fold(conn: &Connection, dir: &Path) -> rusqlite::Result<usize> {
    let mut folded = 0;
    loop {
        let n = fold_some(conn, dir)?;
        folded += n;
        if n < PER_TRANSACTION {
            return Ok(folded);
        }
    }
}

/// The most entries one transaction folds, so that no fold holds the file's write lock
/// for long (a reader folding too waits for it).
const PER_TRANSACTION: usize = 2_000;

/// One transaction of [`fold`]: at most [`PER_TRANSACTION`] entries.
fn fold_some(conn: &Connection, dir: &Path) -> rusqlite::Result<usize> {
    let files = journals(dir).map_err(io_error)?;
    let behind = |conn: &Connection| -> rusqlite::Result<bool> {
        for (name, len) in &files {
            if folded_to(conn, name)?.unwrap_or(0) != *len as i64 {
                return Ok(true);
            }
        }
        Ok(false)
    };
    if !behind(conn)? {
        // Only what is done with may go.
        for (name, _) in &files {
            let path = dir.join(name);
            if writer_gone(&path) {
                let _ = std::fs::remove_file(path);
            }
        }
        return Ok(0);
    }
    let tx = rusqlite::Transaction::new_unchecked(conn, rusqlite::TransactionBehavior::Immediate)?;
    let mut folded = 0;
    let mut gone = Vec::new();
    for (name, _) in &files {
        let from = folded_to(&tx, name)?.unwrap_or(0);
        let path = dir.join(name);
        let (lines, mut to) = match read_from(&path, from as u64) {
            Ok(read) => read,
            // Removed since it was listed: wholly folded, by another.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                tracing::warn!("history: cannot read the journal {}: {e}", path.display());
                continue;
            }
        };
        let mut at = from as u64;
        for line in lines.split_inclusive(|b| *b == b'\n') {
            if folded == PER_TRANSACTION {
                // The rest waits for the next transaction.
                to = at;
                break;
            }
            at += line.len() as u64;
            match serde_json::from_slice::<Entry>(line) {
                Ok(entry) => {
                    apply(&tx, name, entry)?;
                    folded += 1;
                }
                Err(e) => tracing::warn!("history: a damaged line in the journal {}: {e}", path.display()),
            }
        }
        tx.prepare_cached(
            "INSERT INTO journals (name, offset) VALUES (?1, ?2) ON CONFLICT(name) DO UPDATE SET offset = ?2",
        )?
        .execute(params![name, to as i64])?;
        if std::fs::metadata(&path).is_ok_and(|m| m.len() == to) && writer_gone(&path) {
            gone.push(path);
        }
    }
    // Rows of journals removed earlier (names are never used again).
    let names: Vec<String> =
        tx.prepare("SELECT name FROM journals")?.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    for name in names.iter().filter(|n| !dir.join(n).exists()) {
        tx.execute("DELETE FROM journals WHERE name = ?", [name])?;
    }
    tx.commit()?;
    for path in gone {
        let _ = std::fs::remove_file(path);
    }
    Ok(folded)
}

/// The whole lines of a journal from `from` on, and where they end. A line cut short
/// (a full disk) is left for its writer to finish, unless the writer is gone: then it
/// never will be, and the journal counts as read to its end.
fn read_from(path: &Path, from: u64) -> std::io::Result<(Vec<u8>, u64)> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let end = if whole < bytes.len() && writer_gone(path) {
        tracing::warn!("history: the last line of the journal {} was cut short; it is dropped", path.display());
        bytes.len()
    } else {
        whole
    };
    bytes.truncate(whole);
    Ok((bytes, from + end as u64))
}

/// Whether the process that wrote a journal has let it go.
fn writer_gone(path: &Path) -> bool {
    File::open(path).is_ok_and(|f| f.try_lock().is_ok())
}

/// Writes one entry into the database. An ending whose beginning is not there (its
/// journal lost) is dropped.
fn apply(conn: &Connection, journal: &str, entry: Entry) -> rusqlite::Result<()> {
    let origin = journal.split('.').next().unwrap_or(journal);
    match entry {
        Entry::Whole { ask, end } => {
            insert(conn, &ask, Some(&end))?;
        }
        Entry::Begin { n, ask } => {
            let row = insert(conn, &ask, None)?;
            conn.prepare_cached("INSERT OR REPLACE INTO open_asks (key, row) VALUES (?, ?)")?
                .execute(params![format!("{origin}:{n}"), row])?;
        }
        Entry::End { n, end } => {
            let key = format!("{origin}:{n}");
            let row: Option<i64> = conn
                .prepare_cached("SELECT row FROM open_asks WHERE key = ?")?
                .query_row([&key], |r| r.get(0))
                .optional()?;
            if let Some(row) = row {
                conn.prepare_cached(
                    "UPDATE asks SET ended_at = ?, outcome = ?, answered_by = ?, search = search || ? WHERE id = ?",
                )?
                .execute(params![end.ended_at, end.outcome.get(), end.by, answer_words(&end), row])?;
                conn.prepare_cached("DELETE FROM open_asks WHERE key = ?")?.execute([&key])?;
            }
        }
        Entry::RuleUsed { id, at } => store::rule_used(conn, id, store::time_of(at))?,
    }
    Ok(())
}

/// The ask's row, with its ending when it has one already.
fn insert(conn: &Connection, ask: &AskRow, end: Option<&EndRow>) -> rusqlite::Result<i64> {
    let parts: RequestParts = serde_json::from_str(ask.request.get()).map_err(|e| io_error(e.into()))?;
    let mut search = String::new();
    for q in &parts.questions {
        if let Ok(w) = serde_json::from_str::<QuestionWords>(q.get()) {
            for part in [Some(w.question), w.header, w.detail].into_iter().flatten() {
                search.push_str(&part.to_lowercase());
                search.push('\n');
            }
        }
    }
    if let Some(end) = end {
        search.push_str(&answer_words(end));
    }
    let questions =
        format!("{{\"questions\":[{}]}}", parts.questions.iter().map(|q| q.get()).collect::<Vec<_>>().join(","));
    let agent = parts.agent.as_ref();
    conn.prepare_cached(
        "INSERT INTO asks (asked_at, seq, agent_id, agent_client, agent_depth, request, context, search,
                           ended_at, outcome, answered_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )?
    .execute(params![
        ask.asked_at,
        ask.seq,
        agent.map(|a| a.id.as_str()),
        agent.and_then(|a| a.client.as_deref()),
        agent.map(|a| a.delegation_depth),
        questions,
        parts.context.as_ref().map(|c| c.get()),
        search,
        end.map(|e| e.ended_at),
        end.map(|e| e.outcome.get()),
        end.and_then(|e| e.by.as_deref()),
    ])?;
    Ok(conn.last_insert_rowid())
}

/// The answer's words, lower case, for search.
fn answer_words(end: &EndRow) -> String {
    let Ok(OutcomeWords { answer: Some(answer) }) = serde_json::from_str(end.outcome.get()) else {
        return String::new();
    };
    answer
        .answers
        .into_iter()
        .flat_map(|a| a.selected.into_iter().chain(a.custom))
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnswerItem, Question};

    #[tokio::test]
    async fn each_entry_is_folded_once_and_a_journal_whose_writer_left_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let journals = dir.path().join(DIR);
        let request = Request { questions: vec![Question::new("q", "Deploy?")], agent: None, context: None };
        let answered = Ok(Answer::new(vec![AnswerItem::selected("q", &["Yes"])]));
        let journal = Journal::create(&journals).unwrap();
        let now = SystemTime::now();
        for seq in 0..3 {
            let ask = AskRef { asked_at: store::nanos(now), seq, request: &request };
            journal.record(&EntryRef::Whole { ask, end: EndRef::new(now, &answered, Some("test")) }).await;
        }
        // An ask begun in one fold and ended in the next.
        let n = journal.next_n();
        let ask = AskRef { asked_at: store::nanos(now), seq: 3, request: &request };
        journal.record(&EntryRef::Begin { n, ask }).await;
        let conn = store::open_for_writing(&dir.path().join("history.sqlite3")).unwrap();
        assert_eq!(fold(&conn, &journals).unwrap(), 0, "opening the file folded them already");
        assert_eq!(store::count(&conn).unwrap(), 4);
        let pending: Option<String> =
            conn.query_row("SELECT outcome FROM asks WHERE seq = 3", [], |r| r.get(0)).unwrap();
        assert_eq!(pending, None);
        journal.record(&EntryRef::End { n, end: EndRef::new(now, &answered, None) }).await;
        assert_eq!(fold(&conn, &journals).unwrap(), 1);
        let ended: String = conn.query_row("SELECT search FROM asks WHERE seq = 3", [], |r| r.get(0)).unwrap();
        assert_eq!(ended, "deploy?\nyes", "the ending's words are searched");
        assert_eq!(std::fs::read_dir(&journals).unwrap().count(), 1, "its writer holds it");
        drop(journal);
        assert_eq!(fold(&conn, &journals).unwrap(), 0);
        assert_eq!(std::fs::read_dir(&journals).unwrap().count(), 0, "wholly folded, its writer gone");
        assert_eq!(store::count(&conn).unwrap(), 4);
    }

    #[test]
    fn a_line_cut_short_by_a_writer_now_gone_is_dropped_and_the_rest_kept() {
        let dir = tempfile::tempdir().unwrap();
        let journals = dir.path().join(DIR);
        std::fs::create_dir(&journals).unwrap();
        let whole = r#"{"ruleUsed":{"id":1,"at":5}}"#;
        std::fs::write(journals.join("00000000000000000001-1.000000.jsonl"), format!("{whole}\n{{\"whole\":{{\"ask"))
            .unwrap();
        let conn = Connection::open_in_memory().unwrap();
        store::migrate(&conn).unwrap();
        assert_eq!(fold(&conn, &journals).unwrap(), 1, "the whole line");
        assert_eq!(fold(&conn, &journals).unwrap(), 0, "the cut one is not waited for");
        assert_eq!(std::fs::read_dir(&journals).unwrap().count(), 0, "and the journal is done with");
    }
}
