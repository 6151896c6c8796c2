//! `userq review`: a review of changes, asked of the person, before they go further.
//! The working tree's changes against HEAD (untracked files included), `--staged`,
//! `--base REF`, or a diff on stdin; it waits for the answer, prints the feedback, and
//! exits 0 on Approve and 1 when changes are requested, so a script or an agent can
//! stop on it.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tokio_util::sync::CancellationToken;
use user_questions::channel::asker::{AgentSpec, Asker};
use user_questions::model::Context;
use user_questions::review::{self, git, Verdict};

use crate::tr;

#[derive(Args)]
pub struct ReviewArgs {
    /// Review what is staged, against HEAD.
    #[arg(long, conflicts_with = "base")]
    staged: bool,
    /// Review the working tree against this commit instead of HEAD.
    #[arg(long, value_name = "REF")]
    base: Option<String>,
}

/// Exit status when changes are requested.
const CHANGES_REQUESTED: u8 = 1;

pub async fn run(socket: PathBuf, args: ReviewArgs) -> ExitCode {
    let t = tr();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let diff = match the_diff(&cwd, &args) {
        Ok(d) => d,
        Err(e) => return crate::fail(2, &format!("userq review: {e}")),
    };
    if diff.trim().is_empty() {
        eprintln!("{}", t.tr("review-nothing"));
        return ExitCode::SUCCESS;
    }
    let agent = AgentSpec { id: crate::ask::default_agent_id(), delegation_depth: 0 };
    let context = Context { project: Some(cwd.display().to_string()), ..Context::default() };
    let asker = Asker::new(socket, "userq review", Some(agent)).with_context(context);
    if let Err(e) = asker.connect().await {
        return crate::client_failure(&e);
    }
    let cancel = CancellationToken::new();
    let mut interrupt = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).expect("SIGINT");
    tokio::spawn({
        let cancel = cancel.clone();
        async move {
            if interrupt.recv().await.is_some() {
                cancel.cancel();
            }
        }
    });
    match asker.ask(&[review::question(&diff)], &cancel).await {
        Ok(answer) => match review::verdict(&answer) {
            Verdict::Approved => {
                eprintln!("{}", t.tr("review-approved"));
                ExitCode::SUCCESS
            }
            Verdict::Changes(feedback) => {
                println!("{feedback}");
                ExitCode::from(CHANGES_REQUESTED)
            }
            Verdict::None => crate::fail(CHANGES_REQUESTED, &t.tr("review-skipped")),
        },
        Err(_) if cancel.is_cancelled() => crate::fail(130, &t.tr("review-interrupted")),
        Err(e) => crate::client_failure(&e),
    }
}

/// The diff under review: stdin's when something is piped in, else git's.
fn the_diff(cwd: &std::path::Path, args: &ReviewArgs) -> Result<String, String> {
    if !std::io::stdin().is_terminal() && !args.staged && args.base.is_none() {
        let mut piped = String::new();
        std::io::stdin().read_to_string(&mut piped).map_err(|e| format!("stdin: {e}"))?;
        if !piped.trim().is_empty() {
            return Ok(piped);
        }
    }
    if git::top(cwd).is_none() {
        return Err(tr().tr("review-no-repo"));
    }
    git::changes(cwd, args.staged, args.base.as_deref())
}
