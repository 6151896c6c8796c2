//! The history and remembered answers through the doors a person uses: asks over the
//! socket (answered, failed, cancelled, refused), then `userq history` with and
//! without a server; a server killed with SIGKILL right after its last answer; a
//! corrupt, a locked and an unwritable history, and a full disk, never stopping a
//! question; a file of
//! the first schema migrated; retention; rules added, used, refused and removed with
//! `userq rules` while the server runs.

mod common;

use std::path::{Path, PathBuf};

use common::process::*;
use common::Peer;
use serde_json::{json, Value};

fn data(socket: &Path) -> PathBuf {
    socket.parent().unwrap().join("data")
}

async fn history(socket: &Path, args: &[&str]) -> Vec<Value> {
    let out = finish(userq(socket).arg("history").arg("--json").args(args).spawn().unwrap()).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

async fn rules(socket: &Path, args: &[&str]) -> Output {
    finish(userq(socket).arg("rules").args(args).spawn().unwrap()).await
}

async fn client(socket: &Path, name: &str) -> Peer {
    let mut p = Peer::connect(socket).await;
    p.call("initialize", json!({"protocolVersion": 1, "client": {"name": name, "version": "1"}})).await;
    p
}

fn question(text: &str) -> Value {
    json!({"id": "q", "question": text, "options": [{"label": "Yes"}, {"label": "No"}]})
}

#[tokio::test]
async fn every_ask_is_recorded_with_how_it_ended_and_read_without_a_server() {
    let (_d, socket) = temp_socket();
    let mut server = serve(&socket).await;
    let mut agent = client(&socket, "claude-code").await;
    let me = agent.enter("worker").await;
    // No answerer yet: NO_PROVIDER.
    let r = agent.call("ask", json!({"agent": me, "questions": [question("Anyone there?")]})).await;
    assert_eq!(r["error"]["data"]["code"], "NO_PROVIDER");
    // Answered by a socket answerer.
    let mut a = answerer(&socket, json!("any")).await;
    let asked = agent
        .start(
            "ask",
            json!({"agent": me, "questions": [question("Deploy to prod?")],
                   "context": {"project": "/home/me/shop", "source": "Claude Code"}}),
        )
        .await;
    let offer = a.expect("questions/offer").await;
    a.reply(&offer["id"], json!({"answer": {"answers": [{"id": "q", "selected": ["No"], "custom": "not on Friday"}]}}))
        .await;
    assert_eq!(agent.recv().await["id"], asked);
    // Cancelled by the asker while held.
    let held = agent.start("ask", json!({"agent": me, "questions": [question("Delete the branch?")]})).await;
    let offer = a.expect("questions/offer").await;
    a.reply(&offer["id"], json!({"claim": true})).await;
    a.wait_held(&offer["params"]["ask"]).await;
    agent.notify("$/cancelRequest", json!({"id": held})).await;
    assert_eq!(agent.recv().await["error"]["data"]["code"], "ASK_ABORTED");
    // Refused after its shape: a runtime that is not live.
    let stale = json!({"id": "ghost", "runtime": "0".repeat(32)});
    let r = agent.call("ask", json!({"agent": stale, "questions": [question("Am I live?")]})).await;
    assert_eq!(r["error"]["data"]["code"], "CALLER_NOT_LIVE");
    // A request of the wrong shape is not an ask.
    let r = agent.call("ask", json!({"agent": me, "questions": [{"id": "", "question": "x"}]})).await;
    assert!(r["error"].is_object());

    let live = history(&socket, &[]).await;
    signal(&server, libc::SIGTERM);
    finish(server).await;
    server = serve(&socket).await; // a restart: ids stay unique
    drop(server);
    let stopped = history(&socket, &[]).await;
    assert_eq!(live, stopped, "the same with or without a server");
    let questions: Vec<&str> =
        stopped.iter().map(|e| e["request"]["questions"][0]["question"].as_str().unwrap()).collect();
    assert_eq!(questions, ["Am I live?", "Delete the branch?", "Deploy to prod?", "Anyone there?"], "newest first");
    let outcome = |i: usize| stopped[i]["outcome"].clone();
    assert_eq!(outcome(0)["error"]["code"], "CALLER_NOT_LIVE");
    assert_eq!(
        outcome(0)["error"]["message"],
        "human interaction requires the exact live calling agent when an agent is supplied"
    );
    assert_eq!(outcome(1)["error"]["code"], "ASK_ABORTED");
    // As the asker received it: on a single-select question, typed text replaces the choice.
    assert_eq!(outcome(2), json!({"answer": {"answers": [{"id": "q", "selected": [], "custom": "not on Friday"}]}}));
    assert_eq!(outcome(3)["error"]["code"], "NO_PROVIDER");
    let deploy = &stopped[2];
    assert_eq!(deploy["agent"], json!({"id": "worker", "client": "claude-code", "delegationDepth": 0}));
    assert_eq!(deploy["context"], json!({"project": "/home/me/shop", "source": "Claude Code"}));
    assert_eq!(deploy["answeredBy"], "test");
    assert!(deploy["askedAt"].as_str().unwrap() <= deploy["endedAt"].as_str().unwrap());
    assert_eq!(stopped[0]["agent"]["id"], "ghost");
    let ids: std::collections::HashSet<i64> = stopped.iter().map(|e| e["ask"].as_i64().unwrap()).collect();
    assert_eq!(ids.len(), 4);

    assert_eq!(history(&socket, &["--search", "FRIDAY"]).await.len(), 1, "answers are searched too");
    assert_eq!(history(&socket, &["--search", "deploy"]).await.len(), 1);
    assert_eq!(history(&socket, &["--agent", "ghost"]).await.len(), 1);
    assert_eq!(history(&socket, &["--limit", "2"]).await.len(), 2);
    assert_eq!(history(&socket, &["--since", "1h"]).await.len(), 4);
    let csv = finish(userq(&socket).args(["history", "--format", "csv"]).spawn().unwrap()).await.stdout;
    assert_eq!(csv.lines().count(), 5);
    assert!(csv.contains("\"“not on Friday”\""), "{csv}");
    let table = finish(userq(&socket).args(["history"]).spawn().unwrap()).await.stdout;
    assert!(table.lines().nth(3).unwrap().contains("Deploy to prod?"), "{table}");

    let out = finish(userq(&socket).args(["history", "--clear", "--before", "2000-01-01"]).spawn().unwrap()).await;
    assert_eq!(out.stdout, "Deleted 0 asks from the history.\n");
    let out = finish(userq(&socket).args(["history", "--clear"]).spawn().unwrap()).await;
    assert_eq!(out.stdout, "Deleted 4 asks from the history.\n");
    assert!(history(&socket, &[]).await.is_empty());
}

#[tokio::test]
async fn a_server_killed_right_after_its_last_answer_loses_none() {
    let (_d, socket) = temp_socket();
    let server = serve(&socket).await;
    let mut a = answerer(&socket, json!("any")).await;
    let mut agent = client(&socket, "burst").await;
    let me = agent.enter("burst").await;
    let n = 200;
    for i in 0..n {
        agent.start("ask", json!({"agent": me, "questions": [question(&format!("Question {i}?"))]})).await;
    }
    for _ in 0..n {
        let offer = a.expect("questions/offer").await;
        a.reply(&offer["id"], json!({"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})).await;
    }
    for _ in 0..n {
        assert!(agent.recv().await["result"].is_object());
    }
    // The last asker has its answer: the server dies at once, without a chance to flush.
    signal(&server, libc::SIGKILL);
    finish(server).await;
    let recorded = history(&socket, &[]).await;
    assert_eq!(recorded.len(), n);
    assert!(recorded.iter().all(|e| e["outcome"]["answer"].is_object()), "every answer is there");
}

async fn answered_once(socket: &Path) {
    let mut a = answerer(socket, json!("any")).await;
    let asking = userq(socket).args(["ask", "Still asking?", "--option", "Yes"]).spawn().unwrap();
    let offer = a.expect("questions/offer").await;
    a.reply(&offer["id"], json!({"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})).await;
    let out = finish(asking).await;
    assert_eq!(out.code, Some(0), "the question is answered: {}", out.stderr);
}

#[tokio::test]
async fn a_corrupt_history_is_moved_aside_and_questions_go_on() {
    let (_d, socket) = temp_socket();
    std::fs::create_dir_all(data(&socket)).unwrap();
    std::fs::write(data(&socket).join("history.sqlite3"), b"this is not a database, it is a note to self").unwrap();
    let server = serve(&socket).await;
    answered_once(&socket).await;
    signal(&server, libc::SIGTERM);
    let out = finish(server).await;
    let line = out.stderr.lines().find(|l| l.contains("not a usable database")).expect(&out.stderr);
    assert!(line.contains("history.sqlite3") && line.contains("moved to"), "{line}");
    let aside: Vec<_> = std::fs::read_dir(data(&socket))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".corrupt-"))
        .collect();
    assert_eq!(
        std::fs::read(aside[0].path()).unwrap(),
        b"this is not a database, it is a note to self",
        "kept, not lost"
    );
    assert_eq!(history(&socket, &[]).await.len(), 1);
}

#[tokio::test]
async fn an_unusable_history_folder_never_stops_a_question() {
    let (_d, socket) = temp_socket();
    std::fs::write(data(&socket), b"a file where the folder should be").unwrap();
    let server = serve(&socket).await;
    answered_once(&socket).await;
    signal(&server, libc::SIGTERM);
    let out = finish(server).await;
    let lines: Vec<&str> = out.stderr.lines().filter(|l| l.contains("history")).collect();
    assert_eq!(lines.len(), 1, "one line: {}", out.stderr);
    assert!(
        lines[0].contains(&data(&socket).display().to_string()) && lines[0].contains("without history"),
        "{}",
        lines[0]
    );
}

#[tokio::test]
async fn a_locked_history_never_stops_a_question() {
    let (_d, socket) = temp_socket();
    std::fs::create_dir_all(data(&socket)).unwrap();
    let path = data(&socket).join("history.sqlite3");
    let lock = rusqlite::Connection::open(&path).unwrap();
    lock.execute_batch(
        "PRAGMA locking_mode = EXCLUSIVE; CREATE TABLE held (x); BEGIN EXCLUSIVE; INSERT INTO held VALUES (1);",
    )
    .unwrap();
    let server = serve(&socket).await;
    answered_once(&socket).await;
    signal(&server, libc::SIGTERM);
    let out = finish(server).await;
    let line = out.stderr.lines().find(|l| l.contains("history")).expect(&out.stderr);
    assert!(line.contains("history.sqlite3") && line.contains("locked"), "{line}");
    drop(lock);
}

#[tokio::test]
async fn asks_answered_while_the_history_is_locked_are_kept_and_written_after() {
    let (_d, socket) = temp_socket();
    let serving = userq(&socket).arg("serve").env("RUST_LOG", "info,user_questions::history=debug").spawn().unwrap();
    let mut server = listening(serving, &socket).await;
    let said = Said::from(&mut server);
    // Answered once the server serves, so its history is open.
    answered_once(&socket).await;
    let path = data(&socket).join("history.sqlite3");
    // Another process holds the file's write lock (a long `userq history --clear`).
    let lock = rusqlite::Connection::open(&path).unwrap();
    lock.execute_batch("BEGIN IMMEDIATE; DELETE FROM rules;").unwrap();
    for _ in 0..3 {
        answered_once(&socket).await;
    }
    // The server's fold meets the lock and waits; the asks are in its journal.
    said.wait_for("the fold waits").await;
    lock.execute_batch("COMMIT").unwrap();
    drop(lock);
    let kept = history(&socket, &[]).await;
    assert_eq!(kept.len(), 4, "every ask answered under the lock is kept: {kept:?}");
    signal(&server, libc::SIGTERM);
    finish(server).await;
}

/// The namespaces a small disk of its own needs: a mount namespace, and for anyone
/// but root a user namespace to be allowed to mount in it (root may not make one in a
/// chroot, and needs none).
fn namespaces() -> &'static [&'static str] {
    // SAFETY: geteuid only reads the process's credentials.
    if unsafe { libc::geteuid() } == 0 {
        &["--mount"]
    } else {
        &["--user", "--mount"]
    }
}

/// The shell that mounts a 1 MiB tmpfs on the folder `$0`, seen in this mount
/// namespace only.
const SMALL_DISK: &str =
    r#"mount --make-rprivate "$(findmnt -T "$0" -n -o TARGET)" && mount -t tmpfs -o size=1m tmpfs "$0""#;

/// A server whose data folder is a small filesystem of its own (a tmpfs mounted in a
/// mount namespace of its own), and that folder as this test reaches it, through the
/// server's `/proc/<pid>/root`.
async fn serve_on_a_small_disk(socket: &Path) -> (tokio::process::Child, PathBuf) {
    let dir = data(socket);
    std::fs::create_dir_all(&dir).unwrap();
    let mut unshare = tokio::process::Command::new("unshare");
    let map_root: &[&str] = if namespaces().len() > 1 { &["--map-root-user"] } else { &[] };
    // The mounts stay as they are, and the one the folder is on is made private in the
    // new namespace alone, so the tmpfs never shows outside it (unshare's own default
    // makes `/` private, which a chroot's `/`, not a mount, refuses).
    unshare.args(namespaces()).args(map_root).args(["--propagation", "unchanged", "sh", "-c"]);
    unshare.arg(SMALL_DISK.to_owned() + r#" && exec "$1" serve"#).arg(&dir).arg(env!("CARGO_BIN_EXE_userq"));
    let server = listening(run_as_userq(unshare, socket).spawn().unwrap(), socket).await;
    let inside = PathBuf::from(format!("/proc/{}/root", server.id().unwrap())).join(dir.strip_prefix("/").unwrap());
    (server, inside)
}

#[tokio::test]
async fn a_full_disk_never_stops_a_question_and_the_history_goes_on_once_there_is_room() {
    use std::io::Write as _;
    let (_d, socket) = temp_socket();
    let (mut server, inside) = serve_on_a_small_disk(&socket).await;
    let said = Said::from(&mut server);
    let lines = |what: &str| said.lines(what);
    // `userq history` in the server's namespaces (SQLite resolves `/proc/<pid>/root`).
    let read = || async {
        let mut nsenter = tokio::process::Command::new("nsenter");
        // Its root too: entering a mount namespace leaves a chroot otherwise.
        nsenter.args(["--target", &server.id().unwrap().to_string(), "--root"]).args(namespaces());
        nsenter.args([env!("CARGO_BIN_EXE_userq"), "history", "--json"]);
        let out = finish(run_as_userq(nsenter, &socket).spawn().unwrap()).await;
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        out.stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["request"]["questions"][0]["question"].clone())
            .collect::<Vec<_>>()
    };
    let ask = |text: &'static str| {
        let socket = socket.clone();
        async move {
            let mut a = answerer(&socket, json!("any")).await;
            let asking = userq(&socket).args(["ask", text, "--option", "Yes"]).spawn().unwrap();
            let offer = a.expect("questions/offer").await;
            a.reply(&offer["id"], json!({"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})).await;
            let out = finish(asking).await;
            assert_eq!(out.code, Some(0), "{text} is answered: {}", out.stderr);
        }
    };
    ask("Before the disk filled?").await;
    assert_eq!(read().await, ["Before the disk filled?"]);
    // Fill the disk to the last byte.
    let filler = inside.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let full = loop {
        if let Err(e) = f.write_all(&[0; 4096]) {
            break e;
        }
    };
    assert_eq!(full.raw_os_error(), Some(libc::ENOSPC), "{full}");
    // Enough to need pages the disk has no more of.
    for _ in 0..30 {
        ask("While the disk is full?").await;
    }
    // Room again; the journal tries again at the first ending a second after its last
    // failure: asked until one is recorded.
    drop(f);
    std::fs::remove_file(&filler).unwrap();
    for tries in 0.. {
        ask("With room again?").await;
        if read().await.first().is_some_and(|q| q == "With room again?") {
            break;
        }
        assert!(tries < 100, "never recorded again");
    }
    let kept = read().await;
    assert_eq!(kept.first().unwrap(), "With room again?", "recorded again, and folded: {kept:?}");
    assert_eq!(kept.last().unwrap(), "Before the disk filled?");
    assert!(kept.len() < 32, "asks that found the disk full were dropped, not the questions: {}", kept.len());
    // The server's fold thread finds the file writable again at its next fold.
    let troubles = lines("cannot write").len();
    for _ in 0..500 {
        if lines("again").len() == troubles {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let all = said.all();
    assert_eq!(lines("again").len(), troubles, "each trouble is said to be over: {all}");
    let failed = lines("cannot write the journal");
    assert_eq!(failed.len(), 1, "said once: {all}");
    assert!(failed[0].contains("No space left on device"), "{}", failed[0]);
    assert!(
        failed[0].contains(&data(&socket).join("journal").display().to_string()),
        "it names the file: {}",
        failed[0]
    );
    signal(&server, libc::SIGTERM);
    finish(server).await;
}

#[tokio::test]
async fn a_history_of_the_first_schema_is_migrated_with_its_asks() {
    use user_questions::history::store;
    let (_d, socket) = temp_socket();
    std::fs::create_dir_all(data(&socket)).unwrap();
    let path = data(&socket).join("history.sqlite3");
    {
        let v1 = rusqlite::Connection::open(&path).unwrap();
        store::migrate_to(&v1, 1).unwrap();
        v1.execute(
            "INSERT INTO asks (asked_at, seq, agent_id, request, outcome, search) VALUES (1, 1, 'old', ?, ?, 'older question')",
            [json!({"questions": [question("Older question?")]}).to_string(), json!({"answer": {"answers": []}}).to_string()],
        )
        .unwrap();
        assert_eq!(store::version(&v1).unwrap(), 1);
    }
    let out = rules(&socket, &["add", "--question", "Older question?", "--answer", "Yes"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let conn = rusqlite::Connection::open(&path).unwrap();
    assert_eq!(store::version(&conn).unwrap(), store::VERSION);
    let kept = history(&socket, &[]).await;
    assert_eq!(kept[0]["request"]["questions"][0]["question"], "Older question?");
    assert_eq!(kept[0]["agent"]["id"], "old");
}

#[tokio::test]
async fn retention_keeps_the_newest_and_forgets_the_old_on_start() {
    let (_d, socket) = temp_socket();
    let server = serve(&socket).await;
    for _ in 0..3 {
        answered_once(&socket).await;
    }
    signal(&server, libc::SIGTERM);
    finish(server).await;
    let path = data(&socket).join("history.sqlite3");
    let conn = rusqlite::Connection::open(&path).unwrap();
    // The oldest of the three was asked 100 days ago.
    conn.execute(
        "UPDATE asks SET asked_at = asked_at - 100 * 86400 * 1000000000 WHERE id = (SELECT min(id) FROM asks)",
        [],
    )
    .unwrap();
    drop(conn);
    let mut again = userq(&socket);
    again.arg("serve").env("USERQ_HISTORY_MAX", "1");
    let child = again.spawn().unwrap();
    for _ in 0..500 {
        if history(&socket, &[]).await.len() == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let kept = history(&socket, &[]).await;
    assert_eq!(kept.len(), 1, "at most USERQ_HISTORY_MAX");
    assert_eq!(kept[0]["ask"], 3, "the newest stays");
    signal(&child, libc::SIGTERM);
    finish(child).await;
}

#[tokio::test]
async fn remembered_answers_answer_only_what_fits_from_their_client() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let out = rules(&socket, &["add", "--question", "", "--answer", "Yes"]).await;
    assert_eq!((out.code, out.stderr.as_str()), (Some(2), "userq rules: --question must not be empty\n"));
    let out = rules(&socket, &["add", "--question", "Run the test suite?", "--answer", " "]).await;
    assert_eq!(out.code, Some(2));
    // Added while the server runs: it applies from the next ask on.
    let out =
        rules(&socket, &["add", "--question", "Run the test suite?", "--answer", "Yes", "--client", "claude-code"])
            .await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let id: i64 = out.stdout.trim().parse().expect("the id alone on stdout");

    let mut claude = client(&socket, "claude-code").await;
    let me = claude.enter("c1").await;
    let r = claude.call("ask", json!({"agent": me, "questions": [question("Run the test suite?")]})).await;
    assert_eq!(r["result"], json!({"answers": [{"id": "q", "selected": ["Yes"]}]}), "answered at once by the rule");
    // The rule's client is the asking connection's `client.name`, agent or none.
    let mut script = client(&socket, "claude-code").await;
    let r = script.call("ask", json!({"questions": [question("Run the test suite?")]})).await;
    assert_eq!(r["result"], json!({"answers": [{"id": "q", "selected": ["Yes"]}]}), "no agent entered: {r}");

    // Another client, other options, a detail, a plan review, two questions: down the waterfall.
    let mut a = answerer(&socket, json!("any")).await;
    let mut codex = client(&socket, "codex").await;
    let other = codex.enter("x1").await;
    let untouched = [
        (false, json!([question("Run the test suite?")])),
        (true, json!([{"id": "q", "question": "Run the test suite?", "options": [{"label": "Sure"}]}])),
        (
            true,
            json!([{"id": "q", "question": "Run the test suite?", "detail": "`rm -rf /`",
                    "options": [{"label": "Yes"}, {"label": "No"}]}]),
        ),
        (true, json!([question("Run the test suite?"), {"id": "q2", "question": "And lint?"}])),
    ];
    for (from_claude, questions) in untouched {
        let (peer, agent) = if from_claude { (&mut claude, &me) } else { (&mut codex, &other) };
        let asked = peer.start("ask", json!({"agent": agent, "questions": questions})).await;
        let offer = a.expect("questions/offer").await;
        a.reply(&offer["id"], json!({"claim": false})).await;
        let reply = peer.recv().await;
        assert_eq!((reply["id"].as_u64(), reply["error"]["data"]["code"].as_str()), (Some(asked), Some("NO_PROVIDER")));
    }
    let plan = json!([{"id": "plan", "question": "Run the test suite?", "detail": "# Plan",
        "options": [{"label": "Yes"}, {"label": "No"}], "intent": {"kind": "plan-review", "approve": "Yes"}}]);
    claude.start("ask", json!({"agent": me, "questions": plan})).await;
    let offer = a.expect("questions/offer").await;
    a.reply(&offer["id"], json!({"claim": false})).await;
    assert_eq!(claude.recv().await["error"]["data"]["code"], "NO_PROVIDER", "a plan review is never a rule's");

    let list = rules(&socket, &["list", "--json"]).await.stdout;
    let rule: Value = serde_json::from_str(list.lines().next().unwrap()).unwrap();
    assert_eq!((rule["id"].as_i64(), rule["uses"].as_i64()), (Some(id), Some(2)));
    assert_eq!(
        (rule["question"].as_str(), rule["answer"].as_str(), rule["client"].as_str()),
        (Some("Run the test suite?"), Some("Yes"), Some("claude-code"))
    );
    assert!(rule["createdAt"].is_string() && rule["lastUsedAt"].is_string());
    let used = history(&socket, &["--search", "test suite"]).await;
    assert_eq!(used.last().unwrap()["answeredBy"], format!("rule:{id}"));

    assert_eq!(rules(&socket, &["rm", &id.to_string()]).await.code, Some(0));
    let out = rules(&socket, &["rm", &id.to_string()]).await;
    assert_eq!((out.code, out.stderr.trim()), (Some(1), format!("userq rules: there is no rule {id}").as_str()));
    claude.start("ask", json!({"agent": me, "questions": [question("Run the test suite?")]})).await;
    let offer = a.expect("questions/offer").await;
    a.reply(&offer["id"], json!({"answer": {"answers": [{"id": "q", "selected": ["No"]}]}})).await;
    assert_eq!(claude.recv().await["result"]["answers"][0]["selected"], json!(["No"]), "removed: asked again");
}

#[tokio::test]
async fn an_audit_export_says_who_decided_where_and_how_long() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let out = rules(&socket, &["add", "--question", "Run the linter?", "--answer", "Yes"]).await;
    let id = out.stdout.trim().to_owned();
    let mut agent = client(&socket, "claude-code").await;
    let r = agent.call("ask", json!({"questions": [question("Run the linter?")]})).await;
    assert!(r["result"].is_object(), "{r}");
    // A person at a terminal answers one that reads as a formula to a spreadsheet.
    let mut terminal = Peer::connect(&socket).await;
    terminal.call("initialize", json!({"protocolVersion": 1, "client": {"name": "userq", "version": "1"}})).await;
    terminal.register("terminal", json!("any")).await;
    let asked = agent.start("ask", json!({"questions": [question("=HYPERLINK(\"http://x\")")]})).await;
    let offer = terminal.expect("questions/offer").await;
    terminal.reply(&offer["id"], json!({"answer": {"answers": [{"id": "q", "selected": ["No"]}]}})).await;
    assert_eq!(agent.recv().await["id"], asked);

    let out = finish(userq(&socket).args(["history", "--export", "jsonl"]).spawn().unwrap()).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let records: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let here = user_questions::paths::host_name();
    assert_eq!(records[0]["question"], "=HYPERLINK(\"http://x\")");
    assert_eq!((records[0]["who"].as_str(), records[0]["where"].as_str()), (Some("you, in a terminal"), Some(&*here)));
    assert_eq!(records[0]["answer"], "No");
    assert!(records[0]["secondsToDecide"].as_f64().unwrap() >= 0.0);
    assert_eq!(records[1]["who"], format!("remembered answer {id}"));
    assert_eq!(records[1]["decider"], format!("rule:{id}"));

    let out = finish(userq(&socket).args(["history", "--export", "csv"]).spawn().unwrap()).await;
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "\"ask\",\"agent\",\"source\",\"project\",\"branch\",\"session\",\"question\",\"action\",\"answer\",\"rule\",\"who\",\"decider\",\"where\",\"askedAt\",\"decidedAt\",\"secondsToDecide\""
    );
    assert!(lines[1].contains(",\"'=HYPERLINK(\"\"http://x\"\")\","), "a formula is shown as text: {}", lines[1]);
    let zh = finish(userq(&socket).env("USERQ_LANG", "zh-CN").args(["history"]).spawn().unwrap()).await;
    assert!(zh.stdout.contains("你（在终端中）") && zh.stdout.contains(&format!("记住的回答 {id}")), "{}", zh.stdout);
    let out = finish(userq(&socket).args(["history", "--export", "xml"]).spawn().unwrap()).await;
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("possible values: jsonl, csv"), "{}", out.stderr);
}

/// A remembered answer is one person's: with a team set up, it never decides a
/// question the team decides (the window offers no "remember" for it either), while
/// the same question is still its own to answer when no team is.
#[tokio::test]
async fn a_remembered_answer_never_decides_a_question_a_team_decides() {
    use std::sync::Arc;
    use user_questions::history::{self, store, Retention};
    use user_questions::model::{labels, AskRequest, Intent, Question};
    use user_questions::{Answer, AnswerItem, Scope, UserQuestions};

    let dir = tempfile::tempdir().unwrap();
    let service = UserQuestions::new();
    let installed = history::install(&service, dir.path(), Retention::from_env());
    let conn = history::open_for_writing(&installed.file().unwrap()).unwrap();
    store::add_rule(&conn, "Run the migration?", labels::ALLOW, None, Some("alembic upgrade head")).unwrap();
    let (person, mut held) = common::holding();
    service.register("person", Scope::Any, 0, person);
    let permission = || {
        let mut q = Question::new("p", "Run the migration?").option(labels::ALLOW, None).option(labels::DENY, None);
        q.detail = Some("alembic upgrade head".into());
        q.intent =
            Some(Intent { kind: labels::PERMISSION.into(), approve: labels::ALLOW.into(), extra: Default::default() });
        AskRequest::new(vec![q])
    };
    let cancel = tokio_util::sync::CancellationToken::new();
    let answer = service.ask(permission(), &cancel).await.unwrap();
    assert_eq!(answer.answers[0].selected, [labels::ALLOW], "no team: the rule answers");

    service.set_team(Some(Arc::new(|q: &Question| q.intent.as_ref().is_some_and(|i| i.kind == labels::PERMISSION))));
    let asking = common::spawn_ask(&service, permission());
    let ask = held.recv().await.expect("offered to the person, not answered by the rule");
    assert!(ask.needs_team());
    let deny = Answer::new(vec![AnswerItem::selected("p", &[labels::DENY])]);
    ask.answer(deny.clone()).unwrap();
    assert_eq!(asking.await.unwrap().unwrap(), deny);
}
