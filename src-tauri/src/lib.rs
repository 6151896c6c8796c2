//! The User Questions desktop app: hosts the question service and its socket (the
//! same server as `userq serve`), answers agent-scoped questions in a window, raises
//! notifications and lives in the tray. Everything Tauri-specific lives in this crate.

mod app_state;
#[cfg(test)]
mod command_names;
mod commands;
mod events;
mod notify;
mod renewal;
mod tray;
mod webview_cycle;
mod window;

use std::path::PathBuf;
use std::time::Duration;

use tauri::{AppHandle, Emitter, Manager, RunEvent, Runtime};

use user_questions::channel::server::BindError;

pub use app_state::AppState;
pub use user_questions_window::{AskView, Inbox, UiError, WindowAnswerer};

/// Time to gather a burst of new questions into one notification.
const BURST: Duration = Duration::from_millis(40);

pub fn run() {
    if std::env::args().skip(1).any(|a| a == "--version" || a == "-V") {
        println!("user-questions {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    // Set before any thread starts; a value the person set stays.
    if std::env::var_os("WEBKIT_DISABLE_DMABUF_RENDERER").is_none() {
        // Blank windows otherwise on some GPUs.
        std::env::set_var("WEBKIT_DISABLE_DMABUF_RENDERER", "1");
    }
    if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_none() {
        // A page of forms needs no GPU compositing, and without it a window shown
        // paints sooner: a notification click to its question painted, median 74 to
        // 98 ms against 119 to 125 ms with it (`benches/window_cycles.py`, no GPU).
        std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1");
    }
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .try_init();
    let background = std::env::args().any(|a| a == "--background");
    let context = tauri::generate_context!();
    let socket = user_questions::paths::socket();
    // One app per server: a second launch on the same socket shows the first one's
    // window and exits; a launch on another socket is a server of its own.
    let instance = format!("{}.s{}", context.config().identifier, user_questions::paths::server_name(&socket));
    let builder = tauri::Builder::default().plugin(
        tauri_plugin_single_instance::Builder::new()
            .callback(|app, _args, _cwd| window::open(app, None))
            .dbus_id(instance)
            .build(),
    );
    let start = Start {
        background,
        tray: true,
        settings: user_questions_window::settings::path(),
        data: user_questions::history::default_dir(),
        relay: user_questions::relay::config::default_path(),
        ssh_hosts: user_questions::ssh::remembered::default_path(),
        matrix: user_questions::matrix::account::Place::default_place().map(|p| p.dir().to_owned()),
    };
    let app = match app(builder, socket, start).build(context) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("user-questions: {e}");
            std::process::exit(1);
        }
    };
    #[cfg(unix)]
    quit_on_signal(app.handle().clone());
    app.run(|_app, event| {
        // The app lives in the tray with no window; only Quit (an exit code) ends it.
        if let RunEvent::ExitRequested { code: None, api, .. } = event {
            api.prevent_exit();
        }
    });
}

/// How the app starts.
#[derive(Debug, Clone)]
pub struct Start {
    /// In the tray only, with no window until one is opened.
    pub background: bool,
    /// With its tray icon. The tray needs GTK, and so a display: the mock-runtime
    /// tests leave it out (the end-to-end tests drive it over D-Bus).
    pub tray: bool,
    /// Where the person's choices (the language) are kept; `None` keeps nothing.
    pub settings: Option<PathBuf>,
    /// The folder of the history; `None` keeps none.
    pub data: Option<PathBuf>,
    /// The relay file (`userq relay`); `None` relays nothing.
    pub relay: Option<PathBuf>,
    /// The SSH hosts kept forwarded (`userq ssh --remember`); `None` keeps none.
    pub ssh_hosts: Option<PathBuf>,
    /// The Matrix bridge's folder (`userq matrix init`); `None` runs no bridge.
    pub matrix: Option<PathBuf>,
}

