//! What an agent asks. Requests arrive as untrusted JSON, so parsing walks the value
//! by hand and names the exact field that is wrong (`questions[1].options[0].label`),
//! drops unknown fields, treats `null` as absent, and keeps an intent verbatim.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::HashSet;

use super::{Context, Pick, UserQuestionError};

/// One selectable answer of a question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct QuestionOption {
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub description: Option<String>,
}

/// A presentation intent: how a UI may show the question, never how it is answered.
/// Unknown kinds and unknown fields pass through verbatim.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Intent {
    pub kind: String,
    pub approve: String,
    #[serde(flatten)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub extra: Map<String, Value>,
}

impl Intent {
    pub const PLAN_REVIEW: &'static str = super::labels::PLAN_REVIEW;
    pub const PERMISSION: &'static str = super::labels::PERMISSION;
}

/// One question of a batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Question {
    pub id: String,
    pub question: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<QuestionOption>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub multi_select: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intent: Option<Intent>,
    /// Files or folders to pick, under a root (docs/protocol.md, "A file pick").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pick: Option<Pick>,
}

impl Question {
    /// A free-text or option question with only the required fields.
    pub fn new(id: impl Into<String>, question: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            question: question.into(),
            detail: None,
            header: None,
            options: Vec::new(),
            multi_select: false,
            intent: None,
            pick: None,
        }
    }
    pub fn option(mut self, label: impl Into<String>, description: Option<&str>) -> Self {
        self.options.push(QuestionOption { label: label.into(), description: description.map(str::to_owned) });
        self
    }
    pub fn has_option(&self, label: &str) -> bool {
        self.options.iter().any(|o| o.label == label)
    }
}

/// The proof of identity an agent presents: its id and its live runtime token.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AgentRef {
    pub id: String,
    pub runtime: String,
}

/// What answerers learn of the asking agent: never its runtime token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentInfo {
    pub id: String,
    pub delegation_depth: u32,
    /// The `client.name` of the connection that entered the agent, absent when it
    /// gave none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
}

/// `ask(request)`: a batch of questions and, optionally, the asking agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskRequest {
    pub questions: Vec<Question>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Context>,
}

/// The request as answerers and observers see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub questions: Vec<Question>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Context>,
}

impl Request {
    /// The request as JSON text, as an offer carries it and the history keeps it.
    pub fn to_json(&self) -> Box<serde_json::value::RawValue> {
        serde_json::value::to_raw_value(self).expect("a request is plain data and always serializes")
    }

    /// The pick of question `at`, when its root is on this machine: a pick asked from
    /// another (`context.machine`, an SSH forward) names that machine's disk, and every
    /// door answers it as typed text.
    pub fn pick_here(&self, at: usize) -> Option<&super::Pick> {
        let here = self.context.as_ref().is_none_or(|c| c.machine.is_none());
        self.questions.get(at)?.pick.as_ref().filter(|_| here)
    }
}

impl AskRequest {
    pub fn new(questions: Vec<Question>) -> Self {
        Self { questions, agent: None, context: None }
    }
    pub fn from_agent(mut self, agent: AgentRef) -> Self {
        self.agent = Some(agent);
        self
    }
    pub fn with_context(mut self, context: Context) -> Self {
        self.context = Some(context);
        self
    }

    /// Parses `{"questions": [...], "agent"?: {...}, "context"?: {...}}`, naming the
    /// first wrong field.
    pub fn from_value(params: &Value) -> Result<Self, UserQuestionError> {
        let obj = object(params, "params")?;
        let questions = match present(obj, "questions") {
            None => return Err(UserQuestionError::bad_request("questions is missing")),
            Some(v) => array(v, "questions")?
                .iter()
                .enumerate()
                .map(|(i, q)| Question::from_value(q, &format!("questions[{i}]")))
                .collect::<Result<Vec<_>, _>>()?,
        };
        let agent = present(obj, "agent").map(|v| AgentRef::from_value(v, "agent")).transpose()?;
        let context = present(obj, "context").map(|v| Context::from_value(v, "context")).transpose()?;
        let request = Self { questions, agent, context };
        request.check_shape()?;
        Ok(request)
    }

