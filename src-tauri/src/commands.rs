//! The commands the webview may call: read the list, answer, dismiss, keep a draft,
//! hide itself, read its words and switch the language. Errors come back as
//! `{code, message}`.

use std::path::PathBuf;

use serde_json::Value;
use tauri::{AppHandle, Emitter, Runtime, State};

use crate::app_state::AppState;
use crate::events;
use user_questions::model::ErrorCode;
use user_questions::Answer;
use user_questions_i18n::Arg;
use user_questions_window::agents::{self, AgentsView, ChangesView, Place};
use user_questions_window::deadline::DeadlineView;
use user_questions_window::history::{HistoryPage, RememberFor};
use user_questions_window::machines::{InviteView, MachinesView};
use user_questions_window::matrix::MatrixView;
use user_questions_window::page::{HistoryProblem, Status, UiText};
use user_questions_window::picker::{self, Found, Preview};
use user_questions_window::rules::{RuleId, RulesView};
use user_questions_window::{ListView, UiError};

pub fn history_problem(state: &AppState) -> Option<HistoryProblem> {
    let history = state.history.as_ref()?;
    let (paused, fault) = match &history.unusable {
        Some(fault) => (false, fault.clone()),
        None => (true, history.pause.now()?),
    };
    let file = fault.file.display().to_string();
    let args = [("file", Arg::Str(&file)), ("error", Arg::Str(&fault.error))];
    let id = if paused { "window-history-paused-why" } else { "window-history-off-why" };
    Some(HistoryProblem { paused, why: state.text().tr_args(id, &args) })
}

#[tauri::command]
pub fn list_questions(state: State<'_, AppState>) -> ListView {
    ListView::new(state.inbox.list(), &state.text())
}

#[tauri::command]
pub fn ui_text(state: State<'_, AppState>) -> UiText {
    let text = state.text();
    UiText {
        lang: text.tag().to_owned(),
        languages: user_questions_i18n::languages(),
        messages: text.all_with_prefix("window-"),
    }
}

/// Switches the language of the window, the tray and notifications, at once and for
/// the next start.
#[tauri::command]
pub fn set_language<R: Runtime>(app: AppHandle<R>, state: State<'_, AppState>, lang: String) -> Result<(), UiError> {
    if !state.set_language(&lang) {
        let known: Vec<String> = user_questions_i18n::languages().into_iter().map(|l| l.tag).collect();
        let known = known.join(", ");
        let words = [("lang", lang.as_str().into()), ("known", known.as_str().into())];
        return Err(UiError::new(ErrorCode::BadLanguage, state.text().tr_args("window-error-bad-language", &words)));
    }
    crate::tray::update(&app, &state.inbox.list());
    let _ = app.emit(events::LANGUAGE_CHANGED, lang);
    // A paused history's reason is worded in Rust: told again, in the new language.
    let _ = app.emit(events::HISTORY_PROBLEM, history_problem(&state));
    Ok(())
}

/// The deadline picker: what happens to a question nobody answers.
#[tauri::command]
pub fn deadline_view(state: State<'_, AppState>) -> DeadlineView {
    user_questions_window::deadline::view(state.settings(), &state.text())
}

/// Keeps the deadline picked (`off` or a duration); the service holds it from the
/// next question.
#[tauri::command]
pub fn set_deadline(state: State<'_, AppState>, choice: String) -> Result<DeadlineView, UiError> {
    user_questions_window::deadline::set(state.settings(), &choice, &state.text())
}

