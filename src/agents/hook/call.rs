//! How a tool call reads to the person who must allow it: a shell command in a fenced
//! `sh` block with its description, a file edit or write as a unified diff of the
//! change (against the file as it is on disk, when it can be read), a patch as each
//! file's diff, a fetch as its URL, network access as its destination, an MCP tool by
//! its server and name with its arguments, and anything else as readable JSON. Every agent's hook shares this; each maps its
//! own tool names onto [`Call`].

use crate::wording::Worded;
use std::path::Path;

use serde_json::Value;
use user_questions_i18n::Text;

use super::patch::{Change, FilePatch};
use crate::policy::Kind;
use crate::review::shown::{fenced, unified};

/// A tool call, in the terms a person judges it by.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    Shell {
        command: String,
        description: Option<String>,
    },
    Edit {
        path: String,
        edits: Vec<Replace>,
    },
    Write {
        path: String,
        content: String,
    },
    Fetch {
        url: String,
        prompt: Option<String>,
    },
    /// A patch of several files (Codex's `apply_patch`).
    Patch {
        files: Vec<FilePatch>,
    },
    /// Network access to `target` (`scheme://host:port`), asked for by `command`.
    Network {
        target: String,
        command: Option<String>,
    },
    /// A tool of an MCP server (`mcp__<server>__<tool>`).
    Mcp {
        server: String,
        tool: String,
        input: Value,
    },
    Other {
        tool: String,
        input: Value,
    },
}

/// One `old → new` replacement of an edit.
#[derive(Debug, Clone, PartialEq)]
pub struct Replace {
    pub old: String,
    pub new: String,
    pub all: bool,
}

impl Replace {
    /// Reads `{old_string, new_string, replace_all?}`; `None` when a string is missing.
    pub fn from_input(input: &Value) -> Option<Self> {
        Some(Self {
            old: input.get("old_string")?.as_str()?.to_owned(),
            new: input.get("new_string")?.as_str()?.to_owned(),
            all: input.get("replace_all").and_then(Value::as_bool).unwrap_or(false),
        })
    }
}

/// An agent's names for the tools a person judges by their effect. Fields are the
/// same in every agent this covers (`command`, `description`, `file_path`,
/// `old_string`/`new_string`, `content`, `url`, `prompt`).
pub struct ToolNames {
    pub shell: &'static [&'static str],
    pub edit: &'static [&'static str],
    /// Edits given as `edits: [{old_string, new_string}]`.
    pub multi_edit: &'static [&'static str],
    pub write: &'static [&'static str],
    pub fetch: &'static [&'static str],
}

impl Call {
    /// Reads one tool call; anything unknown, or missing a field, is shown as JSON.
    pub fn from_tool(tool: &str, input: &Value, names: &ToolNames) -> Self {
        let of = |list: &[&str]| list.contains(&tool);
        let path = text(input, "file_path");
        let known = if of(names.shell) {
            text(input, "command").map(|command| Call::Shell { command, description: text(input, "description") })
        } else if of(names.edit) {
            path.zip(Replace::from_input(input)).map(|(path, edit)| Call::Edit { path, edits: vec![edit] })
        } else if of(names.multi_edit) {
            let edits: Option<Vec<Replace>> = input
                .get("edits")
                .and_then(Value::as_array)
                .map(|e| e.iter().filter_map(Replace::from_input).collect());
            path.zip(edits.filter(|e| !e.is_empty())).map(|(path, edits)| Call::Edit { path, edits })
        } else if of(names.write) {
            path.zip(text(input, "content")).map(|(path, content)| Call::Write { path, content })
        } else if of(names.fetch) {
            text(input, "url").map(|url| Call::Fetch { url, prompt: text(input, "prompt") })
        } else {
            Call::mcp(tool, input)
        };
        known.unwrap_or_else(|| Call::Other { tool: tool.to_owned(), input: input.clone() })
    }
}

impl Call {
    /// What the agent says the call is for, in its own words (a command's
    /// description, Codex's justification).
    pub fn description(&self) -> Option<&str> {
        match self {
            Call::Shell { description, .. } => description.as_deref().map(str::trim).filter(|d| !d.is_empty()),
            _ => None,
        }
    }

    /// What the policy judges this call as; `None`: nothing its rules are about.
    pub fn action(&self) -> Option<Kind> {
        match self {
            Call::Shell { command, .. } => Some(Kind::Command(command.clone())),
            Call::Edit { path, .. } | Call::Write { path, .. } => Some(Kind::Edit(vec![path.clone()])),
            Call::Fetch { url, .. } => Some(Kind::Fetch(url.clone())),
            Call::Patch { files } => Some(Kind::Edit(
                files
                    .iter()
                    .flat_map(|f| match &f.change {
                        Change::Move { to } => vec![f.path.clone(), to.clone()],
                        _ => vec![f.path.clone()],
                    })
                    .collect(),
            )),
            Call::Mcp { server, tool, .. } => Some(Kind::Mcp { server: server.clone(), tool: tool.clone() }),
            Call::Other { tool, input } if matches!(tool.as_str(), "Read" | "read_file") => {
                text(input, "file_path").map(Kind::Read)
            }
            Call::Network { .. } | Call::Other { .. } => None,
        }
    }

