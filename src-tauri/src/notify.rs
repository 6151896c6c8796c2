//! Desktop notifications for new questions, raised and closed. What they say (and
//! which buttons they carry) is `user_questions_window::notice`. Bursts are coalesced
//! into one; a notification is closed when its question is answered or withdrawn; Do
//! not disturb silences notifications, never questions. Where the
//! notification server supports actions (Linux, through notify-rust), a click opens
//! the window at the question, and a plan review or a single-select question of at
//! most three options gets buttons that answer it from the notification. Elsewhere
//! tauri-plugin-notification shows a plain one.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use tauri::{AppHandle, Manager, Runtime};

use crate::app_state::AppState;
use user_questions_window::notice::{escape, quick_answers, shown_label, text_for};
use user_questions_window::AskView;

/// Tells the person their deadline decided a question (Do not disturb silences it).
pub fn deadline_passed<R: Runtime>(app: &AppHandle<R>, passed: &user_questions::deadline::Passed) {
    use tauri_plugin_notification::NotificationExt;
    let state = app.state::<AppState>();
    if state.do_not_disturb() {
        return;
    }
    let (title, body) = user_questions_window::notice::deadline_passed(passed, &state.text());
    if let Err(e) = app.notification().builder().title(&title).body(escape(&body)).show() {
        tracing::warn!("notification failed: {e}");
    }
}

/// Notifications on screen, by ask, and the asks already announced.
#[derive(Default)]
pub struct Notices {
    shown: Mutex<HashMap<String, u32>>,
    known: Mutex<HashSet<String>>,
}

impl Notices {
    /// Reconciles notifications with the current list of held asks.
    pub fn update<R: Runtime>(&self, app: &AppHandle<R>, list: &[AskView]) {
        let current: HashSet<&str> = list.iter().map(|v| v.ask.as_str()).collect();
        let new: Vec<&AskView> = {
            let mut known = self.known.lock().unwrap();
            known.retain(|a| current.contains(a.as_str()));
            list.iter().filter(|v| known.insert(v.ask.clone())).collect()
        };
        // A notification closes once none of the asks it announced is left.
        let gone: Vec<u32> = {
            let mut shown = self.shown.lock().unwrap();
            let ended: HashSet<u32> =
                shown.iter().filter(|(a, _)| !current.contains(a.as_str())).map(|(_, id)| *id).collect();
            shown.retain(|a, _| current.contains(a.as_str()));
            ended.into_iter().filter(|id| !shown.values().any(|v| v == id)).collect()
        };
        for id in gone {
            platform::close(id);
        }
        if new.is_empty() || app.state::<AppState>().do_not_disturb() {
            return;
        }
        let text = app.state::<AppState>().text();
        let (title, body) = text_for(&new, &text);
        let single = (new.len() == 1).then(|| new[0]);
        // Each button shows the label in the person's language and answers with the label.
        let buttons: Vec<(String, String)> = single
            .map(|v| quick_answers(v).into_iter().map(|l| (shown_label(v, &l, &text), l)).collect())
            .unwrap_or_default();
        let focus = single.map(|v| v.ask.clone());
        match platform::show(app, &title, &escape(&body), focus.clone(), buttons, &text) {
            Some(id) => {
                let mut shown = self.shown.lock().unwrap();
                for v in &new {
                    shown.insert(v.ask.clone(), id);
                }
            }
            None => {
                use tauri_plugin_notification::NotificationExt;
                if let Err(e) = app.notification().builder().title(&title).body(escape(&body)).show() {
                    tracing::warn!("notification failed: {e}");
                }
            }
        }
    }
}

#[cfg(target_os = "linux")]
mod platform {
    use tauri::{AppHandle, Manager, Runtime};

    use crate::app_state::AppState;

    /// Asked of the notification server once; a D-Bus round trip per question would
    /// sit between every ask and its notification.
    fn supports_actions() -> bool {
        static ACTIONS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *ACTIONS
            .get_or_init(|| notify_rust::get_capabilities().map(|c| c.iter().any(|c| c == "actions")).unwrap_or(false))
    }

    /// Shows a notification with a click action and answer buttons; `None` when the
    /// server has no actions (the caller falls back to the plugin).
    pub fn show<R: Runtime>(
        app: &AppHandle<R>,
        title: &str,
        body: &str,
        focus: Option<String>,
        buttons: Vec<(String, String)>,
        text: &user_questions_window::Text,
    ) -> Option<u32> {
        if !supports_actions() {
            return None;
        }
        let mut n = notify_rust::Notification::new();
        n.appname(&text.tr("notice-app")).summary(title).body(body).action("default", &text.tr("notice-open"));
        for (i, (shown, _)) in buttons.iter().enumerate() {
            n.action(&format!("answer:{i}"), shown);
        }
        let buttons: Vec<String> = buttons.into_iter().map(|(_, label)| label).collect();
        let handle = match n.show() {
            Ok(h) => h,
            Err(e) => {
                tracing::warn!("notification failed: {e}");
                return None;
            }
        };
        let id = handle.id();
        let app = app.clone();
        std::thread::spawn(move || {
            handle.wait_for_action(|action| on_action(&app, action, focus.as_deref(), &buttons));
        });
        Some(id)
    }

    fn on_action<R: Runtime>(app: &AppHandle<R>, action: &str, focus: Option<&str>, buttons: &[String]) {
        if action == "__closed" {
            return;
        }
        let picked = action.strip_prefix("answer:").and_then(|i| i.parse::<usize>().ok()).and_then(|i| buttons.get(i));
        let (Some(label), Some(ask)) = (picked, focus) else {
            let (app2, focus) = (app.clone(), focus.map(str::to_owned));
            let _ = app.run_on_main_thread(move || crate::window::open(&app2, focus));
            return;
        };
        let state = app.state::<AppState>();
        let Some(view) = state.inbox.get(ask) else { return };
        let answer = user_questions::Answer::new(vec![user_questions::AnswerItem::selected(
            &view.questions[0].id,
            &[label.as_str()],
        )]);
        if let Err(e) = state.inbox.answer(ask, answer) {
            tracing::warn!("answer from the notification failed: {e}");
        }
    }

    /// Closes a notification by id, straight over D-Bus (its handle lives in the
    /// thread waiting for its action).
    pub fn close(id: u32) {
        let closed = zbus::blocking::Connection::session().and_then(|c| {
            c.call_method(
                Some("org.freedesktop.Notifications"),
                "/org/freedesktop/Notifications",
                Some("org.freedesktop.Notifications"),
                "CloseNotification",
                &(id,),
            )
        });
        if let Err(e) = closed {
            tracing::debug!("closing notification {id}: {e}");
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod platform {
    use tauri::{AppHandle, Runtime};

    pub fn show<R: Runtime>(_: &AppHandle<R>, _: &str, _: &str, _: Option<String>, _: Vec<String>) -> Option<u32> {
        None
    }

    pub fn close(_: u32) {}
}
