//! The Matrix bridge: questions on the person's phone (Element, Element X) in an
//! end-to-end encrypted room, so the homeserver sees no question and no answer. The
//! bridge is an account of its own, logged in as a device of its own with
//! cross-signing bootstrapped (Element's strict mode refuses messages from devices
//! their owner has not signed). This module keeps that account ([`account`]): its
//! session and crypto store in the data folder, readable by this user alone;
//! and the room it asks in with the team's rule ([`room`]). While a host serves,
//! [`keep`] runs the bridge: its [`answerer`] puts each question in the room as a
//! message and polls ([`post`]), counts what comes back ([`tally`]) from the people
//! whose identities hold ([`pins`]), and takes the question down when it is answered
//! elsewhere; what is in the room when a server stops is taken up again ([`open`]).

pub mod account;
pub mod answerer;
pub mod bridge;
pub mod keep;
pub mod open;
pub mod pick;
pub mod pins;
pub mod post;
pub mod room;
pub mod session;
pub mod tally;

use std::path::PathBuf;

use user_questions_i18n::Text;

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
    #[error("{0} has no cross-signing identity yet: they set up their keys in Element first")]
    NoIdentity(String),
    #[error("{0}")]
    Rule(room::RuleError),
    #[error("the bridge's files in {path}: {error}")]
    Files { path: PathBuf, error: String },
    #[error("the homeserver at {url} said: {error}")]
    Homeserver { url: String, error: String },
}

impl MatrixError {
    /// What went wrong, in the person's language (its `Display` is English, for logs).
    pub fn words(&self, text: &Text) -> String {
        let one = |id: &str, key: &str, value: &str| text.tr_args(id, &[(key, value.into())]);
        match self {
            Self::BadUrl(url) => one("matrix-error-bad-url", "url", url),
            Self::BadUser(user) => one("matrix-error-bad-user", "user", user),
            Self::Unreachable { url, error } => {
                text.tr_args("matrix-error-unreachable", &[("url", url.into()), ("error", error.into())])
            }
            Self::WrongPassword(user) => one("matrix-error-wrong-password", "user", user),
            Self::InUseElsewhere(user) => one("matrix-error-in-use", "user", user),
            Self::AlreadySetUp(user) => one("matrix-error-set-up", "user", user),
            Self::NotSetUp => text.tr("matrix-error-not-set-up"),
            Self::NoIdentity(user) => one("matrix-error-no-identity", "user", user),
            Self::Rule(rule) => rule.words(text),
            Self::Files { path, error } => {
                let path = path.display().to_string();
                text.tr_args("matrix-error-files", &[("path", (&path).into()), ("error", error.into())])
            }
            Self::Homeserver { url, error } => {
                text.tr_args("matrix-error-homeserver", &[("url", url.into()), ("error", error.into())])
            }
        }
    }
}
