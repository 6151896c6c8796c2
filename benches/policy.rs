//! The policy's figures, in one run:
//! - in process: reading a command of ten pipelines and lists (twelve commands), and the verdict on it (reading included),
//!   median and p95 of one call;
//! - `userq hook claude-code` from spawn to exit (its output read), decided by the
//!   policy, against the same hook answered by a protocol answerer on a socket served
//!   in this process (the way every permission went before the policy), and against a
//!   hook that prints nothing (`true`), the floor of any spawn.
//!
//! `cargo bench --bench policy` (a release build of `userq`).

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{answer_with, apart, percentile, scaled, serve_apart};
use user_questions::policy::{rules, shell, Action, Kind, Origin, Policy, Verdict};
use user_questions::UserQuestions;

const TEN_PARTS: &str = "cd src && cargo test --release 2>&1 | tee /dev/null | grep -v warning | head -n 40; \
    git status --short && git log --oneline -5 | cat; echo \"$(git rev-parse HEAD)\" > /dev/null; ls -la | wc -l";

const RULES: &str = "[[allow]]\ncommand = \"cargo test\"\n[[allow]]\nread-only = true\n\
    [[deny]]\ncommand = \"sudo\"\nreason = \"no root\"\n";

fn times(n: usize, mut f: impl FnMut()) -> Vec<Duration> {
    let mut out: Vec<Duration> = (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    out.sort();
    out
}

fn show(what: &str, t: &[Duration]) -> Duration {
    let median = percentile(t, 0.5);
    println!("{what:<58} median {median:>10.1?}  p95 {:>10.1?}  (n={})", percentile(t, 0.95), t.len());
    median
}

fn hook_input(command: &str) -> String {
    serde_json::json!({
        "session_id": "bench", "transcript_path": "/t.jsonl", "cwd": "/home/me/shop",
        "hook_event_name": "PermissionRequest", "tool_name": "Bash",
        "tool_input": {"command": command, "description": "bench"}, "permission_suggestions": []
    })
    .to_string()
}

/// `program args` fed `input`, until it exits and its output is read.
fn spawn(program: &Path, args: &[&str], input: &str, env: &[(&str, &Path)]) -> String {
    let mut c = Command::new(program);
    c.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}

fn main() {
    let policy = Policy { rules: rules::parse(RULES, Path::new("r.toml"), &Origin::Yours).unwrap(), untrusted: None };
    let action = Action { kind: Kind::Command(TEN_PARTS.into()), cwd: Some("/p".into()), agent: None, session: None };
    assert_eq!(shell::read(TEN_PARTS).parts.len(), 12, "twelve commands, no file written");
    assert_eq!(policy.decide(&action).decision, Verdict::Ask, "cd is no rule's: the bench's verdict is complete");
    let n = scaled(20_000);
    show("read a ten-part command", &times(n, || drop(shell::read(TEN_PARTS))));
    show("verdict on it (read and every part judged)", &times(n, || drop(policy.decide(&action))));

    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("rules.toml"), RULES).unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let userq = Path::new(env!("CARGO_BIN_EXE_userq"));
    let (_served, socket, _server) = serve_apart(1, UserQuestions::new());
    let _answerer = apart("answerer", 1, answer_with(socket.clone(), "Allow"));
    std::thread::sleep(Duration::from_millis(300));
    let allowed = hook_input("cargo test --release");
    let env_policy = [("USERQ_CONFIG_DIR", config.as_path()), ("USERQ_SOCKET", socket.as_path())];
    let env_socket = [("USERQ_CONFIG_DIR", empty.as_path()), ("USERQ_SOCKET", socket.as_path())];
    let out = spawn(userq, &["hook", "claude-code"], &allowed, &env_policy);
    assert!(out.contains("\"allow\""), "the policy allows: {out}");
    let out = spawn(userq, &["hook", "claude-code"], &allowed, &env_socket);
    assert!(out.contains("\"allow\""), "the answerer allows: {out}");
    let runs = scaled(200);
    let floor = show(
        "`true` spawned and reaped (the floor)",
        &times(runs, || drop(spawn(Path::new("/bin/true"), &[], "", &[]))),
    );
    let by_policy = show(
        "hook decided by the policy",
        &times(runs, || drop(spawn(userq, &["hook", "claude-code"], &allowed, &env_policy))),
    );
    let by_socket = show(
        "hook answered by a socket answerer",
        &times(runs, || drop(spawn(userq, &["hook", "claude-code"], &allowed, &env_socket))),
    );
    println!(
        "policy / socket answerer: {:.2}; above the floor: policy {:.1?}, socket {:.1?}",
        by_policy.as_secs_f64() / by_socket.as_secs_f64(),
        by_policy.saturating_sub(floor),
        by_socket.saturating_sub(floor)
    );
}
