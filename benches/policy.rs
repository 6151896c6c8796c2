//! The policy's figures, in one run:
//! - in process: reading a command of ten pipelines and lists (twelve commands), and the verdict on it (reading included),
//!   median and p95 of one call; the verdict on a 100,000-character command (past the bound, the person's)
//!   and on one just under the bound of 10,000; the verdict on `grep -rn` and `rg`
//!   over 10,000 files, walked for a secret;
//! - `userq hook claude-code` from spawn to exit (its output read), decided by the
//!   policy, against the same hook answered by a protocol answerer on a socket served
//!   in this process (the way every permission went before the policy), and against a
//!   hook that prints nothing (`true`), the floor of any spawn.
//!
//! - the ways to remember an Allow with their counts over 2,000 past permission
//!   questions, the window's work as a permission arrives, against one verdict each.
//!
//! `cargo bench --bench policy` (a release build of `userq`).

mod common;

use std::path::Path;
use std::time::Duration;

use common::{answer_with, apart, scaled, serve_apart, show, spawn, times};
use user_questions::history::decider::Decider;
use user_questions::model::{AgentInfo, Answer, AnswerItem, Context, Request};
use user_questions::policy::{remember, rules, Action, Kind, Origin, Policy, Verdict};
use user_questions::UserQuestions;
use user_questions_shell as shell;

const TEN_PARTS: &str = "cd src && cargo test --release 2>&1 | tee /dev/null | grep -v warning | head -n 40; \
    git status --short && git log --oneline -5 | cat; echo \"$(git rev-parse HEAD)\" > /dev/null; ls -la | wc -l";

const RULES: &str = "[[allow]]\ncommand = \"cargo test\"\n[[allow]]\nread-only = true\n\
    [[deny]]\ncommand = \"sudo\"\nreason = \"no root\"\n";

fn hook_input(command: &str) -> String {
    serde_json::json!({
        "session_id": "bench", "transcript_path": "/t.jsonl", "cwd": "/home/me/shop",
        "hook_event_name": "PermissionRequest", "tool_name": "Bash",
        "tool_input": {"command": command, "description": "bench"}, "permission_suggestions": []
    })
    .to_string()
}

fn main() {
    let policy = Policy { rules: rules::parse(RULES, Path::new("r.toml"), &Origin::Yours).unwrap(), untrusted: None };
    let action = Action { kind: Kind::Command(TEN_PARTS.into()), cwd: Some("/p".into()), agent: None, session: None };
    assert_eq!(shell::read(TEN_PARTS).parts.len(), 12, "twelve commands, no file written");
    assert_eq!(policy.decide(&action).decision, Verdict::Ask, "cd is no rule's: the bench's verdict is complete");
    let n = scaled(20_000);
    show("read a ten-part command", &times(n, || drop(shell::read(TEN_PARTS))));
    let ten = show("verdict on it (read and every part judged)", &times(n, || drop(policy.decide(&action))));
    // The bound: a command past 10,000 characters is the person's, unread; one just
    // under it is read whole.
    let huge = Action { kind: Kind::Command("cat a && ".repeat(11_112)), ..action.clone() };
    let near = Action { kind: Kind::Command("cat a && ".repeat(1_110) + "ls"), ..action.clone() };
    assert!(matches!(&huge.kind, Kind::Command(c) if c.len() > 100_000));
    assert!(matches!(&near.kind, Kind::Command(c) if c.len() < shell::MAX_LEN));
    assert_eq!(policy.decide(&huge).decision, Verdict::Ask, "past the bound: the person's");
    assert_eq!(policy.decide(&near).decision, Verdict::Allow, "under it: read and allowed");
    let over = show("verdict on a 100,000-character command", &times(n, || drop(policy.decide(&huge))));
    let under =
        show("verdict on a 9,992-character command (1,111 parts)", &times(scaled(200), || drop(policy.decide(&near))));
    println!(
        "100,000 characters / ten parts: {:.2}; 9,992 characters / ten parts: {:.1}",
        over.as_secs_f64() / ten.as_secs_f64(),
        under.as_secs_f64() / ten.as_secs_f64()
    );

    // A command that reads a folder file by file: the folder is walked for a secret,
    // 10,000 files in 100 folders, as grep walks it and as rg does (its ignore files).
    let tree = tempfile::tempdir().unwrap();
    for folder in 0..100 {
        let path = tree.path().join(format!("src/m{folder}"));
        std::fs::create_dir_all(&path).unwrap();
        (0..100).for_each(|file| std::fs::write(path.join(format!("f{file}.rs")), "").unwrap());
    }
    let walked =
        |command: &str| Action { kind: Kind::Command(command.into()), cwd: Some(tree.path().into()), ..action.clone() };
    let (grep, rg) = (walked("grep -rn TODO ."), walked("rg TODO"));
    assert_eq!(policy.decide(&grep).decision, Verdict::Allow, "no secret under it");
    assert_eq!(policy.decide(&rg).decision, Verdict::Allow, "no secret under it");
    let by_grep =
        show("verdict on `grep -rn TODO .` over 10,000 files", &times(scaled(100), || drop(policy.decide(&grep))));
    let by_rg = show("verdict on `rg TODO` over the same", &times(scaled(100), || drop(policy.decide(&rg))));
    println!(
        "grep -r over 10,000 files / ten parts: {:.0}; rg / ten parts: {:.0}",
        by_grep.as_secs_f64() / ten.as_secs_f64(),
        by_rg.as_secs_f64() / ten.as_secs_f64()
    );

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
    past_counts(&config);
}

