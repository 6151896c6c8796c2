//! The app's shared state: the hosted question service and its socket server, the
//! window's inbox, the person's language, Do not disturb, the question a notification
//! click asked to show, and how often the window was shown. Commands, the tray and notifications all reach it through Tauri's state.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use user_questions::channel::server;
use user_questions::host::{Config, Host};
use user_questions::ssh::remembered::Statuses;
use user_questions::{Scope, UserQuestions};

use user_questions::deadline::Passed;
use user_questions_window::picker::Picker;
use user_questions_window::settings::{self, Settings};
use user_questions_window::{Inbox, Text, WindowAnswerer};

pub struct AppState {
    pub service: UserQuestions,
    pub inbox: Arc<Inbox>,
    /// The file picks' listings, kept while the person searches them.
    pub picker: Arc<Picker>,
    pub socket: PathBuf,
    do_not_disturb: AtomicBool,
    /// The history the service keeps, and what is wrong with it, if anything.
    pub history: Option<user_questions::history::Installed>,
    /// Where pictures pasted into feedback are kept (beside the history).
    pub pictures: Option<PathBuf>,
    text: RwLock<Text>,
    settings: Option<PathBuf>,
    /// The relay file (`userq relay`), for the Machines view.
    pub relay: Option<PathBuf>,
    /// The Matrix bridge's folder (`userq matrix`), for the Machines view.
    pub matrix: Option<PathBuf>,
    /// The person's home, where the Agents view connects agents.
    pub home: PathBuf,
    /// The `userq` connected agents' hooks run: beside the app, else on `PATH`.
    pub userq: Option<PathBuf>,
    /// How each remembered SSH host is (`userq ssh --remember`), for the tray.
    pub ssh_hosts: tokio::sync::watch::Sender<Statuses>,
    focus: Mutex<Option<String>>,
    /// Bumped whenever the window is shown, so a pending destroy of an earlier hide
    /// knows it is stale.
    shown: AtomicU64,
    /// The questions the person's deadline decides, until the app follows them.
    pub deadline_passed: Mutex<Option<tokio::sync::broadcast::Receiver<Passed>>>,
    stop: CancellationToken,
    stopped: Mutex<Option<tauri::async_runtime::JoinHandle<()>>>,
}

impl AppState {
    /// Binds the socket and starts the service with the window's answerer.
    pub fn start(socket: PathBuf, start: &crate::Start) -> Result<Self, server::BindError> {
        let (settings, data) = (start.settings.clone(), start.data.clone());
        let listener = {
            // tokio's listener must be made inside the runtime.
            let _guard = tauri::async_runtime::handle().inner().enter();
            server::bind(&socket)?
        };
        // A list the person wrote wrong admits no one more, and says why.
        let trusted_uids = user_questions::channel::peer::trusted_uids().unwrap_or_else(|e| {
            tracing::warn!("{e}; admitting only this user");
            Vec::new()
        });
        let pictures = data.as_ref().map(|d| d.join("pictures"));
        let host = Host::start(&Config {
            history: data,
            trusted_uids,
            relay: start.relay.clone(),
            ssh_hosts: start.ssh_hosts.clone(),
            settings: settings.clone(),
            matrix: start.matrix.clone(),
        });
        let inbox = Inbox::new();
        inbox.keep_history(host.history.as_ref().and_then(|h| h.file()));
        inbox.keep_rules(user_questions::paths::config_dir());
        host.service.register("desktop window", Scope::Agents, 0, Arc::new(WindowAnswerer(inbox.clone())));
        let stop = CancellationToken::new();
        let (ssh_hosts, _) = tokio::sync::watch::channel(Statuses::new());
        let told = ssh_hosts.clone();
        let running = host.run(
            listener,
            &socket,
            stop.clone().cancelled_owned(),
            Arc::new(move |now: &Statuses| {
                // Only a change redraws the tray (a menu replaced under a click loses it).
                told.send_if_modified(|held| {
                    held != now && {
                        *held = now.clone();
                        true
                    }
                });
            }),
        );
        let task = tauri::async_runtime::spawn(running);
        let relay = start.relay.clone();
        let Host { service, history, deadline_passed, .. } = host;
        Ok(Self {
            service,
            inbox,
            picker: Arc::default(),
            socket,
            do_not_disturb: AtomicBool::new(false),
            history,
            pictures,
            text: RwLock::new(settings::text(&settings.as_deref().map(Settings::load).unwrap_or_default())),
            deadline_passed: Mutex::new(Some(deadline_passed)),
            settings,
            relay,
            matrix: start.matrix.clone(),
            home: std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from).unwrap_or_default(),
            userq: userq(),
            ssh_hosts,
            focus: Mutex::new(None),
            shown: AtomicU64::new(0),
            stop,
            stopped: Mutex::new(Some(task)),
        })
    }

    /// Stops the server cleanly: pending asks end with `SHUTTING_DOWN`, holders are
    /// told, and the socket file is removed.
    pub fn stop(&self) {
        self.stop.cancel();
        if let Some(task) = self.stopped.lock().unwrap().take() {
            let _ = tauri::async_runtime::block_on(async { tokio::time::timeout(Duration::from_secs(5), task).await });
        }
    }

    pub fn do_not_disturb(&self) -> bool {
        self.do_not_disturb.load(Ordering::Relaxed)
    }

    pub fn set_do_not_disturb(&self, on: bool) {
        self.do_not_disturb.store(on, Ordering::Relaxed);
    }

    /// The history file, when one is kept.
    pub fn history_file(&self) -> Option<PathBuf> {
        self.history.as_ref().and_then(|h| h.file())
    }

    /// The person's language: everything the app says is worded in it.
    pub fn text(&self) -> Text {
        self.text.read().unwrap().clone()
    }

    /// Switches the language (picked in the window) and keeps the choice for the next
    /// start; `false` for a tag no catalog fits.
    pub fn set_language(&self, tag: &str) -> bool {
        if !user_questions_i18n::languages().iter().any(|l| l.tag == tag) {
            return false;
        }
        *self.text.write().unwrap() = Text::for_tag(tag);
        if let Some(path) = &self.settings {
            if let Err(e) = Settings::update(path, |s| s.language = Some(tag.to_owned())) {
                tracing::warn!("cannot keep the language in {}: {e}", path.display());
            }
        }
        true
    }

    /// The settings file, when there is a folder for it.
    pub fn settings(&self) -> Option<&std::path::Path> {
        self.settings.as_deref()
    }

    pub fn set_focus(&self, ask: Option<String>) {
        *self.focus.lock().unwrap() = ask;
    }

    pub fn take_focus(&self) -> Option<String> {
        self.focus.lock().unwrap().take()
    }

    /// The window is shown (again).
    pub fn shown(&self) {
        self.shown.fetch_add(1, Ordering::Relaxed);
    }

    pub fn times_shown(&self) -> u64 {
        self.shown.load(Ordering::Relaxed)
    }
}

/// The `userq` installed with the app (beside its binary, as the package and a build
/// put it), else the one on `PATH`; by its absolute path, as setup writes it.
fn userq() -> Option<PathBuf> {
    let beside = std::env::current_exe().ok()?.parent().map(|dir| dir.join("userq")).filter(|p| p.is_file());
    beside.or_else(|| user_questions::agents::version::on_path("userq")).and_then(|p| p.canonicalize().ok())
}
