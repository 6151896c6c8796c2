//! The agent's last message before it asked, read from the end of its transcript
//! (the `transcript_path` its hook input names). A transcript grows for as long as a
//! session lasts, to hundreds of megabytes, so it is read backwards in blocks and
//! never whole: the search stops at the last assistant text, at the person's own last
//! prompt (a message before it answered something else), or after [`MOST`] bytes.
//!
//! Each agent's lines, as its transcript writes them (JSON Lines):
//! - Claude Code: `{"type":"assistant","message":{"content":[{"type":"text","text":…}]}}`;
//!   a person's prompt is a `"type":"user"` line whose content is not a tool's result.
//! - Codex: `{"type":"response_item","payload":{"type":"message","role":"assistant",
//!   "content":[{"type":"output_text","text":…}]}}`, or an `event_msg` whose payload is
//!   `{"type":"agent_message","message":…}`; the person's is `"role":"user"` or
//!   `user_message`.
//! - Gemini CLI: `{"type":"gemini","content":…}` (a message written again as it
//!   changes: the last line is its latest), the person's `{"type":"user",…}`.
//! - Qwen Code: Claude Code's lines with `"message":{"role":"model","parts":[{"text":…}]}`.
//! - Factory Droid: `{"type":"message","message":{"role":"assistant","content":[…]}}`.
//! - Cursor: `{"role":"assistant","message":{"content":[…]}}`.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

/// How often a transcript still behind the agent's turn is read, and how long apart:
/// at most 0.3 s before the person is asked.
pub const READS: usize = 7;
pub const BEHIND: std::time::Duration = std::time::Duration::from_millis(50);

/// How far back the search reads, at most.
pub const MOST: u64 = 2 << 20;
const BLOCK: u64 = 64 << 10;

/// What one line of a transcript says.
#[derive(Debug, PartialEq)]
enum Line {
    /// The agent's own text.
    Said(String),
    /// The agent's turn without text: a tool's call.
    Call,
    /// The person's prompt: what came before answered something else.
    Prompt,
    /// A tool's result, metadata, or a line not understood.
    Other,
}

/// What the end of a transcript says of the agent's last message.
#[derive(Debug, PartialEq)]
pub enum Heard {
    /// Its text.
    Said(String),
    /// The agent's turn since the person's last prompt holds no text.
    Nothing,
    /// The person's prompt is the last thing written: the agent's turn is not in the
    /// file yet (Claude Code writes its transcript as it goes, behind its hooks).
    Behind,
}

/// The agent's last message in the transcript at `path`, when it came after the
/// person's last prompt; `None` for a file that cannot be read or holds none.
pub fn last_message(path: &Path) -> Option<String> {
    match read(path) {
        Heard::Said(text) => Some(text),
        Heard::Nothing | Heard::Behind => None,
    }
}

/// The end of the transcript at `path`, read back to the agent's last message.
pub fn read(path: &Path) -> Heard {
    read_back(path).unwrap_or(Heard::Nothing)
}

fn read_back(path: &Path) -> Option<Heard> {
    let mut file = File::open(path).ok()?;
    let mut end = file.metadata().ok()?.len();
    // Whether a line of the agent's turn (a tool's call) came after the prompt.
    let mut turn = false;
    // The start of a line whose end was read in the block after it.
    let mut rest: Vec<u8> = Vec::new();
    let mut read = 0;
    while end > 0 && read < MOST {
        let start = end.saturating_sub(BLOCK);
        let mut block = vec![0; (end - start) as usize];
        file.seek(SeekFrom::Start(start)).ok()?;
        file.read_exact(&mut block).ok()?;
        read += end - start;
        block.extend_from_slice(&rest);
        // Every line after the block's first break is whole; the part before it is
        // whole only at the file's start.
        let first = if start == 0 { 0 } else { block.iter().position(|b| *b == b'\n').map_or(block.len(), |i| i + 1) };
        for line in block[first..].rsplit(|b| *b == b'\n') {
            match read_line(line) {
                Line::Said(text) => return Some(Heard::Said(text)),
                Line::Prompt if turn => return Some(Heard::Nothing),
                Line::Prompt => return Some(Heard::Behind),
                Line::Call => turn = true,
                Line::Other => {}
            }
        }
        rest = block[..first].to_vec();
        end = start;
    }
    Some(Heard::Nothing)
}

