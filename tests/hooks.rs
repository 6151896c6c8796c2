//! `userq hook <agent>` as each agent runs it: the real binary fed the hook inputs the
//! agents' documentation shows, a real server, and a test answerer on the socket that
//! plays the person. Each test asserts the exact JSON the agent reads.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::process::*;
use common::*;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::process::Child;
use user_questions::review::plan;

/// A hook process fed `input` on stdin, which is then closed, as agents do.
async fn hook(socket: &Path, agent: &str, input: &Value) -> Child {
    let mut child = userq(socket).args(["hook", agent]).stdin(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.to_string().as_bytes()).await.unwrap();
    drop(stdin);
    child
}

/// The person: takes the next offer and holds it, to answer later; returns the offer.
async fn hold(person: &mut Peer) -> Value {
    let offer = person.expect("questions/offer").await;
    person.reply(&offer["id"], json!({"claim": true})).await;
    offer
}

/// The person: takes the next offer and answers it at once; returns the request.
async fn answer(person: &mut Peer, answer: Value) -> Value {
    let offer = person.expect("questions/offer").await;
    person.reply(&offer["id"], json!({"answer": answer})).await;
    offer["params"]["request"].clone()
}

fn item(id: &str, selected: &[&str], custom: Option<&str>) -> Value {
    let mut v = json!({"id": id, "selected": selected});
    if let Some(c) = custom {
        v["custom"] = c.into();
    }
    json!({"answers": [v]})
}

/// The person: takes the next offer and dismisses it, as the window's Dismiss does.
async fn dismiss(person: &mut Peer) {
    let offer = hold(person).await;
    let r = person
        .call(
            "questions/reject",
            json!({"ask": offer["params"]["ask"], "code": "ASK_CANCELLED", "message": "dismissed"}),
        )
        .await;
    assert_eq!(r["result"], json!({}));
}

/// What the hook printed, parsed, after it exited 0.
async fn decision(child: Child) -> Option<Value> {
    let out = finish(child).await;
    assert_eq!(out.code, Some(0), "stderr: {}", out.stderr);
    match out.stdout.trim() {
        "" => None,
        line => {
            assert_eq!(out.stdout.lines().count(), 1, "at most one JSON object: {}", out.stdout);
            Some(serde_json::from_str(line).unwrap())
        }
    }
}

fn bash_request() -> Value {
    json!({
        "session_id": "abc123",
        "transcript_path": "/home/me/.claude/projects/x/00893aaf.jsonl",
        "cwd": "/home/me/shop",
        "permission_mode": "default",
        "hook_event_name": "PermissionRequest",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf node_modules", "description": "Remove node_modules directory"},
        "permission_suggestions": [{
            "type": "addRules",
            "rules": [{"toolName": "Bash", "ruleContent": "rm -rf node_modules"}],
            "behavior": "allow",
            "destination": "localSettings"
        }]
    })
}

fn permission_output(decision: Value) -> Value {
    json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}})
}

