//! The window exists only while someone looks at it: built when the person opens it
//! (tray, notification click, a second launch), hidden on close, and destroyed after
//! it has stayed hidden a while, so an idle tray app holds no webview.

use std::time::Duration;

use tauri::{AppHandle, Emitter, Manager, Runtime, WebviewUrl, WebviewWindowBuilder, WindowEvent};

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
            let _ = window.emit("focus-question", ask);
        }
        return;
    }
    let built = WebviewWindowBuilder::new(app, LABEL, WebviewUrl::App("index.html".into()))
        .title(app.state::<crate::AppState>().text().tr("window-title"))
        .inner_size(900.0, 760.0)
        .min_inner_size(420.0, 360.0)
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
        }
        Err(e) => tracing::error!("cannot open the window: {e}"),
    }
}

/// Hides the window and destroys it if it stays hidden.
pub fn hide<R: Runtime>(app: &AppHandle<R>) {
    let Some(window) = app.get_webview_window(LABEL) else { return };
    let _ = window.hide();
    let shown = app.state::<AppState>().times_shown();
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(idle_before_destroy()).await;
        if app.state::<AppState>().times_shown() != shown {
            return;
        }
        if let Some(w) = app.get_webview_window(LABEL) {
            if !w.is_visible().unwrap_or(true) {
                crate::webview_cycle::break_cycle(&w);
                let _ = w.destroy();
            }
        }
    });
}
