//! The person's deadline: when nobody has answered a question within it, the question
//! is decided for them, and never in the agent's favour. A permission is denied, a
//! plan or a change under review is sent back, each with a reason that says nobody
//! answered in time; any other question is dismissed (`DEADLINE_PASSED`). Off by
//! default: the person is waited for. The deadline sits just below the history in the
//! waterfall, so a remembered answer comes first and the ending is recorded as the
//! deadline's; every place the question was shown takes it down, as for any answer.
//! It is read from the settings at each ask, so a change holds from the next question.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use async_trait::async_trait;
use tokio::sync::broadcast;

use crate::history::decider::Decider;
use crate::model::{Answer, AnswerItem, Kind, Lapse, Request, UserQuestionError};
use crate::service::{Answerer, Ask, Next, Scope, UserQuestions};
use crate::settings::Settings;

/// The name the deadline answers under.
const NAME: &str = "deadline";

/// A question the deadline decided, for a door to tell the person (a notification).
#[derive(Debug, Clone)]
pub struct Passed {
    pub request: Arc<Request>,
    pub deadline: Duration,
    /// Denied or sent back (true), or dismissed.
    pub denied: bool,
}

/// Where the deadline comes from: the settings file, read again only when it changed.
pub struct Source {
    path: Option<PathBuf>,
    held: Mutex<(Option<SystemTime>, Option<Duration>)>,
}

impl Source {
    pub fn file(path: Option<PathBuf>) -> Self {
        Self { path, held: Mutex::new((None, None)) }
    }

    /// The deadline now; `None` waits for the person.
    pub fn now(&self) -> Option<Duration> {
        let path = self.path.as_ref()?;
        let stamp = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let mut held = self.held.lock().unwrap();
        if stamp.is_none() {
            *held = (None, None);
        } else if stamp != held.0 {
            *held = (stamp, Settings::load(path).deadline);
        }
        held.1
    }
}

/// The waterfall's deadline, under the history.
pub struct Deadline {
    source: Source,
    passed: broadcast::Sender<Passed>,
}

/// Puts the deadline of `source` in `service`'s waterfall; the receiver hears of each
/// question it decides.
pub fn install(service: &UserQuestions, source: Source) -> broadcast::Receiver<Passed> {
    let (passed, heard) = broadcast::channel(16);
    // Kept for the service's life, as the history is.
    let _ = service.register(NAME, Scope::Any, i64::MAX - 1, Arc::new(Deadline { source, passed }));
    heard
}

#[async_trait]
impl Answerer for Deadline {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Result<Answer, UserQuestionError> {
        let Some(deadline) = self.source.now() else { return next.run().await };
        let left = deadline.saturating_sub(ask.since().elapsed().unwrap_or_default());
        let rest = next.run();
        tokio::pin!(rest);
        tokio::select! {
            biased;
            outcome = &mut rest => return outcome,
            () = tokio::time::sleep_until((Instant::now() + left).into()) => {}
        }
        // Delivered as any answer from elsewhere is: whoever holds the ask lets it go
        // (a socket answerer hears `questions/withdraw`) and it comes back up through
        // them. Someone who answered at this very moment is not overruled.
        let outcome = decide(ask.request(), deadline);
        let denied = outcome.is_ok();
        let delivered = match outcome {
            // Not a vote: a team's count never holds the denial back.
            Ok(answer) => ask.answer_uncounted(answer),
            Err(e) => ask.reject(e),
        };
        if delivered.is_ok() {
            ask.note_answered_by(&Decider::Deadline.to_string());
            let _ = self.passed.send(Passed { request: ask.request().clone(), deadline, denied });
        }
        rest.await
    }
}

/// The ending the deadline gives `request`: each permission denied and each review
/// sent back with the reason; with none of those in it, the whole ask dismissed.
pub fn decide(request: &Request, deadline: Duration) -> Result<Answer, UserQuestionError> {
    let after = humantime::format_duration(deadline).to_string();
    let reason = |kind: Kind| match kind.lapse() {
        Lapse::Deny => Some(format!(
            "Denied: nobody answered within {after}, the person's deadline for questions. Do not do this now; \
             carry on with what needs no permission, or ask again later."
        )),
        Lapse::SendBack => Some(format!(
            "Not approved: nobody answered within {after}, the person's deadline for questions. Do not go on with \
             it; wait, or ask for the review again later."
        )),
        Lapse::Skip => None,
    };
    let items: Vec<AnswerItem> = request
        .questions
        .iter()
        .map(|q| match reason(Kind::of(q)) {
            Some(reason) => AnswerItem::custom(q.id.clone(), reason),
            None => AnswerItem::skipped(q.id.clone()),
        })
        .collect();
    if items.iter().all(|i| i.custom.is_none()) {
        return Err(UserQuestionError::deadline_passed(&after));
    }
    Ok(Answer::new(items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::hook::permission::{self, Verdict};
    use crate::model::labels::{ALLOW, APPROVE, PERMISSION, PLAN_REVIEW, REVISE};
    use crate::model::{ErrorCode, Intent, Question};
    use crate::review::plan;

    fn with_intent(id: &str, kind: &str, approve: &str, options: &[&str]) -> Question {
        let mut q = Question::new(id, "May I?");
        for o in options {
            q = q.option(*o, None);
        }
        q.detail = Some("the plan".into());
        q.intent = Some(Intent { kind: kind.into(), approve: approve.into(), extra: Default::default() });
        q
    }

    fn request(questions: Vec<Question>) -> Request {
        Request { questions, agent: None, context: None }
    }

    #[test]
    fn a_permission_is_denied_with_the_reason_never_allowed() {
        let r = request(vec![with_intent(permission::ID, PERMISSION, ALLOW, &[ALLOW, "Deny"])]);
        let answer = decide(&r, Duration::from_secs(1800)).unwrap();
        answer.clone().fit(&r.questions).unwrap();
        match permission::verdict(&answer, &[], "no") {
            Verdict::Deny(why) => assert!(why.starts_with("Denied: nobody answered within 30m"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_plan_is_sent_back_and_a_plain_question_dismissed() {
        let r = request(vec![with_intent("plan", PLAN_REVIEW, APPROVE, &[APPROVE, REVISE])]);
        let answer = decide(&r, Duration::from_secs(600)).unwrap();
        answer.clone().fit(&r.questions).unwrap();
        assert!(matches!(plan::verdict(&answer, None), plan::Verdict::Revise(t) if t.contains("within 10m")));
        let plain = request(vec![Question::new("q", "Which one?").option("A", None)]);
        let e = decide(&plain, Duration::from_secs(600)).unwrap_err();
        assert!(e.is(ErrorCode::DeadlinePassed), "{e:?}");
        assert!(e.message().contains("within 10m"), "{}", e.message());
    }

    #[test]
    fn the_deadline_is_read_again_only_when_the_file_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let source = Source::file(Some(path.clone()));
        assert_eq!(source.now(), None);
        std::fs::write(&path, br#"{"deadline": "2m"}"#).unwrap();
        assert_eq!(source.now(), Some(Duration::from_secs(120)));
        std::fs::remove_file(&path).unwrap();
        assert_eq!(source.now(), None);
    }
}
