//! `userq ssh HOST [ssh options]`: agents on HOST ask here, through a reverse forward
//! the system's `ssh` keeps (see `user_questions::ssh`). It runs until stopped; the
//! first forward refused ends it with ssh's own words. `--remember` hands the host to
//! the serving host instead (`userq serve`, the desktop app), which keeps it forwarded
//! whenever it runs; `--forget NAME` and `--list` tend that list.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use tokio::signal::unix::{signal, SignalKind};
use user_questions::ssh::{self, remembered, Event, FirstRefusal, Target};

use crate::tr;

#[derive(Args)]
pub struct SshArgs {
    /// The host, as `ssh` names it (`user@host`, or a `Host` of ~/.ssh/config).
    #[arg(required_unless_present_any = ["forget", "list"])]
    host: Option<String>,
    /// The machine's name as questions show it (default: the host).
    #[arg(long)]
    name: Option<String>,
    /// The socket path on the host (default: what `userq` there would use:
    /// $USERQ_SOCKET, else $XDG_RUNTIME_DIR/user-questions/userq.sock, else
    /// /tmp/user-questions-<uid>/userq.sock).
    #[arg(long, value_name = "PATH")]
    remote_socket: Option<String>,
    /// Keep this host forwarded whenever `userq serve` or the desktop app runs, rather
    /// than from this command (the app's tray shows how it is).
    #[arg(long)]
    remember: bool,
    /// Stop keeping the host of this name forwarded.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["host", "remember", "list"])]
    forget: Option<String>,
    /// The hosts kept forwarded, as JSON.
    #[arg(long, conflicts_with_all = ["host", "remember"])]
    list: bool,
    /// Options for `ssh` itself (`-p 2222`, `-J jump`, `-i key`), after `--`.
    #[arg(last = true, value_name = "SSH OPTIONS")]
    ssh: Vec<String>,
}

pub async fn run(socket: PathBuf, args: SshArgs) -> ExitCode {
    let t = tr();
    let hosts = || remembered::default_path().ok_or_else(|| "userq ssh: no config folder (set HOME)".to_owned());
    if args.list {
        return match hosts().and_then(|p| remembered::load(&p)) {
            Ok(all) => {
                println!("{}", serde_json::to_string_pretty(&all).expect("hosts serialize"));
                ExitCode::SUCCESS
            }
            Err(e) => crate::fail(1, &format!("userq ssh: {e}")),
        };
    }
    if let Some(name) = &args.forget {
        return match hosts().and_then(|p| remembered::forget(&p, name)) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => crate::fail(1, &t.tr_args("ssh-not-remembered", &[("name", name.into())])),
            Err(e) => crate::fail(1, &format!("userq ssh: {e}")),
        };
    }
    let host = args.host.clone().expect("clap requires a host here");
    let mut target = Target::new(&host, args.name.clone());
    target.remote_socket = args.remote_socket.clone();
    target.options = args.ssh.clone();
    if args.remember {
        let name = target.name.clone();
        return match hosts().and_then(|p| remembered::remember(&p, target)) {
            Ok(()) => {
                println!("{}", t.tr_args("ssh-remembered", &[("host", (&host).into()), ("name", (&name).into())]));
                ExitCode::SUCCESS
            }
            Err(e) => crate::fail(1, &format!("userq ssh: {e}")),
        };
    }
    let mut term = signal(SignalKind::terminate()).expect("a SIGTERM handler");
    let mut int = signal(SignalKind::interrupt()).expect("a SIGINT handler");
    let stop = async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    };
    let host_arg = || -> user_questions_i18n::Arg<'_> { (&host).into() };
    let report = |event: Event| {
        let line = match event {
            Event::Forwarding { path } => {
                t.tr_args("ssh-forwarding", &[("host", host_arg()), ("path", (&path).into())])
            }
            Event::NoUserq => t.tr_args("ssh-no-userq", &[("host", host_arg())]),
            Event::Dropped => t.tr_args("ssh-dropped", &[("host", host_arg())]),
            Event::Retrying { said } => t.tr_args("ssh-retry", &[("host", host_arg()), ("ssh", (&said).into())]),
        };
        eprintln!("{line}");
    };
    match ssh::keep(&target, &socket, FirstRefusal::Ends, report, stop).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(said) => crate::fail(1, &t.tr_args("ssh-refused", &[("host", host_arg()), ("ssh", (&said).into())])),
    }
}