fn read_line(line: &[u8]) -> Line {
    let line = line.trim_ascii();
    if line.is_empty() {
        return Line::Other;
    }
    let Ok(value) = serde_json::from_slice::<Value>(line) else { return Line::Other };
    let text = |path| value.pointer(path).and_then(Value::as_str);
    let message = value.get("message");
    let content = message.and_then(|m| m.get("content").or_else(|| m.get("parts")));
    match text("/type") {
        // Claude Code, Qwen Code (`parts`), Factory Droid (`message` with its role).
        Some("assistant") => said(content),
        Some("user") => prompt(content.or_else(|| value.get("content"))),
        Some("message") => by_role(text("/message/role"), content),
        // Gemini CLI: the model's turn is `gemini`, its text the line's `content`.
        Some("gemini") => said(value.get("content")),
        Some("response_item") => match text("/payload/type") {
            Some("message") => by_role(text("/payload/role"), value.pointer("/payload/content")),
            Some(kind) if kind.ends_with("call") => Line::Call,
            _ => Line::Other,
        },
        Some("event_msg") => match text("/payload/type") {
            Some("agent_message") => said(value.pointer("/payload/message")),
            Some("user_message") => Line::Prompt,
            _ => Line::Other,
        },
        // Cursor: the role on the line itself.
        None => by_role(text("/role"), content),
        _ => Line::Other,
    }
}

fn by_role(role: Option<&str>, content: Option<&Value>) -> Line {
    match role {
        Some("assistant" | "model") => said(content),
        Some("user") => prompt(content),
        _ => Line::Other,
    }
}

/// A person's line is a prompt when it says something: text, not only a tool's result.
fn prompt(content: Option<&Value>) -> Line {
    match content {
        Some(Value::String(_)) => Line::Prompt,
        Some(Value::Array(blocks)) if blocks.iter().any(|b| text_of(b).is_some()) => Line::Prompt,
        _ => Line::Other,
    }
}

/// A block's text: `{"type": "text"|"output_text"|"input_text", "text"}`, or a part
/// `{"text"}` that is not a thought.
fn text_of(block: &Value) -> Option<&str> {
    let kind = block.get("type").and_then(Value::as_str);
    let text = matches!(kind, None | Some("text" | "output_text" | "input_text")) && block.get("thought").is_none();
    text.then(|| block.get("text").and_then(Value::as_str)).flatten()
}

