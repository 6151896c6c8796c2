//! The journal: how an ending is kept before the asker has it, for the price of one
//! append. Each server appends its entries, one JSON line each, to a journal file of
//! its own (`journal/<origin>.<part>.jsonl` beside the database, locked while it is
//! written), with a `write` before the answer is released: once that returns the
//! entry is the kernel's, and outlives the process being killed the next instant.
//! Entries queued at the same moment share one `write` (a group commit): with many
//! askers at once the journal costs a fraction of a `write` per ask.
//!
//! The entries are folded into the database in batches: by the server's folder
//! thread, by any reader before it reads (`userq history`, the window), and on the
//! next start. The database says how far each journal is folded, in the same
//! transaction as the rows, so an entry is folded exactly once, whoever folds it. A
//! journal wholly folded is removed by whoever finds its writer gone. A disk too
//! full to append to pauses the history (see [`super::pause`]); questions go on.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use rusqlite::Connection;

use super::pause::{Fault, Pause, Source};
use super::store;

mod entry;
mod fold;
mod fold_thread;

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
    queue: Mutex<Queue>,
    folder: Mutex<Option<std::thread::Thread>>,
    /// Until when appends are dropped, after one failed (a full disk).
    failing_until: Mutex<Option<Instant>>,
    pause: Arc<Pause>,
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
    /// The last ticket whose entry is written (or dropped, when writing failed).
    written: u64,
    /// The entries being written, taken from the queue.
    lines: Vec<u8>,
    writes: u64,
}

/// What waits for the next `write`.
#[derive(Default)]
struct Queue {
    lines: Vec<u8>,
    /// Tickets handed out.
    queued: u64,
}

/// An entry's place in the journal's order, to wait for with [`Journal::written`].
#[derive(Clone, Copy)]
#[must_use = "an entry is written when its ticket is waited for, or by a later write"]
pub struct Ticket(u64);

