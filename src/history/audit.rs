//! The history as an audit reads it (`userq history --export jsonl|csv`): one record
//! per ask with what was asked, how it ended, who decided and where, when it was asked
//! and how long the decision took. The keys are English and stable; the words in them
//! (an answer's, who decided) are in the person's language.

use serde::Serialize;
use user_questions_i18n::Text;

use super::decider::Decider;
use super::store::Entry;

/// The columns of the CSV export, in order (the JSON keys too).
pub const HEAD: [&str; 16] = [
    "ask",
    "agent",
    "source",
    "project",
    "branch",
    "session",
    "question",
    "action",
    "answer",
    "rule",
    "who",
    "decider",
    "where",
    "askedAt",
    "decidedAt",
    "secondsToDecide",
];

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub ask: i64,
    pub agent: Option<String>,
    /// The agent that asked, by its name (`Claude Code`).
    pub source: Option<String>,
    pub project: Option<String>,
    pub branch: Option<String>,
    pub session: Option<String>,
    /// Each question's text, joined by " | ".
    pub question: String,
    /// What a permission was about: the command, the files, the URL or the MCP tool.
    pub action: Option<String>,
    /// The answer's words, or how the ask ended without one.
    pub answer: String,
    /// The rules that decided, when the policy did (``allow `cargo test` ``).
    pub rule: Option<String>,
    /// Who decided, in words ("you, in the window", "your deadline").
    pub who: Option<String>,
    /// Who decided, as the history keeps it (`desktop window`, `rule:3`, `machine:beta`).
    pub decider: Option<String>,
    /// The machine it was decided on.
    #[serde(rename = "where")]
    pub place: Option<String>,
    pub asked_at: String,
    pub decided_at: Option<String>,
    /// To the millisecond; `None` while pending.
    pub seconds_to_decide: Option<f64>,
}

impl Record {
    /// The record of `entry`, kept in the history of the machine named `here`.
    pub fn of(entry: &Entry, here: &str, text: &Text) -> Self {
        let questions: Vec<&str> = entry.request["questions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|q| q["question"].as_str())
            .collect();
        let answer = entry
            .answer_words(&text.tr("history-skipped"), " | ")
            .or_else(|| entry.error_code().map(|code| crate::wording::ended(code, text)))
            .unwrap_or_else(|| text.tr("history-pending"));
        let decider = entry.answered_by.as_deref().map(Decider::parse);
        let context = |key: &str| entry.context.as_ref().and_then(|c| c[key].as_str()).map(str::to_owned);
        let rule = match &decider {
            Some(Decider::Policy(rules)) => Some(rules.iter().map(|r| r.rule.as_str()).collect::<Vec<_>>().join("; ")),
            _ => None,
        };
        Self {
            ask: entry.ask,
            agent: entry.agent.as_ref().and_then(|a| a["id"].as_str()).map(str::to_owned),
            source: context("source"),
            project: context("project"),
            branch: context("branch"),
            session: context("session"),
            question: questions.join(" | "),
            action: action(entry),
            answer,
            rule,
            who: decider.as_ref().map(|d| d.words(text)),
            decider: entry.answered_by.clone(),
            place: decider.as_ref().map(|d| d.place(here).to_owned()),
            asked_at: entry.asked_at.clone(),
            decided_at: entry.ended_at.clone(),
            seconds_to_decide: entry.waited().map(|d| d.as_secs_f64()),
        }
    }

    /// The record as CSV cells, in [`HEAD`]'s order.
    pub fn cells(&self) -> [String; 16] {
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        [
            self.ask.to_string(),
            text(&self.agent),
            text(&self.source),
            text(&self.project),
            text(&self.branch),
            text(&self.session),
            self.question.clone(),
            text(&self.action),
            self.answer.clone(),
            text(&self.rule),
            text(&self.who),
            text(&self.decider),
            text(&self.place),
            self.asked_at.clone(),
            text(&self.decided_at),
            self.seconds_to_decide.map(|s| format!("{s:.3}")).unwrap_or_default(),
        ]
    }
}

/// What a permission question was about, from its intent's action: the command, the
/// files (joined by ", "), the URL, or the MCP tool as `server/tool`.
pub fn action(entry: &Entry) -> Option<String> {
    use crate::policy::Kind;
    let action = entry.request["questions"].as_array()?.iter().find_map(|q| q["intent"].get(crate::policy::ACTION))?;
    Some(match serde_json::from_value::<Kind>(action.clone()).ok()? {
        Kind::Command(c) | Kind::Read(c) | Kind::Fetch(c) => c,
        Kind::Edit(files) => files.join(", "),
        Kind::Mcp { server, tool } => format!("{server}/{tool}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_record_says_who_where_and_how_long() {
        let entry = Entry {
            ask: 7,
            asked_at: "2026-12-05T10:00:00.000Z".into(),
            ended_at: Some("2026-12-05T10:00:02.500Z".into()),
            agent: Some(json!({"id": "worker", "client": "claude-code"})),
            request: json!({"questions": [{"id": "q", "question": "Deploy?"}]}),
            context: Some(
                json!({"source": "Claude Code", "project": "/home/me/shop", "branch": "main", "session": "s1"}),
            ),
            outcome: Some(json!({"answer": {"answers": [{"id": "q", "selected": ["No"], "custom": "not today"}]}})),
            answered_by: Some("machine:beta".into()),
        };
        let r = Record::of(&entry, "alpha", &Text::for_tag("en"));
        assert_eq!(
            r.cells()[2..].to_vec(),
            [
                "Claude Code",
                "/home/me/shop",
                "main",
                "s1",
                "Deploy?",
                "",
                "No, “not today”",
                "",
                "you, on beta",
                "machine:beta",
                "beta",
                "2026-12-05T10:00:00.000Z",
                "2026-12-05T10:00:02.500Z",
                "2.500"
            ]
        );
        let keys: Vec<String> = serde_json::to_value(&r).unwrap().as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, HEAD);
    }
}
