//! The one door to where User Questions keeps things on this machine, and the one way
//! it writes a file. Every door (the CLI, the app, the relay, SSH's remembered hosts,
//! the window's settings) reads its folders here, so an override such as
//! `USERQ_CONFIG_DIR` moves all of them together; every file it owns is written whole
//! through a temporary file beside it, so a crash or a full disk never leaves half of
//! one.
//!
//! - The socket: `$USERQ_SOCKET`; else `$XDG_RUNTIME_DIR/user-questions/userq.sock`;
//!   else `<temp dir>/user-questions-<uid>/userq.sock`.
//! - Configuration (the relay's circle, remembered SSH hosts, the window's settings):
//!   `$USERQ_CONFIG_DIR`, else `$XDG_CONFIG_HOME/user-questions`, else
//!   `~/.config/user-questions`.
//! - Data (the history, review snapshots): `$USERQ_DATA_DIR`, else
//!   `$XDG_DATA_HOME/user-questions`, else `~/.local/share/user-questions`.

use std::fs::{OpenOptions, Permissions};
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The folder named after the product in each of the person's base folders.
const FOLDER: &str = "user-questions";

fn var(key: &str) -> Option<PathBuf> {
    std::env::var_os(key).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// Where the socket lives.
pub fn socket() -> PathBuf {
    if let Some(p) = var("USERQ_SOCKET") {
        return p;
    }
    if let Some(dir) = var("XDG_RUNTIME_DIR") {
        return dir.join(FOLDER).join("userq.sock");
    }
    let uid = crate::channel::peer::own_uid();
    std::env::temp_dir().join(format!("{FOLDER}-{uid}")).join("userq.sock")
}

/// A short name of the server on `socket`, the same for the same path: the app names
/// its single instance by it, so a second launch on the same socket shows the first
/// one's window, and a launch on another socket is a server of its own.
pub fn server_name(socket: &Path) -> String {
    use sha2::{Digest, Sha256};
    use std::os::unix::ffi::OsStrExt;
    Sha256::digest(socket.as_os_str().as_bytes())[..6].iter().map(|b| format!("{b:02x}")).collect()
}

/// The folder of the person's configuration.
pub fn config_dir() -> Option<PathBuf> {
    var("USERQ_CONFIG_DIR")
        .or_else(|| var("XDG_CONFIG_HOME").map(|d| d.join(FOLDER)))
        .or_else(|| var("HOME").map(|h| h.join(".config").join(FOLDER)))
}

/// The folder of what User Questions keeps (the history).
pub fn data_dir() -> Option<PathBuf> {
    var("USERQ_DATA_DIR")
        .or_else(|| var("XDG_DATA_HOME").map(|d| d.join(FOLDER)))
        .or_else(|| var("HOME").map(|h| h.join(".local/share").join(FOLDER)))
}

/// This machine's name (the host's), the default name of a machine in a relay's
/// circle and where the history says an answer was given.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_owned())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "this machine".into())
}

/// Who may read a file [`write`] replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// This user alone (0600): keys, hosts, anything a neighbour should not read.
    Private,
    /// As the file it replaces allowed; a new file as the umask allows. For files that
    /// belong to the person or an agent (their settings), whose mode is theirs.
    AsBefore,
}

/// Writes `bytes` as the whole of `path`, making its folder: into a temporary file in
/// the same folder, flushed to disk, then renamed over `path`, so a reader sees the old
/// file or the new one and never a part.
pub fn write(path: &Path, bytes: &[u8], access: Access) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().ok_or_else(|| std::io::Error::other("a file path names no file"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    // The mode the file keeps; none: a new file, made as a plain create makes it (0666
    // under the umask).
    let mode = match access {
        Access::Private => Some(0o600),
        Access::AsBefore => std::fs::metadata(path).ok().map(|m| m.permissions().mode()),
    };
    let written = (|| {
        let made = if mode.is_some() { 0o600 } else { 0o666 };
        let mut file = OpenOptions::new().write(true).create(true).truncate(true).mode(made).open(&tmp)?;
        if let Some(mode) = mode {
            // Set, not made: the umask does not take bits from a mode already chosen.
            file.set_permissions(Permissions::from_mode(mode))?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_server_is_named_by_its_socket_alone() {
        let a = server_name(Path::new("/run/user/1000/user-questions/userq.sock"));
        assert_eq!(a, server_name(Path::new("/run/user/1000/user-questions/userq.sock")));
        assert_ne!(a, server_name(Path::new("/tmp/t/userq.sock")));
        assert!(a.len() == 12 && a.chars().all(|c| c.is_ascii_hexdigit()), "{a}");
    }

    #[test]
    fn a_file_is_written_whole_with_its_folder_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/hosts.json");
        write(&path, b"[1]", Access::Private).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"[1]");
        assert_eq!(mode(&path), 0o600);
        write(&path, b"[2]", Access::Private).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"[2]");
        let names: Vec<_> =
            std::fs::read_dir(path.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["hosts.json"]);
    }

    #[test]
    fn a_person_s_file_keeps_its_mode_and_a_new_one_is_made_as_a_plain_create_makes_it() {
        let dir = tempfile::tempdir().unwrap();
        let theirs = dir.path().join("settings.json");
        std::fs::write(&theirs, b"{}").unwrap();
        std::fs::set_permissions(&theirs, Permissions::from_mode(0o640)).unwrap();
        write(&theirs, b"{\"a\":1}", Access::AsBefore).unwrap();
        assert_eq!(mode(&theirs), 0o640);
        let new = dir.path().join("new.json");
        write(&new, b"{}", Access::AsBefore).unwrap();
        let plain = dir.path().join("plain.json");
        std::fs::write(&plain, b"{}").unwrap();
        assert_eq!(mode(&new), mode(&plain));
    }

    #[test]
    fn a_write_that_fails_names_nothing_new_and_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.json");
        std::fs::write(&path, b"old").unwrap();
        // A folder where the file should be: the rename fails, the temporary goes.
        let blocked = dir.path().join("blocked");
        std::fs::create_dir_all(blocked.join("inside")).unwrap();
        assert!(write(&blocked, b"new", Access::Private).is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        let mut names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        assert_eq!(names, ["blocked", "x.json"]);
    }
}
