//! How a person sees the words User Questions itself puts in its questions: the labels
//! of its own intents (a permission prompt's Allow and Deny, a plan review's Approve
//! and Revise) and their descriptions, in the person's language. What goes back to the
//! asker is the label the protocol names, in every language: only the shown text
//! changes. An agent's own labels are shown as they came.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use user_questions_i18n::{Arg, Text};

use crate::model::{Intent, Kind, Question, QuestionOption};
use crate::service::Progress;

/// Words of the product's own kept as their message and its arguments, so that each
/// door says them in its own person's language: a permission's title travels in its
/// intent as `title`, and the window words it again. Only the messages of [`TITLES`]
/// are said again; the arguments (a path, a URL, a tool) are the asker's, and stay as
/// they came.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Worded {
    pub message: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub args: BTreeMap<String, Value>,
}

/// The messages a question's title may be worded again by: a permission's.
pub const TITLES: &[&str] = &[
    "hook-run-command",
    "hook-edit",
    "hook-write",
    "hook-fetch",
    "hook-use",
    "hook-delete",
    "hook-patch",
    "hook-network",
    "hook-mcp",
];

/// The key of a permission intent's title.
pub const TITLE: &str = "title";

impl Worded {
    pub fn new(message: &str) -> Self {
        Self { message: message.to_owned(), args: BTreeMap::new() }
    }

    pub fn arg(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.args.insert(name.to_owned(), value.into());
        self
    }

