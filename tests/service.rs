//! The reference's behaviours of `ask()`, in process: checks in order, the registry,
//! the waterfall, cancellation, answer checking and the pending set.

mod common;

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use common::{holding, spawn_ask};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use user_questions::model::{Intent, UserQuestionError};
use user_questions::service::{Ending, PendingEvent};
use user_questions::{AgentRef, Answer, AnswerItem, Answerer, Ask, AskRequest, Next, Question, Scope, UserQuestions};

type Outcome = Result<Answer, UserQuestionError>;

fn pkg_question() -> Question {
    Question::new("pkg", "Which package manager?").option("npm", None).option("pnpm", None)
}

fn pkg_request() -> AskRequest {
    AskRequest::new(vec![pkg_question()])
}

fn pnpm() -> Answer {
    Answer::new(vec![AnswerItem::selected("pkg", &["pnpm"])])
}

/// Answers every ask at once with a fixed answer, and records what it saw.
struct Fixed(Answer, Mutex<Vec<String>>);
impl Fixed {
    fn new(a: Answer) -> Arc<Self> {
        Arc::new(Self(a, Mutex::new(Vec::new())))
    }
    fn seen(&self) -> Vec<String> {
        self.1.lock().unwrap().clone()
    }
}
#[async_trait]
impl Answerer for Fixed {
    async fn answer(&self, ask: &Ask, _next: Next<'_>) -> Outcome {
        self.1.lock().unwrap().push(ask.id().to_owned());
        Ok(self.0.clone())
    }
}

/// Passes every ask on, and records that it did.
#[derive(Default)]
struct Passing(Mutex<u32>);
#[async_trait]
impl Answerer for Passing {
    async fn answer(&self, _ask: &Ask, next: Next<'_>) -> Outcome {
        *self.0.lock().unwrap() += 1;
        next.run().await
    }
}