#[tokio::test]
async fn claude_code_permission_request_for_bash() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;

    let child = hook(&socket, "claude-code", &bash_request()).await;
    let always = "Always allow Bash(rm -rf node_modules)";
    let request = answer(&mut person, item("permission", &[always], None)).await;
    let q = &request["questions"][0];
    assert_eq!(q["question"], "Run this command?");
    assert_eq!(q["header"], "Bash");
    // What it is about, for a door that offers to remember an Allow as rules.
    let action = json!({"command": "rm -rf node_modules"});
    let parts = json!([{"text": "rm -rf node_modules", "does": "deletes", "why": "no-rule"}]);
    // Its title as the product's message, for each door to word in its person's language.
    let title = json!({"message": "hook-run-command"});
    assert_eq!(
        q["intent"],
        json!({"kind": "permission", "approve": "Allow", "title": title, "action": action, "parts": parts})
    );
    assert_eq!(q["detail"], "```sh\nrm -rf node_modules\n```");
    let labels: Vec<&str> = q["options"].as_array().unwrap().iter().map(|o| o["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["Allow", always, "Deny"]);
    assert!(q["options"][1]["description"].as_str().unwrap().contains("this project, only you"), "{q}");
    assert!(q.get("multiSelect").is_none(), "single-select");
    assert_eq!(
        request["context"],
        json!({"project": "/home/me/shop", "session": "abc123", "source": "Claude Code",
               "description": "Remove node_modules directory"})
    );
    assert_eq!(request["agent"]["client"], "Claude Code");
    let suggestion = bash_request()["permission_suggestions"][0].clone();
    assert_eq!(
        decision(child).await,
        Some(permission_output(json!({"behavior": "allow", "updatedPermissions": [suggestion]})))
    );

    for (answer_given, expected) in [
        (item("permission", &["Allow"], None), Some(permission_output(json!({"behavior": "allow"})))),
        (
            item("permission", &["Deny"], None),
            Some(permission_output(json!({"behavior": "deny", "message": "The user denied this in User Questions."}))),
        ),
        (
            item("permission", &[], Some("use pnpm prune instead")),
            Some(permission_output(json!({"behavior": "deny", "message": "use pnpm prune instead"}))),
        ),
        (item("permission", &[], None), None),
    ] {
        let child = hook(&socket, "claude-code", &bash_request()).await;
        answer(&mut person, answer_given.clone()).await;
        assert_eq!(decision(child).await, expected, "for {answer_given}");
    }
}

#[tokio::test]
async fn claude_code_permission_request_for_an_edit_shows_its_diff() {
    let (dir, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let file = dir.path().join("app.py");
    std::fs::write(&file, "import os\n\ndef main():\n    print('hi')\n").unwrap();
    let input = json!({
        "session_id": "s1", "cwd": dir.path(), "hook_event_name": "PermissionRequest", "tool_name": "Edit",
        "tool_input": {"file_path": file, "old_string": "print('hi')", "new_string": "print('hello')", "replace_all": false}
    });
    let child = hook(&socket, "claude-code", &input).await;
    let request = answer(&mut person, item("permission", &["Allow"], None)).await;
    let q = &request["questions"][0];
    assert_eq!(q["question"], "Edit app.py?");
    let detail = q["detail"].as_str().unwrap();
    assert!(detail.starts_with("`app.py`\n\n```diff\n"), "{detail}");
    assert!(
        detail.contains("@@ -1,4 +1,4 @@\n import os\n \n def main():\n-    print('hi')\n+    print('hello')\n```"),
        "{detail}"
    );
    assert_eq!(decision(child).await, Some(permission_output(json!({"behavior": "allow"}))));
}

#[tokio::test]
async fn claude_code_ask_user_question() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let questions = json!([
        {"question": "Which framework?", "header": "Framework", "multiSelect": false,
         "options": [{"label": "React", "description": "The usual"}, {"label": "Vue"}]},
        {"question": "Which checks?", "header": "Checks", "multiSelect": true,
         "options": [{"label": "lint"}, {"label": "test"}, {"label": "types"}]}
    ]);
    let input = json!({"session_id": "s2", "cwd": "/p", "hook_event_name": "PreToolUse", "tool_name": "AskUserQuestion",
                       "tool_use_id": "toolu_1", "tool_input": {"questions": questions}});
    let child = hook(&socket, "claude-code", &input).await;
    let answers = json!({"answers": [
        {"id": "q1", "selected": [], "custom": "Svelte"},
        {"id": "q2", "selected": ["lint", "test"]}
    ]});
    let request = answer(&mut person, answers).await;
    assert_eq!(
        request["questions"],
        json!([
            {"id": "q1", "question": "Which framework?", "header": "Framework",
             "options": [{"label": "React", "description": "The usual"}, {"label": "Vue"}]},
            {"id": "q2", "question": "Which checks?", "header": "Checks", "multiSelect": true,
             "options": [{"label": "lint"}, {"label": "test"}, {"label": "types"}]}
        ])
    );
    assert_eq!(
        decision(child).await,
        Some(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
            "updatedInput": {"questions": questions,
                             "answers": {"Which framework?": "Svelte", "Which checks?": "lint, test"}}}}))
    );

    // One skipped question is left out; all skipped is a deny that lets Claude go on.
    let child = hook(&socket, "claude-code", &input).await;
    answer(&mut person, json!({"answers": [{"id": "q1", "selected": ["Vue"]}, {"id": "q2", "selected": []}]})).await;
    let out = decision(child).await.unwrap();
    assert_eq!(out["hookSpecificOutput"]["updatedInput"]["answers"], json!({"Which framework?": "Vue"}));
    let child = hook(&socket, "claude-code", &input).await;
    answer(&mut person, json!({"answers": [{"id": "q1", "selected": []}, {"id": "q2", "selected": []}]})).await;
    let out = decision(child).await.unwrap();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(out["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap().contains("chose not to answer"));
}

#[tokio::test]
async fn claude_code_plan_approval_on_both_events() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let tool_input = json!({"plan": "## Refactor auth\n1. Extract the session store", "planFilePath": "/home/me/.claude/plans/auth.md"});
    let pre = json!({"session_id": "s3", "cwd": "/p", "hook_event_name": "PreToolUse", "tool_name": "ExitPlanMode",
                     "tool_use_id": "toolu_2", "tool_input": tool_input});
    let child = hook(&socket, "claude-code", &pre).await;
    let request = answer(&mut person, item("plan", &["Approve"], None)).await;
    let q = &request["questions"][0];
    assert_eq!(q["intent"], json!({"kind": "plan-review", "approve": "Approve"}));
    assert!(q["detail"].as_str().unwrap().starts_with("## Refactor auth\n1. Extract the session store"));
    assert!(q["detail"].as_str().unwrap().contains("/home/me/.claude/plans/auth.md"));
    assert_eq!(
        decision(child).await,
        Some(
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": tool_input}})
        )
    );
    let child = hook(&socket, "claude-code", &pre).await;
    answer(&mut person, item("plan", &[], Some("Keep the old store behind a flag"))).await;
    assert_eq!(
        decision(child).await,
        Some(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                    "permissionDecisionReason": format!("{} The plan is in /home/me/.claude/plans/auth.md: edit it there.\n\nKeep the old store behind a flag", plan::REVISE_PREAMBLE)}}))
    );

    let mut perm = pre.clone();
    perm["hook_event_name"] = "PermissionRequest".into();
    perm.as_object_mut().unwrap().remove("tool_use_id");
    let child = hook(&socket, "claude-code", &perm).await;
    let request = answer(&mut person, item("plan", &["Approve and auto-accept edits"], None)).await;
    let labels: Vec<&str> =
        request["questions"][0]["options"].as_array().unwrap().iter().map(|o| o["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["Approve", "Approve and auto-accept edits", "Revise"]);
    assert_eq!(
        decision(child).await,
        Some(permission_output(json!({"behavior": "allow", "updatedInput": tool_input,
            "updatedPermissions": [{"type": "setMode", "mode": "acceptEdits", "destination": "session"}]})))
    );
    let child = hook(&socket, "claude-code", &perm).await;
    answer(&mut person, item("plan", &["Approve"], None)).await;
    assert_eq!(
        decision(child).await,
        Some(permission_output(json!({"behavior": "allow", "updatedInput": tool_input})))
    );
    let child = hook(&socket, "claude-code", &perm).await;
    answer(&mut person, item("plan", &["Revise"], None)).await;
    let out = decision(child).await.unwrap();
    assert_eq!(out["hookSpecificOutput"]["decision"]["behavior"], "deny");
    assert!(out["hookSpecificOutput"]["decision"]["message"].as_str().unwrap().contains("revise"), "{out}");

    // The window's texts: an approval with notes (and with edits accepted) allows with
    // the notes where the model reads them; a revision names the plan file.
    let notes = plan::feedback(Some("Approve and auto-accept edits"), &[], "Mind the TTL.").unwrap();
    let child = hook(&socket, "claude-code", &perm).await;
    answer(&mut person, item("plan", &[], Some(&notes))).await;
    let mut amended = tool_input.clone();
    amended["plan"] = format!("## Refactor auth\n1. Extract the session store\n\n---\n\n{notes}").into();
    assert_eq!(
        decision(child).await,
        Some(permission_output(json!({"behavior": "allow", "updatedInput": amended,
            "updatedPermissions": [{"type": "setMode", "mode": "acceptEdits", "destination": "session"}]})))
    );
    let notes = plan::feedback(Some("Approve"), &[], "Mind the TTL.").unwrap();
    let child = hook(&socket, "claude-code", &pre).await;
    answer(&mut person, item("plan", &[], Some(&notes))).await;
    assert_eq!(
        decision(child).await,
        Some(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                    "updatedInput": tool_input, "additionalContext": notes}}))
    );
    let revise = plan::feedback(None, &[], "Keep the old store.").unwrap();
    let child = hook(&socket, "claude-code", &perm).await;
    answer(&mut person, item("plan", &[], Some(&revise))).await;
    let out = decision(child).await.unwrap();
    assert_eq!(
        out["hookSpecificOutput"]["decision"]["message"],
        format!("{} The plan is in /home/me/.claude/plans/auth.md: edit it there.\n\nOn the whole plan:\n  Keep the old store.",
                plan::REVISE_PREAMBLE)
    );
}

