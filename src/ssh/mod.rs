//! Agents on another host ask here: the system's `ssh` (the person's own keys, config,
//! jump hosts and agent) keeps a reverse forward of a socket of this machine's to the
//! host's default socket path, so `userq hook`, `userq ask` and `userq mcp` there work
//! unchanged. The socket here is a door of its own ([`bridge`]): each ask through it
//! carries the host's name as its `context.machine`. Before each forward a stale
//! socket on the host is removed (sshd does not replace one); a forward that drops is
//! made again, waiting longer each time up to 30 s. The questions of an agent on the
//! host survive a drop: its asker waits for the socket and asks again, as across a
//! server restart.
//!
//! `userq ssh HOST` keeps one forward while it runs; hosts remembered with `userq ssh
//! HOST --remember` are kept by a serving host, `userq serve` or the desktop app
//! ([`remembered`]).

pub mod remembered;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio_util::sync::CancellationToken;

use crate::channel::{bridge, server};

/// A host to forward to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    /// The host, as `ssh` names it (`user@host`, or a `Host` of ~/.ssh/config).
    pub host: String,
    /// The machine's name as questions show it.
    pub name: String,
    /// The socket path on the host; `None` is what `userq` there would use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote_socket: Option<String>,
    /// Options for `ssh` itself (`-p 2222`, `-J jump`, `-i key`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
}

impl Target {
    /// `host`, named as questions show it: `name`, else the host without its user.
    pub fn new(host: &str, name: Option<String>) -> Self {
        let name = name.unwrap_or_else(|| host.rsplit('@').next().unwrap_or(host).to_owned());
        Self { host: host.to_owned(), name, remote_socket: None, options: Vec::new() }
    }
}

/// What happens to a forward, as it happens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// In place: agents on the host ask here through `path` there.
    Forwarding { path: String },
    /// The host has no `userq` on its PATH (its hooks cannot reach the socket).
    NoUserq,
    /// The forward dropped; it is made again.
    Dropped,
    /// The host cannot be reached, or refused (what ssh said); tried again.
    Retrying { said: String },
}

/// Whether a forward refused before it was ever made ends [`keep`] (a person at a
/// terminal wants to hear at once), or is tried again like a drop (a host kept by a
/// server may be asleep).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstRefusal {
    Ends,
    Retried,
}

/// The door of `target` beside `socket`: `hosts/<name>.sock`.
pub fn door(socket: &Path, target: &Target) -> PathBuf {
    socket.parent().unwrap_or(Path::new(".")).join("hosts").join(format!("{}.sock", file_safe(&target.name)))
}

/// Keeps the forward of `target` to the service on `socket` until `stop` resolves;
/// `Err` with ssh's words when the first forward is refused and `first` says that ends it.
pub async fn keep(
    target: &Target,
    socket: &Path,
    first: FirstRefusal,
    mut report: impl FnMut(Event),
    stop: impl Future<Output = ()>,
) -> Result<(), String> {
    let door = door(socket, target);
    let listener = server::bind(&door).map_err(|e| e.to_string())?;
    let bridged = CancellationToken::new();
    let bridge =
        tokio::spawn(bridge::run(listener, socket.to_owned(), target.name.clone(), bridged.clone().cancelled_owned()));
    let kept = async {
        let mut wait = Duration::from_secs(1);
        let mut made_once = false;
        loop {
            let outcome = match prepare(target, &mut report).await {
                Ok(remote) => Ok(forward(target, &remote, &door, &mut report).await),
                Err(said) => Err(said),
            };
            match outcome {
                Ok(Forward { made: true, .. }) => {
                    made_once = true;
                    wait = Duration::from_secs(1);
                    report(Event::Dropped);
                }
                // Refused before it was ever made: nothing to wait for.
                Ok(Forward { gave_up: true, said, .. }) | Err(said) if !made_once && first == FirstRefusal::Ends => {
                    return Err(said);
                }
                Ok(Forward { said, .. }) | Err(said) => report(Event::Retrying { said }),
            }
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(Duration::from_secs(30));
        }
    };
    let outcome = tokio::select! {
        outcome = kept => outcome,
        () = stop => Ok(()),
    };
    bridged.cancel();
    let _ = bridge.await;
    outcome
}

/// The shell the host runs before each forward: where its socket is (the path `userq`
/// there computes), its folder made the user's alone, a stale socket removed; and
/// whether `userq` is on its PATH.
const PREPARE: &str = r#"p="$1"
if [ -z "$p" ]; then
  if [ -n "$USERQ_SOCKET" ]; then p="$USERQ_SOCKET"
  elif [ -n "$XDG_RUNTIME_DIR" ]; then p="$XDG_RUNTIME_DIR/user-questions/userq.sock"
  else p="${TMPDIR:-/tmp}/user-questions-$(id -u)/userq.sock"; fi
