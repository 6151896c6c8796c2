//! Whether Codex will run the hook setup wrote: Codex runs a hook from the person's
//! settings only once they have trusted it (its "Hooks need review" prompt, or
//! `/hooks`), and `codex exec` skips an untrusted one without a word. Codex's own app
//! server says how each hook stands (`hooks/list`, part of its stable protocol, with
//! no account or network needed), so that is what is asked.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// How Codex stands towards one hook.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Trust {
    /// Trusted (or managed by an administrator): it runs.
    Trusted,
    /// Never trusted: it does not run.
    Untrusted,
    /// Changed since it was trusted: it does not run.
    Modified,
    /// Turned off in `/hooks`.
    Disabled,
    /// Codex does not list it.
    Missing,
}

impl Trust {
    pub fn name(self) -> &'static str {
        match self {
            Self::Trusted => "trusted",
            Self::Untrusted => "untrusted",
            Self::Modified => "modified",
            Self::Disabled => "disabled",
            Self::Missing => "missing",
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            Self::Trusted => "doctor-trust-trusted",
            Self::Untrusted => "doctor-trust-untrusted",
            Self::Modified => "doctor-trust-modified",
            Self::Disabled => "doctor-trust-disabled",
            Self::Missing => "doctor-trust-missing",
        }
    }

    /// Whether Codex runs the hook.
    pub fn runs(self) -> bool {
        self == Self::Trusted
    }
}

/// How Codex (`codex`, its home existing) stands towards the hook that runs `command`,
/// for a session in `cwd`; an error when Codex could not be asked.
pub async fn trust(codex: &Path, command: &str, cwd: &Path) -> Result<Trust, String> {
    let listing = tokio::time::timeout(Duration::from_secs(15), hooks_list(codex, cwd))
        .await
        .map_err(|_| "codex app-server did not answer within 15 s".to_owned())??;
    let hooks = listing["data"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|entry| entry["hooks"].as_array().into_iter().flatten());
    let ours = hooks.filter(|h| h["command"] == command).collect::<Vec<_>>();
    let Some(hook) = ours.first() else { return Ok(Trust::Missing) };
    if hook["enabled"] == json!(false) {
        return Ok(Trust::Disabled);
    }
    Ok(match hook["trustStatus"].as_str() {
        Some("trusted" | "managed") => Trust::Trusted,
        Some("modified") => Trust::Modified,
        _ => Trust::Untrusted,
    })
}

/// `hooks/list` through `codex app-server`, one JSON object a line on its stdio.
async fn hooks_list(codex: &Path, cwd: &Path) -> Result<Value, String> {
    let mut server = tokio::process::Command::new(codex)
        .arg("app-server")
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start codex app-server: {e}"))?;
    let mut stdin = server.stdin.take().expect("piped");
    let requests = [
        json!({"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "user-questions", "version": env!("CARGO_PKG_VERSION")}}}),
        json!({"method": "initialized"}),
        json!({"id": 2, "method": "hooks/list", "params": {"cwds": [cwd]}}),
    ];
    for request in requests {
        stdin.write_all(format!("{request}\n").as_bytes()).await.map_err(|e| format!("codex app-server: {e}"))?;
    }
    let mut lines = BufReader::new(server.stdout.take().expect("piped")).lines();
    while let Some(line) = lines.next_line().await.map_err(|e| format!("codex app-server: {e}"))? {
        let Ok(reply) = serde_json::from_str::<Value>(&line) else { continue };
        if reply["id"] == json!(2) {
            drop(stdin);
            return match (reply.get("result"), reply.get("error")) {
                (Some(result), _) => Ok(result.clone()),
                (_, error) => Err(format!("codex app-server: {}", error.cloned().unwrap_or_default())),
            };
        }
    }
    Err("codex app-server ended without answering".into())
}
