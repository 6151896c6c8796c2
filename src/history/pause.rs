//! What keeps the history from being written right now, for the window to show while
//! it lasts: a journal that cannot be appended to (a full disk), a database that
//! cannot take what the journal holds (locked, full, unwritable). Each is also said
//! once on stderr where it happens; this carries it to whoever watches, and clears it
//! when writing works again.

use std::path::PathBuf;
use std::sync::Mutex;

use tokio::sync::watch;

/// Where the fault is.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    /// Appending to this process's journal.
    Journal,
    /// Folding the journals into the database.
    File,
}

/// A file that cannot be written, and why (the system's words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub file: PathBuf,
    pub error: String,
}

/// What pauses the history now, if anything, and who is told of changes to it.
pub struct Pause {
    parts: Mutex<[Option<Fault>; 2]>,
    shown: watch::Sender<Option<Fault>>,
}

impl Default for Pause {
    fn default() -> Self {
        Self { parts: Mutex::new([None, None]), shown: watch::Sender::new(None) }
    }
}

impl Pause {
    /// Notes what is wrong at `source` now (`None`: nothing any more).
    pub fn report(&self, source: Source, what: Option<Fault>) {
        let mut parts = self.parts.lock().unwrap();
        parts[source as usize] = what;
        let now = parts.iter().flatten().next().cloned();
        self.shown.send_if_modified(|shown| {
            let changed = *shown != now;
            *shown = now;
            changed
        });
    }

    /// What is wrong now, if anything.
    pub fn now(&self) -> Option<Fault> {
        self.shown.borrow().clone()
    }

    /// Hears of each change.
    pub fn watch(&self) -> watch::Receiver<Option<Fault>> {
        self.shown.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_fault_is_shown_until_each_is_cleared() {
        let fault = |file: &str, error: &str| Fault { file: file.into(), error: error.into() };
        let pause = Pause::default();
        let mut seen = pause.watch();
        pause.report(Source::File, Some(fault("history.sqlite3", "database is locked")));
        pause.report(Source::Journal, Some(fault("journal/1.jsonl", "No space left on device")));
        assert_eq!(pause.now(), Some(fault("journal/1.jsonl", "No space left on device")));
        assert!(seen.has_changed().unwrap());
        seen.mark_unchanged();
        pause.report(Source::Journal, None);
        assert_eq!(pause.now(), Some(fault("history.sqlite3", "database is locked")), "the other is still wrong");
        pause.report(Source::File, None);
        assert_eq!(pause.now(), None);
        assert!(seen.has_changed().unwrap());
    }
}
