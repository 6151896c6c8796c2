//! `userq answer --allow ID… --deny ID… [--reason TEXT]`: several pending permission
//! requests answered at once from a terminal, wherever they are held (the window, a
//! phone), through `questions/decide`. Every id is checked against the pending set
//! first, and the list of what will be sent is shown; one id that is not a pending
//! permission sends nothing at all. Plans, code reviews and other questions are
//! answered in their own forms, never in a batch; nothing is remembered.

use std::path::PathBuf;
use std::process::ExitCode;

use user_questions::channel::client::Client;
use user_questions::channel::protocol::{Decide, DecideParams, Empty, Pending};
use user_questions::glance;
use user_questions::history::decider::Decider;
use user_questions::model::labels::DENY;
use user_questions::model::{Answer, AnswerItem, Intent, Request};
use user_questions::service::PendingAsk;

use crate::tr;

/// What the person decided for one id.
#[derive(Clone, Copy, PartialEq)]
enum Verdict {
    Allow,
    Deny,
}

pub async fn run(socket: PathBuf, allow: Vec<String>, deny: Vec<String>, reason: Option<String>) -> ExitCode {
    if let Some(id) = allow.iter().find(|id| deny.contains(id)) {
        return crate::fail(2, &tr().tr_args("answer-batch-twice", &[("id", id.into())]));
    }
    let client = match Client::connect(&socket, "userq answer").await {
        Ok((client, _)) => client,
        Err(e) => return crate::client_failure(&e),
    };
    let pending = match client.call::<Pending>(&Empty {}).await {
        Ok(reply) => reply.pending,
        Err(e) => return crate::client_failure(&e),
    };
    let wanted = allow.iter().map(|id| (id, Verdict::Allow)).chain(deny.iter().map(|id| (id, Verdict::Deny)));
    let mut batch = Vec::new();
    for (id, verdict) in wanted {
        let Some(p) = pending.iter().find(|p| &p.ask == id) else {
            return crate::fail(1, &tr().tr_args("answer-batch-unknown", &[("id", id.into())]));
        };
        let Some(answer) = answer(&p.request, verdict, reason.as_deref()) else {
            return crate::fail(1, &tr().tr_args("answer-batch-not-permission", &[("id", id.into())]));
        };
        batch.push((p, verdict, answer));
    }
    for (p, verdict, _) in &batch {
        println!("{}", line(p, *verdict));
    }
    let mut failed = false;
    for (p, _, answer) in batch {
        let params = DecideParams { ask: p.ask.clone(), answer, by: Some(Decider::Terminal.to_string()) };
        if let Err(e) = client.call::<Decide>(&params).await {
            let error = crate::client_words(&e);
            eprintln!(
                "{}",
                tr().tr_args("answer-batch-failed", &[("id", (&p.ask).into()), ("error", (&error).into())])
            );
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The answer a permission request gets; `None` for any other request.
fn answer(request: &Request, verdict: Verdict, reason: Option<&str>) -> Option<Answer> {
    let [q] = request.questions.as_slice() else { return None };
    let intent = q.intent.as_ref().filter(|i| i.kind == Intent::PERMISSION)?;
    let item = match (verdict, reason.map(str::trim).filter(|r| !r.is_empty())) {
        (Verdict::Allow, _) => AnswerItem::selected(&q.id, &[&intent.approve]),
        (Verdict::Deny, Some(reason)) => AnswerItem::custom(&q.id, reason),
        (Verdict::Deny, None) if q.has_option(DENY) => AnswerItem::selected(&q.id, &[DENY]),
        // What an agent reads after a plain Deny, in the fixed words a model reads.
        (Verdict::Deny, None) => AnswerItem::custom(&q.id, user_questions::agents::DENIED),
    };
    Some(Answer::new(vec![item]))
}

/// "allow a3  Claude Code · shop · Run this command? cargo test": what will be sent.
fn line(p: &PendingAsk, verdict: Verdict) -> String {
    let q = &p.request.questions[0];
    let context = p.request.context.clone().unwrap_or_default();
    let project = context.project_name().map(glance::inert);
    let mut what: Vec<String> = [context.source.clone(), project].into_iter().flatten().collect();
    what.extend(context.short_session().map(|s| tr().tr_args("glance-session", &[("session", s.into())])));
    what.push(q.question.clone());
    if let Some(subject) = q.intent.as_ref().and_then(glance::subject) {
        what.push(glance::cut(&subject, 80));
    }
    let key = if verdict == Verdict::Allow { "answer-batch-allow" } else { "answer-batch-deny" };
    tr().tr_args(key, &[("id", (&p.ask).into()), ("what", (&what.join(" · ")).into())])
}
