//! A question as the room sees it: one message with the header, who asks (agent,
//! project, machine), each question and its detail (a plan as sanitized HTML, a diff
//! as a code block), and one disclosed poll per question that has options, so the room
//! sees who voted what. A detail too long to read in a message (a long diff) comes
//! whole as a file in the message's thread ([`files`]); the message keeps its start. Every text in it is the agent's, so the HTML is built from
//! escaped text and markdown that passes ammonia's allow-list of what Matrix clients
//! show (no scripts, no styles, no images that would load from elsewhere).

use matrix_sdk::ruma::events::poll::start::PollKind;
use matrix_sdk::ruma::events::poll::unstable_start::{
    NewUnstablePollStartEventContent, UnstablePollAnswer, UnstablePollAnswers, UnstablePollStartContentBlock,
};
use matrix_sdk::ruma::events::room::message::RoomMessageEventContent;
use matrix_sdk::ruma::UInt;

use crate::glance;
use crate::model::{Context, Kind, Pick, Question, Request};
use user_questions_i18n::Text;

/// A poll holds at most this many options (MSC3381); more are named in the message.
pub const MOST_OPTIONS: usize = 20;

/// A detail longer than this comes whole as a file.
pub const LONG_DETAIL: usize = 12 * 1024;
/// How much of a long detail the message keeps.
const KEPT: usize = 2 * 1024;

/// A detail sent whole as a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    pub name: String,
    pub text: String,
}

/// The files of `request`: each detail too long for a message, named by its question
/// (`plan.md`, `changes.diff`).
pub fn files(request: &Request) -> Vec<File> {
    request
        .questions
        .iter()
        .filter_map(|q| {
            let detail = q.detail.as_deref().filter(|d| d.len() > LONG_DETAIL)?;
            let diff = Kind::of(q) == Kind::CodeReview || detail.contains("diff --git");
            Some(File { name: format!("{}.{}", q.id, if diff { "diff" } else { "md" }), text: detail.to_owned() })
        })
        .collect()
}

/// The start of a long detail: whole lines, about [`KEPT`] bytes.
fn start_of(detail: &str) -> &str {
    let mut end = 0;
    for line in detail.split_inclusive('\n') {
        if end + line.len() > KEPT {
            break;
        }
        end += line.len();
    }
    &detail[..end]
}

/// The id of a question's `n`th option in its poll.
pub fn option_id(n: usize) -> String {
    format!("o{}", n + 1)
}

/// The option an answer id stands for in `question`.
pub fn option_of<'q>(question: &'q Question, id: &str) -> Option<&'q str> {
    let n: usize = id.strip_prefix('o')?.parse().ok()?;
    question.options.get(n.checked_sub(1)?).map(|o| o.label.as_str())
}

/// How the room is shown a question of a kind. Every kind is named here, none by a
/// wildcard: a new kind does not compile until the phone says how it is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A poll of its options (worded by the kind), and the thread for a reason or
    /// another answer; with no options, the thread alone.
    Poll,
    /// A path, or a few letters of one, replied in the thread (`super::pick`).
    Paths,
}

pub fn form(kind: Kind) -> Form {
    match kind {
        Kind::Generic | Kind::Permission | Kind::PlanReview | Kind::CodeReview | Kind::Elicitation => Form::Poll,
        Kind::FilePick => Form::Paths,
    }
}

/// The pick of the `at`th question when the room picks its paths here: a file pick
/// whose root is on this machine. Any other is answered as its form says.
pub fn paths_here(request: &Request, at: usize) -> Option<&Pick> {
    let q = request.questions.get(at)?;
    match form(Kind::of(q)) {
        Form::Paths => request.pick_here(at),
        Form::Poll => None,
    }
}

