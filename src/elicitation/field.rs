//! One field of an MCP form: read from its schema with rmcp's types, shown as a
//! question with its rules in words, and its answer turned into a value of the
//! field's type, or a [`Problem`] naming what does not fit.

use rmcp::model::{EnumSchema, MultiSelectEnumSchema, PrimitiveSchemaDefinition, SingleSelectEnumSchema, StringFormat};
use serde_json::{json, Value};
use user_questions_i18n::Text;

use crate::model::{AnswerItem, Question};

/// A field's answer that does not fit, and why, in the person's language.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub field: String,
    pub message: String,
}

#[derive(Debug, Clone)]
pub(super) struct Field {
    pub name: String,
    title: Option<String>,
    description: Option<String>,
    required: bool,
    pub kind: Kind,
}

#[derive(Debug, Clone)]
pub(super) enum Kind {
    Text {
        min: Option<u32>,
        max: Option<u32>,
        format: Option<StringFormat>,
        default: Option<String>,
    },
    Number {
        integer: bool,
        min: Option<f64>,
        max: Option<f64>,
        default: Option<f64>,
    },
    Boolean {
        default: Option<bool>,
    },
    /// An enum: each choice's label (its title, or the value) and value.
    Choice {
        choices: Vec<(String, String)>,
        multi: bool,
        min: Option<u64>,
        max: Option<u64>,
        default: Vec<String>,
    },
}

impl Field {
    pub fn parse(name: &str, schema: &Value, required: bool) -> Result<Self, String> {
        let def: PrimitiveSchemaDefinition = serde_json::from_value(schema.clone()).map_err(|e| e.to_string())?;
        let text = |s: &Option<std::borrow::Cow<'static, str>>| s.as_deref().map(str::to_owned);
        let (title, description, kind) = match def {
            PrimitiveSchemaDefinition::String(s) => (
                text(&s.title),
                text(&s.description),
                Kind::Text { min: s.min_length, max: s.max_length, format: s.format, default: s.default },
            ),
            PrimitiveSchemaDefinition::Number(n) => (
                text(&n.title),
                text(&n.description),
                Kind::Number { integer: false, min: n.minimum, max: n.maximum, default: n.default },
            ),
            PrimitiveSchemaDefinition::Integer(n) => (
                text(&n.title),
                text(&n.description),
                Kind::Number {
                    integer: true,
                    min: n.minimum.map(|v| v as f64),
                    max: n.maximum.map(|v| v as f64),
                    default: n.default.map(|v| v as f64),
                },
            ),
            PrimitiveSchemaDefinition::Boolean(b) => {
                (text(&b.title), text(&b.description), Kind::Boolean { default: b.default })
            }
            PrimitiveSchemaDefinition::Enum(e) => choice(e)?,
            _ => return Err("a kind of field this version does not know".into()),
        };
        if let Kind::Choice { choices, .. } = &kind {
            if choices.is_empty() {
                return Err("an enum with no values".into());
            }
        }
        Ok(Self { name: name.to_owned(), title, description, required, kind })
    }

    /// The field as a question: its description (or title, or name) as the question,
    /// and its rules (and a problem, when asked again) as detail.
    pub fn question(&self, words: &Text, problem: Option<&Problem>) -> Question {
        let named = self.title.clone().unwrap_or_else(|| self.name.clone());
        let mut q = Question::new(&self.name, self.description.clone().unwrap_or_else(|| named.clone()));
        // The name above the question, where the question is its description.
        q.header = self.description.is_some().then_some(named);
        match &self.kind {
            Kind::Choice { choices, multi, .. } => {
                q.multi_select = *multi;
                for (label, _) in choices {
                    q = q.option(label.clone(), None);
                }
            }
            Kind::Boolean { .. } => {
                q = q.option(words.tr("elicit-yes"), None).option(words.tr("elicit-no"), None);
            }
            _ => {}
        }
        // Sentences: a space after an English one, none after a Chinese full stop.
        let rules = self.rules(words).into_iter().fold(String::new(), |mut all, rule| {
            if !all.is_empty() && !all.ends_with('。') {
                all.push(' ');
            }
            all + rule.as_str()
        });
        let problem = problem.map(|p| format!("**{}** {}", words.tr("elicit-not-sent"), p.message));
        let detail: Vec<String> = problem.into_iter().chain(Some(rules).filter(|r| !r.is_empty())).collect();
        if !detail.is_empty() {
            q.detail = Some(detail.join("\n\n"));
        }
        q
    }

