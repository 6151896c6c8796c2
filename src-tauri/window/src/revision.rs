//! Plans in versions: when an agent sends a plan review after an earlier one of the
//! same session (a plan revised after Revise), the window shows what changed since the
//! last version, as a diff of the two plans, and the feedback the person gave then.
//! The earlier version comes from the history.

use std::path::Path;

use serde::Serialize;
use user_questions::history::annotations::{self as history_annotations, Author};
use user_questions::history::store::{self, Query};
use user_questions::model::{Intent, Request};
use user_questions::review::plan::{self as review_plan, Status as AnnotationStatus};
use user_questions::review::shown::{fenced, unified};

use crate::markdown;

/// What changed since the last version of a plan.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Revision {
    /// The diff of the last version against this one, rendered (lines marked).
    pub diff_html: String,
    /// What the person said of the last version: the typed feedback, else the label.
    pub feedback: Option<String>,
    pub asked_at: String,
    /// The annotations made on the last version, each addressed or still open.
    pub annotations: Vec<AnnotationStatus>,
}

/// Who made a plan, as its annotations are kept.
pub fn author(request: &Request) -> Author {
    Author {
        session: request.context.as_ref().and_then(|c| c.session.clone()),
        agent: request.agent.as_ref().map(|a| a.id.clone()),
    }
}

fn plan_of(request: &serde_json::Value) -> Option<String> {
    let [q] = request["questions"].as_array()?.as_slice() else { return None };
    (q["intent"]["kind"] == Intent::PLAN_REVIEW).then(|| q["detail"].as_str().map(str::to_owned)).flatten()
}

/// The last earlier version of this plan review's plan, by the same session (or, with
/// no session, the same agent), if the history has one that differs.
pub fn previous(history: &Path, request: &Request) -> Option<Revision> {
    let [q] = request.questions.as_slice() else { return None };
    if q.intent.as_ref().is_none_or(|i| i.kind != Intent::PLAN_REVIEW) {
        return None;
    }
    let plan = q.detail.as_deref()?;
    let session = request.context.as_ref().and_then(|c| c.session.clone());
    let agent = request.agent.as_ref().map(|a| a.id.clone());
    if session.is_none() && agent.is_none() {
        return None;
    }
    let conn = user_questions::history::open_for_reading(history).ok()?;
    let query = Query { agent: session.is_none().then_some(agent).flatten(), limit: Some(200), ..Default::default() };
    let earlier = store::list(&conn, &query).ok()?.into_iter().find(|e| {
        e.outcome.is_some()
            && plan_of(&e.request).is_some()
            && match &session {
                Some(s) => e.context.as_ref().and_then(|c| c["session"].as_str()) == Some(s.as_str()),
                None => true,
            }
    })?;
    let before = plan_of(&earlier.request)?;
    if before == plan {
        return None;
    }
    let feedback = earlier.outcome.as_ref().and_then(|o| {
        let item = &o["answer"]["answers"][0];
        let said = item["custom"].as_str().map(review_plan::without_preamble);
        said.filter(|s| !s.is_empty()).or_else(|| item["selected"][0].as_str()).map(str::to_owned)
    });
    let diff = unified("plan", &format!("{before}\n"), &format!("{plan}\n"));
    let annotations = history_annotations::of(&conn, &author(request), &before).unwrap_or_default();
    // With its annotations listed, what was said of the whole plan is said once.
    let feedback = match (annotations.is_empty(), feedback) {
        (false, Some(said)) => review_plan::general_of(&said),
        (_, said) => said,
    };
    Some(Revision {
        diff_html: markdown::render(&fenced("diff", &diff)),
        feedback,
        asked_at: earlier.asked_at,
        annotations: review_plan::status(&before, plan, &annotations),
    })
}

#[cfg(test)]
mod tests {
    /// An annotation's first line, whether it was addressed, and where it is now.
    type Seen = (u32, bool, Option<(u32, u32)>);

    use super::*;
    use user_questions::history::{self, Retention};
    use user_questions::model::AskRequest;
    use user_questions::{Answer, AnswerItem, UserQuestions};

    #[tokio::test]
    async fn a_revised_plan_shows_what_changed_and_the_feedback_given() {
        let dir = tempfile::tempdir().unwrap();
        let s = UserQuestions::new();
        history::install(&s, dir.path(), Retention::default());
        struct Revise;
        #[async_trait::async_trait]
        impl user_questions::Answerer for Revise {
            async fn answer(
                &self,
                _ask: &user_questions::Ask,
                _next: user_questions::Next<'_>,
            ) -> Result<Answer, user_questions::model::UserQuestionError> {
                Ok(Answer::new(vec![AnswerItem::custom("plan", "test the restore first")]))
            }
        }
        s.register("person", user_questions::Scope::Any, 0, std::sync::Arc::new(Revise));
        let agent = s.enter("planner", None, 0).unwrap();
        let first = user_questions::tool::plan_review("# Migrate\n\n1. Dump\n2. Restore");
        s.ask(AskRequest::new(vec![first]).from_agent(agent.clone()), &Default::default()).await.unwrap();

        let second = user_questions::tool::plan_review("# Migrate\n\n1. Dump\n2. Restore\n3. Test the restore");
        let request = Request {
            questions: vec![second],
            agent: Some(user_questions::model::AgentInfo { id: "planner".into(), delegation_depth: 0, client: None }),
            context: None,
        };
        let revision = previous(&dir.path().join(history::FILE), &request).expect("the earlier version");
        assert_eq!(revision.feedback.as_deref(), Some("test the restore first"));
        assert!(revision.diff_html.contains("+3. Test the restore"), "{}", revision.diff_html);
        assert!(revision.diff_html.contains("class=\"add\""), "{}", revision.diff_html);
        assert_eq!(revision.annotations, [], "no annotations were made");

        // Annotations made on the first version: one on a line the second changed
        // (addressed), one on a line it kept (open, where it is now).
        let history_file = dir.path().join(history::FILE);
        let conn = user_questions::history::open_for_writing(&history_file).unwrap();
        let note = |lines, quote: &str| review_plan::Annotation {
            lines,
            quote: quote.into(),
            kind: review_plan::Kind::Comment,
            text: "why?".into(),
        };
        let made = [note((4, 4), "Restore"), note((3, 3), "Dump")];
        history_annotations::add(
            &conn,
            &author(&request),
            "# Migrate\n\n1. Dump\n2. Restore",
            &made,
            std::time::SystemTime::now(),
        )
        .unwrap();
        let second = user_questions::tool::plan_review("# Migrate\n\n1. Dump\n2. Restore from the dump");
        let request = Request { questions: vec![second], ..request };
        let seen: Vec<Seen> = previous(&history_file, &request)
            .unwrap()
            .annotations
            .into_iter()
            .map(|s| (s.annotation.lines.0, s.addressed, s.now))
            .collect();
        assert_eq!(seen, [(3, false, Some((3, 3))), (4, true, None)]);
        let other = Request { agent: None, ..request.clone() };
        assert_eq!(previous(&dir.path().join(history::FILE), &other), None, "no agent, no session: no version");
    }
}