/// The ways to remember an Allow and how many of 2,000 past permission questions each
/// would have answered: what the window works out as a permission arrives.
fn past_counts(config: &Path) {
    let data = tempfile::tempdir().unwrap();
    for i in 0..2_000 {
        let command = format!("cargo build -p crate{i} && cat Cargo.toml | grep version");
        let mut q = user_questions::agents::hook::permission::question(
            &user_questions::wording::Worded::new("hook-run-command"),
            &user_questions_i18n::Text::for_tag("en"),
            "Bash",
            format!("```sh\n{command}\n```"),
            &[],
        );
        q.intent.as_mut().unwrap().extra.insert("action".into(), serde_json::json!({"command": command}));
        let context = Context {
            project: Some("/home/me/shop".into()),
            session: Some(format!("s{i}")),
            source: Some("Claude Code".into()),
            machine: None,
            ..Context::default()
        };
        let agent = AgentInfo { id: "a".into(), delegation_depth: 0, client: None };
        let request = Request { questions: vec![q], agent: Some(agent), context: Some(context) };
        let answer = Answer::new(vec![AnswerItem::selected("permission", &["Allow"])]);
        user_questions::history::record_one(data.path(), &request, &answer, &Decider::Window).unwrap();
    }
    let conn = user_questions::history::open_if_kept(&data.path().join(user_questions::history::FILE)).unwrap();
    let action = Action {
        kind: Kind::Command("cargo build --release".into()),
        cwd: Some("/home/me/shop".into()),
        agent: None,
        session: Some("now".into()),
    };
    let policy = Policy::load(config, action.cwd.as_deref()).unwrap();
    let ways = remember::ways(&action, &policy);
    let candidates: Vec<_> = ways.iter().map(|w| w.rules()).collect();
    let past = user_questions::history::past::would_have_decided;
    let counts = past(&conn, config, &candidates, Some(2_000)).unwrap();
    assert_eq!(counts.len(), 6, "six ways");
    assert!(counts.contains(&2_000), "a wide way answers every one: {counts:?}");
    let runs = scaled(10);
    let counted = show(
        "6 ways counted over 2,000 past questions",
        &times(runs, || drop(past(&conn, config, &candidates, Some(2_000)).unwrap())),
    );
    let verdicts = show(
        "2,000 past questions only listed and judged once",
        &times(runs, || drop(past(&conn, config, &[], Some(2_000)).unwrap())),
    );
    println!("ways counted / judged once: {:.2}", counted.as_secs_f64() / verdicts.as_secs_f64());
}
