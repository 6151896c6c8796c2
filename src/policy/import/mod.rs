//! An agent's own allow and deny lists as rules of the policy, so a person keeps what
//! they already decided (`userq rules import`): Claude Code's permission rules,
//! Codex's execpolicy rules, Gemini CLI's policy files and settings, OpenCode's
//! `permission`. Each agent's own reading is kept where the policy can say it; where
//! the policy would read a rule with another meaning, the rule is left out, with why
//! ([`LeftOut`]), never imported with a wider one. Where the agents rank their rules
//! (Gemini CLI's priorities, OpenCode's last match), the policy's own order applies
//! after the import: a deny beats an ask beats an allow, which never allows more.

mod claude_code;
mod codex;
mod gemini;
mod opencode;

use std::path::{Path, PathBuf};

use super::rules::{Entry, Verdict};

/// The agents whose lists can be imported, by their command-line names.
pub const FROM: [&str; 4] = ["claude-code", "codex", "gemini", "opencode"];

/// What an agent's settings give the policy.
#[derive(Debug, Default, PartialEq)]
pub struct Imported {
    pub rules: Vec<(Verdict, Entry)>,
    /// Each rule left out, as the agent wrote it, with why.
    pub left_out: Vec<(String, LeftOut)>,
}

impl Imported {
    fn add(&mut self, verdict: Verdict, mut entry: Entry, agent: &str, project: Option<&str>) {
        entry.project = project.map(str::to_owned);
        entry.from = Some(agent.to_owned());
        self.rules.push((verdict, entry));
    }

    fn leave(&mut self, rule: impl Into<String>, why: LeftOut) {
        self.left_out.push((rule.into(), why));
    }

    fn extend(&mut self, other: Imported) {
        self.rules.extend(other.rules);
        self.left_out.extend(other.left_out);
    }
}

/// Why a rule is left out; each is said in the person's language
/// (`policy-left-out-<key>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOut {
    /// A `*` in the middle of a command spans words there; it matches within one
    /// word here.
    SpansWords,
    EmptyCommand,
    /// Claude Code reads `/path` relative to its settings file.
    RelativeToSettings,
    FetchNotDomain,
    /// A tool the policy has no kind of action for.
    NoKind,
    /// Not in the shape the agent reads.
    NotARule,
    /// A regular expression: the policy matches words, not patterns over text.
    Pattern,
    /// The rule holds only in some of the agent's modes.
    SomeModes,
    /// The agent's default for what no other rule matches; here the person decides that.
    Default,
    /// A `*` the agent reads as itself, a wildcard here.
    LiteralStar,
    /// More alternatives than an import expands.
    TooMany,
    /// Every tool at once.
    Everything,
    /// A `?` wildcard, which the policy has not.
    OneCharacter,
    /// A word with a space in it (one argument), which a rule's words cannot say.
    SpaceInWord,
    /// A pattern over a whole path or address, where `*` crosses folders.
    WholeText,
    /// It holds for one of the agent's own sub-agents.
    OneAgent,
    /// An allow next to a rule left out that names the same thing: the left-out rule
    /// may be the exception the agent carved from it (a deny of `git push --force`
    /// under an allow of `git push`), so the allow alone would allow more.
    Widens,
}

impl LeftOut {
    /// The message that says it.
    pub fn message(self) -> &'static str {
        match self {
            Self::SpansWords => "policy-left-out-spans-words",
            Self::EmptyCommand => "policy-left-out-empty-command",
            Self::RelativeToSettings => "policy-left-out-relative-to-settings",
            Self::FetchNotDomain => "policy-left-out-fetch-not-domain",
            Self::NoKind => "policy-left-out-no-kind",
            Self::NotARule => "policy-left-out-not-a-rule",
            Self::Pattern => "policy-left-out-pattern",
            Self::SomeModes => "policy-left-out-some-modes",
            Self::Default => "policy-left-out-default",
            Self::LiteralStar => "policy-left-out-literal-star",
            Self::TooMany => "policy-left-out-too-many",
            Self::Everything => "policy-left-out-everything",
            Self::OneCharacter => "policy-left-out-one-character",
            Self::SpaceInWord => "policy-left-out-space-in-word",
            Self::WholeText => "policy-left-out-whole-text",
            Self::OneAgent => "policy-left-out-one-agent",
            Self::Widens => "policy-left-out-widens",
        }
    }
}

/// A file of an agent's own rules that cannot be read at all.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}: {why}")]
pub struct ImportError {
    pub file: PathBuf,
    pub why: String,
}

/// The files `agent` keeps its rules in: the person's own (under `home`), or with
/// `project` that project's. Each exists; in the order the agent reads them.
pub fn files(agent: &str, home: &Path, project: Option<&Path>) -> Vec<PathBuf> {
    let candidates: Vec<PathBuf> = match (agent, project) {
        ("claude-code", None) => vec![home.join(".claude/settings.json")],
        ("claude-code", Some(p)) => vec![p.join(".claude/settings.json"), p.join(".claude/settings.local.json")],
        ("codex", None) => in_folder(&home.join(".codex/rules"), "rules"),
        ("codex", Some(p)) => in_folder(&p.join(".codex/rules"), "rules"),
        ("gemini", None) => {
            let mut files = vec![home.join(".gemini/settings.json")];
            files.extend(in_folder(&home.join(".gemini/policies"), "toml"));
            files
        }
        ("gemini", Some(p)) => {
            let mut files = vec![p.join(".gemini/settings.json")];
            files.extend(in_folder(&p.join(".gemini/policies"), "toml"));
            files
        }
        ("opencode", None) => ["config.json", "opencode.json", "opencode.jsonc"]
            .iter()
            .map(|f| home.join(".config/opencode").join(f))
            .collect(),
        ("opencode", Some(p)) => {
            ["opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc"]
                .iter()
                .map(|f| p.join(f))
                .collect()
        }
        _ => Vec::new(),
    };
    candidates.into_iter().filter(|f| f.is_file()).collect()
}

