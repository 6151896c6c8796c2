//! `userq setup <agent>`: one command per agent registers the hooks (and the MCP
//! server where the agent loads one); `--dry-run` prints what would change, `--remove`
//! takes it out again. The editing itself is [`user_questions::agents::setup`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::tr;
use clap::Args;
use user_questions::agents::connection;
use user_questions::agents::connection::trust::{self, Trust};
use user_questions::agents::setup::{self, Setup, SetupError};
use user_questions::agents::Agent;

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
    /// Codex: also trust the hook in Codex (as its /hooks "Trust" does), after
    /// printing exactly which hook is trusted.
    #[arg(long, conflicts_with_all = ["remove", "dry_run"])]
    trust: bool,
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
    if args.trust && args.agent.name != "codex" {
        return crate::fail(2, &t.tr_args("setup-trust-only", &[("agent", args.agent.name.into())]));
    }
    if args.review_changes && args.agent.name != "claude-code" {
        return crate::fail(2, &t.tr_args("setup-review-only", &[("agent", args.agent.name.into())]));
    }
    let (program, _, installed) = connection::installed(args.agent).await;
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
    if !args.remove && !args.dry_run && !changes.is_empty() && !args.trust {
        let userq = userq.display().to_string();
        println!("{}", t.tr_args(args.agent.setup_done, &[("userq", (&userq).into())]));
    }
    if args.trust {
        return trust(&setup, program.as_deref()).await;
    }
    ExitCode::SUCCESS
}

/// Trusts the hooks setup wrote in Codex, through Codex's own app server, having said
/// exactly which hooks (each one's event, command, file and hash) first.
async fn trust(setup: &Setup, codex: Option<&Path>) -> ExitCode {
    let t = tr();
    let Some(codex) = codex else {
        return crate::fail(1, &t.tr("setup-trust-no-codex"));
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| setup.home.clone());
    let failed = |error: String| crate::fail(1, &t.tr_args("doctor-trust-unknown", &[("error", (&error).into())]));
    let hooks = match trust::listed(codex, &setup.command(), &cwd).await {
        Ok(hooks) if hooks.is_empty() => return crate::fail(1, &t.tr(Trust::Missing.message())),
        Ok(hooks) => hooks,
        Err(error) => return failed(error),
    };
    let untrusted: Vec<trust::Listed> = hooks.into_iter().filter(|h| h.trust != Trust::Trusted).collect();
    for hook in &untrusted {
        let args = [
            ("event", (&hook.event).into()),
            ("command", (&hook.command).into()),
            ("source", (&hook.source).into()),
            ("hash", (&hook.hash).into()),
        ];
        println!("{}", t.tr_args("setup-trusting", &args));
    }
    if !untrusted.is_empty() {
        if let Err(error) = trust::record(codex, &untrusted, &cwd).await {
            return failed(error);
        }
    }
    println!("{}", t.tr(Trust::Trusted.message()));
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