/// Answers an ask; with `remember`, the answer becomes a rule for the next asks of
/// the same question (from this client, or from every client), or a permission's
/// Allow becomes the policy's rules of the way picked.
#[tauri::command]
pub fn answer_question(
    state: State<'_, AppState>,
    ask: String,
    answer: Answer,
    remember: Option<RememberFor>,
) -> Result<(), UiError> {
    let held = state.inbox.ask(&ask)?;
    let view = state.inbox.get(&ask);
    let kept = remember.is_some().then(|| answer.clone());
    state.inbox.answer(&ask, answer)?;
    let text = state.text();
    match (remember, kept) {
        (Some(RememberFor::Way(way)), Some(answer)) => {
            let Some(view) = view else { return Ok(()) };
            let config = user_questions::paths::config_dir();
            let approve = view.questions.first().and_then(|q| q.intent.as_ref()).map(|i| i.approve.as_str());
            user_questions_window::remember::keep_allowed(config.as_deref(), &view.ways, approve, way, &answer, &text)
        }
        (Some(whom), Some(answer)) => match state.history_file() {
            Some(path) => user_questions_window::history::remember(&path, &held, &answer, whom, &text).map(|_| ()),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// Allows (or denies) exactly the marked permission requests, after the person saw
/// their list; all or none: one that is no longer pending sends nothing. Remembers
/// nothing. The number answered.
#[tauri::command]
pub fn answer_marked(state: State<'_, AppState>, asks: Vec<String>, allow: bool) -> Result<usize, UiError> {
    state.inbox.answer_marked(&asks, allow, &state.text())
}

/// Requests changes on a code review, with the person's comments on its lines, files
/// and the whole change; worded for the agent in Rust (`review::feedback`).
#[tauri::command]
pub fn request_changes(
    state: State<'_, AppState>,
    ask: String,
    comments: Vec<user_questions::review::feedback::Comment>,
) -> Result<(), UiError> {
    state.inbox.request_changes(&ask, &comments)
}

/// Sends a plan's review: the button chosen (an approval, or Revise), the annotations
/// on the plan's lines and the general notes; worded for the agent in Rust
/// (`review::plan`).
#[tauri::command]
pub fn review_plan(
    state: State<'_, AppState>,
    ask: String,
    choice: String,
    annotations: Vec<user_questions::review::plan::Annotation>,
    general: String,
) -> Result<(), UiError> {
    state.inbox.review_plan(&ask, &choice, &annotations, &general)
}

/// Keeps a picture pasted or dropped into feedback (its bytes, the request's raw
/// body) under the data folder; its path, for the feedback to name.
#[tauri::command]
pub fn save_picture(state: State<'_, AppState>, request: tauri::ipc::Request<'_>) -> Result<String, UiError> {
    let text = state.text();
    let not_one = || UiError::new(ErrorCode::BadPicture, text.tr("window-picture-not-one"));
    let tauri::ipc::InvokeBody::Raw(bytes) = request.body() else { return Err(not_one()) };
    let dir = state.pictures.clone().ok_or_else(|| UiError::new(ErrorCode::History, text.tr("window-history-off")))?;
    Ok(user_questions_window::pictures::save(&dir, bytes, &text)?.display().to_string())
}

/// The paths of a file pick that best fit what the person typed (its listing read
/// once, off the window's thread, while the runtime goes on).
#[tauri::command]
pub async fn find_paths(
    state: State<'_, AppState>,
    ask: String,
    question: String,
    query: String,
    hidden: bool,
) -> Result<Found, UiError> {
    tokio::task::block_in_place(|| state.picker.find(&state.inbox, (&ask, &question), &query, hidden, &state.text()))
}

/// A look inside one path of a file pick: a text file's first lines, a folder's names.
#[tauri::command]
pub async fn preview_path(
    state: State<'_, AppState>,
    ask: String,
    question: String,
    path: String,
) -> Result<Preview, UiError> {
    tokio::task::block_in_place(|| picker::preview(&state.inbox, (&ask, &question), &path, &state.text()))
}

/// One page of the History view, newest first.
#[tauri::command]
pub fn history_page(
    state: State<'_, AppState>,
    search: Option<String>,
    before: Option<i64>,
) -> Result<HistoryPage, UiError> {
    let Some(path) = state.history_file() else { return Ok(HistoryPage { items: Vec::new(), next: None }) };
    user_questions_window::history::page(&path, search.filter(|s| !s.trim().is_empty()), before, &state.text())
}

/// The Rules view: the policy's rules, the remembered answers, and the projects' own
/// rules files above the folders agents ask from.
#[tauri::command]
pub fn list_rules(state: State<'_, AppState>) -> Result<RulesView, UiError> {
    let config = user_questions::paths::config_dir();
    let asking = state.inbox.list().into_iter().filter_map(|a| a.context?.project.map(PathBuf::from)).collect();
    user_questions_window::rules::view(config.as_deref(), state.history_file().as_deref(), asking, &state.text())
}

/// Your rule `id` (`allow:3fa9c2e1`) in place, as `entry` (its fields as TOML) says.
#[tauri::command]
pub fn edit_rule(state: State<'_, AppState>, id: RuleId, entry: String) -> Result<(), UiError> {
    let config = user_questions::paths::config_dir();
    user_questions_window::rules::edit(config.as_deref(), &id, &entry, &state.text())
}

/// Trusts a project's `.userq/rules.toml` as it is now, so its rules apply.
#[tauri::command]
pub fn trust_project(state: State<'_, AppState>, file: String) -> Result<(), UiError> {
    let config = user_questions::paths::config_dir();
    user_questions_window::rules::trust(config.as_deref(), &file, &state.text())
}

#[tauri::command]
pub fn remove_rule(state: State<'_, AppState>, id: RuleId) -> Result<(), UiError> {
    let config = user_questions::paths::config_dir();
    user_questions_window::rules::remove(config.as_deref(), state.history_file().as_deref(), &id, &state.text())
}

/// This machine's circle of the relay (reaching its broker, for up to 5 s).
#[tauri::command]
pub async fn relay_status(state: State<'_, AppState>) -> Result<MachinesView, UiError> {
    user_questions_window::machines::view(state.relay.as_deref(), &state.text()).await
}

/// A new single-use invite to this machine's circle, with its QR code.
#[tauri::command]
pub fn relay_invite(state: State<'_, AppState>) -> Result<InviteView, UiError> {
    user_questions_window::machines::invite(state.relay.as_deref(), &state.text())
}

/// The Matrix bridge, its room and members (asking its homeserver).
#[tauri::command]
pub async fn matrix_status(state: State<'_, AppState>) -> Result<MatrixView, UiError> {
    user_questions_window::matrix::view(state.matrix.as_deref(), &state.text()).await
}

/// Every agent installed here or connected, and how each stands.
#[tauri::command]
pub async fn list_agents(state: State<'_, AppState>) -> Result<AgentsView, UiError> {
    let place = Place { home: &state.home, userq: state.userq.as_deref() };
    Ok(agents::view(&place, &state.text()).await)
}

/// What connecting (or disconnecting) an agent would change, as `userq setup
/// --dry-run` says it; nothing is written.
#[tauri::command]
pub async fn agent_changes(state: State<'_, AppState>, name: String, connect: bool) -> Result<ChangesView, UiError> {
    let place = Place { home: &state.home, userq: state.userq.as_deref() };
    agents::change(&place, &name, connect, false, &state.text()).await
}

/// Connects (or disconnects) an agent: exactly what `userq setup` (or `--remove`) does.
#[tauri::command]
pub async fn connect_agent(state: State<'_, AppState>, name: String, connect: bool) -> Result<ChangesView, UiError> {
    let place = Place { home: &state.home, userq: state.userq.as_deref() };
    agents::change(&place, &name, connect, true, &state.text()).await
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
        history_problem: history_problem(&state),
        renew_after: crate::renewal::renew_after(),
    }
}

#[tauri::command]
pub fn hide_window<R: Runtime>(app: AppHandle<R>) {
    crate::window::hide(&app);
}

/// The page, done with a long run of questions, loaded again in a new page process.
#[tauri::command]
pub fn renew_page<R: Runtime>(window: tauri::WebviewWindow<R>) {
    crate::renewal::renew(&window);
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
    fn a_history_that_cannot_be_written_for_now_is_shown_paused_until_it_can() {
        use tauri::Listener;
        use user_questions::history::pause::{Fault, Source};
        let dir = tempfile::tempdir().unwrap();
        let app = crate::tests::mock_app(dir.path().join("run").join("userq.sock"));
        let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
        let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::<serde_json::Value>::new()));
        app.listen_any(crate::events::HISTORY_PROBLEM, {
            let heard = heard.clone();
            move |e| heard.lock().unwrap().push(serde_json::from_str(e.payload()).unwrap())
        });
        assert_eq!(invoke(&window, "status", json!({})).unwrap()["historyProblem"], json!(null));
        let pause = app.state::<AppState>().history.as_ref().unwrap().pause.clone();
        let error = "No space left on device (os error 28)";
        pause.report(Source::Journal, Some(Fault { file: "/data/journal/1.jsonl".into(), error: error.into() }));
        let why = "/data/journal/1.jsonl cannot be written (No space left on device (os error 28)). Questions go on; answers are recorded again once it can be written.";
        let paused = json!({"paused": true, "why": why});
        wait_until("the window told", || heard.lock().unwrap().last() == Some(&paused));
        assert_eq!(invoke(&window, "status", json!({})).unwrap()["historyProblem"], paused);
        pause.report(Source::Journal, None);
        wait_until("the window told it is over", || heard.lock().unwrap().last() == Some(&json!(null)));
        assert_eq!(invoke(&window, "status", json!({})).unwrap()["historyProblem"], json!(null));
        app.state::<AppState>().stop();
    }

    #[test]
    fn the_window_lists_answers_dismisses_and_keeps_drafts() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("run").join("userq.sock");
        let app = crate::tests::mock_app(socket);
        let service = app.state::<AppState>().service.clone();
        let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
        let empty = invoke(&window, "list_questions", json!({})).unwrap();
        assert_eq!(empty, json!({"asks": [], "groups": [], "waiting": "0 waiting", "title": "User Questions"}));

        let agent = service.enter_from("claude-code", "bot", None, 1).unwrap();
        let q = Question::new("go", "Deploy?").option("Yes", None).option("No", None);
        let asking = tauri::async_runtime::spawn({
            let (service, request) = (service.clone(), AskRequest::new(vec![q.clone()]).from_agent(agent.clone()));
            async move { service.ask(request, &CancellationToken::new()).await }
        });
        let inbox = app.state::<AppState>().inbox.clone();
        wait_until("the question in the inbox", || !inbox.is_empty());
        let view = invoke(&window, "list_questions", json!({})).unwrap();
        assert_eq!(view["groups"][0]["countLabel"], "1 question");
        let list = &view["asks"];
        assert_eq!(list[0]["group"], "bot");
        assert_eq!(list[0]["agent"], json!({"id": "bot", "client": "claude-code", "delegationDepth": 1}));
        assert_eq!(list[0]["questions"][0]["options"][1]["label"], "No");
        let ask = list[0]["ask"].as_str().unwrap().to_owned();

        invoke(&window, "save_draft", json!({"ask": ask, "draft": {"go": {"selected": ["No"]}}})).unwrap();
        assert_eq!(
            invoke(&window, "list_questions", json!({})).unwrap()["asks"][0]["draft"],
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
        assert!(invoke(&other, "set_language", json!({"lang": "zh-CN"})).is_err());
        assert!(invoke(&other, "list_questions", json!({})).is_err());
        app.state::<AppState>().stop();
        assert!(!dir.path().join("run").join("userq.sock").exists(), "a clean stop removes the socket");
    }

    #[test]
    fn the_window_switches_language_at_once_and_keeps_it() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("run").join("userq.sock");
        let app = crate::tests::mock_app(socket);
        let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
        let text = invoke(&window, "ui_text", json!({})).unwrap();
        assert_eq!(text["languages"], json!([{"tag": "en", "name": "English"}, {"tag": "zh-CN", "name": "简体中文"}]));

        let bad = invoke(&window, "set_language", json!({"lang": "tlh"})).unwrap_err();
        assert_eq!(bad["code"], "BAD_LANGUAGE");
        let message = bad["message"].as_str().unwrap();
        assert!(message.starts_with("There is no catalog") && message.contains("tlh"), "{bad}");
        assert!(message.contains("en, zh-CN"), "{bad}");

        invoke(&window, "set_language", json!({"lang": "zh-CN"})).unwrap();
        let text = invoke(&window, "ui_text", json!({})).unwrap();
        assert_eq!((text["lang"].as_str(), text["messages"]["window-submit"].as_str()), (Some("zh-CN"), Some("提交")));
        assert_eq!(invoke(&window, "list_questions", json!({})).unwrap()["waiting"], "0 个待回答");
        let bad = invoke(&window, "set_language", json!({"lang": "tlh"})).unwrap_err();
        assert!(bad["message"].as_str().unwrap().starts_with("没有语言"), "errors in the person's language: {bad}");
        let kept: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("settings.json")).unwrap()).unwrap();
        assert_eq!(kept, json!({"language": "zh-CN"}));
        app.state::<AppState>().stop();
    }
}
