//! The window exists only while it is needed: built hidden when a question arrives and
//! none exists (page loaded, the question rendered, so a click on its notification only
//! maps it), built shown when the person opens it otherwise (tray, a second launch),
//! hidden on close, and destroyed once it has stayed hidden a while with nothing
//! pending, so an idle tray app holds no webview.

use std::time::Duration;

use tauri::{AppHandle, Emitter, Manager, Runtime, WebviewUrl, WebviewWindow, WebviewWindowBuilder, WindowEvent};

use crate::app_state::AppState;

pub const LABEL: &str = "main";

fn idle_before_destroy() -> Duration {
    let secs = std::env::var("USERQ_WINDOW_IDLE_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(120);
    Duration::from_secs(secs)
}

/// Shows the window (building it if needed), at `focus` when given.
pub fn open<R: Runtime>(app: &AppHandle<R>, focus: Option<String>) {
    app.state::<AppState>().shown();
    if let Some(ask) = &focus {
        app.state::<AppState>().set_focus(Some(ask.clone()));
    }
    if let Some(window) = app.get_webview_window(LABEL) {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
        if let Some(ask) = focus {
            let _ = window.emit(crate::events::FOCUS_QUESTION, ask);
        }
        return;
    }
    build(app, true);
}

/// Gets the window ready, hidden, for the question that just arrived, unless one
/// exists.
pub fn prepare<R: Runtime>(app: &AppHandle<R>) {
    if app.get_webview_window(LABEL).is_none() && build(app, false).is_some() {
        retire_when_idle(app);
    }
}

fn build<R: Runtime>(app: &AppHandle<R>, visible: bool) -> Option<WebviewWindow<R>> {
    let built = WebviewWindowBuilder::new(app, LABEL, WebviewUrl::App("index.html".into()))
        .title(app.state::<crate::AppState>().text().tr("window-title"))
        .inner_size(900.0, 760.0)
        .min_inner_size(420.0, 360.0)
        .visible(visible)
        // The page titles itself with what waits ("User Questions (3)"): the window
        // list and the taskbar show it.
        .on_document_title_changed(|window, title| {
            let _ = window.set_title(&title);
        })
        .build();
    match built {
        Ok(window) => {
            let handle = app.clone();
            window.on_window_event(move |event| {
                if let WindowEvent::CloseRequested { api, .. } = event {
                    api.prevent_close();
                    hide(&handle);
                }
            });
            Some(window)
        }
        Err(e) => {
            tracing::error!("cannot open the window: {e}");
            None
        }
    }
}

/// Hides the window and destroys it if it stays hidden with nothing pending.
pub fn hide<R: Runtime>(app: &AppHandle<R>) {
    let Some(window) = app.get_webview_window(LABEL) else { return };
    let _ = window.hide();
    retire_when_idle(app);
}

/// Destroys the window if, after a while, it is still hidden, was not shown meanwhile,
/// and nothing is pending (a question still waiting keeps it ready for its click; the
/// last one answered elsewhere calls this again).
pub fn retire_when_idle<R: Runtime>(app: &AppHandle<R>) {
    let shown = app.state::<AppState>().times_shown();
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(idle_before_destroy()).await;
        let state = app.state::<AppState>();
        if state.times_shown() != shown || !state.inbox.is_empty() {
            tracing::debug!("the window is kept: shown again, or a question waits");
            return;
        }
        let handle = app.clone();
        let _ = app.run_on_main_thread(move || {
            if let Some(w) = handle.get_webview_window(LABEL) {
                if !w.is_visible().unwrap_or(true) && handle.state::<AppState>().inbox.is_empty() {
                    crate::webview_cycle::break_cycle(&w);
                    let _ = w.destroy();
                }
            }
        });
    });
}
