//! `userq doctor`: why a hook might not fire, found before a person waits for a
//! question that never comes. For each agent found on `PATH` (or set up): its version,
//! whether User Questions' hooks are in its settings as `userq setup` writes them now
//! (pointing at this `userq`, with their timeouts and switches), and whether the server
//! answers on the socket. One line each; exit 1 when something is wrong; `--json` for
//! scripts. Setup's own plan is the check: what it would still change is what is wrong.
//! Where an agent must also agree to run a hook (Codex's trust), the agent is asked.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::json;
use user_questions::agents::connection::{self, Standing};
use user_questions::agents::Agent;
use user_questions::channel::client::Client;

use crate::tr;

#[derive(Args)]
pub struct DoctorArgs {
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
}

pub async fn run(socket: PathBuf, args: DoctorArgs) -> ExitCode {
    let t = tr();
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from).unwrap_or_default();
    let userq = std::env::current_exe().and_then(|p| p.canonicalize()).unwrap_or_default();
    let cwd = std::env::current_dir().unwrap_or_else(|_| home.clone());
    let mut wrong = false;
    let mut agents = Vec::new();
    let mut lines = Vec::new();
    for agent in Agent::ALL {
        let found = connection::report(agent, &home, &userq, &cwd).await;
        if !found.here() {
            continue;
        }
        wrong |= matches!(found.standing, Standing::Stale | Standing::Unreadable);
        let shown_version = found.printed.clone().unwrap_or_else(|| t.tr("doctor-not-found"));
        let detail = &found.detail;
        let mut state = t.tr_args(found.standing.message(), &[("agent", agent.name.into()), ("detail", detail.into())]);
        let mut report = json!({
            "agent": agent.name, "found": found.program.is_some(), "version": found.printed,
            "hooks": found.standing.name(), "detail": detail, "tested": agent.tested.to_string(),
        });
        match &found.trust {
            None => {}
            Some(Ok(trust)) => {
                wrong |= !trust.runs();
                state = format!("{state}; {}", t.tr(trust.message()));
                report["trust"] = trust.name().into();
            }
            Some(Err(error)) => {
                state = format!("{state}; {}", t.tr_args("doctor-trust-unknown", &[("error", error.into())]));
                report["trust"] = json!(null);
                report["trustError"] = error.clone().into();
            }
        }
        let tested = t.tr_args("doctor-tested", &[("version", (&agent.tested.to_string()).into())]);
        lines.push(format!("{} ({shown_version}; {tested}): {state}", agent.display_name));
        agents.push(report);
    }
    let server = match Client::connect(&socket, "userq doctor").await {
        Ok(_) => None,
        Err(e) => Some(crate::client_words(&e)),
    };
    wrong |= server.is_some();
    let socket_shown = socket.display().to_string();
    lines.push(match &server {
        None => t.tr_args("doctor-server-ok", &[("socket", (&socket_shown).into())]),
        Some(error) => t.tr_args("doctor-server-down", &[("error", error.into())]),
    });
    if args.json {
        let report =
            json!({"agents": agents, "server": {"socket": socket, "answers": server.is_none(), "error": server}});
        println!("{report}");
    } else {
        if agents.is_empty() {
            println!("{}", t.tr("doctor-no-agents"));
        }
        for line in lines {
            println!("{line}");
        }
    }
    if wrong {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
