//! The window's Rules view: one list of what decides before you are asked. The
//! policy's rules (your own and those imported) with where each holds, whose
//! it is and how often it decided, and the remembered answers; either can be removed.
//! A mistake in the rules file is said, and nothing is removed then.

use std::path::Path;

use serde::{Deserialize, Serialize};
use user_questions::history::store;
use user_questions::model::ErrorCode;
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
}

/// One rule of the policy.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PolicyRuleView {
    /// `allow:2`: its place in its file, as it is removed by.
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
    /// Whether it is in your own file, where the window can remove it (a project's
    /// file is the project's).
    pub removable: bool,
}

/// A rule to remove: a remembered answer by its number, a rule of the policy by its
/// place (`allow:2`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum RuleId {
    Remembered(#[cfg_attr(test, ts(type = "number"))] i64),
    Policy(String),
}

/// The view, from the configuration folder (`config`) and the history (`history`).
pub fn view(config: Option<&Path>, history_file: Option<&Path>, text: &Text) -> Result<RulesView, UiError> {
    let remembered = match history_file {
        Some(path) => history::rules(path, text)?,
        None => Vec::new(),
    };
    let uses_in = history_file.and_then(user_questions::history::open_if_kept);
    let (policy, problem) = match config.map(|c| Policy::load(c, None)).unwrap_or_else(|| Ok(Policy::default())) {
        Ok(policy) => (policy.rules, None),
        Err(e) => (Vec::new(), Some(text.tr_args("window-rules-problem", &[("error", (&e.to_string()).into())]))),
    };
    let policy = policy
        .iter()
        .map(|rule| {
            let used = uses_in.as_ref().and_then(|h| store::policy_uses(h, &rule.key()).ok().flatten());
            PolicyRuleView {
                id: format!("{}:{}", rule.verdict.key(), rule.number),
                verdict: rule.verdict.key().to_owned(),
                verdict_label: words::verdict(rule.verdict, text),
                what: rule.what(),
                reason: rule.reason.clone(),
                scope_label: words::scope(rule, text),
                origin_label: words::origin(rule, text),
                uses_label: words::count(used.as_ref(), text),
                last_used_at: used.map(|(_, at)| at),
                removable: !matches!(rule.origin, Origin::Project(_)),
            }
        })
        .collect();
    Ok(RulesView { policy, remembered, problem })
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
        let view = view(Some(dir.path()), None, &text).unwrap();
        let shown: Vec<[&str; 5]> = view
            .policy
            .iter()
            .map(|r| [&r.id, &r.verdict_label, &r.what, &r.scope_label, &r.origin_label].map(String::as_str))
            .collect();
        assert_eq!(
            shown,
            [
                ["allow:1", "allow", "`cargo test`", "everywhere", "yours"],
                ["allow:2", "allow", "`npm test`", "everywhere", "imported from codex"],
                ["deny:1", "deny", "`sudo`", "codex", "yours"],
            ]
        );
        assert!(view.policy.iter().all(|r| r.uses_label == "not used yet" && r.last_used_at.is_none()));
        assert_eq!(view.policy[2].reason.as_deref(), Some("not as root"));
        assert_eq!(view.problem, None);
        remove(Some(dir.path()), None, &RuleId::Policy("allow:1".into()), &text).unwrap();
        let left: Vec<String> =
            super::view(Some(dir.path()), None, &text).unwrap().policy.into_iter().map(|r| r.what).collect();
        assert_eq!(left, ["`npm test`", "`sudo`"]);
        let e = remove(Some(dir.path()), None, &RuleId::Policy("allow:9".into()), &text).unwrap_err();
        assert_eq!(e.code, "NO_SUCH_RULE");
        let zh = Text::for_tag("zh-CN");
        let zh = &super::view(Some(dir.path()), None, &zh).unwrap().policy[0];
        assert_eq!((zh.verdict_label.as_str(), zh.scope_label.as_str()), ("允许", "所有地方"));
    }

    #[test]
    fn a_mistake_in_the_file_is_said_and_nothing_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let broken = "[[allow]]\ncommand = \"cargo test\"\n[[deny]]\nreason = \"no action\"\n";
        std::fs::write(dir.path().join("rules.toml"), broken).unwrap();
        let text = Text::for_tag("en");
        let view = view(Some(dir.path()), None, &text).unwrap();
        assert!(view.policy.is_empty());
        assert!(view.problem.as_deref().unwrap().contains("[[deny]] number 1"), "{:?}", view.problem);
        assert!(remove(Some(dir.path()), None, &RuleId::Policy("allow:1".into()), &text).is_err());
        assert_eq!(std::fs::read_to_string(dir.path().join("rules.toml")).unwrap(), broken);
    }

    #[test]
    fn an_id_is_a_remembered_answers_number_or_a_rules_place() {
        assert_eq!(serde_json::from_value::<RuleId>(serde_json::json!(3)).unwrap(), RuleId::Remembered(3));
        assert_eq!(
            serde_json::from_value::<RuleId>(serde_json::json!("deny:1")).unwrap(),
            RuleId::Policy("deny:1".into())
        );
    }
}
