//! `userq answer`: a terminal answerer for people on a server or in SSH. On the
//! library's answerer client ([`Answering`]: registering, offers, withdrawals, riding
//! out a restart of the server), it claims each offer and asks the person one
//! question at a time on a prompt thread; asks withdrawn meanwhile are skipped.

use crate::tr;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use clap::Args;
use inquire::{InquireError, MultiSelect, Select, Text};
use serde_json::json;
use tokio::sync::mpsc;
use user_questions::channel::answering::{Answering, AskKey, Event, Registration, Session};
use user_questions::model::{Answer, AnswerItem, Kind, Question, Request};
use user_questions::policy::remember::{self, Way};
use user_questions::policy::{session, words};
use user_questions::{wording, Scope};

mod pick;

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
    /// Allow these pending permission requests at once, by their ids (`userq pending`
    /// lists them), wherever they are shown, then exit.
    #[arg(long, value_name = "ID", num_args = 1.., conflicts_with_all = ["scope", "priority", "name", "once"])]
    allow: Vec<String>,
    /// Deny these pending permission requests at once, then exit.
    #[arg(long, value_name = "ID", num_args = 1.., conflicts_with_all = ["scope", "priority", "name", "once"])]
    deny: Vec<String>,
    /// What the agent reads with each deny.
    #[arg(long, value_name = "TEXT", requires = "deny")]
    reason: Option<String>,
}

/// What the person did with one ask.
enum Outcome {
    Answered(Answer),
    Dismissed,
    Withdrawn,
}

/// The asks withdrawn (or lost with their server) while queued or on screen, which
/// the connection loop and the prompt thread share.
#[derive(Default)]
struct Withdrawn(Mutex<HashSet<AskKey>>);

impl Withdrawn {
    fn contains(&self, key: &AskKey) -> bool {
        self.0.lock().unwrap().contains(key)
    }

    /// Done with an ask: its withdrawal, if any, need not be remembered.
    fn settle(&self, key: &AskKey) {
        self.0.lock().unwrap().remove(key);
    }
}

pub async fn run(socket: PathBuf, args: AnswerArgs) -> ExitCode {
    if !args.allow.is_empty() || !args.deny.is_empty() {
        return crate::decide::run(socket, args.allow, args.deny, args.reason).await;
    }
    let scope = json!(args.scope).to_string();
    let registration = Registration { name: args.name.clone(), scope: args.scope, priority: args.priority };
    let mut answering = match Answering::connect(&socket, "userq answer", registration).await {
        Ok(a) => a,
        Err(e) => return crate::client_failure(&e),
    };
    println!("{}", tr().tr_args("answer-listening", &[("name", (&args.name).into()), ("scope", (&scope).into())]));
    let withdrawn = Arc::new(Withdrawn::default());
    // The connection in use, for the prompt thread: asks of an earlier one are moot.
    let session = answering.session();
    let (offers, prompts) = std::sync::mpsc::channel::<(AskKey, Request)>();
    let (done_tx, mut done) = mpsc::unbounded_channel();
    std::thread::spawn({
        let (withdrawn, session) = (withdrawn.clone(), session.clone());
        move || prompt_loop(prompts, withdrawn, session, done_tx)
    });
    loop {
        tokio::select! {
            event = answering.next() => match event {
                Event::Offered(offer) => {
                    answering.claim(&offer);
                    let _ = offers.send((offer.key, offer.request));
                }
                Event::Withdrawn(key) => {
                    eprintln!("\n{}", tr().tr_args("answer-withdrawn", &[("ask", (&key.ask).into())]));
                    withdrawn.0.lock().unwrap().insert(key);
                }
                Event::BadAnswer { key, message } => eprintln!(
                    "\n{}",
                    tr().tr_args("answer-bad-answer", &[("ask", (&key.ask).into()), ("message", (&message).into())])
                ),
                // The server stopped or crashed: its asks are gone with it (their askers
                // ask again); the next event comes once a server takes us again.
                Event::ServerGone => {
                    eprintln!("\n{}", tr().tr("answer-server-gone"));
                }
                Event::Reconnected => {
                    eprintln!("{}", tr().tr_args("answer-reconnected", &[("name", (&args.name).into())]));
                }
            },
            finished = done.recv() => match finished {
                None => return ExitCode::SUCCESS,
                Some((key, outcome)) => {
                    if answering.is_current(&key) && send(&answering, &key, outcome).await && args.once {
                        return ExitCode::SUCCESS;
                    }
                }
            },
        }
    }
}

/// Sends what the person decided; true when the ask is settled.
async fn send(answering: &Answering, key: &AskKey, outcome: Outcome) -> bool {
    let reply = match outcome {
        Outcome::Withdrawn => return false,
        Outcome::Answered(answer) => answering.answer(key, &answer).await,
        Outcome::Dismissed => answering.dismiss(key).await,
    };
    match reply {
        Ok(()) => {
            match answering.progress(key).await {
                // A team question: the answer was this person's vote.
                Some(progress) => {
                    let progress = user_questions::wording::progress(&progress, tr());
                    println!("{}", tr().tr_args("team-counted", &[("progress", (&progress).into())]));
                }
                None => println!("{}", tr().tr("answer-sent")),
            }
            true
        }
        Err(e) => {
            eprintln!("{}", tr().tr_args("answer-not-sent", &[("error", (&e.to_string()).into())]));
            false
        }
    }
}

