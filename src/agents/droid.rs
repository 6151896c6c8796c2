//! Factory Droid's hooks (its hooks reference, and what `droid exec` sends): Claude
//! Code's snake_case `PreToolUse`, the only hook that can decide, with Droid's tool
//! names (`Execute` with the model's `riskLevel`, `Edit` with `old_str`/`new_str`,
//! `Create`). `PreToolUse` runs for every call, also those Droid's autonomy level lets
//! through, so the person is asked only where Droid itself would ask: every change with
//! autonomy off, and commands above the level's risk otherwise. An allow bypasses
//! Droid's own prompt; no decision leaves it to Droid.

use crate::model::AgentName;
use serde_json::{json, Value};
use user_questions_i18n::Text;

use super::hook::call::{text, Call, Replace};
use super::hook::permission::{self, Verdict};
use super::setup::{handler, FileChange, JsonEdit, Section, Setup, SetupError, DAY_SECS};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version};
use crate::model::labels::DENIED;

pub struct Droid;

/// Factory Droid, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::DROID.name,
    display_name: AgentName::DROID.display_name,
    program: "droid",
    events: "PreToolUse for Execute, Edit, Create and ApplyPatch, where Droid would ask; SessionEnd (a session's rules end with it)",
    setup_done: "setup-done-droid",
    project_settings: false,
    tested: Version(0, 225, 2),
    hooks: &Droid,
};

/// The tools setup sends here.
pub const MATCHER: &str = "^(Execute|Edit|Create|ApplyPatch)$";

impl Integration for Droid {
    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        if hook.event != "PreToolUse" {
            return Ok(None);
        }
        let (tool, input) = hook.tool()?;
        if !droid_would_ask(hook.text("permission_mode"), tool, input) {
            return Ok(None);
        }
        let call = call(tool, input);
        let question = permission::question(&call.title(hook.cwd()), words, tool, call.detail(hook.cwd(), words), &[]);
        Ok(Some(
            HookAsk::new(vec![question], |answer| {
                let decision = match permission::verdict(answer, &[], DENIED) {
                    Verdict::Allow => json!({"permissionDecision": "allow"}),
                    Verdict::Deny(reason) => json!({"permissionDecision": "deny", "permissionDecisionReason": reason}),
                    Verdict::Choice(_) | Verdict::NoDecision => return None,
                };
                let mut output = decision;
                output["hookEventName"] = "PreToolUse".into();
                Some(json!({"hookSpecificOutput": output}))
            })
            .judged(&call),
        ))
    }

    /// `~/.factory/hooks.json`, the events at its top level beside the person's own:
    /// Droid reads it first, and its events replace the same events in
    /// `settings.json`'s `hooks` (0.225's `mergeHookSettings`), so a PreToolUse hook of
    /// the person's own there would hide one of ours in `settings.json`. An earlier
    /// setup's hook in `settings.json` moves over. A Droid older than `hooks.json`
    /// (0.136.0) gets its hook in `settings.json`, as it reads it.
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let handler = handler(&setup.command(), DAY_SECS);
        let groups = [
            ("PreToolUse", json!({"matcher": MATCHER, "hooks": [handler]})),
            // The policy's rules for one session end with it.
            ("SessionEnd", json!({"hooks": [handler]})),
        ];
        let factory = setup.home.join(".factory");
        let reads_hooks_json = setup.knows(HOOKS_JSON);
        let hooks =
            JsonEdit { section: Section::Root, groups: &groups, take_out: !reads_hooks_json, ..Default::default() };
        let settings = JsonEdit { groups: &groups, take_out: reads_hooks_json, ..Default::default() };
        let mut changes: Vec<FileChange> = setup.json_file(&factory.join("hooks.json"), hooks)?.into_iter().collect();
        changes.extend(setup.json_file(&factory.join("settings.json"), settings)?);
        Ok(changes)
    }
}

/// The first Droid that reads `~/.factory/hooks.json` (its release notes: "Standardized
/// hooks config path").
const HOOKS_JSON: Version = Version(0, 136, 0);

/// Whether Droid asks the person itself at this autonomy level: with autonomy off,
/// for every change; at `auto-low` for commands of medium or high risk; at
/// `auto-medium` for high risk; never at `auto-high`. Spec mode plans; it changes
/// nothing. An unknown level asks.
fn droid_would_ask(mode: Option<&str>, tool: &str, input: &Value) -> bool {
    let risk = match input.get("riskLevel").and_then(Value::as_str) {
        Some("low") => 0,
        Some("medium") => 1,
        _ => 2,
    };
    match mode {
        Some("spec") | Some("auto-high") => false,
        Some("auto-medium") => tool == "Execute" && risk >= 2,
        Some("auto-low") => tool == "Execute" && risk >= 1,
        _ => true,
    }
}

/// Droid's tools, in the terms a person judges them by.
fn call(tool: &str, input: &Value) -> Call {
    let path = text(input, "file_path");
    let known = match tool {
        "Execute" => text(input, "command").map(|command| {
            let why = [text(input, "summary"), text(input, "riskLevelReason")];
            let description = why.into_iter().flatten().collect::<Vec<_>>().join(" — ");
            Call::Shell { command, description: (!description.is_empty()).then_some(description) }
        }),
        "Edit" => path.zip(text(input, "old_str")).map(|(path, old)| Call::Edit {
            path,
            edits: vec![Replace {
                old,
                new: text(input, "new_str").unwrap_or_default(),
                all: input.get("change_all").and_then(Value::as_bool).unwrap_or(false),
            }],
        }),
        "Create" => path.zip(text(input, "content")).map(|(path, content)| Call::Write { path, content }),
        _ => Call::mcp(tool, input),
    };
    known.unwrap_or_else(|| Call::Other { tool: tool.to_owned(), input: input.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_person_is_asked_where_droid_would_ask() {
        let at = |risk: &str| json!({"command": "x", "riskLevel": risk});
        assert!(droid_would_ask(Some("off"), "Create", &json!({})));
        assert!(droid_would_ask(None, "Execute", &at("low")));
        assert!(!droid_would_ask(Some("auto-low"), "Execute", &at("low")));
        assert!(!droid_would_ask(Some("auto-low"), "Edit", &json!({})));
        assert!(droid_would_ask(Some("auto-low"), "Execute", &at("medium")));
        assert!(!droid_would_ask(Some("auto-medium"), "Execute", &at("medium")));
        assert!(droid_would_ask(Some("auto-medium"), "Execute", &at("high")));
        assert!(!droid_would_ask(Some("auto-high"), "Execute", &at("high")));
        assert!(!droid_would_ask(Some("spec"), "Execute", &at("high")));
    }
}
