//! The relay at work inside a server (`userq serve`, the desktop app): one more
//! answerer in the waterfall, and one more asker.
//!
//! - An ask made on this machine is sent, sealed, to every other machine of the
//!   circle, while it goes on down this machine's own waterfall (the window, `userq
//!   answer`): the first answer that fits, from any machine, is the asker's, and the
//!   ask is then withdrawn everywhere (`Ended`). An asker that leaves ends it too.
//! - An ask from another machine is asked here, with that machine's name in its
//!   `context.machine`, by an agent entered for it (client `relay`), and this
//!   machine's answer or dismissal is sent back to it. It is withdrawn here when its
//!   origin says it ended.
//! - On (re)connecting, a machine says Hello and every machine answers with the asks
//!   still waiting on it (`Waiting`): one that was away takes those it lacks and drops
//!   the ones that ended meanwhile.
//! - An answer given here is kept until its origin says the ask ended, and said again
//!   while the origin still lists the ask as waiting (it was said while the broker or
//!   the origin was away). When the origin restarted (a new `boot`) its asker asks
//!   again, under a new relay id: the same request from the same machine then takes
//!   the answer already given, and the person is not asked twice.
//! - Joins (an invite's request) and roster changes keep the circle's machines in the
//!   relay file, which this node re-reads when it changes.

use crate::history::decider::Decider;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use async_trait::async_trait;
use futures::StreamExt as _;
use tokio_util::sync::CancellationToken;

use super::config::{Config, ConfigError, Peer};
use super::keys::InviteKey;
use super::wire::{self, Body, Envelope, JoinReply, JoinRequest};
use super::{connect, seen, RelayError};
use crate::model::{Answer, AskRequest, ErrorCode, Request, UserQuestionError};
use crate::{Answerer, Ask, Next, Scope, UserQuestions};

/// The client name of the asks this node makes for other machines.
pub const CLIENT: &str = "relay";

/// A running relay; dropping it stops it.
pub struct Node {
    stop: CancellationToken,
    registration: crate::service::Registration,
}

impl Drop for Node {
    fn drop(&mut self) {
        self.registration.remove();
        self.stop.cancel();
    }
}

struct State {
    path: PathBuf,
    config: Mutex<(Config, Option<SystemTime>)>,
    client: async_nats::Client,
    service: UserQuestions,
    /// This machine's asks out on the circle, by relay id.
    exported: Mutex<HashMap<String, (Ask, Request)>>,
    /// Other machines' asks asked here: relay id -> (origin, what withdraws it).
    imported: Mutex<HashMap<String, (String, CancellationToken)>>,
    /// Message ids taken, so a repeat is dropped.
    taken: Mutex<HashSet<String>>,
    /// When each other machine was last heard from.
    heard: Mutex<HashMap<String, Instant>>,
    /// What this machine said of other machines' asks, by relay id, kept until their
    /// origin says they ended.
    given: Mutex<HashMap<String, Given>>,
    /// This run of the relay, in every message it sends.
    boot: String,
}

/// What this machine said of another machine's ask.
#[derive(Clone)]
struct Given {
    origin: String,
    /// The origin's run when it asked.
    boot: String,
    request: Request,
    /// The answer, or none for a dismissal.
    answer: Option<serde_json::Value>,
    at: Instant,
}

impl Given {
    fn body(&self, ask: &str) -> Body {
        let ask = ask.to_owned();
        match &self.answer {
            Some(answer) => Body::Answer { ask, answer: answer.clone() },
            None => Body::Dismissed { ask },
        }
    }
}

/// How often a relay says it is about, and how long a machine counts as about after
/// it was last heard from.
const PRESENCE_EVERY: Duration = Duration::from_secs(60);
const ABOUT_FOR: Duration = Duration::from_secs(150);
/// How long an answer to an ask whose origin restarted waits for that ask to come
/// again (its asker retries for a minute after its server went).
const ORPHANED_FOR: Duration = Duration::from_secs(300);

