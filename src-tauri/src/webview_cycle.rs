//! Lets a destroyed window's webview actually be freed. In wry's WebKitGTK backend the
//! webview's IPC handler is a closure, connected to the webview's own user content
//! manager, that holds the webview: webview → manager → handler → webview. Destroying
//! the window disposes the webview but never finalizes it, so the webview, its manager
//! and every init script Tauri gave it (about 70 KB of script text) stayed in memory
//! for each window built and destroyed. Disconnecting that handler just before the
//! window is destroyed breaks the cycle. The page only loses Tauri's fallback channel
//! (`window.ipc.postMessage`): its commands go over the `ipc://` protocol, and a
//! window about to be destroyed sends none anyway.

use tauri::{Runtime, WebviewWindow};

#[cfg(target_os = "linux")]
pub fn break_cycle<R: Runtime>(window: &WebviewWindow<R>) {
    use webkit2gtk::glib::subclass::signal::SignalId;
    use webkit2gtk::glib::translate::IntoGlib;
    use webkit2gtk::glib::{gobject_ffi, ObjectExt, ObjectType};
    use webkit2gtk::WebViewExt;

    let _ = window.with_webview(|webview| {
        let Some(manager) = webview.inner().user_content_manager() else { return };
        let Some(signal) = SignalId::lookup("script-message-received", manager.type_()) else { return };
        let instance = manager.as_ptr() as *mut gobject_ffi::GObject;
        // GLib's `*_matched` disconnect ignores a match on the signal alone, so each
        // handler is found by its signal and disconnected by id.
        // SAFETY: `manager` is a live GObject for the whole loop (we hold a reference);
        // the ids come from GLib for this instance and are disconnected once each.
        unsafe {
            loop {
                let id = gobject_ffi::g_signal_handler_find(
                    instance,
                    gobject_ffi::G_SIGNAL_MATCH_ID,
                    signal.into_glib(),
                    0,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                );
                if id == 0 {
                    break;
                }
                gobject_ffi::g_signal_handler_disconnect(instance, id);
            }
        }
    });
}

#[cfg(not(target_os = "linux"))]
pub fn break_cycle<R: Runtime>(_window: &WebviewWindow<R>) {}
