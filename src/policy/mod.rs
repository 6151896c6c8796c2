//! The policy: one list of rules for every agent, deciding before the agent's own
//! prompt. It takes an [`Action`] (what kind, what resource, where, which agent and
//! session) and gives a [`Decision`]: allow, ask or deny, and for each part what
//! decided it. A command is judged part by part as bash will run it
//! ([`shell`]): any part denied is a deny, with that rule's reason; every part allowed
//! is an allow; anything else goes to the person. What the reader cannot read with
//! certainty is never allowed.
//!
//! The rules are the person's own file and the nearest project's `.userq/rules.toml`
//! once trusted ([`trust`]); the built-in set `read-only` ([`known`]) applies where a
//! rule allows it. The policy knows nothing of sockets or agents' shapes: the hook
//! asks it with no server running, and the same code answers `userq rules why`.

mod files;
pub mod import;
pub mod known;
mod overlap;
pub mod reading;
mod recursive;
pub mod remember;
pub mod rules;
pub mod sensitive;
pub mod session;
mod tracked;
pub mod trust;
pub mod words;
pub mod yours;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use rules::Fit;
pub use rules::{Origin, Rule, RulesError, Verdict, What};
use user_questions_shell::{self as shell, Part, Unreadable, Word};

/// The key of a permission intent's action ([`Kind`]).
pub const ACTION: &str = "action";

/// The person's rules file, in the configuration folder.
pub const FILE: &str = "rules.toml";

/// One thing an agent wants to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub kind: Kind,
    /// The folder it acts in: a project's rules and relative paths start here.
    pub cwd: Option<PathBuf>,
    /// The agent's command-line name (`claude-code`).
    pub agent: Option<String>,
    pub session: Option<String>,
}

/// What an action is about. A permission question carries it as its intent's
/// `action` (`{"command": "cargo test"}`, `{"edit": ["src/a.rs"]}`, `{"mcp":
/// {"server": "s", "tool": "t"}}`), so a door can offer to remember the answer as a rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Command(String),
    Read(String),
    /// Files edited, written or deleted (a patch may touch several).
    Edit(Vec<String>),
    Fetch(String),
    Mcp {
        server: String,
        tool: String,
    },
}

impl Kind {
    /// The action a permission question's intent names, if it names one.
    pub fn of(intent: &crate::model::Intent) -> Option<Self> {
        serde_json::from_value(intent.extra.get(ACTION)?.clone()).ok()
    }
}

/// A rule as a verdict names it: how it reads and where it is kept.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Source {
    /// How the rule reads: ``deny `sudo` ``.
    pub rule: String,
    /// Whose it is: `yours`, `project:<its file>`, or `import:<agent>`.
    pub origin: String,
    /// Its verdict and its place among its file's entries of that verdict
    /// (`[[deny]]` number 2), as `userq rules rm` names it.
    pub verdict: Verdict,
    pub number: usize,
    /// What the history counts the rule's uses by: its origin, verdict and entry,
    /// so an edited rule starts a count of its own.
    #[serde(skip)]
    pub key: String,
}

impl Source {
    fn of(rule: &Rule) -> Self {
        let origin = rule.origin.to_string();
        Source { rule: rule.describe(), origin, verdict: rule.verdict, number: rule.number, key: rule.key() }
    }

    /// Where the rule is kept, in the fixed English a model reads.
    fn english(&self) -> String {
        let place = format!("[[{}]] number {}", self.verdict.key(), self.number);
        match self.origin.split_once(':') {
            Some(("project", file)) => format!("{file}, {place}"),
            Some(("import", agent)) => format!("imported from {agent}, {place}"),
            _ => format!("the person's rules, {place}"),
        }
    }
}

/// What decided one part.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum By {
    /// A rule, and its reason.
    Rule {
        #[serde(flatten)]
        source: Source,
        reason: Option<String>,
    },
    /// The built-in set `read-only`, which a rule allowed.
    ReadOnly(Source),
    /// A rule that may fit: a word known only at run time stands where it has a word.
    MaybeRule(Source),
    /// No rule: the person decides.
    NoRule,
    /// The reader could not read it with certainty.
    Unreadable { why: String, subject: Option<String> },
}

