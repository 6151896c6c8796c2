//! What a person answers, and the one rule that decides whether an answer fits its
//! request (docs/protocol.md, "An answer fits its request"). Every answer, from any
//! answerer, passes [`Answer::fit`] before it reaches an asker.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::question::{optional_string, required_string};
use super::{Question, UserQuestionError};

/// One question's answer. `custom` is omitted when absent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AnswerItem {
    pub id: String,
    pub selected: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub custom: Option<String>,
}

/// `{answers: [{id, selected, custom?}]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Answer {
    pub answers: Vec<AnswerItem>,
}

impl AnswerItem {
    pub fn selected(id: impl Into<String>, labels: &[&str]) -> Self {
        Self { id: id.into(), selected: labels.iter().map(|l| l.to_string()).collect(), custom: None }
    }
    pub fn custom(id: impl Into<String>, text: impl Into<String>) -> Self {
        Self { id: id.into(), selected: Vec::new(), custom: Some(text.into()) }
    }
    /// A question the person skipped: no labels, no text.
    pub fn skipped(id: impl Into<String>) -> Self {
        Self { id: id.into(), selected: Vec::new(), custom: None }
    }
}

impl Answer {
    pub fn new(answers: Vec<AnswerItem>) -> Self {
        Self { answers }
    }

    /// Parses an answer from untrusted JSON; a wrong shape is `BAD_ANSWER`.
    pub fn from_value(v: &Value) -> Result<Self, UserQuestionError> {
        let bad = |what: &str| UserQuestionError::bad_answer(what.to_owned());
        let items = v
            .as_object()
            .and_then(|o| o.get("answers"))
            .ok_or_else(|| bad("the answer must be an object with an array answers"))?
            .as_array()
            .ok_or_else(|| bad("answers must be an array"))?;
        let answers = items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let at = format!("answers[{i}]");
                let obj = item.as_object().ok_or_else(|| bad(&format!("{at} must be an object")))?;
                let id = required_string(obj, "id", &at).map_err(as_bad_answer)?;
                let selected = match obj.get("selected").filter(|v| !v.is_null()) {
                    None => return Err(bad(&format!("{at}.selected is missing"))),
                    Some(s) => s
                        .as_array()
                        .and_then(|a| a.iter().map(|l| l.as_str().map(str::to_owned)).collect::<Option<Vec<_>>>())
                        .ok_or_else(|| bad(&format!("{at}.selected must be an array of strings")))?,
                };
                let custom = optional_string(obj, "custom", &at).map_err(as_bad_answer)?;
                Ok(AnswerItem { id, selected, custom })
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { answers })
    }

    /// Checks this answer against the questions it answers and returns it normalised:
    /// items in question order, blank `custom` dropped, and for a single-select
    /// question a `custom` that overrides the choice (`selected` empty).
    pub fn fit(self, questions: &[Question]) -> Result<Self, UserQuestionError> {
        // Each question's item, by the question's place: no map to build, as every ask
        // passes here at each level of the waterfall.
        let mut items: Vec<Option<AnswerItem>> = questions.iter().map(|_| None).collect();
        for item in self.answers {
            let Some(at) = questions.iter().position(|q| q.id == item.id) else {
                return Err(UserQuestionError::bad_answer(format!(
                    "the answer names question {:?}, which the request does not ask",
                    item.id
                )));
            };
            if items[at].is_some() {
                return Err(UserQuestionError::bad_answer(format!(
                    "question {:?} is answered more than once",
                    item.id
                )));
            }
            items[at] = Some(item);
        }
        let mut answers = Vec::with_capacity(questions.len());
        for (q, item) in questions.iter().zip(items) {
            let mut item = item.ok_or_else(|| {
                UserQuestionError::bad_answer(format!("question {:?} has no answer (a skip is \"selected\": [])", q.id))
            })?;
            for (i, label) in item.selected.iter().enumerate() {
                if let Some(pick) = &q.pick {
                    if let Some(why) = pick.misfit(label) {
                        return Err(UserQuestionError::bad_answer(format!("question {:?}: {why}", q.id)));
                    }
                } else if !q.has_option(label) {
                    return Err(UserQuestionError::bad_answer(format!(
                        "question {:?} has no option {:?}",
                        q.id, label
                    )));
                }
                // Every label before this one is an option, so this is no longer than
                // the option check above.
                if item.selected[..i].contains(label) {
                    return Err(UserQuestionError::bad_answer(format!(
                        "question {:?} selects {:?} twice",
                        q.id, label
                    )));
                }
            }
            if !q.multi_select && item.selected.len() > 1 {
                return Err(UserQuestionError::bad_answer(format!(
                    "question {:?} is single-select but {} labels are selected",
                    q.id,
                    item.selected.len()
                )));
            }
            item.custom = item.custom.filter(|c| !c.trim().is_empty());
            if !q.multi_select && item.custom.is_some() {
                item.selected.clear();
            }
            answers.push(item);
        }
        Ok(Self { answers })
    }

    /// The compact JSON a model reads.
    pub fn to_compact_json(&self) -> String {
        serde_json::to_string(self).expect("an answer always serialises")
    }
}