    /// The field's rules in words: required, type, range, length, format, default.
    fn rules(&self, words: &Text) -> Vec<String> {
        let mut rules = Vec::new();
        let range = |id: &str, min: Option<String>, max: Option<String>| match (min, max) {
            (None, None) => None,
            (min, max) => Some(
                words.tr_args(
                    id,
                    &[
                        ("min", min.as_deref().unwrap_or("").into()),
                        ("max", max.as_deref().unwrap_or("").into()),
                        (
                            "bound",
                            match (&min, &max) {
                                (Some(_), Some(_)) => "both",
                                (Some(_), None) => "min",
                                _ => "max",
                            }
                            .into(),
                        ),
                    ],
                ),
            ),
        };
        match &self.kind {
            Kind::Text { min, max, format, .. } => {
                if let Some(format) = format {
                    rules.push(words.tr(format_message(*format)));
                }
                rules.extend(range("elicit-length", min.map(|v| v.to_string()), max.map(|v| v.to_string())));
            }
            Kind::Number { integer, min, max, .. } => {
                rules.push(words.tr(if *integer { "elicit-integer" } else { "elicit-number" }));
                rules.extend(range("elicit-range", min.map(number), max.map(number)));
            }
            Kind::Choice { multi: true, min, max, .. } => {
                rules.extend(range("elicit-count", min.map(|v| v.to_string()), max.map(|v| v.to_string())));
            }
            _ => {}
        }
        if self.required {
            rules.push(words.tr("elicit-required"));
        }
        if let Some(default) = self.default_text(words) {
            rules.push(words.tr_args("elicit-default", &[("value", (&default).into())]));
        }
        rules
    }

    fn default_text(&self, words: &Text) -> Option<String> {
        match &self.kind {
            Kind::Text { default, .. } => default.clone(),
            Kind::Number { default, .. } => default.map(number),
            Kind::Boolean { default } => default.map(|b| yes_no(b, words)),
            Kind::Choice { choices, default, .. } if !default.is_empty() => Some(
                default
                    .iter()
                    .map(|v| choices.iter().find(|(_, c)| c == v).map_or(v.clone(), |(l, _)| l.clone()))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            Kind::Choice { .. } => None,
        }
    }

    /// The default as the window's draft of this question: options preselected, or
    /// the text typed in.
    pub fn default_draft(&self, words: &Text) -> Option<Value> {
        let (selected, custom): (Vec<String>, String) = match &self.kind {
            Kind::Boolean { default: Some(b) } => (vec![yes_no(*b, words)], String::new()),
            Kind::Choice { choices, default, .. } if !default.is_empty() => {
                (choices.iter().filter(|(_, v)| default.contains(v)).map(|(l, _)| l.clone()).collect(), String::new())
            }
            Kind::Text { default: Some(text), .. } => (Vec::new(), text.clone()),
            Kind::Number { default: Some(n), .. } => (Vec::new(), number(*n)),
            _ => return None,
        };
        Some(json!({"selected": selected, "custom": custom, "skip": false}))
    }

    /// The answer as a value of the field's type; `Ok(None)`: left empty, and
    /// neither required nor with a default.
    pub fn value(&self, item: &AnswerItem, words: &Text) -> Result<Option<Value>, Problem> {
        let problem = |message: String| Problem { field: self.name.clone(), message };
        let invalid = |text: &str| problem(words.tr_args("elicit-invalid", &[("text", text.into())]));
        let typed = item.custom.as_deref().filter(|t| !t.trim().is_empty());
        let value = match &self.kind {
            Kind::Choice { choices, multi: false, .. } => match (item.selected.first(), typed) {
                (_, Some(text)) => Some(pick(choices, text.trim()).ok_or_else(|| invalid(text))?.into()),
                (Some(label), None) => Some(pick(choices, label).ok_or_else(|| invalid(label))?.into()),
                (None, None) => None,
            },
            Kind::Choice { choices, multi: true, min, max, .. } => {
                let mut labels: Vec<&str> = item.selected.iter().map(String::as_str).collect();
                labels.extend(typed.into_iter().flat_map(|t| t.split(',')).map(str::trim).filter(|t| !t.is_empty()));
                let values =
                    labels.iter().map(|l| pick(choices, l).ok_or_else(|| invalid(l))).collect::<Result<Vec<_>, _>>()?;
                let n = values.len() as u64;
                if !values.is_empty() && (min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m)) {
                    return Err(invalid(&labels.join(", ")));
                }
                (!values.is_empty()).then(|| json!(values))
            }
            Kind::Boolean { .. } => match (item.selected.first(), typed) {
                (_, Some(text)) => Some(boolean(text.trim(), words).ok_or_else(|| invalid(text))?.into()),
                (Some(label), None) => Some(boolean(label, words).ok_or_else(|| invalid(label))?.into()),
                (None, None) => None,
            },
            Kind::Text { min, max, format, .. } => match typed {
                None => None,
                Some(text) => {
                    let n = text.chars().count() as u32;
                    let fits = min.is_none_or(|m| n >= m)
                        && max.is_none_or(|m| n <= m)
                        && format.is_none_or(|f| formatted(f, text.trim()));
                    if !fits {
                        return Err(invalid(text));
                    }
                    Some(if format.is_some() { text.trim() } else { text }.into())
                }
            },
            Kind::Number { integer, min, max, .. } => match typed.map(str::trim) {
                None => None,
                Some(text) => {
                    let n: f64 = text.parse().ok().filter(|n: &f64| n.is_finite()).ok_or_else(|| invalid(text))?;
                    if (*integer && n.fract() != 0.0) || min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
                        return Err(invalid(text));
                    }
                    Some(if *integer { json!(n as i64) } else { json!(n) })
                }
            },
        };
        match value {
            Some(v) => Ok(Some(v)),
            None => match self.default_value() {
                Some(v) => Ok(Some(v)),
                None if self.required => Err(problem(words.tr("elicit-missing"))),
                None => Ok(None),
            },
        }
    }

    fn default_value(&self) -> Option<Value> {
        match &self.kind {
            Kind::Text { default, .. } => default.clone().map(Value::from),
            Kind::Number { integer: true, default, .. } => default.map(|n| json!(n as i64)),
            Kind::Number { default, .. } => default.map(|n| json!(n)),
            Kind::Boolean { default } => default.map(Value::from),
            Kind::Choice { default, .. } if default.is_empty() => None,
            Kind::Choice { multi: true, default, .. } => Some(json!(default)),
            Kind::Choice { default, .. } => default.first().cloned().map(Value::from),
        }
    }
}

