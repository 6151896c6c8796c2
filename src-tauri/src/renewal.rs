//! Renewing the page. WebKit keeps what a long run of questions used in the page's
//! process: after 10,000 questions answered, the page process held about 80 MiB more
//! than a page loaded anew, and more than with 1,000 pending. A reload frees it only
//! as WebKit lets go of the old page, over tens of seconds, with the old page and the
//! new one held together meanwhile (`benches/desktop_figures.py`). So the page, after
//! [`renew_after`] questions and the next time nothing waits and the question list is
//! in view, asks to be renewed: its process is ended and the page loaded again in a
//! new one, and the memory is the system's again at once. Nothing is lost: the page
//! reads everything back from the app (see `user_questions_window::inbox`).

use tauri::{Runtime, WebviewWindow};

/// How many questions the page builds before it asks to be renewed.
/// `USERQ_WINDOW_RENEW_AFTER` sets it.
pub fn renew_after() -> u64 {
    std::env::var("USERQ_WINDOW_RENEW_AFTER").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000)
}

/// Loads the window's page again in a page process of its own.
#[cfg(target_os = "linux")]
pub fn renew<R: Runtime>(window: &WebviewWindow<R>) {
    use webkit2gtk::WebViewExt;
    let done = window.with_webview(|webview| {
        let view = webview.inner();
        view.terminate_web_process();
        view.reload();
    });
    if let Err(e) = done {
        tracing::warn!("the page cannot be renewed: {e}");
    }
}

/// Loads the window's page again.
#[cfg(not(target_os = "linux"))]
pub fn renew<R: Runtime>(window: &WebviewWindow<R>) {
    if let Err(e) = window.reload() {
        tracing::warn!("the page cannot be renewed: {e}");
    }
}
