//! The history: every ask that reached the service with a valid shape, through any
//! door, with how it ended and who gave the answer; and remembered answers. Both are
//! kept in one SQLite file the service's core knows nothing of. The
//! [`recorder::Recorder`] is the waterfall's first answerer: it answers what the
//! [`rules::Rules`] remember and hands the rest on to everyone else. It appends each
//! ending to this process's [`journal::Journal`] before the asker has it; the journal
//! is folded into the file off the asker's path.
//! A history that cannot be opened or written never stops a question: a corrupt file
//! is moved aside, an unwritable one is skipped, each with one line on stderr; a file
//! locked for a while only delays the fold.

pub mod annotations;
pub mod audit;
pub mod decider;
pub mod journal;
pub mod past;
pub mod pause;
pub mod recorder;
pub mod rules;
pub mod store;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::{Scope, UserQuestions};

/// The file's name in the data folder.
pub const FILE: &str = "history.sqlite3";

/// Opens (creating) the history for writing, its schema brought up to date and what the
/// journals beside it hold folded in.
pub fn open_for_writing(path: &Path) -> rusqlite::Result<rusqlite::Connection> {
    let conn = store::open_unfolded(path)?;
    fold_journals(&conn, path);
    Ok(conn)
}

/// Opens the history to read it, with what the journals hold folded in first (when
/// the file can be written), never creating it or changing its schema.
pub fn open_for_reading(path: &Path) -> rusqlite::Result<rusqlite::Connection> {
    if !path.exists() && kept(path) {
        // Only journals so far (hooks decided by the policy, with no server since).
        drop(open_for_writing(path)?);
    }
    if let Some(conn) = store::open_to_fold(path) {
        fold_journals(&conn, path);
    }
    store::open_read_only(path)
}

/// The history at `path` to read, when there is any.
pub fn open_if_kept(path: &Path) -> Option<rusqlite::Connection> {
    kept(path).then(|| open_for_reading(path).ok()).flatten()
}

/// Whether there is any history at `path`: the file, or journals not yet folded into it.
pub fn kept(path: &Path) -> bool {
    let journals = || std::fs::read_dir(journal::dir_of(path)).ok();
    path.exists()
        || journals().is_some_and(|mut d| d.any(|e| e.is_ok_and(|e| e.path().extension() == Some("jsonl".as_ref()))))
}

/// Folds what the journals beside `path` hold and the file lacks (see [`journal`]); a
/// fold that cannot be done now is done by the next.
fn fold_journals(conn: &rusqlite::Connection, path: &Path) {
    // A server folding at the same moment holds the lock a few milliseconds a time;
    // a reader waits for it rather than read without the newest asks.
    let _ = conn.busy_timeout(Duration::from_secs(5));
    if let Err(e) = journal::fold(conn, &journal::dir_of(path)) {
        tracing::warn!("history: folding the journals of {}: {e}", path.display());
    }
    let _ = conn.busy_timeout(Duration::from_millis(200));
}

/// How much history is kept: asks younger than `days`, and at most `max` of them.
#[derive(Debug, Clone, Copy)]
pub struct Retention {
    pub days: u64,
    pub max: u64,
}

impl Default for Retention {
    fn default() -> Self {
        Self { days: 90, max: 100_000 }
    }
}

impl Retention {
    /// `USERQ_HISTORY_DAYS` and `USERQ_HISTORY_MAX` where set, else 90 days and 100,000 asks.
    pub fn from_env() -> Self {
        let var = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
        let d = Self::default();
        Self { days: var("USERQ_HISTORY_DAYS").unwrap_or(d.days), max: var("USERQ_HISTORY_MAX").unwrap_or(d.max) }
    }
}

/// The history a service was given: where it is, and what is wrong with it if it
/// could not be used (shown in the window, in the person's language).
#[derive(Clone)]
pub struct Installed {
    pub path: PathBuf,
    /// The file or folder that could not be used, and why.
    pub unusable: Option<pause::Fault>,
    /// What keeps a history in use from being written now, while it lasts.
    pub pause: Arc<pause::Pause>,
}

/// The folder this process keeps its history in: [`crate::paths::data_dir`], or none with
/// `USERQ_HISTORY=off`.
pub fn default_dir() -> Option<PathBuf> {
    if std::env::var("USERQ_HISTORY").is_ok_and(|v| v == "off") {
        return None;
    }
    let dir = crate::paths::data_dir();
    if dir.is_none() {
        eprintln!(
            "user-questions: history: no folder for it (set USERQ_DATA_DIR or HOME); questions go on without history"
        );
    }
    dir
}

