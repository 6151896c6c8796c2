//! `userq setup <agent>`: one command per agent registers the hooks (and the MCP
//! server where the agent loads one); `--dry-run` prints what would change, `--remove`
//! takes it out again. The editing itself is [`user_questions::agents::setup`].

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use user_questions::agents::setup::{self, Setup};
use user_questions::agents::Agent;

#[derive(Args)]
pub struct SetupArgs {
    /// The agent: claude-code, codex or gemini.
    #[arg(value_parser = agent_name)]
    agent: Agent,
    /// Claude Code: write this project's .claude/settings.json instead of the user's.
    #[arg(long)]
    project: bool,
    /// Print what would change; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Take out what setup added.
    #[arg(long)]
    remove: bool,
}

fn agent_name(s: &str) -> Result<Agent, String> {
    Agent::from_command_name(s).ok_or_else(|| format!("unknown agent {s:?}; choose claude-code, codex or gemini"))
}

pub fn run(args: SetupArgs) -> ExitCode {
    if args.project && args.agent != Agent::ClaudeCode {
        return crate::fail(2, "userq setup: --project is for claude-code only");
    }
    let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from) else {
        return crate::fail(1, "userq setup: HOME is not set");
    };
    let userq = match std::env::current_exe().and_then(|p| p.canonicalize()) {
        Ok(p) => p,
        Err(e) => return crate::fail(1, &format!("userq setup: cannot find this program's own path: {e}")),
    };
    let project = match args.project.then(std::env::current_dir).transpose() {
        Ok(p) => p,
        Err(e) => return crate::fail(1, &format!("userq setup: cannot read the current folder: {e}")),
    };
    let setup = Setup { agent: args.agent, home, project, userq: userq.clone(), remove: args.remove };
    let changes = match setup.plan() {
        Ok(c) => c,
        Err(e) => return crate::fail(1, &format!("userq setup: {e}")),
    };
    let verb = if args.dry_run { "would have " } else { "" };
    if changes.is_empty() {
        let state = if args.remove { "is not set up" } else { "is set up already" };
        println!("{}: nothing to change; User Questions {state}.", args.agent.display_name());
    }
    for change in &changes {
        for line in &change.what {
            println!("{verb}{line}");
        }
        if change.contents.is_none() {
            println!("{verb}removed {} (setup had created it)", change.path.display());
        }
    }
    if !args.dry_run {
        if let Err(e) = setup::apply(&changes) {
            return crate::fail(1, &format!("userq setup: {e}"));
        }
    }
    if !args.remove && !args.dry_run && !changes.is_empty() {
        match args.agent {
            Agent::ClaudeCode => println!(
                "Claude Code's permission prompts, questions and plans now come to User Questions.\n\
                 For the review_plan tool too: claude mcp add user-questions -- {} mcp",
                userq.display()
            ),
            Agent::Codex => {
                println!("Codex asks you to trust new hooks: open /hooks in Codex and trust the user-questions hook.")
            }
            Agent::Gemini => println!("Gemini CLI's shell commands and file writes now come to User Questions."),
        }
    }
    ExitCode::SUCCESS
}
