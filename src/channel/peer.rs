//! Who is on the other end. Once an answer can allow a command in someone's project,
//! whoever answers the socket decides for them, so both ends check the other as
//! ssh-agent and tmux do: the server listens only in a folder that is its user's
//! alone, and closes connections from other users; every client refuses a server run
//! by another user. A container whose processes run as another uid (root, under a
//! rootful Docker) is let in only where the person said so, on each side: the server
//! admits the uids in `USERQ_TRUST_UIDS`, and a client admits a server of the uid in
//! `USERQ_SERVER_UID`.

use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// This process's user id.
pub fn own_uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}

/// The user id of the process on the other end of a connected Unix socket
/// (`SO_PEERCRED` on Linux, `getpeereid` on macOS, through tokio).
pub fn peer_uid(stream: &tokio::net::UnixStream) -> io::Result<u32> {
    stream.peer_cred().map(|c| c.uid())
}

/// The uids besides its own a server admits: `USERQ_TRUST_UIDS`, comma-separated.
pub fn trusted_uids() -> Result<Vec<u32>, String> {
    uids_from(std::env::var("USERQ_TRUST_UIDS").unwrap_or_default().as_str(), "USERQ_TRUST_UIDS")
}

/// The uid besides its own whose server a client admits: `USERQ_SERVER_UID`.
pub fn trusted_server_uid() -> Option<u32> {
    std::env::var("USERQ_SERVER_UID").ok()?.trim().parse().ok()
}

/// `0, 1001` → `[0, 1001]`; a word that is not a uid is named.
pub fn uids_from(list: &str, name: &str) -> Result<Vec<u32>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(|u| u.parse().map_err(|_| format!("{name}: {u:?} is not a uid")))
        .collect()
}

/// Why a folder may not hold the socket, or `None` when it is this user's alone.
pub fn unsafe_folder(dir: &Path) -> io::Result<Option<String>> {
    let meta = std::fs::metadata(dir)?;
    let uid = own_uid();
    if meta.uid() != uid {
        return Ok(Some(format!("it belongs to uid {}, not to this user (uid {uid})", meta.uid())));
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        return Ok(Some(format!("other users can use it (mode {mode:03o}; it must be 700)")));
    }
    Ok(None)
}