    /// The rules no type carries: non-empty unique ids, unique labels in a question, a
    /// pick's root that is a folder.
    pub fn check_shape(&self) -> Result<(), UserQuestionError> {
        let mut ids = HashSet::new();
        for (i, q) in self.questions.iter().enumerate() {
            if q.id.is_empty() {
                return Err(UserQuestionError::bad_request(format!("questions[{i}].id is empty")));
            }
            if !ids.insert(q.id.as_str()) {
                return Err(UserQuestionError::bad_request(format!(
                    "questions[{i}].id {:?} is used by an earlier question",
                    q.id
                )));
            }
            // The root of a pick from this machine must be a folder here; another
            // machine's (an SSH forward's, a relay's) is shown as a text question.
            if let Some(pick) = &q.pick {
                if !q.options.is_empty() {
                    return Err(UserQuestionError::bad_request(format!(
                        "questions[{i}].pick asks for paths, and cannot have options"
                    )));
                }
                let here = self.context.as_ref().is_none_or(|c| c.machine.is_none());
                pick.check(&format!("questions[{i}].pick"), here)?;
            }
            let mut labels = HashSet::new();
            for (j, o) in q.options.iter().enumerate() {
                if !labels.insert(o.label.as_str()) {
                    return Err(UserQuestionError::bad_request(format!(
                        "questions[{i}].options[{j}].label {:?} is used by an earlier option",
                        o.label
                    )));
                }
            }
        }
        Ok(())
    }
}

impl Question {
    pub(crate) fn from_value(v: &Value, at: &str) -> Result<Self, UserQuestionError> {
        let obj = object(v, at)?;
        let field = |name: &str| format!("{at}.{name}");
        let options = match present(obj, "options") {
            None => Vec::new(),
            Some(v) => array(v, &field("options"))?
                .iter()
                .enumerate()
                .map(|(j, o)| {
                    let at = format!("{at}.options[{j}]");
                    let obj = object(o, &at)?;
                    Ok(QuestionOption {
                        label: required_string(obj, "label", &at)?,
                        description: optional_string(obj, "description", &at)?,
                    })
                })
                .collect::<Result<_, UserQuestionError>>()?,
        };
        let multi_select = match present(obj, "multiSelect") {
            None => false,
            Some(v) => v.as_bool().ok_or_else(|| wrong_type(&field("multiSelect"), "a boolean"))?,
        };
        let intent = present(obj, "intent").map(|v| Intent::from_value(v, &field("intent"))).transpose()?;
        let pick = present(obj, "pick").map(|v| Pick::from_value(v, &field("pick"))).transpose()?;
        Ok(Self {
            id: required_string(obj, "id", at)?,
            question: required_string(obj, "question", at)?,
            detail: optional_string(obj, "detail", at)?,
            header: optional_string(obj, "header", at)?,
            options,
            multi_select,
            intent,
            pick,
        })
    }
}

impl Intent {
    fn from_value(v: &Value, at: &str) -> Result<Self, UserQuestionError> {
        let obj = object(v, at)?;
        let kind = required_string(obj, "kind", at)?;
        let approve = required_string(obj, "approve", at)?;
        let extra =
            obj.iter().filter(|(k, _)| *k != "kind" && *k != "approve").map(|(k, v)| (k.clone(), v.clone())).collect();
        Ok(Self { kind, approve, extra })
    }
}

impl AgentRef {
    pub(crate) fn from_value(v: &Value, at: &str) -> Result<Self, UserQuestionError> {
        let obj = object(v, at)?;
        Ok(Self { id: required_string(obj, "id", at)?, runtime: required_string(obj, "runtime", at)? })
    }
}

fn present<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

fn wrong_type(at: &str, expected: &str) -> UserQuestionError {
    UserQuestionError::bad_request(format!("{at} must be {expected}"))
}

pub(crate) fn object<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>, UserQuestionError> {
    v.as_object().ok_or_else(|| wrong_type(at, "an object"))
}

fn array<'a>(v: &'a Value, at: &str) -> Result<&'a Vec<Value>, UserQuestionError> {
    v.as_array().ok_or_else(|| wrong_type(at, "an array"))
}

pub(crate) fn required_string(obj: &Map<String, Value>, key: &str, at: &str) -> Result<String, UserQuestionError> {
    match present(obj, key) {
        None => Err(UserQuestionError::bad_request(format!("{at}.{key} is missing"))),
        Some(v) => v.as_str().map(str::to_owned).ok_or_else(|| wrong_type(&format!("{at}.{key}"), "a string")),
    }
}