/// One part and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judged {
    pub text: String,
    /// What the part does, as the reader sees it: `run`, `write` or `unreadable`.
    pub kind: &'static str,
    pub decision: Verdict,
    #[serde(flatten)]
    pub by: By,
    /// The part of a command as the reader read it, once: what explains and remembers
    /// the verdict reads it here, never reading the command again.
    #[serde(skip)]
    pub part: Option<Part>,
}

/// The policy's verdict on an action.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    pub decision: Verdict,
    pub parts: Vec<Judged>,
    /// A project rules file that does not apply: not trusted, or changed since.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub untrusted: Option<String>,
}

impl Decision {
    /// The rules that gave an allow or a deny: a deny's rule, or the rules that
    /// allowed each part (each once); none for an ask.
    pub fn deciding(&self) -> Vec<&Source> {
        let mut sources: Vec<&Source> = Vec::new();
        let wanted = |p: &&Judged| p.decision == self.decision;
        for part in self.parts.iter().filter(wanted) {
            let source = match &part.by {
                By::Rule { source, .. } | By::ReadOnly(source) => source,
                _ => continue,
            };
            if !sources.iter().any(|s| s.key == source.key) {
                sources.push(source);
            }
            if self.decision == Verdict::Deny {
                break;
            }
        }
        if self.decision == Verdict::Ask {
            sources.clear();
        }
        sources
    }

    /// The sentence an agent's model reads after a deny: the part, the rule and its
    /// reason.
    pub fn deny_message(&self) -> String {
        let Some(part) = self.parts.iter().find(|p| p.decision == Verdict::Deny) else {
            return "Denied by the User Questions policy.".into();
        };
        match &part.by {
            By::Rule { source, reason } => {
                let reason = reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
                let (rule, kept) = (&source.rule, source.english());
                format!(
                    "Denied by the User Questions policy{reason} (`{}` matches the rule {rule}, {kept}).",
                    part.text
                )
            }
            _ => format!("Denied by the User Questions policy (`{}`).", part.text),
        }
    }
}

/// The rules that apply in one folder.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub rules: Vec<Rule>,
    /// A project's rules file found but not applied, and why.
    pub untrusted: Option<(PathBuf, trust::Trust)>,
}

impl Policy {
    /// The person's rules (from `config`) and, for an action in `cwd`, the nearest
    /// project's trusted rules. A file that cannot be read as rules is an error.
    pub fn load(config: &Path, cwd: Option<&Path>) -> Result<Self, RulesError> {
        let mut policy = Policy::default();
        let yours = config.join(FILE);
        if let Ok(text) = std::fs::read_to_string(&yours) {
            policy.rules.extend(rules::parse(&text, &yours, &Origin::Yours)?);
        }
        for file in cwd.map(trust::find_all).unwrap_or_default() {
            let content = std::fs::read(&file).unwrap_or_default();
            match (trust::status(config, &file, &content), std::str::from_utf8(&content)) {
                (trust::Trust::Trusted, Ok(text)) => {
                    let rules = rules::parse(text, &file, &Origin::Project(file.clone()))?;
                    policy.rules.extend(trust::within_project(rules));
                }
                (other, _) => {
                    let other = if other == trust::Trust::Trusted { trust::Trust::Changed } else { other };
                    policy.untrusted.get_or_insert((file, other));
                }
            }
        }
        Ok(policy)
    }

    /// The rules in force for an action in `cwd`, from this person's configuration
    /// folder; none when there is no such folder.
    pub fn here(cwd: Option<&Path>) -> Result<Self, RulesError> {
        match crate::paths::config_dir() {
            Some(config) => Self::load(&config, cwd),
            None => Ok(Self::default()),
        }
    }

    /// The verdict on `action`.
    pub fn decide(&self, action: &Action) -> Decision {
        self.decide_read(action, None)
    }

    /// The verdict on `action`, its command already `read` (by [`shell::read`]) when
    /// given: for judging one command against several sets of rules, read once.
    pub fn decide_read(&self, action: &Action, read: Option<&shell::Reading>) -> Decision {
        let holding: Vec<&Rule> = self
            .rules
            .iter()
            .filter(|r| r.holds(action.cwd.as_deref(), action.agent.as_deref(), action.session.as_deref()))
            .collect();
        let parts = match &action.kind {
            Kind::Command(command) => {
                let fresh;
                let read = match read {
                    Some(read) => read,
                    None => {
                        fresh = shell::read(command);
                        &fresh
                    }
                };
                read.parts.iter().map(|part| judge_part(part, &holding, action.cwd.as_deref())).collect()
            }
            Kind::Read(path) => vec![judge_path(path, &holding, action.cwd.as_deref(), false)],
            Kind::Edit(paths) => paths.iter().map(|p| judge_path(p, &holding, action.cwd.as_deref(), true)).collect(),
            Kind::Fetch(url) => vec![judge_fetch(url, &holding)],
            Kind::Mcp { server, tool } => vec![judge_mcp(server, tool, &holding)],
        };
        let decision = combine(&parts);
        let untrusted = self.untrusted.as_ref().map(|(p, _)| p.display().to_string());
        Decision { decision, parts, untrusted }
    }
}

