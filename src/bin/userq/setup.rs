//! `userq setup <agent>`: one command per agent registers the hooks (and the MCP
//! server where the agent loads one); `--dry-run` prints what would change, `--remove`
//! takes it out again. The editing itself is [`user_questions::agents::setup`].

use std::path::PathBuf;
use std::process::ExitCode;

use crate::tr;
use clap::Args;
use user_questions::agents::setup::{self, Setup, SetupError, Step, MCP_NAME};
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
        say_version(&setup);
    }
    let changes = match setup.plan() {
        Ok(c) => c,
        Err(e) => return crate::fail(1, &setup_error(&e)),
    };
    let dry = if args.dry_run { "yes" } else { "no" };
    if changes.is_empty() {
        let removing = if args.remove { "yes" } else { "no" };
        let agent = args.agent.display_name;
        println!("{}", t.tr_args("setup-nothing-to-change", &[("agent", agent.into()), ("removing", removing.into())]));
    }
    for change in &changes {
        let file = change.path.display().to_string();
        for step in &change.what {
            println!("{}", step_line(step, &file, dry));
        }
        if change.contents.is_none() {
            println!("{}", t.tr_args("setup-removed-file", &[("file", (&file).into()), ("dry", dry.into())]));
        }
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

/// Which version setup writes for: the installed one, beside the one this release was
/// tested with, and each event that version does not know, left out.
fn say_version(setup: &Setup) {
    let t = tr();
    let agent = setup.agent.display_name;
    let tested = setup.agent.tested.to_string();
    let installed = setup.installed.map(|v| v.to_string()).unwrap_or_default();
    let args = [("agent", agent.into()), ("installed", (&installed).into()), ("tested", (&tested).into())];
    let id = if setup.installed.is_some() { "setup-version-found" } else { "setup-version-unknown" };
    println!("{}", t.tr_args(id, &args));
    for (event, since) in setup.left_out() {
        let since = since.to_string();
        let args = [
            ("agent", agent.into()),
            ("installed", (&installed).into()),
            ("event", event.into()),
            ("since", (&since).into()),
        ];
        println!("{}", t.tr_args("setup-left-out", &args));
    }
}

/// One change, as the person reads it (`dry` is `yes` for `--dry-run`).
fn step_line(step: &Step, file: &str, dry: &str) -> String {
    let (id, event) = match step {
        Step::AddedHook { event } => ("setup-added-hook", event.as_str()),
        Step::RemovedHook { event } => ("setup-removed-hook", event.as_str()),
        Step::AddedMcp => ("setup-added-mcp", ""),
        Step::RemovedMcp => ("setup-removed-mcp", ""),
        Step::HooksOn => ("setup-hooks-on", ""),
        Step::HooksOff => ("setup-hooks-off", ""),
        Step::WroteFile => ("setup-wrote-file", ""),
    };
    tr().tr_args(id, &[("file", file.into()), ("dry", dry.into()), ("event", event.into()), ("name", MCP_NAME.into())])
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
