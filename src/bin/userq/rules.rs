//! `userq rules`: the one list of rules. The policy's rules (allow, ask, deny for
//! commands, files, fetches and MCP tools, in `rules.toml` of the configuration
//! folder, and a project's `.userq/rules.toml` once trusted) and the remembered
//! answers to ordinary questions (in the history), listed together; `why` says what
//! the policy decides about a command, part by part.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use user_questions::agents::Agent;
use user_questions::history::store;
use user_questions::paths;
use user_questions::policy::rules::{self, Entry};
use user_questions::policy::{import, trust, words, yours, Action, By, Kind, Policy, Source, Verdict};

use crate::history::{remembered, Remembered};
use crate::tr;

#[derive(Subcommand)]
pub enum RulesCommand {
    /// Allow an action without asking: a command (a prefix of its words), or with
    /// --read, --edit, --fetch, --mcp a file, a domain, an MCP tool; --read-only
    /// allows the built-in set of commands that only inspect.
    Allow(RuleArgs),
    /// Always ask the person about an action, even where another rule allows it.
    Ask(RuleArgs),
    /// Refuse an action; the agent reads --reason.
    Deny(RuleArgs),
    /// Trust a project's .userq/rules.toml as it is now, so its rules apply.
    Trust {
        /// The project's folder (or one under it); this folder when absent.
        dir: Option<PathBuf>,
    },
    /// What the policy decides about a command, and for each part what decided it.
    Why(WhyArgs),
    /// Read an agent's own allow and deny lists, show the rules they make, and add
    /// them with --yes: claude-code (~/.claude/settings.json), codex
    /// (~/.codex/rules/*.rules), gemini (~/.gemini/policies/*.toml and settings.json),
    /// opencode (~/.config/opencode/opencode.json); with --project, that project's.
    Import {
        #[arg(value_parser = import::FROM)]
        agent: String,
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
        /// Add the rules shown; without it nothing is saved.
        #[arg(long)]
        yes: bool,
    },
    /// Remember an answer: the question's exact text and the option label to give.
    Add {
        #[arg(long, value_name = "TEXT")]
        question: String,
        #[arg(long, value_name = "LABEL")]
        answer: String,
        /// Only for asks from this client (its `initialize` name); every client when absent.
        #[arg(long, value_name = "NAME")]
        client: Option<String>,
    },
    /// List every rule: the policy's, with their scope and origin, and the remembered answers.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Remove a rule of your rules file by the id `userq rules list` shows
    /// (`deny:3fa9c2e1`), or a remembered answer by its number.
    Rm { id: String },
}

