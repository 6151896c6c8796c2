//! The history file: SQLite in WAL mode, a versioned schema whose migrations run on
//! open, every ask with its request, agent, context, times, outcome and who gave it,
//! and the remembered answers (rules), and how far each journal is folded into it
//! (see [`super::journal`]). Whoever folds writes it, one at a time (SQLite's write
//! lock); any number of readers (`userq history`, the window's History view) share it.

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OpenFlags};
use serde::Serialize;
use serde_json::Value;

/// Each migration takes the schema from the version before it to its own number.
const MIGRATIONS: [&str; 6] = [
    // 1: the asks.
    "CREATE TABLE asks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        asked_at INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        ended_at INTEGER,
        agent_id TEXT,
        agent_client TEXT,
        agent_depth INTEGER,
        request TEXT NOT NULL,
        context TEXT,
        outcome TEXT,
        answered_by TEXT,
        search TEXT NOT NULL
    );
    CREATE INDEX asks_newest ON asks(asked_at DESC, seq DESC, id DESC);",
    // 2: remembered answers, and asks found by agent.
    "CREATE TABLE rules (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        question TEXT NOT NULL,
        answer TEXT NOT NULL,
        client TEXT,
        detail TEXT,
        created_at INTEGER NOT NULL,
        uses INTEGER NOT NULL DEFAULT 0,
        last_used_at INTEGER
    );
    CREATE INDEX asks_agent ON asks(agent_id);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    INSERT INTO meta VALUES ('rules', 0);
    CREATE TRIGGER rules_added AFTER INSERT ON rules BEGIN UPDATE meta SET value = value + 1 WHERE key = 'rules'; END;
    CREATE TRIGGER rules_removed AFTER DELETE ON rules BEGIN UPDATE meta SET value = value + 1 WHERE key = 'rules'; END;",
    // 3: how far each journal is folded, and the asks begun in one and not yet ended.
    "CREATE TABLE journals (name TEXT PRIMARY KEY, offset INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE open_asks (key TEXT PRIMARY KEY, row INTEGER NOT NULL) WITHOUT ROWID;",
    // 4: the newest-first index carries the words searched, so a search walks the
    // index alone, newest first, and reads a row only for what it finds (it read every
    // row's page before: about three times slower over 100,000 asks).
    "DROP INDEX asks_newest;
    CREATE INDEX asks_newest ON asks(asked_at DESC, seq DESC, id DESC, search);",
    // 5: a plan's annotations, with the version of the plan they were made on (see
    // super::annotations).
    "CREATE TABLE annotations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        made_at INTEGER NOT NULL,
        session TEXT,
        agent_id TEXT,
        plan TEXT NOT NULL,
        annotations TEXT NOT NULL
    );
    CREATE INDEX annotations_made ON annotations(made_at);",
    // 6: how often each of the policy's rules decided, and when last, by the rule's
    // key (see crate::policy::Rule::key): the rules are kept in TOML, their uses here.
    "CREATE TABLE policy_uses (
        rule TEXT PRIMARY KEY,
        uses INTEGER NOT NULL,
        last_used_at INTEGER NOT NULL
    ) WITHOUT ROWID;",
];

/// The schema version this build writes.
pub const VERSION: usize = MIGRATIONS.len();

/// Nanoseconds since the epoch, as the file stores times.
pub fn nanos(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as i64).unwrap_or(0)
}

pub fn time_of(nanos: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_nanos(nanos.max(0) as u64)
}

/// Opens (creating) the history for writing and brings its schema up to date; what
/// the journals hold is folded in by [`super::open_for_writing`], the door every reader
/// and writer uses.
pub(super) fn open_unfolded(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_millis(200))?;
    // WAL: readers never block the writer; NORMAL: a commit survives the process
    // being killed (the WAL is written before COMMIT returns), without an fsync each.
    conn.pragma_update(None, "journal_mode", "wal")?;
    conn.pragma_update(None, "synchronous", "normal")?;
    // Checkpoints run after a fold, on the folder's thread (see `super::journal`),
    // never in a commit.
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    migrate(&conn)?;
    Ok(conn)
}

