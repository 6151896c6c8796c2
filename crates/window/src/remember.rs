//! Remembering a permission's Allow as rules of the policy, beside its buttons: the
//! ways the policy offers ([`user_questions::policy::remember`]), each with how many
//! past questions it would have answered, worked out once when the ask arrives. The
//! one picked is added to the person's rules file when they press Allow; a Deny
//! remembers nothing.

use std::path::Path;

use serde::Serialize;
use user_questions::history::past;
use user_questions::model::{ErrorCode, Intent};
use user_questions::policy::remember::{self, Way};
use user_questions::policy::{words, yours, Action, Kind, Policy, Verdict};
use user_questions::{Answer, Ask};
use user_questions_i18n::Text;

use crate::error::UiError;
use crate::inbox::AskView;

/// How many recent asks the counts look through, so a long history never slows an
/// ask's arrival.
const LOOKED_THROUGH: u64 = 2_000;

/// A way offered for one ask, with its count.
#[derive(Debug, Clone, PartialEq)]
pub struct Offered {
    pub way: Way,
    /// Past questions it would have answered; `None` with no history to count in.
    pub past: Option<usize>,
}

/// A way as the window lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WayView {
    /// What `answer_question`'s `remember` names it by.
    pub way: usize,
    /// "“cargo test …” with any arguments, in ~/src/shop".
    pub label: String,
    /// "would have answered 3 past questions".
    pub past_label: Option<String>,
}

/// The ways to remember an Allow of `ask`, a permission whose intent names its action,
/// judged by the rules in `config`; counted in the history at `history`.
pub fn offered(ask: &Ask, config: &Path, history: Option<&Path>) -> Vec<Offered> {
    let request = ask.request();
    let [q] = request.questions.as_slice() else { return Vec::new() };
    let Some(kind) = q.intent.as_ref().filter(|i| i.kind == Intent::PERMISSION).and_then(Kind::of) else {
        return Vec::new();
    };
    let context = request.context.clone().unwrap_or_default();
    let agent = context.source.as_deref().and_then(|s| {
        user_questions::agents::Agent::ALL.into_iter().find(|a| a.display_name == s).map(|a| a.name.to_owned())
    });
    let action = Action { kind, cwd: context.project.map(Into::into), agent, session: context.session };
    let Ok(policy) = Policy::load(config, action.cwd.as_deref()) else { return Vec::new() };
    let ways = remember::ways(&action, &policy.decide(&action));
    let candidates: Vec<_> = ways.iter().map(Way::rules).collect();
    let counts = history
        .and_then(user_questions::history::open_if_kept)
        .and_then(|conn| past::would_have_decided(&conn, config, &candidates, Some(LOOKED_THROUGH)).ok());
    ways.into_iter().enumerate().map(|(i, way)| Offered { way, past: counts.as_ref().map(|c| c[i]) }).collect()
}

/// The ways, worded for the person.
pub fn views(offered: &[Offered], text: &Text) -> Vec<WayView> {
    offered
        .iter()
        .enumerate()
        .map(|(i, o)| WayView {
            way: i,
            label: words::way(&o.way, text),
            past_label: o.past.map(|n| text.tr_args("remember-past", &[("count", n.into())])),
        })
        .collect()
}

/// Adds the rules of the `way` offered for the ask `view` shows to the person's rules
/// file in `config`, when `answer` is its Allow; any other answer keeps nothing.
pub fn keep_allowed(
    config: Option<&Path>,
    view: Option<&AskView>,
    way: usize,
    answer: &Answer,
    text: &Text,
) -> Result<(), UiError> {
    let (Some(config), Some(view)) = (config, view) else { return Ok(()) };
    let approve = view.questions.first().and_then(|q| q.intent.as_ref()).map(|i| i.approve.as_str());
    let allowed = answer.answers.first().is_some_and(|a| {
        a.custom.as_deref().is_none_or(|c| c.trim().is_empty()) && a.selected.first().map(String::as_str) == approve
    });
    if !allowed {
        return Ok(());
    }
    let not_offered =
        || UiError::new(ErrorCode::BadRequest, text.tr_args("window-remember-no-way", &[("way", way.into())]));
    keep(config, view.ways.get(way).ok_or_else(not_offered)?, text)
}

/// Adds the rules of `offered` to the person's rules file in `config`.
fn keep(config: &Path, offered: &Offered, text: &Text) -> Result<(), UiError> {
    let entries: Vec<_> = offered.way.entries.iter().map(|e| (Verdict::Allow, e.clone())).collect();
    yours::add(config, &entries).map(|_| ()).map_err(|e| {
        UiError::new(ErrorCode::BadRequest, text.tr_args("window-rules-problem", &[("error", (&e.to_string()).into())]))
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;
    use tokio_util::sync::CancellationToken;
    use user_questions::history::decider::Decider;
    use user_questions::model::{AgentInfo, AnswerItem, AskRequest, Context, Question, Request};
    use user_questions::{Scope, UserQuestions};

    use super::*;
    use crate::inbox::{Inbox, WindowAnswerer};

    /// A permission for `command` in `project` and `session`, as a hook asks it.
    fn permission(command: &str, project: &Path, session: &str) -> (Vec<Question>, Context) {
        let mut q = user_questions::agents::hook::permission::question(
            "Run this command?".into(),
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
            (
                format!("“cargo test …” with any arguments, in {p}"),
                Some("would have answered one past question".into())
            )
        );
        assert_eq!(shown[4].0, "“cargo test --release” exactly, everywhere");
        let zh = views(&view.ways, &Text::for_tag("zh-CN"));
        assert_eq!(zh[3].label, format!("“cargo test …”及任何参数，在 {p} 中"));

        // A Deny, or a way that was not offered, keeps nothing.
        let deny = Answer::new(vec![AnswerItem::selected("permission", &["Deny"])]);
        keep_allowed(Some(config.path()), Some(&view), 3, &deny, &text).unwrap();
        assert!(!config.path().join("rules.toml").exists());
        let allow = Answer::new(vec![AnswerItem::selected("permission", &["Allow"])]);
        let e = keep_allowed(Some(config.path()), Some(&view), 9, &allow, &text).unwrap_err();
        assert_eq!(e.code, "BAD_REQUEST");

        keep_allowed(Some(config.path()), Some(&view), 3, &allow, &text).unwrap();
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
}
