//! `userq review` on a real git repository, answered over the socket as the window
//! answers: the working tree's changes (untracked files included) asked as a code
//! review; Approve exits 0, Request changes prints the review and exits 1.

mod common;

use std::path::Path;
use std::process::Stdio;

use common::process::*;
use serde_json::json;
use tokio::io::AsyncWriteExt;

fn git(repo: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A repository with one commit, one file changed since and one file new.
fn repository() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    git(repo.path(), &["init", "-q"]);
    std::fs::write(repo.path().join("cart.py"), "def total(items):\n    return sum(i.price for i in items)\n").unwrap();
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "first"]);
    std::fs::write(repo.path().join("cart.py"), "def total(items):\n    return sum(i.price * i.n for i in items)\n")
        .unwrap();
    std::fs::write(repo.path().join("notes.md"), "# Notes\n").unwrap();
    repo
}

#[tokio::test]
async fn the_working_trees_changes_are_reviewed_and_the_verdict_is_the_exit_status() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("any")).await;
    let repo = repository();
    let review = userq(&socket).arg("review").current_dir(repo.path()).stdin(Stdio::null()).spawn().unwrap();
    let offer = person.expect("questions/offer").await;
    let q = &offer["params"]["request"]["questions"][0];
    assert_eq!(
        (q["question"].as_str(), q["intent"]["kind"].as_str()),
        (Some("Approve these changes?"), Some("code-review"))
    );
    let detail = q["detail"].as_str().unwrap();
    assert!(detail.starts_with("```diff\ndiff --git a/cart.py b/cart.py"), "{detail}");
    assert!(detail.contains("+    return sum(i.price * i.n for i in items)"), "{detail}");
    assert!(
        detail.contains("new file mode") && detail.contains("+# Notes"),
        "untracked files are changes too: {detail}"
    );
    person.reply(&offer["id"], json!({"answer": {"answers": [{"id": "review", "selected": ["Approve"]}]}})).await;
    let out = finish(review).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""), "{}", out.stderr);
    // The person's index is as it was: nothing staged by the review.
    let status =
        std::process::Command::new("git").arg("-C").arg(repo.path()).args(["status", "--porcelain"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&status.stdout), " M cart.py\n?? notes.md\n");

    let review = userq(&socket).arg("review").current_dir(repo.path()).stdin(Stdio::null()).spawn().unwrap();
    let offer = person.expect("questions/offer").await;
    person
        .reply(
            &offer["id"],
            json!({"answer": {"answers": [{"id": "review", "selected": [], "custom": "Name it quantity."}]}}),
        )
        .await;
    let out = finish(review).await;
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "Changes requested: these changes were not approved. Address every comment below, then stop again; what \
changed since will be reviewed.\n\nName it quantity.\n"
    );
}

#[tokio::test]
async fn staged_a_base_a_piped_diff_and_nothing_to_review() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("any")).await;
    let repo = repository();
    // Only what is staged.
    git(repo.path(), &["add", "notes.md"]);
    let review =
        userq(&socket).args(["review", "--staged"]).current_dir(repo.path()).stdin(Stdio::null()).spawn().unwrap();
    let offer = person.expect("questions/offer").await;
    let detail = offer["params"]["request"]["questions"][0]["detail"].as_str().unwrap().to_owned();
    assert!(detail.contains("notes.md") && !detail.contains("cart.py"), "{detail}");
    person.reply(&offer["id"], json!({"answer": {"answers": [{"id": "review", "selected": ["Approve"]}]}})).await;
    assert_eq!(finish(review).await.code, Some(0));
    // A diff piped in.
    let mut review = userq(&socket).arg("review").current_dir(repo.path()).stdin(Stdio::piped()).spawn().unwrap();
    let mut stdin = review.stdin.take().unwrap();
    stdin.write_all(b"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n").await.unwrap();
    drop(stdin);
    let offer = person.expect("questions/offer").await;
    assert_eq!(
        offer["params"]["request"]["questions"][0]["detail"],
        "```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```"
    );
    assert_eq!(
        offer["params"]["request"]["questions"][0]["intent"]["diff"], "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
        "the diff travels as a diff beside its fenced detail"
    );
    person
        .reply(&offer["id"], json!({"answer": {"answers": [{"id": "review", "selected": ["Request changes"]}]}}))
        .await;
    assert_eq!(finish(review).await.code, Some(1));
    // A diff over the socket's line limit is refused by name, not sent to be skipped.
    let mut review = userq(&socket).arg("review").current_dir(repo.path()).stdin(Stdio::piped()).spawn().unwrap();
    let mut stdin = review.stdin.take().unwrap();
    let big = format!("--- a/x\n+++ b/x\n@@ -1 +1 @@\n{}", "+0123456789abcdef\n".repeat(40_000));
    stdin.write_all(big.as_bytes()).await.unwrap();
    drop(stdin);
    let out = finish(review).await;
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stderr.starts_with("Error: the ask request is ")
            && out.stderr.contains("over the socket's limit of 1048576 bytes"),
        "{}",
        out.stderr
    );
    // A base that is no commit, and a tree with nothing changed.
    let out = finish(
        userq(&socket)
            .args(["review", "--base", "nope"])
            .current_dir(repo.path())
            .stdin(Stdio::null())
            .spawn()
            .unwrap(),
    )
    .await;
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("nope"), "{}", out.stderr);
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "second"]);
    let out = finish(userq(&socket).arg("review").current_dir(repo.path()).stdin(Stdio::null()).spawn().unwrap()).await;
    assert_eq!((out.code, out.stderr.trim()), (Some(0), "Nothing to review: no changes."));
    // Outside a repository, with nothing piped in.
    let elsewhere = tempfile::tempdir().unwrap();
    let out =
        finish(userq(&socket).arg("review").current_dir(elsewhere.path()).stdin(Stdio::null()).spawn().unwrap()).await;
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("not in a git repository"), "{}", out.stderr);
}

