//! Hosts a serving host keeps forwarded: `userq ssh HOST --remember` writes them into
//! `ssh-hosts.json` in the config folder, `userq ssh --forget NAME` takes one out.
//! `userq serve` and the desktop app keep a forward to each ([`keep_all`]), taken up
//! and dropped as the file changes, and say how each one is (the app in its tray).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::Serialize;
use tokio_util::sync::CancellationToken;

use super::{keep, Event, FirstRefusal, Target};
use crate::paths::Access;

pub const FILE: &str = "ssh-hosts.json";

/// How often a serving host looks whether the file changed.
const CHECK: Duration = Duration::from_secs(2);

/// The file in the config folder (see [`crate::paths::config_dir`]).
pub fn default_path() -> Option<PathBuf> {
    crate::paths::config_dir().map(|d| d.join(FILE))
}

/// The hosts remembered; none when there is no file. A file that is not a list of
/// hosts is an error naming it.
pub fn load(path: &Path) -> Result<Vec<Target>, String> {
    match std::fs::read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
        Ok(bytes) => {
            serde_json::from_slice(&bytes).map_err(|e| format!("{}: not a list of hosts ({e})", path.display()))
        }
    }
}

fn save(path: &Path, hosts: &[Target]) -> Result<(), String> {
    let bytes = serde_json::to_vec_pretty(hosts).expect("hosts serialize");
    crate::paths::write(path, &bytes, Access::Private).map_err(|e| format!("{}: {e}", path.display()))
}

/// Remembers `target`, in place of a host of the same name.
pub fn remember(path: &Path, target: Target) -> Result<(), String> {
    let mut hosts = load(path)?;
    match hosts.iter_mut().find(|t| t.name == target.name) {
        Some(same) => *same = target,
        None => hosts.push(target),
    }
    save(path, &hosts)
}

/// Forgets the host named `name`; whether there was one.
pub fn forget(path: &Path, name: &str) -> Result<bool, String> {
    let mut hosts = load(path)?;
    let before = hosts.len();
    hosts.retain(|t| t.name != name);
    if hosts.len() == before {
        return Ok(false);
    }
    save(path, &hosts).map(|()| true)
}

/// How a remembered host is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum Status {
    Connecting,
    Forwarding,
    /// Not reached, refused or dropped: what ssh said; tried again.
    Retrying {
        said: String,
    },
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Connecting => write!(f, "connecting"),
            Self::Forwarding => write!(f, "forwarded: its agents ask here"),
            Self::Retrying { said } => write!(f, "not reached ({said}); trying again"),
        }
    }
}

/// Each remembered host's name and status, for a door to show.
pub type Statuses = BTreeMap<String, Status>;

/// Keeps a forward to each host remembered in the file at `path`, to the service on
/// `socket`, as the file says now; `changed` hears every change of a status. Runs
/// until dropped.
pub async fn keep_all(path: PathBuf, socket: PathBuf, changed: Arc<dyn Fn(&Statuses) + Send + Sync>) {
    let statuses = Arc::new(std::sync::Mutex::new(Statuses::new()));
    let mut running: BTreeMap<String, (Target, CancellationToken)> = BTreeMap::new();
    let _stop_all = StopAll(CancellationToken::new());
    let mut seen: Option<Option<SystemTime>> = None;
    loop {
        let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        if seen != Some(stamp) {
            seen = Some(stamp);
            let wanted = load(&path).unwrap_or_else(|e| {
                tracing::warn!("ssh hosts: {e}");
                running.values().map(|(t, _)| t.clone()).collect()
            });
            running.retain(|name, (target, stop)| {
                let keep = wanted.iter().any(|w| w == target && &w.name == name);
                if !keep {
                    stop.cancel();
                    statuses.lock().unwrap().remove(name);
                }
                keep
            });
            for target in wanted {
                if running.contains_key(&target.name) {
                    continue;
                }
                let stop = _stop_all.0.child_token();
                running.insert(target.name.clone(), (target.clone(), stop.clone()));
                tokio::spawn(keep_one(target, socket.clone(), statuses.clone(), changed.clone(), stop));
            }
            changed(&statuses.lock().unwrap());
        }
        tokio::time::sleep(CHECK).await;
    }
}

/// Cancels every forward when the keeper is dropped.
struct StopAll(CancellationToken);

impl Drop for StopAll {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

async fn keep_one(
    target: Target,
    socket: PathBuf,
    statuses: Arc<std::sync::Mutex<Statuses>>,
    changed: Arc<dyn Fn(&Statuses) + Send + Sync>,
    stop: CancellationToken,
) {
    let name = target.name.clone();
    let set = |status: Status| {
        let mut all = statuses.lock().unwrap();
        if stop.is_cancelled() || all.get(&name) == Some(&status) {
            return;
        }
        tracing::info!("ssh host {name}: {status}");
        all.insert(name.clone(), status);
        changed(&all);
    };
    set(Status::Connecting);
    let report = |event: Event| match event {
        Event::Forwarding { .. } => set(Status::Forwarding),
        Event::Dropped => set(Status::Connecting),
        Event::Retrying { said } => set(Status::Retrying { said }),
        Event::NoUserq => tracing::warn!("ssh {}: the host has no userq on its PATH", target.host),
    };
    if let Err(said) = keep(&target, &socket, FirstRefusal::Retried, report, stop.clone().cancelled_owned()).await {
        set(Status::Retrying { said });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembering_replaces_a_host_of_the_same_name_and_forgetting_says_whether_there_was_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join(FILE);
        assert_eq!(load(&path).unwrap(), []);
        remember(&path, Target::new("me@dev", None)).unwrap();
        let mut moved = Target::new("me@dev2", Some("dev".into()));
        moved.options = vec!["-p".into(), "2222".into()];
        remember(&path, moved.clone()).unwrap();
        remember(&path, Target::new("ci", None)).unwrap();
        assert_eq!(load(&path).unwrap(), [moved, Target::new("ci", None)]);
        assert!(forget(&path, "ci").unwrap());
        assert!(!forget(&path, "ci").unwrap());
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        std::fs::write(&path, "{").unwrap();
        assert!(load(&path).unwrap_err().contains("not a list of hosts"));
    }
}
