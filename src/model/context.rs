//! Where a question comes from and what the agent says of it, for people and for
//! grouping: the folder the agent works in and the project (git root) and branch it
//! belongs to, the agent's own session id, what kind of agent asks, the machine it
//! runs on when that is not this one, and the agent's own words: the request's
//! description and its last message before asking. Free text from the agent, shown
//! (inert, see [`crate::wording::inert`]) and passed on, never used to admit or
//! refuse an ask.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::question::{object, optional_string};
use super::UserQuestionError;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Context {
    /// The folder the agent works in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub project: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub source: Option<String>,
    /// The machine the agent runs on, set by the door its ask came through (an SSH
    /// forward); absent for this machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub machine: Option<String>,
    /// The project `project` is in: the nearest folder above it holding `.git`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub root: Option<String>,
    /// The branch checked out in `root` (a short commit when none is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub branch: Option<String>,
    /// The request's own words: what the agent says the call is for (Claude Code's
    /// Bash `description`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub description: Option<String>,
    /// The agent's last message before it asked, from its transcript.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub last_message: Option<String>,
}

impl Context {
    /// Parses the context object; unknown fields are ignored.
    pub fn from_value(v: &Value, at: &str) -> Result<Self, UserQuestionError> {
        let obj = object(v, at)?;
        let field = |key| optional_string(obj, key, at);
        Ok(Self {
            project: field("project")?,
            session: field("session")?,
            source: field("source")?,
            machine: field("machine")?,
            root: field("root")?,
            branch: field("branch")?,
            description: field("description")?,
            last_message: field("lastMessage")?,
        })
    }

    /// The project as a person calls it: the last part of its root's path, or of the
    /// folder when it is in no repository (`shop`).
    pub fn project_name(&self) -> Option<&str> {
        self.root.as_deref().or(self.project.as_deref()).map(base_name)
    }

    /// The folder inside the project, when the agent works below its root
    /// (`crates/api`).
    pub fn folder(&self) -> Option<&str> {
        let root = self.root.as_deref()?.trim_end_matches(['/', '\\']);
        let inside = self.project.as_deref()?.strip_prefix(root)?;
        if !(inside.is_empty() || inside.starts_with(['/', '\\'])) {
            return None;
        }
        let inside = inside.trim_matches(['/', '\\']);
        (!inside.is_empty()).then_some(inside)
    }

    /// The session as a short name that stays the same for all its requests: its
    /// first eight characters.
    pub fn short_session(&self) -> Option<&str> {
        let session = self.session.as_deref()?;
        Some(session.char_indices().nth(8).map_or(session, |(i, _)| &session[..i]))
    }
}

/// A path's last part, as a person calls the folder.
pub fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).find(|p| !p.is_empty()).unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_context_names_its_project_folder_and_session_in_short() {
        let c = Context::from_value(
            &json!({"project": "/home/me/shop/crates/api/", "root": "/home/me/shop", "session": "0123456789ab",
                    "lastMessage": "I will run the tests.", "unknown": 1}),
            "context",
        )
        .unwrap();
        assert_eq!(
            (c.project_name(), c.folder(), c.short_session()),
            (Some("shop"), Some("crates/api"), Some("01234567"))
        );
        assert_eq!(c.last_message.as_deref(), Some("I will run the tests."));
        let at_root =
            Context { project: Some("/home/me/shop".into()), root: Some("/home/me/shop".into()), ..c.clone() };
        assert_eq!((at_root.project_name(), at_root.folder()), (Some("shop"), None));
        let no_repo = Context { project: Some("/tmp/scratch".into()), ..Context::default() };
        assert_eq!((no_repo.project_name(), no_repo.folder()), (Some("scratch"), None));
        // Another project whose name starts the same is not "inside".
        let beside = Context { project: Some("/home/me/shop2".into()), root: Some("/home/me/shop".into()), ..c };
        assert_eq!(beside.folder(), None);
    }

    #[test]
    fn a_field_that_is_not_text_is_named() {
        let e = Context::from_value(&json!({"lastMessage": 3}), "context").unwrap_err();
        assert!(e.to_string().contains("context.lastMessage"), "{e}");
    }
}