/// The history opened to fold the journals into it before a read: when it can be
/// written and its schema is this build's.
pub(super) fn open_to_fold(path: &Path) -> Option<Connection> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE).ok()?;
    let _ = conn.busy_timeout(Duration::from_millis(500));
    version(&conn).is_ok_and(|v| v == VERSION).then_some(conn)
}

/// Opens the history read-only, never creating it or changing its schema.
pub(super) fn open_read_only(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    conn.busy_timeout(Duration::from_millis(500))?;
    let version = version(&conn)?;
    if version > VERSION {
        return Err(rusqlite::Error::InvalidParameterName(format!(
            "schema version {version} is newer than this userq knows ({VERSION})"
        )));
    }
    Ok(conn)
}

/// Runs the migrations the file has not had, each in its own transaction.
pub fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    migrate_to(conn, VERSION)
}

/// Brings the schema to `target` (tests make older files with it). The migrations run
/// in one write transaction that reads the version again, so two processes opening a
/// new file at once (a server and `userq rules`) never run one twice.
pub fn migrate_to(conn: &Connection, target: usize) -> rusqlite::Result<()> {
    if version(conn)? >= target {
        return Ok(());
    }
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let steps = || -> rusqlite::Result<()> {
        for (i, sql) in MIGRATIONS.iter().enumerate().take(target).skip(version(conn)?) {
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", (i + 1) as i64)?;
        }
        Ok(())
    };
    match steps() {
        Ok(()) => conn.execute_batch("COMMIT"),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// One recorded ask, as `userq history --json` prints it.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub ask: i64,
    pub asked_at: String,
    pub ended_at: Option<String>,
    pub agent: Option<Value>,
    pub request: Value,
    pub context: Option<Value>,
    pub outcome: Option<Value>,
    pub answered_by: Option<String>,
}

impl Entry {
    /// How long the ask waited, to the millisecond; `None` while pending.
    pub fn waited(&self) -> Option<Duration> {
        let start = humantime::parse_rfc3339(&self.asked_at).ok()?;
        let end = humantime::parse_rfc3339(self.ended_at.as_deref()?).ok()?;
        end.duration_since(start).ok().map(|d| Duration::from_millis(d.as_millis() as u64))
    }

    /// The answer's words for a person: each question's labels and typed text
    /// (“quoted”), `skipped` for a skipped one, questions joined by `between`; `None`
    /// when the ask was not answered.
    pub fn answer_words(&self, skipped: &str, between: &str) -> Option<String> {
        let answer = self.outcome.as_ref()?.get("answer")?;
        let items = answer["answers"].as_array()?;
        let words: Vec<String> = items
            .iter()
            .map(|a| {
                let mut parts: Vec<String> = a["selected"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|s| s.as_str())
                    .map(str::to_owned)
                    .collect();
                parts.extend(a["custom"].as_str().map(|c| format!("“{c}”")));
                if parts.is_empty() {
                    skipped.to_owned()
                } else {
                    parts.join(", ")
                }
            })
            .collect();
        Some(words.join(between))
    }

    /// The error code an ask ended with, if it did not end answered.
    pub fn error_code(&self) -> Option<&str> {
        self.outcome.as_ref()?.get("error")?.get("code")?.as_str()
    }
}

/// What to list: newest first.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pub search: Option<String>,
    pub agent: Option<String>,
    pub since: Option<SystemTime>,
    pub limit: Option<u64>,
    /// Entries older than this entry's place, for paging (its `ask`).
    pub before_ask: Option<i64>,
}

fn rfc3339(nanos: i64) -> String {
    humantime::format_rfc3339_millis(time_of(nanos)).to_string()
}

