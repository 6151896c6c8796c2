//! The policy through its doors: `userq hook <agent>` fed each agent's documented
//! input decides from the rules with no server running (an allow and a deny in the
//! agent's own shape; anything else left to the agent's prompt), a project's rules
//! file only once trusted, and `userq rules` as a person uses it.

mod common;

use std::path::Path;
use std::process::Stdio;

use common::process::*;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

/// `userq ARGS` with `stdin` on its input; its exit code, stdout and stderr.
async fn run(socket: &Path, args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let mut c = userq(socket);
    c.args(args).stdin(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).await.unwrap();
    drop(input);
    let out = finish(child).await;
    (out.code, out.stdout, out.stderr)
}

/// The hook's printed decision; `None` when it printed nothing.
async fn hook(socket: &Path, agent: &str, input: &Value) -> Option<Value> {
    let (code, stdout, stderr) = run(socket, &["hook", agent], &input.to_string()).await;
    assert_eq!(code, Some(0), "stderr: {stderr}");
    (!stdout.trim().is_empty()).then(|| serde_json::from_str(stdout.trim()).unwrap())
}

fn rules(socket: &Path, toml: &str) {
    let dir = config_dir(socket);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("rules.toml"), toml).unwrap();
}

const RULES: &str = "[[allow]]\ncommand = \"cargo test\"\n[[allow]]\nread-only = true\n\
    [[deny]]\ncommand = \"sudo\"\nreason = \"nothing runs as root here\"\n";

fn claude(command: &str, cwd: &str) -> Value {
    json!({
        "session_id": "abc123", "transcript_path": "/home/me/.claude/projects/x/1.jsonl", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PermissionRequest", "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run it"}, "permission_suggestions": []
    })
}

fn claude_says(decision: Value) -> Option<Value> {
    Some(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}))
}

#[tokio::test]
async fn claude_code_a_rule_decides_with_no_server() {
    // No server: the socket is in an empty folder.
    let (_d, socket) = temp_socket();
    rules(&socket, RULES);
    let allow = claude_says(json!({"behavior": "allow"}));
    assert_eq!(hook(&socket, "claude-code", &claude("cargo test --release", "/home/me/shop")).await, allow);
    assert_eq!(hook(&socket, "claude-code", &claude("git log --oneline | head -5", "/home/me/shop")).await, allow);
    // One part no rule allows: the person (here, with no server, the agent's own prompt).
    assert_eq!(hook(&socket, "claude-code", &claude("cargo test && rm -rf target", "/home/me/shop")).await, None);
    assert_eq!(hook(&socket, "claude-code", &claude("cargo testify", "/home/me/shop")).await, None);
    let denied = hook(&socket, "claude-code", &claude("timeout 5 sudo rm -rf /", "/home/me/shop")).await.unwrap();
    let decision = &denied["hookSpecificOutput"]["decision"];
    assert_eq!(decision["behavior"], "deny", "{denied}");
    let message = decision["message"].as_str().unwrap();
    assert!(message.contains("nothing runs as root here") && message.contains("deny `sudo`"), "{message}");
}

#[tokio::test]
async fn a_deny_holds_before_the_tool_runs_in_every_permission_mode_and_nothing_else_is_decided_there() {
    let (_d, socket) = temp_socket();
    rules(&socket, RULES);
    // Claude Code's PreToolUse (its hooks reference) and Codex's (its
    // pre-tool-use.command.input schema), in the modes where neither asks anyone.
    let claude = |command: &str| {
        json!({
            "session_id": "abc123", "transcript_path": "/t.jsonl", "cwd": "/home/me/shop",
            "permission_mode": "bypassPermissions", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "Run it"}, "tool_use_id": "toolu_1"
        })
    };
    let codex = |command: &str| {
        json!({
            "session_id": "019a", "turn_id": "t1", "transcript_path": null, "cwd": "/home/me/api",
            "hook_event_name": "PreToolUse", "model": "gpt-5-codex", "permission_mode": "bypassPermissions",
            "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "call_1"
        })
    };
    for (agent, input) in [("claude-code", claude("timeout 5 sudo id")), ("codex", codex("timeout 5 sudo id"))] {
        let out = hook(&socket, agent, &input).await.unwrap_or_else(|| panic!("{agent}: a deny"));
        let specific = &out["hookSpecificOutput"];
        assert_eq!(specific["hookEventName"], "PreToolUse", "{agent}: {out}");
        assert_eq!(specific["permissionDecision"], "deny", "{agent}: {out}");
        let reason = specific["permissionDecisionReason"].as_str().unwrap();
        assert!(reason.contains("nothing runs as root here"), "{agent}: {reason}");
    }
    // A deny looks through git's global options.
    rules(&socket, &format!("{RULES}[[deny]]\ncommand = \"git push\"\n"));
    for command in ["git -C . push", "git -c x=y push", "git --no-pager push origin main"] {
        let out = hook(&socket, "claude-code", &claude(command)).await;
        assert_eq!(
            out.as_ref().map(|o| o["hookSpecificOutput"]["permissionDecision"].clone()),
            Some(json!("deny")),
            "{command}"
        );
    }
    // What a rule allows, and what no rule decides, is the agent's own: nothing is
    // printed, so its prompt (where it prompts) and its own denies still decide.
    for (agent, input) in
        [("claude-code", claude("cargo test")), ("codex", codex("cargo test")), ("claude-code", claude("make deploy"))]
    {
        assert_eq!(hook(&socket, agent, &input).await, None, "{agent}: {input}");
    }
}

