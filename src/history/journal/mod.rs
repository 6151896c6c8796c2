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
//! journal wholly folded is removed by whoever finds its writer gone. A disk too
//! full to append to pauses the history (see [`super::trouble`]); questions go on.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use rusqlite::Connection;

use super::store;
use super::trouble::{Fault, Source, Trouble};

mod entry;
mod fold;

pub use entry::{AskRef, EndRef, EntryRef};
pub use fold::fold;
use fold::{folded_to, io_error};

/// The journals' folder, beside the database.
pub const DIR: &str = "journal";

/// A journal grown past this, and wholly folded, is replaced by a new part.
const ROTATE_AT: u64 = 4 << 20;

/// The journals' folder of a history file.
pub fn dir_of(history: &Path) -> PathBuf {
    history.parent().unwrap_or(Path::new(".")).join(DIR)
}

/// This process's journal: the file it appends to, and the thread that folds it.
pub struct Journal {
    dir: PathBuf,
    origin: String,
    open: Mutex<Part>,
    folder: Mutex<Option<std::thread::Thread>>,
    /// Until when appends are dropped, after one failed (a full disk).
    failing_until: Mutex<Option<Instant>>,
    trouble: Arc<Trouble>,
}

/// How long appends are dropped after one failed, so a disk that fails slowly never
/// slows the questions; then the next append tries again.
const BACK_OFF: Duration = Duration::from_secs(1);

struct Part {
    number: u32,
    file: File,
    len: u64,
    next_n: u64,
    /// Bytes appended by this process, in every part.
    appended: u64,
}

/// The most room a thread keeps for the next line after a longer one.
const KEEP_ROOM: usize = 64 << 10;

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
            open: Mutex::new(Part { number: 0, file, len: 0, next_n: 1, appended: 0 }),
            folder: Mutex::new(None),
            failing_until: Mutex::new(None),
            trouble: Arc::default(),
        }))
    }

    /// What keeps this journal, or the database it is folded into, from being
    /// written now.
    pub fn trouble(&self) -> Arc<Trouble> {
        Arc::clone(&self.trouble)
    }

    /// The number that ties an ask's ending to its beginning.
    pub fn next_n(&self) -> u64 {
        let mut part = self.open.lock().unwrap();
        part.next_n += 1;
        part.next_n - 1
    }

    /// Appends one entry, in one `write`; when this returns the entry outlives the
    /// process. An append that fails (a full disk) is cut off again, said once on
    /// stderr and to the window, and for a second entries are dropped: a history that
    /// cannot be written never stops a question, and what was written stays whole.
    pub fn record(&self, entry: &EntryRef<'_>) {
        if self.failing_until.lock().unwrap().is_some_and(|t| Instant::now() < t) {
            return;
        }
        thread_local! {
            /// The line being appended, its room kept from one entry to the next.
            static LINE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        LINE.with_borrow_mut(|line| {
            line.clear();
            if let Err(e) = serde_json::to_writer(&mut *line, entry) {
                tracing::warn!("history: an entry that cannot be written: {e}");
                return;
            }
            line.push(b'\n');
            self.append(line);
            if line.capacity() > KEEP_ROOM {
                // A long plan's line is not kept for the thread's lifetime.
                *line = Vec::new();
            }
        });
    }

    /// Writes one whole line to the open part, or cuts off what of it went in.
    fn append(&self, line: &[u8]) {
        let mut part = self.open.lock().unwrap();
        let mut failing = self.failing_until.lock().unwrap();
        let number = part.number;
        let path = || self.dir.join(part_name(&self.origin, number));
        match part.file.write_all(line) {
            Ok(()) => {
                part.len += line.len() as u64;
                part.appended += line.len() as u64;
                if failing.take().is_some() {
                    eprintln!("user-questions: history: writing to {} again", path().display());
                    self.trouble.report(Source::Journal, None);
                }
            }
            Err(e) => {
                // What part of the write went in is cut off again, so the entries
                // after it start on a line of their own.
                let _ = part.file.set_len(part.len);
                if failing.is_none() {
                    eprintln!(
                        "user-questions: history: cannot write the journal {}: {e}; questions go on, unrecorded until it can",
                        path().display()
                    );
                    self.trouble.report(Source::Journal, Some(Fault { file: path(), error: e.to_string() }));
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
                                journal.trouble.report(Source::File, None);
                            }
                        }
                        Ok(_) if failing => {
                            failing = false;
                            eprintln!("user-questions: history: writing to {} again", path.display());
                            journal.trouble.report(Source::File, None);
                        }
                        Ok(_) => {}
                        Err(e) if !failing => {
                            failing = true;
                            eprintln!(
                                "user-questions: history: cannot write {}: {e}; the journal in {} keeps every ask until it can",
                                path.display(),
                                journal.dir.display()
                            );
                            journal.trouble.report(Source::File, Some(Fault { file: path.clone(), error: e.to_string() }));
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
