//! What machines of a circle say to each other, inside the seal. Every message has a
//! random id (a repeat is dropped) and its time. Asks are known by a random relay id
//! chosen by the machine they were asked on (their origin), never by anything the
//! broker could correlate. Every message also names the run of the relay that sent it
//! (`boot`, random each time a server starts), so the others can tell a machine that
//! restarted, and lost track of its asks, from one that ended them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::Peer;
use crate::model::Request;

/// The subject every message of a circle passes on.
pub fn subject(circle: &str) -> String {
    format!("userq.{circle}")
}

/// The subject join requests for a circle come on.
pub fn join_subject(circle: &str) -> String {
    format!("userq.{circle}.join")
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Body {
    /// A question asked on the origin, for every other machine's answerers.
    Ask { ask: String, request: Request },
    /// The person answered on this machine (sent to the origin; the first that fits wins).
    Answer { ask: String, answer: Value },
    /// The person dismissed it on this machine.
    Dismissed { ask: String },
    /// The origin's ask ended (answered anywhere, dismissed, or its asker left):
    /// withdraw it everywhere.
    Ended { ask: String },
    /// The origin's asks still waiting, in full: a machine that was away takes the ones
    /// it lacks and drops those it holds that are gone. Sent on connecting, and on Hello.
    Waiting { asks: Vec<(String, Request)> },
    /// A machine (re)connected: every origin answers with its Waiting.
    Hello,
    /// A machine is about (every minute).
    Present,
    /// The circle's machines now (after a join, a removal, a leave).
    Roster { peers: Vec<Peer> },
}

/// One message: its id and time (milliseconds since the epoch), its circle, the run of
/// the relay that sent it, and what it says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    pub id: String,
    pub at: u64,
    pub circle: String,
    #[serde(default)]
    pub boot: String,
    #[serde(flatten)]
    pub body: Body,
}

impl Envelope {
    pub fn new(circle: &str, boot: &str, body: Body) -> Self {
        Self { id: random_id(), at: now_ms(), circle: circle.to_owned(), boot: boot.to_owned(), body }
    }
}

/// 128 random bits, hex.
pub fn random_id() -> String {
    let bits: u128 = rand::random();
    format!("{bits:032x}")
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A join request: the new machine's name and public keys (signed with them, so the
/// inviter knows it holds them), sealed to the invite's key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JoinRequest {
    pub peer: Peer,
}

/// The inviter's reply, sealed to the new machine and signed by the inviter: the
/// circle's machines, or why not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum JoinReply {
    Welcome { peers: Vec<Peer> },
    Refused { reason: String },
}
