//! Remembering a permission's Allow as rules of the policy, the ways a person
//! generalises one decision: this exact command or this command with any arguments
//! (this file or its folder, this MCP tool or its whole server), for this agent
//! session, in this project, or everywhere. Each way is the rules it adds: one for
//! each part no rule allows yet. An action with a part that cannot be read, or that
//! a deny or an ask may fit, offers no way at all: no allow added could let it run.

use std::path::Path;

use serde::Serialize;

use super::rules::{Entry, Origin, Rule, Verdict};
use super::{Action, By, Decision, Kind, Policy};
use user_questions_shell::{Part, Run};

/// How far the action is generalised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Breadth {
    /// This command exactly, this file, this domain, this tool.
    Exact,
    /// This command with any arguments, the file's folder, the tool's server.
    Wide,
}

/// Where the rules hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Reach {
    Session,
    Project,
    Everywhere,
}

/// One way to remember: the allow rules it adds.
#[derive(Debug, Clone, PartialEq)]
pub struct Way {
    pub breadth: Breadth,
    pub reach: Reach,
    pub entries: Vec<Entry>,
}

impl Way {
    /// The rules as the policy would read them, to describe and to count.
    pub fn rules(&self) -> Vec<Rule> {
        let rule = |(i, e): (usize, &Entry)| e.clone().rule(Verdict::Allow, &Origin::Yours, i + 1).ok();
        self.entries.iter().enumerate().filter_map(rule).collect()
    }
}

/// Adds `way`'s rules to the person's rules file in `config`.
pub fn keep(config: &Path, way: &Way) -> Result<(), super::yours::EditError> {
    let entries: Vec<_> = way.entries.iter().map(|e| (Verdict::Allow, e.clone())).collect();
    super::yours::add(config, &entries).map(|_| ())
}

/// The ways to remember an Allow of `action` under `policy`, narrowest first: each one
/// that, added, lets this very action run (a program named by its path, say, no allow
/// rule matches); none when no rule added could allow it.
pub fn ways(action: &Action, policy: &Policy) -> Vec<Way> {
    let decided = policy.decide(action);
    if decided.decision != Verdict::Ask {
        return Vec::new();
    }
    let Some(needed) = needed(action, &decided) else { return Vec::new() };
    let project = action.cwd.as_deref().map(crate::place::project_of);
    let reaches = [
        action.session.as_ref().map(|_| Reach::Session),
        project.as_ref().map(|_| Reach::Project),
        Some(Reach::Everywhere),
    ];
    let mut ways: Vec<Way> = Vec::new();
    for reach in reaches.into_iter().flatten() {
        for breadth in [Breadth::Exact, Breadth::Wide] {
            let Some(mut entries) = needed.iter().map(|n| n.entry(breadth)).collect::<Option<Vec<Entry>>>() else {
                continue;
            };
            entries.dedup();
            for e in &mut entries {
                match reach {
                    Reach::Session => e.session = action.session.clone(),
                    Reach::Project => e.project = project.as_ref().map(|p| p.display().to_string()),
                    Reach::Everywhere => {}
                }
            }
            let way = Way { breadth, reach, entries };
            if !ways.iter().any(|w| w.reach == reach && w.entries == way.entries) && lets_run(policy, &way, action) {
                ways.push(way);
            }
        }
    }
    ways
}

/// Whether `way`, added to `policy`, lets `action` run.
fn lets_run(policy: &Policy, way: &Way, action: &Action) -> bool {
    let mut with = policy.clone();
    with.rules.extend(way.rules());
    with.decide(action).decision == Verdict::Allow
}

/// What an allow must cover: each part no rule decided, when every such part is one
/// a rule can name.
fn needed(action: &Action, decided: &Decision) -> Option<Vec<Needed>> {
    // A part that a rule, not the lack of one, kept from an allow: no allow added helps.
    if decided.parts.iter().any(|p| p.decision != Verdict::Allow && p.by != By::NoRule) {
        return None;
    }
    let undecided = |i: usize| decided.parts.get(i).filter(|p| p.decision != Verdict::Allow);
    let mut needed = Vec::new();
    match &action.kind {
        Kind::Command(_) => {
            for (i, judged) in decided.parts.iter().enumerate() {
                let Some(part) = judged.part.clone().filter(|_| undecided(i).is_some()) else { continue };
                needed.push(match part {
                    Part::Run(run) => Needed::Run(words(&run)),
                    Part::Write { path, .. } => Needed::Write(path.literal()?.to_owned()),
                    Part::Read { path, .. } => Needed::Read(path),
                    Part::Unreadable { .. } => return None,
                });
            }
        }
        Kind::Read(path) => needed.push(Needed::Read(path.clone())),
        Kind::Edit(paths) => {
            for (i, path) in paths.iter().enumerate() {
                if undecided(i).is_some() {
                    needed.push(Needed::Edit(path.clone()));
                }
            }
        }
        Kind::Fetch(url) => needed.push(Needed::Fetch(url::Url::parse(url).ok()?.host_str()?.to_owned())),
        Kind::Mcp { server, tool } => needed.push(Needed::Mcp(server.clone(), tool.clone())),
    }
    (!needed.is_empty()).then_some(needed)
}