/// Starts the relay of the file at `path` for `service`, if this machine is paired.
/// The broker is connected to in the background, and again after every drop.
pub async fn start(service: &UserQuestions, path: &Path) -> Result<Option<Node>, RelayError> {
    // The stamp is taken before the file is read: a change written in between (an
    // invite made as the server starts) is then read again, never taken as seen.
    let stamp = modified(path);
    let config = match Config::load(path) {
        Ok(c) => c,
        Err(ConfigError::NotPaired) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let (hello_tx, mut hello_rx) = tokio::sync::mpsc::unbounded_channel();
    let client = connect(&config, Some(hello_tx)).await?;
    let heard = lately_seen(path, &config);
    let state = Arc::new(State {
        path: path.to_owned(),
        config: Mutex::new((config, stamp)),
        client,
        service: service.clone(),
        exported: Mutex::default(),
        imported: Mutex::default(),
        taken: Mutex::default(),
        heard: Mutex::new(heard),
        given: Mutex::default(),
        boot: wire::random_id(),
    });
    let registration = service.register("relay", Scope::Agents, 1_000, Arc::new(Exporter(state.clone())));
    let stop = CancellationToken::new();
    let circle = state.config().circle.clone();
    let mut messages = state.client.subscribe(wire::subject(&circle)).await.ok();
    let mut joins = state.client.subscribe(wire::join_subject(&circle)).await.ok();
    let run = state.clone();
    let stopped = stop.clone();
    tokio::spawn(async move {
        let mut presence = tokio::time::interval(PRESENCE_EVERY);
        loop {
            tokio::select! {
                _ = stopped.cancelled() => break,
                _ = presence.tick() => run.publish(Body::Present).await,
                Some(()) = hello_rx.recv() => run.connected().await,
                Some(m) = next(&mut messages) => run.clone().take(&m.payload).await,
                Some(m) = next(&mut joins) => run.join(m).await,
            }
        }
        for (_, (_, cancel)) in run.imported.lock().unwrap().drain() {
            cancel.cancel();
        }
    });
    Ok(Some(Node { stop, registration }))
}

async fn next(sub: &mut Option<async_nats::Subscriber>) -> Option<async_nats::Message> {
    match sub {
        Some(s) => s.next().await,
        None => std::future::pending().await,
    }
}

/// The machines heard from lately by this machine's last run too: after a restart, an
/// ask goes on waiting for them rather than finding no one.
fn lately_seen(path: &Path, config: &Config) -> HashMap<String, Instant> {
    let seen = seen::read(path);
    let now = wire::now_ms() / 1000;
    config
        .others()
        .filter_map(|p| {
            let ago = Duration::from_secs(now.saturating_sub(*seen.get(&p.name)?));
            (ago < ABOUT_FOR).then(|| Some((p.name.clone(), Instant::now().checked_sub(ago)?))).flatten()
        })
        .collect()
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

impl State {
    /// The relay file as it is now (re-read when it changed on disk).
    fn config(&self) -> Config {
        let mut held = self.config.lock().unwrap();
        let stamp = modified(&self.path);
        if stamp != held.1 {
            if let Ok(fresh) = Config::load(&self.path) {
                *held = (fresh, stamp);
            }
        }
        held.0.clone()
    }

    fn save(&self, config: Config) {
        let _ = config.save(&self.path);
        *self.config.lock().unwrap() = (config, modified(&self.path));
    }

    async fn publish(&self, body: Body) {
        let config = self.config();
        let envelope = Envelope::new(&config.circle, &self.boot, body);
        let json = serde_json::to_vec(&envelope).expect("an envelope serializes");
        let to: Vec<_> = config.others().map(|p| &p.keys).collect();
        if to.is_empty() {
            return;
        }
        let sealed = config.keys.seal(&config.name, &json, &to);
        // Sent when the broker takes it; while it is away the client keeps it.
        let _ = self.client.publish(wire::subject(&config.circle), sealed.into()).await;
    }

    async fn connected(&self) {
        // The subscriptions reach the broker before anyone is asked to answer them.
        let _ = self.client.flush().await;
        self.publish(Body::Hello).await;
        self.publish_waiting().await;
    }

    async fn publish_waiting(&self) {
        let asks = self.exported.lock().unwrap().iter().map(|(id, (_, r))| (id.clone(), r.clone())).collect();
        self.publish(Body::Waiting { asks }).await;
    }

    /// A message on the circle's subject.
    async fn take(self: Arc<Self>, sealed: &[u8]) {
        let config = self.config();
        let (from, body) = match config.keys.open(sealed, config.peers.iter().map(|p| (p.name.as_str(), &p.keys))) {
            Ok(opened) => opened,
            Err(e) => {
                tracing::debug!("relay: a message not taken: {e}");
                return;
            }
        };
        let Ok(envelope) = serde_json::from_slice::<Envelope>(&body) else { return };
        if envelope.circle != config.circle || !self.first_time(&envelope.id) {
            return;
        }
        seen::note(&self.path, &from);
        if from == config.name {
            // This machine's own words: only a roster from its command line matters.
            if let Body::Roster { peers } = envelope.body {
                self.roster(&config, peers);
            }
            return;
        }
        self.heard.lock().unwrap().insert(from.clone(), Instant::now());
        tracing::debug!("relay: from {from}: {:?}", envelope.body);
        match envelope.body {
            Body::Present => {}
            Body::Ask { ask, request } => self.import(&from, &envelope.boot, ask, request),
            Body::Answer { ask, answer } => self.answered(&from, &ask, &answer),
            Body::Dismissed { ask } => {
                let held = self.exported.lock().unwrap().get(&ask).map(|(a, _)| a.clone());
                if let Some(a) = held {
                    a.note_answered_by(&Decider::Machine(from.to_string()).to_string());
                    let _ = a.reject(UserQuestionError::user_cancelled());
                }
            }
            Body::Ended { ask } => {
                self.given.lock().unwrap().remove(&ask);
                self.withdraw(&ask)
            }
            Body::Waiting { asks } => {
                let listed: HashSet<&String> = asks.iter().map(|(id, _)| id).collect();
                let again: Vec<Body> = {
                    let mut given = self.given.lock().unwrap();
                    // Not listed: ended there, unless the origin restarted since.
                    given.retain(|id, g| {
                        g.origin != from
                            || listed.contains(id)
                            || (g.boot != envelope.boot && g.at.elapsed() < ORPHANED_FOR)
                    });
                    given
                        .iter()
                        .filter(|(id, g)| g.origin == from && listed.contains(id))
                        .map(|(id, g)| g.body(id))
                        .collect()
                };
                for body in again {
                    self.publish(body).await;
                }
                let gone: Vec<String> = self
                    .imported
                    .lock()
                    .unwrap()
                    .iter()
                    .filter(|(id, (origin, _))| origin == &from && !listed.contains(id))
                    .map(|(id, _)| id.clone())
                    .collect();
                for id in gone {
                    self.withdraw(&id);
                }
                for (id, request) in asks {
                    if !self.given.lock().unwrap().contains_key(&id) {
                        self.clone().import(&from, &envelope.boot, id, request);
                    }
                }
            }
            Body::Hello => self.publish_waiting().await,
            Body::Roster { peers } => self.roster(&config, peers),
        }
    }

    /// Whether another machine of the circle was heard from lately.
    fn someone_about(&self) -> bool {
        self.heard.lock().unwrap().values().any(|t| t.elapsed() < ABOUT_FOR)
    }

    fn first_time(&self, id: &str) -> bool {
        let mut taken = self.taken.lock().unwrap();
        if taken.len() > 100_000 {
            taken.clear();
        }
        taken.insert(id.to_owned())
    }

    /// A roster from a machine of the circle: the circle's machines now.
    fn roster(&self, config: &Config, peers: Vec<Peer>) {
        if peers.iter().all(|p| p.keys.is_valid()) && peers.iter().any(|p| p.name == config.name) {
            let mut config = config.clone();
            config.peers = peers;
            self.save(config);
        }
    }

    fn withdraw(&self, ask: &str) {
        if let Some((_, cancel)) = self.imported.lock().unwrap().remove(ask) {
            cancel.cancel();
        }
    }

    /// An answer from `from` to one of this machine's asks: the first that fits wins.
    fn answered(&self, from: &str, ask: &str, answer: &serde_json::Value) {
        let held = self.exported.lock().unwrap().get(ask).map(|(a, _)| a.clone());
        let (Some(held), Ok(answer)) = (held, Answer::from_value(answer)) else {
            tracing::debug!("relay: {from}'s answer is to no ask waiting here, or not an answer");
            return;
        };
        tracing::debug!("relay: {from} answered {ask}");
        if answer.clone().fit(&held.request().questions).is_ok() {
            held.note_answered_by(&Decider::Machine(from.to_string()).to_string());
            if let Err(e) = held.answer(answer) {
                tracing::debug!("relay: {from}'s answer came too late: {e}");
            }
        }
    }

    /// The answer given here to the same request from `origin` before it restarted,
    /// now for its ask `id`.
    fn adopt(&self, origin: &str, boot: &str, id: &str, request: &Request) -> Option<Body> {
        let mut given = self.given.lock().unwrap();
        let old = given
            .iter()
            .find(|(_, g)| {
                g.origin == origin && g.boot != boot && g.request == *request && g.at.elapsed() < ORPHANED_FOR
            })
            .map(|(old, _)| old.clone())?;
        let mut g = given.remove(&old)?;
        g.boot = boot.to_owned();
        let body = g.body(id);
        given.insert(id.to_owned(), g);
        Some(body)
    }

    /// Asks here what `origin` asked, until it is answered here or ends there.
    fn import(self: Arc<Self>, origin: &str, boot: &str, id: String, request: Request) {
        if let Some(said) = self.adopt(origin, boot, &id, &request) {
            tracing::debug!("relay: {origin} asked again after a restart; said again what was said here");
            tokio::spawn(async move { self.publish(said).await });
            return;
        }
        let cancel = CancellationToken::new();
        {
            let mut imported = self.imported.lock().unwrap();
            if imported.contains_key(&id) {
                return;
            }
            imported.insert(id.clone(), (origin.to_owned(), cancel.clone()));
        }
        let (origin, boot) = (origin.to_owned(), boot.to_owned());
        tokio::spawn(async move {
            let agent = request.agent.as_ref();
            let entered = self.service.enter_from(
                CLIENT,
                agent.map_or(CLIENT, |a| a.id.as_str()),
                None,
                agent.map_or(0, |a| a.delegation_depth),
            );
            let Ok(agent) = entered else { return };
            // Where the agent runs: its origin, unless that machine already named one
            // (an SSH host's ask).
            let mut context = request.context.clone().unwrap_or_default();
            context.machine = context.machine.or(Some(origin.clone()));
            // No one here to answer yet (a `userq answer` about to start): asked again
            // when an answerer registers (or after a while), until it ends at its origin.
            let outcome = loop {
                let registered = self.service.answerer_registered();
                let ask =
                    AskRequest::new(request.questions.clone()).from_agent(agent.clone()).with_context(context.clone());
                let outcome = match self.service.post_from(Some(CLIENT), ask, cancel.clone()) {
                    Ok(posted) => posted.outcome().await,
                    Err(e) => Err(e),
                };
                match outcome {
                    Err(e) if e.is(ErrorCode::NoProvider) => tokio::select! {
                        () = registered => continue,
                        () = tokio::time::sleep(Duration::from_secs(60)) => continue,
                        () = cancel.cancelled() => break Err(e),
                    },
                    outcome => break outcome,
                }
            };
            let _ = self.service.leave(&agent);
            let still = self.imported.lock().unwrap().remove(&id).is_some();
            let answer = match outcome {
                Ok(answer) if still => Some(serde_json::to_value(&answer).expect("an answer serializes")),
                Err(e) if still && e.code() == UserQuestionError::user_cancelled().code() => None,
                _ => return,
            };
            let given = Given { origin, boot, request, answer, at: Instant::now() };
            let said = given.body(&id);
            self.given.lock().unwrap().insert(id, given);
            self.publish(said).await;
        });
    }

    /// A join request on an invite of this machine's.
    async fn join(&self, message: async_nats::Message) {
        let Some(reply_to) = message.reply.clone() else { return };
        let mut config = self.config();
        let now = wire::now_ms() / 1000;
        config.invites.retain(|i| i.expires > now);
        let opened = config.invites.iter().enumerate().find_map(|(i, invite)| {
            let key = InviteKey::parse(&invite.secret)?;
            key.open(&message.payload).ok().map(|u| (i, u))
        });
        let Some((used, unsealed)) = opened else { return };
        let Ok(JoinRequest { peer }) = serde_json::from_slice(unsealed.body()) else { return };
        if !peer.keys.is_valid() || !unsealed.is_by(&peer.name, &peer.keys) {
            return;
        }
        let reply = if config.invites[used].used {
            JoinReply::Refused { reason: "this invite was used already; ask for a new one".into() }
        } else if config.peer(&peer.name).is_some() {
            JoinReply::Refused { reason: format!("a machine named {} is already in the circle", peer.name) }
        } else {
            config.peers.push(peer.clone());
            JoinReply::Welcome { peers: config.peers.clone() }
        };
        // Single use, whatever the outcome.
        config.invites[used].used = true;
        let welcomed = matches!(reply, JoinReply::Welcome { .. });
        let peers = config.peers.clone();
        let json = serde_json::to_vec(&reply).expect("a reply serializes");
        let sealed = config.keys.seal(&config.name, &json, &[&peer.keys]);
        self.save(config);
        let _ = self.client.publish(reply_to, sealed.into()).await;
        if welcomed {
            self.publish(Body::Roster { peers }).await;
        }
    }
}

/// This machine's asks, out to the circle while they go on down the waterfall here.
struct Exporter(Arc<State>);

#[async_trait]
impl Answerer for Exporter {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Result<Answer, UserQuestionError> {
        if ask.client() == Some(CLIENT) || self.0.config().others().next().is_none() {
            return next.run().await;
        }
        let id = wire::random_id();
        let request = (**ask.request()).clone();
        self.0.exported.lock().unwrap().insert(id.clone(), (ask.clone(), request.clone()));
        let _out = Out { state: self.0.clone(), id: id.clone() };
        self.0.publish(Body::Ask { ask: id, request }).await;
        match next.run().await {
            // No one here, but a machine of the circle is about: it may answer.
            // It holds the ask now: having handed it on, it hears of an answer from
            // elsewhere, or the asker leaving, only by listening itself.
            Err(e) if e.code() == ErrorCode::NoProvider.as_str() && self.0.someone_about() => {
                ask.claim();
                tokio::select! {
                    () = ask.delivered() => ask.delivery(),
                    () = ask.withdrawn() => Err(ask.withdrawal().expect("withdrawn with a reason")),
                }
            }
            outcome => outcome,
        }
    }
}

/// An ask out on the circle; when it ends, however it ends, it is withdrawn everywhere,
/// except when this server stops: its asker may ask again on the next run, and the
/// other machines keep the question (and an answer given meanwhile) until that run
/// says what it still waits for.
struct Out {
    state: Arc<State>,
    id: String,
}

impl Drop for Out {
    fn drop(&mut self) {
        self.state.exported.lock().unwrap().remove(&self.id);
        if self.state.service.is_stopping() {
            return;
        }
        let (state, ask) = (self.state.clone(), self.id.clone());
        tokio::spawn(async move { state.publish(Body::Ended { ask }).await });
    }
}
