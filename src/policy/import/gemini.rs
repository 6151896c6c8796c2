//! Gemini CLI's rules: its policy files (`~/.gemini/policies/*.toml`, `[[rule]]` with
//! `toolName`, `commandPrefix`, `mcpName`, `decision = "allow" | "deny" | "ask_user"`,
//! `modes`, `denyMessage`; its policy engine reference) and its settings'
//! `tools.allowed` and `tools.exclude` (`run_shell_command(git status)` allows that
//! prefix). A `commandPrefix` is a prefix of words (Gemini CLI requires a space or the
//! end after it), as a rule's command is here; `commandRegex` and `argsPattern` are
//! patterns over text, which the policy does not read.

use serde::Deserialize;
use serde_json::Value;

use super::{Imported, LeftOut, Tool};
use crate::policy::rules::{Entry, Verdict};

#[derive(Debug, Default, Deserialize)]
struct File {
    #[serde(default)]
    rule: Vec<Rule>,
}

#[derive(Debug, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tool_name: Option<OneOrMany>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mcp_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    command_prefix: Option<OneOrMany>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    command_regex: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    args_pattern: Option<String>,
    #[serde(default)]
    decision: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    modes: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subagent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    interactive: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    deny_message: Option<String>,
}

#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn all(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// One policy file.
pub(super) fn read_policy(text: &str) -> Result<Imported, String> {
    let file: File = toml_edit::de::from_str(text).map_err(|e| e.to_string())?;
    let mut out = Imported::default();
    for rule in file.rule {
        let shown = serde_json::to_string(&rule).unwrap_or_default();
        if let Err(why) = policy_rule(&rule, &mut out) {
            out.leave(shown, why);
        }
    }
    Ok(out)
}

fn policy_rule(rule: &Rule, out: &mut Imported) -> Result<(), LeftOut> {
    if rule.command_regex.is_some() || rule.args_pattern.is_some() {
        return Err(LeftOut::Pattern);
    }
    let in_default_mode = rule.modes.as_ref().is_none_or(|m| m.iter().any(|m| m == "default"));
    if !in_default_mode || rule.interactive == Some(false) {
        return Err(LeftOut::SomeModes);
    }
    if rule.subagent.is_some() {
        return Err(LeftOut::OneAgent);
    }
    let verdict = match rule.decision.as_str() {
        "allow" => Verdict::Allow,
        "ask_user" => Verdict::Ask,
        "deny" => Verdict::Deny,
        _ => return Err(LeftOut::NotARule),
    };
    let mut entries = Vec::new();
    let tools = rule.tool_name.as_ref().map(OneOrMany::all).unwrap_or_default();
    if let Some(server) = &rule.mcp_name {
        let tools = if tools.is_empty() { vec!["*"] } else { tools };
        entries.extend(tools.iter().map(|t| Entry { mcp: Some(format!("{server}/{t}")), ..Entry::default() }));
    } else {
        for tool in tools {
            match (tool, &rule.command_prefix) {
                ("run_shell_command", Some(prefixes)) => {
                    for prefix in prefixes.all() {
                        if prefix.contains('*') {
                            return Err(LeftOut::LiteralStar);
                        }
                        entries.push(super::command(&prefix.split_whitespace().collect::<Vec<_>>(), true)?);
                    }
                }
                (tool, _) => entries.push(whole_tool(tool)?),
            }
        }
    }
    if entries.is_empty() {
        return Err(LeftOut::NotARule);
    }
    for mut entry in entries {
        if verdict == Verdict::Deny {
            let otherwise = || format!("denied by Gemini CLI's policy ({})", describe(&entry));
            entry.reason = Some(rule.deny_message.clone().unwrap_or_else(otherwise));
        }
        out.rules.push((verdict, entry));
    }
    Ok(())
}

fn describe(entry: &Entry) -> String {
    [&entry.command, &entry.read, &entry.edit, &entry.fetch, &entry.mcp]
        .into_iter()
        .flatten()
        .next()
        .cloned()
        .unwrap_or_default()
}

/// A rule on a whole tool, by its name in Gemini CLI.
fn whole_tool(tool: &str) -> Result<Entry, LeftOut> {
    Ok(match tool {
        "run_shell_command" | "ShellTool" => Tool::Command.every(),
        "read_file" | "read_many_files" => Tool::Read.every(),
        "write_file" | "replace" | "edit" => Tool::Edit.every(),
        "web_fetch" => Tool::Fetch.every(),
        "*" => return Err(LeftOut::Everything),
        t => match t.split_once("__") {
            Some((server, tool)) => Entry { mcp: Some(format!("{server}/{tool}")), ..Entry::default() },
            None => return Err(LeftOut::NoKind),
        },
    })
}

/// The settings' `tools.allowed` (allow) and `tools.exclude` (deny).
pub(super) fn read_settings(settings: &Value) -> Imported {
    let lists = [("/tools/allowed", Verdict::Allow), ("/tools/exclude", Verdict::Deny)];
    super::string_lists(settings, &lists, settings_entry, |item| format!("{item} is excluded in Gemini CLI's settings"))
}

fn settings_entry(item: &str) -> Result<Entry, LeftOut> {
    match item.split_once('(') {
        Some(("run_shell_command" | "ShellTool", rest)) => {
            let prefix = rest.strip_suffix(')').ok_or(LeftOut::NotARule)?;
            if prefix.contains('*') {
                return Err(LeftOut::LiteralStar);
            }
            super::command(&prefix.split_whitespace().collect::<Vec<_>>(), true)
        }
        Some((tool, _)) => whole_tool(tool),
        None => whole_tool(item),
    }
}
