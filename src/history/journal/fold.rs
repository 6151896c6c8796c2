//! Folding: the journals' entries copied into the database, each exactly once,
//! whoever folds (the server's folder, a reader, the next start), with how far each
//! journal is folded kept in the same transaction as the rows; a journal wholly folded
//! whose writer is gone is removed.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension};

use super::super::decider::Decider;
use super::super::store;
use super::entry::{AskRow, EndRow, Entry, OutcomeWords, QuestionWords, RequestParts};

pub(super) fn io_error(e: std::io::Error) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(Box::new(e))
}

pub(super) fn folded_to(conn: &Connection, name: &str) -> rusqlite::Result<Option<i64>> {
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
        } else if name.ends_with(".new") && unnamed_and_abandoned(&entry) {
            let _ = std::fs::remove_file(entry.path());
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

/// How long a journal may take from being made to being named (see `open_part`):
/// one still unnamed after this, and unlocked, was left by a process that died in
/// between, and holds nothing.
const NAMING_TAKES_AT_MOST: std::time::Duration = std::time::Duration::from_secs(60);

fn unnamed_and_abandoned(entry: &std::fs::DirEntry) -> bool {
    let old = entry
        .metadata()
        .and_then(|m| m.modified())
        .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > NAMING_TAKES_AT_MOST));
    old && writer_gone(&entry.path())
}

/// Whether the process that wrote a journal has let it go.
pub(super) fn writer_gone(path: &Path) -> bool {
    File::open(path).is_ok_and(|f| f.try_lock().is_ok())
}

/// Writes one entry into the database. An ending whose beginning is not there (its
/// journal lost) is dropped.
fn apply(conn: &Connection, journal: &str, entry: Entry) -> rusqlite::Result<()> {
    let origin = journal.split('.').next().unwrap_or(journal);
    match entry {
        Entry::Whole { ask, end } => {
            insert(conn, &ask, Some(&end))?;
            count_policy(conn, &end)?;
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
                count_policy(conn, &end)?;
            }
        }
        Entry::RuleUsed { id, at } => store::rule_used(conn, id, store::time_of(at))?,
    }
    Ok(())
}

/// An ending the policy's rules gave counts as a use of each.
fn count_policy(conn: &Connection, end: &EndRow) -> rusqlite::Result<()> {
    if let Some(Decider::Policy(rules)) = end.by.as_deref().map(Decider::parse) {
        let keys: Vec<&str> = rules.iter().map(|r| r.key.as_str()).collect();
        store::policy_used(conn, &keys, end.ended_at)?;
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
    use super::super::{AskRef, EndRef, EntryRef, Journal, DIR};
    use super::*;
    use crate::model::{Answer, AnswerItem, Question, Request};
    use std::time::SystemTime;

    #[test]
    fn each_entry_is_folded_once_and_a_journal_whose_writer_left_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let journals = dir.path().join(DIR);
        let request = Request { questions: vec![Question::new("q", "Deploy?")], agent: None, context: None };
        let request = request.to_json();
        let answered = Ok(Answer::new(vec![AnswerItem::selected("q", &["Yes"])]));
        let journal = Journal::create(&journals).unwrap();
        let now = SystemTime::now();
        for seq in 0..3 {
            let ask = AskRef { asked_at: store::nanos(now), seq, request: &request };
            journal.record(&EntryRef::Whole { ask, end: EndRef::new(now, &answered, Some("test")) });
        }
        // An ask begun in one fold and ended in the next.
        let n = journal.next_n();
        let ask = AskRef { asked_at: store::nanos(now), seq: 3, request: &request };
        journal.record(&EntryRef::Begin { n, ask });
        let conn = crate::history::open_for_writing(&dir.path().join("history.sqlite3")).unwrap();
        assert_eq!(fold(&conn, &journals).unwrap(), 0, "opening the file folded them already");
        assert_eq!(store::count(&conn).unwrap(), 4);
        let pending: Option<String> =
            conn.query_row("SELECT outcome FROM asks WHERE seq = 3", [], |r| r.get(0)).unwrap();
        assert_eq!(pending, None);
        journal.record(&EntryRef::End { n, end: EndRef::new(now, &answered, None) });
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
    fn a_journal_left_unnamed_by_a_process_that_died_is_removed_once_old() {
        let dir = tempfile::tempdir().unwrap();
        let journals = dir.path().join(DIR);
        std::fs::create_dir(&journals).unwrap();
        let (old, new) =
            (journals.join("00000000000000000001-1.000000.new"), journals.join("00000000000000000002-2.000000.new"));
        std::fs::write(&old, "").unwrap();
        std::fs::write(&new, "").unwrap();
        let long_ago = SystemTime::now() - NAMING_TAKES_AT_MOST * 2;
        File::options().write(true).open(&old).unwrap().set_modified(long_ago).unwrap();
        let conn = Connection::open_in_memory().unwrap();
        store::migrate(&conn).unwrap();
        assert_eq!(fold(&conn, &journals).unwrap(), 0);
        assert!(!old.exists(), "left long ago by a process that died before naming it");
        assert!(new.exists(), "it may be being named right now");
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