/// One part an allow must cover.
enum Needed {
    /// A command's words; `None` for one a rule cannot name as it is (known only at
    /// run time, or holding a space or a `*`).
    Run(Vec<Option<String>>),
    Read(String),
    Edit(String),
    /// A file a command's redirection writes: the same file however wide.
    Write(String),
    Fetch(String),
    Mcp(String, String),
}

impl Needed {
    /// The entry that allows it this widely; `None` when it has no such entry.
    fn entry(&self, breadth: Breadth) -> Option<Entry> {
        let exact = breadth == Breadth::Exact;
        let mut e = Entry::default();
        match self {
            Needed::Run(words) if exact => {
                let words: Option<Vec<&str>> = words.iter().map(Option::as_deref).collect();
                e.command = Some(words?.join(" "));
                e.exact = Some(true);
            }
            Needed::Run(words) => e.command = Some(program(words)?),
            Needed::Read(path) => e.read = Some(if exact { path.clone() } else { folder(path)? }),
            Needed::Edit(path) => e.edit = Some(if exact { path.clone() } else { folder(path)? }),
            Needed::Write(path) => e.edit = Some(path.clone()),
            Needed::Fetch(host) => e.fetch = Some(host.clone()),
            Needed::Mcp(server, tool) => e.mcp = Some(if exact { format!("{server}/{tool}") } else { server.clone() }),
        }
        Some(e)
    }
}

/// A run's words, each as a rule can name it, if it can.
fn words(run: &Run) -> Vec<Option<String>> {
    let plain = |w: &&str| !w.is_empty() && !w.contains('*') && !w.chars().any(char::is_whitespace);
    run.argv.iter().map(|w| w.literal().filter(plain).map(str::to_owned)).collect()
}

/// The program and, when the next word reads as its subcommand (`cargo test`,
/// `git log`, `npm run`), that word: what "with any arguments" keeps.
fn program(words: &[Option<String>]) -> Option<String> {
    let sub = |w: &str| {
        let mut chars = w.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
    };
    match words {
        [Some(name), Some(next), ..] if sub(next) => Some(format!("{name} {next}")),
        [Some(name), ..] => Some(name.clone()),
        _ => None,
    }
}