fn elicitation(mode: Value) -> Value {
    let mut input = json!({
        "session_id": "abc123", "transcript_path": "/home/me/.claude/projects/x/0.jsonl", "cwd": "/home/me/shop",
        "permission_mode": "default", "hook_event_name": "Elicitation", "mcp_server_name": "deploy",
        "message": "Where should this go?"
    });
    input.as_object_mut().unwrap().extend(mode.as_object().unwrap().clone());
    input
}

fn elicitation_output(reply: Value) -> Value {
    let mut reply = reply;
    reply["hookEventName"] = "Elicitation".into();
    json!({"hookSpecificOutput": reply})
}

#[tokio::test]
async fn claude_code_elicitation_form_is_asked_checked_and_sent_typed() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let input = elicitation(json!({"mode": "form", "requested_schema": {
        "type": "object",
        "properties": {
            "region": {"type": "string", "title": "Region", "oneOf": [{"const": "eu-1", "title": "Europe"}, {"const": "us-1", "title": "America"}]},
            "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 5, "default": 2},
            "canary": {"type": "boolean", "title": "Canary first"}
        },
        "required": ["region"]
    }}));
    let sent = |replicas: &str| {
        json!({"answers": [
            {"id": "elicitation", "selected": ["Send"]},
            {"id": "region", "selected": ["Europe"]},
            {"id": "replicas", "selected": [], "custom": replicas},
            {"id": "canary", "selected": ["Yes"]}
        ]})
    };
    let child = hook(&socket, "claude-code", &input).await;
    let request = answer(&mut person, sent("9")).await;
    assert_eq!(request["context"]["source"], "Claude Code");
    assert_eq!(request["questions"][0]["header"], "deploy", "the server that asks is named");
    assert_eq!(request["questions"][0]["intent"]["kind"], "elicitation");
    assert_eq!(request["questions"][1]["options"], json!([{"label": "Europe"}, {"label": "America"}]));
    assert_eq!(request["questions"][0]["intent"]["defaults"]["replicas"]["custom"], "2", "the default is preselected");

    // 9 replicas is out of range: asked again, with the problem and what was typed.
    let again = answer(&mut person, sent("3")).await;
    assert!(again["questions"][2]["detail"].as_str().unwrap().starts_with("**Not sent:** “9” does not fit"));
    assert_eq!(again["questions"][0]["intent"]["defaults"]["replicas"]["custom"], "9");
    assert_eq!(
        decision(child).await,
        Some(elicitation_output(
            json!({"action": "accept", "content": {"region": "eu-1", "replicas": 3, "canary": true}})
        ))
    );

    // Decline, and a dismissal that is the server's cancel.
    let child = hook(&socket, "claude-code", &input).await;
    let skipped = |id: &str| json!({"id": id, "selected": []});
    let declined = json!({"answers": [{"id": "elicitation", "selected": ["Decline"]}, skipped("region"), skipped("replicas"), skipped("canary")]});
    answer(&mut person, declined).await;
    assert_eq!(decision(child).await, Some(elicitation_output(json!({"action": "decline"}))));
    let child = hook(&socket, "claude-code", &input).await;
    dismiss(&mut person).await;
    assert_eq!(decision(child).await, Some(elicitation_output(json!({"action": "cancel"}))));
}

#[tokio::test]
async fn claude_code_elicitation_url_is_shown_and_never_opened_unasked() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let input =
        elicitation(json!({"mode": "url", "url": "https://auth.example.com/login?s=1", "elicitation_id": "e-1"}));
    let child = hook(&socket, "claude-code", &input).await;
    let request = answer(&mut person, item("elicitation", &["Decline"], None)).await;
    let q = &request["questions"][0];
    assert_eq!(q["question"], "deploy asks you to open a page");
    assert!(q["detail"].as_str().unwrap().contains("**auth.example.com**"), "{q}");
    assert_eq!(decision(child).await, Some(elicitation_output(json!({"action": "decline"}))));

    // Open: the page goes to the person's browser (here a stand-in `xdg-open` that
    // notes what it was given), and the server is told yes.
    let bin = tempfile::tempdir().unwrap();
    let opened = bin.path().join("opened");
    let script = bin.path().join("xdg-open");
    std::fs::write(&script, format!("#!/bin/sh\necho \"$1\" > '{}'\n", opened.display())).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut child =
        userq(&socket).args(["hook", "claude-code"]).env("PATH", bin.path()).stdin(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.to_string().as_bytes()).await.unwrap();
    drop(stdin);
    answer(&mut person, item("elicitation", &["Open"], None)).await;
    assert_eq!(decision(child).await, Some(elicitation_output(json!({"action": "accept"}))));
    for _ in 0..500 {
        match std::fs::read_to_string(&opened) {
            Ok(seen) if seen.ends_with('\n') => return assert_eq!(seen.trim(), "https://auth.example.com/login?s=1"),
            _ => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    panic!("the page was never opened");
}

#[tokio::test]
async fn claude_code_elicitation_with_a_schema_it_cannot_read_is_left_to_claude() {
    let (_d, socket) = temp_socket();
    let input = elicitation(json!({"requested_schema": {"type": "object", "properties": {"who": {"type": "object"}}}}));
    let out = finish(hook(&socket, "claude-code", &input).await).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(1), ""));
    assert!(out.stderr.contains("requested_schema.properties.who is not a string, number"), "{}", out.stderr);
}

