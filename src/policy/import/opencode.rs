//! OpenCode's `permission` (its opencode.json or opencode.jsonc; its permissions
//! documentation): per tool `"allow"`, `"ask"` or `"deny"`, or an object of patterns
//! for `bash` (matched against each command, `*` any text, a trailing ` *` also the
//! bare command), and the older `"tools": {"bash": false}`. A pattern whose `*` stands
//! anywhere but at the end of its last word spans words there, and only a word here.
//! OpenCode lets the last pattern that fits decide; here a deny beats an ask beats an
//! allow, which never allows more. An `ask` for everything is OpenCode's default,
//! which the person decides here already, so it is not a rule.

use serde_json::Value;

use super::{Imported, LeftOut, Tool};
use crate::policy::rules::{Entry, Verdict};

pub(super) fn read(config: &Value) -> Imported {
    let mut out = Imported::default();
    match config.get("permission") {
        Some(Value::String(_)) => out.leave(format!("\"permission\": {}", config["permission"]), LeftOut::Everything),
        Some(Value::Object(tools)) => {
            for (tool, given) in tools {
                permission(tool, given, &mut out);
            }
        }
        _ => {}
    }
    if let Some(Value::Object(agents)) = config.get("agent") {
        for (name, agent) in agents.iter().filter(|(_, a)| a.get("permission").is_some()) {
            out.leave(
                format!("\"agent\": {{\"{name}\": {{\"permission\": {}}}}}", agent["permission"]),
                LeftOut::OneAgent,
            );
        }
    }
    if let Some(Value::Object(tools)) = config.get("tools") {
        for (tool, on) in tools.iter().filter(|(_, on)| **on == Value::Bool(false)) {
            match kind(tool) {
                Some(kind) => {
                    let reason = Some(format!("{tool} is turned off in OpenCode's settings"));
                    out.rules.push((Verdict::Deny, Entry { reason, ..kind.every() }));
                }
                None => out.leave(format!("\"tools\": {{\"{tool}\": {on}}}"), LeftOut::NoKind),
            }
        }
    }
    out
}

fn kind(tool: &str) -> Option<Tool> {
    match tool {
        "bash" => Some(Tool::Command),
        "read" => Some(Tool::Read),
        "edit" | "write" | "patch" | "multiedit" => Some(Tool::Edit),
        "webfetch" => Some(Tool::Fetch),
        _ => None,
    }
}

fn verdict(action: &Value) -> Option<Verdict> {
    match action.as_str()? {
        "allow" => Some(Verdict::Allow),
        "ask" => Some(Verdict::Ask),
        "deny" => Some(Verdict::Deny),
        _ => None,
    }
}

/// One tool's permission: an action for the whole tool, or its patterns.
fn permission(tool: &str, given: &Value, out: &mut Imported) {
    let patterns: Vec<(&str, &Value)> = match given {
        Value::Object(patterns) => patterns.iter().map(|(p, a)| (p.as_str(), a)).collect(),
        action => vec![("*", action)],
    };
    for (pattern, action) in patterns {
        let shown = format!("\"{tool}\": {{\"{pattern}\": {action}}}");
        let Some(verdict) = verdict(action) else {
            out.leave(shown, LeftOut::NotARule);
            continue;
        };
        match rule(tool, pattern, verdict) {
            Ok(mut entry) => {
                if verdict == Verdict::Deny {
                    entry.reason = Some(format!("{tool} `{pattern}` is denied in OpenCode's permissions"));
                }
                out.rules.push((verdict, entry));
            }
            Err(why) => out.leave(shown, why),
        }
    }
}

fn rule(tool: &str, pattern: &str, verdict: Verdict) -> Result<Entry, LeftOut> {
    if pattern == "*" && verdict == Verdict::Ask {
        return Err(LeftOut::Default);
    }
    let kind = match (tool, kind(tool)) {
        ("*", _) => return Err(LeftOut::Everything),
        (_, Some(kind)) => kind,
        (_, None) => return Err(LeftOut::NoKind),
    };
    if pattern == "*" {
        return Ok(kind.every());
    }
    if kind != Tool::Command {
        return Err(LeftOut::WholeText);
    }
    if pattern.contains('?') {
        return Err(LeftOut::OneCharacter);
    }
    let mut words: Vec<&str> = pattern.split_whitespace().collect();
    let prefix = words.last() == Some(&"*");
    if prefix {
        words.pop();
    }
    let (last, before) = words.split_last().ok_or(LeftOut::EmptyCommand)?;
    if before.iter().any(|w| w.contains('*')) || last.trim_end_matches('*').contains('*') {
        return Err(LeftOut::SpansWords);
    }
    // `git push*` is `git push` and any text after it: a word that begins so, then any words.
    super::command(&words, prefix || last.ends_with('*'))
}
