//! What each part of a request would do, in fixed words a door shows beside it: a
//! reading from the policy's own tables (never a model's guess), and why the part
//! reached the person. A permission question carries them as its intent's `parts`
//! (docs/protocol.md), each door words them in the person's language.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{known, Action, By, Decision, Kind, Verdict};
use user_questions_shell::{Part, Run};

/// The key of a permission intent's parts ([`Explained`]).
pub const PARTS: &str = "parts";

/// The parts a permission question's intent carries; none when it carries none.
pub fn of(intent: &crate::model::Intent) -> Vec<Explained> {
    intent.extra.get(PARTS).and_then(|v| serde_json::from_value(v.clone()).ok()).unwrap_or_default()
}

/// What a part does, by the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Does {
    /// Only reads: in the built-in set `read-only`.
    Reads,
    Deletes,
    /// Runs as root.
    Root,
    /// Installs packages.
    Installs,
    /// Reaches the network.
    Network,
    /// Writes the file named.
    Writes,
    /// Writes a file outside the project.
    WritesOutside,
    /// Cannot be read with certainty (the subject says why).
    Unreadable,
    /// Nothing the tables know.
    Unknown,
}

/// Why a part reached the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Why {
    /// A rule allows it: it did not.
    Allowed,
    /// A rule denies it.
    Denied,
    /// A rule says ask (the rule names it).
    AskRule,
    /// A deny or an ask may fit a word known only when it runs.
    MayFit,
    /// No rule allows it.
    NoRule,
    /// It cannot be read with certainty.
    Unreadable,
}

/// One part, read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explained {
    pub text: String,
    pub does: Does,
    /// The file written, or the name a part that cannot be read is about (`eval`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// Why it cannot be read: a code of [`user_questions_shell::Unreadable`] (`runs-text`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unreadable: Option<String>,
    pub why: Why,
    /// The rule that decided it, as a verdict names it (``ask `git push` ``).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// Programs (and subcommands) whose effect a person weighs, by what they do.
const DOES: &[(&str, &[&str], Does)] = &[
    ("rm", &[], Does::Deletes),
    ("rmdir", &[], Does::Deletes),
    ("unlink", &[], Does::Deletes),
    ("shred", &[], Does::Deletes),
    ("git", &["clean"], Does::Deletes),
    ("sudo", &[], Does::Root),
    ("doas", &[], Does::Root),
    ("su", &[], Does::Root),
    ("pkexec", &[], Does::Root),
    ("apt", &["install"], Does::Installs),
    ("apt-get", &["install"], Does::Installs),
    ("dnf", &["install"], Does::Installs),
    ("brew", &["install"], Does::Installs),
    ("npm", &["install", "i", "add", "ci"], Does::Installs),
    ("pnpm", &["install", "i", "add"], Does::Installs),
    ("yarn", &["add", "install"], Does::Installs),
    ("pip", &["install"], Does::Installs),
    ("pip3", &["install"], Does::Installs),
    ("cargo", &["install", "add"], Does::Installs),
    ("gem", &["install"], Does::Installs),
    ("curl", &[], Does::Network),
    ("wget", &[], Does::Network),
    ("ssh", &[], Does::Network),
    ("scp", &[], Does::Network),
    ("rsync", &[], Does::Network),
    ("nc", &[], Does::Network),
    ("git", &["push", "pull", "fetch", "clone"], Does::Network),
];

/// Every part of a permission's action: what it does and why it reached the person.
pub fn explain(action: &Action, decided: &Decision) -> Vec<Explained> {
    let project = action.cwd.as_deref().map(crate::place::project_of);
    decided
        .parts
        .iter()
        .map(|judged| {
            let part = &judged.part;
            let unreadable = match part {
                Some(Part::Unreadable { why, .. }) => Some(why.code().to_owned()),
                _ => None,
            };
            let (does, subject) = match (part, &action.kind) {
                (Some(part), _) => does(part, project.as_deref(), action.cwd.as_deref()),
                (None, Kind::Edit(_)) => written(&judged.text, project.as_deref(), action.cwd.as_deref()),
                (None, Kind::Fetch(_)) => (Does::Network, None),
                (None, Kind::Read(_)) => (Does::Reads, None),
                (None, _) => (Does::Unknown, None),
            };
            let (why, rule) = match &judged.by {
                By::Rule { source, .. } if judged.decision == Verdict::Deny => (Why::Denied, Some(source.rule.clone())),
                By::Rule { source, .. } if judged.decision == Verdict::Ask => (Why::AskRule, Some(source.rule.clone())),
                By::Rule { source, .. } | By::ReadOnly(source) => (Why::Allowed, Some(source.rule.clone())),
                By::MaybeRule(source) => (Why::MayFit, Some(source.rule.clone())),
                By::NoRule => (Why::NoRule, None),
                By::Unreadable { .. } => (Why::Unreadable, None),
            };
            Explained { text: judged.text.clone(), does, subject, unreadable, why, rule }
        })
        .collect()
}

