//! The bridge's own Matrix account: `userq matrix init` logs it in as a new device,
//! bootstraps its cross-signing (so the person's Element, in strict mode, takes its
//! messages) and turns on recovery, whose key is shown once and kept nowhere here;
//! [`super::bridge`] says how it is and takes it away. The
//! session and the crypto store live in `<data folder>/matrix` (0700, files 0600),
//! the store encrypted with a passphrase kept beside the session. A setup that fails
//! half-way logs its new device out and leaves no files behind.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use matrix_sdk::authentication::matrix::MatrixSession;
use matrix_sdk::ruma::api::client::uiaa;
use matrix_sdk::ruma::api::error::ErrorKind;
use matrix_sdk::ruma::UserId;
use matrix_sdk::{Client, HttpError};
use serde::{Deserialize, Serialize};

use super::MatrixError;
use crate::paths;

/// The name the bridge's device shows in the person's session list.
const DEVICE_NAME: &str = "User Questions";

/// Where the bridge keeps its account.
#[derive(Debug, Clone)]
pub struct Place {
    dir: PathBuf,
}

/// What is kept of the session (0600): enough to come back as the same device.
#[derive(Serialize, Deserialize)]
pub(super) struct Saved {
    pub(super) homeserver: String,
    pub(super) session: MatrixSession,
    /// The crypto store's passphrase.
    passphrase: String,
}

/// A bridge just set up.
#[derive(Debug)]
pub struct Initialized {
    pub user: String,
    pub device: String,
    /// Shown to the person once; it restores the bridge's keys from the server's backup.
    pub recovery_key: String,
}

impl Place {
    /// `<data folder>/matrix`.
    pub fn default_place() -> Option<Self> {
        Some(Self::at(paths::data_dir()?.join("matrix")))
    }

    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn session_file(&self) -> PathBuf {
        self.dir.join("session.json")
    }

    fn store(&self) -> PathBuf {
        self.dir.join("store")
    }

    pub(super) fn files_error(&self, e: impl std::fmt::Display) -> MatrixError {
        MatrixError::Files { path: self.dir.clone(), error: e.to_string() }
    }

    fn load(&self) -> Result<Saved, MatrixError> {
        let bytes = match std::fs::read(self.session_file()) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(MatrixError::NotSetUp),
            Err(e) => return Err(self.files_error(e)),
        };
        serde_json::from_slice(&bytes).map_err(|e| self.files_error(format!("session.json does not read: {e}")))
    }

    fn save(&self, saved: &Saved) -> Result<(), MatrixError> {
        let bytes = serde_json::to_vec_pretty(saved).expect("a session serializes");
        paths::write(&self.session_file(), &bytes, paths::Access::Private).map_err(|e| self.files_error(e))
    }

    /// The folder and the store's own folder, this user's alone, before anything is in them.
    fn make(&self) -> Result<(), MatrixError> {
        for dir in [&self.dir, &self.store()] {
            std::fs::create_dir_all(dir).map_err(|e| self.files_error(e))?;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(|e| self.files_error(e))?;
        }
        Ok(())
    }

    /// Every file of the store readable by this user alone (SQLite's own journals take
    /// the mode of their database).
    fn lock_down(&self) -> Result<(), MatrixError> {
        let entries = std::fs::read_dir(self.store()).map_err(|e| self.files_error(e))?;
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_file()) {
                std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o600))
                    .map_err(|e| self.files_error(e))?;
            }
        }
        Ok(())
    }

    pub(super) fn remove(&self) -> Result<(), MatrixError> {
        match std::fs::remove_dir_all(&self.dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(self.files_error(e)),
            _ => Ok(()),
        }
    }
}

async fn client(homeserver: &str, store: &Path, passphrase: &str) -> Result<Client, MatrixError> {
    crate::tls::ready();
    Client::builder()
        .homeserver_url(homeserver)
        .sqlite_store(store, Some(passphrase))
        // Room keys only for devices their owner cross-signed (Element's strict mode).
        .with_room_key_recipient_strategy(matrix_sdk_base::crypto::CollectStrategy::IdentityBasedStrategy)
        .build()
        .await
        .map_err(|e| MatrixError::Homeserver { url: homeserver.to_owned(), error: e.to_string() })
}

