//! Claude Code's hooks (its hooks reference, "PermissionRequest", "PreToolUse",
//! "Permission update entries"): a permission prompt for any tool, its own
//! AskUserQuestion tool, and plan approval (ExitPlanMode, on both events). Every other
//! event and tool is left to Claude Code: no question, no output.

use crate::model::AgentName;
use serde_json::{json, Map, Value};

use super::hook::call::{text, Call, ToolNames};
use super::hook::permission::{self, Choice, Verdict};
use super::setup::{handler, FileChange, JsonEdit, Setup, SetupError, DAY_SECS};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version};
use crate::model::labels::APPROVE_EDITS;
use crate::model::labels::DENIED;
use crate::model::{Answer, Question};
use crate::review::plan;
use crate::tool;
use user_questions_i18n::Text;

pub struct ClaudeCode;

/// Claude Code, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::CLAUDE_CODE.name,
    display_name: AgentName::CLAUDE_CODE.display_name,
    program: "claude",
    events: "PermissionRequest; PreToolUse for AskUserQuestion and ExitPlanMode, and for every tool the policy judges (its denies hold in every permission mode); Elicitation (MCP servers' forms); SessionEnd (a session's rules end with it); Stop (a review of the changes, with setup --review-changes)",
    setup_done: "setup-done-claude-code",
    project_settings: true,
    tested: Version(2, 1, 332),
    hooks: &ClaudeCode,
};

impl Integration for ClaudeCode {
    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        ask_from(hook, words)
    }

    /// `~/.claude/settings.json` (or the project's): every permission prompt (plan
    /// approval among them, where accepting edits can be offered), AskUserQuestion
    /// before it runs (a hook answers its questions only there), and every MCP server's
    /// form; each only where the installed version knows its event.
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let base = setup.project.as_deref().unwrap_or(&setup.home);
        let handler = handler(&setup.command(), DAY_SECS);
        let mut groups = vec![
            ("PermissionRequest", json!({"hooks": [handler]})),
            // AskUserQuestion is answered here; every tool the policy judges is
            // refused here when a rule denies it, as this event fires in every
            // permission mode (`bypassPermissions` and auto included).
            ("PreToolUse", json!({"matcher": PRE_TOOL_USE, "hooks": [handler]})),
            ("Elicitation", json!({"hooks": [handler]})),
            // The policy's rules for one session end with it.
            ("SessionEnd", json!({"hooks": [handler]})),
        ];
        // Removal takes every hook of ours out, the review's included.
        if setup.review_changes || setup.remove {
            groups.push(("Stop", json!({"hooks": [handler]})));
        }
        let edit = JsonEdit { groups: &groups, ..Default::default() };
        Ok(setup.json_file(&base.join(".claude/settings.json"), edit)?.into_iter().collect())
    }

    fn since(&self) -> &'static [(&'static str, Version)] {
        &SINCE
    }
}

/// The tools setup's PreToolUse hook runs for.
const PRE_TOOL_USE: &str = "^(AskUserQuestion|Bash|PowerShell|Edit|MultiEdit|Write|WebFetch|mcp__.*)$";

/// The events setup writes, each with the Claude Code version that first reads it
/// (its changelog): before 2.1.101 a settings file naming an event Claude Code does not
/// know is refused whole with a dialog at start, and later ones warn about it.
const SINCE: [(&str, Version); 5] = [
    ("PreToolUse", Version(1, 0, 38)),
    ("Stop", Version(1, 0, 38)),
    ("SessionEnd", Version(1, 0, 85)),
    ("PermissionRequest", Version(2, 0, 45)),
    ("Elicitation", Version(2, 1, 76)),
];

/// The ask of one hook input, in Claude Code's shapes (which other agents share).
pub fn ask_from(hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
    match hook.event.as_str() {
        "PermissionRequest" => {
            let (tool, input) = hook.tool()?;
            Ok(Some(match tool {
                "ExitPlanMode" => plan_review(input, Event::PermissionRequest, words),
                _ => permission_request(hook, tool, input, &TOOLS, words),
            }))
        }
        "PreToolUse" => {
            let (tool, input) = hook.tool()?;
            Ok(match tool {
                "AskUserQuestion" => ask_user_question(input),
                "ExitPlanMode" => Some(plan_review(input, Event::PreToolUse, words)),
                _ => Some(refuse_before(hook, tool, input, &TOOLS, words)),
            })
        }
        "Elicitation" => Ok(Some(super::hook::elicitation::ask_from(hook, words)?)),
        "Stop" => Ok(super::stop_review::ask_from(hook)),
        _ => Ok(None),
    }
}

