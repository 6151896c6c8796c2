//! `userq serve`: the service and its socket, headless, until SIGINT or SIGTERM.

use std::path::PathBuf;
use std::process::ExitCode;

use tokio::signal::unix::{signal, SignalKind};
use user_questions::channel::server::{self, BindError};
use user_questions::UserQuestions;

pub async fn run(socket: PathBuf) -> ExitCode {
    // Handlers first: a SIGTERM that comes as soon as the socket exists stops cleanly.
    let mut term = signal(SignalKind::terminate()).expect("a SIGTERM handler");
    let mut int = signal(SignalKind::interrupt()).expect("a SIGINT handler");
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
    let service = UserQuestions::new();
    if let Some(history) = user_questions::history::install_default(&service) {
        if history.problem.is_none() {
            tracing::info!("history in {}", history.path.display());
        }
    }
    server::run(listener, service, stop).await;
    tracing::info!("stopped; removed {}", socket.display());
    ExitCode::SUCCESS
}