fi
d=$(dirname "$p")
mkdir -p "$d" && chmod 700 "$d" && rm -f "$p" || exit 3
command -v userq >/dev/null 2>&1 || echo "no-userq"
echo "socket $p""#;

/// What the host prints once the forward is in place.
const MADE: &str = "userq-forwarded";

/// Readies the host for a forward; its socket path, or what went wrong.
async fn prepare(target: &Target, report: &mut impl FnMut(Event)) -> Result<String, String> {
    let mut ssh = ssh_command(target);
    ssh.args(["-o", "BatchMode=yes", &target.host, "sh", "-c", &shell_quote(PREPARE), "userq-ssh"]);
    ssh.arg(shell_quote(target.remote_socket.as_deref().unwrap_or("")));
    let out = ssh.output().await.map_err(|e| format!("ssh: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(last_words(&out.stderr));
    }
    if stdout.lines().any(|l| l == "no-userq") {
        report(Event::NoUserq);
    }
    stdout.lines().find_map(|l| l.strip_prefix("socket ")).map(str::to_owned).ok_or_else(|| last_words(&out.stderr))
}

/// What one forward came to: whether it was made, whether ssh itself gave up (exit
/// 255: the host unreachable, the login or the forward refused, the connection lost),
/// and what ssh said last.
struct Forward {
    made: bool,
    gave_up: bool,
    said: String,
}

/// The forward, until it ends. It is made once the host runs the command that follows
/// it: with `ExitOnForwardFailure`, ssh ends before that when the forward is refused.
/// That command waits on its input, which this side holds open and never writes: when
/// the connection ends, however it ends, the host's side reads its end and goes too
/// (a command that waited on a timer outlived every dropped connection). The shell
/// stays until then (the command does not end with `cat`, which it would become), so
/// the forward is found on the host by its words.
async fn forward(target: &Target, remote: &str, door: &Path, report: &mut impl FnMut(Event)) -> Forward {
    let mut ssh = ssh_command(target);
    ssh.args(["-T", "-o", "ExitOnForwardFailure=yes", "-o", "ServerAliveInterval=10", "-o"])
        .arg("ServerAliveCountMax=3")
        .args(["-o", "StreamLocalBindMask=0177", "-R"])
        .arg(format!("{remote}:{}", door.display()))
        .arg(&target.host)
        .arg(format!("echo {MADE}; cat >/dev/null; exit"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match ssh.spawn() {
        Ok(c) => c,
        Err(e) => return Forward { made: false, gave_up: true, said: format!("ssh: {e}") },
    };
    let (Some(input), Some(out), Some(mut err)) = (child.stdin.take(), child.stdout.take(), child.stderr.take()) else {
        return Forward { made: false, gave_up: true, said: "ssh: no pipes".into() };
    };
    let made = async {
        let mut lines = BufReader::new(out).lines();
        let mut made = false;
        while let Ok(Some(line)) = lines.next_line().await {
            if line.trim() == MADE {
                made = true;
                report(Event::Forwarding { path: remote.to_owned() });
            }
        }
        made
    };
    let said = async {
        let mut said = Vec::new();
        let _ = err.read_to_end(&mut said).await;
        said
    };
    let (made, said) = tokio::join!(made, said);
    let gave_up = child.wait().await.map_or(true, |status| status.code() == Some(255));
    drop(input);
    Forward { made, gave_up, said: last_words(&said) }
}

fn ssh_command(target: &Target) -> tokio::process::Command {
    let mut ssh = tokio::process::Command::new("ssh");
    ssh.args(&target.options).stdin(Stdio::null()).kill_on_drop(true);
    ssh
}

/// The last line of what ssh printed, for a person to read.
fn last_words(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    text.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or("ssh ended").to_owned()
}

/// A name as a file name: anything but letters, digits, `.`, `-` and `_` becomes `_`.
fn file_safe(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || ".-_".contains(c) { c } else { '_' }).collect()
}

/// One argument for the remote shell, which ssh joins with spaces.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_is_named_without_its_user_and_its_door_is_a_safe_file_name() {
        let t = Target::new("me@dev.example", None);
        assert_eq!(t.name, "dev.example");
        let odd = Target::new("h", Some("a/b c".into()));
        assert_eq!(door(Path::new("/run/u/userq.sock"), &odd), Path::new("/run/u/hosts/a_b_c.sock"));
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
