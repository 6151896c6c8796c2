//! Who decided how an ask ended, kept in the history's `answered_by` as one short
//! text and read back as this type, so the history, the window and an audit export
//! all say it the same way, in the person's words. An answerer's registered name
//! stands for itself; the finer kinds are written by whoever decided: a remembered
//! rule (`rule:3`), the person's deadline (`deadline`), another machine of the
//! relay's circle (`machine:beta`), the agent's own prompt once its hook let go
//! (`agent-prompt`), the policy's rules that decided before anyone was asked
//! (`policy:[…]`, see [`PolicyRule`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use user_questions_i18n::Text;

use crate::model::{Answer, ErrorCode, Kind, Request, UserQuestionError};

/// Who ended an ask.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decider {
    /// The person in the desktop app's window.
    Window,
    /// The person in a terminal (`userq answer`).
    Terminal,
    /// The person at another machine of the circle.
    Machine(String),
    /// A remembered answer, by its rule's id.
    Rule(i64),
    /// The person's deadline passed with nobody answering.
    Deadline,
    /// The agent's own prompt: its hook let go of a permission before anyone here
    /// answered (the agent ended it), so the agent asked in its own way.
    AgentPrompt,
    /// People in the Matrix room, each as `@user:server/DEVICE`: one, or a team's
    /// approvers, among them the desk's own person (`@user:server/desk`, or `desk`
    /// when they are not named on Matrix).
    Matrix(Vec<String>),
    /// The policy's rules, before anyone was asked: a deny's rule, or the rules that
    /// allowed each part of what the agent wanted.
    Policy(Vec<PolicyRule>),
    /// Any other answerer, by the name it registered (a script, a tool).
    Answerer(String),
}

/// A rule of the policy as the history keeps who decided: how it reads, whose it is
/// (`yours`, `project:<file>`, `import:<agent>`), and the key its uses are counted by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyRule {
    pub rule: String,
    pub origin: String,
    pub key: String,
}

impl From<&crate::policy::Source> for PolicyRule {
    fn from(s: &crate::policy::Source) -> Self {
        Self { rule: s.rule.clone(), origin: s.origin.clone(), key: s.key.clone() }
    }
}

/// The names the window registers under (the app's, and the window crate's own).
const WINDOWS: [&str; 2] = ["desktop window", "window"];
/// The name `userq answer` registers under unless told another.
const TERMINAL: &str = "terminal";
/// What the history keeps for [`Decider::AgentPrompt`].
const AGENT_PROMPT: &str = "agent-prompt";
/// What [`Decider::Matrix`] keeps for the desk's own person when they are not named
/// on Matrix; also the device a vote given at the desk is counted from.
pub const DESK: &str = "desk";

impl Decider {
    /// Who decided an ask nobody here decided: a permission withdrawn by its asker
    /// (the agent ended its hook) was left to the agent's own prompt.
    pub fn of_withdrawn(request: &Request, outcome: &Result<Answer, UserQuestionError>) -> Option<Self> {
        let withdrawn = matches!(outcome, Err(e) if e.is(ErrorCode::AskAborted));
        let permission = request.questions.iter().any(|q| Kind::of(q) == Kind::Permission);
        (withdrawn && permission).then_some(Self::AgentPrompt)
    }

    /// Reads what the history keeps; anything unknown is an answerer's own name.
    pub fn parse(stored: &str) -> Self {
        if let Some(id) = stored.strip_prefix("rule:").and_then(|n| n.parse().ok()) {
            return Self::Rule(id);
        }
        if let Some(rules) = stored.strip_prefix("policy:").and_then(|r| serde_json::from_str(r).ok()) {
            return Self::Policy(rules);
        }
        if let Some(people) = stored.strip_prefix("matrix:") {
            return Self::Matrix(people.split(',').map(str::to_owned).collect());
        }
        if let Some(name) = stored.strip_prefix("machine:") {
            return Self::Machine(name.to_owned());
        }
        // As the relay wrote it before it had a kind of its own.
        if let Some(name) = stored.strip_suffix(" (relay)") {
            return Self::Machine(name.to_owned());
        }
        match stored {
            "deadline" => Self::Deadline,
            AGENT_PROMPT => Self::AgentPrompt,
            TERMINAL => Self::Terminal,
            s if WINDOWS.contains(&s) => Self::Window,
            s => Self::Answerer(s.to_owned()),
        }
    }

