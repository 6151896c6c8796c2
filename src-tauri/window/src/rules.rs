//! The window's Rules view: one list of what decides before you are asked. The
//! policy's rules (your own and those imported) with where each holds, whose
//! it is and how often it decided, and the remembered answers; either can be removed,
//! and a rule of yours edited. A mistake in the rules file is said, and nothing is
//! changed then. The projects' own rules files, found above the folders agents asked
//! from, each say whether they apply; one waiting for trust is trusted from here.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use user_questions::history::store;
use user_questions::model::ErrorCode;
use user_questions::policy::rules::{Entry, Rule};
use user_questions::policy::trust::{self, ProjectFile, Trust};
use user_questions::policy::{words, yours, Origin, Policy};
use user_questions_i18n::Text;

use crate::error::UiError;
use crate::history::{self, RuleView};

/// Everything the Rules view shows.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RulesView {
    pub policy: Vec<PolicyRuleView>,
    pub remembered: Vec<RuleView>,
    /// Why the rules decide nothing now (a mistake in the file), in the person's words.
    pub problem: Option<String>,
    /// The projects' own rules files above the folders agents asked from.
    pub projects: Vec<ProjectView>,
}

/// A project's `.userq/rules.toml`.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProjectView {
    /// The file, as `trust_project` names it.
    pub file: String,
    /// Its rules apply.
    pub trusted: bool,
    /// "Trusted", or why its rules decide nothing.
    pub status_label: String,
    pub rules: Vec<PolicyRuleView>,
    /// What is wrong with the file, when its rules cannot be read.
    pub problem: Option<String>,
}

/// One rule of the policy.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PolicyRuleView {
    /// `allow:3fa9c2e1`: its stable id ([`Entry::id`]), as it is removed by.
    pub id: String,
    /// `allow`, `ask` or `deny`.
    pub verdict: String,
    /// The verdict in the person's words.
    pub verdict_label: String,
    /// What it is about: `` `cargo test` ``, `read-only`, `edit src/**`.
    pub what: String,
    /// What the agent reads when it denies.
    pub reason: Option<String>,
    /// "everywhere", or its project, agent and session.
    pub scope_label: String,
    /// "yours", "imported from codex", a project's file.
    pub origin_label: String,
    /// "used 3 times", or "not used yet".
    pub uses_label: String,
    /// When it last decided (RFC 3339), shown in the person's time.
    pub last_used_at: Option<String>,
    /// Whether it is in your own file, where the window can remove and edit it (a
    /// project's file is the project's).
    pub removable: bool,
    /// The rule's entry as its file holds it (`command = "cargo test"`), to edit.
    pub entry: String,
}

/// A rule to remove: a remembered answer by its number, a rule of the policy by its
/// stable id (`allow:3fa9c2e1`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum RuleId {
    Remembered(#[cfg_attr(test, ts(type = "number"))] i64),
    Policy(String),
}

/// How many recent asks the folders of projects are looked for in.
const RECENT: u64 = 2_000;

/// The view, from the configuration folder (`config`) and the history (`history`);
/// projects' rules files are looked for above `asking` (the folders of the asks held
/// now) and the folders of recent asks.
pub fn view(
    config: Option<&Path>,
    history_file: Option<&Path>,
    asking: Vec<PathBuf>,
    text: &Text,
) -> Result<RulesView, UiError> {
    let remembered = match history_file {
        Some(path) => history::rules(path, text)?,
        None => Vec::new(),
    };
    let uses_in = history_file.and_then(user_questions::history::open_if_kept);
    let (policy, problem) = match config.map(|c| Policy::load(c, None)).unwrap_or_else(|| Ok(Policy::default())) {
        Ok(policy) => (policy.rules, None),
        Err(e) => (Vec::new(), Some(text.tr_args("window-rules-problem", &[("error", (&e.to_string()).into())]))),
    };
    let used = |rule: &Rule| uses_in.as_ref().and_then(|h| store::policy_uses(h, &rule.key()).ok().flatten());
    let row = |rule: &Rule| rule_view(rule, used(rule), text);
    let policy = policy.iter().map(row).collect();
    let mut folders = asking;
    if let Some(h) = &uses_in {
        folders.extend(user_questions::history::past::folders(h, RECENT).unwrap_or_default());
    }
    let projects = match config {
        Some(config) => trust::project_files(config, folders).iter().map(|f| project_view(f, &row, text)).collect(),
        None => Vec::new(),
    };
    Ok(RulesView { policy, remembered, problem, projects })
}

