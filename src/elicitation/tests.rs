use serde_json::json;
use user_questions_i18n::Text;

use super::*;
use crate::model::{Answer, AnswerItem};

fn en() -> Text {
    Text::for_tag("en")
}

/// Every kind of field MCP allows, in one schema.
fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "Your display name", "minLength": 2, "maxLength": 10},
            "email": {"type": "string", "format": "email"},
            "when": {"type": "string", "format": "date"},
            "age": {"type": "integer", "minimum": 18, "maximum": 130},
            "ratio": {"type": "number", "default": 0.5},
            "subscribe": {"type": "boolean", "title": "Subscribe", "default": true},
            "size": {"type": "string", "enum": ["s", "m", "l"], "default": "m"},
            "colour": {"type": "string", "oneOf": [{"const": "#f00", "title": "Red"}, {"const": "#00f", "title": "Blue"}]},
            "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y", "z"]}, "minItems": 1, "maxItems": 2},
            "flavours": {"type": "array", "items": {"anyOf": [{"const": "v", "title": "Vanilla"}, {"const": "c", "title": "Chocolate"}]}, "default": ["c"]}
        },
        "required": ["name", "age"]
    })
}

fn form() -> Form {
    Form::parse("github", "Tell us about you", &schema()).unwrap()
}

fn text(id: &str, t: &str) -> AnswerItem {
    AnswerItem::custom(id, t)
}

fn pick(id: &str, labels: &[&str]) -> AnswerItem {
    AnswerItem::selected(id, labels)
}

/// The least answer that fits: the required fields.
fn least() -> Vec<AnswerItem> {
    vec![pick("elicitation", &["Send"]), text("name", "Ada"), text("age", "36")]
}

#[test]
fn each_field_becomes_a_question_after_the_servers_message() {
    let qs = form().questions(&en(), None);
    let ids: Vec<&str> = qs.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "elicitation",
            "name",
            "email",
            "when",
            "age",
            "ratio",
            "subscribe",
            "size",
            "colour",
            "legacy",
            "tags",
            "flavours"
        ],
        "the fields in the server's order"
    );
    let first = &qs[0];
    assert_eq!(first.question, "Tell us about you");
    assert_eq!(first.header.as_deref(), Some("github"));
    assert_eq!(first.options.iter().map(|o| o.label.as_str()).collect::<Vec<_>>(), ["Send", "Decline"]);
    let intent = first.intent.as_ref().unwrap();
    assert_eq!((intent.kind.as_str(), intent.approve.as_str()), ("elicitation", "Send"));
    assert_eq!(intent.extra["server"], "github");

    let name = &qs[1];
    assert_eq!((name.header.as_deref(), name.question.as_str()), (Some("Name"), "Your display name"));
    assert_eq!(name.detail.as_deref(), Some("2 to 10 characters. Required."));
    assert_eq!((qs[2].header.as_deref(), qs[2].question.as_str()), (None, "email"), "a bare field by its name");
    assert!(name.options.is_empty(), "a string is typed");
    assert_eq!(qs[2].detail.as_deref(), Some("An email address."));
    assert_eq!(qs[4].detail.as_deref(), Some("A whole number. From 18 to 130. Required."));
    assert_eq!(qs[5].detail.as_deref(), Some("A number. Default: 0.5"));
    let labels = |i: usize| qs[i].options.iter().map(|o| o.label.clone()).collect::<Vec<_>>();
    assert_eq!(labels(6), ["Yes", "No"]);
    assert_eq!(labels(7), ["s", "m", "l"]);
    assert_eq!(labels(8), ["Red", "Blue"], "titles shown, values sent");
    assert_eq!(labels(9), ["Alpha", "Beta"]);
    assert!(qs[10].multi_select && qs[11].multi_select && !qs[7].multi_select);
    assert_eq!(qs[10].detail.as_deref(), Some("Pick 1 to 2."));
}

