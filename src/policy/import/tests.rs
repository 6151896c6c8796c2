//! Each agent's own rules, read as its documentation says, and what is left out.

use std::path::Path;

use super::*;
use serde_json::json;

#[test]
fn claude_codes_rules_become_the_policys() {
    let settings = json!({"permissions": {
        "allow": ["Bash(npm run test:*)", "Bash(git status)", "Bash(cargo build *)", "Read(./docs/**)",
                  "Edit(//etc/app/**)", "WebFetch(domain:docs.rs)", "mcp__github__get_issue", "Bash(npm * --save)",
                  "Glob(*)", "Edit(/src/**)"],
        "deny": ["Bash(git push:*)", "Read(~/.ssh/**)", "mcp__db"]
    }});
    let imported = read("claude-code", Path::new("settings.json"), &settings.to_string(), None).unwrap();
    let shown: Vec<String> = imported
        .rules
        .iter()
        .map(|(v, e)| format!("{} {}", v.key(), toml_edit::ser::to_string(e).unwrap().trim().replace('\n', ", ")))
        .collect();
    assert_eq!(
        shown,
        [
            "allow command = \"npm run test\", from = \"claude-code\"",
            "allow command = \"git status\", exact = true, from = \"claude-code\"",
            "allow command = \"cargo build\", from = \"claude-code\"",
            "allow read = \"docs/**\", from = \"claude-code\"",
            "allow edit = \"/etc/app/**\", from = \"claude-code\"",
            "allow fetch = \"docs.rs\", from = \"claude-code\"",
            "allow mcp = \"github/get_issue\", from = \"claude-code\"",
            "deny command = \"git push\", reason = \"Bash(git push:*) is denied in Claude Code's settings\", from = \"claude-code\"",
            "deny read = \"~/.ssh/**\", reason = \"Read(~/.ssh/**) is denied in Claude Code's settings\", from = \"claude-code\"",
            "deny mcp = \"db\", reason = \"mcp__db is denied in Claude Code's settings\", from = \"claude-code\"",
        ]
    );
    let left: Vec<&str> = imported.left_out.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(left, ["Bash(npm * --save)", "Glob(*)", "Edit(/src/**)"]);
}

/// Each imported rule as `verdict entry`, and each rule left out with why.
fn shown(imported: &Imported) -> (Vec<String>, Vec<(String, LeftOut)>) {
    let rules = imported
        .rules
        .iter()
        .map(|(v, e)| {
            let e = Entry { from: None, ..e.clone() };
            format!("{} {}", v.key(), toml_edit::ser::to_string(&e).unwrap().trim().replace('\n', ", "))
        })
        .collect();
    (rules, imported.left_out.clone())
}

#[test]
fn codexs_prefix_rules_become_the_policys() {
    let text = r#"
# Written by Codex when the person chose "don't ask again".
prefix_rule(pattern=["cargo", "test"], decision="allow")
prefix_rule(pattern=["echo", "Hello, world!"], decision="allow")
prefix_rule(
    pattern = ["git", ["push", "reset"]],   # alternatives
    decision = "forbidden",
    justification = "history is rewritten only by people",
)
prefix_rule(pattern = ['npm', 'publish'], decision = "prompt", match = [["npm", "publish"]])
prefix_rule(pattern = ["ls", "*"])
network_rule(host="api.example.com", protocol="https", decision="allow", justification="Allow API calls")
host_executable(name = "git", paths = ["/usr/bin/git"])
prefix_rule(pattern = ["rm"], decision = "maybe")
"#;
    let imported = read("codex", Path::new("default.rules"), text, None).unwrap();
    let (rules, left) = shown(&imported);
    assert_eq!(
        rules,
        [
            "allow command = \"cargo test\"",
            "deny command = \"git push\", reason = \"history is rewritten only by people\"",
            "deny command = \"git reset\", reason = \"history is rewritten only by people\"",
            "ask command = \"npm publish\"",
            "allow fetch = \"api.example.com\"",
        ]
    );
    assert_eq!(
        left,
        [
            ("prefix_rule(pattern=[\"echo\", \"Hello, world!\"], decision=\"allow\")".into(), LeftOut::SpaceInWord),
            ("prefix_rule(pattern = [\"ls\", \"*\"])".into(), LeftOut::LiteralStar),
            ("host_executable(name = \"git\", paths = [\"/usr/bin/git\"])".into(), LeftOut::NoKind),
            ("prefix_rule(pattern = [\"rm\"], decision = \"maybe\")".into(), LeftOut::NotARule),
        ]
    );
    assert!(imported.rules.iter().all(|(_, e)| e.from.as_deref() == Some("codex")));
}

#[test]
fn a_codex_file_that_is_not_its_rules_is_named_with_its_line() {
    for (text, line) in [
        ("prefix_rule(pattern=[\"ls\"])\nx = 1\n", "line 2: expected `(`"),
        ("prefix_rule(pattern=[\"ls\"", "line 1: expected `]`"),
        ("prefix_rule(pattern=[\"ls\n\"])", "line 1: expected the string's closing quote"),
        ("def f():\n  pass", "line 1: expected `(`"),
    ] {
        let e = read("codex", Path::new("/home/me/.codex/rules/x.rules"), text, None).unwrap_err();
        assert_eq!(e.file, Path::new("/home/me/.codex/rules/x.rules"));
        assert!(e.why.starts_with(line), "{text:?}: {}", e.why);
    }
}

