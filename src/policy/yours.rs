//! The person's rules file, edited in place: a rule added at the end of its verdict's
//! list, or one taken out or changed by its stable id (`deny:3fa9c2e1`, a hash of
//! what it says, so a session's rules ending never shifts it onto another), the
//! person's comments and layout kept (toml_edit); or every rule of an agent session
//! that ended. Each edit reads, changes and writes the file under an exclusive lock
//! (`rules.toml.lock`), so edits racing each other (a `userq rules deny` while a
//! session ends) are each kept. A file that is not TOML is an error and never overwritten,
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
    /// No rule of the file has that id.
    #[error("no rule {0} in your rules file")]
    NoSuch(String),
}

/// The person's rules file in `config`.
pub fn path(config: &Path) -> PathBuf {
    config.join(super::FILE)
}

/// Adds `entries`, each at the end of its verdict's list; their ids.
pub fn add(config: &Path, entries: &[(Verdict, Entry)]) -> Result<Vec<String>, EditError> {
    let path = path(config);
    let _lock = lock(&path)?;
    let mut doc = document(&path)?;
    let mut ids = Vec::new();
    for (verdict, entry) in entries {
        let unusable = |error: String| EditError::Unusable { path: path.clone(), error };
        let table = toml_edit::ser::to_document(entry).map_err(|e| unusable(e.to_string()))?.as_table().clone();
        let list = doc.entry(verdict.key()).or_insert_with(|| toml_edit::Item::ArrayOfTables(ArrayOfTables::new()));
        let Some(list) = list.as_array_of_tables_mut() else {
            return Err(unusable(format!("{} is not a list of [[{0}]] tables", verdict.key())));
        };
        list.push(table);
        ids.push(entry.id(*verdict));
    }
    save(&path, &doc)?;
    Ok(ids)
}

/// Takes out the rule `id` names ([`Entry::id`]).
pub fn remove(config: &Path, id: &str) -> Result<(), EditError> {
    let path = path(config);
    let _lock = lock(&path)?;
    let mut doc = document(&path)?;
    let (list, n) = find(&mut doc, id)?;
    list.remove(n);
    save(&path, &doc)
}

/// Puts `entry` in the place of the rule `id` names, keeping the comments around it.
pub fn replace(config: &Path, id: &str, entry: &Entry) -> Result<(), EditError> {
    let path = path(config);
    let _lock = lock(&path)?;
    let mut doc = document(&path)?;
    let unusable = |error: String| EditError::Unusable { path: path.clone(), error };
    let table = toml_edit::ser::to_document(entry).map_err(|e| unusable(e.to_string()))?.as_table().clone();
    let (list, n) = find(&mut doc, id)?;
    let old = list.get_mut(n).ok_or_else(|| EditError::NoSuch(id.into()))?;
    let decor = old.decor().clone();
    *old = table;
    *old.decor_mut() = decor;
    save(&path, &doc)
}

/// The list holding the rule `id` names, and its index there.
fn find<'d>(doc: &'d mut DocumentMut, id: &str) -> Result<(&'d mut ArrayOfTables, usize), EditError> {
    let no_such = || EditError::NoSuch(id.to_owned());
    let verdict = id.split_once(':').and_then(|(key, _)| Verdict::ALL.into_iter().find(|v| v.key() == key));
    let verdict = verdict.ok_or_else(no_such)?;
    let list = doc.get_mut(verdict.key()).and_then(|i| i.as_array_of_tables_mut()).ok_or_else(no_such)?;
    let n = list
        .iter()
        .position(|t| Entry::from_toml(&t.to_string()).is_ok_and(|e| e.id(verdict) == id))
        .ok_or_else(no_such)?;
    Ok((list, n))
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

    #[test]
    fn an_id_names_the_same_rule_after_the_rules_before_it_end() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path();
        let entry = |c: &str, session: Option<&str>| Entry {
            command: Some(c.into()),
            session: session.map(str::to_owned),
            ..Entry::default()
        };
        add(config, &[(Verdict::Deny, entry("sudo", Some("s1"))), (Verdict::Deny, entry("curl", None))]).unwrap();
        let ids = add(config, &[(Verdict::Deny, entry("git push", None))]).unwrap();
        assert_eq!(ids, [entry("git push", None).id(Verdict::Deny)]);
        end_session(config, "s1").unwrap();
        remove(config, &ids[0]).unwrap();
        let text = std::fs::read_to_string(path(config)).unwrap();
        assert_eq!(text.trim_start(), "[[deny]]\ncommand = \"curl\"\n");
        assert!(matches!(remove(config, &ids[0]), Err(EditError::NoSuch(_))));
        assert!(matches!(remove(config, "deny:1"), Err(EditError::NoSuch(_))));
    }
}
