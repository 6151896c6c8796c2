//! `userq`: the command-line front door. `serve` runs the service headless, `ask`
//! asks as an agent, `answer` answers in a terminal, `pending` lists what waits, and
//! `mcp` is an MCP server on stdio. Each is thin over the library.

mod answer;
mod ask;
mod deadline;
mod decide;
mod doctor;
mod history;
mod hook;
mod matrix;
mod relay;
mod review;
mod rules;
mod serve;
mod setup;
mod ssh;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use user_questions::agents::Agent;
use user_questions::channel::client::{Client, ClientError};
use user_questions::channel::protocol::{Empty, Pending};
use user_questions::channel::MAX_FRAME;
use user_questions::paths;
use user_questions::policy::words;

/// Exit status when no server is listening (and when a second server finds one).
pub const EXIT_NO_SERVER: u8 = 3;

const EXAMPLES: &str = "\
Examples:
  userq serve                                   run the service headless (Ctrl-C stops it)
  userq answer                                  answer questions in this terminal
  userq ask \"Deploy to prod?\" --header Deploy --option Yes --option \"No:keep staging\"
  userq ask \"Which checks?\" --multi --option fmt --option clippy --option test
  userq ask --plan PLAN.md                      a plan review: Approve or Revise
  userq ask \"Approve the migration?\" --plan PLAN.md   the same, titled
  echo '{\"questions\":[{\"id\":\"q\",\"question\":\"Name?\"}]}' | userq ask --json
  userq pending                                 what is waiting, one a line
  userq mcp                                     an MCP server on stdio for any MCP client
  userq setup claude-code                       send Claude Code's prompts here (also {agents})
  userq doctor                                  check each agent's hooks and the server
  userq review                                  ask for a review of the working tree's changes
  userq ssh devbox                              agents on devbox ask here, over SSH (Ctrl-C stops)

The socket is $USERQ_SOCKET, else $XDG_RUNTIME_DIR/user-questions/userq.sock,
else <temp dir>/user-questions-<uid>/userq.sock.";

/// The examples after `userq --help`, naming every agent `userq setup` knows.
fn examples() -> String {
    let others: Vec<&str> = Agent::ALL.iter().skip(1).map(|a| a.name).collect();
    EXAMPLES.replace("{agents}", &others.join(", "))
}

#[derive(Parser)]
#[command(name = "userq", version, about = "Where AI agents' questions reach a person.", after_help = examples())]
struct Cli {
    /// The socket to serve or to connect to.
    #[arg(long, global = true, value_name = "PATH")]
    socket: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the question service and its socket, headless; logs go to stderr.
    Serve,
    /// Ask a question as an agent and print the answer as JSON.
    #[command(after_help = "Exit status: 0 answered (the answer on stdout); 1 a service error (`Error: <message>` \
on stderr, for example the person dismissed it); 2 a usage error; 3 no server is running; 130 interrupted \
(Ctrl-C withdraws the question wherever it is shown).")]
    Ask(ask::AskArgs),
    /// Answer questions in this terminal.
    Answer(answer::AnswerArgs),
    /// List the pending questions.
    Pending {
        /// Print the whole pending set as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Serve MCP on stdio: the tools ask_user_question, review_plan and review_changes.
    Mcp {
        /// The agent id of this MCP session (default: the MCP client's name).
        #[arg(long)]
        agent_id: Option<String>,
    },
    /// Answer one agent hook: the agent's hook JSON on stdin, its decision on stdout.
    #[command(after_help = hook_help())]
    Hook {
        /// The agent whose hook input comes on stdin.
        #[arg(value_parser = agent_arg)]
        agent: Agent,
    },
    /// Register the hooks (and the MCP server) in an agent's settings.
    Setup(setup::SetupArgs),
    /// Check each agent's hooks and the server: why a hook might not fire.
    #[command(after_help = "Exit status: 0 all is well; 1 something is wrong (hooks that setup would still \
change, settings that cannot be read, or no server answering).")]
    Doctor(doctor::DoctorArgs),
    /// Ask for a review of changes (the working tree's, --staged, --base REF, or a diff
    /// on stdin); print the feedback.
    #[command(after_help = "Exit status: 0 approved (or nothing to review); 1 changes requested (the review \
on stdout, worded for an agent to act on); 2 a usage error or no git repository; 3 no server is running; 130 \
interrupted (the question is withdrawn).")]
    Review(review::ReviewArgs),
    /// Let agents on another host ask here: a reverse forward of this socket over SSH.
    #[command(after_help = "The host's `userq hook`, `userq ask` and `userq mcp` then reach this machine's \