/// Claude Code's `Stop` hook input, as its hooks reference shows it.
fn stop(repo: &Path, active: bool) -> serde_json::Value {
    json!({"session_id": "s-stop", "transcript_path": "/tmp/t.jsonl", "cwd": repo, "permission_mode": "default",
           "hook_event_name": "Stop", "stop_hook_active": active})
}

async fn hook_stop(socket: &Path, input: &serde_json::Value) -> tokio::process::Child {
    let mut child = userq(socket).args(["hook", "claude-code"]).stdin(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.to_string().as_bytes()).await.unwrap();
    drop(stdin);
    child
}

#[tokio::test]
async fn claude_code_stopping_has_its_changes_reviewed_and_only_what_changed_since_next_time() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let repo = repository();
    let child = hook_stop(&socket, &stop(repo.path(), false)).await;
    let offer = person.expect("questions/offer").await;
    let detail = offer["params"]["request"]["questions"][0]["detail"].as_str().unwrap().to_owned();
    assert!(detail.contains("cart.py") && detail.contains("notes.md"), "{detail}");
    assert_eq!(offer["params"]["request"]["context"]["source"], "Claude Code");
    person
        .reply(
            &offer["id"],
            json!({"answer": {"answers": [{"id": "review", "selected": [], "custom": "Name it quantity."}]}}),
        )
        .await;
    let out = finish(child).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let decision: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(decision["decision"], "block", "Claude goes on working");
    assert!(decision["reason"].as_str().unwrap().ends_with("\n\nName it quantity."), "{decision}");

    // It stops again having changed nothing: no question, it stops.
    let out = finish(hook_stop(&socket, &stop(repo.path(), true)).await).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""), "{}", out.stderr);

    // It changes one more thing: only that is asked about; Approve lets it stop.
    std::fs::write(
        repo.path().join("cart.py"),
        "def total(items):\n    return sum(i.price * i.quantity for i in items)\n",
    )
    .unwrap();
    let child = hook_stop(&socket, &stop(repo.path(), true)).await;
    let offer = person.expect("questions/offer").await;
    let detail = offer["params"]["request"]["questions"][0]["detail"].as_str().unwrap().to_owned();
    assert!(detail.contains("-    return sum(i.price * i.n for i in items)"), "since the last review: {detail}");
    assert!(!detail.contains("notes.md"), "already reviewed: {detail}");
    person.reply(&offer["id"], json!({"answer": {"answers": [{"id": "review", "selected": ["Approve"]}]}})).await;
    let out = finish(child).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""), "{}", out.stderr);

    // Outside a repository, or with no server, it simply stops.
    let elsewhere = tempfile::tempdir().unwrap();
    let out = finish(hook_stop(&socket, &stop(elsewhere.path(), false)).await).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
    std::fs::write(repo.path().join("notes.md"), "# Notes, more\n").unwrap();
    let out = finish(hook_stop(&repo.path().join("no.sock"), &stop(repo.path(), false)).await).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
}
