//! `userq ssh HOST [ssh options]`: agents on HOST ask here. The system's `ssh` (the
//! person's own keys, config, jump hosts and agent) keeps a reverse forward of a
//! socket of this machine's to HOST's default socket path, so `userq hook`, `userq
//! ask` and `userq mcp` there work unchanged. The socket here is a door of its own
//! (`channel::bridge`): each ask through it carries HOST's name as its
//! `context.machine`. Before each forward a stale socket on HOST is removed (sshd does
//! not replace one); a forward that drops is made again, waiting longer each time up
//! to 30 s; the first one refused ends `userq ssh` with ssh's own words. The questions
//! of an agent on HOST survive a drop: its asker waits for the socket and asks again,
//! as across a server restart.

use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::Duration;

use clap::Args;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::signal::unix::{signal, SignalKind};
use tokio_util::sync::CancellationToken;
use user_questions::channel::{bridge, server};

use crate::tr;

#[derive(Args)]
pub struct SshArgs {
    /// The host, as `ssh` names it (`user@host`, or a `Host` of ~/.ssh/config).
    host: String,
    /// The machine's name as questions show it (default: the host).
    #[arg(long)]
    name: Option<String>,
    /// The socket path on the host (default: what `userq` there would use:
    /// $USERQ_SOCKET, else $XDG_RUNTIME_DIR/user-questions/userq.sock, else
    /// /tmp/user-questions-<uid>/userq.sock).
    #[arg(long, value_name = "PATH")]
    remote_socket: Option<String>,
    /// Options for `ssh` itself (`-p 2222`, `-J jump`, `-i key`), after `--`.
    #[arg(last = true, value_name = "SSH OPTIONS")]
    ssh: Vec<String>,
}

/// What HOST prints once the forward is in place.
const MADE: &str = "userq-forwarded";

/// The shell HOST runs before each forward: where its socket is (the path `userq`
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

pub async fn run(socket: PathBuf, args: SshArgs) -> ExitCode {
    let t = tr();
    let name = args.name.clone().unwrap_or_else(|| host_name(&args.host));
    let door = socket.parent().unwrap_or(Path::new(".")).join("hosts").join(format!("{}.sock", file_safe(&name)));
    let listener = match server::bind(&door) {
        Ok(l) => l,
        Err(e) => return crate::fail(1, &format!("userq ssh: {e}")),
    };
    let stop = CancellationToken::new();
    let bridge = tokio::spawn(bridge::run(listener, socket.clone(), name.clone(), stop.clone().cancelled_owned()));
    let mut term = signal(SignalKind::terminate()).expect("a SIGTERM handler");
    let mut int = signal(SignalKind::interrupt()).expect("a SIGINT handler");
    let mut wait = Duration::from_secs(1);
    let mut made_once = false;
    let code = loop {
        let forward = async {
            let remote = prepare(&args).await?;
            Ok::<_, String>(forward(&args, &remote, &door).await)
        };
        let outcome = tokio::select! {
            outcome = forward => outcome,
            _ = term.recv() => break ExitCode::SUCCESS,
            _ = int.recv() => break ExitCode::SUCCESS,
        };
        match outcome {
            Ok(Forward { made: true, .. }) => {
                made_once = true;
                wait = Duration::from_secs(1);
                eprintln!("{}", t.tr_args("ssh-dropped", &[("host", (&args.host).into())]));
            }
            // Refused before it was ever made: nothing to wait for.
            Ok(Forward { gave_up: true, said, .. }) | Err(said) if !made_once => {
                break crate::fail(
                    1,
                    &t.tr_args("ssh-refused", &[("host", (&args.host).into()), ("ssh", (&said).into())]),
                );
            }
            Ok(Forward { said, .. }) | Err(said) => {
                eprintln!("{}", t.tr_args("ssh-retry", &[("host", (&args.host).into()), ("ssh", (&said).into())]));
            }
        }
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            _ = term.recv() => break ExitCode::SUCCESS,
            _ = int.recv() => break ExitCode::SUCCESS,
        }
        wait = (wait * 2).min(Duration::from_secs(30));
    };
    stop.cancel();
    let _ = bridge.await;
    code
}

/// Readies HOST for a forward; its socket path, or what went wrong.
async fn prepare(args: &SshArgs) -> Result<String, String> {
    let mut ssh = ssh_command(args);
    ssh.args(["-o", "BatchMode=yes", &args.host, "sh", "-c", &shell_quote(PREPARE), "userq-ssh"]);
    ssh.arg(shell_quote(args.remote_socket.as_deref().unwrap_or("")));
    let out = ssh.output().await.map_err(|e| format!("ssh: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(last_words(&out.stderr));
    }
    if stdout.lines().any(|l| l == "no-userq") {
        eprintln!("{}", tr().tr_args("ssh-no-userq", &[("host", (&args.host).into())]));
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

/// The forward, until it ends. It is made once HOST runs the command that follows it:
/// with `ExitOnForwardFailure`, ssh ends before that when the forward is refused.
async fn forward(args: &SshArgs, remote: &str, door: &Path) -> Forward {
    let mut ssh = ssh_command(args);
    ssh.args(["-T", "-o", "ExitOnForwardFailure=yes", "-o", "ServerAliveInterval=10", "-o"])
        .arg("ServerAliveCountMax=3")
        .args(["-o", "StreamLocalBindMask=0177", "-R"])
        .arg(format!("{remote}:{}", door.display()))
        .arg(&args.host)
        .arg(format!("echo {MADE}; while :; do sleep 3600; done"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match ssh.spawn() {
        Ok(c) => c,
        Err(e) => return Forward { made: false, gave_up: true, said: format!("ssh: {e}") },
    };
    let (Some(out), Some(mut err)) = (child.stdout.take(), child.stderr.take()) else {
        return Forward { made: false, gave_up: true, said: "ssh: no pipes".into() };
    };
    let made = async {
        let mut lines = BufReader::new(out).lines();
        let mut made = false;
        while let Ok(Some(line)) = lines.next_line().await {
            if line.trim() == MADE {
                made = true;
                eprintln!(
                    "{}",
                    tr().tr_args("ssh-forwarding", &[("host", (&args.host).into()), ("path", remote.into())])
                );
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
    Forward { made, gave_up, said: last_words(&said) }
}

fn ssh_command(args: &SshArgs) -> tokio::process::Command {
    let mut ssh = tokio::process::Command::new("ssh");
    ssh.args(&args.ssh).stdin(Stdio::null()).kill_on_drop(true);
    ssh
}

/// The last line of what ssh printed, for a person to read.
fn last_words(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    text.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or("ssh ended").to_owned()
}

/// `user@host` → `host`.
fn host_name(host: &str) -> String {
    host.rsplit('@').next().unwrap_or(host).to_owned()
}

/// A name as a file name: anything but letters, digits, `.`, `-` and `_` becomes `_`.
fn file_safe(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || ".-_".contains(c) { c } else { '_' }).collect()
}

/// One argument for the remote shell, which ssh joins with spaces.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}