#[tokio::test]
async fn codex_permission_request() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let input = json!({
        "session_id": "019a-codex", "turn_id": "t1", "transcript_path": null, "cwd": "/home/me/api",
        "hook_event_name": "PermissionRequest", "model": "gpt-5-codex", "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "cargo publish"},
        "approval_context": {"sandbox_permissions": "require_escalated", "justification": "Publish the crate to crates.io"}
    });
    let child = hook(&socket, "codex", &input).await;
    let request = answer(&mut person, item("permission", &["Allow"], None)).await;
    let q = &request["questions"][0];
    assert_eq!(q["detail"], "```sh\ncargo publish\n```");
    // Codex's justification is the agent's own words on the request.
    assert_eq!(request["context"]["description"], "Publish the crate to crates.io");
    let labels: Vec<&str> = q["options"].as_array().unwrap().iter().map(|o| o["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["Allow", "Deny"]);
    assert_eq!(request["context"]["source"], "Codex");
    assert_eq!(decision(child).await, Some(permission_output(json!({"behavior": "allow"}))));
    let child = hook(&socket, "codex", &input).await;
    answer(&mut person, item("permission", &["Deny"], None)).await;
    assert_eq!(
        decision(child).await,
        Some(permission_output(json!({"behavior": "deny", "message": "The user denied this in User Questions."})))
    );
}

#[tokio::test]
async fn codex_patches_mcp_calls_and_network_access_read_as_what_they_do() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let request = |tool: &str, tool_input: Value| {
        json!({"session_id": "019a-codex", "turn_id": "t2", "cwd": "/home/me/api", "hook_event_name": "PermissionRequest",
               "model": "gpt-5.5", "permission_mode": "default", "tool_name": tool, "tool_input": tool_input})
    };
    // As Codex 0.171 sends them (the patch in `command`, an MCP tool by its full name,
    // network access as a Bash request with a `network-access` description).
    let patch = "*** Begin Patch\n*** Update File: /home/me/api/src/lib.rs\n@@ pub fn add\n-    a - b\n+    a + b\n*** End Patch";
    let cases = [
        (
            request("apply_patch", json!({"command": patch})),
            "Edit src/lib.rs?",
            "`src/lib.rs` (changed)\n\n```diff\n@@ pub fn add\n-    a - b\n+    a + b\n```",
        ),
        (
            request("mcp__github__merge_pull_request", json!({"number": 42})),
            "Use merge_pull_request from the MCP server github?",
            "MCP `github` · `merge_pull_request`\n\n```json\n{\n  \"number\": 42\n}\n```",
        ),
        (
            request(
                "Bash",
                json!({"command": "curl https://example.com:8443/x", "description": "network-access https://example.com:8443"}),
            ),
            "Allow network access to https://example.com:8443?",
            "`https://example.com:8443`\n\n```sh\ncurl https://example.com:8443/x\n```",
        ),
    ];
    for (input, title, detail) in cases {
        let child = hook(&socket, "codex", &input).await;
        let asked = answer(&mut person, item("permission", &["Allow"], None)).await;
        assert_eq!(asked["questions"][0]["question"], title);
        assert_eq!(asked["questions"][0]["detail"], detail);
        assert_eq!(decision(child).await, Some(permission_output(json!({"behavior": "allow"}))));
    }
}

#[tokio::test]
async fn copilot_permission_request_in_its_own_shapes() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    // As GitHub Copilot CLI 1.0 sends it: camelCase, the arguments as an object.
    let input = json!({"hookName": "permissionRequest", "sessionId": "96dc", "timestamp": 1796298925845u64,
                       "cwd": "/home/me/app", "toolName": "bash",
                       "toolInput": {"command": "rm -rf dist"}, "permissionSuggestions": []});
    let child = hook(&socket, "copilot", &input).await;
    let asked = answer(&mut person, item("permission", &["Allow"], None)).await;
    assert_eq!(asked["questions"][0]["question"], "Run this command?");
    assert_eq!(asked["questions"][0]["detail"], "```sh\nrm -rf dist\n```");
    assert_eq!(
        (asked["context"]["source"].as_str(), asked["context"]["project"].as_str()),
        (Some("GitHub Copilot CLI"), Some("/home/me/app"))
    );
    // Copilot reads the flat shape only.
    assert_eq!(decision(child).await, Some(json!({"behavior": "allow"})));
    let edit = json!({"hookName": "permissionRequest", "sessionId": "96dc", "cwd": "/home/me/app", "toolName": "edit",
                      "toolInput": {"path": "/home/me/app/a.txt", "old_str": "one", "new_str": "two"}});
    let child = hook(&socket, "copilot", &edit).await;
    let asked = answer(&mut person, item("permission", &[], Some("not that file"))).await;
    assert_eq!(asked["questions"][0]["question"], "Edit a.txt?");
    assert_eq!(decision(child).await, Some(json!({"behavior": "deny", "message": "not that file"})));
}

#[tokio::test]
async fn cursor_shell_and_mcp_calls_in_its_own_shapes() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    // As Cursor's hooks documentation shows them: the common fields, then the event's.
    let common = json!({"conversation_id": "c-77", "generation_id": "g-1", "model": "auto", "cursor_version": "3.21.16",
                        "workspace_roots": ["/home/me/site"], "user_email": null, "transcript_path": null});
    let with = |fields: Value| {
        let mut input = common.clone();
        input.as_object_mut().unwrap().extend(fields.as_object().unwrap().clone());
        input
    };
    let shell =
        with(json!({"hook_event_name": "beforeShellExecution", "command": "npm publish", "cwd": "", "sandbox": false}));
    let child = hook(&socket, "cursor", &shell).await;
    let asked = answer(&mut person, item("permission", &["Allow"], None)).await;
    assert_eq!(asked["questions"][0]["question"], "Run this command?");
    assert_eq!(asked["questions"][0]["detail"], "```sh\nnpm publish\n```");
    assert_eq!(asked["context"], json!({"project": "/home/me/site", "session": "c-77", "source": "Cursor"}));
    assert_eq!(decision(child).await, Some(json!({"permission": "allow"})));

    let mcp = with(json!({"hook_event_name": "beforeMCPExecution", "tool_name": "create_issue",
                          "tool_input": "{\"title\":\"Flaky test\"}", "url": "https://mcp.example.com/mcp"}));
    let child = hook(&socket, "cursor", &mcp).await;
    let asked = answer(&mut person, item("permission", &[], Some("not on the public tracker"))).await;
    assert_eq!(asked["questions"][0]["question"], "Use create_issue from the MCP server https://mcp.example.com/mcp?");
    assert!(asked["questions"][0]["detail"].as_str().unwrap().contains("Flaky test"));
    assert_eq!(
        decision(child).await,
        Some(json!({"permission": "deny", "user_message": "not on the public tracker",
                    "agent_message": "not on the public tracker"}))
    );

    // Events it takes no part in get no output, and nothing is asked.
    let edit = with(json!({"hook_event_name": "afterFileEdit", "file_path": "/home/me/site/a.md", "edits": []}));
    assert_eq!(decision(hook(&socket, "cursor", &edit).await).await, None);
}

