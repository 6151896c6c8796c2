//! A machine's place in its circle: the broker, the circle's id, this machine's name
//! and keys, the machines paired with it, and the invites it has open. Kept in
//! `relay.json` in the config folder (`$USERQ_CONFIG_DIR`, else
//! `$XDG_CONFIG_HOME/user-questions`, else `~/.config/user-questions`), mode 0600 (it
//! holds secret keys), written whole through a temporary file so a crash never leaves
//! half of it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::keys::{Keys, PublicKeys};
use crate::paths::Access;

/// The file's name in the config folder.
pub const FILE: &str = "relay.json";

/// Where the relay's file lives.
pub fn default_path() -> Option<PathBuf> {
    crate::paths::config_dir().map(|d| d.join(FILE))
}

/// A paired machine: its name and public keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Peer {
    pub name: String,
    #[serde(flatten)]
    pub keys: PublicKeys,
}

/// An invite not yet used: the secret half of the key a joining machine seals its
/// request to, and until when it may be used (seconds since the epoch).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invite {
    pub secret: String,
    pub expires: u64,
    /// Used already: kept until it expires, to say so to a second machine.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub used: bool,
}

/// The relay's file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// `nats://host:port` (or `tls://…`).
    pub broker: String,
    /// A NATS credentials file, when the broker wants one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creds: Option<PathBuf>,
    /// The circle's random id: the only thing of it the broker sees (in subjects).
    pub circle: String,
    pub name: String,
    pub keys: Keys,
    /// Every machine of the circle, this one included.
    pub peers: Vec<Peer>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invites: Vec<Invite>,
}

/// What is wrong with the relay's file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("this machine is not paired: `userq relay init nats://HOST:PORT` starts a circle, `userq relay join CODE` joins one")]
    NotPaired,
    #[error("{0} is already paired (circle {1}); `userq relay leave` first")]
    AlreadyPaired(PathBuf, String),
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: std::io::Error },
    #[error("{path} is not a relay file: {error}")]
    Bad { path: PathBuf, error: serde_json::Error },
}

impl Config {
    /// Reads the file; `NotPaired` when there is none.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ConfigError::NotPaired),
            Err(error) => return Err(ConfigError::Io { path: path.into(), error }),
        };
        serde_json::from_str(&text).map_err(|error| ConfigError::Bad { path: path.into(), error })
    }

    /// Writes the file whole, readable by this user alone.
    pub fn save(&self, path: &Path) -> Result<(), ConfigError> {
        let text = serde_json::to_string_pretty(self).expect("the relay file serializes");
        crate::paths::write(path, text.as_bytes(), Access::Private)
            .map_err(|error| ConfigError::Io { path: path.into(), error })
    }

    /// The machines other than this one.
    pub fn others(&self) -> impl Iterator<Item = &Peer> {
        self.peers.iter().filter(move |p| p.name != self.name)
    }

    pub fn peer(&self, name: &str) -> Option<&Peer> {
        self.peers.iter().find(|p| p.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_written_whole_for_this_user_alone_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cfg").join(FILE);
        assert!(matches!(Config::load(&path), Err(ConfigError::NotPaired)));
        let keys = Keys::generate();
        let config = Config {
            broker: "nats://127.0.0.1:4222".into(),
            creds: None,
            circle: "c1".into(),
            name: "desk".into(),
            peers: vec![Peer { name: "desk".into(), keys: keys.public() }],
            keys,
            invites: vec![],
        };
        config.save(&path).unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(Config::load(&path).unwrap(), config);
        std::fs::write(&path, "{").unwrap();
        let err = Config::load(&path).unwrap_err().to_string();
        assert!(err.contains("is not a relay file"), "{err}");
    }
}
