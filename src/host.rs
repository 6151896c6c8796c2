//! One host for every door that serves: `userq serve` and the desktop app start the
//! service, its history, the person's deadline and its socket here, so each is wired once (in the spirit of
//! mini-redis's `server::run`: the listener and the shutdown signal are arguments, so
//! a test binds a socket in a temporary folder and stops the host when it likes).
//! What a door adds of its own (the window's answerer, a terminal's) it registers on
//! [`Host::service`] before it serves.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio::net::UnixListener;

use crate::channel::server;
use crate::deadline;
use crate::history::{self, Installed};
use crate::ssh::remembered::Statuses;
use crate::UserQuestions;

/// What a host keeps beside the service.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The folder of the history; `None` keeps none.
    pub history: Option<PathBuf>,
    /// Uids admitted besides this user's (a container's root the person trusts).
    pub trusted_uids: Vec<u32>,
    /// The relay file (`userq relay`); `None` relays nothing.
    pub relay: Option<PathBuf>,
    /// The file of SSH hosts kept forwarded (`userq ssh --remember`); `None` keeps none.
    pub ssh_hosts: Option<PathBuf>,
    /// The settings file, for the person's deadline; `None` waits for the person.
    pub settings: Option<PathBuf>,
    /// The Matrix bridge's folder (`userq matrix init`); `None` runs no bridge.
    pub matrix: Option<PathBuf>,
}

impl Config {
    /// The history where the environment puts it (`history::default_dir`), and the
    /// uids `USERQ_TRUST_UIDS` names; a list that is not uids is an error naming it.
    pub fn from_env() -> Result<Self, String> {
        Ok(Self {
            history: history::default_dir(),
            trusted_uids: crate::channel::peer::trusted_uids()?,
            relay: crate::relay::config::default_path(),
            ssh_hosts: crate::ssh::remembered::default_path(),
            settings: crate::settings::path(),
            matrix: crate::matrix::account::Place::default_place().map(|p| p.dir().to_owned()),
        })
    }
}

/// The service with its history, ready to serve.
pub struct Host {
    pub service: UserQuestions,
    /// The history kept, and what is wrong with it, if anything.
    pub history: Option<Installed>,
    /// Each question the person's deadline decided, for the door to tell them.
    pub deadline_passed: tokio::sync::broadcast::Receiver<deadline::Passed>,
    trusted_uids: Vec<u32>,
    relay: Option<PathBuf>,
    ssh_hosts: Option<PathBuf>,
    matrix: Option<PathBuf>,
}

impl Host {
    /// The service, with the history of `config` recording every ask and answering
    /// what a rule remembers.
    pub fn start(config: &Config) -> Self {
        let service = UserQuestions::new();
        let history = history::install_in(&service, config.history.clone());
        let deadline_passed = deadline::install(&service, deadline::Source::file(config.settings.clone()));
        Self {
            service,
            history,
            deadline_passed,
            trusted_uids: config.trusted_uids.clone(),
            relay: config.relay.clone(),
            ssh_hosts: config.ssh_hosts.clone(),
            matrix: config.matrix.clone(),
        }
    }

    /// The relay to the other machines of this machine's circle whenever it is paired
    /// (see [`keep_relay`]); it runs until dropped.
    fn relay(&self) -> impl Future<Output = ()> + Send + 'static {
        let (service, path) = (self.service.clone(), self.relay.clone());
        async move {
            match path {
                Some(path) => keep_relay(service, path).await,
                None => std::future::pending().await,
            }
        }
    }

    /// The Matrix bridge whenever it is set up (see [`crate::matrix::keep`]); it runs
    /// until dropped.
    fn matrix(&self) -> impl Future<Output = ()> + Send + 'static {
        let (service, dir) = (self.service.clone(), self.matrix.clone());
        async move {
            match dir {
                Some(dir) => crate::matrix::keep::keep(service, crate::matrix::account::Place::at(dir)).await,
                None => std::future::pending().await,
            }
        }
    }

    /// The forwards of the SSH hosts remembered (see [`crate::ssh::remembered`]) to
    /// the service on `socket`; `changed` hears how each one is. Runs until dropped.
    fn ssh_hosts(
        &self,
        socket: &Path,
        changed: Arc<dyn Fn(&Statuses) + Send + Sync>,
    ) -> impl Future<Output = ()> + Send + 'static {
        let (path, socket) = (self.ssh_hosts.clone(), socket.to_owned());
        async move {
            match path {
                Some(path) => crate::ssh::remembered::keep_all(path, socket, changed).await,
                None => std::future::pending().await,
            }
        }
    }

    /// Everything a serving host runs, the same for `userq serve` and the desktop app:
    /// the socket `listener` (bound at `socket`) until `shutdown` resolves, and for as
    /// long as it serves, the relay to this machine's circle whenever it is paired, the
    /// Matrix bridge whenever it is set up, and the SSH hosts remembered (`ssh_changed` hears how each one is).
    pub fn run(
        &self,
        listener: UnixListener,
        socket: &Path,
        shutdown: impl Future<Output = ()> + Send + 'static,
        ssh_changed: Arc<dyn Fn(&Statuses) + Send + Sync>,
    ) -> impl Future<Output = ()> + Send + 'static {
        let serving = self.serve(listener, shutdown);
        let relay = self.relay();
        let forwards = self.ssh_hosts(socket, ssh_changed);
        let matrix = self.matrix();
        async move {
            tokio::select! {
                () = serving => {}
                () = relay => {}
                () = forwards => {}
                () = matrix => {}
            }
        }
    }

    /// Serves the socket until `shutdown` resolves; then every pending ask ends with
    /// `SHUTTING_DOWN` and the socket file is removed.
    fn serve(&self, listener: UnixListener, shutdown: impl Future<Output = ()>) -> impl Future<Output = ()> {
        let admission = server::Admission { trusted: self.trusted_uids.clone(), ..Default::default() };
        server::run_with(listener, self.service.clone(), shutdown, admission)
    }
}

/// How often a serving host looks whether its machine was paired or left.
const RELAY_CHECK: Duration = Duration::from_secs(2);

/// Keeps the relay of the file at `path` running for `service` whenever this machine
/// is paired: from the start, or once a `userq relay init` or `join` made the file
/// while serving; stopped when `userq relay leave` removes it. A relay file that
/// cannot be used is logged once (and tried again when it changes): the local
/// service goes on. Runs until dropped.
pub async fn keep_relay(service: UserQuestions, path: PathBuf) {
    let mut node = None;
    let mut failed: Option<Option<SystemTime>> = None;
    loop {
        let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        if stamp.is_none() {
            node = None;
            failed = None;
        } else if node.is_none() && failed != Some(stamp) {
            node = relay(&service, &path).await;
            failed = node.is_none().then_some(stamp);
        }
        tokio::time::sleep(RELAY_CHECK).await;
    }
}

async fn relay(service: &UserQuestions, path: &Path) -> Option<crate::relay::Node> {
    match crate::relay::start(service, path).await {
        Ok(Some(node)) => {
            tracing::info!("relay: this machine's circle, from {}", path.display());
            Some(node)
        }
        Ok(None) => None,
        Err(e) => {
            tracing::warn!("relay: {e}");
            None
        }
    }
}
