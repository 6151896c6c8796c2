//! `userq answer`: a terminal answerer for people on a server or in SSH. It registers
//! in the waterfall, claims each offer, and asks the person one question at a time on
//! a prompt thread; asks withdrawn meanwhile are skipped. When the server stops or
//! crashes it waits for one to listen again and registers anew, so a terminal left
//! answering survives a restart of the server or the desktop app.

use crate::tr;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use inquire::{InquireError, MultiSelect, Select, Text};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use user_questions::channel::client::{Client, ClientError, ServerMessage};
use user_questions::model::{jsonrpc, Answer, AnswerItem, Question, Request, UserQuestionError};
use user_questions::{wording, Scope};

#[derive(Args)]
pub struct AnswerArgs {
    /// Which requests to answer: `any`, `agents`, or `agent:<id>`.
    #[arg(long, default_value = "any")]
    scope: Scope,
    /// Higher priorities are offered questions first.
    #[arg(long, default_value_t = 0)]
    priority: i64,
    /// The name shown as the holder of the questions this terminal takes.
    #[arg(long, default_value = "terminal")]
    name: String,
    /// Exit after answering one ask.
    #[arg(long)]
    once: bool,
}

/// What the person did with one ask.
enum Outcome {
    Answered(Answer),
    Dismissed,
    Withdrawn,
}

/// An ask as this terminal knows it: ask ids are unique only for one server's
/// lifetime, so each is qualified by the connection (session) it came on.
type Key = (u64, String);

/// The state the connection loop and the prompt thread share.
#[derive(Default)]
struct Shared {
    /// Asks withdrawn (or lost with their server) while queued or on screen.
    withdrawn: Mutex<HashSet<Key>>,
    /// The current connection; prompts of an earlier one are moot.
    session: AtomicU64,
}

impl Shared {
    fn is_moot(&self, key: &Key) -> bool {
        key.0 != self.session.load(Ordering::SeqCst) || self.withdrawn.lock().unwrap().contains(key)
    }

    /// Done with an ask: its withdrawal, if any, need not be remembered.
    fn settle(&self, key: &Key) {
        self.withdrawn.lock().unwrap().remove(key);
    }
}

pub async fn run(socket: PathBuf, args: AnswerArgs) -> ExitCode {
    let scope = json!(args.scope);
    let register = json!({"name": args.name, "scope": scope, "priority": args.priority});
    let (mut client, mut incoming) = match connect(&socket, &register).await {
        Ok(c) => c,
        Err(e) => return crate::client_failure(&e),
    };
    println!(
        "{}",
        tr().tr_args("answer-listening", &[("name", (&args.name).into()), ("scope", (&scope.to_string()).into())])
    );
    let shared = Arc::new(Shared::default());
    let (offers, prompts) = std::sync::mpsc::channel::<(Key, Request)>();
    let (done_tx, mut done) = mpsc::unbounded_channel();
    std::thread::spawn({
        let shared = shared.clone();
        move || prompt_loop(prompts, shared, done_tx)
    });
    loop {
        tokio::select! {
            message = incoming.recv() => match message {
                Some(m) => on_message(&client, &shared, m, &offers),
                None => {
                    // The server stopped or crashed: its asks are gone with it (their askers
                    // ask again). Wait for a server to listen again and register anew.
                    shared.session.fetch_add(1, Ordering::SeqCst);
                    eprintln!("\n{}", tr().tr("answer-server-gone"));
                    (client, incoming) = reconnect(&socket, &register).await;
                    eprintln!("{}", tr().tr_args("answer-reconnected", &[("name", (&args.name).into())]));
                }
            },
            finished = done.recv() => match finished {
                None => return ExitCode::SUCCESS,
                Some(((session, ask), outcome)) => {
                    let current = session == shared.session.load(Ordering::SeqCst);
                    if current && send(&client, &ask, outcome).await && args.once {
                        return ExitCode::SUCCESS;
                    }
                }
            },
        }
    }
}

async fn connect(
    socket: &Path,
    register: &Value,
) -> Result<(Client, mpsc::UnboundedReceiver<ServerMessage>), ClientError> {
    let (client, incoming) = Client::connect(socket, "userq answer").await?;
    client.call("answerers/register", register.clone()).await?;
    Ok((client, incoming))
}