    /// The words in `text`'s language; `None` for a message not of [`TITLES`], or an
    /// argument neither text nor a number.
    pub fn said(&self, text: &Text) -> Option<String> {
        if !TITLES.contains(&self.message.as_str()) {
            return None;
        }
        let args = self
            .args
            .iter()
            .map(|(name, value)| match value {
                Value::String(s) => Some((name.as_str(), Arg::Str(s))),
                Value::Number(n) => n.as_f64().map(|n| (name.as_str(), Arg::Num(n))),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some(text.tr_args(&self.message, &args))
    }

    /// The title kept in a question's intent, if it has one the door can say.
    pub fn of(intent: Option<&Intent>) -> Option<Self> {
        serde_json::from_value(intent?.extra.get(TITLE)?.clone()).ok()
    }
}

/// One option of a question with `intent`, as the person sees it.
pub fn shown_option(intent: Option<&Intent>, option: &QuestionOption, text: &Text) -> QuestionOption {
    let kind = intent.map_or(Kind::Generic, |i| Kind::of_tag(&i.kind));
    match kind.own_labels().iter().find(|own| own.label == option.label) {
        Some(own) => QuestionOption {
            label: text.tr(own.message),
            description: match own.description {
                None => option.description.clone(),
                Some(id) => option.description.as_ref().map(|_| text.tr(id)),
            },
        },
        None => option.clone(),
    }
}

/// A label as the person sees it (the label itself when it is not one of ours).
pub fn shown_label(q: &Question, label: &str, text: &Text) -> String {
    shown_option(q.intent.as_ref(), &QuestionOption { label: label.to_owned(), description: None }, text).label
}

/// How an ask ended without an answer, in words: `code` is the error its asker got
/// (the person dismissed it, the agent withdrew it, the server stopped).
pub fn ended(code: &str, text: &Text) -> String {
    text.tr_args("history-ended", &[("code", code.into())])
}

/// The question text and header of a plan review as `review_plan` words them, and a
/// permission's title, shown in the person's language; any other question as it came.
pub fn shown_title(
    intent: Option<&Intent>,
    question: &str,
    header: Option<&str>,
    text: &Text,
) -> (String, Option<String>) {
    let kind = intent.map_or(Kind::Generic, |i| Kind::of_tag(&i.kind));
    if kind == Kind::Permission {
        let worded = Worded::of(intent).and_then(|w| w.said(text));
        return (worded.unwrap_or_else(|| question.to_owned()), header.map(str::to_owned));
    }
    let Some(own) = kind.own_title() else { return (question.to_owned(), header.map(str::to_owned)) };
    let (ours, own_header) = (own.question, own.header);
    let question = if question == ours.0 { text.tr(ours.1) } else { question.to_owned() };
    let header = match header {
        Some(h) if h == own_header.0 => Some(text.tr(own_header.1)),
        other => other.map(str::to_owned),
    };
    (question, header)
}

/// Where a team question stands, in sentences: what the desk's person voted, who else
/// approved, how many more approvals it needs.
pub fn progress(progress: &Progress, text: &Text) -> String {
    let mut said = Vec::new();
    if let Some(yours) = &progress.yours {
        said.push(text.tr_args("team-yours", &[("label", (&yours.join(", ")).into())]));
    }
    if !progress.approved.is_empty() {
        said.push(text.tr_args("team-approved", &[("who", (&progress.approved.join(", ")).into())]));
    }
    said.push(text.tr_args("team-needed", &[("needed", progress.needed.into())]));
    said.into_iter()
        .reduce(|first, second| text.tr_args("sentences", &[("first", (&first).into()), ("second", (&second).into())]))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::hook::permission;
    use crate::model::labels::{ALLOW, DENY};
    use crate::tool;

    #[test]
    fn our_labels_are_shown_in_the_persons_language_and_theirs_as_they_came() {
        let zh = Text::for_tag("zh-CN");
        let plan = tool::plan_review("# Plan");
        let shown: Vec<QuestionOption> =
            plan.options.iter().map(|o| shown_option(plan.intent.as_ref(), o, &zh)).collect();
        assert_eq!(shown[0].label, "批准");
        assert_eq!(shown[1].description.as_deref(), Some("先修改计划（在反馈里说明怎么改）"));
        let title = shown_title(plan.intent.as_ref(), &plan.question, plan.header.as_deref(), &zh);
        assert_eq!(title, ("批准这个计划吗？".to_owned(), Some("计划审阅".to_owned())));
        assert_eq!(plan.options[0].label, "Approve", "what is sent back does not change");

        let theirs = Question::new("q", "Approve?").option("Approve", None);
        assert_eq!(shown_label(&theirs, "Approve", &zh), "Approve", "an agent's own label is its own");
        let permission =
            permission::question(&Worded::new("hook-run-command"), &Text::for_tag("en"), "Bash", "ls".into(), &[]);
        assert_eq!(shown_label(&permission, DENY, &zh), "拒绝");
        assert_eq!(shown_label(&permission, ALLOW, &Text::for_tag("en")), "Allow");
    }

    #[test]
    fn a_permission_asked_in_english_is_titled_in_the_persons_language() {
        let (en, zh) = (Text::for_tag("en"), Text::for_tag("zh-CN"));
        let edit = Worded::new("hook-edit").arg("path", "src/main.rs");
        let q = permission::question(&edit, &en, "Edit", "diff".into(), &[]);
        assert_eq!(q.question, "Edit src/main.rs?");
        assert_eq!(shown_title(q.intent.as_ref(), &q.question, None, &zh).0, "编辑 src/main.rs？");
        // A title the product does not word, or an argument that is not text, is shown
        // as it came: an asker cannot make a door say another of its messages.
        for hostile in [
            serde_json::json!({"message": "label-allow"}),
            serde_json::json!({"message": "hook-edit", "args": {"path": {"x": 1}}}),
            serde_json::json!("hook-edit"),
        ] {
            let mut q = q.clone();
            q.intent.as_mut().unwrap().extra.insert(TITLE.into(), hostile);
            assert_eq!(shown_title(q.intent.as_ref(), &q.question, None, &zh).0, "Edit src/main.rs?");
        }
    }

    #[test]
    fn an_ask_that_ended_unanswered_is_said_in_words_never_by_its_code() {
        let en = Text::for_tag("en");
        assert_eq!(ended("ASK_CANCELLED", &en), "dismissed");
        assert_eq!(ended("ASK_ABORTED", &en), "withdrawn by the agent");
        assert_eq!(ended("SOME_ANSWERER_CODE", &en), "ended without an answer");
        assert_eq!(ended("ASK_CANCELLED", &Text::for_tag("zh-CN")), "已忽略");
    }

    #[test]
    fn a_team_questions_progress_is_said_in_sentences() {
        let mine = Progress { approved: vec!["@alice:hs".into()], needed: 1, yours: Some(vec![ALLOW.into()]) };
        assert_eq!(
            progress(&mine, &Text::for_tag("en")),
            "You voted Allow. @alice:hs approved. One more approval needed."
        );
        assert_eq!(progress(&mine, &Text::for_tag("zh-CN")), "你投了“Allow”。@alice:hs 已批准。还需要 1 人批准。");
        let none = Progress { needed: 2, ..Progress::default() };
        assert_eq!(progress(&none, &Text::for_tag("en")), "2 more approvals needed.");
    }
}