/// A rule as the view lists it; `used`: how often it decided, and when last.
fn rule_view(rule: &Rule, used: Option<(i64, String)>, text: &Text) -> PolicyRuleView {
    PolicyRuleView {
        id: rule.id.clone(),
        verdict: rule.verdict.key().to_owned(),
        verdict_label: words::verdict(rule.verdict, text),
        what: rule.what(),
        reason: rule.reason.clone(),
        scope_label: words::scope(rule, text),
        origin_label: words::origin(rule, text),
        uses_label: words::count(used.as_ref(), text),
        last_used_at: used.map(|(_, at)| at),
        removable: !matches!(rule.origin, Origin::Project(_)),
        entry: rule.entry().to_toml(),
    }
}

fn project_view(f: &ProjectFile, row: &dyn Fn(&Rule) -> PolicyRuleView, text: &Text) -> ProjectView {
    let (rules, problem) = match &f.rules {
        Ok(rules) => (rules.iter().map(row).collect(), None),
        Err(e) => (Vec::new(), Some(text.tr_args("window-rules-problem", &[("error", (&e.to_string()).into())]))),
    };
    ProjectView {
        file: f.file.display().to_string(),
        trusted: f.trust == Trust::Trusted,
        status_label: text.tr(match f.trust {
            Trust::Trusted => "window-project-trusted",
            Trust::Untrusted => "window-project-untrusted",
            Trust::Changed => "window-project-changed",
        }),
        rules,
        problem,
    }
}

/// Trusts a project's rules file as it is now: only a `.userq/rules.toml` whose rules
/// can be read.
pub fn trust(config: Option<&Path>, file: &str, text: &Text) -> Result<(), UiError> {
    let refused = |key: &str, error: String| {
        UiError::new(ErrorCode::BadRequest, text.tr_args(key, &[("file", file.into()), ("error", (&error).into())]))
    };
    let path = Path::new(file);
    let config = config.ok_or_else(|| refused("window-project-not-trusted", "no configuration folder".into()))?;
    if !path.is_absolute() || !path.ends_with(trust::PROJECT_FILE) {
        return Err(refused("window-project-not-a-file", String::new()));
    }
    if !path.is_file() {
        return Err(refused("window-project-not-a-file", String::new()));
    }
    trust::trust(config, path).map(|_| ()).map_err(|e| refused("window-project-not-trusted", e.to_string()))
}

/// Puts `entry` (a rule's fields as TOML: `command = "cargo test"`) in the place of
/// your rule `id` (`allow:3fa9c2e1`), checked as a rule before anything is saved.
pub fn edit(config: Option<&Path>, id: &RuleId, entry: &str, text: &Text) -> Result<(), UiError> {
    let wrong = |error: String| {
        UiError::new(ErrorCode::BadRequest, text.tr_args("window-rules-not-saved", &[("error", (&error).into())]))
    };
    let no_such =
        |id: &str| UiError::new(ErrorCode::NoSuchRule, text.tr_args("window-error-no-such-rule", &[("id", id.into())]));
    let id = match id {
        RuleId::Policy(place) => place.as_str(),
        // A remembered answer is the question and its answer: forgotten, never edited.
        RuleId::Remembered(n) => return Err(no_such(&n.to_string())),
    };
    let config = config.ok_or_else(|| no_such(id))?;
    let parsed = Entry::from_toml(entry).map_err(wrong)?;
    // The file is read as rules again before it is saved: a mistake saves nothing.
    yours::replace(config, id, &parsed).map_err(|e| match e {
        yours::EditError::NoSuch(_) => no_such(id),
        other => wrong(other.to_string()),
    })
}