/// An enum field: its choices, whether several may be picked, how many, the default.
fn choice(e: EnumSchema) -> Result<(Option<String>, Option<String>, Kind), String> {
    let text = |s: Option<std::borrow::Cow<'static, str>>| s.map(|s| s.into_owned());
    let untitled = |values: Vec<String>| values.into_iter().map(|v| (v.clone(), v)).collect::<Vec<_>>();
    let titled = |items: Vec<rmcp::model::ConstTitle>| -> Vec<(String, String)> {
        items.into_iter().map(|c| (c.title, c.const_)).collect()
    };
    let single = |choices, default: Option<String>| Kind::Choice {
        choices: unique(choices),
        multi: false,
        min: None,
        max: None,
        default: default.into_iter().collect(),
    };
    Ok(match e {
        EnumSchema::Single(SingleSelectEnumSchema::Untitled(s)) => {
            (text(s.title), text(s.description), single(untitled(s.enum_), s.default))
        }
        EnumSchema::Single(SingleSelectEnumSchema::Titled(s)) => {
            (text(s.title), text(s.description), single(titled(s.one_of), s.default))
        }
        EnumSchema::Legacy(s) => {
            let names = s.enum_names.unwrap_or_default();
            let choices = s
                .enum_
                .into_iter()
                .enumerate()
                .map(|(i, v)| (names.get(i).cloned().unwrap_or_else(|| v.clone()), v))
                .collect();
            (text(s.title), text(s.description), single(choices, s.default))
        }
        EnumSchema::Multi(MultiSelectEnumSchema::Untitled(s)) => (
            text(s.title),
            text(s.description),
            Kind::Choice {
                choices: unique(untitled(s.items.enum_)),
                multi: true,
                min: s.min_items,
                max: s.max_items,
                default: s.default.unwrap_or_default(),
            },
        ),
        EnumSchema::Multi(MultiSelectEnumSchema::Titled(s)) => (
            text(s.title),
            text(s.description),
            Kind::Choice {
                choices: unique(titled(s.items.any_of)),
                multi: true,
                min: s.min_items,
                max: s.max_items,
                default: s.default.unwrap_or_default(),
            },
        ),
        _ => return Err("a kind of enum this version does not know".into()),
    })
}

/// Labels must differ within a question: a repeated title gets its value beside it.
fn unique(choices: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (label, value) in choices {
        let label = if seen.contains(&label) { format!("{label} ({value})") } else { label };
        if seen.insert(label.clone()) {
            out.push((label, value));
        }
    }
    out
}

/// The value of the choice a label (or typed value) names.
fn pick(choices: &[(String, String)], said: &str) -> Option<String> {
    let by_label = choices.iter().find(|(l, _)| l == said);
    by_label.or_else(|| choices.iter().find(|(_, v)| v == said)).map(|(_, v)| v.clone())
}

fn yes_no(b: bool, words: &Text) -> String {
    words.tr(if b { "elicit-yes" } else { "elicit-no" })
}

/// Yes or No as shown, or typed as true/false, yes/no in either language.
fn boolean(said: &str, words: &Text) -> Option<bool> {
    let said = said.to_lowercase();
    if said == yes_no(true, words).to_lowercase() || said == "true" || said == "yes" {
        Some(true)
    } else if said == yes_no(false, words).to_lowercase() || said == "false" || said == "no" {
        Some(false)
    } else {
        None
    }
}

fn number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

fn format_message(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Email => "elicit-email",
        StringFormat::Uri => "elicit-uri",
        StringFormat::Date => "elicit-date",
        StringFormat::DateTime => "elicit-date-time",
        _ => "elicit-text",
    }
}

/// Whether `text` is written in `format`.
fn formatted(format: StringFormat, text: &str) -> bool {
    match format {
        StringFormat::Email => email_address::EmailAddress::is_valid(text),
        StringFormat::Uri => url::Url::parse(text).is_ok(),
        StringFormat::Date => chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok(),
        StringFormat::DateTime => chrono::DateTime::parse_from_rfc3339(text).is_ok(),
        _ => true,
    }
}
