//! The socket server: one per path, owner-only, stopping cleanly. `bind` claims the
//! path (refusing a live one, replacing a stale one); `run` serves until `shutdown`
//! resolves, then ends every pending ask with `SHUTTING_DOWN` and removes the socket.

use std::future::Future;
use std::io;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::UnixListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::peer;
use super::session;
use crate::model::UserQuestionError;
use crate::service::UserQuestions;

/// Connections served at once; past this a client is told so and closed.
pub const MAX_CONNECTIONS: usize = 1024;

#[derive(Debug, thiserror::Error)]
pub enum BindError {
    #[error("a user-questions server is already listening on {0}")]
    AlreadyRunning(PathBuf),
    #[error("cannot listen on {path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("refusing to listen in {dir}: {why}")]
    UnsafeFolder { dir: PathBuf, why: String },
}

/// Binds the socket at `path`: its folder created 0700 (or, when it exists, owned by
/// this user and closed to others), the socket 0600.
pub fn bind(path: &Path) -> Result<UnixListener, BindError> {
    let io_err = |source| BindError::Io { path: path.to_owned(), source };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.exists() {
        // The mode is set as the folder is made: it is never open, not even briefly.
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir).map_err(io_err)?;
    }
    if let Some(why) = peer::unsafe_folder(dir).map_err(io_err)? {
        return Err(BindError::UnsafeFolder { dir: dir.to_owned(), why });
    }
    if path.exists() {
        if std::os::unix::net::UnixStream::connect(path).is_ok() {
            return Err(BindError::AlreadyRunning(path.to_owned()));
        }
        std::fs::remove_file(path).map_err(io_err)?;
    }
    let listener = UnixListener::bind(path).map_err(io_err)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(io_err)?;
    Ok(listener)
}

/// Who may connect besides this user, and how many at once.
#[derive(Debug, Clone)]
pub struct Admission {
    /// Other uids let in (a container's root, named by the person).
    pub trusted: Vec<u32>,
    pub max_connections: usize,
}

impl Default for Admission {
    fn default() -> Self {
        Self { trusted: Vec::new(), max_connections: MAX_CONNECTIONS }
    }
}

/// Serves `service` on `listener` until `shutdown` resolves.
pub async fn run(listener: UnixListener, service: UserQuestions, shutdown: impl Future<Output = ()>) {
    run_with(listener, service, shutdown, Admission::default()).await
}

/// [`run`] with another limit of connections served at once.
pub async fn run_with_limit(
    listener: UnixListener,
    service: UserQuestions,
    shutdown: impl Future<Output = ()>,
    max_connections: usize,
) {
    run_with(listener, service, shutdown, Admission { max_connections, ..Admission::default() }).await
}

/// [`run`], admitting as `admission` says.
pub async fn run_with(
    listener: UnixListener,
    service: UserQuestions,
    shutdown: impl Future<Output = ()>,
    admission: Admission,
) {
    let Admission { trusted, max_connections } = admission;
    let path = listener.local_addr().ok().and_then(|a| a.as_pathname().map(Path::to_owned));
    let uid = peer::own_uid();
    let stopping = CancellationToken::new();
    let connections = TaskTracker::new();
    let slots = Arc::new(Semaphore::new(max_connections));
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            () = &mut shutdown => break,
            stream = accept(&listener, |peer| peer == uid || trusted.contains(&peer)) => stream,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            connections.spawn(refuse(stream));
            continue;
        };
        let (service, stopping) = (service.clone(), stopping.clone());
        connections.spawn(async move {
            session::serve(stream, service, stopping).await;
            drop(slot);
        });
    }
    drop(listener);
    service.shut_down();
    stopping.cancel();
    connections.close();
    let _ = tokio::time::timeout(Duration::from_secs(3), connections.wait()).await;
    if let Some(path) = path {
        let _ = std::fs::remove_file(path);
    }
}

/// The next connection of a user `admits`; others are closed, and a failed accept is
/// waited out.
pub(crate) async fn accept(listener: &UnixListener, admits: impl Fn(u32) -> bool) -> tokio::net::UnixStream {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => match peer::peer_uid(&stream) {
                Ok(peer) if admits(peer) => return stream,
                Ok(peer) => {
                    tracing::warn!("closed a connection from uid {peer} (USERQ_TRUST_UIDS admits another user)")
                }
                Err(_) => {}
            },
            Err(e) => {
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

async fn refuse(mut stream: tokio::net::UnixStream) {
    let e =
        serde_json::json!({"jsonrpc": "2.0", "id": null, "error": UserQuestionError::too_many_connections().to_rpc()});
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(format!("{e}\n").as_bytes())).await;
}