/// The message that carries the request.
pub fn message(request: &Request, here: &str) -> RoomMessageEventContent {
    let (mut plain, mut html) = (String::new(), String::new());
    let who = asker(request, here);
    plain.push_str(&who);
    html.push_str(&format!("<p><em>{}</em></p>", escape(&who)));
    // What the agent says of it, labelled as its own words.
    let context = request.context.clone().unwrap_or_default();
    for said in glance::says(&context, glance::LAST_MESSAGE, &Text::for_tag("en")) {
        plain.push_str(&format!("\n{said}"));
        html.push_str(&format!("<blockquote>{}</blockquote>", escape(&said)));
    }
    for (at, q) in request.questions.iter().enumerate() {
        let header = q.header.as_deref().map(|h| format!("{h}: ")).unwrap_or_default();
        plain.push_str(&format!("\n\n{header}{}", q.question));
        html.push_str(&format!("<p><strong>{}</strong>{}</p>", escape(&header), escape(&q.question)));
        if let Some(detail) = q.detail.as_deref() {
            let long = detail.len() > LONG_DETAIL;
            let shown = if long { start_of(detail) } else { detail };
            plain.push_str(&format!("\n\n{shown}"));
            html.push_str(&markdown(shown));
            if long {
                let line = format!(
                    "… {} lines in all: the whole of it is in the file in this message's thread.",
                    detail.lines().count()
                );
                plain.push_str(&format!("\n{line}"));
                html.push_str(&format!("<p><em>{}</em></p>", escape(&line)));
            }
        }
        if let Some(pick) = paths_here(request, at) {
            let line = pick_how(pick);
            html.push_str(&format!("<p>{}</p>", escape(&line)));
            plain.push_str(&format!("\n{line}"));
        }
        if q.options.len() > MOST_OPTIONS {
            let rest: Vec<&str> = q.options[MOST_OPTIONS..].iter().map(|o| o.label.as_str()).collect();
            let line = format!("More options (answer in the thread): {}", rest.join(", "));
            html.push_str(&format!("<p>{}</p>", escape(&line)));
            plain.push_str(&format!("\n{line}"));
        }
    }
    plain.push_str("\n\nVote in the poll; write a reason or another answer in this message's thread.");
    html.push_str("<p><small>Vote in the poll; write a reason or another answer in this message's thread.</small></p>");
    RoomMessageEventContent::text_html(plain, html)
}

/// "claude-code asks, in shop · on main · in crates/api · session 01234567, on beta".
fn asker(request: &Request, here: &str) -> String {
    let agent = request.agent.as_ref().and_then(|a| a.client.clone().or_else(|| Some(a.id.clone())));
    let context = request.context.clone().unwrap_or_default();
    let mut who = format!("{} asks", agent.as_deref().map_or_else(|| "An agent".into(), glance::inert));
    let place = glance::place(&Context { machine: None, ..context.clone() }, &Text::for_tag("en"));
    if !place.is_empty() {
        who.push_str(&format!(", in {}", place.join(" · ")));
    }
    who.push_str(&format!(", on {}", glance::inert(context.machine.as_deref().unwrap_or(here))));
    who
}

/// The poll of `question`, when it has options: disclosed, single or multi select.
pub fn poll(question: &Question) -> Option<NewUnstablePollStartEventContent> {
    let answers: Vec<UnstablePollAnswer> = question
        .options
        .iter()
        .take(MOST_OPTIONS)
        .enumerate()
        .map(|(n, o)| UnstablePollAnswer::new(option_id(n), o.label.clone()))
        .collect();
    let answers = UnstablePollAnswers::try_from(answers).ok()?;
    let mut block = UnstablePollStartContentBlock::new(question.question.clone(), answers);
    block.kind = PollKind::Disclosed;
    let most = if question.multi_select { question.options.len().min(MOST_OPTIONS) } else { 1 };
    block.max_selections = UInt::new(most as u64).expect("at most twenty");
    let listed: Vec<String> = question
        .options
        .iter()
        .take(MOST_OPTIONS)
        .enumerate()
        .map(|(n, o)| format!("{}. {}", n + 1, o.label))
        .collect();
    Some(NewUnstablePollStartEventContent::plain_text(format!("{}\n{}", question.question, listed.join("\n")), block))
}

/// How the question's message says to pick on the phone (`super::pick`).
fn pick_how(pick: &Pick) -> String {
    format!(
        "Reply in this message's thread with a path under {}, or a few letters of one: the best matches come back \
         as a poll.",
        pick.root
    )
}

/// Text as HTML text: what it says, never markup.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    pulldown_cmark::html::push_html(&mut out, std::iter::once(pulldown_cmark::Event::Text(text.into())));
    out
}

