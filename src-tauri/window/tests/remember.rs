//! Remembering a permission's Allow from the window: the ways a permission from a
//! hook offers, counted in the history, worded in both languages, and the one picked
//! kept in the person's rules file only with an Allow.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use tokio_util::sync::CancellationToken;
use user_questions::history::decider::Decider;
use user_questions::model::{AgentInfo, AnswerItem, AskRequest, Context, Question, Request};
use user_questions::{Answer, Scope, UserQuestions};
use user_questions_window::inbox::{Inbox, WindowAnswerer};
use user_questions_window::remember::{keep_allowed, views};
use user_questions_window::Text;

/// A permission for `command` in `project` and `session`, as a hook asks it.
fn permission(command: &str, project: &Path, session: &str) -> (Vec<Question>, Context) {
    let mut q = user_questions::agents::hook::permission::question(
        &user_questions::wording::Worded::new("hook-run-command"),
        &Text::for_tag("en"),
        "Bash",
        format!("```sh\n{command}\n```"),
        &[],
    );
    q.intent.as_mut().unwrap().extra.insert("action".into(), json!({"command": command}));
    let context = Context {
        project: Some(project.display().to_string()),
        session: Some(session.into()),
        source: Some("Claude Code".into()),
        machine: None,
        ..Context::default()
    };
    (vec![q], context)
}

#[tokio::test]
async fn an_allow_is_remembered_as_the_way_picked_with_its_count_and_a_deny_keeps_nothing() {
    let (config, data, project) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // Two past questions: one the wide way would have answered, one no way would.
    for command in ["cargo test --doc", "make lint"] {
        let (questions, context) = permission(command, project.path(), "earlier");
        let agent = AgentInfo { id: "a".into(), delegation_depth: 0, client: None };
        let request = Request { questions, agent: Some(agent), context: Some(context) };
        let answer = Answer::new(vec![AnswerItem::selected("permission", &["Allow"])]);
        user_questions::history::record_one(data.path(), &request, &answer, &Decider::Window).unwrap();
    }
    let s = UserQuestions::new();
    let inbox = Inbox::new();
    inbox.keep_history(Some(data.path().join(user_questions::history::FILE)));
    inbox.keep_rules(Some(config.path().to_path_buf()));
    s.register("window", Scope::Agents, 0, Arc::new(WindowAnswerer(inbox.clone())));
    let mut watch = inbox.watch();
    let ask = |command: &str| {
        let (questions, context) = permission(command, project.path(), "now");
        let s = s.clone();
        let agent = s.enter(command, None, 0).unwrap();
        let request = AskRequest { questions, agent: Some(agent), context: Some(context) };
        tokio::spawn(async move { s.ask(request, &CancellationToken::new()).await })
    };
    let asking = ask("cargo test --release");
    watch.changed().await.unwrap();
    let view = inbox.list().remove(0);
    assert!(!view.can_remember, "the ways replace remembering the exact question");
    let text = Text::for_tag("en");
    let shown: Vec<(String, Option<String>)> =
        views(&view.ways, &text).into_iter().map(|w| (w.label, w.past_label)).collect();
    let p = project.path().display();
    assert_eq!(
        shown[1],
        (
            "“cargo test …” with any arguments, in this session only".into(),
            Some("would have answered no past question".into())
        )
    );
    assert_eq!(
        shown[3],
        (format!("“cargo test …” with any arguments, in {p}"), Some("would have answered one past question".into()))
    );
    assert_eq!(shown[4].0, "“cargo test --release” exactly, everywhere");
    let zh = views(&view.ways, &Text::for_tag("zh-CN"));
    assert_eq!(zh[3].label, format!("“cargo test …”及任何参数，在 {p} 中"));

    // A Deny, or a way that was not offered, keeps nothing.
    let deny = Answer::new(vec![AnswerItem::selected("permission", &["Deny"])]);
    keep_allowed(Some(config.path()), &view.ways, Some("Allow"), 3, &deny, &text).unwrap();
    assert!(!config.path().join("rules.toml").exists());
    let allow = Answer::new(vec![AnswerItem::selected("permission", &["Allow"])]);
    let e = keep_allowed(Some(config.path()), &view.ways, Some("Allow"), 9, &allow, &text).unwrap_err();
    assert_eq!(e.code, "BAD_REQUEST");

    keep_allowed(Some(config.path()), &view.ways, Some("Allow"), 3, &allow, &text).unwrap();
    inbox.answer(&view.ask, allow).unwrap();
    asking.await.unwrap().unwrap();
    let kept = std::fs::read_to_string(config.path().join("rules.toml")).unwrap();
    assert_eq!(kept, format!("[[allow]]\ncommand = \"cargo test\"\nproject = \"{p}\"\n"));
    // The next such command in the project is the policy's to allow: nothing to remember.
    let asking = ask("cargo test --doc");
    while inbox.is_empty() {
        watch.changed().await.unwrap();
    }
    assert!(inbox.list()[0].ways.is_empty());
    asking.abort();
}
