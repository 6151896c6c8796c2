//! A question as the room sees it: one message with the header, who asks (agent,
//! project, machine), each question and its detail (a plan as sanitized HTML, a diff
//! as a code block), and one disclosed poll per question that has options, so the room
//! sees who voted what. Every text in it is the agent's, so the HTML is built from
//! escaped text and markdown that passes ammonia's allow-list of what Matrix clients
//! show (no scripts, no styles, no images that would load from elsewhere).

use matrix_sdk::ruma::events::poll::start::PollKind;
use matrix_sdk::ruma::events::poll::unstable_start::{
    NewUnstablePollStartEventContent, UnstablePollAnswer, UnstablePollAnswers, UnstablePollStartContentBlock,
};
use matrix_sdk::ruma::events::room::message::RoomMessageEventContent;
use matrix_sdk::ruma::UInt;

use crate::model::{Question, Request};

/// A poll holds at most this many options (MSC3381); more are named in the message.
pub const MOST_OPTIONS: usize = 20;

/// The id of a question's `n`th option in its poll.
pub fn option_id(n: usize) -> String {
    format!("o{}", n + 1)
}

/// The option an answer id stands for in `question`.
pub fn option_of<'q>(question: &'q Question, id: &str) -> Option<&'q str> {
    let n: usize = id.strip_prefix('o')?.parse().ok()?;
    question.options.get(n.checked_sub(1)?).map(|o| o.label.as_str())
}

/// The message that carries the request.
pub fn message(request: &Request, here: &str) -> RoomMessageEventContent {
    let (mut plain, mut html) = (String::new(), String::new());
    let who = asker(request, here);
    plain.push_str(&who);
    html.push_str(&format!("<p><em>{}</em></p>", escape(&who)));
    for q in &request.questions {
        let header = q.header.as_deref().map(|h| format!("{h}: ")).unwrap_or_default();
        plain.push_str(&format!("\n\n{header}{}", q.question));
        html.push_str(&format!("<p><strong>{}</strong>{}</p>", escape(&header), escape(&q.question)));
        if let Some(detail) = q.detail.as_deref() {
            plain.push_str(&format!("\n\n{detail}"));
            html.push_str(&markdown(detail));
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

/// "claude-code asks, in ~/src/shop, on beta".
fn asker(request: &Request, here: &str) -> String {
    let agent = request.agent.as_ref().and_then(|a| a.client.clone().or_else(|| Some(a.id.clone())));
    let context = request.context.as_ref();
    let mut who = format!("{} asks", agent.as_deref().unwrap_or("An agent"));
    if let Some(project) = context.and_then(|c| c.project.as_deref()) {
        who.push_str(&format!(", in {project}"));
    }
    who.push_str(&format!(", on {}", context.and_then(|c| c.machine.as_deref()).unwrap_or(here)));
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
    use crate::model::{AgentInfo, Context};

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
        assert!(html.starts_with("<p><em>claude-code asks, in ~/src/shop, on alpha</em></p>"), "{html}");
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
