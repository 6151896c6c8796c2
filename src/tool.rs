//! The model-facing tool `ask_user_question`, shaped as the reference's tool package
//! shapes it: snake_case input (`multi_select`), a compact JSON answer on success and
//! `Error: <message>` on failure. The MCP server and any other model bridge use this,
//! so a model reads the same texts whichever door it came through.

use serde_json::{json, Map, Value};

use crate::model::labels::{APPROVE, PLAN_HEADER, PLAN_QUESTION, REVISE};
use crate::model::{Answer, AskRequest, Question, UserQuestionError};

pub const NAME: &str = "ask_user_question";

pub const DESCRIPTION: &str = "Ask the user one or more questions and wait for the answer. \
Use it when you must pause for a human decision: a choice between options, a permission, \
or missing information. Each question may offer options (single or multi-select); the user \
may also type a custom answer or skip a question (selected: []). To have the user choose \
files or folders, give a question `pick` instead of options: the paths picked come back in \
selected, relative to its root.";

/// The JSON schema of the tool's input.
pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "questions": {
                "type": "array",
                "minItems": 1,
                "description": "The questions to ask, shown together.",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": "Stable id of the question; the answer refers to it."},
                        "question": {"type": "string", "description": "The question, one sentence."},
                        "header": {"type": "string", "description": "A short title (a few words)."},
                        "detail": {"type": "string", "description": "Supporting text (markdown) shown with the question."},
                        "options": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "label": {"type": "string"},
                                    "description": {"type": "string"}
                                },
                                "required": ["label"],
                                "additionalProperties": false
                            }
                        },
                        "multi_select": {"type": "boolean", "description": "Allow several options (or paths)."},
                        "pick": {
                            "type": "object",
                            "description": "Let the user pick files or folders under root instead of options.",
                            "properties": {
                                "of": {"type": "string", "enum": ["files", "folders"]},
                                "root": {"type": "string", "description": "An absolute folder the paths are under."},
                                "globs": {
                                    "type": "array",
                                    "items": {"type": "string"},
                                    "description": "Offer only paths fitting one of these (`*.toml` by name; with a `/`, the whole path)."
                                }
                            },
                            "required": ["of", "root"],
                            "additionalProperties": false
                        }
                    },
                    "required": ["id", "question"]
                }
            }
        },
        "required": ["questions"]
    })
}

/// Turns the tool's input into a request (no agent: the caller adds its own).
pub fn request_from_input(input: &Value) -> Result<AskRequest, UserQuestionError> {
    let renamed = match input.get("questions").and_then(Value::as_array) {
        Some(questions) => {
            let questions: Vec<Value> = questions.iter().map(rename_multi_select).collect();
            json!({ "questions": questions })
        }
        None => input.clone(),
    };
    let mut request = AskRequest::from_value(&renamed)?;
    request.agent = None;
    Ok(request)
}

fn rename_multi_select(q: &Value) -> Value {
    let Some(obj) = q.as_object() else { return q.clone() };
    let mut out: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "multiSelect" | "intent"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if let Some(m) = out.remove("multi_select") {
        out.insert("multiSelect".into(), m);
    }
    Value::Object(out)
}

/// A plan under review as the `review_plan` tool and `userq ask --plan` ask it.
pub fn plan_review(plan: &str) -> Question {
    let mut q = Question::new("plan", PLAN_QUESTION)
        .option(APPROVE, Some("Go ahead with the plan as written"))
        .option(REVISE, Some("Change the plan first (say how in the feedback)"));
    q.header = Some(PLAN_HEADER.into());
    q.detail = Some(plan.to_owned());
    q.intent = Some(crate::model::Intent {
        kind: crate::model::Intent::PLAN_REVIEW.into(),
        approve: APPROVE.into(),
        extra: Map::new(),
    });
    q
}

/// What the model reads: the compact answer, or `Error: <message>`.
pub fn render(outcome: &Result<Answer, UserQuestionError>) -> String {
    match outcome {
        Ok(answer) => answer.to_compact_json(),
        Err(e) => format!("Error: {}", e.message()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AnswerItem;

    #[test]
    fn maps_snake_case_and_drops_what_the_tool_has_not() {
        let r = request_from_input(&json!({"questions": [{"id": "pkg", "question": "Which?", "multi_select": true,
            "options": [{"label": "pnpm"}], "intent": {"kind": "plan-review", "approve": "pnpm"}}],
            "agent": {"id": "x", "runtime": "y"}}))
        .unwrap();
        assert!(r.questions[0].multi_select);
        assert!(r.questions[0].intent.is_none());
        assert!(r.agent.is_none());
    }

    #[test]
    fn renders_compact_json_and_exact_errors() {
        let ok = Ok(Answer::new(vec![AnswerItem::selected("pkg", &["pnpm"])]));
        assert_eq!(render(&ok), r#"{"answers":[{"id":"pkg","selected":["pnpm"]}]}"#);
        assert_eq!(
            render(&Err(UserQuestionError::no_provider())),
            "Error: no user-questions answerer accepted the request"
        );
        assert_eq!(
            render(&Err(UserQuestionError::empty_questions())),
            "Error: ask_user_question requires at least one question"
        );
    }

    #[test]
    fn schema_requires_questions_and_limits_options() {
        let s = input_schema();
        assert_eq!(s["required"], json!(["questions"]));
        let item = &s["properties"]["questions"]["items"];
        assert!(item["properties"]["multi_select"].is_object());
        let option_keys: Vec<_> =
            item["properties"]["options"]["items"]["properties"].as_object().unwrap().keys().cloned().collect();
        assert_eq!(option_keys, ["label", "description"]);
    }
}