#[tokio::test]
async fn every_agent_reads_the_verdict_in_its_own_shape() {
    let (_d, socket) = temp_socket();
    rules(&socket, RULES);
    let codex = |command: &str| {
        json!({
            "session_id": "019a", "turn_id": "t1", "transcript_path": null, "cwd": "/home/me/api",
            "hook_event_name": "PermissionRequest", "model": "gpt-5-codex", "permission_mode": "default",
            "tool_name": "Bash", "tool_input": {"command": command},
            "approval_context": {"sandbox_permissions": "require_escalated", "justification": "Check it"}
        })
    };
    assert_eq!(hook(&socket, "codex", &codex("cargo test")).await, claude_says(json!({"behavior": "allow"})));
    let denied = hook(&socket, "codex", &codex("env X=1 sudo make install")).await.unwrap();
    assert_eq!(denied["hookSpecificOutput"]["decision"]["behavior"], "deny");

    let gemini = |command: &str| {
        json!({
            "session_id": "g1", "transcript_path": "/t.json", "cwd": "/home/me/site", "hook_event_name": "BeforeTool",
            "timestamp": "2026-12-01T10:00:00Z", "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "Run it"}
        })
    };
    assert_eq!(hook(&socket, "gemini", &gemini("cat README.md")).await, Some(json!({"decision": "allow"})));
    let denied = hook(&socket, "gemini", &gemini("nice -n 5 sudo reboot")).await.unwrap();
    assert_eq!(denied["decision"], "deny");
    assert!(denied["reason"].as_str().unwrap().contains("nothing runs as root here"), "{denied}");
    // What the rules leave to the person: Gemini CLI's own prompt, with no server.
    assert_eq!(hook(&socket, "gemini", &gemini("npm run deploy")).await.unwrap()["decision"], "ask");

    let cursor = json!({
        "conversation_id": "c-77", "generation_id": "g", "hook_event_name": "beforeShellExecution",
        "workspace_roots": ["/home/me/site"], "command": "cargo test -p core", "cwd": "", "sandbox": false
    });
    assert_eq!(hook(&socket, "cursor", &cursor).await, Some(json!({"permission": "allow"})));
}

#[tokio::test]
async fn file_edits_are_judged_by_the_edit_rules() {
    let (_d, socket) = temp_socket();
    rules(&socket, "[[allow]]\nedit = \"src\"\n[[deny]]\nedit = \"**/.env\"\nreason = \"secrets stay put\"\n");
    let edit = |path: &str| {
        json!({
            "session_id": "abc", "transcript_path": "/t", "cwd": "/home/me/shop", "hook_event_name": "PermissionRequest",
            "tool_name": "Write", "tool_input": {"file_path": path, "content": "x\n"}
        })
    };
    assert_eq!(
        hook(&socket, "claude-code", &edit("/home/me/shop/src/a/b.rs")).await,
        claude_says(json!({"behavior": "allow"}))
    );
    assert_eq!(hook(&socket, "claude-code", &edit("/home/me/shop/Cargo.toml")).await, None);
    let denied = hook(&socket, "claude-code", &edit("/home/me/shop/src/.env")).await.unwrap();
    assert_eq!(denied["hookSpecificOutput"]["decision"]["behavior"], "deny", "deny beats allow");
}

#[tokio::test]
async fn a_project_file_allows_only_once_trusted_and_stops_when_changed() {
    let (d, socket) = temp_socket();
    let project = d.path().join("shop");
    std::fs::create_dir_all(project.join(".userq")).unwrap();
    std::fs::create_dir_all(project.join("src")).unwrap();
    let file = project.join(".userq/rules.toml");
    std::fs::write(&file, "[[allow]]\ncommand = \"make test\"\n").unwrap();
    let cwd = project.join("src").display().to_string();
    let asked = claude("make test", &cwd);
    assert_eq!(hook(&socket, "claude-code", &asked).await, None, "a cloned file allows nothing by itself");
    let (code, out, err) = run(&socket, &["rules", "why", "make test", "--cwd", &cwd], "").await;
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("is not trusted"), "{out}");

    let (code, out, err) = run(&socket, &["rules", "trust", project.to_str().unwrap()], "").await;
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with(&format!("Trusted {}", file.display())), "{out}");
    assert_eq!(hook(&socket, "claude-code", &asked).await, claude_says(json!({"behavior": "allow"})));

    std::fs::write(&file, "[[allow]]\ncommand = \"make\"\n").unwrap();
    assert_eq!(hook(&socket, "claude-code", &asked).await, None, "a changed file stops applying");
}

