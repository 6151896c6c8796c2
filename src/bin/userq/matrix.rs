//! `userq matrix`: the bridge's own Matrix account (see `user_questions::matrix`):
//! set it up, see how it is, take it away.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use user_questions::matrix::account::{self, Place};
use user_questions::matrix::bridge;
use user_questions::matrix::pins::Standing;
use user_questions::matrix::room;
use user_questions::matrix::MatrixError;

use crate::tr;

#[derive(Args)]
pub struct MatrixArgs {
    #[command(subcommand)]
    command: MatrixCommand,
}

/// A kind of decision a team can be needed for.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Decision {
    /// An agent's permission prompt.
    Permission,
    /// A plan review.
    Plan,
    /// A review of changes.
    Review,
}

impl Decision {
    fn kind(self) -> user_questions::model::Kind {
        use user_questions::model::Kind;
        match self {
            Self::Permission => Kind::Permission,
            Self::Plan => Kind::PlanReview,
            Self::Review => Kind::CodeReview,
        }
    }
}

#[derive(Subcommand)]
enum MatrixCommand {
    /// Log the bridge's own account in as a new device, with cross-signing and recovery.
    Init {
        /// The homeserver's URL: https://matrix.example.org.
        homeserver: String,
        /// The bridge's account: @NAME:SERVER (an account of its own, not yours).
        #[arg(long, value_name = "@NAME:SERVER")]
        user: String,
        /// A file whose first line is the account's password (never on the command line).
        #[arg(long, value_name = "FILE")]
        password_file: PathBuf,
    },
    /// Make the room the bridge asks in (invite-only, end-to-end encrypted), or adopt one.
    Room {
        /// Someone who answers; repeat for more.
        #[arg(long = "invite", value_name = "@NAME:SERVER", required_unless_present = "adopt")]
        invite: Vec<String>,
        /// Whose approvals count for a team question (comma-separated).
        #[arg(long, value_name = "@A:S,@B:S", value_delimiter = ',')]
        approvers: Vec<String>,
        /// How many approvers must approve; one approver's no ends it at once.
        #[arg(long, value_name = "N", requires = "approvers")]
        quorum: Option<usize>,
        /// Send a question to the room only once it has waited this long here (default: at once).
        #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
        after: Option<std::time::Duration>,
        /// Adopt a room the bridge's account was invited to (it must be encrypted).
        #[arg(long = "use", value_name = "ROOM_ID")]
        adopt: Option<String>,
        /// Who you are on Matrix: your answer at the desk and your vote in the room are
        /// one vote (default: the desk's answer is a person's vote of its own).
        #[arg(long, value_name = "@NAME:SERVER")]
        desk: Option<String>,
        /// Which decisions need the team (comma-separated; default: all three).
        #[arg(long, value_name = "KINDS", value_delimiter = ',', requires = "quorum")]
        team_for: Vec<Decision>,
        /// Only the decisions whose question or detail says this need the team; repeat for more.
        #[arg(long, value_name = "TEXT", requires = "quorum")]
        team_when: Vec<String>,
    },
    /// The homeserver reached or not, the bridge's user and device, cross-signed or not.
    Status {
        #[arg(long)]
        json: bool,
    },
    /// Trust a member's identity after it changed: their votes count again.
    Trust {
        /// The member: @NAME:SERVER.
        #[arg(value_name = "@NAME:SERVER")]
        user: String,
    },
    /// Log the bridge's device out and remove its keys.
    Leave,
}

fn failed(e: &MatrixError) -> ExitCode {
    crate::fail(1, &format!("userq matrix: {}", e.words(tr())))
}

