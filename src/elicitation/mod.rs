//! MCP elicitations as questions. An MCP server may ask the person for a few typed
//! values (the MCP specification's "Elicitation": a message and a flat schema of
//! strings, numbers, booleans and enums), and an agent hands that request to a hook
//! (Claude Code's `Elicitation`). Here it becomes one ask: a first question that
//! names the server and carries its message, with Send and Decline, then one question
//! per field (an enum a single choice, an array of enums several, a boolean yes or no,
//! anything else typed text). The answer comes back as the schema's typed values,
//! checked against each field's type, range, length and format; an answer that does
//! not fit is asked again with each problem beside its field and what was typed kept.
//! The schema is read with rmcp's types, field by field, so a wrong one is named.

mod field;

use serde_json::{json, Map, Value};
use user_questions_i18n::Text;

use crate::model::labels::{DECLINE, ELICITATION, OPEN, SEND};
use crate::model::{Answer, AnswerItem, Intent, Question};
use field::Field;
pub use field::Problem;

/// A server's form: who asks, what it says, and the fields it wants.
#[derive(Debug, Clone)]
pub struct Form {
    server: String,
    message: String,
    fields: Vec<Field>,
    /// The id of the first question (Send or Decline), unique among the fields' ids.
    decision: String,
}

/// What the person did with a form, as MCP's `ElicitResult` says it.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Sent, with the values of the schema's types (fields left empty are absent).
    Accept(Map<String, Value>),
    Decline,
}

/// A `requested_schema` that is not the flat schema MCP allows.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SchemaError {
    #[error("requested_schema is not an object with type \"object\" and properties")]
    NotObject,
    #[error("requested_schema.properties.{0} is not a string, number, integer, boolean or enum field: {1}")]
    Field(String, String),
    #[error("requested_schema has a field with an empty name")]
    EmptyName,
    #[error("requested_schema.required names {0}, which is not among its properties")]
    UnknownRequired(String),
}

impl Form {
    /// Reads a server's `requested_schema`, naming the first field that is wrong.
    pub fn parse(server: &str, message: &str, schema: &Value) -> Result<Self, SchemaError> {
        let properties = schema
            .as_object()
            .filter(|s| s.get("type").and_then(Value::as_str) == Some("object"))
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .ok_or(SchemaError::NotObject)?;
        let required: Vec<&str> =
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        if let Some(unknown) = required.iter().find(|r| !properties.contains_key(**r)) {
            return Err(SchemaError::UnknownRequired((*unknown).to_owned()));
        }
        let fields = properties
            .iter()
            .map(|(name, schema)| {
                if name.is_empty() {
                    return Err(SchemaError::EmptyName);
                }
                Field::parse(name, schema, required.contains(&name.as_str()))
                    .map_err(|why| SchemaError::Field(name.clone(), why))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut decision = "elicitation".to_owned();
        while fields.iter().any(|f| f.name == decision) {
            decision.push('_');
        }
        Ok(Self { server: server.to_owned(), message: message.to_owned(), fields, decision })
    }

    /// The ask: Send or Decline first, then the fields, each with its rules. After an
    /// answer that did not fit, `again` holds that answer (its values are kept) and
    /// the problems found in it (each shown at its field).
    pub fn questions(&self, words: &Text, again: Option<(&Answer, &[Problem])>) -> Vec<Question> {
        let mut first = Question::new(&self.decision, self.message.clone())
            .option(SEND, Some(&words.tr_args("elicit-send", &[("server", (&self.server).into())])))
            .option(DECLINE, Some(&words.tr_args("elicit-decline", &[("server", (&self.server).into())])));
        first.header = Some(self.server.clone());
        first.detail = Some(words.tr_args("elicit-from", &[("server", (&self.server).into())]));
        let defaults: Map<String, Value> = self
            .fields
            .iter()
            .filter_map(|f| {
                let kept = again.and_then(|(answer, _)| item(answer, &f.name)).map(kept_draft);
                kept.or_else(|| f.default_draft(words)).map(|draft| (f.name.clone(), draft))
            })
            .collect();
        let mut extra = Map::new();
        extra.insert("server".into(), self.server.clone().into());
        extra.insert("defaults".into(), Value::Object(defaults));
        first.intent = Some(Intent { kind: ELICITATION.into(), approve: SEND.into(), extra });
        let problems = again.map(|(_, p)| p).unwrap_or_default();
        let mut questions = vec![first];
        questions.extend(self.fields.iter().map(|f| {
            let problem = problems.iter().find(|p| p.field == f.name);
            f.question(words, problem)
        }));
        questions
    }

    /// The person's answer as MCP's reply: Decline, or the typed values. `Err` lists
    /// each field whose answer does not fit (ask again with [`Form::questions`]).
    pub fn reply(&self, answer: &Answer, words: &Text) -> Result<Reply, Vec<Problem>> {
        let declined = item(answer, &self.decision).is_some_and(|i| i.selected.iter().any(|l| l == DECLINE));
        if declined {
            return Ok(Reply::Decline);
        }
        let mut content = Map::new();
        let mut problems = Vec::new();
        for f in &self.fields {
            let empty = AnswerItem::skipped(&f.name);
            match f.value(item(answer, &f.name).unwrap_or(&empty), words) {
                Ok(Some(value)) => {
                    content.insert(f.name.clone(), value);
                }
                Ok(None) => {}
                Err(problem) => problems.push(problem),
            }
        }
        if problems.is_empty() {
            Ok(Reply::Accept(content))
        } else {
            Err(problems)
        }
    }
}

impl Reply {
    /// MCP's `{action, content?}`.
    pub fn to_value(&self) -> Value {
        match self {
            Reply::Accept(content) => json!({"action": "accept", "content": content}),
            Reply::Decline => json!({"action": "decline"}),
        }
    }
}

fn item<'a>(answer: &'a Answer, id: &str) -> Option<&'a AnswerItem> {
    answer.answers.iter().find(|i| i.id == id)
}

/// What the person gave for a field, as the window's draft of it, so an answer asked
/// again shows what was typed.
fn kept_draft(item: &AnswerItem) -> Value {
    json!({"selected": item.selected, "custom": item.custom.clone().unwrap_or_default(), "skip": false})
}

/// A server's request to open a page (MCP's URL mode): the page is named, with its
/// host apart, and never opened by itself. Only a web page (http or https) can be
/// opened; anything else can only be declined.
pub fn url_question(server: &str, message: &str, url: &str, words: &Text) -> Question {
    let host = web_page(url).and_then(|u| u.host_str().map(str::to_owned));
    let mut q = Question::new("elicitation", words.tr_args("elicit-url-question", &[("server", server.into())]));
    if host.is_some() {
        q = q.option(OPEN, Some(&words.tr("elicit-url-open")));
    }
    q = q.option(DECLINE, Some(&words.tr_args("elicit-decline", &[("server", server.into())])));
    let host = host.unwrap_or_else(|| words.tr("elicit-no-host"));
    q.header = Some(server.to_owned());
    q.detail = Some(format!(
        "{message}\n\n{}\n\n```text\n{}\n```",
        words.tr_args("elicit-url-host", &[("host", (&host).into())]),
        url.replace('`', "%60")
    ));
    let mut extra = Map::new();
    extra.insert("server".into(), server.into());
    extra.insert("url".into(), url.into());
    q.intent = Some(Intent { kind: ELICITATION.into(), approve: OPEN.into(), extra });
    q
}

/// `url` when it is a web page a browser may be given.
pub fn web_page(url: &str) -> Option<url::Url> {
    url::Url::parse(url).ok().filter(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
}

#[cfg(test)]
mod tests;