/// What one part of a command does.
fn does(part: &Part, project: Option<&Path>, cwd: Option<&Path>) -> (Does, Option<String>) {
    match part {
        Part::Run(run) => (run_does(run), None),
        Part::Write { path, .. } => match path.literal() {
            Some(p) => written(p, project, cwd),
            None => (Does::Writes, None),
        },
        Part::Read { path, .. } => (Does::Reads, Some(path.clone())),
        Part::Unreadable { why, .. } => (Does::Unreadable, why.subject().map(str::to_owned)),
    }
}

fn run_does(run: &Run) -> Does {
    let Some(name) = run.name() else { return Does::Unknown };
    let sub = run.argv.get(1).and_then(|w| w.literal());
    let known =
        DOES.iter().find(|(n, subs, _)| *n == name && (subs.is_empty() || sub.is_some_and(|s| subs.contains(&s))));
    match known {
        Some((_, _, does)) => *does,
        None if known::judge(run) == known::Judgement::ReadOnly => Does::Reads,
        None => Does::Unknown,
    }
}

/// A file written: outside the project, or in it.
fn written(path: &str, project: Option<&Path>, cwd: Option<&Path>) -> (Does, Option<String>) {
    let full = super::rules::expand_home(path);
    let full = match cwd {
        Some(cwd) if !Path::new(&full).is_absolute() => cwd.join(&full),
        _ => full.into(),
    };
    let inside = project.is_some_and(|p| full.starts_with(p)) || full.starts_with("/dev/null");
    let shown = super::rules::shorten_home(&full.display().to_string());
    (if inside || project.is_none() { Does::Writes } else { Does::WritesOutside }, Some(shown))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{rules, Origin, Policy};

    fn explained(command: &str, rules_toml: &str) -> Vec<(String, Does, Option<String>, Why)> {
        let policy =
            Policy { rules: rules::parse(rules_toml, Path::new("r.toml"), &Origin::Yours).unwrap(), untrusted: None };
        let action = Action {
            kind: Kind::Command(command.into()),
            cwd: Some("/home/me/shop".into()),
            agent: None,
            session: None,
        };
        let decided = policy.decide(&action);
        explain(&action, &decided).into_iter().map(|e| (e.text, e.does, e.subject, e.why)).collect()
    }

    #[test]
    fn each_part_says_what_it_does_and_why_it_reached_the_person() {
        let rules = "[[allow]]\nread-only = true\n[[ask]]\ncommand = \"git push\"\n";
        let got = explained("cat a | sudo tee /etc/hosts && rm -rf target; git push; make; echo x > ~/.bashrc", rules);
        let want = [
            ("cat a", Does::Reads, None, Why::Allowed),
            ("sudo tee /etc/hosts", Does::Root, None, Why::NoRule),
            ("rm -rf target", Does::Deletes, None, Why::NoRule),
            ("git push", Does::Network, None, Why::AskRule),
            ("make", Does::Unknown, None, Why::NoRule),
            ("echo x", Does::Reads, None, Why::Allowed),
            ("> ~/.bashrc", Does::WritesOutside, Some("/home/me/.bashrc"), Why::NoRule),
        ];
        let got: Vec<_> = got.iter().map(|(t, d, s, w)| (t.as_str(), *d, s.as_deref(), *w)).collect();
        assert_eq!(got[..6], want[..6]);
        // The file as the person's home names it, wherever that is here.
        assert_eq!((got[6].0, got[6].1, got[6].3), (want[6].0, want[6].1, want[6].3));
        assert!(got[6].2.is_some_and(|s| s.ends_with(".bashrc")), "{:?}", got[6]);
    }

    #[test]
    fn what_cannot_be_read_says_why() {
        let got = explained("eval \"$X\"; npm install left-pad > log.txt", "");
        assert_eq!((got[0].1, got[0].2.as_deref(), got[0].3), (Does::Unreadable, Some("eval"), Why::Unreadable));
        assert_eq!((got[1].1, got[1].3), (Does::Installs, Why::NoRule));
        assert_eq!((got[2].1, got[2].2.as_deref()), (Does::Writes, Some("/home/me/shop/log.txt")));
    }
}
