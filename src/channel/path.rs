//! Where the socket lives: `$USERQ_SOCKET`; else `$XDG_RUNTIME_DIR/user-questions/userq.sock`;
//! else `<temp dir>/user-questions-<uid>/userq.sock`.

use std::path::PathBuf;

pub fn socket_path() -> PathBuf {
    if let Some(p) = std::env::var_os("USERQ_SOCKET").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR").filter(|p| !p.is_empty()) {
        return PathBuf::from(dir).join("user-questions").join("userq.sock");
    }
    let uid = super::peer::own_uid();
    std::env::temp_dir().join(format!("user-questions-{uid}")).join("userq.sock")
}
