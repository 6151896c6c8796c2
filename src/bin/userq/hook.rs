//! `userq hook <agent>`: one agent hook. It reads the agent's hook input on stdin, asks
//! through the socket as an agent of its own (so parallel hooks never collide), waits
//! for the person, and prints the decision in the agent's shape. It never breaks its
//! agent: with no server, a dismissal, or any doubt it prints no decision and exits 0,
//! and the agent's own prompt takes over (an MCP server's form, which has no prompt
//! behind it, is cancelled when dismissed); only input that is not the agent's JSON
//! exits 1 (never 2, which blocks the tool; only a deny exits 2, in an agent that reads
//! a refusal so: Kiro CLI), and in an agent that denies on a failing
//! hook (Antigravity) not even that: it exits 0 with the agent's own "ask". An answer that does not fit a form is
//! asked again, with what does not fit named. When the agent ends the hook (a signal,
//! or closing the pipe it reads), the question is withdrawn everywhere.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use tokio::signal::unix::{signal, Signal, SignalKind};
use tokio_util::sync::CancellationToken;
use user_questions::agents::hook::by_policy::{self, ByPolicy};
use user_questions::agents::{Agent, Delivery, Next};
use user_questions::channel::asker::{AgentSpec, Asker};
use user_questions::channel::client::ClientError;
use user_questions::history;
use user_questions::ErrorCode;

pub async fn run(socket: PathBuf, agent: Agent) -> ExitCode {
    let name = format!("userq hook {}", agent.name);
    let input = match read_input(std::io::stdin().lock()) {
        Ok(input) => input,
        Err(e) => return unreadable(agent, &name, &format!("cannot read the hook input: {e}")),
    };
    if let Some(session) = agent.session_ended(&input) {
        end_session(&name, &session);
        return ExitCode::SUCCESS;
    }
    let ask = match agent.ask_from(&input, crate::tr()) {
        Ok(Some(ask)) => ask,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => return unreadable(agent, &name, &e.to_string()),
    };
    let ask = match by_policy::decide(agent, ask, history::default_dir().as_deref()) {
        ByPolicy::Decided { output, unkept } => {
            if let Some(e) = unkept {
                eprintln!("{name}: the history cannot keep this decision: {e}");
            }
            return output.map_or(ExitCode::SUCCESS, |output| deliver(agent, output));
        }
        ByPolicy::Person { ask, unreadable } => {
            if let Some(e) = unreadable {
                eprintln!("{name}: the rules cannot be read, so they decide nothing: {e}");
            }
            if !ask.asks_the_person {
                say_no_decision(agent, "no rule decides it");
                return ExitCode::SUCCESS;
            }
            *ask
        }
    };
    let mut ask = ask;
    ask.hear_the_agent();
    let id = by_policy::agent_id(agent, &ask);
    let asker = Asker::new(socket, agent.display_name, Some(AgentSpec { id, delegation_depth: 0 }))
        .with_context(ask.context.clone());
    if let Err(e) = asker.connect().await {
        return no_decision(agent, &name, &e);
    }
    let cancel = CancellationToken::new();
    // The handlers are in place before the question is asked, so an agent that ends
    // the hook at once still has it withdrawn rather than killed mid-ask.
    let signals = match (signal(SignalKind::terminate()), signal(SignalKind::interrupt()), signal(SignalKind::hangup()))
    {
        (Ok(t), Ok(i), Ok(h)) => Some((t, i, h)),
        _ => None,
    };
    tokio::spawn(watch_the_agent(signals, cancel.clone()));
    loop {
        let answer = match asker.ask(&ask.questions, &cancel).await {
            Ok(answer) => answer,
            // The agent ended the hook: it reads nothing more.
            Err(_) if cancel.is_cancelled() => return ExitCode::SUCCESS,
            Err(ClientError::Service(e)) if e.is(ErrorCode::AskCancelled) && ask.dismissed.is_some() => {
                println!("{}", ask.dismissed.expect("checked above"));
                return ExitCode::SUCCESS;
            }
            Err(e) => return no_decision(agent, &name, &e),
        };
        match ask.decide(&answer) {
            Next::Done(Some(output)) => return deliver(agent, output),
            Next::Done(None) => say_no_decision(agent, "no answer"),
            Next::Again(again) => {
                ask = *again;
                continue;
            }
        }
        return ExitCode::SUCCESS;
    }
}

