//! Kiro CLI's `preToolUse` hook (its hooks documentation, `docs/features/hooks.md`,
//! and its tools reference): a hook there can only block. Exit code 2 refuses the
//! call and hands the hook's stderr to the model; any other exit lets Kiro CLI go on
//! to its own approval. So this hook enforces the policy's denies and nothing more:
//! an allow, and what the person would decide, stay with Kiro CLI's own prompt.
//! Hooks live in an agent's configuration (`~/.kiro/agents/<name>.json`, `hooks`
//! `preToolUse` entries with a `matcher`, `command`, `timeout_ms`); the built-in
//! `kiro_default` cannot be edited, so setup writes an agent of its own,
//! `user-questions`, with everything the built-in one has, to be made the default.
//! Its tools: `execute_bash` (`command`, `summary`, `working_dir`; named `shell` in
//! newer releases) and `fs_write` (`command`: `create` with `file_text`,
//! `str_replace` with `old_str`/`new_str`, `insert` and `append` with `new_str`).

use crate::model::AgentName;
use serde_json::{json, Value};
use user_questions_i18n::Text;

use super::hook::call::{text, Call, Replace};
use super::setup::{FileChange, Setup, SetupError};
use super::{Agent, Delivery, HookAsk, HookInput, HookInputError, Integration, Version};

pub struct Kiro;

/// Kiro CLI, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::KIRO.name,
    display_name: AgentName::KIRO.display_name,
    program: "kiro-cli",
    events: "preToolUse for execute_bash and fs_write (the policy's denies only)",
    setup_done: "setup-done-kiro",
    project_settings: false,
    tested: Version(2, 2, 1),
    hooks: &Kiro,
};

/// The agent setup writes, by its name in `~/.kiro/agents/`.
pub const KIRO_AGENT: &str = "user-questions";

/// How long Kiro CLI waits for the hook: the policy answers in milliseconds.
const TIMEOUT_MS: u64 = 30_000;

impl Integration for Kiro {
    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        if hook.event != "preToolUse" {
            return Ok(None);
        }
        let (tool, input) = hook.tool()?;
        let call = call(tool, input);
        Ok(Some(HookAsk::denies_only(hook, tool, &call, words, |reason| json!({"block": reason}))))
    }

    /// A deny is exit code 2 with the reason on stderr, which Kiro CLI gives the model.
    fn delivery(&self, output: Value) -> Delivery {
        match output.get("block").and_then(Value::as_str) {
            Some(reason) => Delivery::Block(reason.to_owned()),
            None => Delivery::Stdout(output),
        }
    }

    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let path = setup.home.join(format!(".kiro/agents/{KIRO_AGENT}.json"));
        let hook = |matcher: &str| json!({"matcher": matcher, "command": setup.command(), "timeout_ms": TIMEOUT_MS});
        // The built-in kiro_default's tools, approvals, context and MCP servers (its
        // `chat.defaultAgent` documentation), with the hook.
        let agent = json!({
            "name": KIRO_AGENT,
            "description": "Kiro CLI's default agent, with User Questions' rules: what they deny is refused before Kiro CLI asks.",
            "tools": ["*"],
            "allowedTools": ["fs_read"],
            "resources": ["file://README.md", "file://KIRO.md", "file://.kiro/rules/**/*.md"],
            "useLegacyMcpJson": true,
            "hooks": {"preToolUse": [hook("execute_bash"), hook("fs_write")]},
        });
        let text = format!("{}\n", serde_json::to_string_pretty(&agent).expect("JSON values serialise"));
        Ok(setup.own_file(&path, &text)?.into_iter().collect())
    }
}

fn call(tool: &str, input: &Value) -> Call {
    let path = text(input, "path");
    let known = match (tool, text(input, "command").as_deref()) {
        ("execute_bash" | "shell", Some(command)) => Some(Call::Shell {
            command: match text(input, "working_dir") {
                Some(dir) => format!("cd {} && {command}", quoted(&dir)),
                None => command.to_owned(),
            },
            description: text(input, "summary"),
        }),
        ("fs_write" | "write", Some("create")) => {
            path.zip(text(input, "file_text")).map(|(path, content)| Call::Write { path, content })
        }
        ("fs_write" | "write", Some(_)) => path.map(|path| {
            let old = text(input, "old_str").unwrap_or_default();
            let new = text(input, "new_str").unwrap_or_default();
            Call::Edit { path, edits: vec![Replace { old, new, all: false }] }
        }),
        _ => None,
    };
    known.unwrap_or_else(|| Call::Other { tool: tool.to_owned(), input: input.clone() })
}

/// A folder as bash reads it in `cd`: quoted, its leading `~/` left to expand.
fn quoted(dir: &str) -> String {
    let (home, rest) = match dir.strip_prefix("~/") {
        Some(rest) => ("~/", rest),
        None => ("", dir),
    };
    format!("{home}'{}'", rest.replace('\'', r"'\''"))
}
