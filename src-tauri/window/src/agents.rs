//! The Agents view: which agents are installed here and at what version (beside the
//! one this release was tested with), whether each one's questions come here (what
//! `userq doctor` knows: hooks as setup writes them, Codex's trust), and connecting or
//! disconnecting one with a click. A click shows what will change first, in the words
//! `userq setup --dry-run` prints; confirming makes exactly the change `userq setup`
//! (or `--remove`) makes.

use std::path::Path;

use serde::Serialize;
use user_questions::agents::connection::{self, Report, Standing};
use user_questions::agents::setup::{self, SetupError};
use user_questions::agents::Agent;
use user_questions::model::ErrorCode;
use user_questions_i18n::Text;

use crate::error::UiError;

/// Every agent found here, as the window shows them.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AgentsView {
    /// Installed or set up, in the order `userq setup` names them.
    pub agents: Vec<AgentRow>,
    /// Why nothing can be connected (no `userq` to run the hooks), if so.
    pub problem: Option<String>,
    /// Which agents User Questions connects, for when none is found.
    pub known_label: String,
}

/// What a click on an agent does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum AgentAction {
    Connect,
    /// Setup would still change something: make it current.
    Update,
    Disconnect,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AgentRow {
    /// The name `userq setup` takes.
    pub name: String,
    pub display_name: String,
    /// "2.1.332 (Claude Code) · tested with 2.1.332", or that it is not on PATH.
    pub version_label: String,
    /// Its questions come here.
    pub connected: bool,
    /// How it stands, in words: connected, not connected, out of date, not trusted.
    pub state_label: String,
    /// What a click offers.
    pub action: AgentAction,
}

/// What connecting or disconnecting an agent changes (or changed).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChangesView {
    /// Which version setup writes for, and each change to a file, one a line.
    pub lines: Vec<String>,
    /// Nothing to change.
    pub nothing: bool,
}

/// Where connecting writes: the person's home, and the `userq` the hooks run.
pub struct Place<'a> {
    pub home: &'a Path,
    /// `None` when the app found none beside it or on `PATH`.
    pub userq: Option<&'a Path>,
}

/// Every agent installed here or set up, and how each stands.
pub async fn view(place: &Place<'_>, text: &Text) -> AgentsView {
    // Without a userq, hooks are judged against the name alone (never current).
    let userq = place.userq.unwrap_or(Path::new("userq"));
    let mut agents = Vec::new();
    for agent in Agent::ALL {
        let report = connection::report(agent, place.home, userq, place.home).await;
        if report.here() {
            agents.push(row(&report, text));
        }
    }
    let names = Agent::ALL.map(|a| a.display_name).join(", ");
    AgentsView {
        agents,
        problem: place.userq.is_none().then(|| text.tr("window-agents-no-userq")),
        known_label: text.tr_args("window-agents-known", &[("agents", (&names).into())]),
    }
}

fn row(report: &Report, text: &Text) -> AgentRow {
    let agent = report.agent;
    let tested = text.tr_args("doctor-tested", &[("version", (&agent.tested.to_string()).into())]);
    let version = report.printed.clone().unwrap_or_else(|| text.tr("doctor-not-found"));
    let trust = report.trust.as_ref().and_then(|t| t.as_ref().ok()).filter(|t| !t.runs());
    let state_label = match (report.standing, trust) {
        (Standing::Current, Some(trust)) => text.tr(trust.message()),
        (Standing::Current, None) => text.tr("window-agents-connected"),
        (Standing::Absent, _) => text.tr("window-agents-not-connected"),
        (Standing::Stale, _) => text.tr("window-agents-stale"),
        (Standing::Unreadable, _) => text.tr_args("window-agents-unreadable", &[("detail", (&report.detail).into())]),
    };
    AgentRow {
        name: agent.name.to_owned(),
        display_name: agent.display_name.to_owned(),
        version_label: format!("{version} · {tested}"),
        connected: report.connected(),
        state_label,
        action: match report.standing {
            Standing::Current => AgentAction::Disconnect,
            Standing::Stale => AgentAction::Update,
            Standing::Absent | Standing::Unreadable => AgentAction::Connect,
        },
    }
}

/// What connecting (or, `connect` false, disconnecting) the agent named `name` changes;
/// with `apply`, the change made.
pub async fn change(
    place: &Place<'_>,
    name: &str,
    connect: bool,
    apply: bool,
    text: &Text,
) -> Result<ChangesView, UiError> {
    let failed = |message: String| UiError::new(ErrorCode::Setup, message);
    let agent = Agent::from_command_name(name)
        .ok_or_else(|| failed(text.tr_args("window-agents-unknown", &[("agent", name.into())])))?;
    let userq = place.userq.ok_or_else(|| failed(text.tr("window-agents-no-userq")))?;
    let (_, _, installed) = connection::installed(agent).await;
    let setup = connection::setup(agent, place.home, userq, installed, !connect);
    let worded = |e: SetupError| failed(e.to_string());
    let changes = setup.plan().map_err(worded)?;
    if apply {
        setup::apply(&changes).map_err(worded)?;
    }
    let mut lines = if connect { connection::version_words(&setup, text) } else { Vec::new() };
    lines.extend(connection::worded(&changes, !apply, text));
    Ok(ChangesView { nothing: changes.is_empty(), lines })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(home: &Path) -> Place<'_> {
        Place { home, userq: Some(Path::new("/usr/bin/userq")) }
    }

    #[tokio::test]
    async fn connecting_shows_the_change_first_then_makes_exactly_setups() {
        let home = tempfile::tempdir().unwrap();
        let text = Text::for_tag("en");
        let preview = change(&place(home.path()), "qwen", true, false, &text).await.unwrap();
        assert!(!preview.nothing);
        assert!(preview.lines.iter().any(|l| l.contains("would add the PermissionRequest hook")), "{preview:?}");
        assert!(!home.path().join(".qwen/settings.json").exists(), "a preview writes nothing");

        let made = change(&place(home.path()), "qwen", true, true, &text).await.unwrap();
        assert!(made.lines.iter().any(|l| l.starts_with("added the PermissionRequest hook")), "{made:?}");
        let setup = connection::setup(
            Agent::from_command_name("qwen").unwrap(),
            home.path(),
            Path::new("/usr/bin/userq"),
            None,
            false,
        );
        assert!(setup.plan().unwrap().is_empty(), "what userq setup qwen writes, and nothing else");

        let again = change(&place(home.path()), "qwen", true, false, &text).await.unwrap();
        assert!(again.nothing);
        change(&place(home.path()), "qwen", false, true, &text).await.unwrap();
        assert!(!home.path().join(".qwen/settings.json").exists(), "disconnecting takes it all out");
    }

    #[tokio::test]
    async fn an_unknown_agent_or_no_userq_is_refused_by_name() {
        let home = tempfile::tempdir().unwrap();
        let text = Text::for_tag("en");
        let e = change(&place(home.path()), "vim", true, false, &text).await.unwrap_err();
        assert_eq!(e.code, "SETUP");
        assert!(e.message.contains("vim"), "{}", e.message);
        let none = Place { home: home.path(), userq: None };
        let e = change(&none, "qwen", true, true, &text).await.unwrap_err();
        assert_eq!(e.code, "SETUP");
        assert!(!home.path().join(".qwen").exists());
        assert_eq!(view(&none, &text).await.problem, Some(text.tr("window-agents-no-userq")));
    }
}
