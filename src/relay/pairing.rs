//! What `userq relay` does: start a circle, invite a machine into it and join one,
//! say how it is, take a machine out, leave. An invite is one line: the broker, the
//! circle, who made it, until when, and the secret half of a key made for it alone;
//! the machine that made it takes one join with it (its running relay answers) and
//! forgets it, so a code used, or expired, lets no one in.

use std::path::Path;
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64URL;
use base64::Engine as _;
use futures::StreamExt as _;
use serde::{Deserialize, Serialize};

use super::config::{Config, ConfigError, Invite, Peer};
use super::keys::{InviteKey, Keys, PublicKeys};
use super::wire::{self, Body, Envelope, JoinReply, JoinRequest};
use super::{connect, seen, RelayError};

/// What an invite code starts with.
pub const CODE_PREFIX: &str = "userq-invite-";

/// Starts a circle on `broker` with this machine alone in it.
pub fn init(path: &Path, broker: &str, name: Option<String>, creds: Option<&Path>) -> Result<Config, RelayError> {
    if let Ok(existing) = Config::load(path) {
        return Err(ConfigError::AlreadyPaired(path.into(), existing.circle).into());
    }
    let name = name.unwrap_or_else(crate::paths::host_name);
    let keys = Keys::generate();
    let config = Config {
        broker: broker.to_owned(),
        creds: creds.map(Path::to_path_buf),
        circle: wire::random_id(),
        peers: vec![Peer { name: name.clone(), keys: keys.public() }],
        name,
        keys,
        invites: vec![],
    };
    config.save(path)?;
    Ok(config)
}

/// The contents of an invite code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Code {
    broker: String,
    circle: String,
    inviter: String,
    /// The inviter's verifying key: its answer must be signed with it.
    verify: String,
    /// The secret half of the invite's key.
    secret: String,
    expires: u64,
}

/// A new invite, valid for `ttl`: its one-line code.
pub fn invite(path: &Path, ttl: Duration) -> Result<String, RelayError> {
    let mut config = Config::load(path)?;
    let key = InviteKey::generate();
    let expires = wire::now_ms() / 1000 + ttl.as_secs().max(1);
    let now = wire::now_ms() / 1000;
    config.invites.retain(|i| i.expires > now);
    config.invites.push(Invite { secret: key.secret(), expires, used: false });
    let code = Code {
        broker: config.broker.clone(),
        circle: config.circle.clone(),
        inviter: config.name.clone(),
        verify: config.keys.public().verify,
        secret: key.secret(),
        expires,
    };
    config.save(path)?;
    Ok(format!("{CODE_PREFIX}{}", B64URL.encode(serde_json::to_vec(&code).expect("a code serializes"))))
}

fn read_code(code: &str) -> Result<Code, RelayError> {
    let body = code.trim().strip_prefix(CODE_PREFIX).ok_or_else(|| {
        RelayError::BadCode(format!("it does not start with {CODE_PREFIX} (`userq relay invite` prints one)"))
    })?;
    let bytes = B64URL.decode(body).map_err(|e| RelayError::BadCode(format!("it is cut or changed ({e})")))?;
    serde_json::from_slice(&bytes).map_err(|e| RelayError::BadCode(format!("it is cut or changed ({e})")))
}

/// How long a join waits for the inviting machine before it asks again.
const ASK_AGAIN_AFTER: Duration = Duration::from_secs(2);

/// Joins the circle of `code`: the machine that made it answers with the circle's
/// machines, and this machine is one of them.
pub async fn join(
    path: &Path,
    code: &str,
    name: Option<String>,
    creds: Option<&Path>,
    wait: Duration,
) -> Result<Config, RelayError> {
    if let Ok(existing) = Config::load(path) {
        return Err(ConfigError::AlreadyPaired(path.into(), existing.circle).into());
    }
    let code = read_code(code)?;
    if code.expires <= wire::now_ms() / 1000 {
        return Err(RelayError::Expired);
    }
    let invite = InviteKey::parse(&code.secret).ok_or_else(|| RelayError::BadCode("its key is not a key".into()))?;
    let name = name.unwrap_or_else(crate::paths::host_name);
    let keys = Keys::generate();
    let me = Peer { name: name.clone(), keys: keys.public() };
    let mut config = Config {
        broker: code.broker.clone(),
        creds: creds.map(Path::to_path_buf),
        circle: code.circle.clone(),
        name,
        keys,
        peers: vec![],
        invites: vec![],
    };
    let client = connect(&config, None).await?;
    let request = serde_json::to_vec(&JoinRequest { peer: me.clone() }).expect("a request serializes");
    let sealed = config.keys.seal(&me.name, &request, &[&invite.public()]);
    let inbox = client.new_inbox();
    let broker_error = |e: String| RelayError::Broker { broker: code.broker.clone(), error: e };
    let mut replies = client.subscribe(inbox.clone()).await.map_err(|e| broker_error(e.to_string()))?;
    // With no one listening (the inviting machine's server is starting, or not
    // running), the broker itself answers at once, with nothing: ask again a while.
    // A machine of the circle that cannot open the request (not the inviter, or the
    // inviter before it has read its new invite) says nothing: ask again after a pause.
    let deadline = tokio::time::Instant::now() + wait;
    let reply = loop {
        client
            .publish_with_reply(wire::join_subject(&code.circle), inbox.clone(), sealed.clone().into())
            .await
            .map_err(|e| broker_error(e.to_string()))?;
        let again = (tokio::time::Instant::now() + ASK_AGAIN_AFTER).min(deadline);
        match tokio::time::timeout_at(again, replies.next()).await {
            Ok(Some(reply)) if !reply.payload.is_empty() => break reply,
            Ok(None) => return Err(RelayError::NoAnswer),
            Ok(Some(_)) => tokio::time::sleep(Duration::from_millis(250)).await,
            Err(_) => {}
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(RelayError::NoAnswer);
        }
    };
    let inviter = PublicKeys { recipient: String::new(), verify: code.verify.clone() };
    let (_, body) =
        config.keys.open(&reply.payload, [(code.inviter.as_str(), &inviter)]).map_err(|_| RelayError::NotTheInviter)?;
    match serde_json::from_slice(&body).map_err(|_| RelayError::NotTheInviter)? {
        JoinReply::Welcome { peers } => {
            config.peers = peers;
            config.save(path)?;
            Ok(config)
        }
        JoinReply::Refused { reason } => Err(RelayError::Refused(reason)),
    }
}

