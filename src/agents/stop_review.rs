//! A review of an agent's changes when it stops (Claude Code's `Stop` hook, set up with
//! `userq setup claude-code --review-changes`). The changes are the working tree
//! against what was last reviewed in this session (HEAD at first), untracked files
//! included: when nothing changed since, the agent stops as it would. Request changes
//! blocks the stop with the review as its `reason`, so the agent goes on working with
//! it; Approve, a dismissal or no server lets it stop. What was reviewed is remembered
//! (its tree, in the data folder), so the next stop asks only about what changed
//! since, and a stop after a review with nothing new ends the loop.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::{HookAsk, HookInput};
use crate::review::{self, git, Verdict};

/// The review to ask when the agent stops, or `None` when there is nothing to review
/// (no repository, no changes since the last review).
pub fn ask_from(hook: &HookInput) -> Option<HookAsk> {
    let repo = git::top(Path::new(hook.cwd()?))?;
    let remembered = Remembered::new(hook.text("session_id").unwrap_or("no-session"), &repo);
    let base = match remembered.as_ref().and_then(Remembered::read) {
        Some(tree) => tree,
        None => git::tree_of(&repo, "HEAD").ok()?,
    };
    let now = git::snapshot(&repo).ok()?;
    if now == base {
        return None;
    }
    let diff = git::diff(&repo, &base, &now).ok().filter(|d| !d.trim().is_empty())?;
    Some(HookAsk::new(vec![review::question(&diff)], move |answer| {
        let verdict = review::verdict(answer);
        if verdict != Verdict::None {
            if let Some(r) = &remembered {
                r.write(&now);
            }
        }
        match verdict {
            Verdict::Changes(reason) => Some(json!({"decision": "block", "reason": reason})),
            Verdict::Approved | Verdict::None => None,
        }
    }))
}

/// Where a session's last reviewed tree is kept: `<data>/reviews/<session>-<repo>`.
struct Remembered(PathBuf);

impl Remembered {
    fn new(session: &str, repo: &Path) -> Option<Self> {
        let safe = |s: &str| -> String {
            s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).take(80).collect()
        };
        let repo = safe(&repo.display().to_string());
        Some(Self(crate::paths::data_dir()?.join("reviews").join(format!("{}-{repo}", safe(session)))))
    }

    fn read(&self) -> Option<String> {
        std::fs::read_to_string(&self.0).ok().map(|s| s.trim().to_owned()).filter(|s| !s.is_empty())
    }

    fn write(&self, tree: &str) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(&self.0, tree);
    }
}
