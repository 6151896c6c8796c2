//! The list the window shows, worded in the person's language: the asks in the order
//! they were received, each in a group (one agent session, or one agent when the ask
//! names no session), every group named, with its count, and the window's title and
//! "N waiting" line. Grouping and wording live here, not in the page, so they are
//! decided once and tested without a window.

use serde::Serialize;
use user_questions::glance;
use user_questions::model::{Context, Kind};
use user_questions::policy::{reading, words};
use user_questions::service::Progress;
use user_questions::wording;
use user_questions_i18n::Text;

use crate::inbox::AskView;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ListView {
    pub asks: Vec<ListedAsk>,
    /// In the order of each group's oldest ask.
    pub groups: Vec<GroupView>,
    /// "3 waiting".
    pub waiting: String,
    /// The window's title: "User Questions (3)".
    pub title: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ListedAsk {
    #[serde(flatten)]
    pub view: AskView,
    /// The key of its group in [`ListView::groups`].
    pub group: String,
    /// "session 1a2b3c4d", when the ask names its session.
    pub session_label: Option<String>,
    /// "for Claude Code": whom a remembered answer would be for, when the asking
    /// client is named.
    pub remember_client: Option<String>,
    /// The ways to remember a permission's Allow as rules, worded.
    pub remember_ways: Vec<crate::remember::WayView>,
    /// Which of them "Allow for this session" keeps, when the agent has a session.
    pub session_way: Option<usize>,
    /// What each part of a permission's action would do, and why it reached you.
    pub parts: Vec<PartView>,
    /// Where in its project the agent asks from.
    pub place: PlaceView,
    /// What the agent says of its request, in its own words (inert).
    pub says: SaysView,
    /// "Claude Code · shop · session 7a1c9e3f · Run this command? · make deploy": its
    /// line in the list shown before a marked batch is sent.
    pub summary: String,
    /// A team question's count: "You voted Approve. @hal approved. One more approval
    /// needed."
    pub team: Option<String>,
}

/// One part of a permission's action, worded: "rm -rf target", "deletes files", "no
/// rule allows it".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PartView {
    pub text: String,
    pub does: String,
    pub why: String,
    /// A rule allows it: shown quieter than the parts that brought the question.
    pub allowed: bool,
}

/// Where an ask comes from inside its project, worded: `shop`, `on main`, `in
/// crates/api`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlaceView {
    pub project: Option<String>,
    /// The project's whole path, for a tooltip.
    pub project_path: Option<String>,
    pub branch: Option<String>,
    pub folder: Option<String>,
}

/// The agent's own words on its request, each shown under a label saying whose they
/// are; made inert ([`glance::inert`]), and escaped as text by the page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SaysView {
    pub description: Option<String>,
    pub last_message: Option<String>,
}

fn place_of(context: &Context, text: &Text) -> PlaceView {
    let place = glance::Place::of(context, text);
    PlaceView {
        project: place.project,
        project_path: context.root.as_deref().or(context.project.as_deref()).map(glance::inert),
        branch: place.branch,
        folder: place.folder,
    }
}

fn says_of(context: &Context) -> SaysView {
    SaysView {
        description: glance::words(context.description.as_deref(), glance::LAST_MESSAGE),
        last_message: glance::words(context.last_message.as_deref(), glance::LAST_MESSAGE),
    }
}