/// The hook input: one JSON value, read up to its last byte, as an agent may leave
/// stdin open after writing it (Claude Code at its SessionEnd); what is not JSON is
/// read to the end, for the agent's reader to say what is wrong with it.
fn read_input(stdin: impl Read) -> std::io::Result<String> {
    /// A reader that keeps what it read.
    struct Kept<R> {
        inner: R,
        seen: Vec<u8>,
    }
    impl<R: Read> Read for Kept<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.seen.extend_from_slice(&buf[..n]);
            Ok(n)
        }
    }
    let mut kept = Kept { inner: std::io::BufReader::new(stdin), seen: Vec::new() };
    let one = serde_json::Deserializer::from_reader(&mut kept).into_iter::<serde::de::IgnoredAny>().next();
    if !matches!(one, Some(Ok(_))) {
        kept.inner.read_to_end(&mut kept.seen)?;
    }
    String::from_utf8(kept.seen).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// The rules kept for an agent session end with it: taken out of the person's rules
/// file. A file that cannot be changed is said on stderr; the agent reads nothing.
fn end_session(name: &str, session: &str) {
    let Some(config) = user_questions::paths::config_dir() else { return };
    if let Err(e) = user_questions::policy::yours::end_session(&config, session) {
        eprintln!("{name}: the rules of session {session} cannot be taken out: {e}");
    }
}

/// Hands a decision to the agent its own way: most read stdout; one that reads a
/// refusal from the exit code (Kiro CLI) gets exit code 2 and the reason on stderr.
fn deliver(agent: Agent, output: serde_json::Value) -> ExitCode {
    match agent.delivery(output) {
        Delivery::Stdout(output) => {
            println!("{output}");
            ExitCode::SUCCESS
        }
        Delivery::Block(reason) => {
            eprintln!("{reason}");
            ExitCode::from(2)
        }
    }
}

/// Input that is not the agent's: no decision, said on stderr, and exit 1; an agent
/// that denies on a failing hook hands the choice back with exit 0 instead.
fn unreadable(agent: Agent, name: &str, why: &str) -> ExitCode {
    say_no_decision(agent, why);
    let status = if agent.fails_closed() { 0 } else { 1 };
    crate::fail(status, &format!("{name}: {why}; no decision"))
}

/// Prints the agent's own "no decision", for agents that read silence otherwise.
fn say_no_decision(agent: Agent, why: &str) {
    if let Some(output) = agent.no_decision(why) {
        println!("{output}");
    }
}

/// Says on stderr why the agent decides for itself this time, and exits 0.
fn no_decision(agent: Agent, name: &str, e: &ClientError) -> ExitCode {
    let why = match e {
        ClientError::Service(e) if e.is(ErrorCode::AskCancelled) => "dismissed in User Questions".to_owned(),
        ClientError::Service(e) => e.message().to_owned(),
        other => other.to_string(),
    };
    say_no_decision(agent, &why);
    eprintln!("{name}: {why}; no decision, the agent asks in its own prompt");
    ExitCode::SUCCESS
}

/// Resolves `cancel` when the agent ends the hook: SIGTERM, SIGINT or SIGHUP, or the
/// pipe the agent reads our stdout from closing.
async fn watch_the_agent(signals: Option<(Signal, Signal, Signal)>, cancel: CancellationToken) {
    let Some((mut term, mut int, mut hup)) = signals else { return };
    let (closed_tx, closed) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        if stdout_closes() {
            let _ = closed_tx.send(());
        }
    });
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
        _ = hup.recv() => {}
        Ok(()) = closed => {}
    }
    cancel.cancel();
}

/// Blocks until stdout's reader goes away (a pipe reports an error or hang-up then);
/// false when stdout is something that never does.
fn stdout_closes() -> bool {
    loop {
        let mut fd = libc::pollfd { fd: libc::STDOUT_FILENO, events: 0, revents: 0 };
        // SAFETY: one valid pollfd, for the length given.
        let n = unsafe { libc::poll(&mut fd, 1, -1) };
        if n < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        if fd.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
            return true;
        }
        if fd.revents & libc::POLLNVAL != 0 {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}