/// Says `body` to the circle from this machine's command line.
async fn say(config: &Config, to: &[Peer], body: Body) -> Result<(), RelayError> {
    let client = connect(config, None).await?;
    let json = serde_json::to_vec(&Envelope::new(&config.circle, "", body)).expect("an envelope serializes");
    let keys: Vec<&PublicKeys> = to.iter().map(|p| &p.keys).collect();
    let sealed = config.keys.seal(&config.name, &json, &keys);
    let failed = |e: String| RelayError::Broker { broker: config.broker.clone(), error: e };
    client.publish(wire::subject(&config.circle), sealed.into()).await.map_err(|e| failed(e.to_string()))?;
    client.flush().await.map_err(|e| failed(e.to_string()))
}

/// Takes `name` out of the circle: no machine seals to it or takes its word again.
pub async fn remove(path: &Path, name: &str) -> Result<(), RelayError> {
    let mut config = Config::load(path)?;
    if name == config.name {
        return Err(RelayError::ThisMachine(name.into()));
    }
    if config.peer(name).is_none() {
        return Err(RelayError::NoSuchMachine(name.into()));
    }
    config.peers.retain(|p| p.name != name);
    config.save(path)?;
    let peers = config.peers.clone();
    say(&config, &peers, Body::Roster { peers: peers.clone() }).await
}

/// Takes this machine out of its circle and forgets it.
pub async fn leave(path: &Path) -> Result<(), RelayError> {
    let config = Config::load(path)?;
    let others: Vec<Peer> = config.others().cloned().collect();
    let told =
        if others.is_empty() { Ok(()) } else { say(&config, &others, Body::Roster { peers: others.clone() }).await };
    std::fs::remove_file(path).map_err(|error| ConfigError::Io { path: path.into(), error })?;
    told
}

/// How the relay is: the broker reached or not, and each machine with when it was last
/// heard from.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub name: String,
    pub broker: String,
    pub connected: bool,
    /// Why not, when not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub machines: Vec<Machine>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Machine {
    pub name: String,
    pub this_machine: bool,
    /// Seconds since the epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_seen: Option<u64>,
}

pub async fn status(path: &Path) -> Result<Status, RelayError> {
    let config = Config::load(path)?;
    let reached = match tokio::time::timeout(Duration::from_secs(5), connect(&config, None)).await {
        Ok(Ok(client)) => client.flush().await.map_err(|e| e.to_string()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("no answer in 5 s".into()),
    };
    let heard = seen::read(path);
    let machines = config
        .peers
        .iter()
        .map(|p| Machine {
            name: p.name.clone(),
            this_machine: p.name == config.name,
            last_seen: heard.get(&p.name).copied(),
        })
        .collect();
    Ok(Status { name: config.name, broker: config.broker, connected: reached.is_ok(), error: reached.err(), machines })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_reads_back_and_a_changed_one_is_named_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("relay.json");
        init(&path, "nats://127.0.0.1:4222", Some("desk".into()), None).unwrap();
        assert!(matches!(init(&path, "nats://x", None, None), Err(RelayError::Config(ConfigError::AlreadyPaired(..)))));
        let code = invite(&path, Duration::from_secs(600)).unwrap();
        let read = read_code(&code).unwrap();
        assert_eq!((read.broker.as_str(), read.inviter.as_str()), ("nats://127.0.0.1:4222", "desk"));
        assert_eq!(Config::load(&path).unwrap().invites.len(), 1);
        assert!(read_code("hello").unwrap_err().to_string().contains("does not start with userq-invite-"));
        let cut = &code[..code.len() - 7];
        assert!(read_code(cut).unwrap_err().to_string().contains("cut or changed"));
    }
}