/// Tries again (every half second at most) until a server takes the registration.
async fn reconnect(socket: &Path, register: &Value) -> (Client, mpsc::UnboundedReceiver<ServerMessage>) {
    let mut backoff = Duration::from_millis(50);
    loop {
        tokio::time::sleep(backoff).await;
        if let Ok(c) = connect(socket, register).await {
            return c;
        }
        backoff = (backoff * 2).min(Duration::from_millis(500));
    }
}

fn on_message(client: &Client, shared: &Shared, m: ServerMessage, offers: &std::sync::mpsc::Sender<(Key, Request)>) {
    let ask = m.params["ask"].as_str().unwrap_or_default().to_owned();
    let key = (shared.session.load(Ordering::SeqCst), ask.clone());
    match (m.id, m.method.as_str()) {
        (Some(id), "questions/offer") => match serde_json::from_value::<Request>(m.params["request"].clone()) {
            Ok(request) => {
                client.respond(&id, Ok(json!({"claim": true})));
                let _ = offers.send((key, request));
            }
            Err(_) => client.respond(&id, Ok(json!({"claim": false}))),
        },
        (Some(id), method) => client.respond(
            &id,
            Err(json!({"code": jsonrpc::METHOD_NOT_FOUND, "message": format!("method not found: {method}")})),
        ),
        (None, "questions/withdraw") => {
            shared.withdrawn.lock().unwrap().insert(key);
            eprintln!("\n{}", tr().tr_args("answer-withdrawn", &[("ask", (&ask).into())]));
        }
        (None, "questions/badAnswer") => {
            let message = m.params["message"].as_str().unwrap_or("");
            eprintln!("\n{}", tr().tr_args("answer-bad-answer", &[("ask", (&ask).into()), ("message", message.into())]))
        }
        (None, _) => {}
    }
}

/// Sends what the person decided; true when the ask is settled.
async fn send(client: &Client, ask: &str, outcome: Outcome) -> bool {
    let reply = match outcome {
        Outcome::Withdrawn => return false,
        Outcome::Answered(answer) => client.call("questions/answer", json!({"ask": ask, "answer": answer})).await,
        Outcome::Dismissed => {
            let e = UserQuestionError::user_cancelled();
            client.call("questions/reject", json!({"ask": ask, "code": e.code(), "message": e.message()})).await
        }
    };
    match reply {
        Ok(_) => {
            println!("{}", tr().tr("answer-sent"));
            true
        }
        Err(e) => {
            eprintln!("{}", tr().tr_args("answer-not-sent", &[("error", (&e.to_string()).into())]));
            false
        }
    }
}

fn prompt_loop(
    prompts: std::sync::mpsc::Receiver<(Key, Request)>,
    shared: Arc<Shared>,
    done: mpsc::UnboundedSender<(Key, Outcome)>,
) {
    for (key, request) in prompts {
        if shared.is_moot(&key) {
            shared.settle(&key);
            continue;
        }
        let outcome = match ask_person(&key.1, &request) {
            Ok(o) => o,
            Err(InquireError::OperationInterrupted) => std::process::exit(130),
            Err(e) => {
                eprintln!("{}", tr().tr_args("answer-error", &[("error", (&e.to_string()).into())]));
                std::process::exit(1)
            }
        };
        let outcome = if shared.is_moot(&key) { Outcome::Withdrawn } else { outcome };
        shared.settle(&key);
        if done.send((key, outcome)).is_err() {
            return;
        }
    }
}

fn ask_person(ask: &str, request: &Request) -> Result<Outcome, InquireError> {
    println!("\n{}", tr().tr_args("answer-heading", &[("ask", ask.into()), ("origin", (&origin(request)).into())]));
    let mut items = Vec::with_capacity(request.questions.len());
    for q in &request.questions {
        match ask_one(q)? {
            Some(item) => items.push(item),
            None => return Ok(Outcome::Dismissed),
        }
    }
    Ok(Outcome::Answered(Answer::new(items)))
}

