//! `userq setup <agent>`: one command per agent registers the hooks (and the MCP
//! server where the agent loads one); `--dry-run` prints what would change, `--remove`
//! takes it out again. The editing itself is [`user_questions::agents::setup`].

use std::path::PathBuf;
use std::process::ExitCode;

use crate::tr;
use clap::Args;
use user_questions::agents::connection;
use user_questions::agents::setup::{self, Setup, SetupError};
use user_questions::agents::version::{on_path, printed_by};
use user_questions::agents::{Agent, Version};

#[derive(Args)]
pub struct SetupArgs {
    /// The agent (see `userq setup --help`).
    #[arg(value_parser = crate::agent_arg)]
    agent: Agent,
    /// Claude Code: write this project's .claude/settings.json instead of the user's.
    #[arg(long)]
    project: bool,
    /// Claude Code: when it stops with changes not yet reviewed, ask for a review of
    /// them; Request changes sends it back to work with your comments.
    #[arg(long)]
    review_changes: bool,
    /// Print what would change; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Take out what setup added.
    #[arg(long)]
    remove: bool,
}

pub async fn run(args: SetupArgs) -> ExitCode {
    let t = tr();
    if args.project && !args.agent.project_settings {
        return crate::fail(2, &t.tr_args("setup-project-only", &[("agent", args.agent.name.into())]));
    }
    let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from) else {
        return crate::fail(1, &t.tr("setup-no-home"));
    };
    let error = |e: &dyn std::fmt::Display| e.to_string();
    let userq = match std::env::current_exe().and_then(|p| p.canonicalize()) {
        Ok(p) => p,
        Err(e) => return crate::fail(1, &t.tr_args("setup-no-self", &[("error", (&error(&e)).into())])),
    };
    let project = match args.project.then(std::env::current_dir).transpose() {
        Ok(p) => p,
        Err(e) => return crate::fail(1, &t.tr_args("setup-no-cwd", &[("error", (&error(&e)).into())])),
    };
    if args.review_changes && args.agent.name != "claude-code" {
        return crate::fail(2, &t.tr_args("setup-review-only", &[("agent", args.agent.name.into())]));
    }
    let installed = match on_path(args.agent.program) {
        Some(program) => printed_by(&program).await.as_deref().and_then(Version::find),
        None => None,
    };
    let setup = Setup {
        agent: args.agent,
        home,
        project,
        userq: userq.clone(),
        remove: args.remove,
        review_changes: args.review_changes,
        installed,
    };
    if !args.remove {
        for line in connection::version_words(&setup, t) {
            println!("{line}");
        }
    }
    let changes = match setup.plan() {
        Ok(c) => c,
        Err(e) => return crate::fail(1, &setup_error(&e)),
    };
    if changes.is_empty() {
        let removing = if args.remove { "yes" } else { "no" };
        let agent = args.agent.display_name;
        println!("{}", t.tr_args("setup-nothing-to-change", &[("agent", agent.into()), ("removing", removing.into())]));
    }
    for line in connection::worded(&changes, args.dry_run, t) {
        println!("{line}");
    }
    if !args.dry_run {
        if let Err(e) = setup::apply(&changes) {
            return crate::fail(1, &setup_error(&e));
        }
    }
    if !args.remove && !args.dry_run && !changes.is_empty() {
        let userq = userq.display().to_string();
        println!("{}", t.tr_args(args.agent.setup_done, &[("userq", (&userq).into())]));
    }
    ExitCode::SUCCESS
}

fn setup_error(e: &SetupError) -> String {
    let path = |p: &std::path::Path| p.display().to_string();
    match e {
        SetupError::Invalid { path: p, format, error } => tr().tr_args(
            "setup-invalid",
            &[("path", (&path(p)).into()), ("format", (*format).into()), ("error", error.into())],
        ),
        SetupError::Read { path: p, error } => {
            tr().tr_args("setup-cannot-read", &[("path", (&path(p)).into()), ("error", (&error.to_string()).into())])
        }
        SetupError::Write { path: p, error } => {
            tr().tr_args("setup-cannot-write", &[("path", (&path(p)).into()), ("error", (&error.to_string()).into())])
        }
    }
}