pub(crate) fn optional_string(
    obj: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<String>, UserQuestionError> {
    present(obj, key)
        .map(|v| v.as_str().map(str::to_owned).ok_or_else(|| wrong_type(&format!("{at}.{key}"), "a string")))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: Value) -> Result<AskRequest, String> {
        AskRequest::from_value(&v).map_err(|e| e.message().to_owned())
    }

    #[test]
    fn serialises_in_the_reference_shape() {
        let mut q = Question::new("pkg", "Which package manager?").option("pnpm", Some("fast"));
        q.multi_select = true;
        q.intent = Some(Intent { kind: "plan-review".into(), approve: "pnpm".into(), extra: Map::new() });
        assert_eq!(
            serde_json::to_value(&q).unwrap(),
            json!({"id":"pkg","question":"Which package manager?",
                   "options":[{"label":"pnpm","description":"fast"}],"multiSelect":true,
                   "intent":{"kind":"plan-review","approve":"pnpm"}})
        );
    }

    #[test]
    fn names_the_wrong_field() {
        assert_eq!(parse(json!({})).unwrap_err(), "questions is missing");
        assert_eq!(parse(json!({"questions": 3})).unwrap_err(), "questions must be an array");
        assert_eq!(parse(json!({"questions": [{"question": "q"}]})).unwrap_err(), "questions[0].id is missing");
        assert_eq!(parse(json!({"questions": [{"id": "", "question": "q"}]})).unwrap_err(), "questions[0].id is empty");
        assert_eq!(parse(json!({"questions": [{"id": "a"}]})).unwrap_err(), "questions[0].question is missing");
        assert_eq!(
            parse(json!({"questions": [{"id": "a", "question": "q", "options": [{"label": 1}]}]})).unwrap_err(),
            "questions[0].options[0].label must be a string"
        );
        assert_eq!(
            parse(json!({"questions": [{"id": "a", "question": "q", "multiSelect": "yes"}]})).unwrap_err(),
            "questions[0].multiSelect must be a boolean"
        );
        assert_eq!(
            parse(json!({"questions": [{"id": "a", "question": "q"}, {"id": "a", "question": "r"}]})).unwrap_err(),
            "questions[1].id \"a\" is used by an earlier question"
        );
        assert_eq!(
            parse(json!({"questions": [{"id": "a", "question": "q", "options": [{"label": "x"}, {"label": "x"}]}]}))
                .unwrap_err(),
            "questions[0].options[1].label \"x\" is used by an earlier option"
        );
        assert_eq!(parse(json!({"questions": [], "agent": {"id": "x"}})).unwrap_err(), "agent.runtime is missing");
        assert_eq!(parse(json!({"questions": [], "context": "here"})).unwrap_err(), "context must be an object");
        assert_eq!(
            parse(json!({"questions": [], "context": {"project": 7}})).unwrap_err(),
            "context.project must be a string"
        );
    }

    #[test]
    fn null_is_absent_and_unknown_fields_are_dropped() {
        let r = parse(json!({"questions": [{"id": "a", "question": "q", "detail": null, "colour": "red",
                                           "options": null, "multiSelect": null}], "agent": null, "x": 1}))
        .unwrap();
        assert_eq!(serde_json::to_value(&r).unwrap(), json!({"questions": [{"id": "a", "question": "q"}]}));
    }

    #[test]
    fn context_keeps_its_known_fields() {
        let r = parse(json!({"questions": [], "context": {"project": "/p", "source": "Codex", "colour": 1,
                                                          "session": null}}))
        .unwrap();
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            json!({"questions": [], "context": {"project": "/p", "source": "Codex"}})
        );
    }

    #[test]
    fn unknown_intent_passes_verbatim() {
        let intent = json!({"kind": "diff-review", "approve": "Apply", "files": ["a.rs"], "nested": {"x": null}});
        let r = parse(json!({"questions": [{"id": "a", "question": "q", "detail": "d",
                                           "options": [{"label": "Apply"}], "intent": intent.clone()}]}))
        .unwrap();
        assert_eq!(serde_json::to_value(&r.questions[0].intent).unwrap(), intent);
    }
}
