//! `userq setup <agent>` on a temporary HOME, through the real binary: merged into the
//! user's settings, idempotent to the byte, `--dry-run` writes nothing, `--remove`
//! gives back the settings as they were (comments included), and files that are not
//! valid JSON or TOML are refused and left untouched.

mod common;

use std::path::{Path, PathBuf};

use common::process::*;
use serde_json::{json, Value};
use user_questions::agents::Agent;

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Self {
        Self { dir: tempfile::tempdir().unwrap() }
    }
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }
    fn write(&self, rel: &str, text: &str) {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap()
    }
    fn json(&self, rel: &str) -> Value {
        serde_json::from_str(&self.read(rel)).unwrap()
    }
    /// A stand-in for an agent's program in the home's bin, printing `version`.
    fn installed(&self, program: &str, version: &str) {
        let bin = self.path("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let path = bin.join(program);
        std::fs::write(&path, format!("#!/bin/sh\necho '{version}'\n")).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    async fn setup(&self, args: &[&str]) -> Output {
        let mut c = userq(Path::new("/nowhere.sock"));
        // Only the stand-ins a test puts in the home's bin are on PATH.
        c.env("HOME", self.dir.path()).env("PATH", self.path("bin")).env_remove("CODEX_HOME");
        c.current_dir(self.dir.path()).arg("setup").args(args);
        finish(c.spawn().unwrap()).await
    }
}

/// Setup's output when it changes nothing: which version it writes for, then that.
fn assert_unchanged(out: &Output) {
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(
        lines.len() == 2
            && lines[0].contains("the version this release was tested with")
            && lines[1].contains("nothing to change"),
        "setup twice changes nothing: {}",
        out.stdout
    );
}

fn userq_path() -> String {
    std::fs::canonicalize(env!("CARGO_BIN_EXE_userq")).unwrap().display().to_string()
}

const CLAUDE_SETTINGS: &str = r#"{
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit.sh"}]}]
    }
}
"#;

