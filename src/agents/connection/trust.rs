//! Whether Codex will run the hook setup wrote: Codex runs a hook from the person's
//! settings only once they have trusted it (its "Hooks need review" prompt, or
//! `/hooks`), and `codex exec` skips an untrusted one without a word. Codex's own app
//! server says how each hook stands (`hooks/list`, part of its stable protocol, with
//! no account or network needed), so that is what is asked; and, when the person asks
//! for it (`userq setup codex --trust`), it records the trust as Codex's own "Trust"
//! does (`config/batchWrite` of the hook's current hash under `hooks.state`).

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

/// The hook Codex lists for `command`: what trusting it trusts.
#[derive(Debug, Clone)]
pub struct Listed {
    /// Codex's key for it (`hooks.state.<key>`).
    pub key: String,
    pub event: String,
    pub command: String,
    /// The hash of the hook as it is now: what the trust is given to.
    pub hash: String,
    /// The file it comes from.
    pub source: String,
    pub trust: Trust,
}

/// How Codex (`codex`, its home existing) stands towards the hooks that run `command`,
/// for a session in `cwd`: the first of them that does not run says how, and none
/// listed is [`Trust::Missing`]; an error when Codex could not be asked.
pub async fn trust(codex: &Path, command: &str, cwd: &Path) -> Result<Trust, String> {
    let hooks = listed(codex, command, cwd).await?;
    let first = hooks.iter().map(|h| h.trust).find(|t| !t.runs());
    Ok(if hooks.is_empty() { Trust::Missing } else { first.unwrap_or(Trust::Trusted) })
}

/// Every hook that runs `command` (one per event setup wrote), as Codex lists them for
/// a session in `cwd`.
pub async fn listed(codex: &Path, command: &str, cwd: &Path) -> Result<Vec<Listed>, String> {
    let list = json!({"id": 2, "method": "hooks/list", "params": {"cwds": [cwd]}});
    let listing = ask(codex, cwd, list).await?;
    let hooks = listing["data"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|entry| entry["hooks"].as_array().into_iter().flatten());
    Ok(hooks.filter(|h| h["command"] == command).map(one).collect())
}

fn one(hook: &Value) -> Listed {
    let trust = match hook["trustStatus"].as_str() {
        _ if hook["enabled"] == json!(false) => Trust::Disabled,
        Some("trusted" | "managed") => Trust::Trusted,
        Some("modified") => Trust::Modified,
        _ => Trust::Untrusted,
    };
    let text = |key: &str| hook[key].as_str().unwrap_or_default().to_owned();
    Listed {
        key: text("key"),
        event: text("eventName"),
        command: text("command"),
        hash: text("currentHash"),
        source: text("sourcePath"),
        trust,
    }
}

/// Records the person's trust in `hooks` as Codex's own "Trust" does: each one's current
/// hash under `hooks.state.<key>.trusted_hash` in the user's Codex config.
pub async fn record(codex: &Path, hooks: &[Listed], cwd: &Path) -> Result<(), String> {
    let state: serde_json::Map<String, Value> =
        hooks.iter().map(|h| (h.key.clone(), json!({"trusted_hash": h.hash}))).collect();
    let write = json!({"id": 2, "method": "config/batchWrite", "params": {
        "edits": [{"keyPath": "hooks.state", "value": state, "mergeStrategy": "upsert"}],
        "reloadUserConfig": true}});
    let result = ask(codex, cwd, write).await?;
    match result["status"].as_str() {
        Some("ok") => Ok(()),
        _ => Err(format!("codex app-server did not record the trust: {result}")),
    }
}

/// One request (id 2) to `codex app-server` after its handshake, with a bound; its result.
async fn ask(codex: &Path, cwd: &Path, request: Value) -> Result<Value, String> {
    tokio::time::timeout(Duration::from_secs(15), app_server(codex, cwd, request))
        .await
        .map_err(|_| "codex app-server did not answer within 15 s".to_owned())?
}

/// `request` through `codex app-server`, one JSON object a line on its stdio.
async fn app_server(codex: &Path, cwd: &Path, request: Value) -> Result<Value, String> {
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
        request,
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