/// The text of a message's content: a string, or its text blocks joined.
fn said(content: Option<&Value>) -> Line {
    let text = match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => blocks.iter().filter_map(text_of).collect::<Vec<_>>().join("\n"),
        _ => String::new(),
    };
    let text = text.trim();
    if text.is_empty() {
        Line::Call
    } else {
        Line::Said(text.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::io::Write;

    fn transcript(lines: &[Value]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        for line in lines {
            writeln!(file, "{line}").unwrap();
        }
        file
    }

    fn claude(kind: &str, content: Value) -> Value {
        json!({"type": kind, "message": {"role": kind, "content": content}})
    }

    #[test]
    fn claude_codes_last_text_before_its_tool_call_is_found() {
        let file = transcript(&[
            claude("user", json!("Migrate the database")),
            claude("assistant", json!([{"type": "text", "text": "The schema changed; I will run the migration."}])),
            claude("assistant", json!([{"type": "tool_use", "name": "Bash", "input": {"command": "make migrate"}}])),
            json!({"type": "system", "content": "hook ran"}),
        ]);
        assert_eq!(last_message(file.path()).as_deref(), Some("The schema changed; I will run the migration."));
    }

    #[test]
    fn a_message_before_the_persons_last_prompt_is_not_this_requests() {
        let file = transcript(&[
            claude("assistant", json!([{"type": "text", "text": "Done with the tests."}])),
            claude("user", json!([{"type": "text", "text": "Now deploy"}])),
            claude("assistant", json!([{"type": "tool_use", "name": "Bash", "input": {}}])),
        ]);
        assert_eq!(last_message(file.path()), None);
        // A tool's result is not a prompt: the search goes on past it.
        let file = transcript(&[
            claude("assistant", json!([{"type": "text", "text": "Listing first."}])),
            claude("user", json!([{"type": "tool_result", "content": "a b"}])),
        ]);
        assert_eq!(last_message(file.path()).as_deref(), Some("Listing first."));
    }

    #[test]
    fn codexs_rollout_lines_are_read_too() {
        let file = transcript(&[
            json!({"type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]}}),
            json!({"type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "I need the network to fetch the crate."}]}}),
            json!({"type": "response_item", "payload": {"type": "function_call", "name": "shell"}}),
        ]);
        assert_eq!(last_message(file.path()).as_deref(), Some("I need the network to fetch the crate."));
        let events =
            transcript(&[json!({"type": "event_msg", "payload": {"type": "agent_message", "message": "Checking."}})]);
        assert_eq!(last_message(events.path()).as_deref(), Some("Checking."));
    }

    #[test]
    fn gemini_qwen_droid_and_cursor_lines_are_read_too() {
        let gemini = transcript(&[
            json!({"sessionId": "s", "startTime": "t"}),
            json!({"id": "1", "type": "user", "content": [{"text": "fix it"}]}),
            json!({"id": "2", "type": "gemini", "content": "", "toolCalls": []}),
            json!({"id": "2", "type": "gemini", "content": "I will patch the parser.", "toolCalls": [{"name": "edit"}]}),
            json!({"$set": {"lastUpdated": "t"}}),
        ]);
        assert_eq!(last_message(gemini.path()).as_deref(), Some("I will patch the parser."));
        let qwen = transcript(&[json!({"type": "assistant", "message": {"role": "model",
            "parts": [{"text": "thinking", "thought": true}, {"text": "Running the linter."}, {"functionCall": {"name": "run_shell_command"}}]}})]);
        assert_eq!(last_message(qwen.path()).as_deref(), Some("Running the linter."));
        let droid = transcript(&[
            json!({"type": "message", "message": {"role": "assistant", "content": [{"type": "text", "text": "Building."}]}}),
        ]);
        assert_eq!(last_message(droid.path()).as_deref(), Some("Building."));
        let cursor = transcript(&[
            json!({"role": "assistant", "message": {"content": [{"type": "text", "text": "Old."}]}}),
            json!({"role": "user", "message": {"content": [{"type": "text", "text": "again"}]}}),
        ]);
        assert_eq!(last_message(cursor.path()), None);
    }

    #[test]
    fn a_long_transcript_is_read_from_its_end_across_blocks() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let filler =
            claude("assistant", json!([{"type": "tool_use", "name": "Read", "input": {"x": "y".repeat(1000)}}]));
        writeln!(file, "{}", claude("assistant", json!([{"type": "text", "text": "far back"}]))).unwrap();
        for _ in 0..200 {
            writeln!(file, "{filler}").unwrap();
        }
        // A line longer than a block, ending the file without a line break.
        let long = "é".repeat(BLOCK as usize);
        write!(file, "{}", claude("assistant", json!([{"type": "text", "text": long}]))).unwrap();
        assert_eq!(last_message(file.path()).map(|m| m.chars().count()), Some(BLOCK as usize));
        let mut cut = tempfile::NamedTempFile::new().unwrap();
        cut.write_all(&std::fs::read(file.path()).unwrap()[..200 * 1100]).unwrap();
        assert_eq!(last_message(cut.path()).as_deref(), Some("far back"), "a torn last line is passed over");
    }

    #[test]
    fn the_search_stops_after_its_bound() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        writeln!(file, "{}", claude("assistant", json!([{"type": "text", "text": "long ago"}]))).unwrap();
        let output = claude("user", json!([{"type": "tool_result", "content": "x".repeat(10_000)}])).to_string();
        for _ in 0..=(MOST as usize / output.len()) {
            writeln!(file, "{output}").unwrap();
        }
        assert_eq!(last_message(file.path()), None, "a message more than MOST bytes back is not read");
    }

    #[test]
    fn a_transcript_that_ends_at_the_prompt_is_behind_and_a_turn_of_calls_says_nothing() {
        let behind = transcript(&[
            claude("assistant", json!([{"type": "text", "text": "Done."}])),
            claude("user", json!("greet")),
        ]);
        assert_eq!(read(behind.path()), Heard::Behind);
        let calls = transcript(&[
            claude("user", json!("greet")),
            claude("assistant", json!([{"type": "tool_use", "name": "Bash", "input": {}}])),
        ]);
        assert_eq!(read(calls.path()), Heard::Nothing);
        let codex = transcript(&[
            json!({"type": "event_msg", "payload": {"type": "user_message", "message": "go"}}),
            json!({"type": "response_item", "payload": {"type": "function_call", "name": "shell"}}),
        ]);
        assert_eq!(read(codex.path()), Heard::Nothing);
    }

    #[test]
    fn what_is_not_a_transcript_gives_nothing() {
        assert_eq!(last_message(Path::new("/nonexistent/t.jsonl")), None);
        let file = transcript(&[json!([1, 2]), json!("text")]);
        assert_eq!(last_message(file.path()), None);
        let mut binary = tempfile::NamedTempFile::new().unwrap();
        binary.write_all(&[0xff, 0x00, b'\n', 0xfe]).unwrap();
        assert_eq!(last_message(binary.path()), None);
    }
}
