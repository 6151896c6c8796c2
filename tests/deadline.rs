//! The person's deadline through the doors a person and an agent use: `userq deadline`
//! sets it (and names a bad one), a running `userq serve` holds it from the next
//! question; a permission asked through Claude Code's hook is denied with the reason
//! and never allowed, a plain question is dismissed with `DEADLINE_PASSED`, the
//! person's answerer sees each withdrawn, and the history records the deadline as
//! who decided. Off again, a question waits.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::process::*;
use common::Peer;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt as _;

async fn deadline(socket: &Path, args: &[&str]) -> Output {
    finish(userq(socket).arg("deadline").args(args).spawn().unwrap()).await
}

fn bash_request() -> Value {
    json!({
        "session_id": "abc123", "cwd": "/home/me/shop", "permission_mode": "default",
        "hook_event_name": "PermissionRequest", "tool_name": "Bash",
        "tool_input": {"command": "git push --force", "description": "Force-push the branch"}
    })
}

#[tokio::test]
async fn at_the_deadline_a_permission_is_denied_a_question_dismissed_and_the_deadline_recorded() {
    let (_d, socket) = temp_socket();
    let out = deadline(&socket, &[]).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), "Questions wait for you: no deadline.\n"));
    let out = deadline(&socket, &["soon"]).await;
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("\"soon\" is not a duration"), "{}", out.stderr);
    let _server = serve(&socket).await;
    // Set while the server runs: it holds from the next question.
    let out = deadline(&socket, &["2s"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.starts_with("After 2s unanswered, a permission is denied"), "{}", out.stdout);
    let mut person = answerer(&socket, json!("any")).await;

    // A permission through the agent's own door: the hook prints a deny with the reason.
    let mut hook = userq(&socket).args(["hook", "claude-code"]).stdin(Stdio::piped()).spawn().unwrap();
    let mut stdin = hook.stdin.take().unwrap();
    stdin.write_all(bash_request().to_string().as_bytes()).await.unwrap();
    drop(stdin);
    let offer = person.expect("questions/offer").await;
    person.reply(&offer["id"], json!({"claim": true})).await;
    let withdrawn = person.expect("questions/withdraw").await;
    assert_eq!(withdrawn["params"]["ask"], offer["params"]["ask"], "taken down where it was shown");
    let out = finish(hook).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let said: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let decision = &said["hookSpecificOutput"]["decision"];
    assert_eq!(decision["behavior"], "deny", "{said}");
    let why = decision["message"].as_str().unwrap();
    assert!(why.starts_with("Denied: nobody answered within 2s, the person's deadline"), "{why}");

    // A plain question: dismissed, with words a model reads.
    let mut agent = Peer::connect(&socket).await;
    agent.call("initialize", json!({"protocolVersion": 1, "client": {"name": "t", "version": "1"}})).await;
    let q = json!({"id": "q", "question": "Which package manager?", "options": [{"label": "pnpm"}, {"label": "npm"}]});
    let asked = agent.start("ask", json!({"questions": [q]})).await;
    let offer = person.expect("questions/offer").await;
    person.reply(&offer["id"], json!({"claim": true})).await;
    let r = agent.recv().await;
    assert_eq!(r["id"], asked);
    assert_eq!(r["error"]["data"]["code"], "DEADLINE_PASSED", "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("nobody answered within 2s"), "{r}");
    person.expect("questions/withdraw").await;

    let out = finish(userq(&socket).args(["history", "--json"]).spawn().unwrap()).await;
    let entries: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(entries.len(), 2, "{}", out.stdout);
    assert!(entries.iter().all(|e| e["answeredBy"] == "deadline"), "{}", out.stdout);
    assert_eq!(entries[0]["outcome"]["error"]["code"], "DEADLINE_PASSED");

    // Off again: the next question waits for the person.
    assert_eq!(deadline(&socket, &["off"]).await.code, Some(0));
    let asked = agent.start("ask", json!({"questions": [json!({"id": "q", "question": "Still there?"})]})).await;
    let offer = person.expect("questions/offer").await;
    person.reply(&offer["id"], json!({"claim": true})).await;
    assert_eq!(agent.try_recv(Duration::from_secs(3)).await, None, "no deadline: it waits");
    let r = person.call("questions/answer", json!({"ask": offer["params"]["ask"], "answer": {"answers": [{"id": "q", "selected": [], "custom": "yes"}]}})).await;
    assert_eq!(r["result"], json!({}), "{r}");
    assert_eq!(agent.recv().await["id"], asked);
}
