//! The person's rules file, edited in place: a rule added at the end of its verdict's
//! list, or one taken out by its place there (`allow:2`), the person's comments and
//! layout kept (toml_edit); or every rule of an agent session that ended. Each edit
//! reads, changes and writes the file under an exclusive lock (`rules.toml.lock`), so
//! edits racing each other (a `userq rules deny` while a session ends) are each kept. A file that is not TOML is an error and never overwritten,
//! and nothing that would no longer read as rules is saved. `userq rules` and the
//! window's Rules view both edit through here.

use std::path::{Path, PathBuf};

use toml_edit::{ArrayOfTables, DocumentMut};

use super::rules::{self, Entry, Origin, RulesError, Verdict};
use crate::paths::{self, Access};

/// Why the file was not changed.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    /// The file cannot be read or written, or is not TOML.
    #[error("{path}: {error}")]
    Unusable { path: PathBuf, error: String },
    /// The change would leave a file that does not read as rules.
    #[error(transparent)]
    Invalid(#[from] RulesError),
    /// No rule has that place.
    #[error("no rule {0}")]
    NoSuch(String),
}

/// The person's rules file in `config`.
pub fn path(config: &Path) -> PathBuf {
    config.join(super::FILE)
}

/// Adds `entries`, each at the end of its verdict's list; their numbers there.
pub fn add(config: &Path, entries: &[(Verdict, Entry)]) -> Result<Vec<usize>, EditError> {
    let path = path(config);
    let _lock = lock(&path)?;
    let mut doc = document(&path)?;
    let mut numbers = Vec::new();
    for (verdict, entry) in entries {
        let unusable = |error: String| EditError::Unusable { path: path.clone(), error };
        let table = toml_edit::ser::to_document(entry).map_err(|e| unusable(e.to_string()))?.as_table().clone();
        let list = doc.entry(verdict.key()).or_insert_with(|| toml_edit::Item::ArrayOfTables(ArrayOfTables::new()));
        let Some(list) = list.as_array_of_tables_mut() else {
            return Err(unusable(format!("{} is not a list of [[{0}]] tables", verdict.key())));
        };
        list.push(table);
        numbers.push(list.len());
    }
    save(&path, &doc)?;
    Ok(numbers)
}

/// Takes out the rule `id` names: `allow:2` is the second `[[allow]]`.
pub fn remove(config: &Path, id: &str) -> Result<(), EditError> {
    let no_such = || EditError::NoSuch(id.to_owned());
    let (key, n) = place(id)?;
    let path = path(config);
    let _lock = lock(&path)?;
    let mut doc = document(&path)?;
    let list = doc.get_mut(key).and_then(|i| i.as_array_of_tables_mut()).ok_or_else(no_such)?;
    if n == 0 || n > list.len() {
        return Err(no_such());
    }
    list.remove(n - 1);
    save(&path, &doc)
}

/// Puts `entry` in the place of the rule `id` names (`allow:2`), keeping its place and
/// the comments around it.
pub fn replace(config: &Path, id: &str, entry: &Entry) -> Result<(), EditError> {
    let (key, n) = place(id)?;
    let path = path(config);
    let _lock = lock(&path)?;
    let mut doc = document(&path)?;
    let unusable = |error: String| EditError::Unusable { path: path.clone(), error };
    let table = toml_edit::ser::to_document(entry).map_err(|e| unusable(e.to_string()))?.as_table().clone();
    let list = doc.get_mut(key).and_then(|i| i.as_array_of_tables_mut()).ok_or_else(|| EditError::NoSuch(id.into()))?;
    let old = list.get_mut(n - 1).ok_or_else(|| EditError::NoSuch(id.into()))?;
    let decor = old.decor().clone();
    *old = table;
    *old.decor_mut() = decor;
    save(&path, &doc)
}

/// Takes out every rule kept for the agent session `session` (`session = "…"`), which
/// ends with it; how many there were. No file, or none for that session, changes nothing.
pub fn end_session(config: &Path, session: &str) -> Result<usize, EditError> {
    let path = path(config);
    if !path.exists() {
        return Ok(0);
    }
    let _lock = lock(&path)?;
    let mut doc = document(&path)?;
    let mut ended = 0;
    for verdict in Verdict::ALL {
        let Some(list) = doc.get_mut(verdict.key()).and_then(|i| i.as_array_of_tables_mut()) else { continue };
        let before = list.len();
        list.retain(|t| t.get("session").and_then(|s| s.as_str()) != Some(session));
        ended += before - list.len();
    }
    if ended > 0 {
        save(&path, &doc)?;
    }
    Ok(ended)
}

/// The verdict's key and the number (from 1) a place such as `allow:2` names.
fn place(id: &str) -> Result<(&str, usize), EditError> {
    let no_such = || EditError::NoSuch(id.to_owned());
    let (key, n) = id.split_once(':').ok_or_else(no_such)?;
    let n: usize = n.parse().map_err(|_| no_such())?;
    if n == 0 || !Verdict::ALL.iter().any(|v| v.key() == key) {
        return Err(no_such());
    }
    Ok((key, n))
}

/// An exclusive lock on the rules file's edits, held until dropped: the lock file
/// beside it, never the file itself, which each save replaces.
fn lock(path: &Path) -> Result<std::fs::File, EditError> {
    let unusable = |e: std::io::Error| EditError::Unusable { path: path.to_owned(), error: e.to_string() };
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(unusable)?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path.with_extension("toml.lock"))
        .map_err(unusable)?;
    file.lock().map_err(unusable)?;
    Ok(file)
}

/// The file as a document; an empty one when there is no file yet.
fn document(path: &Path) -> Result<DocumentMut, EditError> {
    let unusable = |error: String| EditError::Unusable { path: path.to_owned(), error };
    match std::fs::read_to_string(path) {
        Ok(text) => text.parse().map_err(|e: toml_edit::TomlError| unusable(e.to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(DocumentMut::new()),
        Err(e) => Err(unusable(e.to_string())),
    }
}

fn save(path: &Path, doc: &DocumentMut) -> Result<(), EditError> {
    let text = doc.to_string();
    rules::parse(&text, path, &Origin::Yours)?;
    paths::write(path, text.as_bytes(), Access::AsBefore)
        .map_err(|e| EditError::Unusable { path: path.to_owned(), error: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_racing_each_other_are_each_kept() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().to_path_buf();
        let deny = |n: usize| Entry { command: Some(format!("tool{n}")), ..Entry::default() };
        let session =
            |n: usize| Entry { command: Some(format!("s{n}")), session: Some("ending".into()), ..Entry::default() };
        std::thread::scope(|scope| {
            for t in 0..8 {
                let config = &config;
                scope.spawn(move || {
                    for i in 0..10 {
                        add(config, &[(Verdict::Deny, deny(t * 10 + i))]).unwrap();
                        add(config, &[(Verdict::Allow, session(t * 10 + i))]).unwrap();
                        end_session(config, "ending").unwrap();
                    }
                });
            }
        });
        let text = std::fs::read_to_string(path(&config)).unwrap();
        let rules = rules::parse(&text, &path(&config), &Origin::Yours).unwrap();
        let denies = rules.iter().filter(|r| r.verdict == Verdict::Deny).count();
        assert_eq!(denies, 80, "every deny is kept");
        assert!(rules.iter().all(|r| r.scope.session.is_none()), "every session's rule ended with it");
    }
}
