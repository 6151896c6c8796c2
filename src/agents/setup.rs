//! `userq setup <agent>`: registers User Questions' hooks (and its MCP server, where the
//! agent loads one) in the agent's user settings, and takes them out again.
//!
//! Every edit keeps the rest of the user's settings as they were: JSON is edited as
//! data with its key order kept, TOML with `toml_edit` so comments and layout stay. A
//! run that would change nothing writes nothing; a write goes through a temporary file
//! and a rename, and the first write keeps the original as `<file>.bak`. `--remove`
//! takes out exactly what setup adds (handlers whose command is `… userq hook <agent>`,
//! the `user-questions` MCP server); when what remains is the original, the original's
//! bytes come back, and a file setup created is removed.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::{Agent, Version};
use crate::paths::Access;

/// A hook's timeout: a day, so a question nobody has seen yet is not ended by the agent.
pub const DAY_SECS: u64 = 86_400;
/// The name of the MCP server setup registers.
pub const MCP_NAME: &str = "user-questions";

/// What setup puts in one JSON settings file.
#[derive(Default)]
pub struct JsonEdit<'a> {
    /// Where the events are in the file.
    pub section: Section<'a>,
    /// `<section>.<event>` gets the group: `(event, {matcher?, hooks: [handler]})`, or,
    /// for an agent whose lists hold handlers themselves (Cursor), the handler.
    pub groups: &'a [(&'a str, Value)],
    /// Top-level keys the file must have for the agent to read it (Cursor's
    /// `version`): set when absent, and taken out again on removal unless the
    /// person's original file had them.
    pub required: &'a [(&'a str, Value)],
    /// The `mcpServers` entry, named [`MCP_NAME`].
    pub mcp: Option<Value>,
    /// Take setup's hooks out of this file even when setting up: they moved to
    /// another file (where the agent reads them first).
    pub take_out: bool,
    /// `(section, key)`: a flag that must be true for hooks to run at all; turned on,
    /// and off again on removal when it was off before.
    pub switch: Option<(&'a str, &'a str)>,
}

/// Where a settings file keeps its events.
#[derive(Default, Clone, Copy)]
pub enum Section<'a> {
    /// Under `hooks`, as most agents keep them.
    #[default]
    Hooks,
    /// Under a key of setup's own (Antigravity names each hook set).
    Named(&'a str),
    /// At the top level: the file holds nothing but events (Droid's `hooks.json`).
    Root,
}

/// One hook handler, as Claude Code, Codex and Gemini CLI read it.
pub fn handler(command: &str, timeout: u64) -> Value {
    json!({"type": "command", "command": command, "timeout": timeout})
}

pub struct Setup {
    pub agent: Agent,
    /// The user's home folder.
    pub home: PathBuf,
    /// Claude Code only: write this project's `.claude/settings.json` instead.
    pub project: Option<PathBuf>,
    /// `userq`, by its absolute path.
    pub userq: PathBuf,
    pub remove: bool,
    /// Claude Code: also review the changes when it stops (`--review-changes`).
    pub review_changes: bool,
    /// The agent's version as installed here; `None` when it is not found, and setup
    /// writes what the version this release was tested with reads.
    pub installed: Option<Version>,
}

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("{path} is not valid {format}, so it was left untouched: {error}")]
    Invalid { path: PathBuf, format: &'static str, error: String },
    #[error("cannot read {path}: {error}")]
    Read { path: PathBuf, error: std::io::Error },
    #[error("cannot write {path}: {error}")]
    Write { path: PathBuf, error: std::io::Error },
}

/// One thing setup changes in a file, for the person to read (worded by `userq`, in
/// the person's language).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    AddedHook {
        event: String,
    },
    RemovedHook {
        event: String,
    },
    /// The MCP server entry, named [`MCP_NAME`].
    AddedMcp,
    RemovedMcp,
    /// Gemini CLI's `hooksConfig.enabled`, turned on, or back off on removal.
    HooksOn,
    HooksOff,
    /// A file wholly setup's own (a policy, a plugin), written.
    WroteFile,
}