pub async fn run(args: MatrixArgs) -> ExitCode {
    let Some(place) = Place::default_place() else { return crate::fail(1, &tr().tr("matrix-no-folder")) };
    match args.command {
        MatrixCommand::Init { homeserver, user, password_file } => {
            let password = match std::fs::read_to_string(&password_file) {
                Ok(text) => text.lines().next().unwrap_or_default().to_owned(),
                Err(e) => {
                    let (path, error) = (password_file.display().to_string(), e.to_string());
                    let words = [("path", (&path).into()), ("error", (&error).into())];
                    return crate::fail(2, &tr().tr_args("matrix-password-file", &words));
                }
            };
            if password.is_empty() {
                let path = password_file.display().to_string();
                return crate::fail(2, &tr().tr_args("matrix-password-empty", &[("path", (&path).into())]));
            }
            match account::init(&place, homeserver.trim_end_matches('/'), &user, &password).await {
                Ok(done) => {
                    let words = [("user", (&done.user).into()), ("device", (&done.device).into())];
                    println!("{}", tr().tr_args("matrix-init-done", &words));
                    println!("{}", tr().tr("matrix-recovery-key"));
                    println!("\n    {}\n", done.recovery_key);
                    ExitCode::SUCCESS
                }
                Err(e) => failed(&e),
            }
        }
        MatrixCommand::Room { invite, approvers, quorum, after, adopt, desk, team_for, team_when } => {
            let team_for = team_for.into_iter().map(Decision::kind).collect();
            let wanted = room::Wanted { invite, approvers, quorum, after, adopt, desk, team_for, team_when };
            match room::set_up(&place, &wanted).await {
                Ok(rule) => {
                    println!("{}", tr().tr_args("matrix-room-done", &[("room", (&rule.room).into())]));
                    println!("{}", bridge::rule_words(&rule, tr()));
                    ExitCode::SUCCESS
                }
                Err(e) => failed(&e),
            }
        }
        MatrixCommand::Status { json } => match bridge::status(&place).await {
            Ok(s) if json => {
                println!("{}", serde_json::to_string(&s).expect("a status serializes"));
                ExitCode::SUCCESS
            }
            Ok(s) => {
                let reached = match &s.unreachable {
                    None => tr().tr_args("matrix-status-reached", &[("url", (&s.homeserver).into())]),
                    Some(why) => tr().tr_args("matrix-status-unreachable", &[("why", why.into())]),
                };
                println!("{reached}");
                let words = [("user", (&s.user).into()), ("device", (&s.device).into())];
                println!("{}", tr().tr_args("matrix-status-account", &words));
                println!("{}", tr().tr(if s.cross_signed { "matrix-status-signed" } else { "matrix-status-unsigned" }));
                match &s.room {
                    None => println!("{}", tr().tr("matrix-status-no-room")),
                    Some(r) => {
                        println!("{}", tr().tr_args("matrix-status-room", &[("room", (&r.rule.room).into())]));
                        println!("{}", bridge::rule_words(&r.rule, tr()));
                        for m in &r.members {
                            let id = if m.approver { "matrix-status-approver" } else { "matrix-status-member" };
                            let words = [("user", (&m.user).into()), ("membership", (&m.membership).into())];
                            let identity = match m.identity {
                                Standing::Trusted => "matrix-identity-trusted",
                                Standing::Changed => "matrix-identity-changed",
                                Standing::NotSeen => "matrix-identity-not-seen",
                                Standing::None => "matrix-identity-none",
                            };
                            println!("  {}; {}", tr().tr_args(id, &words), tr().tr(identity));
                        }
                    }
                }
                if s.reachable {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Err(e) => failed(&e),
        },
        MatrixCommand::Trust { user } => match bridge::trust(&place, &user).await {
            Ok(key) => {
                println!("{}", tr().tr_args("matrix-trusted", &[("user", (&user).into()), ("key", (&key).into())]));
                ExitCode::SUCCESS
            }
            Err(e) => failed(&e),
        },
        MatrixCommand::Leave => match bridge::leave(&place).await {
            Ok(user) => {
                println!("{}", tr().tr_args("matrix-left", &[("user", (&user).into())]));
                ExitCode::SUCCESS
            }
            Err(e) => failed(&e),
        },
    }
}
