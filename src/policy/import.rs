//! An agent's own allow and deny lists as rules of the policy, so a person keeps what
//! they already decided (`userq rules import`). Claude Code's permission rules
//! (its settings' `permissions.allow`, `ask`, `deny`; its permissions documentation):
//! `Bash` alone, `Bash(cmd)` exactly, `Bash(prefix:*)` and `Bash(prefix *)` as a
//! prefix of words, `Read(path)` and `Edit(path)` (also `Write`, `MultiEdit`),
//! `WebFetch(domain:host)`, and `mcp__server`, `mcp__server__tool`, `mcp__server__*`.
//! A rule this policy cannot say with the same meaning is left out, and said: a `*`
//! spanning words in the middle of a command, a path relative to the settings file,
//! a tool the policy has no kind for.

use serde_json::Value;

use super::rules::{Entry, Verdict};

/// What an agent's settings give the policy.
#[derive(Debug, Default, PartialEq)]
pub struct Imported {
    pub rules: Vec<(Verdict, Entry)>,
    /// Each rule left out, with why.
    pub left_out: Vec<(String, &'static str)>,
}

/// Claude Code's `permissions` in one settings file; `project`: the folder the file
/// belongs to (its rules hold there), `None` for the person's own settings.
pub fn claude_code(settings: &Value, project: Option<&str>) -> Imported {
    let mut out = Imported::default();
    for verdict in Verdict::ALL {
        let list = settings.pointer(&format!("/permissions/{}", verdict.key())).and_then(Value::as_array);
        for rule in list.into_iter().flatten().filter_map(Value::as_str) {
            match claude_rule(rule) {
                Ok(mut entry) => {
                    entry.project = project.map(str::to_owned);
                    entry.from = Some("claude-code".into());
                    if verdict == Verdict::Deny {
                        entry.reason = Some(format!("{rule} is denied in Claude Code's settings"));
                    }
                    out.rules.push((verdict, entry));
                }
                Err(why) => out.left_out.push((rule.to_owned(), why)),
            }
        }
    }
    out
}

fn claude_rule(rule: &str) -> Result<Entry, &'static str> {
    let (tool, content) = match rule.split_once('(') {
        Some((tool, rest)) => (tool, Some(rest.strip_suffix(')').ok_or("not a rule Claude Code reads")?)),
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
                return Err("a * inside a command spans words in Claude Code, and only a word here");
            }
            if words.trim().is_empty() {
                return Err("an empty command");
            }
            entry.command = Some(words.trim().to_owned());
            entry.exact = (!prefix).then_some(true);
        }
        ("Read" | "Edit" | "Write" | "MultiEdit", Some(p)) => {
            let path = match p {
                p if p.starts_with("//") => p[1..].to_owned(),
                p if p.starts_with("~/") || p == "~" => p.to_owned(),
                p if p.starts_with('/') => return Err("a path relative to the settings file"),
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
            None => return Err("a fetch rule other than domain:"),
        },
        (t, None) if t.starts_with("mcp__") => {
            let rest = &t["mcp__".len()..];
            entry.mcp = Some(match rest.split_once("__") {
                Some((server, tool)) => format!("{server}/{tool}"),
                None => rest.to_owned(),
            });
        }
        _ => return Err("a tool the policy has no kind for"),
    }
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn claude_codes_rules_become_the_policys() {
        let settings = json!({"permissions": {
            "allow": ["Bash(npm run test:*)", "Bash(git status)", "Bash(cargo build *)", "Read(./docs/**)",
                      "Edit(//etc/app/**)", "WebFetch(domain:docs.rs)", "mcp__github__get_issue", "Bash(npm * --save)",
                      "Glob(*)", "Edit(/src/**)"],
            "deny": ["Bash(git push:*)", "Read(~/.ssh/**)", "mcp__db"]
        }});
        let imported = claude_code(&settings, None);
        let shown: Vec<String> = imported
            .rules
            .iter()
            .map(|(v, e)| format!("{} {}", v.key(), toml_edit::ser::to_string(e).unwrap().trim().replace('\n', ", ")))
            .collect();
        assert_eq!(
            shown,
            [
                "allow command = \"npm run test\", from = \"claude-code\"",
                "allow command = \"git status\", exact = true, from = \"claude-code\"",
                "allow command = \"cargo build\", from = \"claude-code\"",
                "allow read = \"docs/**\", from = \"claude-code\"",
                "allow edit = \"/etc/app/**\", from = \"claude-code\"",
                "allow fetch = \"docs.rs\", from = \"claude-code\"",
                "allow mcp = \"github/get_issue\", from = \"claude-code\"",
                "deny command = \"git push\", reason = \"Bash(git push:*) is denied in Claude Code's settings\", from = \"claude-code\"",
                "deny read = \"~/.ssh/**\", reason = \"Read(~/.ssh/**) is denied in Claude Code's settings\", from = \"claude-code\"",
                "deny mcp = \"db\", reason = \"mcp__db is denied in Claude Code's settings\", from = \"claude-code\"",
            ]
        );
        let left: Vec<&str> = imported.left_out.iter().map(|(r, _)| r.as_str()).collect();
        assert_eq!(left, ["Bash(npm * --save)", "Glob(*)", "Edit(/src/**)"]);
    }
}
