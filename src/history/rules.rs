//! Remembered answers: a rule answers, at once, a question the person has already
//! decided. It fits only a one-question ask from its client (the asking connection's
//! `client.name`, see [`Ask::client`]; every client when the rule names none) with the
//! same question text and the same detail (a permission for another command is
//! another question), whose options still include the remembered label; never a plan
//! review, nor a question a team decides. Anything else goes on down the waterfall untouched.
//! The recorder asks the rules first, before it hands an ask on: a rule's answer is
//! recorded like any other, and costs no level of the waterfall of its own.
//! Rules added or removed by any process (`userq rules`) apply from the next ask on:
//! a counter the file bumps on each change is read before each ask, from the stamp
//! beside the file that each change copies it to (one read, where a query would cost
//! more than the rest of the ask), or from the file when there is no stamp.

use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use rusqlite::Connection;

use super::journal::{EntryRef, Journal};
use super::store::{self, Rule};
use crate::model::{Answer, AnswerItem, Kind, Question};
use crate::Ask;

pub struct Rules {
    conn: Mutex<Connection>,
    stamp: Option<std::fs::File>,
    cache: Mutex<(Option<i64>, Arc<[Rule]>)>,
    journal: Arc<Journal>,
}

impl Rules {
    /// The rules of the history `conn` has open.
    pub fn new(conn: Connection, journal: Arc<Journal>) -> Self {
        // The counter as the file has it now, so the stamp is right from here on.
        let stamp = store::stamp_rules(&conn).and_then(|stamp| std::fs::File::open(stamp).ok());
        Self { conn: Mutex::new(conn), stamp, cache: Mutex::new((None, Arc::new([]))), journal }
    }

    /// The remembered answer to this ask, if a rule fits: the use is queued in the
    /// journal (written with the ask's ending), and the ask says the rule gave it.
    pub fn answer(&self, ask: &Ask) -> Option<Answer> {
        // An ask no rule can answer costs no look at the rules.
        let q = answerable(ask)?;
        let rules = self.current();
        let rule = fitting(ask, q, &rules)?;
        ask.note_answered_by(&super::decider::Decider::Rule(rule.id).to_string());
        // Written by the write that takes the ask's ending, queued after it.
        let _ = self.journal.queue(&EntryRef::RuleUsed { id: rule.id, at: store::nanos(SystemTime::now()) });
        Some(Answer::new(vec![AnswerItem::selected(&q.id, &[&rule.answer])]))
    }

    /// The rules now, read again only when some process changed them.
    fn current(&self) -> Arc<[Rule]> {
        let mut cache = self.cache.lock().unwrap();
        let stamped = self.stamp.as_ref().and_then(store::stamped_rules_version);
        if stamped.is_some() && stamped == cache.0 {
            return Arc::clone(&cache.1);
        }
        let conn = self.conn.lock().unwrap();
        match store::rules_version(&conn) {
            Ok(v) if cache.0 == Some(v) => {}
            Ok(v) => {
                if let Ok(rules) = store::rules(&conn) {
                    *cache = (Some(v), rules.into());
                }
            }
            Err(e) => tracing::warn!("history: cannot read the rules: {e}"),
        }
        Arc::clone(&cache.1)
    }
}

/// The question of an ask a rule may answer: its only one, of a kind that remembers.
fn answerable(ask: &Ask) -> Option<&Question> {
    let [q] = ask.request().questions.as_slice() else { return None };
    if ask.needs_team() {
        // A team decides it: a remembered answer is one person's.
        return None;
    }
    Kind::of(q).remembers().then_some(q)
}

/// The rule that answers `q`, the question of this ask, if one fits.
fn fitting<'r>(ask: &Ask, q: &Question, rules: &'r [Rule]) -> Option<&'r Rule> {
    let client = ask.client();
    rules.iter().find(|r| {
        r.question == q.question
            && r.detail == q.detail
            && r.client.as_deref().is_none_or(|c| Some(c) == client)
            && q.has_option(&r.answer)
    })
}