/// The asks a query finds, newest first: in the order they were received, latest
/// first, even within one millisecond.
pub fn list(conn: &Connection, q: &Query) -> rusqlite::Result<Vec<Entry>> {
    let mut sql = String::from(
        "SELECT id, asked_at, ended_at, agent_id, agent_client, agent_depth, request, context, outcome, answered_by
         FROM asks WHERE 1 = 1",
    );
    let mut args: Vec<rusqlite::types::Value> = Vec::new();
    if let Some(text) = q.search.as_deref().filter(|t| !t.is_empty()) {
        sql.push_str(" AND instr(search, ?) > 0");
        args.push(text.to_lowercase().into());
    }
    if let Some(agent) = &q.agent {
        sql.push_str(" AND agent_id = ?");
        args.push(agent.clone().into());
    }
    if let Some(since) = q.since {
        sql.push_str(" AND asked_at >= ?");
        args.push(nanos(since).into());
    }
    if let Some(before) = q.before_ask {
        sql.push_str(" AND (asked_at, seq, id) < (SELECT asked_at, seq, id FROM asks WHERE id = ?)");
        args.push(before.into());
    }
    sql.push_str(" ORDER BY asked_at DESC, seq DESC, id DESC");
    if let Some(limit) = q.limit {
        sql.push_str(" LIMIT ?");
        args.push((limit as i64).into());
    }
    let mut stmt = conn.prepare(&sql)?;
    let json = |s: Option<String>| s.and_then(|s| serde_json::from_str::<Value>(&s).ok());
    let rows = stmt.query_map(rusqlite::params_from_iter(args), |r| {
        let agent_id: Option<String> = r.get(3)?;
        let agent = agent_id.map(|id| {
            serde_json::json!({"id": id, "client": r.get::<_, Option<String>>(4).ok().flatten(),
                "delegationDepth": r.get::<_, Option<i64>>(5).ok().flatten().unwrap_or(0)})
        });
        Ok(Entry {
            ask: r.get(0)?,
            asked_at: rfc3339(r.get(1)?),
            ended_at: r.get::<_, Option<i64>>(2)?.map(rfc3339),
            agent,
            request: json(r.get(6)?).unwrap_or(Value::Null),
            context: json(r.get(7)?),
            outcome: json(r.get(8)?),
            answered_by: r.get(9)?,
        })
    })?;
    rows.collect()
}

/// Deletes the asks received before `before` (all of them when `None`); how many.
pub fn clear(conn: &Connection, before: Option<SystemTime>) -> rusqlite::Result<usize> {
    match before {
        Some(t) => {
            conn.execute("DELETE FROM annotations WHERE made_at < ?", [nanos(t)])?;
            conn.execute("DELETE FROM asks WHERE asked_at < ?", [nanos(t)])
        }
        None => {
            conn.execute("DELETE FROM annotations", [])?;
            conn.execute("DELETE FROM asks", [])
        }
    }
}

/// Keeps the history bounded: asks older than `days`, and all but the newest `max`.
pub fn retain(conn: &Connection, days: u64, max: u64, now: SystemTime) -> rusqlite::Result<usize> {
    let cutoff = now.checked_sub(Duration::from_secs(days * 86_400)).unwrap_or(UNIX_EPOCH);
    conn.execute("DELETE FROM annotations WHERE made_at < ?", [nanos(cutoff)])?;
    let old = conn.execute("DELETE FROM asks WHERE asked_at < ?", [nanos(cutoff)])?;
    let over = conn.execute(
        "DELETE FROM asks WHERE id IN (SELECT id FROM asks ORDER BY asked_at DESC, seq DESC, id DESC LIMIT -1 OFFSET ?)",
        [max as i64],
    )?;
    Ok(old + over)
}

/// A remembered answer.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Rule {
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub id: i64,
    pub question: String,
    pub answer: String,
    pub client: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub detail: Option<String>,
    pub created_at: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub uses: i64,
    pub last_used_at: Option<String>,
}

pub fn add_rule(
    conn: &Connection,
    question: &str,
    answer: &str,
    client: Option<&str>,
    detail: Option<&str>,
) -> rusqlite::Result<i64> {
    conn.execute(
        "INSERT INTO rules (question, answer, client, detail, created_at) VALUES (?, ?, ?, ?, ?)",
        params![question, answer, client, detail, nanos(SystemTime::now())],
    )?;
    let id = conn.last_insert_rowid();
    stamp_rules(conn);
    Ok(id)
}

