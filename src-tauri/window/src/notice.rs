//! What a notification says: the title and body of one question or of a burst ("5 new
//! questions from 2 agents"), the buttons that answer it from the notification, and
//! the escaping of markup some notification servers interpret in bodies. Plain text
//! in, plain text out; raising and closing notifications is the desktop crate's.

use std::collections::HashSet;

use crate::inbox::AskView;
use user_questions::model::Kind;
use user_questions_i18n::Text;

/// Markup some servers interpret in bodies (`<b>`, `&amp;`) is escaped.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Who asks, as a person knows them: the kind of agent and its project when the ask
/// says ("Claude Code (shop)"), else the agent's id.
pub fn asked_by(view: &AskView, text: &Text) -> String {
    let who = match project_name(view) {
        Some(project) if view.context.as_ref().is_some_and(|c| c.source.is_some()) => {
            format!("{} ({project})", agent_name(view, text))
        }
        _ => agent_name(view, text),
    };
    match view.context.as_ref().and_then(|c| c.machine.as_deref()) {
        Some(machine) => text.tr_args("notice-on-machine", &[("who", (&who).into()), ("machine", machine.into())]),
        None => who,
    }
}

fn agent_name(view: &AskView, text: &Text) -> String {
    if let Some(source) = view.context.as_ref().and_then(|c| c.source.clone()) {
        return source;
    }
    view.agent.as_ref().map(|a| a.id.clone()).unwrap_or_else(|| text.tr("notice-an-agent"))
}

fn project_name(view: &AskView) -> Option<&str> {
    view.context.as_ref()?.project_name()
}

/// The buttons a notification offers for a question of each kind. Every kind is named
/// here, none by a wildcard: a new kind does not compile until the notification says
/// how it is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Buttons {
    /// Its options, when there are at most three.
    Options,
    /// The kind's own labels, however many.
    Own,
    /// Allow and Deny: an "always allow" rule is chosen in the window, where it is explained.
    AllowDeny,
    /// The approving option first, then the others, three in all.
    ApproveFirst,
    /// None: it is answered in the window (a file pick's paths are picked there).
    None,
}

fn buttons(kind: Kind) -> Buttons {
    match kind {
        Kind::Generic => Buttons::Options,
        Kind::CodeReview | Kind::Elicitation => Buttons::Own,
        Kind::Permission => Buttons::AllowDeny,
        Kind::PlanReview => Buttons::ApproveFirst,
        Kind::FilePick => Buttons::None,
    }
}

/// The buttons of a question that can be answered from its notification.
pub fn quick_answers(view: &AskView) -> Vec<String> {
    let [q] = view.questions.as_slice() else { return Vec::new() };
    if q.multi_select || q.options.is_empty() {
        return Vec::new();
    }
    let labels = q.options.iter().map(|o| o.label.clone());
    let approve = || q.approve.clone().unwrap_or_default();
    match buttons(view.presentation) {
        Buttons::Options if q.options.len() > 3 => Vec::new(),
        Buttons::Options | Buttons::Own => labels.collect(),
        Buttons::AllowDeny => {
            let deny = q.options.last().map(|o| o.label.clone()).filter(|l| *l != approve());
            std::iter::once(approve()).chain(deny).collect()
        }
        Buttons::ApproveFirst => std::iter::once(approve()).chain(labels.filter(|l| *l != approve())).take(3).collect(),
        Buttons::None => Vec::new(),
    }
}

/// A button's text: the label as the person sees it (see [`user_questions::wording`]).
pub fn shown_label(view: &AskView, label: &str, text: &Text) -> String {
    let intent = view.questions.first().and_then(|q| q.intent.as_ref());
    let option = user_questions::model::QuestionOption { label: label.to_owned(), description: None };
    user_questions::wording::shown_option(intent, &option, text).label
}

/// The most of a command (or file, or address) a notification's body shows.
const NOTIFIED_SUBJECT: usize = 120;