#[tokio::test]
async fn opencode_permission_asked_offers_always_and_a_plain_deny_is_its_reject() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    // As the plugin hands it on: OpenCode 1.18's `permission.asked` properties, the
    // event's type and the session's folder.
    let bash = json!({"hook_event_name": "permission.asked", "directory": "/home/me/site",
                      "id": "per_1", "sessionID": "ses_9", "permission": "bash", "patterns": ["git push"],
                      "metadata": {"command": "git push"}, "always": ["git push *"],
                      "tool": {"messageID": "msg_1", "callID": "call_1"}});
    let child = hook(&socket, "opencode", &bash).await;
    let asked = answer(&mut person, item("permission", &["Always allow git push *"], None)).await;
    let labels: Vec<&str> =
        asked["questions"][0]["options"].as_array().unwrap().iter().map(|o| o["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["Allow", "Always allow git push *", "Deny"]);
    assert_eq!(asked["context"], json!({"project": "/home/me/site", "session": "ses_9", "source": "OpenCode"}));
    assert_eq!(decision(child).await, Some(json!({"reply": "always"})));

    let child = hook(&socket, "opencode", &bash).await;
    answer(&mut person, item("permission", &["Deny"], None)).await;
    assert_eq!(decision(child).await, Some(json!({"reply": "reject"})), "OpenCode's own Reject: the agent stops");

    let edit = json!({"hook_event_name": "permission.asked", "directory": "/home/me/site", "id": "per_2",
                      "sessionID": "ses_9", "permission": "edit", "patterns": ["src/a.ts"], "always": ["*"],
                      "metadata": {"filepath": "/home/me/site/src/a.ts", "diff": "@@ -1 +1 @@\n-a\n+b\n"}});
    let child = hook(&socket, "opencode", &edit).await;
    let asked = answer(&mut person, item("permission", &[], Some("keep a"))).await;
    assert_eq!(asked["questions"][0]["question"], "Edit src/a.ts?");
    assert_eq!(asked["questions"][0]["detail"], "```diff\n@@ -1 +1 @@\n-a\n+b\n```");
    assert_eq!(decision(child).await, Some(json!({"reply": "reject", "message": "keep a"})));
}

/// OpenCode 2's `PermissionEvaluation` (its v2 plugin reference, `build/plugins/index.mdx`)
/// as the plugin hands it on: an edit names its file, and a plain Deny still tells the
/// agent that the person said no.
#[tokio::test]
async fn opencode_2_permission_evaluate_answers_with_an_effect() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let edit = json!({"hook_event_name": "permission.evaluate", "directory": "/home/me/site", "sessionID": "ses_9",
                      "action": "edit", "resources": ["/home/me/site/src/a.ts"], "metadata": {"files": []}});
    let child = hook(&socket, "opencode", &edit).await;
    let asked = answer(&mut person, item("permission", &["Deny"], None)).await;
    assert_eq!(asked["questions"][0]["question"], "Edit src/a.ts?");
    let labels: Vec<&str> =
        asked["questions"][0]["options"].as_array().unwrap().iter().map(|o| o["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["Allow", "Deny"], "the evaluate hook has no \"always\"");
    let denied = decision(child).await.unwrap();
    assert_eq!(denied["effect"], "deny");
    assert!(denied["message"].as_str().unwrap().contains("denied"), "{denied}");
}

#[tokio::test]
async fn qwen_permission_request_names_its_tools() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let input = json!({"session_id": "5e81", "cwd": "/home/me/app", "hook_event_name": "PermissionRequest",
                       "permission_mode": "default", "tool_name": "run_shell_command",
                       "tool_input": {"command": "npm publish", "description": "Publish"}});
    let child = hook(&socket, "qwen", &input).await;
    let asked = answer(&mut person, item("permission", &["Allow"], None)).await;
    assert_eq!(asked["questions"][0]["question"], "Run this command?");
    assert_eq!(asked["questions"][0]["detail"], "```sh\nnpm publish\n```");
    assert_eq!(asked["context"]["description"], "Publish");
    assert_eq!(asked["context"]["source"], "Qwen Code");
    assert_eq!(decision(child).await, Some(permission_output(json!({"behavior": "allow"}))));
}

#[tokio::test]
async fn droid_pre_tool_use_asks_where_droid_would() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    // As droid exec 0.225 sends it.
    let input = |mode: &str, risk: &str| {
        json!({"session_id": "38d6", "cwd": "/home/me/app", "permission_mode": mode, "hook_event_name": "PreToolUse",
               "tool_name": "Execute", "tool_input": {"summary": "Install the deps", "command": "npm install",
               "riskLevelReason": "Changes node_modules", "riskLevel": risk}})
    };
    let child = hook(&socket, "droid", &input("auto-low", "medium")).await;
    let asked = answer(&mut person, item("permission", &[], Some("use pnpm"))).await;
    assert_eq!(asked["questions"][0]["detail"], "```sh\nnpm install\n```");
    assert_eq!(asked["context"]["description"], "Install the deps — Changes node_modules");
    assert_eq!(asked["context"]["source"], "Factory Droid");
    assert_eq!(
        decision(child).await,
        Some(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                    "permissionDecisionReason": "use pnpm"}}))
    );
    // What Droid's autonomy lets through is not asked about: no question, no output.
    let out = finish(hook(&socket, "droid", &input("auto-low", "low")).await).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
}

/// Antigravity CLI's PreToolUse, as its hooks reference (`agy-customizations`
/// `docs/hooks.md`, agy 1.0.16) shows it: camelCase, the tool as `toolCall`, no event
/// name; answered with a flat `decision`. It denies on a failing hook and runs the
/// tool on silence, so every way of taking no decision is its own `ask`, with exit 0.
#[tokio::test]
async fn antigravity_pre_tool_use() {
    let (_d, socket) = temp_socket();
    let input = json!({
        "conversationId": "ec33ebf9-0cba-4100-8142-c61503f6c587", "workspacePaths": ["/home/me/site"],
        "transcriptPath": "/home/me/site/.gemini/antigravity-cli/transcript.jsonl",
        "artifactDirectoryPath": "/home/me/site/.gemini/antigravity-cli/artifacts", "modelName": "auto",
        "toolCall": {"name": "run_command", "args": {"CommandLine": "npm test", "Cwd": "/home/me/site/web"}},
        "stepIdx": 19
    });
    let ask = |out: &Output| -> Value { serde_json::from_str::<Value>(&out.stdout).unwrap()["decision"].clone() };
    // No server: Antigravity's own prompt asks.
    let out = finish(hook(&socket, "antigravity", &input).await).await;
    assert_eq!((out.code, ask(&out)), (Some(0), json!("ask")), "{}", out.stderr);
    // Input that is not Antigravity's: the same, never a deny by exit status.
    let out = finish(hook(&socket, "antigravity", &json!({"toolCall": null})).await).await;
    assert_eq!((out.code, ask(&out)), (Some(0), json!("ask")), "{}", out.stderr);
    assert!(out.stderr.contains("the PreToolUse hook input has no toolCall"), "{}", out.stderr);

    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let child = hook(&socket, "antigravity", &input).await;
    let request = answer(&mut person, item("permission", &["Allow"], None)).await;
    assert_eq!(request["questions"][0]["detail"], "```sh\nnpm test\n```");
    assert_eq!(request["questions"][0]["header"], "run_command");
    assert_eq!(
        request["context"],
        json!({"project": "/home/me/site/web", "session": "ec33ebf9-0cba-4100-8142-c61503f6c587",
               "source": "Antigravity CLI"})
    );
    assert_eq!(decision(child).await, Some(json!({"decision": "allow"})));
    let child = hook(&socket, "antigravity", &input).await;
    answer(&mut person, item("permission", &[], Some("run the unit tests only"))).await;
    assert_eq!(decision(child).await, Some(json!({"decision": "deny", "reason": "run the unit tests only"})));
    let child = hook(&socket, "antigravity", &input).await;
    dismiss(&mut person).await;
    assert_eq!(decision(child).await.unwrap()["decision"], "ask");
    // A file written is shown as its diff.
    let write = json!({"conversationId": "c", "workspacePaths": ["/home/me/site"],
                       "toolCall": {"name": "write_to_file", "args": {"TargetFile": "/home/me/site/NOTES.md",
                                                                       "CodeContent": "# Notes\n"}}});
    let child = hook(&socket, "antigravity", &write).await;
    let request = answer(&mut person, item("permission", &["Allow"], None)).await;
    assert_eq!(request["questions"][0]["question"], "Write NOTES.md?");
    assert!(request["questions"][0]["detail"].as_str().unwrap().contains("+# Notes"), "{request}");
    assert_eq!(decision(child).await, Some(json!({"decision": "allow"})));
}