/// The error of a request to `url`, in the words of [`MatrixError`].
pub(super) fn failed(url: &str, e: &HttpError) -> MatrixError {
    match e {
        HttpError::Reqwest(r) if r.is_connect() || r.is_timeout() => {
            MatrixError::Unreachable { url: url.to_owned(), error: r.to_string() }
        }
        e => MatrixError::Homeserver { url: url.to_owned(), error: e.to_string() },
    }
}

pub(super) fn failed_sdk(url: &str, e: matrix_sdk::Error) -> MatrixError {
    match e {
        matrix_sdk::Error::Http(h) => failed(url, &h),
        e => MatrixError::Homeserver { url: url.to_owned(), error: e.to_string() },
    }
}

/// Sets the bridge up as `user` on `homeserver`: a new device, cross-signed, with
/// recovery on. Fails, leaving nothing behind, for a wrong password, an unreachable
/// homeserver, or an account whose identity another device made.
pub async fn init(place: &Place, homeserver: &str, user: &str, password: &str) -> Result<Initialized, MatrixError> {
    if let Ok(saved) = place.load() {
        return Err(MatrixError::AlreadySetUp(saved.session.meta.user_id.to_string()));
    }
    let url = url::Url::parse(homeserver).map_err(|_| MatrixError::BadUrl(homeserver.to_owned()))?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(MatrixError::BadUrl(homeserver.to_owned()));
    }
    let user_id = UserId::parse(user).map_err(|_| MatrixError::BadUser(user.to_owned()))?;
    place.remove()?;
    place.make()?;
    let passphrase = format!("{:032x}", rand::random::<u128>());
    let set_up = async {
        let client = client(homeserver, &place.store(), &passphrase).await?;
        let login = client.matrix_auth().login_username(&user_id, password).initial_device_display_name(DEVICE_NAME);
        if let Err(e) = login.await {
            return Err(match e.client_api_error_kind() {
                Some(ErrorKind::Forbidden) => MatrixError::WrongPassword(user.to_owned()),
                _ => failed_sdk(homeserver, e),
            });
        }
        let made = finish(&client, homeserver, &user_id, password).await;
        if made.is_err() {
            let _ = client.matrix_auth().logout().await;
        }
        let recovery_key = made?;
        let session = client.matrix_auth().session().expect("logged in");
        let device = session.meta.device_id.to_string();
        place.save(&Saved { homeserver: homeserver.to_owned(), session, passphrase: passphrase.clone() })?;
        place.lock_down()?;
        Ok(Initialized { user: user_id.to_string(), device, recovery_key })
    };
    let outcome = set_up.await;
    if outcome.is_err() {
        let _ = place.remove();
    }
    outcome
}

/// After the login: refuses an identity made elsewhere, makes this one, turns on
/// recovery; its key.
async fn finish(client: &Client, homeserver: &str, user_id: &UserId, password: &str) -> Result<String, MatrixError> {
    let encryption = client.encryption();
    encryption.wait_for_e2ee_initialization_tasks().await;
    if encryption.request_user_identity(user_id).await.map_err(|e| failed_sdk(homeserver, e))?.is_some() {
        return Err(MatrixError::InUseElsewhere(user_id.to_string()));
    }
    if let Err(e) = encryption.bootstrap_cross_signing(None).await {
        let Some(info) = e.as_uiaa_response() else { return Err(failed_sdk(homeserver, e)) };
        let who = uiaa::UserIdentifier::Matrix(uiaa::MatrixUserIdentifier::new(user_id.to_string()));
        let mut auth = uiaa::Password::new(who, password.to_owned());
        auth.session = info.session.clone();
        encryption
            .bootstrap_cross_signing(Some(uiaa::AuthData::Password(auth)))
            .await
            .map_err(|e| failed_sdk(homeserver, e))?;
    }
    encryption
        .recovery()
        .enable()
        .await
        .map_err(|e| MatrixError::Homeserver { url: homeserver.to_owned(), error: format!("turning on recovery: {e}") })
}

/// The bridge as kept, back as the same device (no request made).
pub(super) async fn restore(place: &Place) -> Result<(Client, Saved), MatrixError> {
    let saved = place.load()?;
    let client = client(&saved.homeserver, &place.store(), &saved.passphrase).await?;
    client.restore_session(saved.session.clone()).await.map_err(|e| place.files_error(e))?;
    Ok((client, saved))
}