/// Removes one rule.
pub fn remove(config: Option<&Path>, history_file: Option<&Path>, id: &RuleId, text: &Text) -> Result<(), UiError> {
    match id {
        RuleId::Remembered(n) => {
            let no_history = || UiError::new(ErrorCode::History, text.tr("window-error-no-history"));
            history::remove_rule(history_file.ok_or_else(no_history)?, *n, text)
        }
        RuleId::Policy(place) => {
            let no_such = || {
                UiError::new(ErrorCode::NoSuchRule, text.tr_args("window-error-no-such-rule", &[("id", place.into())]))
            };
            let config = config.ok_or_else(no_such)?;
            yours::remove(config, place).map_err(|e| match e {
                yours::EditError::NoSuch(_) => no_such(),
                other => UiError::new(
                    ErrorCode::BadRequest,
                    text.tr_args("window-rules-problem", &[("error", (&other.to_string()).into())]),
                ),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = "[[allow]]\ncommand = \"cargo test\"\n[[allow]]\ncommand = \"npm test\"\nfrom = \"codex\"\n\
        [[deny]]\ncommand = \"sudo\"\nreason = \"not as root\"\nagent = \"codex\"\n";

    #[test]
    fn the_policys_rules_are_listed_in_the_persons_words_and_removed_by_their_place() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("rules.toml"), RULES).unwrap();
        let text = Text::for_tag("en");
        let view = view(Some(dir.path()), None, Vec::new(), &text).unwrap();
        let shown: Vec<[&str; 5]> = view
            .policy
            .iter()
            .map(|r| [&r.id, &r.verdict_label, &r.what, &r.scope_label, &r.origin_label].map(String::as_str))
            .collect();
        let [a, b, c] = [&view.policy[0].id, &view.policy[1].id, &view.policy[2].id].map(String::as_str);
        assert_eq!(
            shown,
            [
                [a, "allow", "`cargo test`", "everywhere", "yours"],
                [b, "allow", "`npm test`", "everywhere", "imported from codex"],
                [c, "deny", "`sudo`", "codex", "yours"],
            ]
        );
        let cargo_test = Entry { command: Some("cargo test".into()), ..Entry::default() };
        assert_eq!(a, cargo_test.id(user_questions::policy::rules::Verdict::Allow));
        assert!(view.policy.iter().all(|r| r.uses_label == "not used yet" && r.last_used_at.is_none()));
        assert_eq!(view.policy[2].reason.as_deref(), Some("not as root"));
        assert_eq!(view.problem, None);
        remove(Some(dir.path()), None, &RuleId::Policy(a.to_owned()), &text).unwrap();
        let left: Vec<String> = super::view(Some(dir.path()), None, Vec::new(), &text)
            .unwrap()
            .policy
            .into_iter()
            .map(|r| r.what)
            .collect();
        assert_eq!(left, ["`npm test`", "`sudo`"]);
        let e = remove(Some(dir.path()), None, &RuleId::Policy("allow:9".into()), &text).unwrap_err();
        assert_eq!(e.code, "NO_SUCH_RULE");
        let zh = Text::for_tag("zh-CN");
        let zh = &super::view(Some(dir.path()), None, Vec::new(), &zh).unwrap().policy[0];
        assert_eq!((zh.verdict_label.as_str(), zh.scope_label.as_str()), ("允许", "所有地方"));
    }

    #[test]
    fn a_mistake_in_the_file_is_said_and_nothing_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let broken = "[[allow]]\ncommand = \"cargo test\"\n[[deny]]\nreason = \"no action\"\n";
        std::fs::write(dir.path().join("rules.toml"), broken).unwrap();
        let text = Text::for_tag("en");
        let view = view(Some(dir.path()), None, Vec::new(), &text).unwrap();
        assert!(view.policy.is_empty());
        assert!(view.problem.as_deref().unwrap().contains("[[deny]] number 1"), "{:?}", view.problem);
        let cargo_test = Entry { command: Some("cargo test".into()), ..Entry::default() };
        let id = RuleId::Policy(cargo_test.id(user_questions::policy::rules::Verdict::Allow));
        assert!(remove(Some(dir.path()), None, &id, &text).is_err());
        assert_eq!(std::fs::read_to_string(dir.path().join("rules.toml")).unwrap(), broken);
    }

    #[test]
    fn an_id_is_a_remembered_answers_number_or_a_rules_place() {
        assert_eq!(serde_json::from_value::<RuleId>(serde_json::json!(3)).unwrap(), RuleId::Remembered(3));
        assert_eq!(
            serde_json::from_value::<RuleId>(serde_json::json!("deny:3fa9c2e1")).unwrap(),
            RuleId::Policy("deny:3fa9c2e1".into())
        );
    }

    #[test]
    fn a_rule_of_yours_is_edited_in_place_and_a_mistake_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("rules.toml"), RULES).unwrap();
        let text = Text::for_tag("en");
        let shown = view(Some(dir.path()), None, Vec::new(), &text).unwrap();
        assert_eq!(shown.policy[1].entry, "command = \"npm test\"\nfrom = \"codex\"\n");
        let first = RuleId::Policy(shown.policy[0].id.clone());
        edit(Some(dir.path()), &first, "command = \"cargo test --lib\"\nproject = \"/p\"\n", &text).unwrap();
        let kept = std::fs::read_to_string(dir.path().join("rules.toml")).unwrap();
        assert!(kept.starts_with("[[allow]]\ncommand = \"cargo test --lib\"\nproject = \"/p\"\n[[allow]]\n"), "{kept}");
        for (entry, why) in [
            ("command = ", "string values must be quoted"),
            ("reason = \"x\"", "names no action"),
            ("colour = \"red\"", "unknown field"),
            ("read-only = true", "puts read-only under ask or deny"),
        ] {
            let id = RuleId::Policy(shown.policy[if entry.starts_with("read-only") { 2 } else { 1 }].id.clone());
            let e = edit(Some(dir.path()), &id, entry, &text).unwrap_err();
            assert!(e.message.contains(why), "{entry}: {}", e.message);
        }
        for missing in [RuleId::Policy("allow:1".into()), RuleId::Policy("maybe:1".into()), RuleId::Remembered(1)] {
            assert_eq!(edit(Some(dir.path()), &missing, "command = \"x\"", &text).unwrap_err().code, "NO_SUCH_RULE");
        }
        assert_eq!(std::fs::read_to_string(dir.path().join("rules.toml")).unwrap(), kept);
    }

    #[test]
    fn a_projects_file_above_a_folder_asked_from_waits_for_trust_and_applies_once_trusted() {
        let (config, project) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let file = project.path().join(".userq/rules.toml");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "[[allow]]\ncommand = \"make test\"\n").unwrap();
        let sub = project.path().join("src");
        std::fs::create_dir_all(&sub).unwrap();
        let text = Text::for_tag("en");
        let projects = |asking: Vec<PathBuf>| view(Some(config.path()), None, asking, &text).unwrap().projects;
        assert!(projects(Vec::new()).is_empty());
        let waiting = &projects(vec![sub.clone(), project.path().into()])[..];
        assert_eq!(waiting.len(), 1, "one file, found from two folders");
        assert_eq!((waiting[0].file.as_str(), waiting[0].trusted), (file.to_str().unwrap(), false));
        assert!(waiting[0].status_label.starts_with("Not trusted"), "{}", waiting[0].status_label);
        assert_eq!(waiting[0].rules[0].what, "`make test`");
        assert!(!waiting[0].rules[0].removable);

        // Only a project's rules file is trusted from the window.
        let other = project.path().join("notes.toml");
        std::fs::write(&other, "").unwrap();
        for bad in [other.to_str().unwrap(), ".userq/rules.toml", "/nowhere/.userq/rules.toml"] {
            assert_eq!(trust(Some(config.path()), bad, &text).unwrap_err().code, "BAD_REQUEST", "{bad}");
        }
        trust(Some(config.path()), file.to_str().unwrap(), &text).unwrap();
        assert!(projects(vec![sub.clone()])[0].trusted);
        std::fs::write(&file, "[[allow]]\ncommand = \"make\"\n").unwrap();
        let changed = &projects(vec![sub.clone()])[0];
        assert!(!changed.trusted && changed.status_label.starts_with("Changed since"), "{}", changed.status_label);
        let zh = view(Some(config.path()), None, vec![sub], &Text::for_tag("zh-CN")).unwrap();
        assert!(zh.projects[0].status_label.starts_with("信任后已被修改"), "{}", zh.projects[0].status_label);
    }
}
