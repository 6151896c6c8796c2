//! A plan's annotations kept with the version of the plan they were made on, so the
//! next version can show each one addressed or still open. The window writes them when
//! a reviewer sends a plan's review; they go when the asks of their time go
//! (`userq history --clear`, the retention).

use std::time::SystemTime;

use rusqlite::{params, Connection, OptionalExtension};

use super::store::nanos;
use crate::review::plan::Annotation;

/// Who made a plan: its session, else its agent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Author {
    pub session: Option<String>,
    pub agent: Option<String>,
}

/// Keeps `annotations` made on `plan` by `author`'s reviewer.
pub fn add(
    conn: &Connection,
    author: &Author,
    plan: &str,
    annotations: &[Annotation],
    at: SystemTime,
) -> rusqlite::Result<()> {
    let json = serde_json::to_string(annotations).expect("annotations serialize");
    conn.execute(
        "INSERT INTO annotations (made_at, session, agent_id, plan, annotations) VALUES (?, ?, ?, ?, ?)",
        params![nanos(at), author.session, author.agent, plan, json],
    )?;
    Ok(())
}

/// The last annotations made on `plan` by `author`'s reviewer (by session when it has
/// one, else by agent).
pub fn of(conn: &Connection, author: &Author, plan: &str) -> rusqlite::Result<Vec<Annotation>> {
    let json: Option<String> = match &author.session {
        Some(session) => conn.query_row(
            "SELECT annotations FROM annotations WHERE session = ? AND plan = ? ORDER BY made_at DESC, id DESC LIMIT 1",
            params![session, plan],
            |r| r.get(0),
        ),
        None => conn.query_row(
            "SELECT annotations FROM annotations WHERE agent_id IS ? AND plan = ? ORDER BY made_at DESC, id DESC LIMIT 1",
            params![author.agent, plan],
            |r| r.get(0),
        ),
    }
    .optional()?;
    Ok(json.and_then(|j| serde_json::from_str(&j).ok()).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;
    use crate::history::store;
    use crate::review::plan::Kind;

    #[test]
    fn the_last_annotations_of_a_plan_by_its_session_and_they_go_with_the_history() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::history::open_for_writing(&dir.path().join("h.sqlite3")).unwrap();
        let note =
            |text: &str| Annotation { lines: (1, 1), quote: "Plan".into(), kind: Kind::Comment, text: text.into() };
        let s1 = Author { session: Some("s1".into()), agent: Some("a".into()) };
        let at = |secs| UNIX_EPOCH + Duration::from_secs(secs);
        add(&conn, &s1, "# Plan", &[note("first")], at(10)).unwrap();
        add(&conn, &s1, "# Plan", &[note("second")], at(20)).unwrap();
        add(&conn, &s1, "# Other", &[note("other plan")], at(30)).unwrap();
        let s2 = Author { session: Some("s2".into()), agent: Some("a".into()) };
        assert_eq!(of(&conn, &s1, "# Plan").unwrap(), [note("second")]);
        assert_eq!(of(&conn, &s2, "# Plan").unwrap(), []);
        let agent_only = Author { session: None, agent: Some("a".into()) };
        add(&conn, &agent_only, "# Plan", &[note("by agent")], at(40)).unwrap();
        assert_eq!(of(&conn, &agent_only, "# Plan").unwrap(), [note("by agent")]);
        store::clear(&conn, Some(at(25))).unwrap();
        assert_eq!(of(&conn, &s1, "# Plan").unwrap(), []);
        assert_eq!(of(&conn, &s1, "# Other").unwrap(), [note("other plan")]);
    }
}