#[tokio::test]
async fn gemini_before_tool() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let input = json!({
        "session_id": "g1", "transcript_path": "/t.json", "cwd": "/home/me/site", "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-01T10:00:00Z", "tool_name": "run_shell_command",
        "tool_input": {"command": "npm run deploy", "description": "Deploy the site"}
    });
    let child = hook(&socket, "gemini", &input).await;
    let request = answer(&mut person, item("permission", &["Allow"], None)).await;
    assert_eq!(request["questions"][0]["detail"], "```sh\nnpm run deploy\n```");
    assert_eq!(request["context"]["description"], "Deploy the site");
    assert_eq!(request["context"]["source"], "Gemini CLI");
    assert_eq!(decision(child).await, Some(json!({"decision": "allow"})));
    let child = hook(&socket, "gemini", &input).await;
    answer(&mut person, item("permission", &[], Some("not on a Friday"))).await;
    assert_eq!(decision(child).await, Some(json!({"decision": "deny", "reason": "not on a Friday"})));

    // Gemini CLI reads silence as allow (its policy, written by setup, allows these
    // tools): no decision is "ask", which brings up Gemini CLI's own prompt.
    let child = hook(&socket, "gemini", &input).await;
    dismiss(&mut person).await;
    let ask = decision(child).await.unwrap();
    assert_eq!(ask["decision"], "ask", "{ask}");
    assert!(ask["systemMessage"].as_str().unwrap().contains("dismissed"), "{ask}");
    let (_d, nobody) = temp_socket();
    let out = finish(hook(&nobody, "gemini", &input).await).await;
    assert_eq!(out.code, Some(0));
    let ask: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(ask["decision"], "ask", "{ask}");
    assert!(ask["systemMessage"].as_str().unwrap().contains("no user-questions server"), "{ask}");
}

#[tokio::test]
async fn a_hook_the_agent_ends_withdraws_its_question() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    // Ended by a signal.
    let child = hook(&socket, "claude-code", &bash_request()).await;
    let offer = hold(&mut person).await;
    signal(&child, libc::SIGTERM);
    let withdraw = person.expect("questions/withdraw").await;
    assert_eq!(withdraw["params"]["ask"], offer["params"]["ask"]);
    assert_eq!(decision(child).await, None);
    // The agent's own prompt decides it now, and the history says so.
    let out = finish(userq(&socket).args(["history", "--json"]).spawn().unwrap()).await;
    let record: Value = serde_json::from_str(out.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(record["answeredBy"], "agent-prompt", "{record}");
    // Ended by closing the pipe it writes its decision to.
    let mut child = hook(&socket, "claude-code", &bash_request()).await;
    let offer = hold(&mut person).await;
    drop(child.stdout.take());
    let withdraw = person.expect("questions/withdraw").await;
    assert_eq!(withdraw["params"]["ask"], offer["params"]["ask"]);
    let out = finish(child).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

#[tokio::test]
async fn a_dismissal_is_no_decision() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let child = hook(&socket, "claude-code", &bash_request()).await;
    let offer = hold(&mut person).await;
    let r = person
        .call(
            "questions/reject",
            json!({"ask": offer["params"]["ask"], "code": "ASK_CANCELLED",
                                         "message": "the user cancelled ask_user_question"}),
        )
        .await;
    assert_eq!(r["result"], json!({}));
    let out = finish(child).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
    assert!(out.stderr.contains("dismissed"), "{}", out.stderr);
}

#[tokio::test]
async fn hooks_never_break_their_agent() {
    let (_d, socket) = temp_socket();
    // No server: one line on stderr, no decision, exit 0.
    let out = finish(hook(&socket, "claude-code", &bash_request()).await).await;
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""));
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("no user-questions server"), "{}", out.stderr);
    // Events and tools a hook leaves alone: nothing at all.
    for input in [
        json!({"hook_event_name": "Stop", "session_id": "s"}),
        json!({"hook_event_name": "Notification", "message": "waiting"}),
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
    ] {
        let out = finish(hook(&socket, "claude-code", &input).await).await;
        assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (Some(0), "", ""), "{input}");
    }
    // Input that is not the agent's JSON: one line on stderr, exit 1, never 2.
    let cases: [(&[u8], &str); 4] = [
        (b"not json", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b"{\"tool_name\": \"Bash\"}", "no hook_event_name"),
        (b"{\"hook_event_name\": \"PermissionRequest\", \"tool_name\": \"Bash\"}", "no tool_input"),
    ];
    for agent in ["claude-code", "codex", "gemini", "qwen"] {
        for (raw, why) in cases {
            let mut child = userq(&socket).args(["hook", agent]).stdin(Stdio::piped()).spawn().unwrap();
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(raw).await.unwrap();
            drop(stdin);
            let out = finish(child).await;
            let raw = String::from_utf8_lossy(raw);
            if agent == "gemini" && raw.contains("PermissionRequest") {
                assert_eq!(out.code, Some(0), "an event Gemini's hook leaves alone");
                continue;
            }
            if agent == "codex" && !raw.contains("PermissionRequest") && raw.starts_with('{') {
                assert_eq!(out.code, Some(1), "{agent} {raw}: {}", out.stderr);
            }
            assert_eq!(out.code, Some(1), "{agent} {raw}: {}", out.stderr);
            if agent == "gemini" {
                // Gemini CLI reads text that is not JSON as allow: the hook says "ask".
                let ask: Value = serde_json::from_str(&out.stdout).unwrap();
                assert_eq!(ask["decision"], "ask", "{ask}");
            } else {
                assert_eq!(out.stdout, "");
            }
            assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
            assert!(out.stderr.contains(why), "{agent} {raw}: {}", out.stderr);
        }
    }
}