/// One file setup would change.
#[derive(Debug)]
pub struct FileChange {
    pub path: PathBuf,
    /// What changes in it.
    pub what: Vec<Step>,
    /// The new contents, or `None` to remove the file (setup had created it).
    pub contents: Option<Vec<u8>>,
    /// Restoring the original exactly: the `.bak` is no longer needed.
    pub drop_backup: bool,
}

impl FileChange {
    /// `path` to be written with `text`, for the reasons in `what`.
    pub(crate) fn new(path: &Path, what: Vec<Step>, text: String) -> Self {
        Self { path: path.to_owned(), what, contents: Some(text.into_bytes()), drop_backup: false }
    }
}

impl Setup {
    /// The changes to make; empty when the settings are as they should be already.
    pub fn plan(&self) -> Result<Vec<FileChange>, SetupError> {
        self.agent.integration().settings(self)
    }

    /// The events left out because the installed version does not know them, each
    /// with the version it came in.
    pub fn left_out(&self) -> Vec<(&'static str, Version)> {
        let since = self.agent.integration().since();
        since.iter().copied().filter(|(_, since)| !self.knows(*since)).collect()
    }

    /// Whether the agent as installed reads what came in `since`: yes when it is not
    /// found (setup writes for the version tested with, which is at least as new).
    pub fn knows(&self, since: Version) -> bool {
        self.installed.is_none_or(|v| v >= since)
    }

    /// The command the agent runs: `<absolute userq> hook <agent>`.
    pub fn command(&self) -> String {
        hook_command(&self.userq, self.agent)
    }

    /// An agent's own folder: `$<var>` when set, else `<home>/<default>`.
    pub fn agent_home(&self, var: &str, default: &str) -> PathBuf {
        std::env::var_os(var).filter(|v| !v.is_empty()).map(PathBuf::from).unwrap_or_else(|| self.home.join(default))
    }

    /// The MCP server entry most agents read: `userq mcp`, with `timeout` as given.
    pub fn mcp_server(&self, timeout: Option<u64>) -> Value {
        let mut server = json!({"command": self.userq, "args": ["mcp"]});
        if let Some(t) = timeout {
            server["timeout"] = t.into();
        }
        server
    }

    /// A file wholly setup's own: written when it differs from `contents`, deleted on
    /// removal, and when the installed version is left without the hooks it serves
    /// (Gemini CLI's policy allows only what its hook decides).
    pub fn own_file(&self, path: &Path, contents: &str) -> Result<Option<FileChange>, SetupError> {
        let current = read(path)?;
        let change = |what, contents| FileChange { path: path.to_owned(), what, contents, drop_backup: false };
        let gone = self.remove || !self.left_out().is_empty();
        Ok(match (gone, current) {
            (true, Some(_)) => Some(change(vec![], None)),
            (false, current) if current.as_deref() != Some(contents) => {
                Some(change(vec![Step::WroteFile], Some(contents.as_bytes().to_vec())))
            }
            _ => None,
        })
    }