    /// Who, in the person's words: "you, in the window", "remembered answer 3".
    pub fn words(&self, text: &Text) -> String {
        match self {
            Self::Window => text.tr("decider-window"),
            Self::Terminal => text.tr("decider-terminal"),
            Self::Machine(m) => text.tr_args("decider-machine", &[("machine", m.into())]),
            Self::Rule(id) => text.tr_args("decider-rule", &[("id", (&id.to_string()).into())]),
            Self::Deadline => text.tr("decider-deadline"),
            Self::AgentPrompt => text.tr("decider-agent-prompt"),
            Self::Matrix(people) => {
                let desk = text.tr("decider-desk");
                let users = people_named(people, &desk);
                text.tr_args("decider-matrix", &[("people", (&users.join(", ")).into())])
            }
            Self::Policy(rules) => {
                let rules: Vec<&str> = rules.iter().map(|r| r.rule.as_str()).collect();
                text.tr_args("decider-policy", &[("rules", (&rules.join("; ")).into())])
            }
            Self::Answerer(name) => text.tr_args("decider-answerer", &[("name", name.into())]),
        }
    }

    /// Where it was decided: the other machine's name, else `here` (this machine's).
    pub fn place<'a>(&'a self, here: &'a str) -> &'a str {
        match self {
            Self::Machine(m) => m,
            _ => here,
        }
    }
}

/// The people of [`Decider::Matrix`] by their user ids, the desk's own person
/// (unnamed on Matrix) as `desk`.
pub fn people_named<'a>(people: &'a [String], desk: &'a str) -> Vec<&'a str> {
    people
        .iter()
        .map(|p| match p.split_once('/') {
            _ if p == DESK => desk,
            Some((user, _)) => user,
            None => p,
        })
        .collect()
}

/// What the history keeps for it.
impl fmt::Display for Decider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Window => f.write_str(WINDOWS[0]),
            Self::Terminal => f.write_str(TERMINAL),
            Self::Machine(m) => write!(f, "machine:{m}"),
            Self::Rule(id) => write!(f, "rule:{id}"),
            Self::Deadline => write!(f, "deadline"),
            Self::AgentPrompt => f.write_str(AGENT_PROMPT),
            Self::Matrix(people) => write!(f, "matrix:{}", people.join(",")),
            Self::Policy(rules) => write!(f, "policy:{}", serde_json::to_string(rules).map_err(|_| fmt::Error)?),
            Self::Answerer(name) => f.write_str(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_kept_and_read_back_and_said_in_words() {
        let en = Text::for_tag("en");
        let zh = Text::for_tag("zh-CN");
        for (d, words, zh_words) in [
            (Decider::Window, "you, in the window", "你（在窗口中）"),
            (Decider::Terminal, "you, in a terminal", "你（在终端中）"),
            (Decider::Machine("beta".into()), "you, on beta", "你（在 beta 上）"),
            (Decider::Rule(3), "remembered answer 3", "记住的回答 3"),
            (Decider::Deadline, "your deadline", "你设的期限"),
            (Decider::AgentPrompt, "the agent's own prompt (its hook let go)", "智能体自己的提示（钩子已放手）"),
            (
                Decider::Matrix(vec!["@alice:hs/PHONE".into(), "@bob:hs/TAB".into()]),
                "@alice:hs, @bob:hs on Matrix",
                "@alice:hs, @bob:hs（Matrix）",
            ),
            (
                Decider::Matrix(vec!["desk".into(), "@alice:hs/PHONE".into()]),
                "you at the desk, @alice:hs on Matrix",
                "你（在桌面）, @alice:hs（Matrix）",
            ),
            (Decider::Answerer("ci-bot".into()), "ci-bot", "ci-bot"),
            (
                Decider::Policy(vec![
                    PolicyRule { rule: "allow `cargo test`".into(), origin: "yours".into(), key: "k1".into() },
                    PolicyRule { rule: "allow read-only".into(), origin: "import:codex".into(), key: "k2".into() },
                ]),
                "the policy: allow `cargo test`; allow read-only",
                "策略：allow `cargo test`; allow read-only",
            ),
        ] {
            assert_eq!(Decider::parse(&d.to_string()), d);
            assert_eq!((d.words(&en).as_str(), d.words(&zh).as_str()), (words, zh_words));
        }
        assert_eq!(Decider::parse("beta (relay)"), Decider::Machine("beta".into()), "as the relay wrote it before");
        assert_eq!(Decider::parse("window"), Decider::Window);
        assert_eq!(Decider::Machine("beta".into()).place("alpha"), "beta");
        assert_eq!(Decider::Rule(1).place("alpha"), "alpha");
    }
}