pub fn rules(conn: &Connection) -> rusqlite::Result<Vec<Rule>> {
    let mut stmt = conn.prepare(
        "SELECT id, question, answer, client, detail, created_at, uses, last_used_at FROM rules ORDER BY id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Rule {
            id: r.get(0)?,
            question: r.get(1)?,
            answer: r.get(2)?,
            client: r.get(3)?,
            detail: r.get(4)?,
            created_at: rfc3339(r.get(5)?),
            uses: r.get(6)?,
            last_used_at: r.get::<_, Option<i64>>(7)?.map(rfc3339),
        })
    })?;
    rows.collect()
}

/// Removes a rule; false when there is none with that id.
pub fn remove_rule(conn: &Connection, id: i64) -> rusqlite::Result<bool> {
    let removed = conn.execute("DELETE FROM rules WHERE id = ?", [id])? > 0;
    stamp_rules(conn);
    Ok(removed)
}

/// The file beside the history that holds the rules' change counter, so a server
/// learns of a change with one read instead of a query (see [`super::rules`]).
pub fn rules_stamp(history: &Path) -> std::path::PathBuf {
    history.with_extension("rules-stamp")
}

/// Copies the change counter into the stamp after a change. Should this fail, a
/// server notices the change at its next start; a server that cannot read the stamp
/// asks the file each time.
/// The stamp's path, once written.
pub fn stamp_rules(conn: &Connection) -> Option<std::path::PathBuf> {
    let (Some(path), Ok(version)) = (conn.path(), rules_version(conn)) else { return None };
    let stamp = rules_stamp(Path::new(path));
    match std::fs::write(&stamp, version.to_le_bytes()) {
        Ok(()) => Some(stamp),
        Err(e) => {
            tracing::warn!("history: cannot write {}: {e}", stamp.display());
            None
        }
    }
}

/// The change counter as the stamp holds it, read from an open stamp.
pub fn stamped_rules_version(stamp: &std::fs::File) -> Option<i64> {
    use std::os::unix::fs::FileExt;
    let mut bytes = [0; 8];
    stamp.read_exact_at(&mut bytes, 0).ok()?;
    Some(i64::from_le_bytes(bytes))
}

pub fn rule_used(conn: &Connection, id: i64, at: SystemTime) -> rusqlite::Result<()> {
    conn.execute("UPDATE rules SET uses = uses + 1, last_used_at = ? WHERE id = ?", params![nanos(at), id])?;
    Ok(())
}

/// Counts a decision of the policy's rules, by their keys.
pub fn policy_used(conn: &Connection, keys: &[&str], at: i64) -> rusqlite::Result<()> {
    let mut bump = conn.prepare_cached(
        "INSERT INTO policy_uses (rule, uses, last_used_at) VALUES (?1, 1, ?2)
         ON CONFLICT(rule) DO UPDATE SET uses = uses + 1, last_used_at = max(last_used_at, ?2)",
    )?;
    for key in keys {
        bump.execute(params![key, at])?;
    }
    Ok(())
}

/// How often the policy's rule with `key` decided, and when last (RFC 3339); none
/// when never.
pub fn policy_uses(conn: &Connection, key: &str) -> rusqlite::Result<Option<(i64, String)>> {
    use rusqlite::OptionalExtension;
    conn.prepare_cached("SELECT uses, last_used_at FROM policy_uses WHERE rule = ?")?
        .query_row([key], |r| Ok((r.get(0)?, rfc3339(r.get(1)?))))
        .optional()
}

/// Bumped whenever a rule is added or removed, by any process.
pub fn rules_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.prepare_cached("SELECT value FROM meta WHERE key = 'rules'")?.query_row([], |r| r.get(0))
}

/// How many asks the history holds.
pub fn count(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT count(*) FROM asks", [], |r| r.get(0))
}

/// The schema version of a file.
pub fn version(conn: &Connection) -> rusqlite::Result<usize> {
    conn.pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0)).map(|v| v as usize)
}
