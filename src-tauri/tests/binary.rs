//! The app's binary as a package or a launcher runs it, before any window: it names
//! its version. (This test also makes `cargo test` build the binary itself, which the
//! end-to-end tests then drive, so it is compiled once with the tests' features.)

#[test]
fn the_app_answers_version_without_a_display() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_user-questions"))
        .arg("--version")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("user-questions {}\n", env!("CARGO_PKG_VERSION")));
}
