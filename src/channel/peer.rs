//! Who is on the other end. Once an answer can allow a command in someone's project,
//! whoever answers the socket decides for them, so both ends check the other as
//! ssh-agent and tmux do: the server listens only in a folder that is its user's
//! alone, and closes connections from other users; every client refuses a server run
//! by another user.

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
