//! `userq answer --allow ID… --deny ID… [--reason TEXT]`: several pending permission
//! requests answered at once from a terminal, wherever they are held (the window, a
//! phone), through `questions/decide`. Every id is checked against the pending set
//! first, and the list of what will be sent is shown; one id that is not a pending
//! permission sends nothing at all. Plans, code reviews and other questions are
//! answered in their own forms, never in a batch; nothing is remembered.

use std::path::PathBuf;
use std::process::ExitCode;

use user_questions::batch;
use user_questions::channel::client::Client;
use user_questions::channel::protocol::{Decide, DecideParams, Empty, Pending};
use user_questions::history::decider::Decider;
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
        let Some(answer) = batch::answer(&p.request, verdict == Verdict::Allow, reason.as_deref()) else {
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

/// "allow a3  Claude Code · shop · Run this command? cargo test": what will be sent.
fn line(p: &PendingAsk, verdict: Verdict) -> String {
    let what = batch::summary(&p.request, tr());
    let key = if verdict == Verdict::Allow { "answer-batch-allow" } else { "answer-batch-deny" };
    tr().tr_args(key, &[("id", (&p.ask).into()), ("what", (&what).into())])
}
