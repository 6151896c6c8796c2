//! A rule: a verdict for one kind of action, in a scope, from an origin. Rules are kept
//! as TOML, the person's in `rules.toml` of the configuration folder and a project's
//! in its `.userq/rules.toml`, one array of tables per verdict:
//!
//! ```toml
//! [[allow]]
//! command = "make test"
//!
//! [[deny]]
//! command = "git push"
//! reason = "pushes go through review"
//! ```
//!
//! An entry names exactly one action (`command`, `read-only`, `read`, `edit`,
//! `fetch`, `mcp`) and may narrow its scope (`project`, `agent`, `session`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use user_questions_shell::{Run, Word};

/// What a rule says. Deny beats ask beats allow: the order is the strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Ask,
    Deny,
}

impl Verdict {
    pub const ALL: [Verdict; 3] = [Verdict::Allow, Verdict::Ask, Verdict::Deny];

    pub fn key(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Ask => "ask",
            Verdict::Deny => "deny",
        }
    }
}

/// The action a rule is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    /// A command's words, as a prefix (`cargo test` matches `cargo test --release`),
    /// or the whole command when `exact`; `*` inside a word matches any characters.
    Command { words: Vec<String>, exact: bool },
    /// The built-in set of commands that only read ([`super::known`]).
    ReadOnly,
    /// Reading a file under a path glob.
    Read(String),
    /// Editing or writing a file under a path glob.
    Edit(String),
    /// Fetching from a domain (`example.com`, `*.example.com`).
    Fetch(String),
    /// An MCP server's tool: `server/tool`, or `server` for all its tools.
    Mcp(String),
}

/// Where a rule holds: everywhere unless narrowed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scope {
    /// A folder and everything under it.
    pub project: Option<PathBuf>,
    /// An agent by its command-line name (`claude-code`).
    pub agent: Option<String>,
    /// One agent session.
    pub session: Option<String>,
}

/// Where a rule comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The person's own rules file.
    Yours,
    /// A project's `.userq/rules.toml`, trusted.
    Project(PathBuf),
    /// Imported from an agent's own settings.
    Import(String),
}

/// As a verdict names it: `yours`, `project:<its file>`, or `import:<agent>`.
impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Yours => write!(f, "yours"),
            Origin::Project(file) => write!(f, "project:{}", file.display()),
            Origin::Import(agent) => write!(f, "import:{agent}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub verdict: Verdict,
    pub what: What,
    pub scope: Scope,
    pub reason: Option<String>,
    pub origin: Origin,
    /// The rule's place in its file's list for its verdict, from 1.
    pub number: usize,
    /// What names the rule for `userq rules rm` and the Rules view: its verdict and
    /// a hash of its entry ([`Entry::id`]), so it stays the same while other rules
    /// come and go.
    pub id: String,
}

/// One entry of a rules file, as written.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Entry {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fetch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcp: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The agent a rule was imported from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    allow: Vec<Entry>,
    #[serde(default)]
    ask: Vec<Entry>,
    #[serde(default)]
    deny: Vec<Entry>,
}

/// A rules file that cannot be read as rules.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RulesError {
    #[error("{path}: {why}")]
    Syntax { path: String, why: String },
    #[error("{path}: [[{verdict}]] number {number} {why}")]
    Entry { path: String, verdict: &'static str, number: usize, why: String },
}

/// The rules in `text`, the content of the file at `path`; `origin` says whose.
/// `base` is the folder relative project paths start from.
pub fn parse(text: &str, path: &Path, origin: &Origin) -> Result<Vec<Rule>, RulesError> {
    let shown = path.display().to_string();
    let file: File =
        toml_edit::de::from_str(text).map_err(|e| RulesError::Syntax { path: shown.clone(), why: e.to_string() })?;
    let mut rules = Vec::new();
    for (verdict, entries) in [(Verdict::Allow, file.allow), (Verdict::Ask, file.ask), (Verdict::Deny, file.deny)] {
        for (i, entry) in entries.into_iter().enumerate() {
            let rule = entry.rule(verdict, origin, i + 1).map_err(|why| RulesError::Entry {
                path: shown.clone(),
                verdict: verdict.key(),
                number: i + 1,
                why,
            })?;
            rules.push(rule);
        }
    }
    Ok(rules)
}

impl Entry {
    /// The entry as its file holds it: `command = "cargo test"`, one field a line.
    pub fn to_toml(&self) -> String {
        toml_edit::ser::to_string(self).unwrap_or_default()
    }

    /// An entry written so; `Err`: what is wrong with it.
    pub fn from_toml(text: &str) -> Result<Self, String> {
        toml_edit::de::from_str(text).map_err(|e| e.to_string())
    }

