//! The questions in the room that have not ended there, kept in `open.json` (0600),
//! so nothing is lost when the server stops: a server that stops leaves its questions
//! open in the room (their askers ask again on the next run, as they do across any
//! restart), and the next run takes each one up again, with the votes and thread
//! replies given meanwhile, instead of asking anew. One whose asker does not come back
//! within [`come_back`] is withdrawn from the room.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::account::Place;
use super::MatrixError;
use crate::paths;

/// How long after a start an earlier run's question waits for its asker: two
/// minutes, or `USERQ_MATRIX_COME_BACK_SECS`.
pub fn come_back() -> Duration {
    let secs = std::env::var("USERQ_MATRIX_COME_BACK_SECS").ok().and_then(|s| s.parse().ok());
    Duration::from_secs(secs.unwrap_or(120))
}

/// One question in the room.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Posted {
    /// The request as the asker sent it (its JSON): how its asker is known again.
    pub request: String,
    /// The message, then each poll with the question it asks.
    pub message: String,
    pub polls: Vec<(usize, String)>,
    /// Long details sent whole as files, in the message's thread.
    #[serde(default)]
    pub files: Vec<String>,
    /// The polls of best matches offered for a file pick (each also among `polls`),
    /// with the paths they offer: a vote in one given while the desk was down counts.
    #[serde(default)]
    pub offered: Vec<(String, Vec<String>)>,
}

impl Posted {
    /// Every event of it, the message first.
    pub fn events(&self) -> impl Iterator<Item = &str> {
        let polls = self.polls.iter().map(|(_, id)| id.as_str());
        std::iter::once(self.message.as_str()).chain(self.files.iter().map(String::as_str)).chain(polls)
    }
}

/// The open questions.
pub struct Open {
    file: PathBuf,
    held: Mutex<Vec<Posted>>,
    /// The messages of those taken up again by this run.
    taken: Mutex<std::collections::HashSet<String>>,
}

impl Open {
    pub fn load(place: &Place) -> Result<Self, MatrixError> {
        let file = place.dir().join("open.json");
        let held = match std::fs::read(&file) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|e| place.files_error(format!("open.json does not read: {e}")))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(place.files_error(e)),
        };
        Ok(Self { file, held: Mutex::new(held), taken: Default::default() })
    }

    fn save(&self, held: &[Posted]) {
        let bytes = serde_json::to_vec(held).expect("open questions serialize");
        if let Err(e) = paths::write(&self.file, &bytes, paths::Access::Private) {
            tracing::warn!("matrix: could not keep the open questions in {}: {e}", self.file.display());
        }
    }

    /// The question of `request` an earlier run left open, taken up again: once, by
    /// whichever of the bridge's answerer and its start finds the ask first.
    pub fn take(&self, request: &str) -> Option<Posted> {
        let held = self.held.lock().unwrap();
        let at = held.iter().position(|p| p.request == request)?;
        self.taken.lock().unwrap().insert(held[at].message.clone()).then(|| held[at].clone())
    }

    /// Keeps `posted` until it ends.
    pub fn keep(&self, posted: Posted) {
        let mut held = self.held.lock().unwrap();
        held.retain(|p| p.message != posted.message);
        held.push(posted);
        self.save(&held);
    }

    /// The question whose message is `message` ended.
    pub fn end(&self, message: &str) {
        let mut held = self.held.lock().unwrap();
        let before = held.len();
        held.retain(|p| p.message != message);
        if held.len() != before {
            self.save(&held);
        }
    }

    /// Every question open now.
    pub fn all(&self) -> Vec<Posted> {
        self.held.lock().unwrap().clone()
    }

    /// The questions an earlier run left that no asker took up again.
    pub fn left(&self) -> Vec<Posted> {
        let taken = self.taken.lock().unwrap();
        self.all().into_iter().filter(|p| !taken.contains(&p.message)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_is_kept_until_it_ends_and_found_by_its_request() {
        let dir = tempfile::tempdir().unwrap();
        let place = Place::at(dir.path());
        let open = Open::load(&place).unwrap();
        let posted = Posted {
            request: "{\"q\":1}".into(),
            message: "$m".into(),
            polls: vec![(0, "$p".into())],
            files: vec!["$f".into()],
            offered: vec![("$p".into(), vec!["config/prod.toml".into()])],
        };
        open.keep(posted.clone());
        let again = Open::load(&place).unwrap();
        assert_eq!(again.left(), vec![posted.clone()]);
        assert_eq!(again.take("{\"q\":1}"), Some(posted.clone()));
        assert!(again.left().is_empty(), "taken up");
        assert_eq!(again.take("{\"q\":1}"), None, "taken up once");
        assert_eq!(again.take("{\"q\":2}"), None);
        assert_eq!(posted.events().collect::<Vec<_>>(), ["$m", "$f", "$p"]);
        again.end("$m");
        assert!(Open::load(&place).unwrap().all().is_empty());
        std::fs::write(dir.path().join("open.json"), b"{").unwrap();
        assert!(Open::load(&place).is_err(), "a file that does not read is named, not emptied");
    }
}