/// What the notification says when the person's deadline decided a question.
pub fn deadline_passed(passed: &user_questions::deadline::Passed, text: &Text) -> (String, String) {
    let title = text.tr(if passed.denied { "notice-deadline-denied" } else { "notice-deadline-dismissed" });
    let question = passed.request.questions.first().map_or_else(String::new, |q| {
        user_questions::wording::shown_title(q.intent.as_ref(), &q.question, q.header.as_deref(), text).0
    });
    let after = humantime::format_duration(passed.deadline).to_string();
    (title, text.tr_args("notice-deadline-body", &[("question", (&question).into()), ("after", (&after).into())]))
}

/// Title and body of one notification, or of a coalesced burst: for one ask, the
/// agent and its project in the title, the question and what it acts on in the body.
pub fn text_for(new: &[&AskView], text: &Text) -> (String, String) {
    match new {
        [one] => {
            let q = &one.questions[0];
            let agent = agent_name(one, text);
            let (question, header) =
                user_questions::wording::shown_title(q.intent.as_ref(), &q.question, q.header.as_deref(), text);
            let machine = one.context.as_ref().and_then(|c| c.machine.as_deref());
            let project = project_name(one);
            // Where it comes from: the project (on its machine), else the machine.
            let place = match (project, machine) {
                (Some(p), Some(m)) => text.tr_args("notice-on-machine", &[("who", p.into()), ("machine", m.into())]),
                (Some(p), None) => p.to_owned(),
                (None, m) => m.unwrap_or_default().to_owned(),
            };
            // The agent and its project in the title, where the ask names both; else
            // the place goes in the body.
            let named = one.context.as_ref().is_some_and(|c| c.source.is_some());
            let (title, place) = match &header {
                _ if named && project.is_some() => (
                    text.tr_args("notice-title-where", &[("agent", (&agent).into()), ("place", (&place).into())]),
                    String::new(),
                ),
                Some(header) if named => (format!("{agent}: {header}"), place),
                Some(header) => (header.clone(), place),
                None => (text.tr_args("notice-question-from", &[("agent", (&agent).into())]), place),
            };
            let more = match one.questions.len() {
                1 => String::new(),
                n => format!(" {}", text.tr_args("notice-more", &[("count", (n - 1).into())])),
            };
            let place = if place.is_empty() { place } else { format!(" ({place})") };
            // What it acts on, cut to fit, on a line of its own.
            let subject = q
                .intent
                .as_ref()
                .and_then(user_questions::glance::subject)
                .map(|s| format!("\n{}", user_questions::glance::cut(&s, NOTIFIED_SUBJECT)))
                .unwrap_or_default();
            (title, format!("{question}{more}{place}{subject}"))
        }
        many => {
            let agents: HashSet<String> = many.iter().map(|v| agent_name(v, text)).collect();
            (
                text.tr_args("notice-burst", &[("questions", many.len().into()), ("agents", agents.len().into())]),
                text.tr("notice-burst-body"),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::{AgentView, AskView, QuestionView};
    use user_questions::model::{Intent, QuestionOption};

    fn view(ask: &str, agent: &str, labels: &[&str], plan: bool) -> AskView {
        AskView {
            ask: ask.into(),
            agent: Some(AgentView { id: agent.into(), client: None, delegation_depth: 0 }),
            client: None,
            context: None,
            since: String::new(),
            presentation: if plan { Kind::PlanReview } else { Kind::Generic },
            questions: vec![QuestionView {
                id: "q".into(),
                question: "Deploy <now>?".into(),
                header: None,
                detail_html: None,
                options: labels.iter().map(|l| QuestionOption { label: l.to_string(), description: None }).collect(),
                shown_options: Vec::new(),
                multi_select: false,
                intent: plan.then(|| Intent {
                    kind: "plan-review".into(),
                    approve: "Approve".into(),
                    extra: Default::default(),
                }),
                approve: plan.then(|| "Approve".into()),
                kind: if plan { Kind::PlanReview } else { Kind::Generic },
                pick: None,
            }],
            draft: None,
            can_remember: false,
            revision: None,
            ways: Vec::new(),
            review: None,
            progress: None,
        }
    }

    #[test]
    fn bursts_are_coalesced_and_markup_escaped() {
        let (a, b, c) = (view("a1", "x", &[], false), view("a2", "x", &[], false), view("a3", "y", &[], false));
        let en = Text::for_tag("en");
        assert_eq!(text_for(&[&a, &b, &c], &en).0, "3 new questions from 2 agents");
        assert_eq!(text_for(&[&a, &b], &en).0, "2 new questions from 1 agent");
        let (title, body) = text_for(&[&a], &en);
        assert_eq!((title.as_str(), escape(&body).as_str()), ("Question from x", "Deploy &lt;now&gt;?"));
        let zh = Text::for_tag("zh-CN");
        assert_eq!(
            text_for(&[&a, &b, &c], &zh),
            ("来自 2 个智能体的 3 个新问题".into(), "打开 User Questions 来回答。".into())
        );
        assert_eq!(text_for(&[&a], &zh).0, "来自 x 的问题");
    }

    #[test]
    fn quick_answers_only_where_they_fit() {
        assert_eq!(quick_answers(&view("a", "x", &["Yes", "No"], false)), ["Yes", "No"]);
        assert!(quick_answers(&view("a", "x", &["1", "2", "3", "4"], false)).is_empty());
        assert_eq!(quick_answers(&view("a", "x", &["Revise", "Approve"], true)), ["Approve", "Revise"]);
        assert!(quick_answers(&view("a", "x", &[], false)).is_empty());
        // A file pick's paths are picked in the window, whatever options it names.
        let mut pick = view("a", "x", &["a.toml", "b.toml"], false);
        pick.presentation = Kind::FilePick;
        assert!(quick_answers(&pick).is_empty());
    }

    #[test]
    fn a_permission_prompt_gets_allow_and_deny_and_names_its_agent_and_project() {
        let mut v =
            view("a", "claude-code-s1-7-abc", &["Allow", "Always allow Bash(ls)", "Always allow x", "Deny"], false);
        v.questions[0].kind = Kind::Permission;
        v.presentation = Kind::Permission;
        v.questions[0].header = Some("Bash".into());
        v.questions[0].intent =
            Some(Intent { kind: "permission".into(), approve: "Allow".into(), extra: Default::default() });
        v.questions[0].approve = Some("Allow".into());
        v.context = Some(user_questions::model::Context {
            project: Some("/home/me/shop".into()),
            session: Some("s1".into()),
            source: Some("Claude Code".into()),
            machine: None,
            ..Default::default()
        });
        assert_eq!(quick_answers(&v), ["Allow", "Deny"]);
        let zh = Text::for_tag("zh-CN");
        assert_eq!([shown_label(&v, "Allow", &zh), shown_label(&v, "Always allow x", &zh)], ["允许", "Always allow x"]);
        let en = Text::for_tag("en");
        assert_eq!(text_for(&[&v], &en), ("Claude Code in shop".to_owned(), "Deploy <now>?".to_owned()));
        let intent = v.questions[0].intent.as_mut().unwrap();
        let long = format!("npm run migrate -- --env prod {}", "--verbose ".repeat(20));
        intent.extra.insert("action".into(), serde_json::json!({"command": long}));
        let body = text_for(&[&v], &en).1;
        assert!(
            body.starts_with("Deploy <now>?\nnpm run migrate -- --env prod --verbose") && body.ends_with('…'),
            "{body}"
        );
        assert_eq!(body.chars().count(), "Deploy <now>?\n".chars().count() + NOTIFIED_SUBJECT + 1);
        assert_eq!(text_for(&[&v], &zh).0, "Claude Code（shop）");
        assert_eq!(asked_by(&v, &en), "Claude Code (shop)");
        // A question that came through an SSH forward names its machine.
        v.context.as_mut().unwrap().machine = Some("devbox".into());
        assert_eq!(asked_by(&v, &en), "Claude Code (shop) on devbox");
        assert_eq!(text_for(&[&v], &en).0, "Claude Code in shop on devbox");
        assert_eq!(asked_by(&v, &Text::for_tag("zh-CN")), "devbox 上的 Claude Code (shop)");
        assert_eq!(asked_by(&view("a", "bot", &[], false), &en), "bot");
    }
}