#[derive(Args)]
pub struct RuleArgs {
    /// The command's words (`cargo test`), or the path glob, domain or `server/tool`.
    #[arg(required_unless_present = "read_only")]
    pattern: Option<String>,
    /// The built-in set of read-only commands (allow only).
    #[arg(long, conflicts_with_all = ["pattern", "read", "edit", "fetch", "mcp"])]
    read_only: bool,
    /// PATTERN is a path glob of files read.
    #[arg(long, conflicts_with_all = ["edit", "fetch", "mcp"])]
    read: bool,
    /// PATTERN is a path glob of files edited or written.
    #[arg(long, conflicts_with_all = ["fetch", "mcp"])]
    edit: bool,
    /// PATTERN is a domain fetched (`*.example.com`).
    #[arg(long, conflicts_with = "mcp")]
    fetch: bool,
    /// PATTERN is an MCP tool: `server/tool` or `server`.
    #[arg(long)]
    mcp: bool,
    /// The command only exactly as given, with no more words.
    #[arg(long)]
    exact: bool,
    /// Only in this folder and under it.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Only for this agent (`claude-code`, `codex`, …).
    #[arg(long, value_name = "NAME", value_parser = crate::agent_arg)]
    agent: Option<Agent>,
    /// Only in this agent session.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// What the agent reads when the rule denies.
    #[arg(long, value_name = "TEXT")]
    reason: Option<String>,
    /// Say what would be added, and save nothing.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Args)]
pub struct WhyArgs {
    command: String,
    /// The folder it runs in (a project's rules apply there); this folder when absent.
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    #[arg(long, value_name = "NAME", value_parser = crate::agent_arg)]
    agent: Option<Agent>,
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    #[arg(long)]
    json: bool,
}

pub fn run(command: RulesCommand) -> ExitCode {
    match command {
        RulesCommand::Allow(args) => add(Verdict::Allow, args),
        RulesCommand::Ask(args) => add(Verdict::Ask, args),
        RulesCommand::Deny(args) => add(Verdict::Deny, args),
        RulesCommand::Trust { dir } => trust_project(dir),
        RulesCommand::Why(args) => why(args),
        RulesCommand::Import { agent, project, yes } => import_from(&agent, project, yes),
        RulesCommand::Add { question, answer, client } => remembered(Remembered::Add { question, answer, client }),
        RulesCommand::List { json } => list(json),
        RulesCommand::Rm { id } => match id.parse::<i64>() {
            Ok(n) => remembered(Remembered::Rm { id: n }),
            Err(_) => remove(&id),
        },
    }
}

fn config() -> Result<PathBuf, ExitCode> {
    paths::config_dir().ok_or_else(|| crate::fail(1, &tr().tr("history-no-folder")))
}

fn here() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// Says why the person's rules file was not changed, and exits 1.
fn edit_failed(e: yours::EditError) -> ExitCode {
    let message = match e {
        yours::EditError::Unusable { path, error } => tr().tr_args(
            "policy-file-unreadable",
            &[("path", (&path.display().to_string()).into()), ("error", (&error).into())],
        ),
        yours::EditError::Invalid(e) => e.to_string(),
        yours::EditError::NoSuch(id) => tr().tr_args("rules-no-such", &[("id", (&id).into())]),
    };
    crate::fail(1, &message)
}

fn add(verdict: Verdict, args: RuleArgs) -> ExitCode {
    let config = match config() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut entry = Entry {
        reason: args.reason.filter(|r| !r.trim().is_empty()),
        agent: args.agent.map(|a| a.name.to_owned()),
        session: args.session,
        exact: args.exact.then_some(true),
        ..Entry::default()
    };
    if let Some(project) = args.project {
        // Kept as the kernel finds it (`..`, a link, a quoted `~` resolved), so the
        // rule holds wherever the project is reached from; a folder that is not there
        // is refused by name.
        let expanded = PathBuf::from(user_questions::policy::rules::expand_home(&project.to_string_lossy()));
        let full = if expanded.is_absolute() { expanded } else { here().join(expanded) };
        match std::fs::canonicalize(&full) {
            Ok(real) if real.is_dir() => entry.project = Some(real.display().to_string()),
            _ => {
                return crate::fail(
                    2,
                    &tr().tr_args("rules-no-such-project", &[("path", (&full.display().to_string()).into())]),
                )
            }
        }
    }
    let pattern = args.pattern.unwrap_or_default();
    match (args.read_only, args.read, args.edit, args.fetch, args.mcp) {
        (true, ..) => entry.read_only = Some(true),
        (_, true, ..) => entry.read = Some(pattern),
        (_, _, true, ..) => entry.edit = Some(pattern),
        (_, _, _, true, _) => entry.fetch = Some(pattern),
        (.., true) => entry.mcp = Some(pattern),
        _ => entry.command = Some(pattern),
    }
    // The entry is checked as a rule before anything is written.
    let rule = match entry.clone().rule(verdict, &user_questions::policy::Origin::Yours, 0) {
        Ok(rule) => rule,
        Err(why) => return crate::fail(2, &format!("userq rules {}: {why}", verdict.key())),
    };
    if args.dry_run {
        println!("{}", tr().tr_args("policy-would-add", &[("rule", (&rule.describe()).into())]));
        if let Some(n) = past_decided(rule) {
            println!("{}", tr().tr_args("policy-would-have-decided", &[("count", n.into())]));
        }
        return ExitCode::SUCCESS;
    }
    match append(&config, &[(verdict, entry)]) {
        Ok(_) => {
            println!("{}\t{}", rule.id, rule.describe());
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}

/// How many past permission questions the rules in force did not decide and `rule`
/// would have; `None` when there is no history.
fn past_decided(rule: rules::Rule) -> Option<usize> {
    let (conn, config) = (history_here()?, paths::config_dir()?);
    let counts = user_questions::history::past::would_have_decided(&conn, &config, &[vec![rule]], None).ok()?;
    counts.first().copied()
}

/// This person's history, when there is any, to read.
fn history_here() -> Option<rusqlite::Connection> {
    user_questions::history::open_if_kept(&paths::data_dir()?.join(user_questions::history::FILE))
}

/// Adds `entries` to the person's rules file in one write; their ids.
fn append(config: &Path, entries: &[(Verdict, Entry)]) -> Result<Vec<String>, ExitCode> {
    yours::add(config, entries).map_err(edit_failed)
}

/// An agent's own rules, shown, and added with `--yes`.
fn import_from(agent: &str, project: Option<PathBuf>, yes: bool) -> ExitCode {
    let config = match config() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    let project = project.map(|d| if d.is_absolute() { d } else { here().join(d) });
    let imported = match import::all(agent, &home, project.as_deref()) {
        Ok(imported) => imported,
        Err(e) => {
            let file = e.file.display().to_string();
            return crate::fail(
                1,
                &tr().tr_args("policy-import-unreadable", &[("file", (&file).into()), ("why", (&e.why).into())]),
            );
        }
    };
    for (verdict, entry) in &imported.rules {
        match entry.clone().rule(*verdict, &user_questions::policy::Origin::Yours, 0) {
            Ok(rule) => println!("{}", tr().tr_args("policy-import-rule", &[("rule", (&rule.describe()).into())])),
            Err(why) => return crate::fail(1, &why),
        }
    }
    for (rule, why) in &imported.left_out {
        let why = tr().tr(why.message());
        println!("{}", tr().tr_args("policy-import-left-out", &[("rule", rule.into()), ("why", (&why).into())]));
    }
    if imported.rules.is_empty() {
        println!("{}", tr().tr("policy-import-none"));
        return ExitCode::SUCCESS;
    }
    if !yes {
        println!("{}", tr().tr("policy-import-confirm"));
        return ExitCode::SUCCESS;
    }
    match append(&config, &imported.rules) {
        Ok(numbers) => {
            println!("{}", tr().tr_args("policy-import-added", &[("count", numbers.len().into())]));
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}

fn remove(id: &str) -> ExitCode {
    let config = match config() {
        Ok(c) => c,
        Err(code) => return code,
    };
    match yours::remove(&config, id) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => edit_failed(e),
    }
}

fn trust_project(dir: Option<PathBuf>) -> ExitCode {
    let config = match config() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let dir = dir.map(|d| if d.is_absolute() { d } else { here().join(d) }).unwrap_or_else(here);
    let Some(file) = trust::find(&dir) else {
        return crate::fail(
            1,
            &tr().tr_args("policy-no-project-file", &[("dir", (&dir.display().to_string()).into())]),
        );
    };
    // A file that does not read as rules is not trusted: its mistakes are named now.
    match trust::trust(&config, &file) {
        Ok(trusted) => {
            println!(
                "{}",
                tr().tr_args(
                    "policy-trusted",
                    &[
                        ("file", (&file.display().to_string()).into()),
                        ("hash", (&trusted.hash[..12]).into()),
                        ("count", trusted.rules.into())
                    ]
                )
            );
            ExitCode::SUCCESS
        }
        Err(e) => crate::fail(1, &e.to_string()),
    }
}

fn why(args: WhyArgs) -> ExitCode {
    let cwd = args.cwd.map(|d| if d.is_absolute() { d } else { here().join(d) }).unwrap_or_else(here);
    let policy = match Policy::here(Some(&cwd)) {
        Ok(p) => p,
        Err(e) => return crate::fail(1, &e.to_string()),
    };
    let action = Action {
        kind: Kind::Command(args.command.clone()),
        cwd: Some(cwd),
        agent: args.agent.map(|a| a.name.to_owned()),
        session: args.session,
    };
    let decision = policy.decide(&action);
    if args.json {
        println!("{}", serde_json::to_string(&decision).expect("a decision serialises"));
        return ExitCode::SUCCESS;
    }
    println!("{}\t{}", verdict_words(decision.decision), args.command);
    for part in &decision.parts {
        println!("  {}\t{}\t{}", verdict_words(part.decision), part.text, by_words(&part.by));
    }
    if let Some(file) = &decision.untrusted {
        println!("{}", tr().tr_args("policy-untrusted", &[("file", file.into())]));
    }
    ExitCode::SUCCESS
}

fn verdict_words(v: Verdict) -> String {
    words::verdict(v, tr())
}

/// What decided a part, in the person's language.
pub fn by_words(by: &By) -> String {
    match by {
        By::Rule { source, reason } => {
            let reason = reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
            let kept = kept_words(source);
            let args = [("rule", (&source.rule).into()), ("origin", (&kept).into())];
            format!("{}{reason}", tr().tr_args("policy-by-rule", &args))
        }
        By::ReadOnly(source) => tr().tr_args("policy-by-read-only", &[("origin", (&kept_words(source)).into())]),
        By::MaybeRule(source) => {
            let kept = kept_words(source);
            let args = [("rule", (&source.rule).into()), ("origin", (&kept).into())];
            tr().tr_args("policy-by-maybe", &args)
        }
        By::NoRule => tr().tr("policy-by-no-rule"),
        By::Unreadable { why, subject } => words::unreadable(why, subject.as_deref(), tr()),
    }
}

/// Where a rule is kept, in the person's words: `your rules, [[allow]] 1`.
fn kept_words(source: &Source) -> String {
    let place = format!("[[{}]] {}", source.verdict.key(), source.number);
    let place = (&place).into();
    match source.origin.split_once(':') {
        Some(("project", file)) => tr().tr_args("policy-kept-project", &[("file", file.into()), ("place", place)]),
        Some(("import", agent)) => tr().tr_args("policy-kept-import", &[("agent", agent.into()), ("place", place)]),
        _ => tr().tr_args("policy-kept-yours", &[("place", place)]),
    }
}

fn list(json: bool) -> ExitCode {
    let cwd = here();
    let policy = match Policy::here(Some(&cwd)) {
        Ok(p) => p,
        Err(e) => return crate::fail(1, &e.to_string()),
    };
    let history = history_here();
    for rule in &policy.rules {
        let used = history.as_ref().and_then(|h| store::policy_uses(h, &rule.key()).ok().flatten());
        let (uses, last) = used.clone().map_or((0, None), |(n, at)| (n, Some(at)));
        let (origin, scope) = (words::origin(rule, tr()), words::scope(rule, tr()));
        let id = &rule.id;
        if json {
            let line = serde_json::json!({
                "id": id, "rule": rule.describe(), "verdict": rule.verdict, "entry": rule.entry(),
                "scope": scope, "origin": origin, "reason": rule.reason, "uses": uses, "lastUsedAt": last,
            });
            println!("{line}");
        } else {
            let reason = rule.reason.as_deref().map(|r| format!("\t{r}")).unwrap_or_default();
            let used = words::uses(used.as_ref(), tr());
            println!("{id}\t{}\t{scope}\t{origin}\t{used}{reason}", rule.describe());
        }
    }
    if let Some((file, _)) = &policy.untrusted {
        eprintln!("{}", tr().tr_args("policy-untrusted", &[("file", (&file.display().to_string()).into())]));
    }
    remembered(Remembered::List { json, quiet_when_empty: !policy.rules.is_empty() })
}