#[tokio::test]
async fn rules_that_cannot_be_read_decide_nothing_and_say_why() {
    let (_d, socket) = temp_socket();
    rules(&socket, "[[allow]]\ncomand = \"cargo test\"\n");
    let (code, out, err) = run(&socket, &["hook", "claude-code"], &claude("cargo test", "/p").to_string()).await;
    assert_eq!((code, out.as_str()), (Some(0), ""), "{err}");
    assert!(err.contains("the rules cannot be read") && err.contains("comand"), "{err}");
    let (code, _, err) = run(&socket, &["rules", "allow", "make"], "").await;
    assert_eq!(code, Some(1));
    assert!(err.contains("comand"), "{err}");
    let kept = std::fs::read_to_string(config_dir(&socket).join("rules.toml")).unwrap();
    assert_eq!(kept, "[[allow]]\ncomand = \"cargo test\"\n", "a file that cannot be read is never overwritten");
}

#[tokio::test]
async fn the_rules_command_adds_lists_explains_and_removes() {
    let (_d, socket) = temp_socket();
    let ok = |(code, out, err): (Option<i32>, String, String)| {
        assert_eq!(code, Some(0), "{err}");
        out
    };
    // Each rule is named by a hash of what it says, not by its place.
    let added = ok(run(&socket, &["rules", "allow", "cargo test"], "").await);
    let (allow_id, said) = added.trim_end().split_once('\t').unwrap();
    assert_eq!(said, "allow `cargo test`");
    assert!(allow_id.starts_with("allow:") && allow_id.len() == "allow:".len() + 8, "{allow_id}");
    let sudo = ok(run(&socket, &["rules", "deny", "sudo", "--session", "s1"], "").await);
    let sudo_id = sudo.split('\t').next().unwrap().to_owned();
    let added = ok(run(&socket, &["rules", "deny", "git push", "--reason", "pushes go through review"], "").await);
    let deny_id = added.split('\t').next().unwrap().to_owned();
    let dry = ok(run(&socket, &["rules", "allow", "rm", "--dry-run"], "").await);
    assert!(dry.contains("nothing saved"), "{dry}");
    let list = ok(run(&socket, &["rules", "list"], "").await);
    assert_eq!(
        list,
        format!(
            "{allow_id}\tallow `cargo test`\teverywhere\tyours\tnot used yet\n\
             {sudo_id}\tdeny `sudo`\tsession s1\tyours\tnot used yet\n\
             {deny_id}\tdeny `git push`\teverywhere\tyours\tnot used yet\tpushes go through review\n"
        )
    );
    let why = ok(run(&socket, &["rules", "why", "--json", "cargo test && git push origin main"], "").await);
    let why: Value = serde_json::from_str(&why).unwrap();
    assert_eq!(why["decision"], "deny");
    assert_eq!(why["parts"][0]["decision"], "allow");
    assert_eq!(why["parts"][1]["text"], "git push origin main");
    assert_eq!(why["parts"][1]["reason"], "pushes go through review");
    let why = ok(run(&socket, &["rules", "why", "cargo test && rm -rf target"], "").await);
    assert_eq!(
        why,
        "ask\tcargo test && rm -rf target\n  allow\tcargo test\tallow `cargo test` (your rules, [[allow]] 1)\n  ask\trm -rf target\tno rule allows it\n"
    );
    // The deny before it gone, its id still names the same rule.
    ok(run(&socket, &["rules", "rm", &sudo_id], "").await);
    ok(run(&socket, &["rules", "rm", &deny_id], "").await);
    let (code, _, err) = run(&socket, &["rules", "rm", &deny_id], "").await;
    assert_eq!(code, Some(1));
    assert!(err.contains(&format!("there is no rule {deny_id}")), "{err}");
    let (code, _, err) = run(&socket, &["rules", "rm", "allow:1"], "").await;
    assert_eq!(code, Some(1), "a place is no id: {err}");
    let kept = std::fs::read_to_string(config_dir(&socket).join("rules.toml")).unwrap();
    assert_eq!(kept, "[[allow]]\ncommand = \"cargo test\"\n");
    let (code, _, err) = run(&socket, &["rules", "deny", "--read-only"], "").await;
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = run(&socket, &["rules", "allow", "npm", "--agent", "claude"], "").await;
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown agent") && err.contains("claude-code"), "{err}");
}