/// Keeps one ask decided in a process that runs no server (a hook, by the policy's
/// rules): a journal of its own beside the history in `dir`, written before this
/// returns and folded in by whoever folds next, like a server's.
pub fn record_one(
    dir: &Path,
    request: &crate::model::Request,
    answer: &crate::model::Answer,
    by: &decider::Decider,
) -> std::io::Result<()> {
    let journal = journal::Journal::create(&journal::dir_of(&dir.join(FILE)))?;
    let now = SystemTime::now();
    let (request, outcome, by) = (request.to_json(), Ok(answer.clone()), by.to_string());
    let ask = journal::AskRef { asked_at: store::nanos(now), seq: 0, request: &request };
    journal.record(&journal::EntryRef::Whole { ask, end: journal::EndRef::new(now, &outcome, Some(&by)) });
    match journal.pause().now() {
        Some(fault) => Err(std::io::Error::other(fault.error)),
        None => Ok(()),
    }
}

/// The history in `dir` (none for `None`), with the retention of the environment.
pub fn install_in(service: &UserQuestions, dir: Option<PathBuf>) -> Option<Installed> {
    Some(install(service, &dir?, Retention::from_env()))
}

impl Installed {
    /// The file, when the history is kept.
    pub fn file(&self) -> Option<PathBuf> {
        self.unusable.is_none().then(|| self.path.clone())
    }
}

/// Opens the history in `dir` and puts the recorder, with the rules, at the top of the
/// service's waterfall. With no usable history the service runs without one.
pub fn install(service: &UserQuestions, dir: &Path, retention: Retention) -> Installed {
    let path = dir.join(FILE);
    // One line on stderr, and the fault for the window to word.
    let unusable = |line: String, file: &Path, error: String| {
        eprintln!("user-questions: history: {}: {line}; questions go on without history", path.display());
        let fault = Some(pause::Fault { file: file.to_owned(), error });
        Installed { path: path.clone(), unusable: fault, pause: Arc::default() }
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        return unusable(format!("cannot make the folder: {e}"), dir, e.to_string());
    }
    let conn = match open(&path) {
        Ok(c) => c,
        Err(e) => return unusable(e.clone(), &path, e),
    };
    let reader = match rusqlite::Connection::open(&path) {
        Ok(c) => c,
        Err(e) => return unusable(e.to_string(), &path, e.to_string()),
    };
    let journals = journal::dir_of(&path);
    let journal = match journal::Journal::create(&journals) {
        Ok(j) => j,
        Err(e) => {
            return unusable(format!("cannot begin a journal in {}: {e}", journals.display()), &journals, e.to_string())
        }
    };
    journal.fold_in_background(conn, path.clone(), GATHER);
    retain_daily(path.clone(), retention);
    let pause = journal.pause();
    let rules = rules::Rules::new(reader, journal.clone());
    service.register("history", Scope::Any, i64::MAX, Arc::new(recorder::Recorder::new(journal, rules)));
    Installed { path, unusable: None, pause }
}

/// How long the fold thread waits after an append for more to fold with it: a burst of
/// asks costs one transaction.
const GATHER: Duration = Duration::from_millis(50);

/// Retention, at once and then daily, on its own connection and thread.
fn retain_daily(path: PathBuf, retention: Retention) {
    let _ = std::thread::Builder::new().name("history-retention".into()).spawn(move || loop {
        match rusqlite::Connection::open(&path) {
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

/// Opens the file for writing; a file that is not a database, or is corrupt, is moved
/// aside (`history.sqlite3.corrupt-<seconds>`) and a new one begun.
fn open(path: &Path) -> Result<rusqlite::Connection, String> {
    match open_for_writing(path) {
        Ok(c) => Ok(c),
        Err(e) if is_corrupt(&e) => {
            let stamp = SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            let aside = path.with_extension(format!("sqlite3.corrupt-{}", stamp.as_secs()));
            std::fs::rename(path, &aside).map_err(|r| format!("{e}, and it cannot be moved aside: {r}"))?;
            for ext in ["sqlite3-wal", "sqlite3-shm"] {
                let _ = std::fs::remove_file(path.with_extension(ext));
            }
            eprintln!(
                "user-questions: history: {} was not a usable database ({e}); moved to {}",
                path.display(),
                aside.display()
            );
            open_for_writing(path).map_err(|e| e.to_string())
        }
        Err(e) => Err(e.to_string()),
    }
}

fn is_corrupt(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode::{DatabaseCorrupt, NotADatabase};
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == NotADatabase || f.code == DatabaseCorrupt)
}