#[test]
fn gemini_clis_policy_files_and_settings_become_the_policys() {
    let policy = r#"
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git status", "npm test"]
decision = "allow"
priority = 950
modes = ["default", "autoEdit", "yolo"]

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "deny"
denyMessage = "pushes go through review"

[[rule]]
toolName = "run_shell_command"
commandRegex = "git (commit|push)"
decision = "allow"

[[rule]]
toolName = "write_file"
decision = "ask_user"

[[rule]]
mcpName = "github"
toolName = "get_issue"
decision = "allow"

[[rule]]
toolName = "run_shell_command"
decision = "allow"
modes = ["yolo"]

[[rule]]
toolName = "glob"
decision = "allow"
"#;
    let imported = read("gemini", Path::new("auto-saved.toml"), policy, Some("/home/me/api")).unwrap();
    let (rules, left) = shown(&imported);
    assert_eq!(
        rules,
        [
            "allow command = \"git status\", project = \"/home/me/api\"",
            "allow command = \"npm test\", project = \"/home/me/api\"",
            "deny command = \"git push\", project = \"/home/me/api\", reason = \"pushes go through review\"",
            "ask edit = \"/**\", project = \"/home/me/api\"",
            "allow mcp = \"github/get_issue\", project = \"/home/me/api\"",
        ]
    );
    let why: Vec<LeftOut> = left.iter().map(|(_, w)| *w).collect();
    assert_eq!(why, [LeftOut::Pattern, LeftOut::SomeModes, LeftOut::NoKind]);
    assert!(left[0].0.contains("git (commit|push)"), "{left:?}");

    let settings = r#"{
      // Gemini CLI's settings are JSON with comments.
      "tools": {"allowed": ["run_shell_command(cargo build)", "ShellTool(ls -la)", "read_file", "run_shell_command(rm *)"],
                "exclude": ["web_fetch"]}
    }"#;
    let imported = read("gemini", Path::new("settings.json"), settings, None).unwrap();
    let (rules, left) = shown(&imported);
    assert_eq!(
        rules,
        [
            "allow command = \"cargo build\"",
            "allow command = \"ls -la\"",
            "allow read = \"/**\"",
            "deny fetch = \"*\", reason = \"web_fetch is excluded in Gemini CLI's settings\"",
        ]
    );
    assert_eq!(left, [("run_shell_command(rm *)".to_owned(), LeftOut::LiteralStar)]);
}

#[test]
fn opencodes_permissions_become_the_policys() {
    let config = r#"{
      "$schema": "https://opencode.ai/config.json",
      "permission": {
        "edit": "allow",
        "webfetch": "ask",
        "bash": {"*": "ask", "git status": "allow", "git log *": "allow", "git push*": "deny",
                 "npm * --save": "allow", "ls ?": "allow", "*": "ask"},
        "external_directory": {"~/projects/**": "allow"},
        "read": {"*.env": "deny"},
      },
      "agent": {"plan": {"permission": {"edit": "deny"}}},
      "tools": {"write": false},
    }"#;
    let imported = read("opencode", Path::new("opencode.jsonc"), config, None).unwrap();
    let (rules, left) = shown(&imported);
    assert_eq!(
        rules,
        [
            "allow edit = \"/**\"",
            "allow command = \"git status\", exact = true",
            "allow command = \"git log\"",
            "deny command = \"git push*\", reason = \"bash `git push*` is denied in OpenCode's permissions\"",
            "deny edit = \"/**\", reason = \"write is turned off in OpenCode's settings\"",
        ]
    );
    let why: Vec<LeftOut> = left.iter().map(|(_, w)| *w).collect();
    assert_eq!(
        why,
        [
            LeftOut::Default,
            LeftOut::Default,
            LeftOut::SpansWords,
            LeftOut::OneCharacter,
            LeftOut::NoKind,
            LeftOut::WholeText,
            LeftOut::OneAgent
        ]
    );
}

#[test]
fn each_agents_files_are_found_where_it_keeps_them() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    for f in [".codex/rules/b.rules", ".codex/rules/a.rules", ".codex/rules/notes.txt", ".gemini/policies/p.toml"] {
        std::fs::create_dir_all(h.join(f).parent().unwrap()).unwrap();
        std::fs::write(h.join(f), "").unwrap();
    }
    let names = |agent| files(agent, h, None).iter().map(|f| f.strip_prefix(h).unwrap().to_owned()).collect::<Vec<_>>();
    assert_eq!(names("codex"), [Path::new(".codex/rules/a.rules"), Path::new(".codex/rules/b.rules")]);
    assert_eq!(names("gemini"), [Path::new(".gemini/policies/p.toml")]);
    assert!(names("opencode").is_empty());
}

#[test]
fn an_import_never_widens_nor_takes_this_products_own_file() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".claude")).unwrap();
    let settings = json!({"permissions": {
        "allow": ["Bash(git push:*)", "Bash(cargo test:*)"],
        "deny": ["Bash(git push * --force)"]
    }});
    std::fs::write(home.path().join(".claude/settings.json"), settings.to_string()).unwrap();
    let imported = all("claude-code", home.path(), None).unwrap();
    let commands: Vec<&str> = imported.rules.iter().filter_map(|(_, e)| e.command.as_deref()).collect();
    assert_eq!(commands, ["cargo test"], "the allow the left-out deny carved from is left out too");
    assert!(
        imported.left_out.iter().any(|(r, why)| r == "git push" && *why == LeftOut::Widens),
        "{:?}",
        imported.left_out
    );

    std::fs::create_dir_all(home.path().join(".gemini/policies")).unwrap();
    std::fs::write(home.path().join(".gemini/policies/user-questions.toml"), crate::agents::gemini::POLICY).unwrap();
    let imported = all("gemini", home.path(), None).unwrap();
    assert!(imported.rules.is_empty(), "setup's own policy is not the person's: {:?}", imported.rules);
}
