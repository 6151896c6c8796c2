//! One in-process ask answered at once by an answerer: the cost of the service itself
//! (checks, pending set, waterfall, answer check), with no I/O; and what the person's
//! deadline adds to it, set and not set (a look at the settings file's stamp, and a
//! timer raced against the answer); and what a team's rule adds.

use std::sync::Arc;

use async_trait::async_trait;
use criterion::{criterion_group, criterion_main, Criterion};
use tokio_util::sync::CancellationToken;
use user_questions::deadline;
use user_questions::model::UserQuestionError;
use user_questions::{Answer, AnswerItem, Answerer, Ask, AskRequest, Next, Question, Scope, UserQuestions};

struct AtOnce(Answer);

#[async_trait]
impl Answerer for AtOnce {
    async fn answer(&self, _ask: &Ask, _next: Next<'_>) -> Result<Answer, UserQuestionError> {
        Ok(self.0.clone())
    }
}

fn request() -> AskRequest {
    AskRequest::new(vec![Question::new("pkg", "Which package manager?").option("npm", None).option("pnpm", None)])
}

fn answered_at_once() -> UserQuestions {
    let service = UserQuestions::new();
    service.register(
        "at-once",
        Scope::Any,
        0,
        Arc::new(AtOnce(Answer::new(vec![AnswerItem::selected("pkg", &["pnpm"])]))),
    );
    service
}

fn ask_answered_at_once(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    let service = answered_at_once();
    let agent = service.enter("bench", None, 0).unwrap();
    let cancel = CancellationToken::new();
    c.bench_function("ask/agentless", |b| {
        b.to_async(&rt).iter(|| async { service.ask(request(), &cancel).await.unwrap() })
    });
    c.bench_function("ask/live-agent", |b| {
        b.to_async(&rt).iter(|| async { service.ask(request().from_agent(agent.clone()), &cancel).await.unwrap() })
    });
    // The deadline below the same answerer: with no settings file, and set to an hour.
    let folder = tempfile::tempdir().unwrap();
    for (name, deadline) in [("ask/deadline-off", None), ("ask/deadline-1h", Some("1h"))] {
        let settings = folder.path().join(format!("{name}.json").replace('/', "-"));
        if let Some(d) = deadline {
            std::fs::write(&settings, format!("{{\"deadline\": \"{d}\"}}")).unwrap();
        }
        let service = answered_at_once();
        let _passed = deadline::install(&service, deadline::Source::file(Some(settings)));
        c.bench_function(name, |b| b.to_async(&rt).iter(|| async { service.ask(request(), &cancel).await.unwrap() }));
    }
    // A team set up (the Matrix bridge's rule), for a question it does not decide: the
    // rule is looked at as the ask is posted.
    let service = answered_at_once();
    service.set_team(Some(Arc::new(|q: &Question| q.intent.is_some())));
    c.bench_function("ask/team-rule-set", |b| {
        b.to_async(&rt).iter(|| async { service.ask(request(), &cancel).await.unwrap() })
    });
    // Reference in the same process: building the request alone.
    c.bench_function("reference/build-request", |b| b.iter(request));
}

criterion_group!(benches, ask_answered_at_once);
criterion_main!(benches);