/// Deny if any part is denied; allow if every part is allowed; else ask.
fn combine(parts: &[Judged]) -> Verdict {
    if parts.iter().any(|p| p.decision == Verdict::Deny) {
        Verdict::Deny
    } else if !parts.is_empty() && parts.iter().all(|p| p.decision == Verdict::Allow) {
        Verdict::Allow
    } else {
        Verdict::Ask
    }
}

fn by_rule(rule: &Rule) -> By {
    By::Rule { source: Source::of(rule), reason: rule.reason.clone() }
}

/// The strongest rule among those that fit, by [`Verdict`]'s order.
fn strongest<'r>(fitting: impl Iterator<Item = &'r &'r Rule>) -> Option<&'r Rule> {
    fitting.max_by_key(|r| r.verdict).copied()
}

fn judged(part: &Part, decision: Verdict, by: By) -> Judged {
    let kind = match part {
        Part::Run(_) => "run",
        Part::Write { .. } => "write",
        Part::Read { .. } => "read",
        Part::Unreadable { .. } => "unreadable",
    };
    Judged { text: part.text().to_owned(), kind, decision, by, part: None }
}

fn judge_part(part: &Part, rules: &[&Rule], cwd: Option<&Path>) -> Judged {
    Judged { part: Some(part.clone()), ..judge_one(part, rules, cwd) }
}

fn judge_one(part: &Part, rules: &[&Rule], cwd: Option<&Path>) -> Judged {
    match part {
        Part::Unreadable { why, .. } => judged(part, Verdict::Ask, unreadable(why)),
        Part::Write { path: Word::Literal(p), .. } => {
            Judged { text: part.text().to_owned(), ..judge_path(p, rules, cwd, true) }
        }
        Part::Read { path, .. } => {
            let by_rules = judge_path(path, rules, cwd, false);
            if by_rules.by != By::NoRule {
                return Judged { text: part.text().to_owned(), ..by_rules };
            }
            let read_only = rules.iter().find(|r| r.verdict == Verdict::Allow && r.what == What::ReadOnly);
            let file = files::File::at(path, cwd);
            match read_only {
                Some(rule) if !file.is_secret() => judged(part, Verdict::Allow, By::ReadOnly(Source::of(rule))),
                _ => judged(part, Verdict::Ask, By::NoRule),
            }
        }
        Part::Write { path: Word::Dynamic(_), .. } => {
            judged(part, Verdict::Ask, unreadable(&Unreadable::Unknown("a file named only when it runs".into())))
        }
        Part::Run(run) => {
            let fits: Vec<(&&Rule, Fit)> = rules.iter().map(|r| (r, r.fits_command(run))).collect();
            let sure = strongest(fits.iter().filter(|(_, f)| *f == Fit::Yes).map(|(r, _)| *r));
            let maybe = fits.iter().filter(|(r, f)| *f == Fit::Maybe && r.verdict > Verdict::Allow).map(|(r, _)| *r);
            let maybe = strongest(maybe);
            if let Some(rule) = sure.filter(|r| r.verdict == Verdict::Deny) {
                return judged(part, Verdict::Deny, by_rule(rule));
            }
            if let Some(rule) = maybe {
                // A deny or an ask that may fit: never an allow.
                let by = By::MaybeRule(Source::of(rule));
                return judged(part, Verdict::Ask, by);
            }
            if let Some(rule) = sure {
                // A command the person allowed, given a secret or a configuration of
                // its own to run another program by, is still the person's.
                if rule.verdict == Verdict::Allow && beyond_a_command_rule(run) {
                    return judged(part, Verdict::Ask, By::NoRule);
                }
                return judged(part, rule.verdict, by_rule(rule));
            }
            let read_only = rules.iter().find(|r| r.verdict == Verdict::Allow && r.what == What::ReadOnly);
            if let Some(rule) = read_only {
                let run = &settled(run, cwd);
                if known::judge(run) == known::Judgement::ReadOnly {
                    // A secret it reads through a link, under a folder it reads file
                    // by file, or in the repository git shows, is the person's.
                    if reads_a_secret(run, cwd) {
                        return judged(part, Verdict::Ask, By::NoRule);
                    }
                    // The files it names are judged by the read rules: a deny refuses,
                    // an ask asks, and a folder holding what a rule keeps back is the
                    // person's.
                    let keeps_back =
                        rules.iter().any(|r| matches!(r.what, What::Read(_)) && r.verdict != Verdict::Allow);
                    for word in run.argv[1..].iter().filter_map(Word::literal).filter(|_| keeps_back) {
                        // A relative path from a folder not known may be any file.
                        let Some(paths) = run.folder.resolve(word) else {
                            return judged(part, Verdict::Ask, By::NoRule);
                        };
                        for path in &paths {
                            let by_rules = judge_path(path, rules, cwd, false);
                            if by_rules.decision != Verdict::Allow && by_rules.by != By::NoRule {
                                return Judged { text: part.text().to_owned(), kind: "run", ..by_rules };
                            }
                            // `cd` reads nothing of the folder it goes to.
                            if !matches!(run.name(), Some("cd" | "pushd")) && holds_kept_back(path, rules, cwd) {
                                return judged(part, Verdict::Ask, By::NoRule);
                            }
                        }
                    }
                    return judged(part, Verdict::Allow, By::ReadOnly(Source::of(rule)));
                }
            }
            judged(part, Verdict::Ask, By::NoRule)
        }
    }
}

