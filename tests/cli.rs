//! `userq` as a person or a script runs it: real processes on a real socket, their
//! exit codes and outputs, and asks that survive a server restart or crash.

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::process::*;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

#[tokio::test]
async fn exit_codes_without_a_server_and_for_usage() {
    let (_d, socket) = temp_socket();
    let out = finish(userq(&socket).args(["ask", "Deploy?"]).spawn().unwrap()).await;
    assert_eq!(out.code, Some(3));
    assert!(out.stderr.contains("userq serve"), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1);
    let out = finish(userq(&socket).arg("ask").spawn().unwrap()).await;
    assert_eq!(out.code, Some(2));
    let out = finish(userq(&socket).args(["ask", "q", "--plan", "x", "--multi"]).spawn().unwrap()).await;
    assert_eq!(out.code, Some(2));
    let out = finish(userq(&socket).args(["pending"]).spawn().unwrap()).await;
    assert_eq!(out.code, Some(3));
    let out = finish(userq(&socket).arg("--help").spawn().unwrap()).await;
    assert_eq!(out.code, Some(0));
    assert!(out.stdout.contains("Examples:") && out.stdout.contains("userq mcp"));
    for agent in user_questions::agents::Agent::ALL {
        assert!(out.stdout.contains(agent.name), "`userq --help` names {}", agent.name);
    }
}

#[tokio::test]
async fn without_a_server_the_person_reads_why_in_their_language() {
    let (_d, socket) = temp_socket();
    for args in [vec!["ask", "Deploy?"], vec!["pending"]] {
        let out = finish(userq(&socket).env("USERQ_LANG", "zh-CN").args(&args).spawn().unwrap()).await;
        assert_eq!(out.code, Some(3), "{args:?}");
        assert_eq!(
            out.stderr.trim(),
            format!(
                "{} 上没有正在监听的 user-questions 服务；请用 `userq serve`（或桌面应用）启动一个",
                socket.display()
            ),
            "{args:?}"
        );
    }
    // The doctor's line about the server, every word of it from the catalog.
    let out = finish(userq(&socket).env("USERQ_LANG", "zh-CN").env("PATH", "").arg("doctor").spawn().unwrap()).await;
    let line = out.stdout.lines().find(|l| l.starts_with("没有服务器应答")).unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(line.ends_with("上没有正在监听的 user-questions 服务；请用 `userq serve`（或桌面应用）启动一个"), "{line}");
    assert!(!line.contains("no user-questions server"), "{line}");
}

#[tokio::test]
async fn one_server_per_path_and_a_clean_stop_removes_the_socket() {
    let (_d, socket) = temp_socket();
    let first = serve(&socket).await;
    let out = finish(userq(&socket).arg("serve").spawn().unwrap()).await;
    assert_eq!(out.code, Some(3));
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("already listening"));
    signal(&first, libc::SIGTERM);
    let out = finish(first).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(!socket.exists());
}

#[tokio::test]
async fn ask_prints_the_answer_and_names_its_agent() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut a = answerer(&socket, json!("agents")).await;
    let asking = userq(&socket)
        .args(["ask", "Deploy to prod?", "--header", "Deploy", "--option", "Yes", "--option", "No:keep staging"])
        .args(["--detail", "**v2.1**", "--id", "go"])
        .spawn()
        .unwrap();
    let offer = a.expect("questions/offer").await;
    let request = &offer["params"]["request"];
    assert_eq!(
        request["questions"],
        json!([{"id": "go", "question": "Deploy to prod?", "header": "Deploy", "detail": "**v2.1**",
                "options": [{"label": "Yes"}, {"label": "No", "description": "keep staging"}]}])
    );
    let agent = request["agent"]["id"].as_str().unwrap();
    assert!(agent.starts_with("cli-"), "the default agent id names the calling program: {agent}");
    a.reply(&offer["id"], json!({"answer": {"answers": [{"id": "go", "selected": ["No"]}]}})).await;
    let out = finish(asking).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), "{\"answers\":[{\"id\":\"go\",\"selected\":[\"No\"]}]}\n"));
}

