//! Desktop notifications for new questions. Bursts are coalesced into one ("5 new
//! questions from 2 agents"); a notification is closed when its question is answered
//! or withdrawn; Do not disturb silences notifications, never questions. Where the
//! notification server supports actions (Linux, through notify-rust), a click opens
//! the window at the question, and a plan review or a single-select question of at
//! most three options gets buttons that answer it from the notification. Elsewhere
//! tauri-plugin-notification shows a plain one.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use tauri::{AppHandle, Manager, Runtime};

use crate::desk::Desk;
use crate::inbox::AskView;

/// Notifications on screen, by ask, and the asks already announced.
#[derive(Default)]
pub struct Notices {
    shown: Mutex<HashMap<String, u32>>,
    known: Mutex<HashSet<String>>,
}

/// Markup some servers interpret in bodies (`<b>`, `&amp;`) is escaped.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn agent_name(view: &AskView) -> String {
    if let Some(source) = view.context.as_ref().and_then(|c| c.source.clone()) {
        return source;
    }
    view.agent.as_ref().map(|a| a.id.clone()).unwrap_or_else(|| "an agent".into())
}

/// The project folder's last part, as a person calls the project.
fn project_name(view: &AskView) -> Option<String> {
    let project = view.context.as_ref()?.project.as_deref()?;
    let name = std::path::Path::new(project).file_name()?.to_string_lossy().into_owned();
    Some(name)
}

/// The buttons of a question that can be answered from its notification.
pub fn quick_answers(view: &AskView) -> Vec<String> {
    let [q] = view.questions.as_slice() else { return Vec::new() };
    if q.multi_select || q.options.is_empty() || (q.options.len() > 3 && !q.plan_review && !q.permission) {
        return Vec::new();
    }
    if q.permission {
        // Allow and Deny: an "always allow" rule is chosen in the window, where it is explained.
        let approve = q.intent.as_ref().map(|i| i.approve.clone()).unwrap_or_default();
        let deny = q.options.last().map(|o| o.label.clone()).filter(|l| *l != approve);
        return std::iter::once(approve).chain(deny).collect();
    }
    if q.plan_review {
        let approve = q.intent.as_ref().map(|i| i.approve.clone()).unwrap_or_default();
        return std::iter::once(approve.clone())
            .chain(q.options.iter().map(|o| o.label.clone()).filter(|l| *l != approve))
            .take(3)
            .collect();
    }
    q.options.iter().map(|o| o.label.clone()).collect()
}

/// Title and body of one notification, or of a coalesced burst.
pub fn text_for(new: &[&AskView]) -> (String, String) {
    match new {
        [one] => {
            let q = &one.questions[0];
            let title = match (&q.header, &one.context) {
                (Some(header), Some(c)) if c.source.is_some() => format!("{}: {header}", agent_name(one)),
                (Some(header), _) => header.clone(),
                (None, _) => format!("Question from {}", agent_name(one)),
            };
            let more =
                if one.questions.len() > 1 { format!(" (+{} more)", one.questions.len() - 1) } else { String::new() };
            let project = project_name(one).map(|p| format!(" ({p})")).unwrap_or_default();
            (title, format!("{}{more}{project}", q.question))
        }
        many => {
            let agents: HashSet<String> = many.iter().map(|v| agent_name(v)).collect();
            let plural = if agents.len() == 1 { "" } else { "s" };
            (
                format!("{} new questions from {} agent{plural}", many.len(), agents.len()),
                "Open User Questions to answer them.".into(),
            )
        }
    }
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
        if new.is_empty() || app.state::<Desk>().do_not_disturb() {
            return;
        }
        let (title, body) = text_for(&new);
        let single = (new.len() == 1).then(|| new[0]);
        let buttons = single.map(quick_answers).unwrap_or_default();
        let focus = single.map(|v| v.ask.clone());
        match platform::show(app, &title, &escape(&body), focus.clone(), buttons) {
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

    use crate::desk::Desk;

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
        buttons: Vec<String>,
    ) -> Option<u32> {
        if !supports_actions() {
            return None;
        }
        let mut n = notify_rust::Notification::new();
        n.appname("User Questions").summary(title).body(body).action("default", "Open");
        for (i, label) in buttons.iter().enumerate() {
            n.action(&format!("answer:{i}"), label);
        }
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
        let desk = app.state::<Desk>();
        let Some(view) = desk.inbox.get(ask) else { return };
        let answer = serde_json::json!({"answers": [{"id": view.questions[0].id, "selected": [label]}]});
        if let Err(e) = desk.inbox.answer(ask, &answer) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::AgentView;
    use crate::inbox::QuestionView;
    use user_questions::model::{Intent, QuestionOption};

    fn view(ask: &str, agent: &str, labels: &[&str], plan: bool) -> AskView {
        AskView {
            ask: ask.into(),
            agent: Some(AgentView { id: agent.into(), client: None, delegation_depth: 0 }),
            context: None,
            since: String::new(),
            questions: vec![QuestionView {
                id: "q".into(),
                question: "Deploy <now>?".into(),
                header: None,
                detail_html: None,
                options: labels.iter().map(|l| QuestionOption { label: l.to_string(), description: None }).collect(),
                multi_select: false,
                intent: plan.then(|| Intent {
                    kind: "plan-review".into(),
                    approve: "Approve".into(),
                    extra: Default::default(),
                }),
                plan_review: plan,
                permission: false,
            }],
            draft: None,
        }
    }

    #[test]
    fn bursts_are_coalesced_and_markup_escaped() {
        let (a, b, c) = (view("a1", "x", &[], false), view("a2", "x", &[], false), view("a3", "y", &[], false));
        assert_eq!(text_for(&[&a, &b, &c]).0, "3 new questions from 2 agents");
        assert_eq!(text_for(&[&a, &b]).0, "2 new questions from 1 agent");
        let (title, body) = text_for(&[&a]);
        assert_eq!((title.as_str(), escape(&body).as_str()), ("Question from x", "Deploy &lt;now&gt;?"));
    }

    #[test]
    fn quick_answers_only_where_they_fit() {
        assert_eq!(quick_answers(&view("a", "x", &["Yes", "No"], false)), ["Yes", "No"]);
        assert!(quick_answers(&view("a", "x", &["1", "2", "3", "4"], false)).is_empty());
        assert_eq!(quick_answers(&view("a", "x", &["Revise", "Approve"], true)), ["Approve", "Revise"]);
        assert!(quick_answers(&view("a", "x", &[], false)).is_empty());
    }

    #[test]
    fn a_permission_prompt_gets_allow_and_deny_and_names_its_agent_and_project() {
        let mut v =
            view("a", "claude-code-s1-7-abc", &["Allow", "Always allow Bash(ls)", "Always allow x", "Deny"], false);
        v.questions[0].permission = true;
        v.questions[0].header = Some("Bash".into());
        v.questions[0].intent =
            Some(Intent { kind: "permission".into(), approve: "Allow".into(), extra: Default::default() });
        v.context = Some(user_questions::model::Context {
            project: Some("/home/me/shop".into()),
            session: Some("s1".into()),
            source: Some("Claude Code".into()),
        });
        assert_eq!(quick_answers(&v), ["Allow", "Deny"]);
        assert_eq!(text_for(&[&v]), ("Claude Code: Bash".to_owned(), "Deploy <now>? (shop)".to_owned()));
    }
}