#[tokio::test]
async fn claude_codes_own_rules_are_shown_then_imported_on_confirmation() {
    let (d, socket) = temp_socket();
    let home = d.path().join("home");
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let settings = json!({"permissions": {"allow": ["Bash(npm run test:*)", "Glob(*)"], "deny": ["Bash(git push:*)"]}});
    std::fs::write(home.join(".claude/settings.json"), settings.to_string()).unwrap();
    let import = |yes: bool| {
        let mut c = userq(&socket);
        c.env("HOME", &home).args(["rules", "import", "claude-code"]);
        if yes {
            c.arg("--yes");
        }
        async move { finish(c.spawn().unwrap()).await }
    };
    let shown = import(false).await;
    assert_eq!(shown.code, Some(0), "{}", shown.stderr);
    assert_eq!(
        shown.stdout,
        "would add: allow `npm run test`\nwould add: deny `git push`\n\
         left out: Glob(*) (a tool the policy has no kind of action for)\n\
         Nothing saved: run again with --yes to add these rules.\n"
    );
    assert!(!config_dir(&socket).join("rules.toml").exists(), "nothing saved without --yes");
    let added = import(true).await;
    assert!(added.stdout.ends_with("Added 2 rules to your rules.\n"), "{}", added.stdout);
    let (_, list, _) = run(&socket, &["rules", "list"], "").await;
    assert!(list.contains("allow `npm run test`\teverywhere\timported from claude-code"), "{list}");
    let runs = hook(&socket, "claude-code", &claude("npm run test -- --watch", "/p")).await;
    assert_eq!(runs, claude_says(json!({"behavior": "allow"})));
    let denied = hook(&socket, "claude-code", &claude("git push origin main", "/p")).await.unwrap();
    assert_eq!(denied["hookSpecificOutput"]["decision"]["behavior"], "deny");
}

#[tokio::test]
async fn a_dry_run_says_how_many_past_questions_a_rule_would_have_decided() {
    let (_d, socket) = temp_socket();
    let server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    for command in ["cargo test --release", "cargo test -p core", "rm -rf target"] {
        let asked = tokio::spawn({
            let socket = socket.clone();
            async move { hook(&socket, "claude-code", &claude(command, "/home/me/shop")).await }
        });
        let offer = person.expect("questions/offer").await;
        let answer = json!({"answers": [{"id": "permission", "selected": ["Allow"]}]});
        person.reply(&offer["id"], json!({"answer": answer})).await;
        assert_eq!(asked.await.unwrap(), claude_says(json!({"behavior": "allow"})));
    }
    drop(server);
    let (code, out, err) = run(&socket, &["rules", "allow", "cargo test", "--dry-run"], "").await;
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "Would add: allow `cargo test` (nothing saved)\n\
         It would have decided 2 past questions in the history that no rule decided.\n"
    );
    assert!(!config_dir(&socket).join("rules.toml").exists());
}

/// Kimi Code's PreToolUse input, as its hooks documentation and its tools give it.
fn kimi(tool: &str, input: Value) -> Value {
    json!({
        "hook_event_name": "PreToolUse", "session_id": "session_abc", "session_title": "Fix the login page",
        "client_type": "kimi_code_cli", "cwd": "/home/me/shop", "tool_name": tool, "tool_input": input,
        "tool_call_id": "call_1"
    })
}

#[tokio::test]
async fn kimi_code_gets_the_policys_denies_and_nothing_else() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    // Someone answering on the socket: the hook must not ask them.
    let mut person = answerer(&socket, json!("agents")).await;
    rules(&socket, &format!("{RULES}[[deny]]\nedit = \"**/.env\"\nreason = \"secrets stay put\"\n"));
    let denied = hook(&socket, "kimi", &kimi("Bash", json!({"command": "nohup sudo rm -rf /"}))).await.unwrap();
    assert_eq!(denied["hookSpecificOutput"]["permissionDecision"], "deny", "{denied}");
    let reason = denied["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("nothing runs as root here"), "{reason}");
    let write = kimi("Write", json!({"path": "/home/me/shop/.env", "content": "KEY=1\n", "mode": "overwrite"}));
    let denied = hook(&socket, "kimi", &write).await.unwrap();
    assert!(denied.to_string().contains("secrets stay put"), "{denied}");
    // An allow cannot be said in Kimi Code: nothing, and its own prompt decides.
    assert_eq!(hook(&socket, "kimi", &kimi("Bash", json!({"command": "cargo test"}))).await, None);
    // No rule: nothing either, and nobody here is asked.
    assert_eq!(hook(&socket, "kimi", &kimi("Bash", json!({"command": "npm publish"}))).await, None);
    let offered = tokio::time::timeout(std::time::Duration::from_millis(300), person.expect("questions/offer")).await;
    assert!(offered.is_err(), "the person was asked: {offered:?}");
}