    /// The rule's stable id: `deny:` and the first eight hex digits of the SHA-256 of
    /// its verdict and entry as [`Entry::to_toml`] writes it, whatever its place or
    /// its file's layout. Two rules alike in every field share it, and either may go.
    pub fn id(&self, verdict: Verdict) -> String {
        use sha2::{Digest, Sha256};
        let hash = Sha256::digest(format!("{}\n{}", verdict.key(), self.to_toml()));
        let hex: String = hash[..4].iter().map(|b| format!("{b:02x}")).collect();
        format!("{}:{hex}", verdict.key())
    }

    /// The rule this entry says; `Err`: what is wrong with it.
    pub fn rule(self, verdict: Verdict, origin: &Origin, number: usize) -> Result<Rule, String> {
        let id = self.id(verdict);
        let mut whats = Vec::new();
        if let Some(c) = &self.command {
            let words: Vec<String> = c.split_whitespace().map(str::to_owned).collect();
            if words.is_empty() {
                return Err("has an empty command".into());
            }
            whats.push(What::Command { words, exact: self.exact.unwrap_or(false) });
        }
        match self.read_only {
            Some(true) => whats.push(What::ReadOnly),
            Some(false) => return Err("says read-only = false; leave it out instead".into()),
            None => {}
        }
        whats.extend(self.read.clone().map(What::Read));
        whats.extend(self.edit.clone().map(What::Edit));
        whats.extend(self.fetch.clone().map(What::Fetch));
        whats.extend(self.mcp.clone().map(What::Mcp));
        let what = match whats.len() {
            1 => whats.remove(0),
            0 => return Err("names no action (command, read-only, read, edit, fetch or mcp)".into()),
            _ => return Err("names more than one action; write one entry for each".into()),
        };
        if self.exact.is_some() && !matches!(what, What::Command { .. }) {
            return Err("says exact, which only a command takes".into());
        }
        if matches!(what, What::ReadOnly) && verdict != Verdict::Allow {
            return Err("puts read-only under ask or deny; the set only allows".into());
        }
        let origin = match (&self.from, origin) {
            (Some(agent), Origin::Yours) => Origin::Import(agent.clone()),
            _ => origin.clone(),
        };
        let scope = Scope {
            project: match (&origin, &self.project) {
                (Origin::Project(file), _) => file.parent().and_then(Path::parent).map(Path::to_path_buf),
                (_, Some(p)) => Some(PathBuf::from(expand_home(p))),
                _ => None,
            },
            agent: self.agent,
            session: self.session,
        };
        Ok(Rule { verdict, what, scope, reason: self.reason, origin, number, id })
    }
}

/// Whether a rule's words match a command part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    No,
    /// A word known only at run time stands where the rule has a word: it may fit.
    Maybe,
    Yes,
}

impl Rule {
    /// Whether this rule's scope holds for an action in `cwd` by `agent` in `session`.
    pub fn holds(&self, cwd: Option<&Path>, agent: Option<&str>, session: Option<&str>) -> bool {
        self.scope.project.as_deref().is_none_or(|p| match cwd {
            // The folder as written or as the kernel finds it (a link, `..`).
            Some(c) => c.starts_with(p) || real(c).starts_with(real(p)),
            // With no folder known, a deny or an ask still holds: it cannot be shown
            // to be elsewhere. An allow needs to be in its project.
            None => self.verdict != Verdict::Allow,
        }) && self.scope.agent.as_deref().is_none_or(|a| Some(a) == agent)
            && self.scope.session.as_deref().is_none_or(|s| Some(s) == session)
    }

    /// How the rule's command words fit `run`. An allow never fits a program named
    /// by a path outside the system's folders (`./cargo` is not `cargo`).
    pub fn fits_command(&self, run: &Run) -> Fit {
        let fit = self.fits_words(run);
        // A deny or an ask looks through git's global options: `git -C . push` and
        // `git -c x=y push` are `git push`. An allow never does.
        match (fit, self.verdict, git_without_globals(run)) {
            (Fit::No, Verdict::Ask | Verdict::Deny, Some(bare)) => self.fits_words(&bare),
            _ => fit,
        }
    }

    fn fits_words(&self, run: &Run) -> Fit {
        let What::Command { words, exact } = &self.what else { return Fit::No };
        if run.argv.len() < words.len() || (*exact && (run.argv.len() != words.len() || run.open)) {
            return Fit::No;
        }
        if self.verdict == Verdict::Allow && run.by_path() && !in_system_folder(run) {
            return Fit::No;
        }
        let mut fit = Fit::Yes;
        for (i, pattern) in words.iter().enumerate() {
            let given = if i == 0 { run.name().map(str::to_owned) } else { run.argv[i].literal().map(str::to_owned) };
            match given {
                Some(w) if wildcard(pattern, &w) => {}
                Some(_) => return Fit::No,
                None => fit = Fit::Maybe,
            }
        }
        fit
    }

