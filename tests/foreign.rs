//! Nobody else can stand in for the server. Tried as another local user would: these
//! tests run as root, only where `make test` arranges it (`make test-system`, through
//! sudo when needed; a plain `cargo test` leaves them out), and play the stranger as a
//! uid no account has, so nothing on the machine is changed. The
//! server refuses a socket folder another user owns or can use; every client refuses a
//! server run by another user, and a hook then takes no decision.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::process::*;
use serde_json::json;
use tokio::io::AsyncWriteExt;

/// The stranger: a uid no account on this machine has, so nothing is made for it.
const STRANGER: u32 = 1_999_999_999;

/// The stranger's uid; only root can play another user.
fn stranger() -> u32 {
    assert_eq!(unsafe { libc::getuid() }, 0, "these tests play a second user and need root (make test-system)");
    assert!(
        !std::fs::read_to_string("/etc/passwd").unwrap().lines().any(|l| l.split(':').nth(2) == Some("1999999999")),
        "uid {STRANGER} belongs to an account here"
    );
    STRANGER
}

fn chown(path: &Path, uid: u32) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::chown(c.as_ptr(), uid, uid) }, 0);
}

#[tokio::test]
async fn the_server_refuses_a_folder_that_is_not_its_users_alone() {
    let uid = stranger();
    let (dir, _) = temp_socket();
    // Owned by another user.
    let theirs = dir.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o700)).unwrap();
    chown(&theirs, uid);
    let out = finish(userq(&theirs.join("userq.sock")).arg("serve").spawn().unwrap()).await;
    assert_eq!(out.code, Some(1));
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains(&theirs.display().to_string()) && out.stderr.contains(&format!("uid {uid}")),
        "{}",
        out.stderr
    );
    // Ours, but open to everyone, as the temp folder's fallback was when another user
    // made it first: XDG_RUNTIME_DIR unset, the socket under <temp dir>/user-questions-0.
    let tmp = dir.path().join("tmp");
    let open = tmp.join("user-questions-0");
    std::fs::create_dir_all(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let mut serve = userq(Path::new(""));
    serve.env_remove("USERQ_SOCKET").env_remove("XDG_RUNTIME_DIR").env("TMPDIR", &tmp).arg("serve");
    let out = finish(serve.spawn().unwrap()).await;
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains(&open.display().to_string()) && out.stderr.contains("mode 777"), "{}", out.stderr);
    assert!(!open.join("userq.sock").exists());
    // A folder it makes itself is 0700.
    std::fs::remove_dir(&open).unwrap();
    let mut serve = userq(Path::new(""));
    serve.env_remove("USERQ_SOCKET").env_remove("XDG_RUNTIME_DIR").env("TMPDIR", &tmp).arg("serve");
    let mut child = serve.spawn().unwrap();
    for _ in 0..500 {
        if open.join("userq.sock").exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(std::fs::metadata(&open).unwrap().permissions().mode() & 0o777, 0o700);
    child.start_kill().unwrap();
}

#[tokio::test]
async fn clients_refuse_a_server_run_by_another_user() {
    let uid = stranger();
    let (dir, _) = temp_socket();
    // The stranger's server, in a folder of theirs our temp folder lets them pass to.
    let (socket, _server) = their_server(dir.path(), uid, &[]).await;
    let out = finish(userq(&socket).args(["ask", "Deploy?", "--option", "Yes"]).spawn().unwrap()).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(1), ""), "{}", out.stderr);
    assert!(out.stderr.contains(&format!("runs as uid {uid}")), "{}", out.stderr);
    for args in [vec!["pending"], vec!["answer", "--once"]] {
        let out = finish(userq(&socket).args(&args).spawn().unwrap()).await;
        assert_eq!(out.code, Some(1), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("refusing the server"), "{args:?}: {}", out.stderr);
    }
    // A hook takes no decision and says why.
    let mut hook = userq(&socket).args(["hook", "claude-code"]).stdin(Stdio::piped()).spawn().unwrap();
    let input =
        json!({"hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"}});
    let mut stdin = hook.stdin.take().unwrap();
    stdin.write_all(input.to_string().as_bytes()).await.unwrap();
    drop(stdin);
    let out = finish(hook).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
    assert!(out.stderr.contains("refusing the server"), "{}", out.stderr);
}

/// A server run as `uid` in a folder of theirs inside `dir` (which `uid` may pass
/// through), with `env`; its socket.
async fn their_server(dir: &Path, uid: u32, env: &[(&str, &str)]) -> (std::path::PathBuf, tokio::process::Child) {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o711)).unwrap();
    let theirs = dir.join("theirs");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::set_permissions(&theirs, std::fs::Permissions::from_mode(0o700)).unwrap();
    chown(&theirs, uid);
    let socket = theirs.join("userq.sock");
    let mut server = tokio::process::Command::new("setpriv");
    server
        .args(["--reuid", &uid.to_string(), "--regid", &uid.to_string(), "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_userq"))
        .arg("serve")
        .env("USERQ_SOCKET", &socket)
        .env("USERQ_DATA_DIR", theirs.join("data"))
        .envs(env.iter().copied())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let server = server.spawn().unwrap();
    for _ in 0..500 {
        if std::os::unix::net::UnixStream::connect(&socket).is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    (socket, server)
}

/// A container's root (rootful Docker: uid 0 in it is uid 0 here) asking the person's
/// server, whose socket folder is mounted into it: let in only where both sides were
/// told to trust the other.
#[tokio::test]
async fn a_containers_root_asks_only_where_both_sides_trust_it() {
    let person = stranger();
    let (dir, _) = temp_socket();
    let (socket, _server) = their_server(dir.path(), person, &[("USERQ_TRUST_UIDS", "0")]).await;
    let mut answering = answerer(&socket, json!("any")).await;
    let mut ask = userq(&socket);
    ask.env("USERQ_SERVER_UID", person.to_string()).args(["ask", "Deploy?", "--option", "Yes", "--option", "No"]);
    let asking = ask.spawn().unwrap();
    let offer = answering.expect("questions/offer").await;
    answering.reply(&offer["id"], json!({"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})).await;
    let out = finish(asking).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&out.stdout).unwrap()["answers"][0]["selected"],
        json!(["Yes"])
    );
    // Without the server's word, the container's root is shut out.
    let (dir, _) = temp_socket();
    let (socket, _server) = their_server(dir.path(), person, &[]).await;
    let mut ask = userq(&socket);
    ask.env("USERQ_SERVER_UID", person.to_string()).args(["pending"]);
    let out = finish(ask.spawn().unwrap()).await;
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    // A list that is not uids is named, and nothing is served.
    let out =
        finish(userq(&dir.path().join("x.sock")).env("USERQ_TRUST_UIDS", "0,root").arg("serve").spawn().unwrap()).await;
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("USERQ_TRUST_UIDS: \"root\" is not a uid"), "{}", out.stderr);
    assert!(!dir.path().join("x.sock").exists());
}