#[derive(Clone, Copy)]
enum Event {
    PermissionRequest,
    PreToolUse,
}

/// Claude Code's tools, by what they do.
pub const TOOLS: ToolNames = ToolNames {
    shell: &["Bash", "PowerShell"],
    edit: &["Edit"],
    multi_edit: &["MultiEdit"],
    write: &["Write"],
    fetch: &["WebFetch"],
};

/// A permission prompt in Claude Code's shapes (Qwen Code shares them, with its own
/// tool names): Allow, each "always allow" suggestion, Deny.
pub fn permission_request(hook: &HookInput, tool: &str, input: &Value, names: &ToolNames, words: &Text) -> HookAsk {
    let call = Call::from_tool(tool, input, names);
    let suggestions: Vec<Value> =
        hook.fields.get("permission_suggestions").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut choices: Vec<Choice> = suggestions.iter().map(|s| always_allow(s, words)).collect();
    permission::unique_labels(&mut choices);
    let question = permission::question(&call.title(hook.cwd()), words, tool, call.detail(hook.cwd(), words), &choices);
    HookAsk::new(vec![question], move |answer| {
        let decision = match permission::verdict(answer, &choices, DENIED) {
            Verdict::Allow => json!({"behavior": "allow"}),
            Verdict::Choice(i) => json!({"behavior": "allow", "updatedPermissions": [suggestions[i].clone()]}),
            Verdict::Deny(message) => json!({"behavior": "deny", "message": message}),
            Verdict::NoDecision => return None,
        };
        Some(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}))
    })
    .judged(&call)
}

/// A tool call before it runs, in Claude Code's shapes (Codex shares them): refused
/// when a rule denies it, and left to the agent otherwise, so its own prompt (and its
/// own denies) still decide what no rule refuses.
pub fn refuse_before(hook: &HookInput, tool: &str, input: &Value, names: &ToolNames, words: &Text) -> HookAsk {
    let call = Call::from_tool(tool, input, names);
    HookAsk::denies_only(
        hook,
        tool,
        &call,
        words,
        |reason| json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}),
    )
}

/// One `permission_suggestions` entry as a choice: what it allows, and where the rule
/// is saved.
fn always_allow(entry: &Value, words: &Text) -> Choice {
    let strings = |key: &str| -> Vec<String> {
        entry
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    let what = match entry.get("type").and_then(Value::as_str) {
        Some("addRules") | Some("replaceRules") => {
            let rules: Vec<String> = entry
                .get("rules")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|r| {
                    let tool = r.get("toolName").and_then(Value::as_str).unwrap_or("?");
                    match r.get("ruleContent").and_then(Value::as_str) {
                        Some(content) => format!("{tool}({content})"),
                        None => tool.to_owned(),
                    }
                })
                .collect();
            rules.join(", ")
        }
        Some("setMode") => {
            let mode = entry.get("mode").and_then(Value::as_str).unwrap_or("?");
            words.tr_args("hook-always-mode", &[("mode", mode.into())])
        }
        Some("addDirectories") => {
            words.tr_args("hook-always-access", &[("dirs", (&strings("directories").join(", ")).into())])
        }
        Some(other) => other.to_owned(),
        None => words.tr("hook-always-this"),
    };
    let destination = entry.get("destination").and_then(Value::as_str).unwrap_or("other");
    Choice {
        label: words.tr_args("hook-always-allow", &[("what", (&what).into())]),
        description: words.tr_args("hook-rule", &[("where", destination.into())]),
    }
}