#[tokio::test]
async fn what_the_policy_decided_is_in_the_history_with_its_rules_and_counted_on_each() {
    // No server: the hook keeps its decision in a journal of its own, folded in when
    // the history is next read.
    let (_d, socket) = temp_socket();
    rules(&socket, RULES);
    assert!(hook(&socket, "claude-code", &claude("cargo test --release", "/home/me/shop")).await.is_some());
    assert!(hook(&socket, "claude-code", &claude("cargo test | head -3", "/home/me/shop")).await.is_some());
    assert!(hook(&socket, "claude-code", &claude("sudo reboot", "/home/me/shop")).await.is_some());
    // What went to the person (no server: the agent's prompt) is not the policy's.
    assert_eq!(hook(&socket, "claude-code", &claude("make deploy", "/home/me/shop")).await, None);

    let (code, out, err) = run(&socket, &["history", "--export", "jsonl"], "").await;
    assert_eq!(code, Some(0), "{err}");
    let records: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let who: Vec<&str> = records.iter().map(|r| r["who"].as_str().unwrap()).collect();
    assert_eq!(
        who,
        [
            "the policy: deny `sudo`",
            "the policy: allow `cargo test`; allow read-only",
            "the policy: allow `cargo test`"
        ]
    );
    // The deny's answer is what the model read.
    let denied = records[0]["answer"].as_str().unwrap();
    assert!(denied.contains("Denied by the User Questions policy: nothing runs as root here"), "{denied}");
    assert_eq!((records[1]["answer"].as_str(), records[2]["answer"].as_str()), (Some("Allow"), Some("Allow")));
    assert!(records.iter().all(|r| r["agent"].as_str().unwrap().starts_with("claude-code-abc123-")), "{out}");
    // Each row says what was decided, where, and by which rule.
    let actions: Vec<&str> = records.iter().map(|r| r["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["sudo reboot", "cargo test | head -3", "cargo test --release"]);
    assert!(records.iter().all(|r| r["project"] == "/home/me/shop" && r["session"] == "abc123"), "{out}");
    assert!(records.iter().all(|r| r["source"] == "Claude Code"), "{out}");
    assert_eq!(records[0]["rule"], "deny `sudo`");
    assert_eq!(records[1]["rule"], "allow `cargo test`; allow read-only");
    let (_, csv, _) = run(&socket, &["history", "--export", "csv"], "").await;
    let head = csv.lines().next().unwrap();
    assert!(head.contains("action") && head.contains("rule") && head.contains("project"), "{head}");
    assert!(csv.contains("sudo reboot") && csv.contains("deny `sudo`"), "{csv}");
    let (_, listed, _) = run(&socket, &["history"], "").await;
    assert!(listed.contains("Run this command? `cargo test | head -3`"), "{listed}");

    let (code, out, err) = run(&socket, &["rules", "list", "--json"], "").await;
    assert_eq!(code, Some(0), "{err}");
    let uses: Vec<(String, i64)> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["rule"].is_string())
        .map(|r| (r["rule"].as_str().unwrap().to_owned(), r["uses"].as_i64().unwrap()))
        .collect();
    let uses: Vec<(&str, i64)> = uses.iter().map(|(r, n)| (r.as_str(), *n)).collect();
    assert_eq!(uses, [("allow `cargo test`", 2), ("allow read-only", 1), ("deny `sudo`", 1)]);
    let (_, out, _) = run(&socket, &["rules", "list"], "").await;
    let line = out.lines().find(|l| l.contains("`cargo test`")).unwrap();
    assert!(line.contains("used 2 times, last 20"), "{line}");
}

#[tokio::test]
async fn codex_gemini_and_opencode_rules_are_imported_then_decide_every_hook() {
    let (d, socket) = temp_socket();
    let home = d.path().join("home");
    let project = d.path().join("api");
    let files = [
        (home.join(".codex/rules/default.rules"), "prefix_rule(pattern=[\"cargo\", \"test\"], decision=\"allow\")\n\
          prefix_rule(pattern=[\"git\", \"push\"], decision=\"forbidden\", justification=\"pushes go through review\")\n"),
        (home.join(".gemini/policies/auto-saved.toml"),
         "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"npm test\"\ndecision = \"allow\"\npriority = 950\n\
          [[rule]]\ntoolName = \"run_shell_command\"\ncommandRegex = \"rm .*\"\ndecision = \"deny\"\n"),
        (project.join("opencode.jsonc"), "{\"permission\": {\"bash\": {\"*\": \"ask\", \"make lint\": \"allow\"}}} // OpenCode's own"),
    ];
    for (file, text) in &files {
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let import = |args: &[&str], lang: &str| {
        let mut c = userq(&socket);
        c.env("HOME", &home).env("USERQ_LANG", lang).args(["rules", "import"]).args(args);
        async move { finish(c.spawn().unwrap()).await }
    };
    let codex = import(&["codex", "--yes"], "en").await;
    assert_eq!(
        codex.stdout, "would add: allow `cargo test`\nwould add: deny `git push`\nAdded 2 rules to your rules.\n",
        "{}",
        codex.stderr
    );
    let gemini = import(&["gemini"], "zh-CN").await;
    assert!(gemini.stdout.contains("allow `npm test`"), "{}", gemini.stdout);
    assert!(
        gemini.stdout.contains("（正则表达式，策略不读取）"),
        "the left-out reason in the person's language: {}",
        gemini.stdout
    );
    assert!(import(&["gemini", "--yes"], "en").await.stdout.ends_with("Added one rule to your rules.\n"));
    let opencode = import(&["opencode", "--project", project.to_str().unwrap(), "--yes"], "en").await;
    assert!(
        opencode.stdout.contains(
            "left out: \"bash\": {\"*\": \"ask\"} (the agent's default for what no rule matches; here you decide that)"
        ),
        "{}",
        opencode.stdout
    );
    assert!(opencode.stdout.ends_with("Added one rule to your rules.\n"), "{}", opencode.stdout);

    // Each agent's hook decides from what was imported.
    let cwd = project.to_str().unwrap();
    assert_eq!(
        hook(&socket, "claude-code", &claude("cargo test --release", cwd)).await,
        claude_says(json!({"behavior": "allow"}))
    );
    assert_eq!(hook(&socket, "claude-code", &claude("npm test", cwd)).await, claude_says(json!({"behavior": "allow"})));
    assert_eq!(
        hook(&socket, "claude-code", &claude("make lint", cwd)).await,
        claude_says(json!({"behavior": "allow"}))
    );
    // The project's rule holds in that project only.
    assert_eq!(hook(&socket, "claude-code", &claude("make lint", "/elsewhere")).await, None);
    let denied = hook(&socket, "claude-code", &claude("git push", cwd)).await.unwrap();
    let message = denied["hookSpecificOutput"]["decision"]["message"].as_str().unwrap();
    assert!(message.contains("pushes go through review") && message.contains("imported from codex"), "{message}");

    // A file that is not the agent's rules is named, and nothing is added.
    std::fs::write(home.join(".codex/rules/broken.rules"), "prefix_rule(pattern=[\"ls\"\n").unwrap();
    let broken = import(&["codex", "--yes"], "en").await;
    assert_eq!(broken.code, Some(1));
    assert!(broken.stderr.contains("broken.rules: line 2: expected `]`"), "{}", broken.stderr);
}

/// Kiro CLI's preToolUse input, as its hooks documentation and its tools reference give it.
fn kiro(tool: &str, input: Value) -> Value {
    json!({"hook_event_name": "preToolUse", "cwd": "/home/me/shop", "session_id": "k1", "tool_name": tool, "tool_input": input})
}

#[tokio::test]
async fn kiro_cli_gets_the_policys_denies_as_exit_code_2_and_nothing_else() {
    let (_d, socket) = temp_socket();
    rules(&socket, &format!("{RULES}[[deny]]\nedit = \"/etc/**\"\nreason = \"the system is not ours\"\n"));
    let hook = |input: Value| {
        let socket = socket.clone();
        async move { run(&socket, &["hook", "kiro"], &input.to_string()).await }
    };
    // A deny: exit code 2, the reason on stderr, which Kiro CLI hands the model.
    for input in [
        kiro("execute_bash", json!({"command": "sudo rm -rf /", "summary": "Clean up"})),
        kiro("shell", json!({"command": "nice sudo reboot"})),
    ] {
        let (code, stdout, stderr) = hook(input).await;
        assert_eq!((code, stdout.as_str()), (Some(2), ""));
        assert!(stderr.contains("nothing runs as root here") && stderr.contains("deny `sudo`"), "{stderr}");
    }
    let write = kiro("fs_write", json!({"command": "create", "path": "/etc/hosts", "file_text": "x"}));
    let (code, _, stderr) = hook(write).await;
    assert_eq!(code, Some(2));
    assert!(stderr.contains("the system is not ours"), "{stderr}");
    let edit = kiro("write", json!({"command": "str_replace", "path": "/etc/hosts", "old_str": "a", "new_str": "b"}));
    assert_eq!(hook(edit).await.0, Some(2));
    // In a folder given to the tool, the rules still read what runs there.
    let there = kiro("execute_bash", json!({"command": "sudo ls", "working_dir": "~/it's here"}));
    assert_eq!(hook(there).await.0, Some(2));
    // An allow, and what the person would decide, are Kiro CLI's own prompt's: exit 0, silent.
    for input in [
        kiro("execute_bash", json!({"command": "cargo test"})),
        kiro("execute_bash", json!({"command": "make deploy"})),
        kiro("fs_write", json!({"command": "append", "path": "/home/me/shop/log", "new_str": "x"})),
        kiro("fs_read", json!({"operations": [{"mode": "Line", "path": "/etc/passwd"}]})),
        json!({"hook_event_name": "agentSpawn", "cwd": "/home/me/shop"}),
    ] {
        assert_eq!(hook(input.clone()).await, (Some(0), String::new(), String::new()), "{input}");
    }
    // Input that is not Kiro CLI's: no decision, and never exit code 2.
    let (code, _, stderr) = run(&socket, &["hook", "kiro"], "not json").await;
    assert_eq!(code, Some(1), "{stderr}");
}

/// Each agent's end of a session, as its documentation (Cursor) or its CLI (the
/// others, read from what they sent a hook here) says it, takes that session's rules
/// out and leaves the rest.
#[tokio::test]
async fn every_agents_session_end_ends_that_sessions_rules() {
    let (_d, socket) = temp_socket();
    let ends = [
        (
            "gemini",
            json!({"session_id": "s1", "transcript_path": "/t.json", "cwd": "/p",
                          "hook_event_name": "SessionEnd", "timestamp": "2026-12-06T15:18:29.350Z", "reason": "exit"}),
        ),
        (
            "qwen",
            json!({"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/p", "hook_event_name": "SessionEnd",
                        "timestamp": "2026-12-06T15:18:29.350Z", "permission_mode": "default",
                        "reason": "prompt_input_exit"}),
        ),
        (
            "droid",
            json!({"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/p", "permission_mode": "auto-low",
                         "hook_event_name": "SessionEnd", "message_id": "m1", "reason": "other",
                         "session_duration_ms": 307.8, "message_count": 6}),
        ),
        (
            "codex",
            json!({"cwd": "/p", "hook_event_name": "SessionEnd", "reason": "other", "session_id": "s1",
                         "transcript_path": null}),
        ),
        (
            "copilot",
            json!({"hook_event_name": "SessionEnd", "session_id": "s1",
                           "timestamp": "2026-12-06T15:18:29.350Z", "cwd": "/p", "reason": "complete"}),
        ),
        (
            "cursor",
            json!({"conversation_id": "s1", "generation_id": "g1", "model": "x", "hook_event_name": "sessionEnd",
                          "cursor_version": "3.21.16", "workspace_roots": ["/p"], "user_email": null,
                          "transcript_path": null, "session_id": "s1", "reason": "completed", "duration_ms": 5000,
                          "is_background_agent": false, "final_status": "completed"}),
        ),
    ];
    for (agent, end) in ends {
        rules(&socket, "[[allow]]\ncommand = \"make lint\"\nsession = \"s1\"\n[[allow]]\nread-only = true\n");
        assert_eq!(hook(&socket, agent, &end).await, None, "{agent}");
        let kept = std::fs::read_to_string(config_dir(&socket).join("rules.toml")).unwrap();
        assert_eq!(kept, "[[allow]]\nread-only = true\n", "{agent}");
    }
}

#[tokio::test]
async fn a_sessions_rules_end_with_its_session_end_even_when_the_agent_leaves_stdin_open() {
    let (_d, socket) = temp_socket();
    rules(
        &socket,
        "[[allow]]\ncommand = \"make lint\"\nsession = \"abc123\"\n\
         [[allow]]\ncommand = \"make lint\"\nsession = \"other\"\n\
         [[deny]]\ncommand = \"git push\"\nsession = \"abc123\"\n# mine\n[[allow]]\nread-only = true\n",
    );
    let allow = claude_says(json!({"behavior": "allow"}));
    assert_eq!(hook(&socket, "claude-code", &claude("make lint", "/home/me/shop")).await, allow);

    // Claude Code's SessionEnd, with stdin never closed (as Claude Code leaves it).
    let end = json!({"session_id": "abc123", "transcript_path": "/tmp/t.jsonl", "cwd": "/home/me/shop",
                     "permission_mode": "default", "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"});
    let mut c = userq(&socket);
    c.args(["hook", "claude-code"]).stdin(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(end.to_string().as_bytes()).await.unwrap();
    let out = finish(child).await;
    drop(input);
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (Some(0), "", ""));

    let kept = std::fs::read_to_string(config_dir(&socket).join("rules.toml")).unwrap();
    assert_eq!(kept, "[[allow]]\ncommand = \"make lint\"\nsession = \"other\"\n# mine\n[[allow]]\nread-only = true\n");
    assert_eq!(hook(&socket, "claude-code", &claude("make lint", "/home/me/shop")).await, None);
    // Another session's rules stand.
    let mut other = claude("make lint", "/home/me/shop");
    other["session_id"] = json!("other");
    assert_eq!(hook(&socket, "claude-code", &other).await, allow);
}

#[tokio::test]
async fn a_project_scope_is_kept_as_the_kernel_finds_it_and_a_deny_holds_without_a_folder() {
    let (d, socket) = temp_socket();
    let shop = d.path().join("work/shop");
    std::fs::create_dir_all(&shop).unwrap();
    std::fs::create_dir_all(d.path().join("work/other")).unwrap();
    std::os::unix::fs::symlink(&shop, d.path().join("link")).unwrap();
    let add = |args: &[&str], cwd: &Path| {
        let mut c = userq(&socket);
        c.args(args).current_dir(cwd);
        async move { finish(c.spawn().unwrap()).await }
    };
    let out = add(&["rules", "deny", "curl", "--project", "../shop"], &d.path().join("work/other")).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let kept = std::fs::read_to_string(config_dir(&socket).join("rules.toml")).unwrap();
    let real = std::fs::canonicalize(&shop).unwrap();
    assert!(kept.contains(&format!("project = \"{}\"", real.display())), "{kept}");
    // A folder that is not there is refused by name.
    let out = add(&["rules", "deny", "curl", "--project", "../nowhere"], &shop).await;
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("nowhere") && out.stderr.contains("is not a folder"), "{}", out.stderr);
    let pre = |cwd: Option<&Path>| {
        let mut input = json!({
            "session_id": "s", "transcript_path": "/t.jsonl", "permission_mode": "default",
            "hook_event_name": "PermissionRequest", "tool_name": "Bash",
            "tool_input": {"command": "curl https://example.com"}, "permission_suggestions": []
        });
        if let Some(cwd) = cwd {
            input["cwd"] = json!(cwd.display().to_string());
        }
        input
    };
    let denied = |out: Option<Value>| out.is_some_and(|o| o["hookSpecificOutput"]["decision"]["behavior"] == "deny");
    assert!(denied(hook(&socket, "claude-code", &pre(Some(&shop))).await));
    // Reached through a link, the project is the same folder.
    assert!(denied(hook(&socket, "claude-code", &pre(Some(&d.path().join("link")))).await));
    // With no folder, a project's deny still holds.
    assert!(denied(hook(&socket, "claude-code", &pre(None)).await));
    assert!(!denied(hook(&socket, "claude-code", &pre(Some(&d.path().join("work/other")))).await));
}

#[tokio::test]
async fn a_project_file_is_trusted_as_the_bytes_it_holds_and_never_hides_a_trusted_parent_or_reaches_outside() {
    let (d, socket) = temp_socket();
    let project = d.path().join("shop");
    let inner = project.join("src");
    std::fs::create_dir_all(project.join(".userq")).unwrap();
    std::fs::create_dir_all(inner.join(".userq")).unwrap();
    let in_dir = |args: &[&str], cwd: &Path| {
        let mut c = userq(&socket);
        c.args(args).current_dir(cwd);
        async move { finish(c.spawn().unwrap()).await }
    };
    // Not text: never trusted, and said so.
    std::fs::write(project.join(".userq/rules.toml"), b"[[allow]]\ncommand = \"curl\"\n# \xff\xfe\n").unwrap();
    let out = in_dir(&["rules", "trust"], &project).await;
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("not UTF-8"), "{}", out.stderr);
    // The parent trusted: its deny, and an allow that would reach outside its folder.
    let parent = "[[deny]]\ncommand = \"curl\"\nreason = \"no fetching\"\n[[allow]]\nedit = \"../**\"\n[[allow]]\nedit = \"src/**\"\n";
    std::fs::write(project.join(".userq/rules.toml"), parent).unwrap();
    let out = in_dir(&["rules", "trust"], &project).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    // An untrusted file nearer the folder hides nothing.
    std::fs::write(inner.join(".userq/rules.toml"), "[[allow]]\ncommand = \"curl\"\n").unwrap();
    let bash = |command: &str, cwd: &Path| {
        json!({
            "session_id": "s", "transcript_path": "/t.jsonl", "cwd": cwd.display().to_string(),
            "permission_mode": "default", "hook_event_name": "PermissionRequest", "tool_name": "Bash",
            "tool_input": {"command": command}, "permission_suggestions": []
        })
    };
    let out = hook(&socket, "claude-code", &bash("curl https://example.com", &inner)).await.unwrap();
    assert_eq!(out["hookSpecificOutput"]["decision"]["behavior"], "deny", "{out}");
    let write = |path: &Path| {
        json!({
            "session_id": "s", "transcript_path": "/t.jsonl", "cwd": project.display().to_string(),
            "permission_mode": "default", "hook_event_name": "PermissionRequest", "tool_name": "Write",
            "tool_input": {"file_path": path.display().to_string(), "content": "x"}, "permission_suggestions": []
        })
    };
    let allowed = |out: Option<Value>| out.is_some_and(|o| o["hookSpecificOutput"]["decision"]["behavior"] == "allow");
    assert!(allowed(hook(&socket, "claude-code", &write(&project.join("src/a.rs"))).await));
    assert!(
        !allowed(hook(&socket, "claude-code", &write(&d.path().join("outside.txt"))).await),
        "`../**` reaches outside"
    );
}
