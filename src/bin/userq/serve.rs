//! `userq serve`: the service and its socket, headless, until SIGINT or SIGTERM.

use std::path::PathBuf;
use std::process::ExitCode;

use tokio::signal::unix::{signal, SignalKind};
use user_questions::channel::server::{self, BindError};
use user_questions::host::{Config, Host};

pub async fn run(socket: PathBuf) -> ExitCode {
    // Handlers first: a SIGTERM that comes as soon as the socket exists stops cleanly.
    let mut term = signal(SignalKind::terminate()).expect("a SIGTERM handler");
    let mut int = signal(SignalKind::interrupt()).expect("a SIGINT handler");
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => return crate::fail(2, &format!("userq serve: {e}")),
    };
    let listener = match server::bind(&socket) {
        Ok(l) => l,
        Err(e @ BindError::AlreadyRunning(_)) => {
            return crate::fail(crate::EXIT_NO_SERVER, &format!("userq serve: {e}"))
        }
        Err(e) => return crate::fail(1, &format!("userq serve: {e}")),
    };
    tracing::info!("listening on {}", socket.display());
    let stop = async move {
        tokio::select! {
            _ = int.recv() => {}
            _ = term.recv() => {}
        }
        tracing::info!("stopping: pending asks end with SHUTTING_DOWN");
    };
    if !config.trusted_uids.is_empty() {
        tracing::info!("also admitting uids {:?} (USERQ_TRUST_UIDS)", config.trusted_uids);
    }
    let host = Host::start(&config);
    tokio::spawn(log_deadlines(host.deadline_passed.resubscribe()));
    if let Some(history) = host.history.as_ref().and_then(|h| h.file()) {
        tracing::info!("history in {}", history.display());
    }
    // The relay and the remembered SSH hosts each log how they are.
    host.run(listener, &socket, stop, std::sync::Arc::new(|_| {})).await;
    tracing::info!("stopped; removed {}", socket.display());
    ExitCode::SUCCESS
}

/// One line for each question the person's deadline decided.
async fn log_deadlines(mut passed: tokio::sync::broadcast::Receiver<user_questions::deadline::Passed>) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        match passed.recv().await {
            Ok(p) => {
                let question = p.request.questions.first().map_or("", |q| q.question.as_str());
                let ending = if p.denied { "denied" } else { "dismissed" };
                let after = humantime::format_duration(p.deadline);
                tracing::info!("nobody answered within {after}, the deadline: {ending} {question:?}");
            }
            Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => break,
        }
    }
}
