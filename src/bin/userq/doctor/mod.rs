//! `userq doctor`: why a hook might not fire, found before a person waits for a
//! question that never comes. For each agent found on `PATH` (or set up): its version,
//! whether User Questions' hooks are in its settings as `userq setup` writes them now
//! (pointing at this `userq`, with their timeouts and switches), and whether the server
//! answers on the socket. One line each; exit 1 when something is wrong; `--json` for
//! scripts. Setup's own plan is the check: what it would still change is what is wrong.
//! Where an agent must also agree to run a hook (Codex's trust), the agent is asked.

mod codex;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde_json::json;
use user_questions::agents::setup::Setup;
use user_questions::agents::version::{on_path, printed_by};
use user_questions::agents::{Agent, Version};
use user_questions::channel::client::Client;

use crate::tr;

#[derive(Args)]
pub struct DoctorArgs {
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
}

/// How an agent's hooks stand.
#[derive(Clone, Copy, PartialEq)]
enum Hooks {
    /// As setup writes them now.
    Current,
    /// Some of ours, but setup would still change something (another `userq`, an
    /// older shape, a switch turned off).
    Stale,
    /// None of ours.
    Absent,
    /// The settings cannot be read.
    Unreadable,
}

impl Hooks {
    fn name(self) -> &'static str {
        match self {
            Self::Current => "current",
            Self::Stale => "stale",
            Self::Absent => "absent",
            Self::Unreadable => "unreadable",
        }
    }

    fn message(self) -> &'static str {
        match self {
            Self::Current => "doctor-hooks-current",
            Self::Stale => "doctor-hooks-stale",
            Self::Absent => "doctor-hooks-absent",
            Self::Unreadable => "doctor-hooks-unreadable",
        }
    }
}

pub async fn run(socket: PathBuf, args: DoctorArgs) -> ExitCode {
    let t = tr();
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from).unwrap_or_default();
    let userq = std::env::current_exe().and_then(|p| p.canonicalize()).unwrap_or_default();
    let mut wrong = false;
    let mut agents = Vec::new();
    let mut lines = Vec::new();
    for agent in Agent::ALL {
        let found = on_path(agent.program);
        let version = match &found {
            Some(program) => printed_by(program).await,
            None => None,
        };
        let installed = version.as_deref().and_then(Version::find);
        let (hooks, detail) = hooks(agent, &home, &userq, installed);
        if found.is_none() && hooks == Hooks::Absent {
            continue;
        }
        wrong |= matches!(hooks, Hooks::Stale | Hooks::Unreadable);
        let name = agent.display_name;
        let shown_version = version.clone().unwrap_or_else(|| t.tr("doctor-not-found"));
        let mut state = t.tr_args(hooks.message(), &[("agent", agent.name.into()), ("detail", (&detail).into())]);
        let mut report = json!({
            "agent": agent.name, "found": found.is_some(), "version": version,
            "hooks": hooks.name(), "detail": detail, "tested": agent.tested.to_string(),
        });
        if let (Some(program), Hooks::Current, "codex") = (&found, hooks, agent.name) {
            let setup = Setup {
                agent,
                home: home.clone(),
                project: None,
                userq: userq.clone(),
                remove: false,
                review_changes: false,
                installed,
            };
            let codex_home = setup.agent_home("CODEX_HOME", ".codex");
            // Codex's app server makes a home where there is none: only an existing one is asked.
            if codex_home.is_dir() {
                let cwd = std::env::current_dir().unwrap_or_else(|_| home.clone());
                match codex::trust(program, &setup.command(), &cwd).await {
                    Ok(trust) => {
                        wrong |= !trust.runs();
                        state = format!("{state}; {}", t.tr(trust.message()));
                        report["trust"] = trust.name().into();
                    }
                    Err(error) => {
                        state =
                            format!("{state}; {}", t.tr_args("doctor-trust-unknown", &[("error", (&error).into())]));
                        report["trust"] = json!(null);
                        report["trustError"] = error.into();
                    }
                }
            }
        }
        let tested = t.tr_args("doctor-tested", &[("version", (&agent.tested.to_string()).into())]);
        lines.push(format!("{name} ({shown_version}; {tested}): {state}"));
        agents.push(report);
    }
    let server = match Client::connect(&socket, "userq doctor").await {
        Ok(_) => None,
        Err(e) => Some(e.to_string()),
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

/// How `agent`'s hooks stand, and what setup would still change when they are stale.
fn hooks(agent: Agent, home: &Path, userq: &Path, installed: Option<Version>) -> (Hooks, String) {
    let setup = |remove| Setup {
        agent,
        home: home.to_owned(),
        project: None,
        userq: userq.to_owned(),
        remove,
        review_changes: false,
        installed,
    };
    let (add, remove) = match (setup(false).plan(), setup(true).plan()) {
        (Ok(add), Ok(remove)) => (add, remove),
        (Err(e), _) | (_, Err(e)) => return (Hooks::Unreadable, e.to_string()),
    };
    let files = |changes: &[user_questions::agents::setup::FileChange]| {
        changes.iter().map(|c| c.path.display().to_string()).collect::<Vec<_>>().join(", ")
    };
    match (add.is_empty(), remove.is_empty()) {
        (true, _) => (Hooks::Current, files(&remove)),
        (false, true) => (Hooks::Absent, String::new()),
        (false, false) => (Hooks::Stale, files(&add)),
    }
}
