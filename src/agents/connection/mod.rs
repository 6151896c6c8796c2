//! How each agent stands with User Questions, as `userq doctor` and the window's
//! Agents view show it: whether it is installed and at what version, whether the hooks
//! are in its settings as setup writes them now (setup's own plan is the check: what it
//! would still change is what is wrong), and, where the agent must also agree to run a
//! hook (Codex's trust), what the agent itself says. What connecting one changes is
//! worded here once for both.

pub mod trust;

use std::path::{Path, PathBuf};

use user_questions_i18n::Text;

use super::setup::{FileChange, Setup, Step, MCP_NAME};
use super::version::{on_path, printed_by};
use super::{Agent, Version};
use trust::Trust;

/// How an agent's hooks stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// As setup writes them now.
    Current,
    /// Some of ours, but setup would still change something (another `userq`, an
    /// older shape, a switch turned off).
    Stale,
    /// None of ours.
    Absent,
    /// The settings cannot be read.
    Unreadable,
}

impl Standing {
    pub fn name(self) -> &'static str {
        match self {
            Self::Current => "current",
            Self::Stale => "stale",
            Self::Absent => "absent",
            Self::Unreadable => "unreadable",
        }
    }

    /// The catalog message saying it (with `$agent` and `$detail`).
    pub fn message(self) -> &'static str {
        match self {
            Self::Current => "doctor-hooks-current",
            Self::Stale => "doctor-hooks-stale",
            Self::Absent => "doctor-hooks-absent",
            Self::Unreadable => "doctor-hooks-unreadable",
        }
    }
}

/// One agent, as found here.
#[derive(Debug)]
pub struct Report {
    pub agent: Agent,
    /// Its program on `PATH`.
    pub program: Option<PathBuf>,
    /// The first line its `--version` printed.
    pub printed: Option<String>,
    pub installed: Option<Version>,
    pub standing: Standing,
    /// The files concerned (or why they cannot be read).
    pub detail: String,
    /// Codex's word on its hook, where its hooks are current and it has a home:
    /// `Err` when Codex could not be asked.
    pub trust: Option<Result<Trust, String>>,
}

impl Report {
    /// Whether there is anything to show: installed, or set up.
    pub fn here(&self) -> bool {
        self.program.is_some() || self.standing != Standing::Absent
    }

    /// Whether the agent's questions come here: hooks as setup writes them, and
    /// trusted where the agent must trust them.
    pub fn connected(&self) -> bool {
        self.standing == Standing::Current && !matches!(self.trust, Some(Ok(t)) if !t.runs())
    }
}

/// What setup does for `agent` in `home`, writing `userq` as the hook's command.
pub fn setup(agent: Agent, home: &Path, userq: &Path, installed: Option<Version>, remove: bool) -> Setup {
    Setup {
        agent,
        home: home.to_owned(),
        project: None,
        userq: userq.to_owned(),
        remove,
        review_changes: false,
        installed,
    }
}

/// `agent` as installed here: its program on `PATH`, the first line its `--version`
/// printed, and the version read from that line.
pub async fn installed(agent: Agent) -> (Option<PathBuf>, Option<String>, Option<Version>) {
    let program = on_path(agent.program);
    let printed = match &program {
        Some(program) => printed_by(program).await,
        None => None,
    };
    let version = printed.as_deref().and_then(Version::find);
    (program, printed, version)
}

/// How `agent` stands in `home` with `userq` as the hook's command; Codex is asked
/// about its trust as a session in `cwd` would be.
pub async fn report(agent: Agent, home: &Path, userq: &Path, cwd: &Path) -> Report {
    let (program, printed, installed) = installed(agent).await;
    let (standing, detail) = standing(agent, home, userq, installed);
    let mut report = Report { agent, program, printed, installed, standing, detail, trust: None };
    if let (Some(codex), Standing::Current, "codex") = (&report.program, standing, agent.name) {
        let setup = setup(agent, home, userq, installed, false);
        // Codex's app server makes a home where there is none: only an existing one is asked.
        if setup.agent_home("CODEX_HOME", ".codex").is_dir() {
            report.trust = Some(trust::trust(codex, &setup.command(), cwd).await);
        }
    }
    report
}

/// How `agent`'s hooks stand, and the files concerned.
pub fn standing(agent: Agent, home: &Path, userq: &Path, installed: Option<Version>) -> (Standing, String) {
    let plan = |remove| setup(agent, home, userq, installed, remove).plan();
    let (add, remove) = match (plan(false), plan(true)) {
        (Ok(add), Ok(remove)) => (add, remove),
        (Err(e), _) | (_, Err(e)) => return (Standing::Unreadable, e.to_string()),
    };
    let files = |changes: &[FileChange]| changes.iter().map(|c| c.path.display().to_string()).collect::<Vec<_>>();
    match (add.is_empty(), remove.is_empty()) {
        (true, _) => (Standing::Current, files(&remove).join(", ")),
        (false, true) => (Standing::Absent, String::new()),
        (false, false) => (Standing::Stale, files(&add).join(", ")),
    }
}

/// Each change setup makes (or, `dry`, would make), in the person's words.
pub fn worded(changes: &[FileChange], dry: bool, text: &Text) -> Vec<String> {
    let dry = if dry { "yes" } else { "no" };
    let mut lines = Vec::new();
    for change in changes {
        let file = change.path.display().to_string();
        for step in &change.what {
            let (id, event) = match step {
                Step::AddedHook { event } => ("setup-added-hook", event.as_str()),
                Step::RemovedHook { event } => ("setup-removed-hook", event.as_str()),
                Step::AddedMcp => ("setup-added-mcp", ""),
                Step::RemovedMcp => ("setup-removed-mcp", ""),
                Step::HooksOn => ("setup-hooks-on", ""),
                Step::HooksOff => ("setup-hooks-off", ""),
                Step::WroteFile => ("setup-wrote-file", ""),
            };
            let args =
                [("file", (&file).into()), ("dry", dry.into()), ("event", event.into()), ("name", MCP_NAME.into())];
            lines.push(text.tr_args(id, &args));
        }
        if change.contents.is_none() {
            lines.push(text.tr_args("setup-removed-file", &[("file", (&file).into()), ("dry", dry.into())]));
        }
    }
    lines
}

/// Which version setup writes for, beside the one this release was tested with, and
/// each event that version does not know, left out.
pub fn version_words(setup: &Setup, text: &Text) -> Vec<String> {
    let agent = setup.agent.display_name;
    let tested = setup.agent.tested.to_string();
    let installed = setup.installed.map(|v| v.to_string()).unwrap_or_default();
    let args = [("agent", agent.into()), ("installed", (&installed).into()), ("tested", (&tested).into())];
    let id = if setup.installed.is_some() { "setup-version-found" } else { "setup-version-unknown" };
    let mut lines = vec![text.tr_args(id, &args)];
    for (event, since) in setup.left_out() {
        let since = since.to_string();
        let args = [
            ("agent", agent.into()),
            ("installed", (&installed).into()),
            ("event", event.into()),
            ("since", (&since).into()),
        ];
        lines.push(text.tr_args("setup-left-out", &args));
    }
    lines
}