#[tokio::test]
async fn service_errors_exit_1_with_the_exact_text() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let out = finish(userq(&socket).args(["ask", "Anyone?", "--no-agent"]).spawn().unwrap()).await;
    assert_eq!(out.code, Some(1));
    assert_eq!(out.stderr, "Error: no user-questions answerer accepted the request\n");
    assert_eq!(out.stdout, "");
    let mut a = answerer(&socket, json!("any")).await;
    let taken = userq(&socket).args(["ask", "x", "--agent-id", "fixed"]).spawn().unwrap();
    a.expect("questions/offer").await; // "fixed" is live and asking
    let out = finish(userq(&socket).args(["ask", "x", "--agent-id", "fixed"]).spawn().unwrap()).await;
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.starts_with("Error: an agent with id \"fixed\" is live already"), "{}", out.stderr);
    drop(taken);
}

#[tokio::test]
async fn plan_json_and_multi_select_requests() {
    let (dir, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut a = answerer(&socket, json!("any")).await;
    let plan = dir.path().join("PLAN.md");
    std::fs::write(&plan, "# Plan\n\n1. Build\n2. Ship\n").unwrap();
    let asking = userq(&socket).args(["ask", "--plan"]).arg(&plan).spawn().unwrap();
    let offer = a.expect("questions/offer").await;
    let q = &offer["params"]["request"]["questions"][0];
    assert_eq!(q["intent"], json!({"kind": "plan-review", "approve": "Approve"}));
    assert_eq!(q["detail"], "# Plan\n\n1. Build\n2. Ship\n");
    let labels: Vec<&str> = q["options"].as_array().unwrap().iter().map(|o| o["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["Approve", "Revise"]);
    let revise = json!({"answers": [{"id": "plan", "selected": ["Revise"], "custom": "split step 2"}]});
    a.reply(&offer["id"], json!({"answer": revise})).await;
    let out = finish(asking).await;
    assert_eq!(out.stdout.trim(), r#"{"answers":[{"id":"plan","selected":[],"custom":"split step 2"}]}"#);

    // A question given with --plan titles the review.
    let asking = userq(&socket).args(["ask", "Approve the migration?", "--plan"]).arg(&plan).spawn().unwrap();
    let offer = a.expect("questions/offer").await;
    assert_eq!(offer["params"]["request"]["questions"][0]["question"], "Approve the migration?");
    assert_eq!(offer["params"]["request"]["questions"][0]["intent"]["kind"], "plan-review");
    a.reply(&offer["id"], json!({"answer": {"answers": [{"id": "plan", "selected": ["Approve"]}]}})).await;
    assert_eq!(finish(asking).await.code, Some(0));

    let mut asking = userq(&socket).args(["ask", "--json"]).stdin(Stdio::piped()).spawn().unwrap();
    let mut stdin = asking.stdin.take().unwrap();
    stdin.write_all(br#"{"questions":[{"id":"a","question":"A?"},{"id":"b","question":"B?","multiSelect":true,"options":[{"label":"x"},{"label":"y"}]}]}"#).await.unwrap();
    drop(stdin);
    let offer = a.expect("questions/offer").await;
    assert_eq!(offer["params"]["request"]["questions"][1]["multiSelect"], true);
    let answer =
        json!({"answers": [{"id": "b", "selected": ["y", "x"]}, {"id": "a", "selected": [], "custom": "yes"}]});
    a.reply(&offer["id"], json!({"answer": answer})).await;
    let out = finish(asking).await;
    assert_eq!(
        out.stdout.trim(),
        r#"{"answers":[{"id":"a","selected":[],"custom":"yes"},{"id":"b","selected":["y","x"]}]}"#
    );

    let asking =
        userq(&socket).args(["ask", "Checks?", "--multi", "--option", "fmt", "--option", "clippy"]).spawn().unwrap();
    let offer = a.expect("questions/offer").await;
    assert_eq!(offer["params"]["request"]["questions"][0]["multiSelect"], true);
    drop(asking);
}

#[tokio::test]
async fn ctrl_c_withdraws_the_question() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut a = answerer(&socket, json!("any")).await;
    let asking = userq(&socket).args(["ask", "Wait?"]).spawn().unwrap();
    let offer = a.expect("questions/offer").await;
    a.reply(&offer["id"], json!({"claim": true})).await;
    a.wait_held(&offer["params"]["ask"]).await;
    signal(&asking, libc::SIGINT);
    let withdraw = a.expect("questions/withdraw").await;
    assert_eq!(withdraw["params"]["ask"], offer["params"]["ask"]);
    let out = finish(asking).await;
    assert_eq!(out.code, Some(130));
    assert_eq!(out.stderr, "Error: ask_user_question was aborted before the user answered\n");
}

#[tokio::test]
async fn pending_lists_questions() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut a = answerer(&socket, json!("any")).await;
    let _asking = userq(&socket).args(["ask", "Which DB?", "--agent-id", "db-bot"]).spawn().unwrap();
    let offer = a.expect("questions/offer").await;
    a.reply(&offer["id"], json!({"claim": true})).await;
    a.wait_held(&offer["params"]["ask"]).await;
    let out = finish(userq(&socket).arg("pending").spawn().unwrap()).await;
    let line = out.stdout.lines().next().unwrap_or_default().to_owned();
    let fields: Vec<&str> = line.split('\t').collect();
    assert_eq!(fields.len(), 5, "{line}");
    assert_eq!((fields[2], fields[3], fields[4]), ("db-bot", "test", "Which DB?"));
    let out = finish(userq(&socket).args(["pending", "--json"]).spawn().unwrap()).await;
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["pending"][0]["request"]["agent"]["id"], "db-bot");
}

/// A question pending when the server stops (cleanly, or killed leaving a stale
/// socket) is asked again of the next server, and the agent gets the answer.
async fn survives(kill: i32) {
    let (_d, socket) = temp_socket();
    let first = serve(&socket).await;
    let mut a = answerer(&socket, json!("agents")).await;
    let asking =
        userq(&socket).args(["ask", "Still there?", "--agent-id", "patient", "--option", "Yes"]).spawn().unwrap();
    let offer = a.expect("questions/offer").await;
    a.reply(&offer["id"], json!({"claim": true})).await;
    a.wait_held(&offer["params"]["ask"]).await;
    signal(&first, kill);
    let first_log = finish(first).await.stderr;
    assert_eq!(socket.exists(), kill == libc::SIGKILL, "a crash leaves the socket file, a clean stop removes it");
    // The scenario: a while with no server at all, then the next one.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let _second = serve(&socket).await;
    let mut b = answerer(&socket, json!("agents")).await;
    let Some(offer) = b.try_recv(Duration::from_secs(10)).await else {
        signal(&asking, libc::SIGKILL);
        let out = finish(asking).await;
        panic!("no offer after the restart; userq ask said {:?} {}\nfirst server: {first_log}", out.code, out.stderr);
    };
    assert_eq!(offer["params"]["request"]["agent"]["id"], "patient");
    b.reply(&offer["id"], json!({"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})).await;
    let out = finish(asking).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout.trim(), r#"{"answers":[{"id":"q","selected":["Yes"]}]}"#);
}

#[tokio::test]
async fn an_ask_survives_a_clean_server_restart() {
    survives(libc::SIGTERM).await;
}

#[tokio::test]
async fn an_ask_survives_a_server_crash() {
    survives(libc::SIGKILL).await;
}

/// The person's language is spoken (`USERQ_LANG`, or the system's locale); what a model
/// reads is the same in every language.
#[tokio::test]
async fn people_read_their_language_and_models_read_the_same_text() {
    let (dir, socket) = temp_socket();
    let _server = serve(&socket).await;
    let zh = |c: &mut tokio::process::Command| {
        c.env_remove("USERQ_LANG").env("LANG", "zh_CN.UTF-8");
    };
    let mut pending = userq(&socket);
    zh(pending.arg("pending"));
    assert_eq!(finish(pending.spawn().unwrap()).await.stdout, "没有待回答的问题。\n");
    let mut setup = userq(&socket);
    zh(setup.args(["setup", "codex", "--dry-run"]).env("HOME", dir.path()).env("PATH", dir.path()));
    let out = finish(setup.spawn().unwrap()).await;
    assert!(out.stdout.starts_with("PATH 中没有 Codex：按本版本测试所用的 "), "{}", out.stdout);
    assert!(out.stdout.lines().nth(1).is_some_and(|l| l.starts_with("将会在 ")), "{}", out.stdout);
    assert!(out.stdout.contains("中添加 PermissionRequest 钩子"), "{}", out.stdout);

    let mut empty = userq(&socket);
    zh(empty.args(["ask", "--json"]).stdin(Stdio::piped()));
    let mut child = empty.spawn().unwrap();
    child.stdin.take().unwrap().write_all(br#"{"questions":[]}"#).await.unwrap();
    let out = finish(child).await;
    assert_eq!((out.code, out.stderr.as_str()), (Some(1), "Error: ask_user_question requires at least one question\n"));
    let mut english = userq(&socket);
    english.args(["setup", "codex", "--dry-run"]).env("HOME", dir.path()).env("USERQ_LANG", "en");
    assert!(finish(english.spawn().unwrap()).await.stdout.contains("would add the PermissionRequest hook to "));
}