/// The parts a permission question carries, worded in `text`'s language.
pub fn parts_of(view: &AskView, text: &Text) -> Vec<PartView> {
    let intent = view.questions.first().filter(|q| q.kind == Kind::Permission).and_then(|q| q.intent.as_ref());
    let parts = intent.map(reading::of).unwrap_or_default();
    parts
        .iter()
        .map(|p| PartView {
            text: p.text.clone(),
            does: words::does(p, text),
            why: words::why(p, text),
            allowed: p.why == reading::Why::Allowed,
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GroupView {
    pub key: String,
    /// The project's folder name, or the agent's id ("No agent" for none).
    pub name: String,
    /// The kind of agent or its client ("Claude Code", "claude-code").
    pub client: String,
    /// "session 1a2b3c4d", "asked by a subagent", or nothing.
    pub detail: String,
    pub count: usize,
    /// "2 questions".
    pub count_label: String,
}

/// Asks of one agent session stay together: hooks ask as one agent per call, so a
/// session (with its source and project) is the group when the ask names one.
fn group_of(view: &AskView, text: &Text) -> GroupView {
    let context = view.context.clone().unwrap_or_default();
    let agent_client = view.agent.as_ref().and_then(|a| a.client.clone());
    let (key, name, client, detail) = match &context.session {
        Some(session) => (
            format!(
                "session\0{}\0{}\0{session}",
                context.source.as_deref().unwrap_or(""),
                context.project.as_deref().unwrap_or("")
            ),
            context.project_name().or(context.source.as_deref()).unwrap_or("").to_owned(),
            context.source.clone().or(agent_client).unwrap_or_default(),
            text.tr_args("window-session", &[("session", context.short_session().unwrap_or(session).into())]),
        ),
        None => match &view.agent {
            Some(a) => (
                a.id.clone(),
                a.id.clone(),
                agent_client.unwrap_or_default(),
                match a.delegation_depth {
                    0 => String::new(),
                    depth => text.tr_args("window-subagent", &[("depth", u64::from(depth).into())]),
                },
            ),
            None => (String::new(), text.tr("window-no-agent"), String::new(), String::new()),
        },
    };
    GroupView { key, name, client, detail, count: 0, count_label: String::new() }
}

/// `progress` with the desk's own vote in the labels the person saw.
fn shown_votes(progress: &Progress, view: &AskView) -> Progress {
    let shown = |label: &String| {
        let mut options = view.questions.iter().flat_map(|q| q.options.iter().zip(&q.shown_options));
        options.find(|(o, _)| o.label == *label).map_or_else(|| label.clone(), |(_, s)| s.label.clone())
    };
    Progress { yours: progress.yours.as_ref().map(|y| y.iter().map(shown).collect()), ..progress.clone() }
}

impl ListView {
    pub fn new(list: Vec<AskView>, text: &Text) -> Self {
        let mut groups: Vec<GroupView> = Vec::new();
        let mut asks = Vec::with_capacity(list.len());
        for mut view in list {
            for q in &mut view.questions {
                let intent = q.intent.as_ref();
                q.shown_options = q.options.iter().map(|o| wording::shown_option(intent, o, text)).collect();
                (q.question, q.header) = wording::shown_title(intent, &q.question, q.header.as_deref(), text);
            }
            let group = group_of(&view, text);
            let key = group.key.clone();
            match groups.iter_mut().find(|g| g.key == key) {
                Some(g) => g.count += 1,
                None => groups.push(GroupView { count: 1, ..group }),
            }
            let session_label = view
                .context
                .as_ref()
                .and_then(Context::short_session)
                .map(|s| text.tr_args("window-session", &[("session", s.into())]));
            let remember_client =
                view.client.as_deref().map(|c| text.tr_args("window-remember-client", &[("client", c.into())]));
            let team = view.progress.as_ref().map(|p| wording::progress(&shown_votes(p, &view), text));
            let remember_ways = crate::remember::views(&view.ways, text);
            let session_way = user_questions::policy::session::way(view.ways.iter().map(|o| &o.way));
            let parts = parts_of(&view, text);
            let context = view.context.clone().unwrap_or_default();
            let (place, says) = (place_of(&context, text), says_of(&context));
            let first = view.questions.first();
            let summary = user_questions::batch::line(
                &context,
                first.map_or("", |q| q.question.as_str()),
                first.and_then(|q| q.intent.as_ref()),
                text,
            );
            asks.push(ListedAsk {
                view,
                group: key,
                session_label,
                remember_client,
                remember_ways,
                session_way,
                parts,
                place,
                says,
                summary,
                team,
            });
        }
        for g in &mut groups {
            g.count_label = text.tr_args("window-group-count", &[("count", g.count.into())]);
        }
        let n = asks.len();
        let title =
            if n == 0 { text.tr("window-title") } else { text.tr_args("window-title-count", &[("count", n.into())]) };
        Self { waiting: text.tr_args("window-waiting", &[("count", n.into())]), title, asks, groups }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::AgentView;
    use user_questions::model::Context;

    fn view(ask: &str, agent: Option<&str>, session: Option<&str>) -> AskView {
        AskView {
            ask: ask.into(),
            agent: agent.map(|a| AgentView { id: a.into(), client: Some("cli".into()), delegation_depth: 1 }),
            client: agent.map(|_| "cli".into()),
            context: session.map(|s| Context {
                project: Some("/home/me/shop".into()),
                session: Some(s.into()),
                source: Some("Claude Code".into()),
                machine: None,
                ..Context::default()
            }),
            since: String::new(),
            presentation: Kind::Generic,
            questions: Vec::new(),
            draft: None,
            can_remember: false,
            revision: None,
            ways: Vec::new(),
            review: None,
            progress: None,
        }
    }

    #[test]
    fn asks_are_grouped_by_session_then_agent_and_worded_in_the_persons_language() {
        let list = vec![
            view("a1", Some("x"), None),
            view("a2", Some("hook-1"), Some("0123456789abcdef")),
            view("a3", Some("x"), None),
            view("a4", None, None),
            view("a5", Some("hook-2"), Some("0123456789abcdef")),
        ];
        let en = ListView::new(list.clone(), &Text::for_tag("en"));
        let summary: Vec<(String, String, String, usize, String)> = en
            .groups
            .iter()
            .map(|g| (g.name.clone(), g.client.clone(), g.detail.clone(), g.count, g.count_label.clone()))
            .collect();
        assert_eq!(
            summary,
            [
                ("x".into(), "cli".into(), "asked by a subagent".into(), 2, "2 questions".into()),
                ("shop".into(), "Claude Code".into(), "session 01234567".into(), 2, "2 questions".into()),
                ("No agent".into(), "".into(), "".into(), 1, "1 question".into()),
            ]
        );
        assert_eq!(en.asks[1].group, en.asks[4].group, "one session, one group, whichever hook asked");
        assert_eq!(en.asks[1].session_label.as_deref(), Some("session 01234567"));
        assert_eq!((en.waiting.as_str(), en.title.as_str()), ("5 waiting", "User Questions (5)"));

        let zh = ListView::new(list, &Text::for_tag("zh-CN"));
        assert_eq!(zh.groups[0].count_label, "2 个问题");
        assert_eq!(zh.groups[2].name, "无智能体");
        assert_eq!(zh.waiting, "5 个待回答");
        let empty = ListView::new(Vec::new(), &Text::for_tag("en"));
        assert_eq!((empty.title.as_str(), empty.groups.len()), ("User Questions", 0));
    }
}