fn as_bad_answer(e: UserQuestionError) -> UserQuestionError {
    UserQuestionError::bad_answer(e.message().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn questions() -> Vec<Question> {
        let mut multi = Question::new("tools", "Which tools?").option("fmt", None).option("clippy", None);
        multi.multi_select = true;
        vec![Question::new("pkg", "Which?").option("npm", None).option("pnpm", None), multi]
    }

    fn fit(v: Value) -> Result<Value, String> {
        Answer::from_value(&v).and_then(|a| a.fit(&questions())).map(|a| serde_json::to_value(a).unwrap()).map_err(
            |e| {
                assert_eq!(e.code(), "BAD_ANSWER");
                e.message().to_owned()
            },
        )
    }

    #[test]
    fn normalises_order_custom_and_skips() {
        let got = fit(json!({"answers": [
            {"id": "tools", "selected": ["clippy", "fmt"], "custom": "  also miri "},
            {"id": "pkg", "selected": ["npm"], "custom": "yarn"}]}))
        .unwrap();
        assert_eq!(
            got,
            json!({"answers": [{"id": "pkg", "selected": [], "custom": "yarn"},
                               {"id": "tools", "selected": ["clippy", "fmt"], "custom": "  also miri "}]})
        );
        let got = fit(json!({"answers": [{"id": "pkg", "selected": ["pnpm"], "custom": "   "},
                                         {"id": "tools", "selected": []}]}))
        .unwrap();
        assert_eq!(got, json!({"answers": [{"id": "pkg", "selected": ["pnpm"]}, {"id": "tools", "selected": []}]}));
    }

    #[test]
    fn refuses_what_does_not_fit() {
        let cases = [
            (json!({"answers": [{"id": "pkg", "selected": ["npm"]}]}), "question \"tools\" has no answer"),
            (
                json!({"answers": [{"id": "pkg", "selected": ["bun"]}, {"id": "tools", "selected": []}]}),
                "no option \"bun\"",
            ),
            (
                json!({"answers": [{"id": "pkg", "selected": ["npm", "pnpm"]}, {"id": "tools", "selected": []}]}),
                "single-select",
            ),
            (json!({"answers": [{"id": "pkg", "selected": []}, {"id": "tools", "selected": ["fmt", "fmt"]}]}), "twice"),
            (json!({"answers": [{"id": "pkg", "selected": []}, {"id": "pkg", "selected": []}]}), "more than once"),
            (
                json!({"answers": [{"id": "pkg", "selected": []}, {"id": "tools", "selected": []}, {"id": "x", "selected": []}]}),
                "does not ask",
            ),
            (
                json!({"answers": [{"id": "pkg", "selected": [], "custom": 3}, {"id": "tools", "selected": []}]}),
                "answers[0].custom must be a string",
            ),
            (json!({"answers": [{"id": "pkg"}]}), "answers[0].selected is missing"),
            (json!({"answers": [{"id": "pkg", "selected": [1]}]}), "array of strings"),
            (json!({"answer": []}), "array answers"),
        ];
        for (answer, expected) in cases {
            let err = fit(answer.clone()).unwrap_err();
            assert!(err.contains(expected), "{answer}: {err}");
        }
    }
}