/// The whole app on any runtime (the real one, or Tauri's mock in tests): its plugins,
/// commands, the question service on `socket`, the tray, notifications following the
/// inbox, and the window unless it starts in the background.
pub fn app<R: Runtime>(builder: tauri::Builder<R>, socket: PathBuf, start: Start) -> tauri::Builder<R> {
    builder
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_autostart::init(
            tauri_plugin_autostart::MacosLauncher::LaunchAgent,
            Some(vec!["--background"]),
        ))
        .invoke_handler(tauri::generate_handler![
            commands::list_questions,
            commands::answer_question,
            commands::answer_marked,
            commands::request_changes,
            commands::review_plan,
            commands::save_picture,
            commands::find_paths,
            commands::preview_path,
            commands::dismiss_question,
            commands::save_draft,
            commands::status,
            commands::hide_window,
            commands::renew_page,
            commands::ui_text,
            commands::set_language,
            commands::deadline_view,
            commands::set_deadline,
            commands::history_page,
            commands::list_rules,
            commands::remove_rule,
            commands::edit_rule,
            commands::trust_project,
            commands::relay_status,
            commands::matrix_status,
            commands::relay_invite,
            commands::list_agents,
            commands::agent_changes,
            commands::connect_agent,
        ])
        .setup(move |app| {
            let state = match AppState::start(socket.clone(), &start) {
                Ok(d) => d,
                Err(e @ BindError::AlreadyRunning(_)) => {
                    eprintln!("user-questions: {e}; stop it (userq serve) to let the app host the questions");
                    std::process::exit(3);
                }
                Err(e) => return Err(e.into()),
            };
            tracing::info!("listening on {}", socket.display());
            app.manage(state);
            app.manage(notify::Notices::default());
            if start.tray {
                tray::build(app.handle())?;
            }
            follow(app.handle().clone());
            follow_history(app.handle().clone());
            follow_ssh_hosts(app.handle().clone());
            follow_deadlines(app.handle().clone());
            if !start.background {
                window::open(app.handle(), None);
            }
            Ok(())
        })
}

/// Follows the inbox: the window hears of each change, the tray and notifications
/// are brought up to date.
fn follow<R: Runtime>(app: AppHandle<R>) {
    let mut changes = app.state::<AppState>().inbox.watch();
    tauri::async_runtime::spawn(async move {
        while changes.changed().await.is_ok() {
            // The window hears at once (or, when there is none, is built hidden for
            // the question that came); the tray and notifications wait for the burst,
            // and the window hears again only of changes that came during it.
            let _ = app.emit(events::QUESTIONS_CHANGED, ());
            let waiting = !app.state::<AppState>().inbox.is_empty();
            let handle = app.clone();
            let _ = app.run_on_main_thread(move || match waiting {
                true => window::prepare(&handle),
                false => window::retire_when_idle(&handle),
            });
            tokio::time::sleep(BURST).await;
            if changes.borrow_and_update().has_changed() {
                let _ = app.emit(events::QUESTIONS_CHANGED, ());
            }
            let list = app.state::<AppState>().inbox.list();
            let handle = app.clone();
            let _ = app.run_on_main_thread(move || {
                tray::update(&handle, &list);
                handle.state::<notify::Notices>().update(&handle, &list);
            });
        }
    });
}

/// Tells the window when the history stops being written (a full disk) and when it
/// is written again, as `history-problem` with what is wrong (or null).
fn follow_history<R: Runtime>(app: AppHandle<R>) {
    let Some(history) = app.state::<AppState>().history.clone() else { return };
    let mut changes = history.pause.watch();
    tauri::async_runtime::spawn(async move {
        while changes.changed().await.is_ok() {
            let _ = app.emit(events::HISTORY_PROBLEM, commands::history_problem(&app.state::<AppState>()));
        }
    });
}

/// Brings the tray up to date as the remembered SSH hosts connect and drop.
fn follow_ssh_hosts<R: Runtime>(app: AppHandle<R>) {
    let mut changes = app.state::<AppState>().ssh_hosts.subscribe();
    tauri::async_runtime::spawn(async move {
        while changes.changed().await.is_ok() {
            let handle = app.clone();
            let _ = app.run_on_main_thread(move || tray::update(&handle, &handle.state::<AppState>().inbox.list()));
        }
    });
}

/// Tells the person, in a notification, of each question their deadline decided.
fn follow_deadlines<R: Runtime>(app: AppHandle<R>) {
    let Some(mut passed) = app.state::<AppState>().deadline_passed.lock().unwrap().take() else { return };
    tauri::async_runtime::spawn(async move {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            match passed.recv().await {
                Ok(p) => notify::deadline_passed(&app, &p),
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => break,
            }
        }
    });
}

/// SIGINT and SIGTERM quit like the tray's Quit.
#[cfg(unix)]
fn quit_on_signal<R: Runtime>(app: AppHandle<R>) {
    tauri::async_runtime::spawn(async move {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
            return;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        let handle = app.clone();
        let _ = app.run_on_main_thread(move || quit(&handle));
    });
}

/// Quit: stop the server cleanly (pending asks end with `SHUTTING_DOWN`, the socket is
/// removed), then exit.
pub(crate) fn quit<R: Runtime>(app: &AppHandle<R>) {
    app.state::<AppState>().stop();
    app.exit(0);
}

#[cfg(test)]
mod tests;