#[tokio::test]
async fn parallel_hooks_are_each_their_own_ask() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut person = answerer(&socket, json!("agents")).await;
    let mut children = Vec::new();
    for command in ["echo one", "echo two", "echo three"] {
        let mut input = bash_request();
        input["tool_input"]["command"] = command.into();
        children.push((command, hook(&socket, "claude-code", &input).await));
    }
    let mut offers = Vec::new();
    for _ in 0..3 {
        offers.push(hold(&mut person).await);
    }
    let agents: std::collections::HashSet<_> =
        offers.iter().map(|o| o["params"]["request"]["agent"]["id"].clone()).collect();
    assert_eq!(agents.len(), 3, "one agent each, though one session");
    // Answered in reverse order: each hook gets its own answer.
    for offer in offers.iter().rev() {
        let detail = offer["params"]["request"]["questions"][0]["detail"].as_str().unwrap().to_owned();
        let choice = if detail.contains("echo two") { "Deny" } else { "Allow" };
        let r = person
            .call(
                "questions/answer",
                json!({"ask": offer["params"]["ask"], "answer": item("permission", &[choice], None)}),
            )
            .await;
        assert_eq!(r["result"], json!({}), "{r}");
    }
    for (command, child) in children {
        let behavior = decision(child).await.unwrap()["hookSpecificOutput"]["decision"]["behavior"].clone();
        assert_eq!(behavior, if command == "echo two" { "deny" } else { "allow" }, "{command}");
    }
}

#[tokio::test]
async fn no_decision_comes_quickly_enough_for_the_agent_to_take_over() {
    // The bound is generous: the promise is "within a second", and this guards the
    // path that has no server against waiting out the restart patience.
    let (_d, socket) = temp_socket();
    let started = std::time::Instant::now();
    let out = finish(
        hook(
            &socket,
            "codex",
            &json!({"hook_event_name": "PermissionRequest", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "cwd": "/"}),
        )
        .await,
    )
    .await;
    assert_eq!(out.code, Some(0));
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
}

/// Several permission requests of several agents answered at once in a terminal,
/// wherever they are held (here by a window-like answerer): each one named gets its
/// answer and its holder takes it down, the one not named keeps waiting, the history
/// says the terminal decided, and nothing is remembered. A batch with one id that is
/// not a pending permission sends nothing at all.
#[tokio::test]
async fn several_permissions_are_answered_at_once_from_a_terminal() {
    let (_d, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut window = answerer(&socket, json!("any")).await;
    let (mut hooks, mut ids) = (Vec::new(), Vec::new());
    for (session, cwd, command) in
        [("s1", "/home/me/shop", "make a"), ("s2", "/home/me/api", "make b"), ("s3", "/x", "make c")]
    {
        let mut input = bash_request();
        input["session_id"] = json!(session);
        input["cwd"] = json!(cwd);
        input["tool_input"]["command"] = json!(command);
        hooks.push(hook(&socket, "claude-code", &input).await);
        ids.push(hold(&mut window).await["params"]["ask"].as_str().unwrap().to_owned());
    }
    let mut asker = Peer::connect(&socket).await;
    asker.call("initialize", json!({"protocolVersion": 1, "client": {"name": "t", "version": "1"}})).await;
    asker.start("ask", json!({"questions": [question("plain")]})).await;
    let plain = hold(&mut window).await["params"]["ask"].as_str().unwrap().to_owned();
    let answer_cli = |args: Vec<String>| {
        let mut c = userq(&socket);
        c.arg("answer").args(args);
        async move { finish(c.spawn().unwrap()).await }
    };

    // Nothing is sent when one id is not a pending permission, or is named twice.
    for (args, why) in [
        (vec!["--allow".into(), ids[0].clone(), plain.clone()], format!("{plain} is not a permission request")),
        (vec!["--allow".into(), ids[0].clone(), "a999".into()], "a999 is not a pending question".into()),
        (vec!["--allow".into(), ids[0].clone(), "--deny".into(), ids[0].clone()], "both allowed and denied".into()),
    ] {
        let out = answer_cli(args).await;
        assert_ne!(out.code, Some(0));
        assert!(out.stderr.contains(&why) && out.stderr.contains("nothing was sent"), "{}", out.stderr);
    }
    assert!(window.try_recv(Duration::from_millis(200)).await.is_none(), "nothing reached the holder");

    let args =
        vec!["--allow".into(), ids[0].clone(), "--deny".into(), ids[1].clone(), "--reason".into(), "not now".into()];
    let out = answer_cli(args).await;
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        out.stdout.lines().collect::<Vec<_>>(),
        [
            format!("allow {}: Claude Code · shop · session s1 · Run this command? · make a", ids[0]),
            format!("deny  {}: Claude Code · api · session s2 · Run this command? · make b", ids[1]),
        ]
    );
    let mut hooks = hooks.into_iter();
    let allowed = decision(hooks.next().unwrap()).await.unwrap();
    assert_eq!(allowed["hookSpecificOutput"]["decision"], json!({"behavior": "allow"}));
    let denied = decision(hooks.next().unwrap()).await.unwrap();
    assert_eq!(denied["hookSpecificOutput"]["decision"], json!({"behavior": "deny", "message": "not now"}));
    for _ in 0..2 {
        let withdrawn = window.expect("questions/withdraw").await;
        assert!(ids[..2].contains(&withdrawn["params"]["ask"].as_str().unwrap().to_owned()), "{withdrawn}");
    }
    let out = finish(userq(&socket).args(["pending", "--json"]).spawn().unwrap()).await;
    let pending: Value = serde_json::from_str(&out.stdout).unwrap();
    let waiting: Vec<&str> =
        pending["pending"].as_array().unwrap().iter().map(|p| p["ask"].as_str().unwrap()).collect();
    assert_eq!(waiting, [ids[2].as_str(), plain.as_str()], "the rest keep waiting");
    let out = finish(userq(&socket).args(["history", "--json"]).spawn().unwrap()).await;
    let by: Vec<Value> =
        out.stdout.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()["answeredBy"].clone()).collect();
    // Newest first: the two answered are the oldest.
    assert_eq!(by, [Value::Null, Value::Null, json!("terminal"), json!("terminal")], "{}", out.stdout);
    assert!(!config_dir(&socket).join("rules.toml").exists(), "nothing remembered");
}

