//! The Matrix bridge: questions on the person's phone (Element, Element X) in an
//! end-to-end encrypted room, so the homeserver sees no question and no answer. The
//! bridge is an account of its own, logged in as a device of its own with
//! cross-signing bootstrapped (Element's strict mode refuses messages from devices
//! their owner has not signed). This module keeps that account ([`account`]): its
//! session and crypto store in the data folder, readable by this user alone.
//! and the room it asks in with the team's rule ([`room`]). (The polls and the
//! answerer in the waterfall build on them.)

pub mod account;
pub mod bridge;
pub mod room;

use std::path::PathBuf;

/// What went wrong, in words that say what to do.
#[derive(Debug, thiserror::Error)]
pub enum MatrixError {
    #[error("{0} is not a homeserver URL: give one like https://matrix.example.org")]
    BadUrl(String),
    #[error("{0} is not a Matrix user id: give one like @bridge:example.org")]
    BadUser(String),
    #[error("cannot reach the homeserver at {url}: {error}")]
    Unreachable { url: String, error: String },
    #[error("the homeserver refused the password of {0}")]
    WrongPassword(String),
    #[error(
        "{0} already has an identity (cross-signing keys) made on another device: give the bridge an account of its \
         own, which it sets up itself"
    )]
    InUseElsewhere(String),
    #[error("the bridge is set up already (as {0}); `userq matrix leave` first to set it up again")]
    AlreadySetUp(String),
    #[error("the bridge is not set up: `userq matrix init HOMESERVER_URL --user @NAME:SERVER --password-file FILE`")]
    NotSetUp,
    #[error("{0}")]
    Rule(String),
    #[error("the bridge's files in {path}: {error}")]
    Files { path: PathBuf, error: String },
    #[error("the homeserver at {url} said: {error}")]
    Homeserver { url: String, error: String },
}
