//! The whole app, built by the same [`crate::app`] as the real one, under Tauri's mock
//! runtime on a socket in a temp folder: the service listens, an agent's question
//! reaches the inbox and the follow-up of notifications, every command the list names
//! is registered, and the capability file grants exactly those commands. (The tray
//! needs GTK and a display; `tests/e2e/test_tray.py` drives it.)

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::{json, Value};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, MockRuntime, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::Manager;
use tokio_util::sync::CancellationToken;
use user_questions::model::{AskRequest, Question};

use crate::app_state::AppState;
use crate::command_names::COMMAND_NAMES;

/// Calls a command as the page does, through the IPC and the window's capability.
pub(crate) fn invoke(window: &tauri::WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: InvokeBody::Json(args),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(window, request).map(|body| body.deserialize::<Value>().unwrap_or(Value::Null))
}

/// The whole app on the mock runtime, on `socket`, in the background and without the
/// tray (which needs a display), its setup run (Tauri runs setup when the event loop
/// starts: one iteration of the mock's loop).
pub(crate) fn mock_app(socket: std::path::PathBuf) -> tauri::App<MockRuntime> {
    let settings = socket.parent().map(|run| run.with_file_name("settings.json"));
    let data = socket.parent().map(|run| run.with_file_name("data"));
    let relay = socket.parent().map(|run| run.with_file_name("relay.json"));
    let ssh_hosts = socket.parent().map(|run| run.with_file_name("ssh-hosts.json"));
    let matrix = socket.parent().map(|run| run.with_file_name("matrix"));
    let start = crate::Start { background: true, tray: false, settings, data, relay, ssh_hosts, matrix };
    let mut app = crate::app(mock_builder(), socket, start).build(tauri::generate_context!()).unwrap();
    #[allow(deprecated)]
    app.run_iteration(|_, _| {});
    app
}

/// Waits for `check`, failing with `what` after five seconds.
pub(crate) fn wait_until(what: &str, check: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !check() {
        assert!(std::time::Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn the_whole_app_runs_under_the_mock_runtime() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("run").join("userq.sock");
    let mut app = mock_app(socket.clone());
    assert!(std::os::unix::net::UnixStream::connect(&socket).is_ok(), "the service listens");
    assert!(app.get_webview_window(crate::window::LABEL).is_none(), "a background start has no window");

    let state = app.state::<AppState>();
    let (service, inbox) = (state.service.clone(), state.inbox.clone());
    let mut changes = inbox.watch();
    let agent = service.enter_from("Claude Code", "claude-code-s1", None, 0).unwrap();
    let q = Question::new("go", "Deploy?").option("Yes", None).option("No", None);
    let asking = tauri::async_runtime::spawn(async move {
        service.ask(AskRequest::new(vec![q]).from_agent(agent), &CancellationToken::new()).await
    });
    tauri::async_runtime::block_on(changes.changed()).unwrap();
    assert_eq!(inbox.len(), 1);

    // The question gets the window ready (built hidden); the test speaks through it.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let window = loop {
        #[allow(deprecated)]
        app.run_iteration(|_, _| {});
        if let Some(w) = app.get_webview_window(crate::window::LABEL) {
            break w;
        }
        assert!(std::time::Instant::now() < deadline, "timed out waiting for the window built for the question");
        std::thread::sleep(Duration::from_millis(5));
    };
    for name in COMMAND_NAMES {
        if name == "hide_window" {
            continue; // it hides the window this test speaks through
        }
        let args = json!({"ask": "a-none", "answer": {"answers": []}, "draft": {}, "question": "q", "query": "", "hidden": false, "path": "x", "lang": "tlh", "id": 0, "comments": [],
                "choice": "Revise", "annotations": [], "general": "", "name": "no-such-agent", "connect": false,
                "entry": "", "file": "/nowhere/.userq/rules.toml", "asks": ["a-none"], "allow": true});
        if let Err(e) = invoke(&window, name, args) {
            assert_ne!(e, json!(format!("command {name} not found")), "{name} is registered");
            let expected = match name {
                "set_language" => "BAD_LANGUAGE",
                // "Revise" is not a duration.
                "set_deadline" => "BAD_REQUEST",
                "remove_rule" | "edit_rule" => "NO_SUCH_RULE",
                // Not a project's file that can be read.
                "trust_project" => "BAD_REQUEST",
                // Its body is JSON here, not a picture's bytes.
                "save_picture" => "BAD_PICTURE",
                // This machine is in no circle.
                "relay_invite" => "RELAY",
                // No agent has that name.
                "agent_changes" | "connect_agent" => "SETUP",
                _ => "NOT_PENDING",
            };
            assert_eq!(e["code"], expected, "{name}: {e}");
        }
    }
    let ask = inbox.list()[0].ask.clone();
    invoke(&window, "answer_question", json!({"ask": ask, "answer": {"answers": [{"id": "go", "selected": ["No"]}]}}))
        .unwrap();
    let answer = tauri::async_runtime::block_on(asking).unwrap().unwrap();
    assert_eq!(answer.answers[0].selected, ["No"]);
    wait_until("the inbox to empty", || inbox.is_empty());
    app.state::<AppState>().stop();
    assert!(!socket.exists(), "a clean stop removes the socket");
}

#[test]
fn the_capability_grants_exactly_the_listed_commands() {
    let file: Value = serde_json::from_str(include_str!("../capabilities/default.json")).unwrap();
    let granted: BTreeSet<String> = file["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter_map(|p| p.strip_prefix("allow-"))
        .map(str::to_owned)
        .collect();
    let listed: BTreeSet<String> = COMMAND_NAMES.iter().map(|c| c.replace('_', "-")).collect();
    assert_eq!(granted, listed);
    let others: Vec<&str> = file["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|p| !p.starts_with("allow-"))
        .collect();
    assert_eq!(others, ["core:event:allow-listen", "core:event:allow-unlisten"], "nothing else is granted");
}

#[test]
fn the_page_calls_each_listed_command_through_one_typed_function_of_its_bridge() {
    let bridge = include_str!("../../ui/bridge.js");
    for name in COMMAND_NAMES {
        let calls = bridge.matches(&format!("invoke(\"{name}\"")).count();
        assert_eq!(calls, 1, "ui/bridge.js calls {name} {calls} times, not once");
    }
    assert_eq!(bridge.matches("invoke(\"").count(), COMMAND_NAMES.len(), "ui/bridge.js calls a command not listed");
    // Nothing else in the page reaches Rust but through the bridge.
    let mut folders = vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../ui"))];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "js") && !path.ends_with("bridge.js") {
                let text = std::fs::read_to_string(&path).unwrap();
                assert!(!text.contains("invoke"), "{} calls a command outside ui/bridge.js", path.display());
            }
        }
    }
}
