//! When each machine of the circle was last heard from, for `userq relay status`: the
//! running relay notes it (at most once a few seconds per machine) in
//! `relay-seen.json` beside the relay file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::paths::Access;

/// Seconds between two writes for the same machine.
const EVERY: u64 = 5;

static LAST: Mutex<BTreeMap<String, u64>> = Mutex::new(BTreeMap::new());

fn file(relay: &Path) -> PathBuf {
    relay.with_file_name("relay-seen.json")
}

fn now() -> u64 {
    super::wire::now_ms() / 1000
}

/// `machine` was heard from now.
pub fn note(relay: &Path, machine: &str) {
    let now = now();
    {
        let mut last = LAST.lock().unwrap();
        let key = format!("{}\0{machine}", relay.display());
        if last.get(&key).is_some_and(|&t| now < t + EVERY) {
            return;
        }
        last.insert(key, now);
    }
    let mut all = read(relay);
    all.insert(machine.to_owned(), now);
    let _ = crate::paths::write(&file(relay), &serde_json::to_vec(&all).unwrap_or_default(), Access::Private);
}

/// When each machine was last heard from (seconds since the epoch).
pub fn read(relay: &Path) -> BTreeMap<String, u64> {
    std::fs::read(file(relay)).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default()
}