/// Who asks, from where: the agent (its client and delegation depth), the project and
/// the session.
fn origin(request: &Request) -> String {
    let context = request.context.clone().unwrap_or_default();
    let mut parts = Vec::new();
    match &request.agent {
        Some(a) => {
            let by = context.source.as_deref().or(a.client.as_deref());
            let depth = a.delegation_depth as u64;
            parts.push(match by {
                Some(by) => tr().tr_args(
                    "answer-origin-agent-by",
                    &[("by", by.into()), ("agent", (&a.id).into()), ("depth", depth.into())],
                ),
                None => tr().tr_args("answer-origin-agent", &[("agent", (&a.id).into()), ("depth", depth.into())]),
            });
        }
        None => parts.push(context.source.clone().unwrap_or_else(|| tr().tr("answer-origin-local"))),
    }
    if let Some(project) = &context.project {
        parts.push(tr().tr_args("answer-origin-project", &[("project", project.into())]));
    }
    if let Some(session) = &context.session {
        parts.push(tr().tr_args("answer-origin-session", &[("session", session.into())]));
    }
    parts.join(" · ")
}

/// One question; `None` when the person dismisses the whole ask.
fn ask_one(q: &Question) -> Result<Option<AnswerItem>, InquireError> {
    let (title, header) = wording::shown_title(q.intent.as_ref(), &q.question, q.header.as_deref(), tr());
    if let Some(header) = &header {
        println!("\n\x1b[1m{header}\x1b[0m");
    }
    if let Some(detail) = &q.detail {
        println!();
        for line in detail.lines() {
            println!("  │ {line}");
        }
        println!();
    }
    let approve = q.intent.as_ref().map(|i| i.approve.as_str());
    if q.options.is_empty() {
        let text = Text::new(&title).with_help_message(&tr().tr("answer-help-text")).prompt()?;
        return Ok(Some(if text.trim().is_empty() {
            AnswerItem::skipped(&q.id)
        } else {
            AnswerItem::custom(&q.id, text)
        }));
    }
    let shown: Vec<String> = q
        .options
        .iter()
        .map(|o| wording::shown_option(q.intent.as_ref(), o, tr()))
        .map(|o| match &o.description {
            Some(d) => format!("{} — {d}", o.label),
            None => o.label.clone(),
        })
        .collect();
    let label_of = |choice: &str| q.options[shown.iter().position(|s| s == choice).unwrap_or(0)].label.clone();
    if q.multi_select {
        let picked = MultiSelect::new(&title, shown.clone())
            .with_help_message(&tr().tr("answer-help-multi"))
            .prompt_skippable()?;
        let Some(picked) = picked else { return Ok(Some(AnswerItem::skipped(&q.id))) };
        let other = Text::new(&tr().tr("answer-anything-to-add"))
            .with_help_message(&tr().tr("answer-help-optional"))
            .prompt()?;
        let selected = picked.iter().map(|c| label_of(c)).collect();
        return Ok(Some(AnswerItem {
            id: q.id.clone(),
            selected,
            custom: Some(other).filter(|o| !o.trim().is_empty()),
        }));
    }
    let [other, skip, dismiss] =
        ["answer-choice-other", "answer-choice-skip", "answer-choice-dismiss"].map(|id| tr().tr(id));
    let mut choices = shown.clone();
    choices.extend([other.clone(), skip.clone(), dismiss.clone()]);
    let choice = Select::new(&title, choices).with_help_message(&tr().tr("answer-help-select")).prompt_skippable()?;
    Ok(Some(match choice {
        None => AnswerItem::skipped(&q.id),
        Some(c) if c == skip => AnswerItem::skipped(&q.id),
        Some(c) if c == dismiss => return Ok(None),
        Some(c) if c == other => AnswerItem::custom(&q.id, Text::new(&tr().tr("answer-your-answer")).prompt()?),
        Some(choice) => {
            let label = label_of(&choice);
            let feedback = if approve.is_some_and(|a| a != label) {
                Text::new(&tr().tr("answer-feedback")).with_help_message(&tr().tr("answer-help-optional")).prompt()?
            } else {
                String::new()
            };
            if feedback.trim().is_empty() {
                AnswerItem::selected(&q.id, &[&label])
            } else {
                AnswerItem::custom(&q.id, feedback)
            }
        }
    }))
}