window; their questions name the host. Needs `ssh` here and `userq` on the host (its package, or the binary on \
its PATH). Exit status: 0 stopped by Ctrl-C or SIGTERM; 1 the first forward failed (ssh's reason on stderr).")]
    Ssh(ssh::SshArgs),
    /// Pair machines through a NATS broker: each one's questions reach the others, sealed end to end.
    #[command(
        after_help = "Machines: `userq relay init nats://HOST:PORT` on the first, `userq relay invite` there, `userq relay join CODE` on each other one. `userq serve` and the desktop app then use the relay with no more flags. Exit status: 0 done; 1 it failed (the reason on stderr), or `status` found the broker unreachable; 2 a usage error."
    )]
    Relay(relay::RelayArgs),
    /// Questions on your phone over Matrix, end to end encrypted: the bridge's own account.
    #[command(after_help = "`userq matrix init https://matrix.example.org --user @bridge:example.org \
--password-file FILE` sets the bridge up as a device of its own, cross-signed, and prints its recovery key once. \
Exit status: 0 done; 1 it failed (the reason on stderr), or `status` found the homeserver unreachable; 2 a usage \
error.")]
    Matrix(matrix::MatrixArgs),
    /// What was asked and how it ended, from the history file (no server needed).
    History(history::HistoryArgs),
    /// What happens to a question nobody answers: wait (off, the default), or decide after DURATION.
    #[command(after_help = "After the deadline, a permission is denied and a plan or a change under review is sent \
back, each with a reason saying nobody answered in time; any other question is dismissed. Never an approval. A \
running server and the desktop app hold a change from their next question. Exit status: 0 done; 1 the settings \
cannot be written; 2 a choice that is not a duration.")]
    Deadline {
        /// `off`, or a duration: 30m, 2h, 1h30m. Without it, the deadline in force is shown.
        #[arg(value_name = "DURATION|off")]
        choice: Option<String>,
    },
    /// The rules: what agents may do without asking, what is always asked or refused
    /// (commands, files, fetches, MCP tools), and the remembered answers.
    Rules {
        #[command(subcommand)]
        command: rules::RulesCommand,
    },
}

/// `userq hook --help`'s list of agents and the events each answers.
fn hook_help() -> String {
    let agents: Vec<String> = Agent::ALL.iter().map(|a| format!("{} ({})", a.name, a.events)).collect();
    format!(
        "Agents: {}. Exit status 0 with no output means no decision (no server, dismissed, or an event this \
hook leaves alone); 1 the input is not the agent's hook JSON.",
        agents.join(", ")
    )
}

/// An agent named on the command line: `claude-code`, `codex`, `gemini`.
pub fn agent_arg(s: &str) -> Result<Agent, String> {
    Agent::from_command_name(s).ok_or_else(|| {
        tr().tr_args("setup-unknown-agent", &[("agent", s.into()), ("agents", (&Agent::names()).into())])
    })
}

/// The person's language, from `USERQ_LANG` or the system's locale: for what a person
/// reads. What a model reads (`userq ask`'s answers and errors) is the same in every
/// language.
pub fn tr() -> &'static user_questions_i18n::Text {
    static TEXT: std::sync::OnceLock<user_questions_i18n::Text> = std::sync::OnceLock::new();
    TEXT.get_or_init(user_questions_i18n::Text::from_env)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let socket = cli.socket.unwrap_or_else(paths::socket);
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
            // The Matrix SDK logs each failed request as an error; the bridge says in
            // words what failed, once.
            let level = if matches!(cli.command, Command::Serve) { "info" } else { "warn" };
            tracing_subscriber::EnvFilter::new(format!(
                "{level},matrix_sdk=off,matrix_sdk_crypto=off,matrix_sdk_base=off"
            ))
        }))
        .init();
    // One thread: every command is light and I/O-bound; on one thread the server still
    // takes about 30,000 asks a second (benches/socket.rs), with no worker pool to start.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime");
    runtime.block_on(async move {
        match cli.command {
            Command::Serve => serve::run(socket).await,
            Command::Ask(args) => ask::run(socket, args).await,
            Command::Answer(args) => answer::run(socket, args).await,
            Command::Pending { json } => pending(socket, json).await,
            Command::Hook { agent } => hook::run(socket, agent).await,
            Command::Ssh(args) => ssh::run(socket, args).await,
            Command::Relay(args) => relay::run(args).await,
            Command::Matrix(args) => matrix::run(args).await,
            Command::Review(args) => review::run(socket, args).await,
            Command::Setup(args) => setup::run(args).await,
            Command::Doctor(args) => doctor::run(socket, args).await,
            Command::History(args) => history::run(args),
            Command::Rules { command } => rules::run(command),
            Command::Deadline { choice } => deadline::run(choice),
            Command::Mcp { agent_id } => {
                let server = user_questions::mcp::McpServer::new(socket, agent_id);
                match user_questions::mcp::serve_stdio(server).await {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => fail(1, &format!("userq mcp: {e}")),
                }
            }
        }
    })
}

/// Prints a one-line error on stderr and returns the exit status.
pub fn fail(code: u8, line: &str) -> ExitCode {
    eprintln!("{line}");
    ExitCode::from(code)
}

/// The exit status and line for a client error: 3 for no server, else 1.
pub fn client_failure(e: &ClientError) -> ExitCode {
    match e {
        ClientError::NotRunning(_) => fail(EXIT_NO_SERVER, &client_words(e)),
        _ => fail(1, &format!("Error: {}", client_words(e))),
    }
}

/// A client error in the person's language.
pub fn client_words(e: &ClientError) -> String {
    match e {
        ClientError::NotRunning(path) => {
            tr().tr_args("client-not-running", &[("path", path.display().to_string().as_str().into())])
        }
        ClientError::Service(e) => e.message().to_owned(),
        ClientError::Closed => tr().tr("client-closed"),
        ClientError::TooLarge { method, size } => {
            let args =
                [("method", (*method).into()), ("size", (*size as u64).into()), ("limit", (MAX_FRAME as u64).into())];
            tr().tr_args("client-too-large", &args)
        }
        ClientError::ForeignServer { path, uid, own } => {
            let path = path.display().to_string();
            let args =
                [("path", path.as_str().into()), ("uid", u64::from(*uid).into()), ("own", u64::from(*own).into())];
            tr().tr_args("client-foreign", &args)
        }
    }
}

/// The most of an agent's message a terminal line shows.
const SAID_IN_A_TERMINAL: usize = 300;

async fn pending(socket: PathBuf, json: bool) -> ExitCode {
    let reply = async {
        let (client, _) = Client::connect(&socket, "userq pending").await?;
        client.call::<Pending>(&Empty {}).await
    };
    let pending = match reply.await {
        Ok(p) => p,
        Err(e) => return client_failure(&e),
    };
    if json {
        println!("{}", serde_json::to_string(&pending).expect("the pending set serializes"));
        return ExitCode::SUCCESS;
    }
    if pending.pending.is_empty() {
        println!("{}", tr().tr("pending-none"));
    }
    let being_offered = tr().tr("pending-being-offered");
    for p in &pending.pending {
        let agent = match &p.request.agent {
            None => tr().tr("pending-no-agent"),
            Some(a) => tr().tr_args(
                "pending-agent",
                &[("agent", a.id.as_str().into()), ("depth", u64::from(a.delegation_depth).into())],
            ),
        };
        let questions: Vec<&str> = p.request.questions.iter().map(|q| q.question.as_str()).collect();
        let progress = p.progress.as_ref().map(|t| format!("\t{}", user_questions::wording::progress(t, tr())));
        println!(
            "{}\t{}\t{}\t{}\t{}{}",
            p.ask,
            humantime::format_rfc3339_millis(p.since),
            agent,
            p.answerer.as_deref().unwrap_or(&being_offered),
            questions.join(" | "),
            progress.unwrap_or_default()
        );
        // Who asks from where, what the agent says, and what it acts on.
        let context = p.request.context.clone().unwrap_or_default();
        for line in user_questions::glance::lines(&context, SAID_IN_A_TERMINAL, tr()) {
            println!("  {line}");
        }
        let intent = p.request.questions.first().and_then(|q| q.intent.as_ref());
        let parts = intent.map(user_questions::policy::reading::of).unwrap_or_default();
        if let Some(subject) = intent.and_then(user_questions::glance::subject).filter(|_| parts.is_empty()) {
            println!("  {subject}");
        }
        // A file pick: what it picks, and under which folder.
        for pick in p.request.questions.iter().filter_map(|q| q.pick.as_ref()) {
            let of = serde_json::to_value(pick.of).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            let said = tr().tr_args("pending-pick", &[("of", of.as_str().into()), ("root", pick.root.as_str().into())]);
            let globs = Some(pick.globs.join(" ")).filter(|g| !g.is_empty()).map(|g| format!(" ({g})"));
            println!("  {said}{}", globs.unwrap_or_default());
        }
        // A permission's parts, one line each: what it would do, and why it is asked.
        for part in parts {
            let (does, why) = (words::does(&part, tr()), words::why(&part, tr()));
            println!(
                "  {}",
                tr().tr_args(
                    "pending-part",
                    &[("part", (&part.text).into()), ("does", (&does).into()), ("why", (&why).into())]
                )
            );
        }
    }
    ExitCode::SUCCESS
}