/// Every file under the folder of `path`; `None` for a path with no folder named.
fn folder(path: &str) -> Option<String> {
    let parent = Path::new(path).parent().filter(|p| !p.as_os_str().is_empty())?;
    Some(format!("{}/**", parent.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::rules;

    fn ways_for(kind: Kind, cwd: &Path, rules_toml: &str) -> Vec<Way> {
        let policy =
            Policy { rules: rules::parse(rules_toml, Path::new("r.toml"), &Origin::Yours).unwrap(), untrusted: None };
        let action = Action { kind, cwd: Some(cwd.into()), agent: None, session: Some("s1".into()) };
        ways(&action, &policy)
    }

    fn shown(ways: &[Way]) -> Vec<String> {
        ways.iter()
            .map(|w| {
                let rules: Vec<String> = w.rules().iter().map(|r| r.what()).collect();
                format!("{:?} {:?}: {}", w.reach, w.breadth, rules.join(", "))
            })
            .collect()
    }

    #[test]
    fn a_command_is_remembered_exactly_or_with_any_arguments_in_each_reach() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        let sub = dir.path().join("crates/a");
        std::fs::create_dir_all(&sub).unwrap();
        let w = ways_for(Kind::Command("cargo test --release".into()), &sub, "");
        assert_eq!(
            shown(&w),
            [
                "Session Exact: `cargo test --release` (exactly)",
                "Session Wide: `cargo test`",
                "Project Exact: `cargo test --release` (exactly)",
                "Project Wide: `cargo test`",
                "Everywhere Exact: `cargo test --release` (exactly)",
                "Everywhere Wide: `cargo test`",
            ]
        );
        // The project is the repository, not the folder under it the agent works in.
        assert_eq!(w[2].entries[0].project.as_deref(), Some(dir.path().display().to_string().as_str()));
        assert_eq!(w[0].entries[0].session.as_deref(), Some("s1"));
    }

    #[test]
    fn only_the_parts_no_rule_allows_are_remembered() {
        let dir = tempfile::tempdir().unwrap();
        let w = ways_for(
            Kind::Command("cargo build && ls -la > out.txt && make lint".into()),
            dir.path(),
            "[[allow]]\ncommand = \"cargo build\"\n[[allow]]\nread-only = true\n",
        );
        assert_eq!(
            shown(&w[..2]),
            ["Session Exact: edit out.txt, `make lint` (exactly)", "Session Wide: edit out.txt, `make lint`"]
        );
    }

    #[test]
    fn nothing_is_offered_where_no_allow_could_let_it_run() {
        let dir = tempfile::tempdir().unwrap();
        let deny = "[[deny]]\ncommand = \"rm\"\n[[ask]]\ncommand = \"git push\"\n";
        // `./gradlew`: no allow matches a program named by its path outside the system's.
        for command in ["eval ls", "$CMD x", "git push", "ls && rm x", "echo hi > \"$F\"", "./gradlew build"] {
            assert!(ways_for(Kind::Command(command.into()), dir.path(), deny).is_empty(), "{command}");
        }
    }

    #[test]
    fn a_word_a_rule_cannot_name_leaves_only_the_wide_way() {
        let dir = tempfile::tempdir().unwrap();
        let w = ways_for(Kind::Command("git commit -m 'fix the bug'".into()), dir.path(), "");
        assert_eq!(
            shown(&w),
            ["Session Wide: `git commit`", "Project Wide: `git commit`", "Everywhere Wide: `git commit`"]
        );
        let w = ways_for(Kind::Command("cat \"$(date)\"".into()), dir.path(), "");
        assert_eq!(shown(&w[2..]), ["Everywhere Wide: `date`, `cat`"]);
    }

    #[test]
    fn files_fetches_and_tools_widen_to_their_folder_domain_and_server() {
        let dir = tempfile::tempdir().unwrap();
        let edit = ways_for(Kind::Edit(vec!["/p/src/main.rs".into()]), dir.path(), "");
        assert_eq!(shown(&edit[4..]), ["Everywhere Exact: edit /p/src/main.rs", "Everywhere Wide: edit /p/src/**"]);
        let fetch = ways_for(Kind::Fetch("https://docs.rs/x".into()), dir.path(), "");
        assert_eq!(shown(&fetch[2..]), ["Everywhere Exact: fetch docs.rs"]);
        let mcp = ways_for(Kind::Mcp { server: "gh".into(), tool: "list".into() }, dir.path(), "");
        assert_eq!(shown(&mcp[4..]), ["Everywhere Exact: mcp gh/list", "Everywhere Wide: mcp gh"]);
    }

    /// Every way, added, allows the very command it was offered for; no way lets a part
    /// that cannot be read run beside it; an exact way of a one-part command allows no
    /// other command (more words, `sudo` before it).
    #[test]
    fn a_way_allows_what_was_asked_and_an_exact_way_nothing_more() {
        let dir = tempfile::tempdir().unwrap();
        let base = "[[allow]]\nread-only = true\n[[deny]]\ncommand = \"rm -rf /\"\n";
        let commands = [
            "cargo test --release",
            "npm run build",
            "c''at a > b.txt",
            "\\make lint && npm run test:unit",
            "timeout 5 make build",
            "LANG=C make deploy | tee log.txt",
            "git -C sub status && git push origin main",
            "find . -name x -exec rm {} +",
            "echo \"$(date)\" >> notes.txt",
            "bash -c 'make a && make b'",
        ];
        let parsed = |toml: &str| rules::parse(toml, Path::new("r.toml"), &Origin::Yours).unwrap();
        for command in commands {
            let action = Action {
                kind: Kind::Command(command.into()),
                cwd: Some(dir.path().into()),
                agent: None,
                session: Some("s1".into()),
            };
            let policy = Policy { rules: parsed(base), untrusted: None };
            let ways = ways(&action, &policy);
            assert!(!ways.is_empty(), "{command}: a way is offered");
            for way in &ways {
                let mut with = policy.clone();
                with.rules.extend(way.rules());
                assert_eq!(with.decide(&action).decision, Verdict::Allow, "{command}: {:?}", way.entries);
                for other in [format!("{command} --more"), format!("{command}; eval \"$X\""), format!("sudo {command}")]
                {
                    let other = Action { kind: Kind::Command(other), ..action.clone() };
                    // What the way itself allows: allowed with it, and not without it.
                    let by_way = with.decide(&other).decision == Verdict::Allow
                        && policy.decide(&other).decision != Verdict::Allow;
                    let unreadable = other.kind.clone() == Kind::Command(format!("{command}; eval \"$X\""));
                    assert!(!(by_way && unreadable), "{command}: {:?} allows {:?}", way.entries, other.kind);
                    // An exact way of a one-part command allows no other command at all.
                    let one_part = user_questions_shell::read(command).parts.len() == 1;
                    let exact = way.breadth == Breadth::Exact && one_part;
                    assert!(!(by_way && exact), "{command}: {:?} allows {:?}", way.entries, other.kind);
                }
            }
        }
    }
}
