//! OpenCode, through a plugin of User Questions' own: OpenCode has no command hooks,
//! so `userq setup opencode` writes `plugin.js` into OpenCode's plugins folder
//! (`~/.config/opencode/plugins/`, where both major versions look). One file serves
//! both: OpenCode 1 (1.18.29 and later) calls its default export's `server()`, and
//! OpenCode 2 its `id` and `setup(ctx)` (OpenCode's "migrate from v1" guide). The
//! plugin hands what OpenCode would ask the person to `userq hook opencode` and gives
//! OpenCode what the hook prints ([`v1`], [`v2`]). Printing nothing is no decision:
//! OpenCode's own prompt stays.

mod v1;
mod v2;

use crate::model::AgentName;
use serde_json::Value;
use user_questions_i18n::Text;

use super::setup::{FileChange, Setup, SetupError};
use super::{Agent, HookAsk, HookInput, HookInputError, Integration, Version};

pub struct OpenCode;

/// OpenCode, as `userq` names and finds it.
pub const AGENT: Agent = Agent {
    name: AgentName::OPENCODE.name,
    display_name: AgentName::OPENCODE.display_name,
    program: "opencode",
    events: "permission.asked, question.asked; in OpenCode 2 its permission evaluate hook and question forms (from the plugin setup writes)",
    setup_done: "setup-done-opencode",
    project_settings: false,
    tested: Version(1, 18, 33),
    hooks: &OpenCode,
};

/// The plugin, with `__USERQ__` standing for `userq`'s path as a JS string.
const PLUGIN: &str = include_str!("plugin.js");

impl Integration for OpenCode {
    /// The plugin's one default export for both versions is read from 1.18.29 on
    /// (OpenCode's plugins documentation: "The V1 object form is supported in
    /// OpenCode `1.18.29`"); before that, setup writes nothing.
    fn since(&self) -> &'static [(&'static str, Version)] {
        &[("plugin", Version(1, 18, 29))]
    }

    /// The event's properties, with OpenCode's names for the session and folder in
    /// the names the rest of the hooks read.
    fn read(&self, input: &str) -> Result<HookInput, HookInputError> {
        let mut hook = HookInput::parse(input)?;
        for (ours, theirs) in [("session_id", "sessionID"), ("cwd", "directory")] {
            if let Some(v) = hook.fields.get(theirs).cloned() {
                hook.fields.insert(ours.into(), v);
            }
        }
        Ok(hook)
    }

    fn ask_from(&self, hook: &HookInput, words: &Text) -> Result<Option<HookAsk>, HookInputError> {
        match hook.event.as_str() {
            "permission.asked" => v1::permission_asked(hook, words).map(Some),
            "question.asked" => Ok(v1::question_asked(hook)),
            "permission.evaluate" => v2::permission_evaluate(hook, words).map(Some),
            "form.created" => Ok(v2::form_created(hook)),
            _ => Ok(None),
        }
    }

    /// `~/.config/opencode/plugins/user-questions.js` (under `$XDG_CONFIG_HOME` when set).
    fn settings(&self, setup: &Setup) -> Result<Vec<FileChange>, SetupError> {
        let config = setup.agent_home("XDG_CONFIG_HOME", ".config");
        let userq = serde_json::to_string(&setup.userq.display().to_string()).expect("a string serialises");
        let plugin = PLUGIN.replace("__USERQ__", &userq);
        Ok(setup.own_file(&config.join("opencode/plugins/user-questions.js"), &plugin)?.into_iter().collect())
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}
