//! A door for another machine's asks: a socket of its own whose connections are
//! carried to this machine's server, each `ask` tagged with that machine's name (its
//! `context.machine`, set here whatever the far side wrote), so a question that came
//! through an SSH forward says where it came from, in the window, the notification
//! and `userq answer`. Everything else passes as it is, both ways. Both ends are
//! checked as the server checks its own: only this user's connections are carried,
//! and only to a server of this user's.

use std::future::Future;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::frame::{next_frame, Frame};
use super::peer;
use super::protocol::{Ask, Method};

/// Carries every connection on `listener` to the server at `upstream`, tagging asks
/// with `machine`, until `shutdown` resolves; then the socket file is removed.
pub async fn run(listener: UnixListener, upstream: PathBuf, machine: String, shutdown: impl Future<Output = ()>) {
    let path = listener.local_addr().ok().and_then(|a| a.as_pathname().map(Path::to_owned));
    let stopping = CancellationToken::new();
    let connections = TaskTracker::new();
    tokio::pin!(shutdown);
    let own = peer::own_uid();
    loop {
        let stream = tokio::select! {
            () = &mut shutdown => break,
            stream = super::server::accept(&listener, |peer| peer == own) => stream,
        };
        let (upstream, machine, stopping) = (upstream.clone(), machine.clone(), stopping.clone());
        connections.spawn(async move {
            tokio::select! {
                () = carry(stream, &upstream, &machine) => {}
                () = stopping.cancelled() => {}
            }
        });
    }
    drop(listener);
    stopping.cancel();
    connections.close();
    connections.wait().await;
    if let Some(path) = path {
        let _ = std::fs::remove_file(path);
    }
}

/// One connection, carried until either side closes it.
async fn carry(far: UnixStream, upstream: &Path, machine: &str) {
    let server = match UnixStream::connect(upstream).await {
        Ok(s) if peer::peer_uid(&s).ok() == Some(peer::own_uid()) => s,
        Ok(_) => return tracing::warn!("{} is served by another user: not carried", upstream.display()),
        // No server here now: the far side's asker waits and tries again, as it does
        // across a restart.
        Err(_) => return,
    };
    let (far_read, mut far_write) = far.into_split();
    let (server_read, mut server_write) = server.into_split();
    let to_server = async {
        let mut reader = BufReader::new(far_read);
        let mut line = Vec::new();
        while let Ok(Some(frame)) = next_frame(&mut reader, &mut line).await {
            // A line too long to hold is one the server would refuse: the far side
            // hears it from the connection's end.
            let Frame::Line = frame else { break };
            let tagged = tag(&line, machine);
            let out = tagged.as_deref().unwrap_or(&line);
            if server_write.write_all(out).await.is_err() || server_write.write_all(b"\n").await.is_err() {
                break;
            }
        }
    };
    let to_far = async {
        let _ = tokio::io::copy(&mut BufReader::new(server_read), &mut far_write).await;
    };
    tokio::select! {
        () = to_server => {}
        () = to_far => {}
    }
}

/// An `ask` request with `context.machine` set to `machine`; `None` for any other line,
/// which passes unchanged.
fn tag(line: &[u8], machine: &str) -> Option<Vec<u8>> {
    let mut message: Value = serde_json::from_slice(line).ok()?;
    if message.get("method").and_then(Value::as_str) != Some(Ask::NAME) {
        return None;
    }
    let params = message.get_mut("params")?.as_object_mut()?;
    let context = params.entry("context").or_insert_with(|| Value::Object(Default::default()));
    if !context.is_object() {
        // Not a context the server would take: it says so to the far side.
        return None;
    }
    context["machine"] = machine.into();
    serde_json::to_vec(&message).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tagged(line: Value) -> Option<Value> {
        tag(line.to_string().as_bytes(), "devbox").map(|b| serde_json::from_slice(&b).unwrap())
    }

    #[test]
    fn an_ask_is_tagged_with_the_machine_whatever_it_said() {
        let ask = json!({"jsonrpc": "2.0", "id": 3, "method": "ask",
                         "params": {"questions": [], "context": {"project": "/p", "machine": "laptop"}}});
        assert_eq!(tagged(ask).unwrap()["params"]["context"], json!({"project": "/p", "machine": "devbox"}));
        let bare = json!({"jsonrpc": "2.0", "id": 4, "method": "ask", "params": {"questions": []}});
        assert_eq!(tagged(bare).unwrap()["params"]["context"], json!({"machine": "devbox"}));
    }

    #[test]
    fn anything_else_passes_as_it_came() {
        assert_eq!(tagged(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})), None);
        assert_eq!(tagged(json!({"jsonrpc": "2.0", "id": 5, "method": "ask", "params": {"context": "x"}})), None);
        assert_eq!(tag(b"not json", "devbox"), None);
    }
}
