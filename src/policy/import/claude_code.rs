//! Claude Code's permission rules (its settings' `permissions.allow`, `ask`, `deny`;
//! its permissions documentation):
//! `Bash` alone, `Bash(cmd)` exactly, `Bash(prefix:*)` and `Bash(prefix *)` as a
//! prefix of words, `Read(path)` and `Edit(path)` (also `Write`, `MultiEdit`),
//! `WebFetch(domain:host)`, and `mcp__server`, `mcp__server__tool`, `mcp__server__*`.
//! A rule this policy cannot say with the same meaning is left out, and said: a `*`
//! spanning words in the middle of a command, a path relative to the settings file,
//! a tool the policy has no kind for.

use serde_json::Value;

use super::{Imported, LeftOut};
use crate::policy::rules::{Entry, Verdict};

/// Claude Code's `permissions` in one settings file.
pub(super) fn read(settings: &Value) -> Imported {
    let lists = Verdict::ALL.map(|v| (v, format!("/permissions/{}", v.key())));
    let lists: Vec<(&str, Verdict)> = lists.iter().map(|(v, p)| (p.as_str(), *v)).collect();
    super::string_lists(settings, &lists, claude_rule, |rule| format!("{rule} is denied in Claude Code's settings"))
}

fn claude_rule(rule: &str) -> Result<Entry, LeftOut> {
    let (tool, content) = match rule.split_once('(') {
        Some((tool, rest)) => (tool, Some(rest.strip_suffix(')').ok_or(LeftOut::NotARule)?)),
        None => (rule, None),
    };
    let mut entry = Entry::default();
    match (tool, content) {
        ("Bash", None) => entry.command = Some("*".into()),
        ("Bash", Some(c)) => {
            let (words, prefix) = match c.strip_suffix(":*").or_else(|| c.strip_suffix(" *")) {
                Some(p) => (p, true),
                None => (c, false),
            };
            if words.contains('*') {
                return Err(LeftOut::SpansWords);
            }
            let words: Vec<&str> = words.split_whitespace().collect();
            entry = super::command(&words, prefix)?;
        }
        ("Read" | "Edit" | "Write" | "MultiEdit", Some(p)) => {
            let path = match p {
                p if p.starts_with("//") => p[1..].to_owned(),
                p if p.starts_with("~/") || p == "~" => p.to_owned(),
                p if p.starts_with('/') => return Err(LeftOut::RelativeToSettings),
                p => p.trim_start_matches("./").to_owned(),
            };
            if tool == "Read" {
                entry.read = Some(path);
            } else {
                entry.edit = Some(path);
            }
        }
        ("WebFetch", Some(c)) => match c.strip_prefix("domain:") {
            Some(d) => entry.fetch = Some(d.to_owned()),
            None => return Err(LeftOut::FetchNotDomain),
        },
        (t, None) if t.starts_with("mcp__") => {
            let rest = &t["mcp__".len()..];
            entry.mcp = Some(match rest.split_once("__") {
                Some((server, tool)) => format!("{server}/{tool}"),
                None => rest.to_owned(),
            });
        }
        _ => return Err(LeftOut::NoKind),
    }
    Ok(entry)
}