    /// An MCP tool as agents name it, `mcp__<server>__<tool>`.
    pub fn mcp(tool: &str, input: &Value) -> Option<Self> {
        let (server, name) = tool.strip_prefix("mcp__")?.split_once("__")?;
        (!server.is_empty() && !name.is_empty()).then(|| Call::Mcp {
            server: server.to_owned(),
            tool: name.to_owned(),
            input: input.clone(),
        })
    }
}

/// A string field of a tool input.
pub fn text(input: &Value, key: &str) -> Option<String> {
    input.get(key).and_then(Value::as_str).map(str::to_owned)
}

impl Call {
    /// The question to ask about the call, short enough for a notification's title, as
    /// its message: each door words it in its person's language.
    pub fn title(&self, cwd: Option<&str>) -> Worded {
        match self {
            Self::Shell { .. } => Worded::new("hook-run-command"),
            Self::Edit { path, .. } => Worded::new("hook-edit").arg("path", shown_path(path, cwd)),
            Self::Write { path, .. } => Worded::new("hook-write").arg("path", shown_path(path, cwd)),
            Self::Fetch { url, .. } => Worded::new("hook-fetch").arg("url", url.as_str()),
            Self::Patch { files } => match files.as_slice() {
                [one] => {
                    let message = match one.change {
                        Change::Add => "hook-write",
                        Change::Delete => "hook-delete",
                        Change::Update | Change::Move { .. } => "hook-edit",
                    };
                    Worded::new(message).arg("path", shown_path(&one.path, cwd))
                }
                many => Worded::new("hook-patch").arg("count", many.len()),
            },
            Self::Network { target, .. } => Worded::new("hook-network").arg("target", target.as_str()),
            Self::Mcp { server, tool, .. } => {
                Worded::new("hook-mcp").arg("tool", tool.as_str()).arg("server", server.as_str())
            }
            Self::Other { tool, .. } => Worded::new("hook-use").arg("tool", tool.as_str()),
        }
    }

    /// The question to ask about the call, in `words`' language.
    pub fn question(&self, cwd: Option<&str>, words: &Text) -> String {
        self.title(cwd).said(words).unwrap_or_default()
    }

    /// The call as markdown, for the question's detail.
    pub fn detail(&self, cwd: Option<&str>, words: &Text) -> String {
        match self {
            // Its description is the agent's own words: the ask's context carries it.
            Self::Shell { command, .. } => fenced("sh", command),
            Self::Edit { path, edits } => {
                let shown = shown_path(path, cwd);
                let before = std::fs::read_to_string(path).ok();
                let diff = match &before {
                    Some(before) if edits.iter().all(|e| before.contains(&e.old)) => {
                        let after = edits.iter().fold(before.clone(), |text, e| {
                            if e.all {
                                text.replace(&e.old, &e.new)
                            } else {
                                text.replacen(&e.old, &e.new, 1)
                            }
                        });
                        unified(&shown, before, &after)
                    }
                    // The file is not readable here (or changed): the edit alone.
                    _ => edits.iter().map(|e| unified(&shown, &e.old, &e.new)).collect::<Vec<_>>().join(""),
                };
                format!("`{shown}`\n\n{}", fenced("diff", &diff))
            }
            Self::Write { path, content } => {
                let before = std::fs::read_to_string(path).unwrap_or_default();
                let exists = if Path::new(path).exists() { "yes" } else { "no" };
                let what = words.tr_args("hook-write-detail", &[("exists", exists.into())]);
                let shown = shown_path(path, cwd);
                format!("`{shown}` ({what})\n\n{}", fenced("diff", &unified(&shown, &before, content)))
            }
            Self::Fetch { url, prompt } => {
                let mut s = format!("<{url}>");
                if let Some(p) = prompt {
                    s.push_str(&format!("\n\n{p}"));
                }
                s
            }
            Self::Patch { files } => files
                .iter()
                .map(|f| {
                    let change = match &f.change {
                        Change::Add => "add",
                        Change::Update => "update",
                        Change::Delete => "delete",
                        Change::Move { .. } => "move",
                    };
                    let to = match &f.change {
                        Change::Move { to } => shown_path(to, cwd),
                        _ => String::new(),
                    };
                    let what = words.tr_args("hook-patch-file", &[("change", change.into()), ("to", (&to).into())]);
                    let mut s = format!("`{}` ({what})", shown_path(&f.path, cwd));
                    if !f.lines.is_empty() {
                        s.push_str(&format!("\n\n{}", fenced("diff", &f.lines.join("\n"))));
                    }
                    s
                })
                .collect::<Vec<_>>()
                .join("\n\n"),
            Self::Network { target, command } => {
                let mut s = format!("`{target}`");
                if let Some(c) = command {
                    s.push_str(&format!("\n\n{}", fenced("sh", c)));
                }
                s
            }
            Self::Mcp { server, tool, input } => {
                let json = serde_json::to_string_pretty(input).unwrap_or_else(|_| input.to_string());
                format!("MCP `{server}` · `{tool}`\n\n{}", fenced("json", &json))
            }
            Self::Other { tool, input } => {
                let json = serde_json::to_string_pretty(input).unwrap_or_else(|_| input.to_string());
                format!("{tool}\n\n{}", fenced("json", &json))
            }
        }
    }
}

