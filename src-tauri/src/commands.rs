//! The commands the webview may call: read the list, answer, dismiss, keep a draft,
//! hide itself. Errors come back as `{code, message}`.

use serde::Serialize;
use serde_json::Value;
use tauri::{AppHandle, Runtime, State};

use crate::desk::Desk;
use crate::inbox::{AskView, UiError};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub do_not_disturb: bool,
    pub socket: String,
    /// The question a notification click asked to show, once.
    pub focus: Option<String>,
}

#[tauri::command]
pub fn list_questions(desk: State<'_, Desk>) -> Vec<AskView> {
    desk.inbox.list()
}

#[tauri::command]
pub fn answer_question(desk: State<'_, Desk>, ask: String, answer: Value) -> Result<(), UiError> {
    desk.inbox.answer(&ask, &answer)
}

#[tauri::command]
pub fn dismiss_question(desk: State<'_, Desk>, ask: String) -> Result<(), UiError> {
    desk.inbox.dismiss(&ask)
}

#[tauri::command]
pub fn save_draft(desk: State<'_, Desk>, ask: String, draft: Value) -> Result<(), UiError> {
    desk.inbox.save_draft(&ask, draft)
}

#[tauri::command]
pub fn status(desk: State<'_, Desk>) -> Status {
    Status {
        do_not_disturb: desk.do_not_disturb(),
        socket: desk.socket.display().to_string(),
        focus: desk.take_focus(),
    }
}

#[tauri::command]
pub fn hide_window<R: Runtime>(app: AppHandle<R>) {
    crate::window::hide(&app);
}
