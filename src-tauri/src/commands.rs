//! The commands the webview may call: read the list, answer, dismiss, keep a draft,
//! hide itself. Errors come back as `{code, message}`.

use serde::Serialize;
use serde_json::Value;
use tauri::{AppHandle, Runtime, State};

use crate::app_state::AppState;
use user_questions_window::{AskView, UiError};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub do_not_disturb: bool,
    pub socket: String,
    /// The question a notification click asked to show, once.
    pub focus: Option<String>,
}

#[tauri::command]
pub fn list_questions(state: State<'_, AppState>) -> Vec<AskView> {
    state.inbox.list()
}

#[tauri::command]
pub fn answer_question(state: State<'_, AppState>, ask: String, answer: Value) -> Result<(), UiError> {
    state.inbox.answer(&ask, &answer)
}

#[tauri::command]
pub fn dismiss_question(state: State<'_, AppState>, ask: String) -> Result<(), UiError> {
    state.inbox.dismiss(&ask)
}

#[tauri::command]
pub fn save_draft(state: State<'_, AppState>, ask: String, draft: Value) -> Result<(), UiError> {
    state.inbox.save_draft(&ask, draft)
}

#[tauri::command]
pub fn status(state: State<'_, AppState>) -> Status {
    Status {
        do_not_disturb: state.do_not_disturb(),
        socket: state.socket.display().to_string(),
        focus: state.take_focus(),
    }
}

#[tauri::command]
pub fn hide_window<R: Runtime>(app: AppHandle<R>) {
    crate::window::hide(&app);
}

#[cfg(test)]
mod tests {
    //! The commands through Tauri's mock runtime, with the app's real config and
    //! capabilities: what the webview may call, and what it gets back.

    use serde_json::json;
    use tauri::{Manager, WebviewWindowBuilder};
    use tokio_util::sync::CancellationToken;
    use user_questions::model::{AskRequest, Question};

    use crate::app_state::AppState;
    use crate::tests::{invoke, wait_until};

    #[test]
    fn the_window_lists_answers_dismisses_and_keeps_drafts() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("run").join("userq.sock");
        let app = crate::tests::mock_app(socket);
        let service = app.state::<AppState>().service.clone();
        let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
        assert_eq!(invoke(&window, "list_questions", json!({})).unwrap(), json!([]));

        let agent = service.enter_from("claude-code", "bot", None, 1).unwrap();
        let q = Question::new("go", "Deploy?").option("Yes", None).option("No", None);
        let asking = tauri::async_runtime::spawn({
            let (service, request) = (service.clone(), AskRequest::new(vec![q.clone()]).from_agent(agent.clone()));
            async move { service.ask(request, &CancellationToken::new()).await }
        });
        let inbox = app.state::<AppState>().inbox.clone();
        wait_until("the question in the inbox", || !inbox.is_empty());
        let list = invoke(&window, "list_questions", json!({})).unwrap();
        assert_eq!(list[0]["agent"], json!({"id": "bot", "client": "claude-code", "delegationDepth": 1}));
        assert_eq!(list[0]["questions"][0]["options"][1]["label"], "No");
        let ask = list[0]["ask"].as_str().unwrap().to_owned();

        invoke(&window, "save_draft", json!({"ask": ask, "draft": {"go": {"selected": ["No"]}}})).unwrap();
        assert_eq!(
            invoke(&window, "list_questions", json!({})).unwrap()[0]["draft"],
            json!({"go": {"selected": ["No"]}})
        );

        let bad = invoke(
            &window,
            "answer_question",
            json!({"ask": ask, "answer": {"answers": [{"id": "go", "selected": ["Maybe"]}]}}),
        );
        let bad = bad.unwrap_err();
        assert_eq!(bad["code"], "BAD_ANSWER");
        assert!(bad["message"].as_str().unwrap().contains("no option \"Maybe\""), "{bad}");
        invoke(
            &window,
            "answer_question",
            json!({"ask": ask, "answer": {"answers": [{"id": "go", "selected": ["Yes"]}]}}),
        )
        .unwrap();
        let answer = tauri::async_runtime::block_on(asking).unwrap().unwrap();
        assert_eq!(answer.to_compact_json(), r#"{"answers":[{"id":"go","selected":["Yes"]}]}"#);
        let gone = invoke(&window, "answer_question", json!({"ask": ask, "answer": {"answers": []}})).unwrap_err();
        assert_eq!(gone["code"], "NOT_PENDING");

        let asking = tauri::async_runtime::spawn({
            let (service, request) = (service.clone(), AskRequest::new(vec![q]).from_agent(agent));
            async move { service.ask(request, &CancellationToken::new()).await }
        });
        wait_until("the question in the inbox", || !inbox.is_empty());
        let ask = inbox.list()[0].ask.clone();
        invoke(&window, "dismiss_question", json!({"ask": ask})).unwrap();
        let e = tauri::async_runtime::block_on(asking).unwrap().unwrap_err();
        assert_eq!((e.code(), e.message()), ("ASK_CANCELLED", "the user cancelled ask_user_question"));
        assert_eq!(invoke(&window, "status", json!({})).unwrap()["doNotDisturb"], false);

        // Only the question window holds the capability.
        let other = WebviewWindowBuilder::new(&app, "other", Default::default()).build().unwrap();
        assert!(invoke(&other, "list_questions", json!({})).is_err());
        app.state::<AppState>().stop();
        assert!(!dir.path().join("run").join("userq.sock").exists(), "a clean stop removes the socket");
    }
}
