//! Identities pinned when first seen: the master key of each person whose vote the
//! bridge counted, kept in `identities.json` (0600). A vote from an identity that
//! changed since (a new phone set up from scratch, or someone else) counts for nothing
//! until the person at the desk trusts it again (`userq matrix trust @NAME:SERVER`),
//! and `userq matrix status` says so.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use matrix_sdk::ruma::UserId;
use matrix_sdk::Client;

use super::account::Place;
use super::MatrixError;
use crate::paths;

/// How a person's identity stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Standing {
    /// As first seen, or trusted again.
    Trusted,
    /// Changed since: not counted until trusted.
    Changed,
    /// Not pinned yet: pinned at their first vote.
    NotSeen,
    /// No cross-signing identity: their votes cannot count.
    None,
}

/// The pinned keys, read from their file at each look: `userq matrix trust` writes it
/// while a server runs the bridge.
pub struct Pins {
    file: PathBuf,
    /// Held while the file is read and written again.
    writing: Mutex<()>,
}

type Keys = BTreeMap<String, String>;

impl Pins {
    /// The pins of `place`; a file that does not read is an error naming it.
    pub fn load(place: &Place) -> Result<Self, MatrixError> {
        let pins = Self { file: place.dir().join("identities.json"), writing: Mutex::new(()) };
        pins.keys().map_err(|e| place.files_error(e))?;
        Ok(pins)
    }

    fn keys(&self) -> Result<Keys, String> {
        match std::fs::read(&self.file) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| format!("identities.json does not read: {e}")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Keys::new()),
            Err(e) => Err(e.to_string()),
        }
    }

    fn save(&self, keys: &Keys) -> std::io::Result<()> {
        let bytes = serde_json::to_vec_pretty(keys).expect("keys serialize");
        paths::write(&self.file, &bytes, paths::Access::Private)
    }

    /// The master key `user` has as this device knows it.
    async fn current(client: &Client, user: &UserId) -> Option<String> {
        let identity = client.encryption().get_user_identity(user).await.ok()??;
        identity.master_key().get_first_key().map(|k| k.to_base64())
    }

    /// How `user` stands now, without pinning anything.
    pub async fn standing(&self, client: &Client, user: &UserId) -> Standing {
        let Some(key) = Self::current(client, user).await else { return Standing::None };
        match self.keys().unwrap_or_default().get(user.as_str()) {
            None => Standing::NotSeen,
            Some(pinned) if *pinned == key => Standing::Trusted,
            Some(_) => Standing::Changed,
        }
    }

    /// Whether `user`'s identity is as pinned; one not seen before is pinned now.
    pub async fn holds(&self, client: &Client, user: &UserId) -> bool {
        let Some(key) = Self::current(client, user).await else { return false };
        let _writing = self.writing.lock().unwrap();
        let Ok(mut keys) = self.keys() else { return false };
        match keys.get(user.as_str()) {
            Some(pinned) => *pinned == key,
            None => {
                keys.insert(user.to_string(), key);
                if let Err(e) = self.save(&keys) {
                    tracing::warn!("matrix: could not keep {user}'s identity: {e}");
                }
                true
            }
        }
    }

    /// Pins `user`'s identity as the homeserver has it now; the key, or `None` when
    /// they have no cross-signing identity.
    pub async fn trust(&self, client: &Client, user: &UserId) -> Result<Option<String>, matrix_sdk::Error> {
        client.encryption().request_user_identity(user).await?;
        let Some(key) = Self::current(client, user).await else { return Ok(None) };
        let _writing = self.writing.lock().unwrap();
        let mut keys = self.keys().map_err(|e| matrix_sdk::Error::UnknownError(e.into()))?;
        keys.insert(user.to_string(), key.clone());
        self.save(&keys).map_err(|e| matrix_sdk::Error::UnknownError(Box::new(e)))?;
        Ok(Some(key))
    }
}