fn unreadable(why: &Unreadable) -> By {
    By::Unreadable { why: why.code().to_owned(), subject: why.subject().map(str::to_owned) }
}

/// Whether a command of the read-only set may read a secret no word of it names:
/// Options that hand a program a configuration naming what it runs, where a command
/// rule allows the program: `cargo test --config 'build.rustc-wrapper="…"'`.
const CONFIGURES: &[(&str, &[&str])] =
    &[("cargo", &["--config", "-Z"]), ("npm", &["--userconfig", "--globalconfig", "--script-shell", "--node-options"])];

/// Whether a run a command rule allows is given more than the rule can say: a word
/// that may name a secret, as the read-only set judges one (an option's value too,
/// `--config=.env`), or an option of [`CONFIGURES`].
fn beyond_a_command_rule(run: &shell::Run) -> bool {
    let configures = CONFIGURES.iter().find(|(name, _)| run.name() == Some(name)).map_or(&[][..], |(_, o)| o);
    let configured = |w: &str| {
        configures
            .iter()
            .any(|o| w == *o || w.strip_prefix(o).is_some_and(|rest| o.len() == 2 || rest.starts_with('=')))
    };
    // Its literal words: a word known only when it runs is the rule's to allow.
    run.argv[1..]
        .iter()
        .filter(|w| w.literal().is_some())
        .any(|w| w.literal().is_some_and(configured) || known::names_secret(w, known::Check::None, true, &run.folder))
}

/// through a link, under a folder it reads file by file, from every folder it may run
/// in, or in the repository git shows. A relative folder from a folder not known may
/// hold any.
fn reads_a_secret(run: &shell::Run, cwd: Option<&Path>) -> bool {
    // A glob is judged by the paths bash finds for it (`cat n?tes`, where `notes`
    // links to `.env`); one not found here may be any.
    let Some(globbed) = files::globbed(run, cwd) else { return true };
    let run = &globbed;
    let reads_files = run.name().is_some_and(|n| !known::NAMES_ONLY.contains(&n));
    if reads_files && recursive::links_to_secret(run, cwd).is_some() {
        return true;
    }
    if run.name() == Some("git") && tracked::shows_content(run) && cwd.is_some_and(tracked::tracks_secret) {
        return true;
    }
    let Some(mut recursion) = recursive::of(run) else { return false };
    let folders: Option<Vec<Vec<String>>> = recursion.folders.iter().map(|f| run.folder.resolve(f)).collect();
    let Some(folders) = folders else { return true };
    recursion.folders = folders.into_iter().flatten().collect();
    recursive::secret_under(&recursion, cwd).is_some()
}