/// Markdown as the HTML Matrix clients show, sanitized.
pub fn markdown(text: &str) -> String {
    use pulldown_cmark::{html, Options, Parser};
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH));
    ammonia::Builder::empty()
        .add_tags([
            "p",
            "br",
            "strong",
            "em",
            "b",
            "i",
            "del",
            "code",
            "pre",
            "blockquote",
            "ul",
            "ol",
            "li",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "hr",
            "table",
            "thead",
            "tbody",
            "tr",
            "th",
            "td",
            "a",
        ])
        .add_tag_attributes("a", ["href"])
        .add_tag_attributes("code", ["class"])
        .url_schemes(["https", "http", "mailto"].into())
        .link_rel(Some("noopener noreferrer"))
        .clean(&out)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AgentInfo;

    fn plan() -> Request {
        let mut q = Question::new("plan", "Approve this plan?").option("Approve", None).option("Revise", None);
        q.header = Some("Plan review".into());
        q.detail = Some("# Ship it\n\n<script>alert(1)</script><img src=x onerror=y>\n\n```diff\n-a\n+b\n```".into());
        Request {
            questions: vec![q],
            agent: Some(AgentInfo { id: "a1".into(), delegation_depth: 0, client: Some("claude-code".into()) }),
            context: Some(Context { project: Some("~/src/shop".into()), ..Default::default() }),
        }
    }

    #[test]
    fn the_message_says_who_asks_and_keeps_no_markup_of_the_agents() {
        let message = message(&plan(), "alpha");
        let json = serde_json::to_value(&message).unwrap();
        let html = json["formatted_body"].as_str().unwrap();
        assert!(html.starts_with("<p><em>claude-code asks, in shop, on alpha</em></p>"), "{html}");
        assert!(
            html.contains("<h1>Ship it</h1>") && html.contains("<code class=\"language-diff\">-a\n+b\n</code>"),
            "{html}"
        );
        assert!(!html.contains("<script") && !html.contains("<img") && !html.contains("onerror"), "{html}");
        let text = escape("<b>&\"x\"</b>");
        assert_eq!(text, "&lt;b&gt;&amp;\"x\"&lt;/b&gt;", "body text: quotes need no escaping");
        assert!(json["body"].as_str().unwrap().contains("Plan review: Approve this plan?"));
    }

    #[test]
    fn the_message_carries_the_place_and_the_agents_words_inert() {
        let mut request = plan();
        request.context = Some(Context {
            project: Some("/home/me/shop/web".into()),
            root: Some("/home/me/shop".into()),
            branch: Some("main".into()),
            description: Some("<a href=x>Deploy</a>\u{202E}".into()),
            last_message: Some("I will ship it.".into()),
            ..Default::default()
        });
        let json = serde_json::to_value(message(&request, "alpha")).unwrap();
        let body = json["body"].as_str().unwrap();
        assert!(body.starts_with("claude-code asks, in shop · on main · in web, on alpha\n"), "{body}");
        assert!(
            body.contains("\nThe agent says: <a href=x>Deploy</a>[U+202E]\nIts last message: I will ship it."),
            "{body}"
        );
        let html = json["formatted_body"].as_str().unwrap();
        assert!(
            html.contains("<blockquote>The agent says: &lt;a href=x&gt;Deploy&lt;/a&gt;[U+202E]</blockquote>"),
            "{html}"
        );
    }

    #[test]
    fn a_long_diff_comes_whole_as_a_file_and_the_message_keeps_its_start() {
        let diff: String = (0..2000).map(|n| format!("+line {n}\n")).collect();
        let mut request = plan();
        request.questions[0].detail = Some(format!("diff --git a/x b/x\n{diff}"));
        let sent = files(&request);
        let whole = request.questions[0].detail.as_ref().unwrap();
        assert_eq!(sent, vec![File { name: "plan.diff".into(), text: whole.clone() }]);
        let json = serde_json::to_value(message(&request, "alpha")).unwrap();
        let body = json["body"].as_str().unwrap();
        assert!(body.contains("+line 10\n") && !body.contains("+line 1999"), "the start only");
        assert!(body.contains("2001 lines in all: the whole of it is in the file"), "{body}");
        assert!(files(&plan()).is_empty(), "a short detail stays in the message");
    }

    #[test]
    fn a_poll_is_disclosed_and_its_ids_name_the_options() {
        let request = plan();
        let q = &request.questions[0];
        let json = serde_json::to_value(poll(q).unwrap()).unwrap();
        let start = &json["org.matrix.msc3381.poll.start"];
        assert_eq!(start["kind"], "org.matrix.msc3381.poll.disclosed");
        assert_eq!(start["max_selections"], 1);
        assert_eq!(start["answers"][1]["id"], "o2");
        assert_eq!(option_of(q, "o2"), Some("Revise"));
        assert_eq!((option_of(q, "o3"), option_of(q, "o0"), option_of(q, "x")), (None, None, None));
        assert!(poll(&Question::new("free", "Why?")).is_none(), "no options, no poll: the thread answers it");
    }
}
