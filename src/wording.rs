//! How a person sees the words User Questions itself puts in its questions: the labels
//! of its own intents (a permission prompt's Allow and Deny, a plan review's Approve
//! and Revise) and their descriptions, in the person's language. What goes back to the
//! asker is the label the protocol names, in every language: only the shown text
//! changes. An agent's own labels are shown as they came.

use user_questions_i18n::Text;

use crate::model::labels::{
    ALLOW, APPROVE, APPROVE_EDITS, CODE_REVIEW, DECLINE, DENY, ELICITATION, OPEN, PERMISSION, PLAN_HEADER,
    PLAN_QUESTION, PLAN_REVIEW, REQUEST_CHANGES, REVIEW_HEADER, REVIEW_QUESTION, REVISE, SEND,
};
use crate::model::{Intent, Question, QuestionOption};
use crate::service::Progress;

/// The product's own labels, by intent, and the messages that show each and its
/// description.
const OWN: [(&str, &str, &str, &str); 10] = [
    (PERMISSION, ALLOW, "label-allow", "label-allow-description"),
    (PERMISSION, DENY, "label-deny", "label-deny-description"),
    (PLAN_REVIEW, APPROVE, "label-approve", "label-approve-description"),
    (PLAN_REVIEW, REVISE, "label-revise", "label-revise-description"),
    (PLAN_REVIEW, APPROVE_EDITS, "label-approve-edits", "label-approve-edits-description"),
    (ELICITATION, SEND, "label-send", ""),
    (ELICITATION, DECLINE, "label-decline", ""),
    (ELICITATION, OPEN, "label-open", ""),
    (CODE_REVIEW, APPROVE, "label-approve", "label-approve-changes-description"),
    (CODE_REVIEW, REQUEST_CHANGES, "label-request-changes", "label-request-changes-description"),
];

/// One option of a question with `intent`, as the person sees it.
pub fn shown_option(intent: Option<&Intent>, option: &QuestionOption, text: &Text) -> QuestionOption {
    let kind = intent.map(|i| i.kind.as_str());
    match OWN.iter().find(|(k, label, ..)| Some(*k) == kind && *label == option.label) {
        Some((_, _, label, description)) => QuestionOption {
            label: text.tr(label),
            // The form's own descriptions name its server, and are already worded.
            description: match *description {
                "" => option.description.clone(),
                id => option.description.as_ref().map(|_| text.tr(id)),
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

/// The question text and header of a plan review as `review_plan` words them, shown
/// in the person's language; any other question as it came.
pub fn shown_title(
    intent: Option<&Intent>,
    question: &str,
    header: Option<&str>,
    text: &Text,
) -> (String, Option<String>) {
    let kind = intent.map(|i| i.kind.as_str());
    let (ours, own_header) = match kind {
        Some(PLAN_REVIEW) => ((PLAN_QUESTION, "label-plan-question"), (PLAN_HEADER, "label-plan-header")),
        Some(CODE_REVIEW) => ((REVIEW_QUESTION, "label-review-question"), (REVIEW_HEADER, "label-review-header")),
        _ => return (question.to_owned(), header.map(str::to_owned)),
    };
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
        let permission = permission::question("Run?".into(), "Bash", "ls".into(), &[]);
        assert_eq!(shown_label(&permission, DENY, &zh), "拒绝");
        assert_eq!(shown_label(&permission, ALLOW, &Text::for_tag("en")), "Allow");
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
