//! `userq relay`: pair machines through a NATS broker, so each one's questions reach
//! the others' answerers (see `user_questions::relay`).

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use user_questions::relay::{self, config, pairing};

#[derive(Args)]
pub struct RelayArgs {
    #[command(subcommand)]
    command: RelayCommand,
}

#[derive(Subcommand)]
enum RelayCommand {
    /// Start a circle on a broker (nats://HOST:PORT, or tls://HOST:PORT) with this machine in it.
    Init {
        broker: String,
        /// This machine's name in the circle (default: the host name).
        #[arg(long)]
        name: Option<String>,
        /// A NATS credentials file, when the broker wants one.
        #[arg(long)]
        creds: Option<PathBuf>,
    },
    /// Print a one-line code another machine joins with (`userq relay join CODE`):
    /// single use, expiring.
    Invite {
        /// How long the code may be used.
        #[arg(long, default_value = "10m", value_parser = humantime::parse_duration)]
        expires: Duration,
    },
    /// Join the circle of an invite (the inviting machine's server must be running).
    Join {
        code: String,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        creds: Option<PathBuf>,
        /// How long to wait for the inviting machine's server to answer (it may be
        /// starting).
        #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
        wait: Duration,
    },
    /// The broker, reached or not, and each machine with when it was last heard from.
    Status {
        #[arg(long)]
        json: bool,
    },
    /// Take a machine out of the circle: it can no longer read or answer.
    Remove { name: String },
    /// Take this machine out of its circle and forget it.
    Leave,
}

pub async fn run(args: RelayArgs) -> ExitCode {
    let Some(path) = config::default_path() else {
        return crate::fail(2, "userq relay: no config folder (set HOME or USERQ_CONFIG_DIR)");
    };
    let failed = |e: user_questions::relay::RelayError| crate::fail(1, &format!("userq relay: {e}"));
    match args.command {
        RelayCommand::Init { broker, name, creds } => match pairing::init(&path, &broker, name, creds.as_deref()) {
            Ok(c) => {
                println!(
                    "Started a circle on {} as {}. `userq relay invite` lets another machine in.",
                    c.broker, c.name
                );
                ExitCode::SUCCESS
            }
            Err(e) => failed(e),
        },
        RelayCommand::Invite { expires } => match pairing::invite(&path, expires) {
            Ok(code) => {
                if std::io::stdout().is_terminal() {
                    println!("{}", relay::qr::terminal(&code));
                }
                println!("{code}");
                eprintln!(
                    "On the other machine: userq relay join {code}\nSingle use; expires in {}. This machine's \
`userq serve` or desktop app answers it.",
                    humantime::format_duration(expires)
                );
                ExitCode::SUCCESS
            }
            Err(e) => failed(e),
        },
        RelayCommand::Join { code, name, creds, wait } => {
            match pairing::join(&path, &code, name, creds.as_deref(), wait).await {
                Ok(c) => {
                    let others: Vec<&str> = c.others().map(|p| p.name.as_str()).collect();
                    println!(
                        "Joined as {}, with {}. Restart `userq serve` or the desktop app to use it.",
                        c.name,
                        others.join(", ")
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => failed(e),
            }
        }
        RelayCommand::Status { json } => match pairing::status(&path).await {
            Ok(s) if json => {
                println!("{}", serde_json::to_string_pretty(&s).expect("a status serializes"));
                ExitCode::SUCCESS
            }
            Ok(s) => {
                match &s.error {
                    None => println!("{}: broker {} connected", s.name, s.broker),
                    Some(e) => println!("{}: broker {} not reached: {e}", s.name, s.broker),
                }
                for m in &s.machines {
                    let seen = match (m.this_machine, m.last_seen) {
                        (true, _) => "this machine".to_owned(),
                        (false, Some(t)) => format!(
                            "last seen {}",
                            humantime::format_rfc3339_seconds(std::time::UNIX_EPOCH + Duration::from_secs(t))
                        ),
                        (false, None) => "not seen yet".to_owned(),
                    };
                    println!("  {}  {seen}", m.name);
                }
                if s.connected {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(e) => failed(e),
        },
        RelayCommand::Remove { name } => match pairing::remove(&path, &name).await {
            Ok(()) => {
                println!("Removed {name}: no machine of the circle seals to it or takes its word now.");
                ExitCode::SUCCESS
            }
            Err(e) => failed(e),
        },
        RelayCommand::Leave => match pairing::leave(&path).await {
            Ok(()) => {
                println!("Left the circle; this machine's relay file is gone.");
                ExitCode::SUCCESS
            }
            Err(e) => failed(e),
        },
    }
}
