//! The app's shared state: the hosted question service and its socket server, the
//! window's inbox, Do not disturb, the question a notification click asked to show,
//! and how often the window was shown. Commands, the tray and notifications all reach it through Tauri's state.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use user_questions::channel::server;
use user_questions::{Scope, UserQuestions};

use user_questions_window::{Inbox, WindowAnswerer};

pub struct AppState {
    pub service: UserQuestions,
    pub inbox: Arc<Inbox>,
    pub socket: PathBuf,
    do_not_disturb: AtomicBool,
    focus: Mutex<Option<String>>,
    /// Bumped whenever the window is shown, so a pending destroy of an earlier hide
    /// knows it is stale.
    shown: AtomicU64,
    stop: CancellationToken,
    stopped: Mutex<Option<tauri::async_runtime::JoinHandle<()>>>,
}

impl AppState {
    /// Binds the socket and starts the service with the window's answerer.
    pub fn start(socket: PathBuf) -> Result<Self, server::BindError> {
        let listener = {
            // tokio's listener must be made inside the runtime.
            let _guard = tauri::async_runtime::handle().inner().enter();
            server::bind(&socket)?
        };
        let service = UserQuestions::new();
        let inbox = Inbox::new();
        service.register("desktop window", Scope::Agents, 0, Arc::new(WindowAnswerer(inbox.clone())));
        let stop = CancellationToken::new();
        let task = tauri::async_runtime::spawn({
            let (service, stop) = (service.clone(), stop.clone());
            async move { server::run(listener, service, stop.cancelled_owned()).await }
        });
        Ok(Self {
            service,
            inbox,
            socket,
            do_not_disturb: AtomicBool::new(false),
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
