//! An MCP server's request for input, as an agent hands it to a hook (Claude Code's
//! `Elicitation` event: `mcp_server_name`, `message`, `mode`, `url`,
//! `requested_schema`): the form asked as questions ([`crate::elicitation`]), the
//! reply written as the event's `hookSpecificOutput` (`action`, `content`). A page
//! to open (URL mode) is opened in the person's browser only when they choose Open;
//! the agent opens none itself. Dismissing is `cancel`; a form whose schema cannot be read is left to the agent's own dialog.

use serde_json::{json, Value};
use user_questions_i18n::Text;

use crate::agents::{HookAsk, HookInput, HookInputError, Next};
use crate::elicitation::{url_question, web_page, Form, Problem};
use crate::model::labels::OPEN;
use crate::model::Answer;

/// The ask of one `Elicitation` hook input.
pub fn ask_from(hook: &HookInput, words: &Text) -> Result<HookAsk, HookInputError> {
    let missing = |field| HookInputError::Missing { event: hook.event.clone(), field };
    let server = hook.text("mcp_server_name").ok_or_else(|| missing("mcp_server_name"))?;
    let message = hook.text("message").unwrap_or_default();
    let mut ask = match hook.text("mode") {
        Some("url") => {
            let url = hook.text("url").ok_or_else(|| missing("url"))?;
            let page = web_page(url);
            HookAsk::new(vec![url_question(server, message, url, words)], move |answer| {
                let chosen = answer.answers.first().is_some_and(|i| i.selected.iter().any(|l| l == OPEN));
                let opened = match page.filter(|_| chosen) {
                    Some(page) => open_page(&page),
                    None => false,
                };
                Some(output(json!({"action": if opened { "accept" } else { "decline" }})))
            })
        }
        _ => {
            let schema =
                hook.fields.get("requested_schema").cloned().unwrap_or(json!({"type": "object", "properties": {}}));
            let form = Form::parse(server, message, &schema)
                .map_err(|e| HookInputError::Invalid { event: hook.event.clone(), why: e.to_string() })?;
            form_ask(form, words.clone(), None)
        }
    };
    ask.dismissed = Some(output(json!({"action": "cancel"})));
    Ok(ask)
}

/// The form's questions; after an answer that did not fit, the same form asked again
/// with its problems, until it fits or the person declines or dismisses it.
fn form_ask(form: Form, words: Text, again: Option<(Answer, Vec<Problem>)>) -> HookAsk {
    let questions = form.questions(&words, again.as_ref().map(|(a, p)| (a, p.as_slice())));
    let mut ask = HookAsk::checked(questions, move |answer| match form.reply(answer, &words) {
        Ok(reply) => Next::Done(Some(output(reply.to_value()))),
        Err(problems) => Next::Again(Box::new(form_ask(form, words, Some((answer.clone(), problems))))),
    });
    ask.dismissed = Some(output(json!({"action": "cancel"})));
    ask
}

/// Opens the page the person chose to open, in their browser; false when none
/// could be started (the server is then told no).
fn open_page(page: &url::Url) -> bool {
    match open::that_detached(page.as_str()) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("userq hook: cannot open {page}: {e}");
            false
        }
    }
}

fn output(mut reply: Value) -> Value {
    reply["hookEventName"] = "Elicitation".into();
    json!({"hookSpecificOutput": reply})
}