#[test]
fn defaults_are_the_forms_draft_preselected() {
    let qs = form().questions(&en(), None);
    let defaults = &qs[0].intent.as_ref().unwrap().extra["defaults"];
    assert_eq!(defaults["subscribe"], json!({"selected": ["Yes"], "custom": "", "skip": false}));
    assert_eq!(defaults["size"], json!({"selected": ["m"], "custom": "", "skip": false}));
    assert_eq!(defaults["flavours"], json!({"selected": ["Chocolate"], "custom": "", "skip": false}));
    assert_eq!(defaults["ratio"], json!({"selected": [], "custom": "0.5", "skip": false}));
    assert!(defaults.get("name").is_none());
}

#[test]
fn an_answer_becomes_values_of_the_schemas_types() {
    let mut items = least();
    items.extend([
        text("email", " ada@example.com "),
        text("when", "2026-12-31"),
        text("ratio", "0.25"),
        pick("subscribe", &["No"]),
        pick("colour", &["Blue"]),
        pick("legacy", &["Beta"]),
        pick("tags", &["x", "z"]),
        pick("flavours", &["Vanilla", "Chocolate"]),
    ]);
    let reply = form().reply(&Answer::new(items), &en()).unwrap();
    assert_eq!(
        reply.to_value(),
        json!({"action": "accept", "content": {
            "name": "Ada", "email": "ada@example.com", "when": "2026-12-31", "age": 36, "ratio": 0.25,
            "subscribe": false, "size": "m", "colour": "#00f", "legacy": "b", "tags": ["x", "z"], "flavours": ["v", "c"]
        }})
    );
}

#[test]
fn fields_left_empty_take_their_defaults_or_stay_out() {
    let reply = form().reply(&Answer::new(least()), &en()).unwrap();
    assert_eq!(
        reply.to_value()["content"],
        json!({"name": "Ada", "age": 36, "ratio": 0.5, "subscribe": true, "size": "m", "flavours": ["c"]})
    );
}

#[test]
fn typed_text_may_name_a_choice_by_its_value_or_title() {
    let mut items = least();
    items.extend([text("colour", "#f00"), text("subscribe", "yes"), text("tags", "y, z")]);
    let content = match form().reply(&Answer::new(items), &en()).unwrap() {
        Reply::Accept(c) => c,
        other => panic!("{other:?}"),
    };
    assert_eq!((content["colour"].clone(), content["subscribe"].clone()), (json!("#f00"), json!(true)));
    assert_eq!(content["tags"], json!(["y", "z"]));
}

#[test]
fn decline_is_decline_whatever_was_typed() {
    let answer = Answer::new(vec![pick("elicitation", &["Decline"]), text("name", "x")]);
    assert_eq!(form().reply(&answer, &en()).unwrap(), Reply::Decline);
    assert_eq!(Reply::Decline.to_value(), json!({"action": "decline"}));
}

#[test]
fn what_does_not_fit_is_named_at_its_field_and_asked_again_with_what_was_typed() {
    let answer = Answer::new(vec![
        pick("elicitation", &["Send"]),
        text("name", "A"),
        text("email", "not an address"),
        text("when", "2026-02-30"),
        text("age", "17.5"),
        text("ratio", "NaN"),
        text("subscribe", "maybe"),
        text("colour", "green"),
        pick("tags", &["x", "y", "z"]),
    ]);
    let problems = form().reply(&answer, &en()).unwrap_err();
    let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["name", "email", "when", "age", "ratio", "subscribe", "colour", "tags"]);
    assert_eq!(problems[0].message, "“A” does not fit the rules below.");

    let again = form().questions(&en(), Some((&answer, &problems)));
    let name = again.iter().find(|q| q.id == "name").unwrap();
    assert_eq!(
        name.detail.as_deref(),
        Some("**Not sent:** “A” does not fit the rules below.\n\n2 to 10 characters. Required.")
    );
    let defaults = &again[0].intent.as_ref().unwrap().extra["defaults"];
    assert_eq!(defaults["name"]["custom"], "A", "what was typed is kept");
    assert_eq!(defaults["tags"]["selected"], json!(["x", "y", "z"]));
    assert_eq!(defaults["size"]["selected"], json!(["m"]), "an untouched field keeps its default");
}

