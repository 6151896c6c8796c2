//! `userq serve`: the service and its socket, headless, until SIGINT or SIGTERM.

use std::path::PathBuf;
use std::process::ExitCode;

use tokio::signal::unix::{signal, SignalKind};
use user_questions::channel::server::{self, BindError};
use user_questions::UserQuestions;

pub async fn run(socket: PathBuf) -> ExitCode {
    let listener = match server::bind(&socket) {
        Ok(l) => l,
        Err(e @ BindError::AlreadyRunning(_)) => {
            return crate::fail(crate::EXIT_NO_SERVER, &format!("userq serve: {e}"))
        }
        Err(e) => return crate::fail(1, &format!("userq serve: {e}")),
    };
    tracing::info!("listening on {}", socket.display());
    let mut term = signal(SignalKind::terminate()).expect("a SIGTERM handler");
    let stop = async move {
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
        tracing::info!("stopping: pending asks end with SHUTTING_DOWN");
    };
    server::run(listener, UserQuestions::new(), stop).await;
    tracing::info!("stopped; removed {}", socket.display());
    ExitCode::SUCCESS
}