/// The files in `dir` ending in `.ext`, by name.
fn in_folder(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

/// The rules in one of `agent`'s files; `project`: the folder the file belongs to
/// (its rules hold there), `None` for the person's own.
pub fn read(agent: &str, file: &Path, text: &str, project: Option<&str>) -> Result<Imported, ImportError> {
    let error = |why: String| ImportError { file: file.to_owned(), why };
    let json = || {
        jsonc_parser::parse_to_serde_value::<serde_json::Value>(text, &Default::default())
            .map_err(|e| error(e.to_string()))
    };
    let rules = match agent {
        "claude-code" => claude_code::read(&json()?),
        "codex" => codex::read(text).map_err(error)?,
        "gemini" if file.extension().is_some_and(|x| x == "toml") => gemini::read_policy(text).map_err(error)?,
        "gemini" => gemini::read_settings(&json()?),
        "opencode" => opencode::read(&json()?),
        other => return Err(error(format!("{other} is not an agent whose rules can be imported"))),
    };
    let mut imported = Imported::default();
    for (verdict, entry) in rules.rules {
        imported.add(verdict, entry, agent, project);
    }
    imported.left_out = rules.left_out;
    Ok(imported)
}

/// Every file of `agent`'s rules, read; the first that cannot be read is the error.
pub fn all(agent: &str, home: &Path, project: Option<&Path>) -> Result<Imported, ImportError> {
    let shown = project.map(|p| p.display().to_string());
    let mut imported = Imported::default();
    for file in files(agent, home, project) {
        let text =
            std::fs::read_to_string(&file).map_err(|e| ImportError { file: file.clone(), why: e.to_string() })?;
        // A file `userq setup` wrote (Gemini CLI's policy that sends every tool to
        // the hook) is this product's own, not the person's rules.
        if text.starts_with(OWN_FILE) {
            continue;
        }
        imported.extend(read(agent, &file, &text, shown.as_deref())?);
    }
    imported.drop_widening();
    Ok(imported)
}

/// How a file `userq setup` writes for an agent begins.
pub const OWN_FILE: &str = "# Written by `userq setup";

impl Imported {
    /// Leaves out every allow whose subject a left-out rule names too: without that
    /// rule, the allow could allow what the agent refused.
    fn drop_widening(&mut self) {
        let left: Vec<String> = self.left_out.iter().map(|(text, _)| text.to_lowercase()).collect();
        let mut widening = Vec::new();
        self.rules.retain(|(verdict, entry)| {
            let subject = [&entry.command, &entry.read, &entry.edit, &entry.fetch, &entry.mcp]
                .into_iter()
                .flatten()
                .next()
                .map(|s| s.trim_end_matches('*').trim().to_lowercase())
                .unwrap_or_default();
            let keep = *verdict != Verdict::Allow || !left.iter().any(|t| t.contains(&subject));
            if !keep {
                widening.push(subject);
            }
            keep
        });
        self.left_out.extend(widening.into_iter().map(|s| (s, LeftOut::Widens)));
    }
}

/// Lists of rules written as strings in a JSON settings file: each list at its
/// pointer with its verdict, each string read by `entry`, a deny's reason said by
/// `denied` from the string as written.
fn string_lists(
    settings: &serde_json::Value,
    lists: &[(&str, Verdict)],
    entry: fn(&str) -> Result<Entry, LeftOut>,
    denied: fn(&str) -> String,
) -> Imported {
    let mut out = Imported::default();
    for (pointer, verdict) in lists {
        let list = settings.pointer(pointer).and_then(serde_json::Value::as_array);
        for written in list.into_iter().flatten().filter_map(serde_json::Value::as_str) {
            match entry(written) {
                Ok(mut rule) => {
                    if *verdict == Verdict::Deny {
                        rule.reason = Some(denied(written));
                    }
                    out.rules.push((*verdict, rule));
                }
                Err(why) => out.leave(written, why),
            }
        }
    }
    out
}

/// The kinds of action an agent's tool can be, for a rule on the whole tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Command,
    Read,
    Edit,
    Fetch,
}

impl Tool {
    /// A rule on every action of this kind.
    fn every(self) -> Entry {
        let mut e = Entry::default();
        match self {
            Tool::Command => e.command = Some("*".into()),
            Tool::Read => e.read = Some("/**".into()),
            Tool::Edit => e.edit = Some("/**".into()),
            Tool::Fetch => e.fetch = Some("*".into()),
        }
        e
    }
}

/// A command's words as a rule of the policy: `prefix` for "and any words after".
fn command(words: &[&str], prefix: bool) -> Result<Entry, LeftOut> {
    if words.is_empty() {
        return Err(LeftOut::EmptyCommand);
    }
    Ok(Entry { command: Some(words.join(" ")), exact: (!prefix).then_some(true), ..Entry::default() })
}

#[cfg(test)]
mod tests;