/// The most room kept for the next write after a longer one.
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
            open: Mutex::new(Part {
                number: 0,
                file,
                len: 0,
                next_n: 1,
                appended: 0,
                written: 0,
                lines: Vec::new(),
                writes: 0,
            }),
            queue: Mutex::default(),
            folder: Mutex::new(None),
            failing_until: Mutex::new(None),
            pause: Arc::default(),
        }))
    }

    /// What keeps this journal, or the database it is folded into, from being
    /// written now.
    pub fn pause(&self) -> Arc<Pause> {
        Arc::clone(&self.pause)
    }

    /// The number that ties an ask's ending to its beginning.
    pub fn next_n(&self) -> u64 {
        let mut part = self.open.lock().unwrap();
        part.next_n += 1;
        part.next_n - 1
    }

    /// Appends one entry now, in one `write` with any others queued before it; when
    /// this returns the entry outlives the process.
    pub fn record(&self, entry: &EntryRef<'_>) {
        let ticket = self.queue(entry);
        self.write_through(ticket);
    }

    /// Puts one entry in line for the next `write`, which [`Journal::written`] waits
    /// for. Entries are written in the order they were queued.
    pub fn queue(&self, entry: &EntryRef<'_>) -> Ticket {
        if self.failing_until.lock().unwrap().is_some_and(|t| Instant::now() < t) {
            return Ticket(0);
        }
        let mut queue = self.queue.lock().unwrap();
        let before = queue.lines.len();
        if let Err(e) = serde_json::to_writer(&mut queue.lines, entry) {
            queue.lines.truncate(before);
            tracing::warn!("history: an entry that cannot be written: {e}");
            return Ticket(0);
        }
        queue.lines.push(b'\n');
        queue.queued += 1;
        Ticket(queue.queued)
    }

    /// Returns once the entry `ticket` stands for is written. It first lets every
    /// other task that is ready now run, so that asks ending at the same moment (many
    /// askers at once) queue theirs and one `write` takes them all. Should the waiting
    /// be dropped (its ask cancelled), the entry is written then.
    pub fn written(&self, ticket: Ticket) -> impl std::future::Future<Output = ()> + '_ {
        struct WriteThrough<'a>(&'a Journal, Ticket);
        impl Drop for WriteThrough<'_> {
            fn drop(&mut self) {
                self.0.write_through(self.1);
            }
        }
        let write = WriteThrough(self, ticket);
        async move {
            tokio::task::yield_now().await;
            drop(write);
        }
    }

    /// Writes every queued entry unless one `write` has taken `ticket`'s already. A
    /// write that fails (a full disk) is cut off again, said once on stderr and to the
    /// window, and for a second entries are dropped: a history that cannot be written
    /// never stops a question, and what was written stays whole.
    fn write_through(&self, ticket: Ticket) {
        let mut part = self.open.lock().unwrap();
        if part.written >= ticket.0 {
            return;
        }
        let part = &mut *part;
        {
            let mut queue = self.queue.lock().unwrap();
            std::mem::swap(&mut queue.lines, &mut part.lines);
            part.written = queue.queued;
        }
        let mut failing = self.failing_until.lock().unwrap();
        let number = part.number;
        let path = || self.dir.join(part_name(&self.origin, number));
        part.writes += 1;
        match part.file.write_all(&part.lines) {
            Ok(()) => {
                part.len += part.lines.len() as u64;
                part.appended += part.lines.len() as u64;
                if failing.take().is_some() {
                    eprintln!("user-questions: history: writing to {} again", path().display());
                    self.pause.report(Source::Journal, None);
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
                    self.pause.report(Source::Journal, Some(Fault { file: path(), error: e.to_string() }));
                }
                *failing = Some(Instant::now() + BACK_OFF);
            }
        }
        part.lines.clear();
        if part.lines.capacity() > KEEP_ROOM {
            // A long plan's line is not kept for the process's lifetime.
            part.lines = Vec::new();
        }
        drop(failing);
        if let Some(folder) = &*self.folder.lock().unwrap() {
            folder.unpark();
        }
    }

    /// How many `write`s this journal has made.
    pub fn writes(&self) -> u64 {
        self.open.lock().unwrap().writes
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Answer, AnswerItem, Question, Request};

    fn whole(journal: &Journal, request: &Request, seq: u64) -> Ticket {
        let now = SystemTime::now();
        let answered = Ok(Answer::new(vec![AnswerItem::selected("q", &["Yes"])]));
        let request = request.to_json();
        let ask = AskRef { asked_at: store::nanos(now), seq, request: &request };
        journal.queue(&EntryRef::Whole { ask, end: EndRef::new(now, &answered, Some("test")) })
    }

    fn lines(dir: &Path) -> usize {
        let part = std::fs::read_dir(dir).unwrap().next().unwrap().unwrap().path();
        std::fs::read_to_string(part).unwrap().lines().count()
    }

    #[test]
    fn asks_that_end_at_the_same_moment_share_one_write() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::create(dir.path()).unwrap();
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        rt.block_on(async {
            let request =
                Arc::new(Request { questions: vec![Question::new("q", "Deploy?")], agent: None, context: None });
            let tasks: Vec<_> = (0..20)
                .map(|seq| {
                    let (journal, request) = (Arc::clone(&journal), Arc::clone(&request));
                    tokio::spawn(async move {
                        let ticket = whole(&journal, &request, seq);
                        journal.written(ticket).await;
                        lines(&journal.dir)
                    })
                })
                .collect();
            for task in tasks {
                assert_eq!(task.await.unwrap(), 20, "each ask returns with every ending of the moment written");
            }
        });
        assert_eq!(journal.writes(), 1);
        let request = Request { questions: vec![Question::new("q", "Deploy?")], agent: None, context: None };
        let alone = whole(&journal, &request, 20);
        rt.block_on(journal.written(alone));
        assert_eq!((journal.writes(), lines(dir.path())), (2, 21), "an ask alone has a write of its own");
    }

    #[test]
    fn an_entry_whose_wait_is_dropped_is_written_then() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::create(dir.path()).unwrap();
        let request = Request { questions: vec![Question::new("q", "Deploy?")], agent: None, context: None };
        let ticket = whole(&journal, &request, 0);
        assert_eq!(lines(dir.path()), 0, "queued, not yet written");
        drop(journal.written(ticket));
        assert_eq!(lines(dir.path()), 1);
    }
}
