//! What reading the agent's last message costs a permission on its way to the person:
//! - in process, `transcript::last_message` on a transcript of 100 MB whose last
//!   message sits before the call (as Claude Code writes it), against one of a single message;
//!   and on 100 MB of tool output with no message at all, the bounded worst case
//!   (the search stops after `transcript::MOST` bytes);
//! - `userq hook claude-code` from spawn to exit, answered by a protocol answerer on a
//!   socket served in this process, with the 100 MB transcript against a hook input
//!   that names none.
//!
//! `cargo bench --bench context`.

mod common;

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use common::{answer_with, apart, scaled, serve_apart, show, spawn, times};
use serde_json::json;
use user_questions::agents::transcript;
use user_questions::UserQuestions;

const SAID: &str = "The schema changed, so I will migrate the orders table.";

/// A Claude Code transcript of about `bytes`: tool calls and their outputs, then the
/// agent's message and its next call, or (`said: false`) output to the end.
fn transcript_of(path: &Path, bytes: usize, said: bool) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let output = "x".repeat(4_000);
    let call = json!({"type": "assistant", "message": {"role": "assistant",
        "content": [{"type": "tool_use", "name": "Read", "input": {"file_path": "src/lib.rs"}}]}});
    let result = json!({"type": "user", "message": {"role": "user",
        "content": [{"type": "tool_result", "content": output}]}});
    let (call, result) = (format!("{call}\n"), format!("{result}\n"));
    let mut written = 0;
    while written < bytes {
        file.write_all(call.as_bytes()).unwrap();
        file.write_all(result.as_bytes()).unwrap();
        written += call.len() + result.len();
    }
    if said {
        let text = json!({"type": "assistant", "message": {"role": "assistant",
            "content": [{"type": "text", "text": SAID}]}});
        writeln!(file, "{text}").unwrap();
        writeln!(file, "{call}").unwrap();
    }
}

fn hook_input(transcript: Option<&Path>) -> String {
    json!({
        "session_id": "bench", "transcript_path": transcript, "cwd": "/home/me/shop",
        "hook_event_name": "PermissionRequest", "tool_name": "Bash",
        "tool_input": {"command": "make deploy", "description": "Deploy"}, "permission_suggestions": []
    })
    .to_string()
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let (small, large, silent) =
        (dir.path().join("small.jsonl"), dir.path().join("large.jsonl"), dir.path().join("silent.jsonl"));
    let size = if scaled(100) == 100 { 100 << 20 } else { 4 << 20 };
    transcript_of(&small, 0, true);
    transcript_of(&large, size, true);
    transcript_of(&silent, size, false);
    println!(
        "transcripts: {} and {} bytes",
        std::fs::metadata(&small).unwrap().len(),
        std::fs::metadata(&large).unwrap().len()
    );
    assert_eq!(transcript::last_message(&large).as_deref(), Some(SAID));
    assert_eq!(transcript::last_message(&silent), None);

    let n = scaled(2_000);
    let one_kb = show(
        "last message of a one-message transcript (under 1 KB)",
        &times(n, || drop(transcript::last_message(&small))),
    );
    let hundred = show("last message of a 100 MB transcript", &times(n, || drop(transcript::last_message(&large))));
    let worst = show(
        "100 MB with no message: the bounded search (2 MiB read)",
        &times(scaled(100), || drop(transcript::last_message(&silent))),
    );
    println!(
        "100 MB / one message: {:.2}; worst case / one message: {:.0}",
        hundred.as_secs_f64() / one_kb.as_secs_f64(),
        worst.as_secs_f64() / one_kb.as_secs_f64()
    );

    let config = dir.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    let userq = Path::new(env!("CARGO_BIN_EXE_userq"));
    let (_served, socket, _server) = serve_apart(1, UserQuestions::new());
    let _answerer = apart("answerer", 1, answer_with(socket.clone(), "Allow"));
    std::thread::sleep(Duration::from_millis(300));
    let env = [("USERQ_CONFIG_DIR", config.as_path()), ("USERQ_SOCKET", socket.as_path())];
    let (none, with) = (hook_input(None), hook_input(Some(&large)));
    assert!(spawn(userq, &["hook", "claude-code"], &with, &env).contains("\"allow\""), "the answerer allows");
    // In turn, one of each, so the machine's drift weighs on both alike.
    let (mut without, mut read) = (Vec::new(), Vec::new());
    for _ in 0..scaled(200) {
        without.extend(times(1, || drop(spawn(userq, &["hook", "claude-code"], &none, &env))));
        read.extend(times(1, || drop(spawn(userq, &["hook", "claude-code"], &with, &env))));
    }
    without.sort();
    read.sort();
    let without = show("hook to a person, no transcript", &without);
    let read = show("hook to a person, 100 MB transcript read", &read);
    println!(
        "with / without: {:.2}; the transcript adds {:.1?}",
        read.as_secs_f64() / without.as_secs_f64(),
        read.saturating_sub(without)
    );
}