    /// Adds or removes the hook groups (and the MCP server) in one JSON settings file.
    pub fn json_file(&self, path: &Path, edit: JsonEdit) -> Result<Option<FileChange>, SetupError> {
        let JsonEdit { section, groups, required, mcp, take_out, switch } = edit;
        let removing = self.remove || take_out;
        // Events the installed version does not know are not written, and a hook of
        // ours there is taken out (an agent that went back a version must still start).
        let left_out: Vec<&str> = self.left_out().into_iter().map(|(event, _)| event).collect();
        // Events at the top level are edited as if under `hooks`, and written back bare.
        let (section, root) = match section {
            Section::Hooks => ("hooks", false),
            Section::Named(name) => (name, false),
            Section::Root => ("hooks", true),
        };
        let original = read(path)?;
        let invalid = |error: String| SetupError::Invalid { path: path.to_owned(), format: "JSON", error };
        let parse = |text: &str| -> Result<Value, SetupError> {
            match serde_json::from_str::<Value>(text).map_err(|e| invalid(e.to_string()))? {
                v @ Value::Object(_) if root => Ok(json!({ section: v })),
                v @ Value::Object(_) => Ok(v),
                _ => Err(invalid("the top level is not an object".into())),
            }
        };
        let before = match &original {
            Some(text) => parse(text)?,
            None => json!({}),
        };
        let mut after = before.clone();
        let mut what = Vec::new();
        if removing {
            for (event, _) in groups {
                if remove_hooks(&mut after, section, event, self.agent) {
                    what.push(Step::RemovedHook { event: event.to_string() });
                }
            }
            if mcp.is_some() && remove_key(&mut after, "mcpServers", MCP_NAME) {
                what.push(Step::RemovedMcp);
            }
            if let Some((section, key)) = switch {
                // The switch was turned on by setup only when the original had it off.
                let backup = read(&backup_path(path))?.and_then(|b| serde_json::from_str::<Value>(&b).ok());
                if backup.is_some_and(|b| b[section][key] == json!(false)) && after[section][key] == json!(true) {
                    after[section][key] = json!(false);
                    what.push(Step::HooksOff);
                }
            }
            // The keys setup added go with its hooks, unless the person had them before.
            let backup = read(&backup_path(path))?.and_then(|b| serde_json::from_str::<Value>(&b).ok());
            let root = after.as_object_mut().expect("settings are an object");
            for (key, _) in required {
                if backup.as_ref().is_none_or(|b| b.get(*key).is_none()) {
                    root.shift_remove(*key);
                }
            }
        } else {
            for (key, value) in required {
                let root = after.as_object_mut().expect("settings are an object");
                root.entry(*key).or_insert_with(|| value.clone());
            }
            for (event, group) in groups.iter().filter(|(event, _)| !left_out.contains(event)) {
                if add_hook(&mut after, section, event, group, self.agent) {
                    what.push(Step::AddedHook { event: event.to_string() });
                }
            }
            for event in left_out.iter().filter(|e| groups.iter().any(|(g, _)| g == *e)) {
                if remove_hooks(&mut after, section, event, self.agent) {
                    what.push(Step::RemovedHook { event: event.to_string() });
                }
            }
            if let Some(server) = mcp {
                let servers = object_at(&mut after, "mcpServers");
                if servers.get(MCP_NAME) != Some(&server) {
                    servers.insert(MCP_NAME.into(), server);
                    what.push(Step::AddedMcp);
                }
            }
            if let Some((section, key)) = switch {
                if after[section][key] == json!(false) {
                    after[section][key] = json!(true);
                    what.push(Step::HooksOn);
                }
            }
        }
        if after == before {
            return Ok(None);
        }
        let written = match root {
            true => after.get(section).cloned().unwrap_or_else(|| json!({})),
            false => after.clone(),
        };
        let pretty = |v: &Value| format!("{}\n", serde_json::to_string_pretty(v).expect("JSON values serialise"));
        let change = FileChange::new(path, what, pretty(&written));
        Ok(Some(self.finish(
            removing,
            change,
            original.is_some(),
            |bak| {
                parse(bak).ok().map(|b| without_empty_containers(b, section))
                    == Some(without_empty_containers(after.clone(), section))
            },
            written == json!({}),
        )))
    }

    /// The change to one file: on removal, the original's bytes when what remains is
    /// the original, and no file at all when setup had created it.
    pub(crate) fn finish(
        &self,
        removing: bool,
        mut change: FileChange,
        existed: bool,
        is_backup: impl Fn(&str) -> bool,
        empty: bool,
    ) -> FileChange {
        if removing {
            match read(&backup_path(&change.path)).ok().flatten() {
                Some(bak) if is_backup(&bak) => {
                    change.contents = Some(bak.into_bytes());
                    change.drop_backup = true;
                }
                None if empty && existed => change.contents = None,
                _ => {}
            }
        }
        change
    }
}

/// Writes the changes: each file atomically, the original kept once as `<file>.bak`.
pub fn apply(changes: &[FileChange]) -> Result<(), SetupError> {
    for change in changes {
        let path = &change.path;
        let write_err = |error| SetupError::Write { path: path.clone(), error };
        let backup = backup_path(path);
        match &change.contents {
            None => std::fs::remove_file(path).map_err(write_err)?,
            Some(bytes) => {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(write_err)?;
                }
                if path.exists() && !backup.exists() && !change.drop_backup {
                    std::fs::copy(path, &backup).map_err(write_err)?;
                }
                crate::paths::write(path, bytes, Access::AsBefore).map_err(write_err)?;
            }
        }
        if change.drop_backup {
            std::fs::remove_file(&backup).map_err(write_err)?;
        }
    }
    Ok(())
}

