//! Pictures pasted or dropped into feedback: kept under the data folder, so the
//! feedback can name a file the agent reads. Only what its own bytes say is a PNG,
//! JPEG, GIF or WebP picture is kept (never what a name or a type claims), up to
//! [`MAX_BYTES`], under a name of our own, readable by this user alone; nothing kept
//! is ever run.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use user_questions::model::ErrorCode;
use user_questions_i18n::Text;

use crate::error::UiError;

/// The largest picture kept.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;

/// Keeps `bytes` as a picture in `dir`; its path.
pub fn save(dir: &Path, bytes: &[u8], text: &Text) -> Result<PathBuf, UiError> {
    let bad = |id: &str| UiError::new(ErrorCode::BadPicture, text.tr(id));
    if bytes.len() > MAX_BYTES {
        return Err(UiError::new(
            ErrorCode::BadPicture,
            text.tr_args("window-picture-too-big", &[("mib", ((MAX_BYTES / 1024 / 1024) as u64).into())]),
        ));
    }
    let kind = infer::get(bytes).ok_or_else(|| bad("window-picture-not-one"))?;
    let ext = match kind.mime_type() {
        "image/png" => "png",
        "image/jpeg" => "jpg",
        "image/gif" => "gif",
        "image/webp" => "webp",
        _ => return Err(bad("window-picture-not-one")),
    };
    let io = |e: std::io::Error| UiError::new(ErrorCode::BadPicture, e.to_string());
    std::fs::create_dir_all(dir).map_err(io)?;
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    let path = dir.join(format!("picture-{stamp}-{:08x}.{ext}", rand_u32()));
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path).map_err(io)?;
    file.write_all(bytes).map_err(io)?;
    Ok(path)
}

fn rand_u32() -> u32 {
    // Only to keep two pictures of one millisecond apart: the clock's nanoseconds.
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest PNG: a 1x1 transparent pixel.
    pub const PNG: &[u8] = &[
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
        8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0, 1, 0, 0, 5,
        0, 1, 0x0d, 0x0a, 0x2d, 0xb4, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
    ];

    #[test]
    fn a_picture_is_kept_by_what_its_bytes_are_and_nothing_else_is() {
        let dir = tempfile::tempdir().unwrap();
        let en = Text::for_tag("en");
        let path = save(dir.path(), PNG, &en).unwrap();
        assert_eq!(path.extension().unwrap(), "png");
        assert_eq!(std::fs::read(&path).unwrap(), PNG);
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        let script = save(dir.path(), b"#!/bin/sh\nrm -rf ~\n", &en).unwrap_err();
        assert_eq!(
            (script.code.as_str(), script.message.as_str()),
            ("BAD_PICTURE", "That is not a picture (PNG, JPEG, GIF or WebP).")
        );
        let pdf = save(dir.path(), b"%PDF-1.7\n", &en).unwrap_err();
        assert_eq!(pdf.code, "BAD_PICTURE");
        let big = vec![0u8; MAX_BYTES + 1];
        assert_eq!(save(dir.path(), &big, &en).unwrap_err().message, "The picture is larger than 10 MiB.");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "only the picture was kept");
    }
}
