//! A rule of the policy in the person's words, the same in `userq rules list` and the
//! window's Rules view: where it holds, whose it is, how often it decided.

use user_questions_i18n::Text;

use super::reading::{Does, Explained, Why};
use super::remember::{Reach, Way};
use super::rules::{Origin, Rule, Verdict, What};

/// Where it holds: "everywhere", or its project, agent and session.
pub fn scope(rule: &Rule, text: &Text) -> String {
    let parts: Vec<String> = [
        rule.scope.project.as_ref().map(|p| p.display().to_string()),
        rule.scope.agent.clone(),
        rule.scope.session.as_ref().map(|s| text.tr_args("policy-scope-session", &[("id", s.into())])),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        text.tr("policy-scope-everywhere")
    } else {
        parts.join(", ")
    }
}

/// Whose it is: "yours", a project's file, "imported from codex".
pub fn origin(rule: &Rule, text: &Text) -> String {
    match &rule.origin {
        Origin::Yours => text.tr("policy-origin-yours"),
        Origin::Project(f) => f.display().to_string(),
        Origin::Import(a) => text.tr_args("policy-origin-import", &[("agent", a.into())]),
    }
}

/// How often it decided and when last (`uses` with the time, RFC 3339), or "not used yet".
pub fn uses(used: Option<&(i64, String)>, text: &Text) -> String {
    match used {
        Some((_, at)) => {
            let count = count(used, text);
            text.tr_args("policy-last-used", &[("uses", (&count).into()), ("when", at.into())])
        }
        None => text.tr("policy-unused"),
    }
}

/// The verdict: "allow", "ask", "deny".
pub fn verdict(v: Verdict, text: &Text) -> String {
    text.tr(match v {
        Verdict::Allow => "policy-verdict-allow",
        Verdict::Ask => "policy-verdict-ask",
        Verdict::Deny => "policy-verdict-deny",
    })
}

/// How often it decided, without when: "used 3 times", or "not used yet".
pub fn count(used: Option<&(i64, String)>, text: &Text) -> String {
    match used {
        Some((n, _)) => text.tr_args("rules-uses", &[("count", (*n as u64).into())]),
        None => text.tr("policy-unused"),
    }
}

/// A way to remember an Allow: what it allows and where, "“cargo test …” with any
/// arguments, in ~/src/shop".
pub fn way(way: &Way, text: &Text) -> String {
    let whats: Vec<String> = way.rules().iter().map(|r| allowed(r, text)).collect();
    let place = match way.reach {
        Reach::Session => text.tr("remember-in-session"),
        Reach::Project => {
            let project = way.entries.first().and_then(|e| e.project.as_deref()).unwrap_or_default();
            let project = super::rules::shorten_home(project);
            text.tr_args("remember-in-project", &[("project", (&project).into())])
        }
        Reach::Everywhere => text.tr("remember-everywhere"),
    };
    let what = whats.join(if text.tag().starts_with("zh") { "、" } else { ", " });
    text.tr_args("remember-way", &[("what", (&what).into()), ("where", (&place).into())])
}

/// What an allow rule lets run, in the person's words.
fn allowed(rule: &Rule, text: &Text) -> String {
    let arg = |key, name, value: &str| text.tr_args(key, &[(name, value.into())]);
    match &rule.what {
        What::Command { words, exact: true } => arg("remember-command-exact", "command", &words.join(" ")),
        What::Command { words, exact: false } => arg("remember-command-prefix", "command", &words.join(" ")),
        What::ReadOnly => rule.what(),
        What::Read(p) => arg("remember-read", "path", p),
        What::Edit(p) => arg("remember-edit", "path", p),
        What::Fetch(d) => arg("remember-fetch", "domain", d),
        What::Mcp(t) if t.contains('/') => arg("remember-mcp-tool", "tool", t),
        What::Mcp(s) => arg("remember-mcp-server", "server", s),
    }
}

/// Why a part cannot be read with certainty (a code of [`user_questions_shell::Unreadable`]),
/// about `subject` where there is one: "eval runs text that cannot be read here".
pub fn unreadable(code: &str, subject: Option<&str>, text: &Text) -> String {
    let key = match code {
        "syntax" => "policy-unreadable-syntax",
        "dynamic-program" => "policy-unreadable-dynamic-program",
        "runs-text" => "policy-unreadable-runs-text",
        "defines-function" => "policy-unreadable-defines-function",
        "fed-to-interpreter" => "policy-unreadable-fed-to-interpreter",
        "changes-what-runs" => "policy-unreadable-changes-what-runs",
        "network" => "policy-unreadable-network",
        "dynamic-script" => "policy-unreadable-dynamic-script",
        "too-deep" => "policy-unreadable-too-deep",
        "too-long" => "policy-unreadable-too-long",
        "evaluates" => "policy-unreadable-evaluates",
        "dynamic-input" => "policy-unreadable-dynamic-input",
        _ => "policy-unreadable-unknown",
    };
    text.tr_args(key, &[("subject", subject.unwrap_or_default().into())])
}

/// What a part does, in the person's words: "deletes files", "writes outside the
/// project: ~/.bashrc".
pub fn does(part: &Explained, text: &Text) -> String {
    let subject = part.subject.as_deref().unwrap_or_default();
    match part.does {
        Does::Unreadable => unreadable(part.unreadable.as_deref().unwrap_or_default(), part.subject.as_deref(), text),
        Does::Writes => text.tr_args("part-writes", &[("subject", subject.into())]),
        Does::WritesOutside => text.tr_args("part-writes-outside", &[("subject", subject.into())]),
        other => text.tr(match other {
            Does::Reads => "part-reads",
            Does::Deletes => "part-deletes",
            Does::Root => "part-root",
            Does::Installs => "part-installs",
            Does::Network => "part-network",
            _ => "part-unknown",
        }),
    }
}

/// Why a part reached the person (or did not): "no rule allows it", "``ask `git
/// push` `` says ask".
pub fn why(part: &Explained, text: &Text) -> String {
    let rule = part.rule.as_deref().unwrap_or_default();
    let key = match part.why {
        Why::Allowed => "why-allowed",
        Why::Denied => "why-denied",
        Why::AskRule => "why-ask-rule",
        Why::MayFit => "why-may-fit",
        Why::NoRule => "why-no-rule",
        Why::Unreadable => "why-unreadable",
    };
    text.tr_args(key, &[("rule", rule.into())])
}
