//! The fold thread: the thread that folds this process's journal into the database, off
//! every asker's path, after each burst of asks and in one transaction for all of it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rusqlite::Connection;

use super::super::pause::{Fault, Source};
use super::{fold, Journal, FOLD_AT_MOST};

/// Another process holds the file's lock (a reader folding, `userq history --clear`):
/// the fold waits for it, up to about five seconds, and says so once per wait (at
/// debug level), so a person, or a test, can tell a wait from a stall.
fn wait_for_the_lock(tries: i32) -> bool {
    if tries == 0 {
        tracing::debug!("history: the file is locked by another process; the fold waits");
    }
    std::thread::sleep(Duration::from_millis(10));
    tries < 500
}

impl Journal {
    /// Folds the journals into the history on a thread of its own: woken by each
    /// append, it waits `gather` for more to come and folds them all in one
    /// transaction. A fold that fails is tried again at the next append; the entries
    /// wait in the journal meanwhile.
    pub fn fold_in_background(self: &Arc<Self>, conn: Connection, path: PathBuf, gather: Duration) {
        let journal = Arc::clone(self);
        let thread = std::thread::Builder::new()
            .name("history-fold".into())
            .spawn(move || {
                lowest_priority();
                // Off every asker's path: it may wait for a reader's fold to finish.
                let _ = conn.busy_handler(Some(wait_for_the_lock));
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
                                journal.pause.report(Source::File, None);
                            }
                        }
                        Ok(_) if failing => {
                            failing = false;
                            eprintln!("user-questions: history: writing to {} again", path.display());
                            journal.pause.report(Source::File, None);
                        }
                        Ok(_) => {}
                        Err(e) if !failing => {
                            failing = true;
                            eprintln!(
                                "user-questions: history: cannot write {}: {e}; the journal in {} keeps every ask until it can",
                                path.display(),
                                journal.dir.display()
                            );
                            journal.pause.report(Source::File, Some(Fault { file: path.clone(), error: e.to_string() }));
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
    fn wait_for_a_lull(&self, gather: Duration) {
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
}

/// Puts the calling thread at the lowest priority short of idle (nice 19): under load
/// the folding mostly waits for a quiet moment, and the journal holds the entries
/// meanwhile, yet it is never starved while it holds the file's write lock.
fn lowest_priority() {
    // SAFETY: gettid and setpriority touch no memory; on Linux a thread id names the
    // calling thread alone.
    let done = unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 19) };
    if done != 0 {
        tracing::debug!("history: the fold thread keeps its priority: {}", std::io::Error::last_os_error());
    }
}