#[tokio::test]
async fn claude_code_merge_idempotence_dry_run_and_remove() {
    let home = Home::new();
    home.write(".claude/settings.json", CLAUDE_SETTINGS);
    let out = home.setup(&["claude-code", "--dry-run"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("would add the PermissionRequest hook"), "{}", out.stdout);
    assert!(!out.stdout.contains("now come to User Questions"), "a dry run does not claim it: {}", out.stdout);
    assert_eq!(home.read(".claude/settings.json"), CLAUDE_SETTINGS, "a dry run writes nothing");

    let out = home.setup(&["claude-code"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("claude mcp add user-questions --"), "{}", out.stdout);
    let command = format!("{} hook claude-code", userq_path());
    let handler = json!({"type": "command", "command": command, "timeout": 86400});
    let settings = home.json(".claude/settings.json");
    assert_eq!(settings["model"], "opus");
    assert_eq!(settings["permissions"], json!({"allow": ["Bash(npm test)"]}));
    assert_eq!(settings["hooks"]["PermissionRequest"], json!([{"hooks": [handler]}]));
    assert_eq!(
        settings["hooks"]["PreToolUse"],
        json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit.sh"}]},
               {"matcher": "^(AskUserQuestion|Bash|PowerShell|Edit|MultiEdit|Write|WebFetch|mcp__.*)$", "hooks": [handler]}])
    );
    assert_eq!(home.read(".claude/settings.json.bak"), CLAUDE_SETTINGS, "the original is kept once");
    assert!(!home.path(".claude.json").exists(), "Claude Code's own state file is not touched");

    let written = home.read(".claude/settings.json");
    let out = home.setup(&["claude-code"]).await;
    assert!(out.stdout.contains("nothing to change"), "{}", out.stdout);
    assert_eq!(home.read(".claude/settings.json"), written, "a second run changes no byte");

    let out = home.setup(&["claude-code", "--remove"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(home.read(".claude/settings.json"), CLAUDE_SETTINGS, "back as it was, byte for byte");
    assert!(!home.path(".claude/settings.json.bak").exists());
}

#[tokio::test]
async fn claude_code_remove_keeps_what_the_user_changed_since() {
    let home = Home::new();
    home.write(".claude/settings.json", CLAUDE_SETTINGS);
    home.setup(&["claude-code"]).await;
    let mut settings = home.json(".claude/settings.json");
    settings["model"] = "sonnet".into();
    home.write(".claude/settings.json", &serde_json::to_string_pretty(&settings).unwrap());
    home.setup(&["claude-code", "--remove"]).await;
    let mut expected: Value = serde_json::from_str(CLAUDE_SETTINGS).unwrap();
    expected["model"] = "sonnet".into();
    assert_eq!(home.json(".claude/settings.json"), expected);
}

#[tokio::test]
async fn a_file_setup_created_is_removed_and_project_settings_are_their_own() {
    let home = Home::new();
    home.setup(&["claude-code", "--project"]).await;
    assert!(home.path(".claude/settings.json").exists());
    let out = home.setup(&["claude-code", "--project", "--remove"]).await;
    assert!(out.stdout.contains("setup had created it"), "{}", out.stdout);
    assert!(!home.path(".claude/settings.json").exists());
    let out = home.setup(&["codex", "--project"]).await;
    assert_eq!(out.code, Some(2), "--project is for Claude Code only");
}

#[tokio::test]
async fn invalid_settings_are_refused_and_left_untouched() {
    let home = Home::new();
    home.write(".claude/settings.json", "{\"model\": \"opus\",}");
    let out = home.setup(&["claude-code"]).await;
    assert_eq!(out.code, Some(1));
    let path = home.path(".claude/settings.json").display().to_string();
    assert!(out.stderr.contains(&path) && out.stderr.contains("not valid JSON"), "{}", out.stderr);
    assert_eq!(home.read(".claude/settings.json"), "{\"model\": \"opus\",}");
    home.write(".codex/config.toml", "model = \"o3\n");
    let out = home.setup(&["codex"]).await;
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("config.toml") && out.stderr.contains("not valid TOML"), "{}", out.stderr);
    assert_eq!(home.read(".codex/config.toml"), "model = \"o3\n");
    assert!(!home.path(".codex/hooks.json").exists(), "nothing is written when any file is refused");
}

const CODEX_CONFIG: &str =
    "# my Codex settings\nmodel = \"gpt-5-codex\"   # the default\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n";

#[tokio::test]
async fn codex_keeps_comments_and_restores_them() {
    let home = Home::new();
    home.write(".codex/config.toml", CODEX_CONFIG);
    let out = home.setup(&["codex"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("/hooks"), "says how to trust the hook: {}", out.stdout);
    let config = home.read(".codex/config.toml");
    assert!(config.starts_with(CODEX_CONFIG), "the user's lines stay as they were:\n{config}");
    let doc: toml_edit::DocumentMut = config.parse().unwrap();
    let ours = &doc["mcp_servers"]["user-questions"];
    assert_eq!(ours["command"].as_str(), Some(userq_path().as_str()));
    assert_eq!(ours["args"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect::<Vec<_>>(), ["mcp"]);
    assert_eq!(ours["tool_timeout_sec"].as_integer(), Some(86400));
    let hooks = home.json(".codex/hooks.json");
    assert_eq!(
        hooks,
        json!({"hooks": {
            "PermissionRequest": [{"hooks": [{"type": "command",
                "command": format!("{} hook codex", userq_path()), "timeout": 86400}]}],
            // The policy's denies hold where Codex asks no one.
            "PreToolUse": [{"hooks": [{"type": "command",
                "command": format!("{} hook codex", userq_path()), "timeout": 60}]}],
            // A session's rules end with it, within the 3 seconds Codex allows.
            "SessionEnd": [{"hooks": [{"type": "command",
                "command": format!("{} hook codex", userq_path()), "timeout": 3}]}]}})
    );
    let (config_after, hooks_after) = (home.read(".codex/config.toml"), home.read(".codex/hooks.json"));
    home.setup(&["codex"]).await;
    assert_eq!((home.read(".codex/config.toml"), home.read(".codex/hooks.json")), (config_after, hooks_after));
    home.setup(&["codex", "--remove"]).await;
    assert_eq!(home.read(".codex/config.toml"), CODEX_CONFIG);
    assert!(!home.path(".codex/hooks.json").exists());
}

#[tokio::test]
async fn gemini_turns_hooks_on_and_back_off() {
    let home = Home::new();
    let original = "{\n  \"theme\": \"GitHub\",\n  \"hooksConfig\": {\n    \"enabled\": false\n  }\n}\n";
    home.write(".gemini/settings.json", original);
    let out = home.setup(&["gemini"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let settings = home.json(".gemini/settings.json");
    assert_eq!(settings["hooksConfig"]["enabled"], true);
    assert_eq!(settings["theme"], "GitHub");
    assert_eq!(
        settings["hooks"]["BeforeTool"],
        json!([{"matcher": "^(run_shell_command|write_file|replace)$", "hooks": [{"name": "user-questions",
            "type": "command", "command": format!("{} hook gemini", userq_path()), "timeout": 86400000}]}])
    );
    assert_eq!(
        settings["mcpServers"]["user-questions"],
        json!({"command": userq_path(), "args": ["mcp"], "timeout": 86400000})
    );
    // The policy allows exactly the tools the hook decides about, so Allow in User
    // Questions is the only question, and nothing else runs unasked.
    let policy: toml_edit::DocumentMut = home.read(".gemini/policies/user-questions.toml").parse().unwrap();
    let mut allowed: Vec<String> = Vec::new();
    for rule in policy["rule"].as_array_of_tables().unwrap() {
        assert_eq!(rule["decision"].as_str(), Some("allow"));
        match &rule["toolName"] {
            toml_edit::Item::Value(toml_edit::Value::Array(a)) => {
                allowed.extend(a.iter().map(|v| v.as_str().unwrap().to_owned()))
            }
            other => allowed.push(other.as_str().unwrap().to_owned()),
        }
    }
    allowed.sort();
    let matcher = settings["hooks"]["BeforeTool"][0]["matcher"].as_str().unwrap();
    let mut matched: Vec<&str> = matcher.trim_start_matches("^(").trim_end_matches(")$").split('|').collect();
    matched.sort();
    assert_eq!(allowed, matched);
    assert!(out.stdout.contains("user-questions.toml"), "{}", out.stdout);
    home.setup(&["gemini", "--remove"]).await;
    assert_eq!(home.read(".gemini/settings.json"), original);
    assert!(!home.path(".gemini/policies/user-questions.toml").exists());
}

#[test]
fn every_agent_is_named_and_worded_in_every_language() {
    for agent in Agent::ALL {
        assert_eq!(Agent::from_command_name(agent.name), Some(agent));
        for tag in ["en", "zh-CN"] {
            let ids = user_questions_i18n::ids(tag);
            assert!(ids.iter().any(|id| id == agent.setup_done), "{tag} has no {}", agent.setup_done);
        }
    }
}

#[tokio::test]
async fn copilot_gets_a_hooks_file_of_its_own_and_qwen_a_day_in_milliseconds() {
    let home = Home::new();
    let out = home.setup(&["copilot"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        home.json(".copilot/hooks/user-questions.json"),
        json!({"version": 1, "hooks": {
            "permissionRequest": [{"type": "command", "bash": format!("{} hook copilot", userq_path()), "timeoutSec": 86400}],
            // A session's rules end with it.
            "SessionEnd": [{"type": "command", "bash": format!("{} hook copilot", userq_path()), "timeoutSec": 30}]}})
    );
    assert_unchanged(&home.setup(&["copilot"]).await);
    home.setup(&["copilot", "--remove"]).await;
    assert!(!home.path(".copilot/hooks/user-questions.json").exists());

    let original = "{\n  \"model\": {\n    \"name\": \"qwen3-coder\"\n  }\n}\n";
    home.write(".qwen/settings.json", original);
    home.setup(&["qwen"]).await;
    let settings = home.json(".qwen/settings.json");
    let ours = json!([{"hooks": [{"type": "command", "command": format!("{} hook qwen", userq_path()), "timeout": 86400000}]}]);
    assert_eq!((&settings["hooks"]["PermissionRequest"], &settings["hooks"]["SessionEnd"]), (&ours, &ours));
    home.setup(&["qwen", "--remove"]).await;
    assert_eq!(home.read(".qwen/settings.json"), original);
}

/// Droid reads `~/.factory/hooks.json` first (its events replace the same events in
/// `settings.json`): setup writes there, beside the person's own hooks, and moves an
/// earlier setup's hook out of `settings.json`, whose bytes come back.
#[tokio::test]
async fn droid_gets_its_hook_in_hooks_json_and_an_earlier_one_moves_over() {
    let home = Home::new();
    let handler = json!({"type": "command", "command": format!("{} hook droid", userq_path()), "timeout": 86400});
    let ours = json!([{"matcher": "^(Execute|Edit|Create|ApplyPatch)$", "hooks": [handler]}]);
    // A session's rules end with it.
    let end = json!([{"hooks": [handler]}]);
    // The person's own hooks file, events at its top level, and their settings.
    let theirs = "{\n  \"PostToolUse\": [\n    {\n      \"matcher\": \"Edit\",\n      \"hooks\": [\n        {\n          \"type\": \"command\",\n          \"command\": \"prettier --write\"\n        }\n      ]\n    }\n  ]\n}\n";
    let settings = "{\n  \"model\": \"custom:mine\"\n}\n";
    home.write(".factory/hooks.json", theirs);
    home.write(".factory/settings.json", settings);
    // An earlier setup wrote its hook into settings.json (keeping a backup first).
    home.write(".factory/settings.json.bak", settings);
    let earlier = json!({"model": "custom:mine", "hooks": {"PreToolUse": ours}});
    home.write(".factory/settings.json", &format!("{}\n", serde_json::to_string_pretty(&earlier).unwrap()));

    let out = home.setup(&["droid"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let hooks = home.json(".factory/hooks.json");
    assert_eq!((&hooks["PreToolUse"], &hooks["SessionEnd"]), (&ours, &end), "{hooks}");
    assert_eq!(hooks["PostToolUse"], serde_json::from_str::<Value>(theirs).unwrap()["PostToolUse"]);
    assert!(hooks.get("hooks").is_none(), "events at the top level: {hooks}");
    assert_eq!(home.read(".factory/settings.json"), settings, "the earlier hook moved out");
    assert!(!home.path(".factory/settings.json.bak").exists());
    let written = home.read(".factory/hooks.json");
    assert_unchanged(&home.setup(&["droid"]).await);
    assert_eq!(home.read(".factory/hooks.json"), written);

    home.setup(&["droid", "--remove"]).await;
    assert_eq!(home.read(".factory/hooks.json"), theirs);
    assert_eq!(home.read(".factory/settings.json"), settings);

    // A Droid from before hooks.json gets its hook where it reads it.
    home.installed("droid", "0.120.0");
    home.setup(&["droid"]).await;
    assert_eq!(home.read(".factory/hooks.json"), theirs);
    assert_eq!(home.json(".factory/settings.json")["hooks"]["PreToolUse"], ours);
    home.setup(&["droid", "--remove"]).await;
    assert_eq!(home.read(".factory/settings.json"), settings);

    let fresh = Home::new();
    fresh.setup(&["droid"]).await;
    assert_eq!(fresh.json(".factory/hooks.json"), json!({"PreToolUse": ours, "SessionEnd": end}));
    assert!(!fresh.path(".factory/settings.json").exists());
    fresh.setup(&["droid", "--remove"]).await;
    assert!(!fresh.path(".factory/hooks.json").exists());
}

/// Antigravity's hooks file holds named hook sets; setup's is `user-questions`, beside
/// the person's own, which stay byte for byte.
#[tokio::test]
async fn antigravity_gets_a_named_hook_set_beside_the_persons_own() {
    let home = Home::new();
    // A file of the person's own, as Antigravity's hooks reference shows one.
    let theirs = "{\n  \"lint-checker\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"run_command\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"./scripts/lint.sh\",\n            \"timeout\": 10\n          }\n        ]\n      }\n    ]\n  }\n}\n";
    home.write(".gemini/config/hooks.json", theirs);
    let out = home.setup(&["antigravity"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let hooks = home.json(".gemini/config/hooks.json");
    assert_eq!(hooks["lint-checker"], serde_json::from_str::<Value>(theirs).unwrap()["lint-checker"]);
    assert_eq!(
        hooks["user-questions"],
        json!({"PreToolUse": [{
            "matcher": "^(run_command|write_to_file|replace_file_content|multi_replace_file_content)$",
            "hooks": [{"type": "command", "command": format!("{} hook antigravity", userq_path()), "timeout": 86400}]}]})
    );
    let written = home.read(".gemini/config/hooks.json");
    home.setup(&["antigravity"]).await;
    assert_eq!(home.read(".gemini/config/hooks.json"), written, "setup twice changes nothing");
    home.setup(&["antigravity", "--remove"]).await;
    assert_eq!(home.read(".gemini/config/hooks.json"), theirs);

    let fresh = Home::new();
    fresh.setup(&["antigravity"]).await;
    assert!(fresh.path(".gemini/config/hooks.json").exists());
    fresh.setup(&["antigravity", "--remove"]).await;
    assert!(!fresh.path(".gemini/config/hooks.json").exists());
}

#[tokio::test]
async fn cursor_gets_flat_handlers_beside_the_persons_own_and_a_version() {
    let home = Home::new();
    // A hooks file of the person's own, as Cursor's documentation shows one.
    let theirs = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [\n      {\n        \"command\": \"./hooks/format.sh\"\n      }\n    ]\n  }\n}\n";
    home.write(".cursor/hooks.json", theirs);
    let out = home.setup(&["cursor"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let ours = json!({"command": format!("{} hook cursor", userq_path()), "timeout": 86400});
    assert_eq!(
        home.json(".cursor/hooks.json"),
        json!({"version": 1, "hooks": {"afterFileEdit": [{"command": "./hooks/format.sh"}],
               "beforeShellExecution": [ours], "beforeMCPExecution": [ours],
               "sessionEnd": [{"command": format!("{} hook cursor", userq_path()), "timeout": 30}]}})
    );
    assert_unchanged(&home.setup(&["cursor"]).await);
    home.setup(&["cursor", "--remove"]).await;
    assert_eq!(home.read(".cursor/hooks.json"), theirs, "the person's file comes back as it was");

    // With no file before, setup writes the version Cursor requires, and removal
    // takes the whole file away again.
    std::fs::remove_file(home.path(".cursor/hooks.json")).unwrap();
    home.setup(&["cursor"]).await;
    assert_eq!(home.json(".cursor/hooks.json")["version"], 1);
    home.setup(&["cursor", "--remove"]).await;
    assert!(!home.path(".cursor/hooks.json").exists());
}

#[tokio::test]
async fn opencode_gets_a_plugin_of_its_own_that_runs_this_userq() {
    let home = Home::new();
    let out = home.setup(&["opencode"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let plugin = home.read(".config/opencode/plugins/user-questions.js");
    assert!(plugin.contains(&format!("const USERQ = {};", serde_json::to_string(&userq_path()).unwrap())), "{plugin}");
    assert_eq!(
        plugin.lines().filter(|l| l.starts_with("export ")).count(),
        1,
        "OpenCode takes every export for a plugin"
    );
    assert_unchanged(&home.setup(&["opencode"]).await);
    home.setup(&["opencode", "--remove"]).await;
    assert!(!home.path(".config/opencode/plugins/user-questions.js").exists());
}

/// `userq doctor` with `PATH` holding only a stand-in `claude` that prints a version.
async fn doctor(home: &Home, socket: &Path) -> (Option<i32>, Value) {
    home.installed("claude", "2.1.332 (Claude Code)");
    let bin = home.path("bin");
    let out = finish(
        userq(socket)
            .args(["doctor", "--json"])
            .env("HOME", home.dir.path())
            .env("PATH", &bin)
            .env_remove("CODEX_HOME")
            .env_remove("COPILOT_HOME")
            .spawn()
            .unwrap(),
    )
    .await;
    (out.code, serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout)))
}

#[tokio::test]
async fn doctor_finds_hooks_missing_current_and_stale_and_a_server_that_does_not_answer() {
    let home = Home::new();
    let (_d, socket) = temp_socket();
    let (code, report) = doctor(&home, &socket).await;
    assert_eq!(code, Some(1), "no server answers: {report}");
    assert_eq!(report["server"]["answers"], false);
    let agents = report["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 1, "only the agent on PATH: {report}");
    assert_eq!(agents[0]["agent"], "claude-code");
    assert_eq!(agents[0]["version"], "2.1.332 (Claude Code)");
    assert_eq!(agents[0]["hooks"], "absent");
    assert_eq!(agents[0]["tested"], Agent::from_command_name("claude-code").unwrap().tested.to_string());

    let _server = serve(&socket).await;
    home.setup(&["claude-code"]).await;
    let (code, report) = doctor(&home, &socket).await;
    assert_eq!((code, &report["agents"][0]["hooks"]), (Some(0), &json!("current")), "{report}");
    assert_eq!(report["server"]["answers"], true);

    // A hook left by another userq (an upgrade moved it): stale, and doctor says so.
    let settings = home.read(".claude/settings.json").replace(&userq_path(), "/opt/old/userq");
    home.write(".claude/settings.json", &settings);
    let (code, report) = doctor(&home, &socket).await;
    assert_eq!((code, &report["agents"][0]["hooks"]), (Some(1), &json!("stale")), "{report}");
}

#[tokio::test]
async fn claude_code_reviews_its_changes_on_stop_only_when_asked() {
    let home = Home::new();
    home.setup(&["claude-code"]).await;
    assert!(home.json(".claude/settings.json")["hooks"].get("Stop").is_none(), "opt-in");
    let out = home.setup(&["claude-code", "--review-changes"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        home.json(".claude/settings.json")["hooks"]["Stop"],
        json!([{"hooks": [{"type": "command", "command": format!("{} hook claude-code", userq_path()), "timeout": 86400}]}])
    );
    home.setup(&["claude-code", "--remove"]).await;
    assert_eq!(home.json(".claude/settings.json"), json!({}), "removal takes the review's hook out too");
    let out = home.setup(&["codex", "--review-changes"]).await;
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("--review-changes is for claude-code"), "{}", out.stderr);
}

/// Setup writes only the events the installed Claude Code knows (an older one stops at
/// start on a settings file naming one it does not), says which it left out, and takes
/// such a hook of its own out again after a downgrade.
#[tokio::test]
async fn claude_code_gets_only_the_events_its_version_knows() {
    let home = Home::new();
    let command = format!("{} hook claude-code", userq_path());
    home.installed("claude", "2.1.332 (Claude Code)");
    let out = home.setup(&["claude-code"]).await;
    assert!(
        out.stdout.starts_with("Claude Code 2.1.332 found (this release was tested with 2.1.332)."),
        "{}",
        out.stdout
    );
    assert!(home.json(".claude/settings.json")["hooks"].get("Elicitation").is_some());

    home.installed("claude", "2.1.50 (Claude Code)");
    let out = home.setup(&["claude-code"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.contains("Elicitation left out: Claude Code 2.1.50 does not know it (it came in 2.1.76)"),
        "{}",
        out.stdout
    );
    let hooks = home.json(".claude/settings.json")["hooks"].clone();
    assert_eq!(
        hooks.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["PermissionRequest", "PreToolUse", "SessionEnd"]
    );
    assert_eq!(hooks["PermissionRequest"][0]["hooks"][0]["command"], command.as_str());

    // On a fresh home, the older version never sees the event at all.
    let older = Home::new();
    older.installed("claude", "2.1.50 (Claude Code)");
    older.setup(&["claude-code"]).await;
    assert!(older.json(".claude/settings.json")["hooks"].get("Elicitation").is_none());
    // Before SessionEnd came (1.0.85), a session's rules have no end to hear.
    let oldest = Home::new();
    oldest.installed("claude", "1.0.60 (Claude Code)");
    oldest.setup(&["claude-code"]).await;
    assert!(oldest.json(".claude/settings.json")["hooks"].get("SessionEnd").is_none());
    older.setup(&["claude-code", "--remove"]).await;
    assert!(!older.path(".claude/settings.json").exists());
}

/// The version each agent says it was tested with is the one the tests install: the
/// pins of the agents' CLIs (Cursor and Antigravity, out of reach here, are tested
/// through their documented input).
#[test]
fn each_agent_was_tested_with_the_version_pinned_for_its_tests() {
    let pins: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("pins/agent-clis/package.json")).unwrap(),
    )
    .unwrap();
    let package = |agent: &str| match agent {
        "claude-code" => Some("@anthropic-ai/claude-code"),
        "codex" => Some("@openai/codex"),
        "gemini" => Some("@google/gemini-cli"),
        "copilot" => Some("@github/copilot"),
        "qwen" => Some("@qwen-code/qwen-code"),
        "droid" => Some("@factory/cli-linux-x64"),
        "opencode" => Some("opencode-ai"),
        _ => None,
    };
    let mut pinned = 0;
    for agent in Agent::ALL {
        if let Some(package) = package(agent.name) {
            assert_eq!(pins["dependencies"][package], agent.tested.to_string(), "{}", agent.name);
            pinned += 1;
        }
    }
    assert_eq!(pinned, 7);
}

/// An agent older than its hook event gets no hook, nor what goes with it: Gemini CLI
/// no policy that allows what the hook would decide, Copilot no hooks file, OpenCode
/// no plugin.
#[tokio::test]
async fn an_agent_older_than_its_hook_event_gets_neither_it_nor_what_goes_with_it() {
    let home = Home::new();
    home.installed("gemini", "0.25.0");
    let out = home.setup(&["gemini"]).await;
    assert!(
        out.stdout.contains("BeforeTool left out: Gemini CLI 0.25.0 does not know it (it came in 0.26.0)"),
        "{}",
        out.stdout
    );
    let settings = home.json(".gemini/settings.json");
    assert!(settings.get("hooks").is_none() && settings.get("hooksConfig").is_none(), "{settings}");
    assert!(settings["mcpServers"].get("user-questions").is_some(), "the MCP server works in any version: {settings}");
    assert!(!home.path(".gemini/policies/user-questions.toml").exists());
    // Upgraded, it gets all of it.
    home.installed("gemini", "0.61.0");
    home.setup(&["gemini"]).await;
    assert!(home.path(".gemini/policies/user-questions.toml").exists());
    assert!(home.json(".gemini/settings.json")["hooks"].get("BeforeTool").is_some());

    // Before events by PascalCase names, no SessionEnd.
    home.installed("copilot", "GitHub Copilot CLI 1.0.16");
    home.setup(&["copilot"]).await;
    assert_eq!(home.json(".copilot/hooks/user-questions.json")["hooks"].as_object().unwrap().len(), 1);
    home.setup(&["copilot", "--remove"]).await;
    home.installed("copilot", "GitHub Copilot CLI 1.0.11");
    let out = home.setup(&["copilot"]).await;
    assert!(out.stdout.contains("permissionRequest left out"), "{}", out.stdout);
    assert!(!home.path(".copilot/hooks/user-questions.json").exists());

    // OpenCode before the plugin form that serves both versions gets no plugin; 1.18.29,
    // and OpenCode 2, get it.
    let plugin = ".config/opencode/plugins/user-questions.js";
    home.installed("opencode", "1.18.20");
    let out = home.setup(&["opencode"]).await;
    assert!(
        out.stdout.contains("plugin left out: OpenCode 1.18.20 does not know it (it came in 1.18.29)"),
        "{}",
        out.stdout
    );
    assert!(!home.path(plugin).exists());
    for version in ["1.18.29", "2.0.22"] {
        home.installed("opencode", version);
        home.setup(&["opencode"]).await;
        assert!(home.read(plugin).contains("export default { id: \"user-questions\", setup, server }"), "{version}");
    }
}

#[tokio::test]
async fn kimi_code_gets_one_hooks_table_beside_the_persons_own_and_loses_it_on_removal() {
    let home = Home::new();
    let theirs = "# my hooks\n[[hooks]]\nevent = \"Notification\"\ncommand = \"notify-send done\"\n";
    home.write(".kimi-code/config.toml", theirs);
    let out = home.setup(&["kimi"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("Kimi Code's hooks can only refuse"), "{}", out.stdout);
    assert_eq!(
        home.read(".kimi-code/config.toml"),
        format!(
            "{theirs}\n[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"^(Bash|Write|Edit)$\"\ncommand = \"{} hook kimi\"\ntimeout = 30\n",
            userq_path()
        )
    );
    assert_unchanged(&home.setup(&["kimi"]).await);
    let out = home.setup(&["kimi", "--remove"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(home.read(".kimi-code/config.toml"), theirs);
}

#[tokio::test]
async fn kiro_cli_gets_an_agent_of_its_own_with_the_hook_and_loses_it_on_removal() {
    let home = Home::new();
    let file = ".kiro/agents/user-questions.json";
    let out = home.setup(&["kiro"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("kiro-cli settings chat.defaultAgent user-questions"), "{}", out.stdout);
    let agent: Value = serde_json::from_str(&home.read(file)).unwrap();
    let command = format!("{} hook kiro", userq_path());
    assert_eq!(agent["name"], "user-questions");
    assert_eq!(agent["tools"], json!(["*"]), "every tool, as Kiro CLI's own default agent");
    assert_eq!(
        agent["hooks"],
        json!({"preToolUse": [
            {"matcher": "execute_bash", "command": command, "timeout_ms": 30000},
            {"matcher": "fs_write", "command": command, "timeout_ms": 30000},
        ]})
    );
    assert_unchanged(&home.setup(&["kiro"]).await);
    let out = home.setup(&["kiro", "--remove"]).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(!home.path(file).exists());
}