/// The command an agent runs: `<absolute userq> hook <agent>`, quoted for a shell
/// when the path needs it.
pub fn hook_command(userq: &Path, agent: Agent) -> String {
    let path = userq.display().to_string();
    let safe = path.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c));
    let path = if safe { path } else { format!("'{}'", path.replace('\'', r"'\''")) };
    format!("{path} hook {}", agent.name)
}

/// Whether a hook handler is one setup wrote for `agent`, wherever `userq` was then.
fn is_ours(handler: &Value, agent: Agent) -> bool {
    let Some(command) = handler.get("command").and_then(Value::as_str) else { return false };
    let Some(rest) = command.strip_suffix(&format!(" hook {}", agent.name)) else { return false };
    let program = rest.trim().trim_matches('\'');
    Path::new(program).file_name().is_some_and(|n| n == "userq")
}

pub(crate) fn read(path: &Path) -> Result<Option<String>, SetupError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(SetupError::Read { path: path.to_owned(), error }),
    }
}

fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".bak");
    PathBuf::from(name)
}

fn object_at<'a>(root: &'a mut Value, key: &str) -> &'a mut Map<String, Value> {
    let slot = &mut root[key];
    if !slot.is_object() {
        *slot = json!({});
    }
    slot.as_object_mut().expect("just made an object")
}

/// Puts `group` in `<section>.<event>`, replacing a group of ours that differs; true
/// when something changed.
fn add_hook(root: &mut Value, section: &str, event: &str, group: &Value, agent: Agent) -> bool {
    let hooks = object_at(root, section);
    let list = hooks.entry(event).or_insert_with(|| json!([]));
    if !list.is_array() {
        *list = json!([]);
    }
    let list = list.as_array_mut().expect("just made an array");
    let ours =
        |g: &Value| is_ours(g, agent) || g["hooks"].as_array().is_some_and(|h| h.iter().any(|h| is_ours(h, agent)));
    if list.iter().filter(|g| ours(g)).eq([group]) {
        return false;
    }
    list.retain(|g| !ours(g));
    list.push(group.clone());
    true
}

/// Takes every handler of ours out of `<section>.<event>`, and what it leaves empty.
fn remove_hooks(root: &mut Value, section: &str, event: &str, agent: Agent) -> bool {
    let Some(list) = root.get_mut(section).and_then(|h| h.get_mut(event)).and_then(Value::as_array_mut) else {
        return false;
    };
    let mut changed = false;
    // Only what this removal empties goes: a person's own empty group stays.
    list.retain_mut(|group| {
        if is_ours(group, agent) {
            changed = true;
            return false;
        }
        let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else { return true };
        let before = handlers.len();
        handlers.retain(|h| !is_ours(h, agent));
        let emptied = handlers.len() != before;
        changed |= emptied;
        !(emptied && handlers.is_empty())
    });
    if changed && list.is_empty() {
        remove_key(root, section, event);
    }
    changed
}

/// `settings` without the empty containers setup may have added or removed (the
/// section, an event's list, `mcpServers`): two settings equal under it differ only by
/// those.
fn without_empty_containers(mut settings: Value, section: &str) -> Value {
    if let Some(hooks) = settings.get_mut(section).and_then(Value::as_object_mut) {
        hooks.retain(|_, list| list.as_array().is_none_or(|l| !l.is_empty()));
    }
    if let Some(root) = settings.as_object_mut() {
        root.retain(|k, v| !((k == section || k == "mcpServers") && v.as_object().is_some_and(|o| o.is_empty())));
    }
    settings
}

/// Removes `root[outer][key]`, and `root[outer]` when that leaves it empty.
fn remove_key(root: &mut Value, outer: &str, key: &str) -> bool {
    let Some(map) = root.get_mut(outer).and_then(Value::as_object_mut) else { return false };
    let removed = map.shift_remove(key).is_some();
    if removed && map.is_empty() {
        root.as_object_mut().expect("settings are an object").shift_remove(outer);
    }
    removed
}