/// AskUserQuestion: the agent's questions become one ask; the answers go back in
/// `updatedInput`, keyed by question text, as the tool reads them.
fn ask_user_question(input: &Value) -> Option<HookAsk> {
    let asked = input.get("questions")?.as_array()?.clone();
    let questions: Vec<Question> = asked
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let mut question =
                Question::new(format!("q{}", i + 1), q.get("question").and_then(Value::as_str).unwrap_or(""));
            question.header = text(q, "header");
            question.multi_select = q.get("multiSelect").and_then(Value::as_bool).unwrap_or(false);
            for o in q.get("options").and_then(Value::as_array).into_iter().flatten() {
                if let Some(label) = o.get("label").and_then(Value::as_str) {
                    if !question.has_option(label) {
                        question = question.option(label, o.get("description").and_then(Value::as_str));
                    }
                }
            }
            question
        })
        .collect();
    if questions.is_empty() {
        return None;
    }
    let input = input.clone();
    let texts: Vec<String> = questions.iter().map(|q| q.question.clone()).collect();
    Some(HookAsk::new(questions, move |answer: &Answer| {
        let mut answers = Map::new();
        for (item, text) in answer.answers.iter().zip(&texts) {
            let mut parts = item.selected.clone();
            parts.extend(item.custom.clone());
            if !parts.is_empty() {
                answers.insert(text.clone(), parts.join(", ").into());
            }
        }
        if answers.is_empty() {
            return Some(pre_tool_use(json!({
                "permissionDecision": "deny",
                "permissionDecisionReason": "The user chose not to answer these questions in User Questions; go on by your own judgement."
            })));
        }
        let mut updated = input.clone();
        updated["answers"] = Value::Object(answers);
        Some(pre_tool_use(json!({"permissionDecision": "allow", "updatedInput": updated})))
    }))
}

/// ExitPlanMode: the injected plan under review. On PermissionRequest the person may
/// also approve and switch the session to accepting edits, as Claude Code's own
/// dialog offers.
fn plan_review(input: &Value, event: Event, words: &Text) -> HookAsk {
    let plan = text(input, "plan").unwrap_or_default();
    let mut question = tool::plan_review(&plan);
    if let Some(path) = text(input, "planFilePath") {
        question.detail = Some(format!("{plan}\n\n---\n\n*{} `{path}`*", words.tr("hook-plan-file")));
    }
    if plan.trim().is_empty() {
        question.detail = Some(format!("{}*{}*", question.detail.unwrap_or_default(), words.tr("hook-no-plan")));
    }
    if let Event::PermissionRequest = event {
        let revise = question.options.pop().expect("a plan review ends with Revise");
        question = question
            .option(APPROVE_EDITS, Some("Approve, and accept file edits without asking for the rest of this session"));
        question.options.push(revise);
    }
    let input = input.clone();
    let plan_file = text(&input, "planFilePath");
    HookAsk::new(vec![question], move |answer: &Answer| {
        let revise = match plan::verdict(answer, plan_file.as_deref()) {
            plan::Verdict::Approved { label, notes } => {
                return Some(match event {
                    Event::PreToolUse => {
                        let mut fields = json!({"permissionDecision": "allow", "updatedInput": input});
                        if let Some(notes) = notes {
                            fields["additionalContext"] = notes.into();
                        }
                        pre_tool_use(fields)
                    }
                    Event::PermissionRequest => {
                        // Claude Code discards an ExitPlanMode allow that does not
                        // carry the plan back as `updatedInput` (and its permissions).
                        // An allow carries no message: notes go with the plan the
                        // model reads back as approved.
                        let mut approved = input.clone();
                        if let Some(notes) = notes {
                            let plan = approved["plan"].as_str().unwrap_or_default().trim_end().to_owned();
                            approved["plan"] = format!("{plan}\n\n---\n\n{notes}").into();
                        }
                        let mut decision = json!({"behavior": "allow", "updatedInput": approved});
                        if label == APPROVE_EDITS {
                            decision["updatedPermissions"] =
                                json!([{"type": "setMode", "mode": "acceptEdits", "destination": "session"}]);
                        }
                        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}})
                    }
                });
            }
            plan::Verdict::Revise(directive) => directive,
            plan::Verdict::None => return None,
        };
        Some(match event {
            Event::PreToolUse => {
                pre_tool_use(json!({"permissionDecision": "deny", "permissionDecisionReason": revise}))
            }
            Event::PermissionRequest => {
                json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": revise}}})
            }
        })
    })
}

fn pre_tool_use(mut fields: Value) -> Value {
    fields["hookEventName"] = "PreToolUse".into();
    json!({"hookSpecificOutput": fields})
}