/// A path relative to the project when it lies inside it.
pub fn shown_path(path: &str, cwd: Option<&str>) -> String {
    cwd.and_then(|cwd| Path::new(path).strip_prefix(cwd).ok())
        .filter(|rel| !rel.as_os_str().is_empty())
        .map(|rel| rel.display().to_string())
        .unwrap_or_else(|| path.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en() -> Text {
        Text::for_tag("en")
    }
    use serde_json::json;

    #[test]
    fn a_command_is_a_fenced_sh_block_and_its_description_the_agents_words() {
        let call = Call::Shell { command: "rm -rf node_modules".into(), description: Some(" Remove deps ".into()) };
        assert_eq!(call.detail(None, &en()), "```sh\nrm -rf node_modules\n```");
        assert_eq!(call.description(), Some("Remove deps"));
        assert_eq!(call.question(None, &en()), "Run this command?");
    }

    #[test]
    fn backticks_inside_cannot_close_the_fence() {
        let s = fenced("sh", "echo ```` done");
        assert!(s.starts_with("`````sh\n") && s.ends_with("\n`````"), "{s}");
    }

    #[test]
    fn an_edit_is_a_diff_of_the_file_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("src").join("main.rs");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "fn main() {\n    println!(\"hi\");\n}\n").unwrap();
        let p = path.to_str().unwrap().to_owned();
        let edit = Replace { old: "\"hi\"".into(), new: "\"hello\"".into(), all: false };
        let call = Call::Edit { path: p.clone(), edits: vec![edit] };
        let cwd = dir.path().to_str().unwrap();
        assert_eq!(call.question(Some(cwd), &en()), "Edit src/main.rs?");
        let detail = call.detail(Some(cwd), &en());
        assert!(detail.starts_with("`src/main.rs`\n\n```diff\n"), "{detail}");
        assert!(
            detail.contains("@@ -1,3 +1,3 @@\n fn main() {\n-    println!(\"hi\");\n+    println!(\"hello\");\n }"),
            "{detail}"
        );
    }

    #[test]
    fn an_edit_of_an_unreadable_file_shows_the_replacement() {
        let edit = Replace { old: "a\n".into(), new: "b\n".into(), all: false };
        let detail = Call::Edit { path: "/nowhere/x.txt".into(), edits: vec![edit] }.detail(None, &en());
        assert!(detail.contains("-a\n+b\n"), "{detail}");
    }

    #[test]
    fn a_new_file_is_all_added_lines() {
        let detail = Call::Write { path: "/nowhere/new.txt".into(), content: "one\ntwo\n".into() }.detail(None, &en());
        assert!(detail.contains("(creates the file)"), "{detail}");
        assert!(detail.contains("+one\n+two\n"), "{detail}");
    }

    #[test]
    fn an_mcp_tool_is_named_by_its_server_and_tool() {
        let call = Call::mcp("mcp__db__drop_table", &json!({"table": "users"})).unwrap();
        assert_eq!(call.question(None, &en()), "Use drop_table from the MCP server db?");
        assert_eq!(call.detail(None, &en()), "MCP `db` · `drop_table`\n\n```json\n{\n  \"table\": \"users\"\n}\n```");
        assert_eq!(Call::mcp("mcp__nameless", &json!({})), None);
        assert_eq!(Call::mcp("Bash", &json!({})), None);
    }

    #[test]
    fn a_patch_is_each_files_diff() {
        let files = crate::agents::hook::patch::parse(
            "*** Begin Patch\n*** Add File: /p/new.txt\n+hello\n*** Update File: /p/a.txt\n@@\n-old\n+new\n*** End Patch",
        )
        .unwrap();
        let call = Call::Patch { files };
        assert_eq!(call.question(Some("/p"), &en()), "Change 2 files?");
        assert_eq!(
            call.detail(Some("/p"), &en()),
            "`new.txt` (new file)\n\n```diff\n+hello\n```\n\n`a.txt` (changed)\n\n```diff\n@@\n-old\n+new\n```"
        );
    }

    #[test]
    fn anything_else_is_readable_json() {
        let call = Call::Other { tool: "mcp__db__query".into(), input: json!({"sql": "select 1"}) };
        assert_eq!(call.detail(None, &en()), "mcp__db__query\n\n```json\n{\n  \"sql\": \"select 1\"\n}\n```");
    }
}