/// A permission that reaches the person says what each part of it would do and why it
/// reached them: the readings travel in the question's intent, and `userq pending`
/// words them in the person's language.
#[tokio::test]
async fn a_permission_carries_what_each_part_does_and_why_it_is_asked() {
    let (_d, socket) = temp_socket();
    std::fs::create_dir_all(config_dir(&socket)).unwrap();
    std::fs::write(config_dir(&socket).join("rules.toml"), "[[allow]]\nread-only = true\n").unwrap();
    let _server = serve(&socket).await;
    let mut window = answerer(&socket, json!("agents")).await;
    let mut input = bash_request();
    input["tool_input"]["command"] = json!("cat README.md | head -3 && sudo rm -rf /var/cache/x > /tmp/log");
    let child = hook(&socket, "claude-code", &input).await;
    let offer = hold(&mut window).await;
    let parts = &offer["params"]["request"]["questions"][0]["intent"]["parts"];
    assert_eq!(
        parts,
        &json!([
            {"text": "cat README.md", "does": "reads", "why": "allowed", "rule": "allow read-only"},
            {"text": "head -3", "does": "reads", "why": "allowed", "rule": "allow read-only"},
            {"text": "sudo rm -rf /var/cache/x", "does": "root", "why": "no-rule"},
            {"text": "> /tmp/log", "does": "writes-outside", "subject": "/tmp/log", "why": "no-rule"},
        ]),
        "{parts}"
    );
    let out = finish(userq(&socket).arg("pending").spawn().unwrap()).await;
    let lines: Vec<&str> = out.stdout.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            "  Claude Code · shop · session abc123",
            "  The agent says: Remove node_modules directory",
            "  cat README.md: only reads (allowed: allow read-only)",
            "  head -3: only reads (allowed: allow read-only)",
            "  sudo rm -rf /var/cache/x: runs as root (no rule allows it)",
            "  > /tmp/log: writes outside the project: /tmp/log (no rule allows it)",
        ],
        "{}",
        out.stdout
    );
    let out = finish(userq(&socket).arg("pending").env("USERQ_LANG", "zh-CN").spawn().unwrap()).await;
    assert!(out.stdout.contains("  sudo rm -rf /var/cache/x：以 root 身份运行（没有规则允许）"), "{}", out.stdout);
    let reply = json!({"ask": offer["params"]["ask"], "answer": item("permission", &["Deny"], None)});
    window.call("questions/answer", reply).await;
    assert_eq!(decision(child).await.unwrap()["hookSpecificOutput"]["decision"]["behavior"], "deny");
}

/// A repository at `folder` with `branch` checked out, made by git itself.
fn git_repository(folder: &Path, branch: &str) {
    std::fs::create_dir_all(folder).unwrap();
    let status = std::process::Command::new("git")
        .args(["init", "-q", "-b", branch])
        .current_dir(folder)
        .status()
        .expect("git runs");
    assert!(status.success());
}

/// A permission says where the agent works (its project's name, branch and folder)
/// and what the agent says of it (the call's `description`, and its last message from
/// the end of its transcript), in the request every door receives and under `userq
/// pending`, in both languages; a request from a second project is told apart by its
/// name. The agent's text is shown inert.
#[tokio::test]
async fn a_permission_says_where_the_agent_works_and_what_it_says() {
    let (dir, socket) = temp_socket();
    let _server = serve(&socket).await;
    let mut window = answerer(&socket, json!("agents")).await;
    let shop = dir.path().join("shop");
    git_repository(&shop, "feature/login");
    std::fs::create_dir_all(shop.join("crates/api")).unwrap();
    let transcript = dir.path().join("session.jsonl");
    let lines = [
        json!({"type": "user", "message": {"role": "user", "content": "Migrate the database"}}),
        json!({"type": "assistant", "message": {"role": "assistant",
            "content": [{"type": "text", "text": "The schema changed, so I will migrate.\u{202E}"}]}}),
        json!({"type": "assistant", "message": {"role": "assistant",
            "content": [{"type": "tool_use", "name": "Bash", "input": {"command": "rm -rf node_modules"}}]}}),
    ];
    std::fs::write(&transcript, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let mut input = bash_request();
    input["cwd"] = json!(shop.join("crates/api"));
    input["transcript_path"] = json!(transcript);
    let first = hook(&socket, "claude-code", &input).await;
    let offer = hold(&mut window).await;
    assert_eq!(
        offer["params"]["request"]["context"],
        json!({"project": shop.join("crates/api"), "root": shop, "branch": "feature/login",
               "session": "abc123", "source": "Claude Code", "description": "Remove node_modules directory",
               "lastMessage": "The schema changed, so I will migrate.\u{202E}"})
    );

    let api = dir.path().join("api");
    git_repository(&api, "main");
    let mut other = bash_request();
    (other["cwd"], other["session_id"], other["tool_input"]) =
        (json!(api), json!("0f1e2d3c4b5a"), json!({"command": "make deploy"}));
    let second = hook(&socket, "claude-code", &other).await;
    let offer2 = hold(&mut window).await;

    let out = finish(userq(&socket).arg("pending").spawn().unwrap()).await;
    let said: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("  ") && !l.contains(": deletes")).collect();
    assert_eq!(
        said,
        [
            "  Claude Code · shop · on feature/login · in crates/api · session abc123",
            "  The agent says: Remove node_modules directory",
            "  Its last message: The schema changed, so I will migrate.[U+202E]",
            "  Claude Code · api · on main · session 0f1e2d3c",
            "  make deploy: not known (no rule allows it)",
        ],
        "{}",
        out.stdout
    );
    let out = finish(userq(&socket).arg("pending").env("USERQ_LANG", "zh-CN").spawn().unwrap()).await;
    assert!(
        out.stdout.contains("  Claude Code · shop · 分支 feature/login · 目录 crates/api · 会话 abc123\n"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("  智能体说：Remove node_modules directory\n"), "{}", out.stdout);

    for (offer, child) in [(offer, first), (offer2, second)] {
        let reply = json!({"ask": offer["params"]["ask"], "answer": item("permission", &["Deny"], None)});
        window.call("questions/answer", reply).await;
        assert_eq!(decision(child).await.unwrap()["hookSpecificOutput"]["decision"]["behavior"], "deny");
    }
}