/// The run with its folder settled: where every folder it may run in is the agent's
/// own (`cd /home/me/shop && git status` run in `/home/me/shop`), it runs there.
fn settled<'r>(run: &'r shell::Run, cwd: Option<&Path>) -> std::borrow::Cow<'r, shell::Run> {
    let shell::Folder::Among(folders) = &run.folder else { return std::borrow::Cow::Borrowed(run) };
    if run.folder.is_start() {
        return std::borrow::Cow::Borrowed(run);
    }
    // The agent's folder, found once: as written and through its links.
    let Some(start) = cwd.map(|c| (c, files::File::at(".", Some(c)))) else { return std::borrow::Cow::Borrowed(run) };
    let here = |f: &String| f == "." || files::File::at(f, Some(start.0)).same_as(&start.1);
    if folders.iter().all(here) {
        std::borrow::Cow::Owned(shell::Run { folder: shell::Folder::default(), ..run.clone() })
    } else {
        std::borrow::Cow::Borrowed(run)
    }
}

/// Whether the folder `word` names holds a path a read rule denies or asks for
/// (`grep -r x ~` under `deny --read "~/.ssh"`).
fn holds_kept_back(word: &str, rules: &[&Rule], cwd: Option<&Path>) -> bool {
    let folder = files::File::at(word, cwd);
    rules.iter().any(|r| match &r.what {
        What::Read(glob) if r.verdict != Verdict::Allow => folder.holds(glob, r, cwd),
        _ => false,
    })
}

/// A file read or edited, by the path rules. No allow reaches a protected path
/// ([`sensitive::PROTECTED`]) for an edit.
fn judge_path(path: &str, rules: &[&Rule], cwd: Option<&Path>, edit: bool) -> Judged {
    let file = files::File::at(path, cwd);
    if edit && file.is(sensitive::PROTECTED) {
        let fitting = rules
            .iter()
            .filter(|r| r.verdict != Verdict::Allow && matches!(&r.what, What::Edit(g) if file.fits(g, r, cwd)));
        return judged_by(path.to_owned(), "write", fitting);
    }
    let fitting = rules.iter().filter(|r| match &r.what {
        What::Edit(glob) if edit => file.fits(glob, r, cwd),
        What::Read(glob) if !edit => file.fits(glob, r, cwd),
        _ => false,
    });
    judged_by(path.to_owned(), if edit { "write" } else { "read" }, fitting)
}

/// A part judged by the strongest of the rules that fit it; the person's, when none does.
fn judged_by<'r>(text: String, kind: &'static str, fitting: impl Iterator<Item = &'r &'r Rule>) -> Judged {
    match strongest(fitting) {
        Some(rule) => Judged { text, kind, decision: rule.verdict, by: by_rule(rule), part: None },
        None => Judged { text, kind, decision: Verdict::Ask, by: By::NoRule, part: None },
    }
}

fn judge_fetch(url: &str, rules: &[&Rule]) -> Judged {
    let host = url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_default();
    let fitting = rules.iter().filter(|r| match &r.what {
        What::Fetch(domain) => !host.is_empty() && rules::wildcard(&as_host(domain), &host),
        _ => false,
    });
    judged_by(url.to_owned(), "fetch", fitting)
}

/// A fetch rule's domain the way a URL's host is read: lowercase, each label beyond
/// ASCII in punycode (`Bücher.DE` is `xn--bcher-kva.de`), a label with `*` lowercased.
fn as_host(domain: &str) -> String {
    // A port (Codex's `example.com:443`) is not part of the host.
    let domain = match domain.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => domain,
    };
    domain
        .trim_end_matches('.')
        .split('.')
        .map(|label| match url::Host::parse(label) {
            Ok(url::Host::Domain(ascii)) if !label.contains('*') => ascii,
            _ => label.to_lowercase(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn judge_mcp(server: &str, tool: &str, rules: &[&Rule]) -> Judged {
    let fitting = rules.iter().filter(|r| match &r.what {
        What::Mcp(pattern) => {
            let (s, t) = pattern.split_once('/').unwrap_or((pattern, "*"));
            rules::wildcard(s, server) && rules::wildcard(t, tool)
        }
        _ => false,
    });
    judged_by(format!("{server}/{tool}"), "mcp", fitting)
}

#[cfg(test)]
mod tests;