fn prompt_loop(
    prompts: std::sync::mpsc::Receiver<(AskKey, Request)>,
    withdrawn: Arc<Withdrawn>,
    session: Session,
    done: mpsc::UnboundedSender<(AskKey, Outcome)>,
) {
    let moot = |key: &AskKey| !session.is_current(key) || withdrawn.contains(key);
    for (key, request) in prompts {
        if moot(&key) {
            withdrawn.settle(&key);
            continue;
        }
        let outcome = match ask_person(&key.ask, &request) {
            Ok(o) => o,
            Err(InquireError::OperationInterrupted) => std::process::exit(130),
            Err(e) => {
                eprintln!("{}", tr().tr_args("answer-error", &[("error", (&e.to_string()).into())]));
                std::process::exit(1)
            }
        };
        let outcome = if moot(&key) { Outcome::Withdrawn } else { outcome };
        withdrawn.settle(&key);
        if done.send((key, outcome)).is_err() {
            return;
        }
    }
}

fn ask_person(ask: &str, request: &Request) -> Result<Outcome, InquireError> {
    println!("\n{}", tr().tr_args("answer-heading", &[("ask", ask.into()), ("origin", (&origin(request)).into())]));
    let context = request.context.clone().unwrap_or_default();
    for said in user_questions::glance::says(&context, user_questions::glance::LAST_MESSAGE, tr()) {
        println!("{said}");
    }
    // "Allow for this session", for a permission whose agent has a session.
    let config = user_questions::paths::config_dir();
    let session = config.as_deref().and_then(|c| Some((c, session::offered(c, request)?)));
    let mut items = Vec::with_capacity(request.questions.len());
    for (at, q) in request.questions.iter().enumerate() {
        let asked = match (form(Kind::of(q)), request.pick_here(at)) {
            (Form::Paths, Some(pick)) => pick::paths(q, pick),
            // A pick whose root is on another machine is typed, as the generic form's.
            (Form::Options | Form::Paths, _) => ask_one(q, session.as_ref()),
        };
        match asked? {
            Some(item) => items.push(item),
            None => return Ok(Outcome::Dismissed),
        }
    }
    Ok(Outcome::Answered(Answer::new(items)))
}

/// How the terminal shows a question of a kind. Every kind is named here, none by a
/// wildcard: a new kind does not compile until the terminal says how it shows it.
enum Form {
    /// Its options (worded by the kind), or a text field when it has none.
    Options,
    /// The paths under its root, found as you type (`pick`).
    Paths,
}

fn form(kind: Kind) -> Form {
    match kind {
        Kind::Generic | Kind::Permission | Kind::PlanReview | Kind::CodeReview | Kind::Elicitation => Form::Options,
        Kind::FilePick => Form::Paths,
    }
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
    parts.extend(user_questions::glance::place(&context, tr()));
    parts.join(" · ")
}

/// One question; `None` when the person dismisses the whole ask. With `session`, the
/// way "Allow for this session" keeps, and where: offered right after Allow.
/// Prints a question's header, in the person's language; its title, so worded.
pub(super) fn titled(q: &Question) -> String {
    let (title, header) = wording::shown_title(q.intent.as_ref(), &q.question, q.header.as_deref(), tr());
    if let Some(header) = &header {
        println!("\n\x1b[1m{header}\x1b[0m");
    }
    title
}

pub(super) fn ask_one(q: &Question, session: Option<&(&Path, Way)>) -> Result<Option<AnswerItem>, InquireError> {
    let title = titled(q);
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
    let for_session = session.map(|(_, way)| {
        let way = words::way(way, tr());
        tr().tr_args("answer-choice-session", &[("way", (&way).into())])
    });
    if let (Some(choice), Some(at)) = (&for_session, approve.and_then(|a| q.options.iter().position(|o| o.label == a)))
    {
        choices.insert(at + 1, choice.clone());
    }
    choices.extend([other.clone(), skip.clone(), dismiss.clone()]);
    let choice = Select::new(&title, choices).with_help_message(&tr().tr("answer-help-select")).prompt_skippable()?;
    Ok(Some(match choice {
        None => AnswerItem::skipped(&q.id),
        Some(c) if Some(&c) == for_session.as_ref() => {
            let (config, way) = session.expect("offered");
            if let Err(e) = remember::keep(config, way) {
                eprintln!("{}", tr().tr_args("answer-session-not-kept", &[("error", (&e.to_string()).into())]));
            }
            AnswerItem::selected(&q.id, &[approve.unwrap_or_default()])
        }
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
