//! What rules not yet kept would have done: how many past permission questions the
//! rules in force left to the person that they would have decided. `userq rules …
//! --dry-run` and the window's ways to remember an Allow say it before anything is
//! saved. A past question's action is its intent's `action`, or, for one asked before
//! questions carried it, the command in its detail's `sh` block. The folders past
//! questions came from are where a door looks for projects' own rules files.

use std::collections::hash_map::{Entry as Slot, HashMap};
use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::store::{self, Query};
use crate::model;
use crate::policy::{Action, Kind, Policy, Rule, Verdict, ACTION};
use crate::review::shown;

/// For each set of `candidates`, how many of the last `limit` asks (every ask when
/// `None`) were permission questions the rules in force (from `config`) left to the
/// person and that set, added, would have decided. A folder whose rules cannot be
/// read counts none of its questions.
pub fn would_have_decided(
    conn: &Connection,
    config: &Path,
    candidates: &[Vec<Rule>],
    limit: Option<u64>,
) -> rusqlite::Result<Vec<usize>> {
    let entries = store::list(conn, &Query { limit, ..Query::default() })?;
    // The rules in force, read once per folder the questions came from.
    let mut policies: HashMap<Option<PathBuf>, Option<Policy>> = HashMap::new();
    let mut counts = vec![0; candidates.len()];
    for action in entries.iter().filter_map(action_of) {
        let policy = match policies.entry(action.cwd.clone()) {
            Slot::Occupied(known) => known.into_mut(),
            Slot::Vacant(new) => new.insert(Policy::load(config, action.cwd.as_deref()).ok()),
        };
        let Some(policy) = policy else { continue };
        // Read once, judged against the rules in force and each set added.
        let read = match &action.kind {
            Kind::Command(command) => Some(user_questions_shell::read(command)),
            _ => None,
        };
        if policy.decide_read(&action, read.as_ref()).decision != Verdict::Ask {
            continue;
        }
        let kept = policy.rules.len();
        for (count, rules) in counts.iter_mut().zip(candidates) {
            policy.rules.extend(rules.iter().cloned());
            *count += usize::from(policy.decide_read(&action, read.as_ref()).decision != Verdict::Ask);
            policy.rules.truncate(kept);
        }
    }
    Ok(counts)
}

/// The action a past permission question was about, where and by whom.
fn action_of(e: &store::Entry) -> Option<Action> {
    let q = e.request["questions"].as_array().and_then(|qs| qs.first())?;
    if q["intent"]["kind"].as_str().map(model::Kind::of_tag) != Some(model::Kind::Permission) {
        return None;
    }
    let kind = match serde_json::from_value::<Kind>(q["intent"][ACTION].clone()) {
        Ok(kind) => kind,
        Err(_) => Kind::Command(q["detail"].as_str().and_then(|d| shown::unfenced("sh", d))?),
    };
    let context = e.context.as_ref().or(e.request.get("context"));
    let text = |k: &str| context.and_then(|c| c[k].as_str()).map(str::to_owned);
    let agent = text("source").as_deref().and_then(crate::model::AgentName::shown_as);
    Some(Action {
        kind,
        cwd: text("project").map(PathBuf::from),
        agent: agent.map(|a| a.name.to_owned()),
        session: text("session"),
    })
}

/// The folders the last `limit` asks came from (their context's `project`), newest
/// first, each once.
pub fn folders(conn: &Connection, limit: u64) -> rusqlite::Result<Vec<PathBuf>> {
    let mut folders: Vec<PathBuf> = Vec::new();
    for e in store::list(conn, &Query { limit: Some(limit), ..Query::default() })? {
        let context = e.context.as_ref().or(e.request.get("context"));
        let Some(folder) = context.and_then(|c| c["project"].as_str()).map(PathBuf::from) else { continue };
        if !folders.contains(&folder) {
            folders.push(folder);
        }
    }
    Ok(folders)
}
