//! Helpers of the tests that run `userq` as real processes: a server in a temp folder,
//! an answerer on its socket, and a process's exit code and output.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::process::{Child, Command};

use super::Peer;

pub fn userq(socket: &Path) -> Command {
    run_as_userq(Command::new(env!("CARGO_BIN_EXE_userq")), socket)
}

/// `c` (a command that runs `userq` in the end) with `userq`'s environment for a test.
pub fn run_as_userq(mut c: Command, socket: &Path) -> Command {
    // English, whatever the machine's locale; a test of another language sets its own.
    // Its history beside its socket, never the machine's.
    c.env("USERQ_SOCKET", socket).env("USERQ_LANG", "en").env_remove("RUST_LOG").kill_on_drop(true);
    c.env("USERQ_DATA_DIR", data_dir(socket));
    // Its settings (the deadline) beside it too.
    c.env("USERQ_CONFIG_DIR", config_dir(socket));
    c.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null());
    c
}

/// A test's history: beside its socket in the test's temp folder; for a socket
/// elsewhere (or none), a folder of this test process under the temp folder, never
/// the machine's or the working tree's.
pub fn data_dir(socket: &Path) -> PathBuf {
    let tmp = std::env::temp_dir();
    match socket.parent() {
        Some(dir) if dir.starts_with(&tmp) && dir != tmp => dir.join("data"),
        _ => tmp.join(format!("userq-test-data-{}", std::process::id())),
    }
}

/// A test's settings, beside its history.
pub fn config_dir(socket: &Path) -> PathBuf {
    let data = data_dir(socket);
    match data.file_name().and_then(|n| n.to_str()) {
        Some("data") => data.with_file_name("config"),
        _ => std::env::temp_dir().join(format!("userq-test-config-{}", std::process::id())),
    }
}

/// What a child says on stderr, line by line, as it says it.
#[derive(Clone, Default)]
pub struct Said(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

impl Said {
    /// Reads `child`'s stderr from now on.
    pub fn from(child: &mut Child) -> Self {
        use tokio::io::AsyncBufReadExt as _;
        let said = Self::default();
        let mut lines = tokio::io::BufReader::new(child.stderr.take().expect("stderr piped")).lines();
        let kept = said.0.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                kept.lock().unwrap().push(line);
            }
        });
        said
    }

    /// The lines said so far that hold `what`.
    pub fn lines(&self, what: &str) -> Vec<String> {
        self.0.lock().unwrap().iter().filter(|l| l.contains(what)).cloned().collect()
    }

    /// Everything said so far.
    pub fn all(&self) -> String {
        self.0.lock().unwrap().join("\n")
    }

    /// Waits until a line holds `what`; fails after 10 s, saying what was said.
    pub async fn wait_for(&self, what: &str) {
        for _ in 0..1000 {
            if !self.lines(what).is_empty() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("never said {what:?}; said:\n{}", self.all());
    }
}

/// `userq serve` in a temp folder, ready once its socket exists.
pub async fn serve(socket: &Path) -> Child {
    listening(userq(socket).arg("serve").spawn().unwrap(), socket).await
}

/// `child`, a server, once it listens on `socket`.
pub async fn listening(mut child: Child, socket: &Path) -> Child {
    for _ in 0..500 {
        if std::os::unix::net::UnixStream::connect(socket).is_ok() {
            return child;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let _ = child.start_kill();
    let out = finish(child).await;
    panic!("userq serve did not listen on {}: {}", socket.display(), out.stderr);
}

pub fn signal(child: &Child, sig: i32) {
    unsafe { libc::kill(child.id().unwrap() as i32, sig) };
}

pub struct Output {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

pub async fn finish(child: Child) -> Output {
    let out = tokio::time::timeout(Duration::from_secs(20), child.wait_with_output()).await.expect("exits").unwrap();
    Output {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn temp_socket() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    // The server listens only in a folder that is its user's alone.
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    let path = dir.path().join("userq.sock");
    (dir, path)
}

pub async fn answerer(socket: &Path, scope: Value) -> Peer {
    let mut p = Peer::connect(socket).await;
    p.call("initialize", json!({"protocolVersion": 1, "client": {"name": "t", "version": "1"}})).await;
    p.register("test", scope).await;
    p
}