#[test]
fn a_required_field_left_empty_is_a_problem() {
    let answer = Answer::new(vec![pick("elicitation", &["Send"]), text("name", "Ada")]);
    let problems = form().reply(&answer, &en()).unwrap_err();
    assert_eq!(problems, [Problem { field: "age".into(), message: "This field is required.".into() }]);
}

#[test]
fn numbers_and_dates_are_checked_by_their_rules() {
    let schema = json!({"type": "object", "properties": {
        "n": {"type": "number", "minimum": -1.5, "maximum": 2},
        "at": {"type": "string", "format": "date-time"},
        "site": {"type": "string", "format": "uri"}
    }});
    let form = Form::parse("s", "m", &schema).unwrap();
    let reply = |n: &str, at: &str, site: &str| {
        form.reply(&Answer::new(vec![text("n", n), text("at", at), text("site", site)]), &en())
    };
    let ok = reply("-1.5", "2026-12-03T14:30:00+08:00", "https://example.com/a").unwrap();
    assert_eq!(
        ok.to_value()["content"],
        json!({"n": -1.5, "at": "2026-12-03T14:30:00+08:00", "site": "https://example.com/a"})
    );
    let fields = |r: Result<Reply, Vec<Problem>>| r.unwrap_err().into_iter().map(|p| p.field).collect::<Vec<_>>();
    assert_eq!(fields(reply("2.01", "2026-12-03 14:30", "example.com")), ["n", "at", "site"]);
}

#[test]
fn a_field_named_like_the_first_question_does_not_collide() {
    let schema = json!({"type": "object", "properties": {"elicitation": {"type": "string"}}});
    let qs = Form::parse("s", "m", &schema).unwrap().questions(&en(), None);
    assert_eq!(qs[0].id, "elicitation_");
    assert_eq!(qs[1].id, "elicitation");
}

#[test]
fn a_schema_that_is_not_flat_is_named() {
    let bad = |schema: Value| Form::parse("s", "m", &schema).unwrap_err().to_string();
    assert_eq!(bad(json!({"type": "array"})), "requested_schema is not an object with type \"object\" and properties");
    let nested = bad(json!({"type": "object", "properties": {"who": {"type": "object", "properties": {}}}}));
    assert!(nested.starts_with("requested_schema.properties.who is not a string, number"), "{nested}");
    assert_eq!(
        bad(json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]})),
        "requested_schema.required names b, which is not among its properties"
    );
    assert!(bad(json!({"type": "object", "properties": {"e": {"type": "string", "enum": []}}})).contains("no values"));
}

#[test]
fn repeated_titles_stay_apart() {
    let schema = json!({"type": "object", "properties": {
        "c": {"type": "string", "oneOf": [{"const": "a", "title": "Same"}, {"const": "b", "title": "Same"}]}
    }});
    let form = Form::parse("s", "m", &schema).unwrap();
    let labels: Vec<String> = form.questions(&en(), None)[1].options.iter().map(|o| o.label.clone()).collect();
    assert_eq!(labels, ["Same", "Same (b)"]);
    let reply = form.reply(&Answer::new(vec![pick("c", &["Same (b)"])]), &en()).unwrap();
    assert_eq!(reply.to_value()["content"], json!({"c": "b"}));
}

#[test]
fn a_page_to_open_names_its_host_and_is_a_question_of_its_own() {
    let q = url_question("auth", "Sign in to continue", "https://login.example.com/start?x=`y`", &en());
    assert_eq!(q.question, "auth asks you to open a page");
    assert_eq!(q.options[0].label, "Open");
    let detail = q.detail.unwrap();
    assert!(detail.contains("**login.example.com**"), "{detail}");
    assert!(detail.contains("https://login.example.com/start?x=%60y%60"), "no backtick ends the block: {detail}");
    let zh = url_question("auth", "m", "file:///etc/passwd", &Text::for_tag("zh-CN"));
    assert!(zh.detail.unwrap().contains("一个不是网址的地址"));
    assert_eq!(zh.options.iter().map(|o| o.label.as_str()).collect::<Vec<_>>(), ["Decline"], "only a web page opens");
}