/// Labels its answer with its own name, so order is visible.
struct Named(&'static str);
#[async_trait]
impl Answerer for Named {
    async fn answer(&self, _ask: &Ask, _next: Next<'_>) -> Outcome {
        Ok(Answer::new(vec![AnswerItem::custom("pkg", self.0)]))
    }
}

fn custom_of(a: &Answer) -> &str {
    a.answers[0].custom.as_deref().unwrap()
}

async fn ask(s: &UserQuestions, r: AskRequest) -> Outcome {
    s.ask(r, &CancellationToken::new()).await
}

#[tokio::test]
async fn delegates_to_an_answerer() {
    let s = UserQuestions::new();
    let fixed = Fixed::new(pnpm());
    s.register("fixed", Scope::Any, 0, fixed.clone());
    let answer = ask(&s, pkg_request()).await.unwrap();
    assert_eq!(answer.to_compact_json(), r#"{"answers":[{"id":"pkg","selected":["pnpm"]}]}"#);
    assert_eq!(fixed.seen(), ["a1"]);
    assert!(s.pending().is_empty());
}

#[tokio::test]
async fn no_answerer_is_no_provider() {
    let s = UserQuestions::new();
    let e = ask(&s, pkg_request()).await.unwrap_err();
    assert_eq!(e.code(), "NO_PROVIDER");
    assert_eq!(e.message(), "no user-questions answerer accepted the request");
}

#[tokio::test]
async fn an_answerer_removed_twice_is_harmless() {
    let s = UserQuestions::new();
    let first = s.register("a", Scope::Any, 0, Fixed::new(pnpm()));
    let second = s.register("b", Scope::Any, 0, Arc::new(Named("b")));
    first.remove();
    first.remove();
    assert_eq!(custom_of(&ask(&s, pkg_request()).await.unwrap()), "b");
    second.remove();
    assert_eq!(ask(&s, pkg_request()).await.unwrap_err().code(), "NO_PROVIDER");
}

#[tokio::test]
async fn a_composed_answerer_that_passes_reaches_the_next() {
    let s = UserQuestions::new();
    let passing = Arc::new(Passing::default());
    s.register("audit", Scope::Any, 10, passing.clone());
    s.register("fixed", Scope::Any, 0, Fixed::new(pnpm()));
    assert_eq!(ask(&s, pkg_request()).await.unwrap(), pnpm());
    assert_eq!(*passing.0.lock().unwrap(), 1);
}

/// An answerer that delegates and still sees what came back: a decision log.
#[tokio::test]
async fn an_answerer_sees_what_next_returned() {
    struct Log(Mutex<Vec<String>>);
    #[async_trait]
    impl Answerer for Log {
        async fn answer(&self, _ask: &Ask, next: Next<'_>) -> Outcome {
            let outcome = next.run().await;
            self.0.lock().unwrap().push(user_questions::tool::render(&outcome));
            outcome
        }
    }
    let s = UserQuestions::new();
    let log = Arc::new(Log(Mutex::new(Vec::new())));
    s.register("log", Scope::Any, 10, log.clone());
    s.register("fixed", Scope::Any, 0, Fixed::new(pnpm()));
    ask(&s, pkg_request()).await.unwrap();
    assert_eq!(*log.0.lock().unwrap(), [r#"{"answers":[{"id":"pkg","selected":["pnpm"]}]}"#]);
}

#[tokio::test]
async fn cancelled_before_dispatch_never_reaches_an_answerer() {
    let s = UserQuestions::new();
    let fixed = Fixed::new(pnpm());
    s.register("fixed", Scope::Any, 0, fixed.clone());
    let cancel = CancellationToken::new();
    cancel.cancel();
    let e = s.ask(pkg_request(), &cancel).await.unwrap_err();
    assert_eq!(e.code(), "ASK_ABORTED");
    assert_eq!(e.message(), "ask_user_question was aborted before the user answered");
    assert!(fixed.seen().is_empty());
}

#[tokio::test]
async fn cancelled_in_flight_is_aborted_and_withdrawn() {
    let s = UserQuestions::new();
    let (h, mut held) = holding();
    s.register("ui", Scope::Any, 0, h);
    let cancel = CancellationToken::new();
    let asking = tokio::spawn({
        let (s, cancel) = (s.clone(), cancel.clone());
        async move { s.ask(pkg_request(), &cancel).await }
    });
    let ask = held.recv().await.unwrap();
    cancel.cancel();
    assert_eq!(asking.await.unwrap().unwrap_err().code(), "ASK_ABORTED");
    assert!(ask.is_withdrawn());
    assert_eq!(ask.ending(), Some(Ending::Withdrawn));
    assert_eq!(ask.answer(pnpm()).unwrap_err().code(), "NOT_PENDING");
}

#[tokio::test]
async fn an_answerers_domain_error_is_kept_when_the_asker_also_cancelled() {
    struct Cancels(Arc<tokio::sync::Notify>);
    #[async_trait]
    impl Answerer for Cancels {
        async fn answer(&self, ask: &Ask, _next: Next<'_>) -> Outcome {
            self.0.notify_one();
            ask.withdrawn().await;
            Err(UserQuestionError::user_cancelled())
        }
    }
    let s = UserQuestions::new();
    let offered = Arc::new(tokio::sync::Notify::new());
    s.register("ui", Scope::Any, 0, Arc::new(Cancels(offered.clone())));
    let cancel = CancellationToken::new();
    let asking = tokio::spawn({
        let (s, cancel) = (s.clone(), cancel.clone());
        async move { s.ask(pkg_request(), &cancel).await }
    });
    offered.notified().await;
    cancel.cancel();
    let e = asking.await.unwrap().unwrap_err();
    assert_eq!((e.code(), e.message()), ("ASK_CANCELLED", "the user cancelled ask_user_question"));
}

#[tokio::test]
async fn an_answerers_error_reaches_the_asker_intact() {
    struct Rejects;
    #[async_trait]
    impl Answerer for Rejects {
        async fn answer(&self, _ask: &Ask, _next: Next<'_>) -> Outcome {
            Err(UserQuestionError::from_rpc(&json!({"code": -32001, "message": "m", "data": {"code": "X", "n": 1}}))
                .unwrap())
        }
    }
    let s = UserQuestions::new();
    s.register("r", Scope::Any, 0, Arc::new(Rejects));
    let e = ask(&s, pkg_request()).await.unwrap_err();
    assert_eq!(e.to_rpc(), json!({"code": -32001, "message": "m", "data": {"code": "X", "n": 1}}));
}

#[tokio::test]
async fn empty_batches_are_refused() {
    let s = UserQuestions::new();
    s.register("fixed", Scope::Any, 0, Fixed::new(pnpm()));
    let e = ask(&s, AskRequest::new(vec![])).await.unwrap_err();
    assert_eq!((e.code(), e.message()), ("EMPTY_QUESTIONS", "ask_user_question requires at least one question"));
}

#[tokio::test]
async fn a_delegated_child_is_refused_with_the_exact_message() {
    let s = UserQuestions::new();
    s.register("fixed", Scope::Any, 0, Fixed::new(pnpm()));
    let root = s.enter("root", None, 0).unwrap();
    let child = s.enter("child", Some(&root), 0).unwrap();
    let e = ask(&s, pkg_request().from_agent(child)).await.unwrap_err();
    assert_eq!(e.code(), "DELEGATED_CALLER");
    assert_eq!(
        e.message(),
        "human interaction is unavailable while the calling agent is owned by another live agent; include the unresolved question or decision in the child agent's final result"
    );
    assert!(ask(&s, pkg_request().from_agent(root)).await.is_ok());
}

#[tokio::test]
async fn a_resumed_root_with_lineage_is_admitted_and_sees_its_depth() {
    let s = UserQuestions::new();
    let fixed = Fixed::new(pnpm());
    s.register("fixed", Scope::Any, 0, fixed);
    let root = s.enter("resumed", None, 1).unwrap();
    let mut events = s.subscribe();
    assert!(ask(&s, pkg_request().from_agent(root)).await.is_ok());
    match events.recv().await.unwrap() {
        PendingEvent::Posted { pending } => {
            let agent = pending.request.agent.clone().unwrap();
            assert_eq!((agent.id.as_str(), agent.delegation_depth), ("resumed", 1));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn unknown_and_stale_runtimes_are_refused() {
    let s = UserQuestions::new();
    s.register("fixed", Scope::Any, 0, Fixed::new(pnpm()));
    let unknown = AgentRef { id: "ghost".into(), runtime: "00".into() };
    let e = ask(&s, pkg_request().from_agent(unknown)).await.unwrap_err();
    assert_eq!(e.code(), "CALLER_NOT_LIVE");
    assert_eq!(e.message(), "human interaction requires the exact live calling agent when an agent is supplied");
    let old = s.enter("bot", None, 0).unwrap();
    s.leave(&old).unwrap();
    let new = s.enter("bot", None, 0).unwrap();
    assert_ne!(old.runtime, new.runtime);
    assert_eq!(new.runtime.len(), 32, "128 bits as hex");
    assert_eq!(ask(&s, pkg_request().from_agent(old)).await.unwrap_err().code(), "CALLER_NOT_LIVE");
    assert!(ask(&s, pkg_request().from_agent(new)).await.is_ok());
}

#[tokio::test]
async fn registry_rules() {
    let s = UserQuestions::new();
    let a = s.enter("a", None, 0).unwrap();
    assert_eq!(s.enter("a", None, 0).unwrap_err().code(), "AGENT_LIVE");
    let fake_owner = AgentRef { id: "a".into(), runtime: "nope".into() };
    assert_eq!(s.enter("b", Some(&fake_owner), 0).unwrap_err().code(), "CALLER_NOT_LIVE");
    let b = s.enter("b", Some(&a), 1).unwrap();
    let c = s.enter("c", Some(&b), 2).unwrap();
    s.leave(&a).unwrap();
    assert!(!s.is_live(&b) && !s.is_live(&c), "leaving cascades to owned agents");
    assert_eq!(s.leave(&a).unwrap_err().code(), "CALLER_NOT_LIVE");
}

#[tokio::test]
async fn leaving_aborts_the_pending_asks_of_owned_agents() {
    let s = UserQuestions::new();
    let (h, mut held) = holding();
    s.register("ui", Scope::Any, 0, h);
    let root = s.enter("root", None, 0).unwrap();
    let asking = spawn_ask(&s, pkg_request().from_agent(root.clone()));
    let held_ask = held.recv().await.unwrap();
    s.leave(&root).unwrap();
    assert_eq!(asking.await.unwrap().unwrap_err().code(), "ASK_ABORTED");
    assert!(held_ask.is_withdrawn());
}

fn plan_question(approve: &str, detail: Option<&str>) -> Question {
    let mut q = Question::new("plan", "Approve?").option("Approve", None).option("Revise", None);
    q.detail = detail.map(str::to_owned);
    q.intent = Some(Intent { kind: "plan-review".into(), approve: approve.into(), extra: Default::default() });
    q
}

#[tokio::test]
async fn bad_intents_are_refused_label_first() {
    let s = UserQuestions::new();
    s.register("fixed", Scope::Any, 0, Fixed::new(pnpm()));
    let e = ask(&s, AskRequest::new(vec![plan_question("Ship", None)])).await.unwrap_err();
    assert_eq!(e.code(), "BAD_INTENT");
    assert_eq!(
        e.message(),
        r#"question plan declares intent plan-review whose approve label "Ship" names none of its options"#
    );
    for detail in [None, Some("")] {
        let e = ask(&s, AskRequest::new(vec![plan_question("Approve", detail)])).await.unwrap_err();
        assert_eq!(e.message(), "question plan declares intent plan-review without the detail it reviews");
    }
}

#[tokio::test]
async fn an_intent_passes_through_untouched() {
    let s = UserQuestions::new();
    let (h, mut held) = holding();
    s.register("ui", Scope::Any, 0, h);
    let mut q = plan_question("Approve", Some("# Plan"));
    q.intent.as_mut().unwrap().kind = "future-kind".into();
    q.intent.as_mut().unwrap().extra.insert("x".into(), json!({"y": [1]}));
    let sent = q.intent.clone();
    let asking = spawn_ask(&s, AskRequest::new(vec![q]));
    let a = held.recv().await.unwrap();
    assert_eq!(a.request().questions[0].intent, sent);
    a.answer(Answer::new(vec![AnswerItem::selected("plan", &["Approve"])])).unwrap();
    assert_eq!(asking.await.unwrap().unwrap().answers[0].selected, ["Approve"]);
}

#[tokio::test]
async fn checks_run_in_the_reference_order() {
    let s = UserQuestions::new();
    let cancelled = CancellationToken::new();
    cancelled.cancel();
    let ghost = AgentRef { id: "ghost".into(), runtime: "x".into() };
    let dup = AskRequest::new(vec![pkg_question(), pkg_question()]).from_agent(ghost.clone());
    assert_eq!(s.ask(dup, &cancelled).await.unwrap_err().code(), "BAD_REQUEST");
    let empty = AskRequest::new(vec![]).from_agent(ghost.clone());
    assert_eq!(s.ask(empty.clone(), &cancelled).await.unwrap_err().code(), "ASK_ABORTED");
    assert_eq!(ask(&s, empty).await.unwrap_err().code(), "EMPTY_QUESTIONS");
    let bad_intent = AskRequest::new(vec![plan_question("Ship", None)]);
    assert_eq!(ask(&s, bad_intent.clone().from_agent(ghost)).await.unwrap_err().code(), "CALLER_NOT_LIVE");
    let root = s.enter("root", None, 0).unwrap();
    let child = s.enter("child", Some(&root), 0).unwrap();
    assert_eq!(ask(&s, bad_intent.clone().from_agent(child)).await.unwrap_err().code(), "DELEGATED_CALLER");
    assert_eq!(ask(&s, bad_intent).await.unwrap_err().code(), "BAD_INTENT");
}

#[tokio::test]
async fn scope_decides_who_is_offered() {
    let s = UserQuestions::new();
    s.register("web", Scope::Agents, 10, Arc::new(Named("web")));
    s.register("bob-only", Scope::Agent("bob".into()), 20, Arc::new(Named("bob-only")));
    s.register("local", Scope::Any, 0, Arc::new(Named("local")));
    assert_eq!(custom_of(&ask(&s, pkg_request()).await.unwrap()), "local");
    let alice = s.enter("alice", None, 0).unwrap();
    assert_eq!(custom_of(&ask(&s, pkg_request().from_agent(alice)).await.unwrap()), "web");
    let bob = s.enter("bob", None, 0).unwrap();
    assert_eq!(custom_of(&ask(&s, pkg_request().from_agent(bob)).await.unwrap()), "bob-only");
}

#[tokio::test]
async fn higher_priority_first_and_ties_in_registration_order() {
    let s = UserQuestions::new();
    s.register("low", Scope::Any, -5, Arc::new(Named("low")));
    s.register("first", Scope::Any, 3, Arc::new(Named("first")));
    s.register("second", Scope::Any, 3, Arc::new(Named("second")));
    assert_eq!(custom_of(&ask(&s, pkg_request()).await.unwrap()), "first");
    let s = UserQuestions::new();
    s.register("p", Scope::Any, 1, Arc::new(Passing::default()));
    s.register("low", Scope::Any, -5, Arc::new(Named("low")));
    s.register("tie-a", Scope::Any, 0, Arc::new(Named("tie-a")));
    s.register("tie-b", Scope::Any, 0, Arc::new(Named("tie-b")));
    assert_eq!(custom_of(&ask(&s, pkg_request()).await.unwrap()), "tie-a");
}

#[tokio::test]
async fn an_answerer_registered_in_flight_is_offered_the_ask() {
    let s = UserQuestions::new();
    struct PassLater(UserQuestions);
    #[async_trait]
    impl Answerer for PassLater {
        async fn answer(&self, _ask: &Ask, next: Next<'_>) -> Outcome {
            self.0.register("late", Scope::Any, 0, Arc::new(Named("late")));
            next.run().await
        }
    }
    s.register("first", Scope::Any, 5, Arc::new(PassLater(s.clone())));
    assert_eq!(custom_of(&ask(&s, pkg_request()).await.unwrap()), "late");
}

#[tokio::test]
async fn an_answerer_that_goes_away_while_holding_passes_the_ask_on() {
    let s = UserQuestions::new();
    let (h, mut held) = holding();
    let ui = s.register("ui", Scope::Any, 10, h);
    s.register("fallback", Scope::Any, 0, Arc::new(Named("fallback")));
    let asking = spawn_ask(&s, pkg_request());
    let _held = held.recv().await.unwrap();
    assert_eq!(s.pending()[0].answerer.as_deref(), Some("ui"));
    ui.remove();
    assert_eq!(custom_of(&asking.await.unwrap().unwrap()), "fallback");
}

#[tokio::test]
async fn an_answer_given_just_before_its_answerer_lets_go_stands() {
    /// Answers, then hangs up before the service has read the answer.
    #[derive(Default)]
    struct AnswersThenLetsGo(Mutex<Option<Ask>>);
    #[async_trait]
    impl Answerer for AnswersThenLetsGo {
        async fn answer(&self, ask: &Ask, next: Next<'_>) -> Outcome {
            *self.0.lock().unwrap() = Some(ask.clone());
            ask.claim();
            ask.answer(pnpm()).unwrap();
            next.run().await
        }
    }
    let s = UserQuestions::new();
    let socket = Arc::new(AnswersThenLetsGo::default());
    s.register("socket", Scope::Any, 10, socket.clone());
    s.register("fallback", Scope::Any, 0, Arc::new(Named("fallback")));
    let answer = ask(&s, pkg_request()).await.unwrap();
    assert_eq!(answer.to_compact_json(), r#"{"answers":[{"id":"pkg","selected":["pnpm"]}]}"#);
    let a = socket.0.lock().unwrap().clone().unwrap();
    assert_eq!(a.answered_by().as_deref(), Some("socket"));
}

#[tokio::test]
async fn a_bad_answer_is_refused_and_the_ask_stays_pending() {
    let s = UserQuestions::new();
    let (h, mut held) = holding();
    s.register("ui", Scope::Any, 0, h);
    let asking = spawn_ask(&s, pkg_request());
    let a = held.recv().await.unwrap();
    let e = a.answer(Answer::new(vec![AnswerItem::selected("pkg", &["yarn"])])).unwrap_err();
    assert_eq!(e.code(), "BAD_ANSWER");
    assert_eq!(s.pending().len(), 1, "still pending after a misfit");
    a.answer(Answer::new(vec![AnswerItem {
        id: "pkg".into(),
        selected: vec!["npm".into()],
        custom: Some("bun".into()),
    }]))
    .unwrap();
    assert_eq!(a.answer(pnpm()).unwrap_err().code(), "NOT_PENDING", "the first valid answer wins");
    let got = asking.await.unwrap().unwrap();
    assert_eq!(got.to_compact_json(), r#"{"answers":[{"id":"pkg","selected":[],"custom":"bun"}]}"#);
}

#[tokio::test]
async fn the_pending_set_reports_posted_claimed_and_ended() {
    let s = UserQuestions::new();
    let (h, mut held) = holding();
    s.register("ui", Scope::Agents, 0, h);
    let bot = s.enter("bot", None, 2).unwrap();
    let mut events = s.subscribe();
    let asking = spawn_ask(&s, pkg_request().from_agent(bot));
    let a = held.recv().await.unwrap();
    let snapshot = s.pending();
    assert_eq!(snapshot.len(), 1);
    assert_eq!(snapshot[0].answerer.as_deref(), Some("ui"));
    let shown = serde_json::to_value(&snapshot[0]).unwrap();
    assert_eq!(shown["request"]["agent"], json!({"id": "bot", "delegationDepth": 2}));
    assert!(shown["since"].as_str().unwrap().ends_with('Z'));
    a.answer(pnpm()).unwrap();
    asking.await.unwrap().unwrap();
    let mut seen = Vec::new();
    while let Ok(e) = events.try_recv() {
        seen.push(serde_json::to_value(e).unwrap()["event"].as_str().unwrap().to_owned());
    }
    assert_eq!(seen, ["posted", "claimed", "ended"]);
}

#[tokio::test]
async fn shutting_down_ends_pending_and_later_asks() {
    let s = UserQuestions::new();
    let (h, mut held) = holding();
    s.register("ui", Scope::Any, 0, h);
    let asking = spawn_ask(&s, pkg_request());
    let a = held.recv().await.unwrap();
    s.shut_down();
    assert_eq!(asking.await.unwrap().unwrap_err().code(), "SHUTTING_DOWN");
    assert!(a.is_withdrawn());
    assert_eq!(ask(&s, pkg_request()).await.unwrap_err().code(), "SHUTTING_DOWN");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_asks_each_get_their_own_answer() {
    let s = UserQuestions::new();
    let (h, mut held) = holding();
    s.register("ui", Scope::Any, 0, h);
    let askers: Vec<_> = (0..1000)
        .map(|i| {
            let s = s.clone();
            tokio::spawn(async move {
                let q = Question::new(format!("q{i}"), "n?").option(format!("n{i}"), None);
                (i, ask(&s, AskRequest::new(vec![q])).await)
            })
        })
        .collect();
    for _ in 0..1000 {
        let a = held.recv().await.unwrap();
        let q = &a.request().questions[0];
        let label = q.options[0].label.clone();
        a.answer(Answer::new(vec![AnswerItem::selected(q.id.clone(), &[&label])])).unwrap();
    }
    for asker in askers {
        let (i, outcome) = asker.await.unwrap();
        let answer = outcome.unwrap();
        assert_eq!(answer.answers[0].id, format!("q{i}"));
        assert_eq!(answer.answers[0].selected, [format!("n{i}")]);
    }
    assert!(s.pending().is_empty());
}

#[tokio::test]
async fn a_holder_that_passes_as_the_service_stops_leaves_shutting_down() {
    struct PassOnWithdraw(Arc<tokio::sync::Notify>);
    #[async_trait]
    impl Answerer for PassOnWithdraw {
        async fn answer(&self, ask: &Ask, next: Next<'_>) -> Outcome {
            self.0.notify_one();
            ask.withdrawn().await;
            next.run().await
        }
    }
    let s = UserQuestions::new();
    let offered = Arc::new(tokio::sync::Notify::new());
    s.register("ui", Scope::Any, 0, Arc::new(PassOnWithdraw(offered.clone())));
    let asking = spawn_ask(&s, pkg_request());
    offered.notified().await;
    s.shut_down();
    assert_eq!(asking.await.unwrap().unwrap_err().code(), "SHUTTING_DOWN");
}

/// Hands every ask on and keeps what came back, with who gave it and whether the
/// asker had it yet: the shape of a recorder.
#[derive(Default)]
struct Watching {
    seen: Mutex<Vec<(String, Option<String>, bool)>>,
    refused: Mutex<Vec<(String, String)>>,
}
#[async_trait]
impl Answerer for Watching {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Outcome {
        let outcome = next.run().await;
        let what = match &outcome {
            Ok(a) => a.to_compact_json(),
            Err(e) => e.code().to_owned(),
        };
        let by = ask.answered_by().map(|b| b.to_string());
        self.seen.lock().unwrap().push((what, by, ask.ending().is_some()));
        outcome
    }
    async fn refused(&self, request: &user_questions::model::Request, error: &UserQuestionError) {
        let agent = request.agent.as_ref().map(|a| a.id.clone()).unwrap_or_default();
        self.refused.lock().unwrap().push((agent, error.code().to_owned()));
    }
}

#[tokio::test]
async fn every_ending_comes_back_up_the_waterfall_before_the_asker_has_it() {
    let s = UserQuestions::new();
    let watching = Arc::new(Watching::default());
    s.register("recorder", Scope::Any, 100, watching.clone());
    let (holder, mut held) = holding();
    s.register("window", Scope::Any, 0, holder);

    // An answer given later, by the holder.
    let asking = spawn_ask(&s, pkg_request());
    held.recv().await.unwrap().answer(pnpm()).unwrap();
    assert_eq!(asking.await.unwrap().unwrap(), pnpm());
    // A holder's own error, and an ask withdrawn by its asker.
    let asking = spawn_ask(&s, pkg_request());
    held.recv().await.unwrap().reject(UserQuestionError::user_cancelled()).unwrap();
    assert!(asking.await.unwrap().unwrap_err().is(user_questions::model::ErrorCode::AskCancelled));
    let cancel = CancellationToken::new();
    let asking = tokio::spawn({
        let (s, cancel) = (s.clone(), cancel.clone());
        async move { s.ask(pkg_request(), &cancel).await }
    });
    let ask_held = held.recv().await.unwrap();
    cancel.cancel();
    assert!(asking.await.unwrap().unwrap_err().is(user_questions::model::ErrorCode::AskAborted));
    assert!(ask_held.answer(pnpm()).is_err(), "a withdrawn ask takes no answer");

    let seen = watching.seen.lock().unwrap().clone();
    let json = r#"{"answers":[{"id":"pkg","selected":["pnpm"]}]}"#;
    assert_eq!(
        seen,
        [
            (json.to_owned(), Some("window".to_owned()), false),
            ("ASK_CANCELLED".to_owned(), Some("window".to_owned()), false),
            ("ASK_ABORTED".to_owned(), Some("window".to_owned()), false),
        ],
        "the recorder sees each ending, who gave it, before the asker has it"
    );

    // Refused by a later check than the shape: heard of before the asker hears it.
    let stale = AgentRef { id: "gone".into(), runtime: "0".repeat(32) };
    let e = ask(&s, pkg_request().from_agent(stale)).await.unwrap_err();
    assert_eq!(e.code(), "CALLER_NOT_LIVE");
    assert_eq!(watching.refused.lock().unwrap().clone(), [("gone".to_owned(), "CALLER_NOT_LIVE".to_owned())]);
}

/// Counts two votes: the first answer given below is counted, the second completes it,
/// any `npm` decides at once.
struct TwoVotes(Mutex<u32>);
impl user_questions::service::Count for TwoVotes {
    fn vote_here(&self, answer: &Answer) -> user_questions::service::Vote {
        use user_questions::service::{Progress, Vote};
        if answer.answers[0].selected == ["npm"] {
            return Vote::Decides;
        }
        let mut votes = self.0.lock().unwrap();
        *votes += 1;
        match *votes {
            1 => Vote::Counted(Progress { approved: vec![], needed: 1, yours: Some(vec!["pnpm".into()]) }),
            _ => Vote::Completes { answer: answer.clone(), by: "two people".into() },
        }
    }
}

/// Puts [`TwoVotes`] on every ask before handing it on.
struct Counting;
#[async_trait]
impl Answerer for Counting {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Outcome {
        ask.count_with(Arc::new(TwoVotes(Mutex::new(0))));
        next.run().await
    }
}

#[tokio::test]
async fn a_counted_ask_takes_an_answer_below_as_a_vote_until_its_count_completes() {
    let s = UserQuestions::new();
    s.register("count", Scope::Any, 1, Arc::new(Counting));
    let (holder, mut held) = holding();
    s.register("holder", Scope::Any, 0, holder);
    let asking = spawn_ask(&s, pkg_request());
    let a = held.recv().await.unwrap();
    let watching = a.watch_progress().expect("counted");
    a.answer(pnpm()).unwrap();
    assert!(!asking.is_finished() && a.ending().is_none(), "one vote of two: still pending");
    assert_eq!(s.pending()[0].progress.as_ref().unwrap().needed, 1, "observers see where it stands");
    assert!(watching.has_changed().unwrap());
    let listed = serde_json::to_value(&s.pending()[0]).unwrap();
    assert_eq!(listed["progress"], json!({"approved": [], "needed": 1, "yours": ["pnpm"]}));
    a.answer(pnpm()).unwrap();
    assert_eq!(asking.await.unwrap().unwrap(), pnpm());
    assert_eq!(a.answered_by().as_deref(), Some("two people"), "the count says who decided");

    // An answer the count says decides alone ends it at once, as given.
    let asking = spawn_ask(&s, pkg_request());
    let a = held.recv().await.unwrap();
    let npm = Answer::new(vec![AnswerItem::selected("pkg", &["npm"])]);
    a.answer(npm.clone()).unwrap();
    assert_eq!(asking.await.unwrap().unwrap(), npm);
    assert_eq!(a.answered_by().as_deref(), Some("holder"));
    assert!(s.pending().is_empty());
}

#[tokio::test]
async fn the_deadline_denies_a_counted_ask_whatever_its_count_makes_of_answers() {
    let dir = tempfile::tempdir().unwrap();
    let settings = dir.path().join("settings.json");
    std::fs::write(&settings, br#"{"deadline": "1s"}"#).unwrap();
    let s = UserQuestions::new();
    let _passed = user_questions::deadline::install(&s, user_questions::deadline::Source::file(Some(settings)));
    s.register("count", Scope::Any, 1, Arc::new(Counting));
    let (holder, mut held) = holding();
    s.register("holder", Scope::Any, 0, holder);
    let mut may = Question::new("permission", "May I run rm -rf build?").option("Allow", None).option("Deny", None);
    may.intent = Some(Intent { kind: "permission".into(), approve: "Allow".into(), extra: Default::default() });
    may.detail = Some("rm -rf build".into());
    let asking = spawn_ask(&s, AskRequest::new(vec![may]));
    let a = tokio::time::timeout(std::time::Duration::from_secs(60), held.recv()).await.expect("offered").unwrap();
    let denied = tokio::time::timeout(std::time::Duration::from_secs(60), asking)
        .await
        .expect("the deadline's denial was taken as a vote and the ask stayed pending")
        .unwrap()
        .unwrap();
    assert!(
        denied.answers[0].custom.as_deref().unwrap().starts_with("Denied: nobody answered within 1s"),
        "{denied:?}"
    );
    assert_eq!(a.answered_by().as_deref(), Some("deadline"), "the deadline decided, not a vote");
}