    /// The rule as a person reads it: ``deny `git push` ``.
    pub fn describe(&self) -> String {
        format!("{} {}", self.verdict.key(), self.what())
    }

    /// What it is about: `` `git push` ``, `read-only`, `edit src/**`.
    pub fn what(&self) -> String {
        let what = match &self.what {
            What::Command { words, exact: false } => format!("`{}`", words.join(" ")),
            What::Command { words, exact: true } => format!("`{}` (exactly)", words.join(" ")),
            What::ReadOnly => "read-only".to_owned(),
            What::Read(p) => format!("read {p}"),
            What::Edit(p) => format!("edit {p}"),
            What::Fetch(d) => format!("fetch {d}"),
            What::Mcp(t) => format!("mcp {t}"),
        };
        what
    }

    /// The rule as the history counts its uses: where it is kept, its verdict and its
    /// entry.
    pub fn key(&self) -> String {
        let entry = serde_json::to_string(&self.entry()).unwrap_or_default();
        format!("{} {} {entry}", self.origin, self.verdict.key())
    }

    /// The rule's entry, as a rules file holds it.
    pub fn entry(&self) -> Entry {
        let mut e = Entry { reason: self.reason.clone(), ..Entry::default() };
        match &self.what {
            What::Command { words, exact } => {
                e.command = Some(words.join(" "));
                e.exact = exact.then_some(true);
            }
            What::ReadOnly => e.read_only = Some(true),
            What::Read(p) => e.read = Some(p.clone()),
            What::Edit(p) => e.edit = Some(p.clone()),
            What::Fetch(d) => e.fetch = Some(d.clone()),
            What::Mcp(t) => e.mcp = Some(t.clone()),
        }
        if !matches!(self.origin, Origin::Project(_)) {
            e.project = self.scope.project.as_ref().map(|p| p.display().to_string());
        }
        e.agent = self.scope.agent.clone();
        e.session = self.scope.session.clone();
        if let Origin::Import(agent) = &self.origin {
            e.from = Some(agent.clone());
        }
        e
    }
}

fn in_system_folder(run: &Run) -> bool {
    const FOLDERS: &[&str] = &["/usr/bin/", "/bin/", "/usr/local/bin/", "/usr/sbin/", "/sbin/"];
    run.argv.first().and_then(Word::literal).is_some_and(|p| {
        FOLDERS.iter().any(|f| p.strip_prefix(f).is_some_and(|rest| !rest.contains('/') && !rest.is_empty()))
    })
}

/// `*` matches any run of characters; everything else matches itself.
pub fn wildcard(pattern: &str, text: &str) -> bool {
    let mut pieces = pattern.split('*');
    let first = pieces.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else { return false };
    let pieces: Vec<&str> = pieces.collect();
    let Some((last, middle)) = pieces.split_last() else { return rest.is_empty() };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// A path under the home folder as `~/…`, the way a person reads it.
pub fn shorten_home(p: &str) -> String {
    let home = std::env::var("HOME").unwrap_or_default();
    match p.strip_prefix(home.trim_end_matches('/')) {
        Some(rest) if !home.is_empty() && home != "/" && (rest.is_empty() || rest.starts_with('/')) => {
            format!("~{rest}")
        }
        _ => p.to_owned(),
    }
}

/// `~` and `~/…` as the home folder.
pub fn expand_home(p: &str) -> String {
    let home = std::env::var("HOME").unwrap_or_default();
    match p.strip_prefix('~') {
        Some("") => home,
        Some(rest) if rest.starts_with('/') => format!("{home}{rest}"),
        _ => p.to_owned(),
    }
}

/// A folder as the kernel finds it; as written when it does not exist.
fn real(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `git` with its global options taken out (`git -C . --no-pager push` is `git push`);
/// `None` for another program, or when there are none. A word known only when it
/// runs among them stays, so the fit is a maybe.
fn git_without_globals(run: &Run) -> Option<Run> {
    if run.name() != Some("git") {
        return None;
    }
    // Git's global options that take the next word as their value.
    const VALUED: &[&str] = &[
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--config-env",
        "--super-prefix",
        "--exec-path",
        "--attr-source",
        "--shallow-file",
        "--list-cmds",
    ];
    let mut i = 1;
    while let Some(w) = run.argv.get(i) {
        match w.literal() {
            Some(s) if VALUED.contains(&s) => i += 2,
            Some(s) if s.starts_with('-') => i += 1,
            _ => break,
        }
    }
    (i > 1).then(|| {
        let mut argv = vec![run.argv[0].clone()];
        argv.extend(run.argv.iter().skip(i).cloned());
        Run { argv, open: run.open, text: run.text.clone(), folder: run.folder.clone() }
    })
}
