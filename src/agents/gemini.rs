//! Gemini CLI's BeforeTool hook (its hooks reference and, for what it leaves out, its
//! scheduler): the tool and its input, answered with the top-level `decision`.
//!
//! Gemini CLI runs BeforeTool before its own policy and reads a hook's `allow` as no
//! decision at all: only `deny` and `ask` count. So setup also writes a policy that
//! allows exactly the tools the hook is asked about, and the hook is their decider:
//! Allow runs the tool with no second prompt, Deny blocks it with the reason, and no
//! decision (no server, dismissed, any doubt) is `ask`, which brings up Gemini CLI's own
//! prompt as before. The hook must never stay silent: Gemini reads silence, or text
//! that is not JSON, as allow.

use crate::model::AgentName;
use serde_json::{json, Value};
use user_questions_i18n::Text;

use super::hook::call::{Call, ToolNames};
use super::hook::permission::{self, Verdict};
use super::setup::{FileChange, JsonEdit, Setup, SetupError, DAY_SECS, MCP_NAME};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version};
use crate::model::labels::DENIED;

pub struct Gemini;

/// Gemini CLI, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::GEMINI.name,
    display_name: AgentName::GEMINI.display_name,
    program: "gemini",
    events: "BeforeTool; SessionEnd (a session's rules end with it)",
    setup_done: "setup-done-gemini",
    project_settings: false,
    tested: Version(0, 61, 0),
    hooks: &Gemini,
};

impl Integration for Gemini {
    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        ask_from(hook, words)
    }

    /// `~/.gemini/settings.json`: the BeforeTool and SessionEnd hooks (timeouts in
    /// milliseconds), the MCP server, and hooks turned on when they were off; and the
    /// policy beside it.
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let ms = DAY_SECS * 1000;
        let handler = json!({"name": MCP_NAME, "type": "command", "command": setup.command(), "timeout": ms});
        let groups = [
            ("BeforeTool", json!({"matcher": MATCHER, "hooks": [handler]})),
            // The policy's rules for one session end with it.
            ("SessionEnd", json!({"hooks": [handler]})),
        ];
        let edit = JsonEdit {
            groups: &groups,
            mcp: Some(setup.mcp_server(Some(ms))),
            switch: (setup.remove || setup.left_out().is_empty()).then_some(("hooksConfig", "enabled")),
            ..Default::default()
        };
        let mut changes: Vec<FileChange> =
            setup.json_file(&setup.home.join(".gemini/settings.json"), edit)?.into_iter().collect();
        changes.extend(setup.own_file(&setup.home.join(".gemini/policies/user-questions.toml"), POLICY)?);
        Ok(changes)
    }

    /// Before 0.26.0 hooks are switched on elsewhere (`tools.enableHooks`) and
    /// `hooksConfig.enabled` means nothing.
    fn since(&self) -> &'static [(&'static str, Version)] {
        &[("BeforeTool", Version(0, 26, 0)), ("SessionEnd", Version(0, 26, 0))]
    }

    fn no_decision(&self, why: &str) -> Option<Value> {
        Some(match headless::gemini_runs_headless() {
            // `gemini -p` has no prompt to bring up: it waits for one forever. Without
            // the hook it refuses what needs asking; so does this.
            true => {
                json!({"decision": "deny", "reason": format!("User Questions: {why}; Gemini CLI runs without a prompt here, so nobody was asked")})
            }
            false => json!({"decision": "ask", "systemMessage": format!("User Questions: {why}")}),
        })
    }
}

/// Whether the Gemini CLI that runs this hook has no prompt to show (`-p`, or no
/// terminal on its stdin): read from its process, the hook's nearest ancestor whose
/// command line names gemini. Where that cannot be read, it is taken to have one.
mod headless {
    use std::path::PathBuf;

    pub fn gemini_runs_headless() -> bool {
        let mut pid = std::os::unix::process::parent_id();
        for _ in 0..8 {
            let proc = PathBuf::from(format!("/proc/{pid}"));
            let Ok(cmdline) = std::fs::read(proc.join("cmdline")) else { return false };
            let args: Vec<String> =
                cmdline.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
            if args.iter().take(3).any(|a| a.contains("gemini")) {
                let prompt = args.iter().any(|a| a == "-p" || a == "--prompt" || a.starts_with("--prompt="));
                let tty = std::fs::read_link(proc.join("fd/0"))
                    .is_ok_and(|t| t.starts_with("/dev/pts") || t.starts_with("/dev/tty"));
                return prompt || !tty;
            }
            let Some(parent) = std::fs::read_to_string(proc.join("stat"))
                .ok()
                .and_then(|stat| stat.rsplit(')').next()?.split_whitespace().nth(1)?.parse().ok())
            else {
                return false;
            };
            pid = parent;
        }
        false
    }
}

/// The tools `userq setup gemini` sends here: the shell and the file-writing tools.
/// Gemini CLI matches it as an unanchored pattern, so it is anchored.
pub const MATCHER: &str = "^(run_shell_command|write_file|replace)$";

/// The policy setup writes beside the hook: the same tools, allowed, so the hook's
/// answer is the only question asked. Plan mode is left out (it denies writes).
pub const POLICY: &str = r#"# Written by `userq setup gemini`; `userq setup gemini --remove` deletes it.
# User Questions' BeforeTool hook decides about these tools: Allow runs them with no
# second prompt, Deny blocks them, and when the hook takes no decision it answers "ask",
# so Gemini CLI's own prompt appears as before. Keep these tools the hook's matcher.
[[rule]]
toolName = ["write_file", "replace"]
decision = "allow"
priority = 50
modes = ["default", "autoEdit"]

[[rule]]
toolName = "run_shell_command"
argsPattern = ".*"
allowRedirection = true
decision = "allow"
priority = 50
modes = ["default", "autoEdit"]
"#;

/// Gemini CLI's tools, by what they do.
pub const TOOLS: ToolNames = ToolNames {
    shell: &["run_shell_command"],
    edit: &["replace"],
    multi_edit: &[],
    write: &["write_file"],
    fetch: &["web_fetch"],
};

fn ask_from(hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
    if hook.event != "BeforeTool" {
        return Ok(None);
    }
    let (tool, input) = hook.tool()?;
    let call = Call::from_tool(tool, input, &TOOLS);
    let question = permission::question(&call.title(hook.cwd()), words, tool, call.detail(hook.cwd(), words), &[]);
    Ok(Some(
        HookAsk::new(vec![question], |answer| match permission::verdict(answer, &[], DENIED) {
            Verdict::Allow => Some(json!({"decision": "allow"})),
            Verdict::Deny(reason) => Some(json!({"decision": "deny", "reason": reason})),
            Verdict::Choice(_) | Verdict::NoDecision => Gemini.no_decision("no answer"),
        })
        .judged(&call),
    ))
}
