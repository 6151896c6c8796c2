//! "Allow for this session" on the phone: a permission whose agent has a session gets
//! it as one more poll option, right after Allow. A room that settles on it answers
//! Allow, and the session's rule is kept in the desk's rules file (the way
//! [`crate::policy::session`] picks for every door), which ends with the session.
//! The option is the room's alone: the asker only ever reads Allow.

use std::path::Path;

use crate::model::labels::ALLOW_SESSION;
use crate::model::{Answer, QuestionOption, Request};
use crate::policy::{remember, session};

/// The request as the room sees it: with "Allow for this session" after Allow, where
/// the rules in `config` would keep a session way for it.
pub fn shown(request: &Request, config: Option<&Path>) -> Request {
    let mut shown = request.clone();
    if config.and_then(|c| session::offered(c, request)).is_none() {
        return shown;
    }
    let Some(q) = shown.questions.first_mut() else { return shown };
    let approve = q.intent.as_ref().map(|i| i.approve.clone()).unwrap_or_default();
    if let Some(at) = q.options.iter().position(|o| o.label == approve) {
        q.options.insert(at + 1, QuestionOption { label: ALLOW_SESSION.into(), description: None });
    }
    shown
}

/// The room's answer as the asker reads it: "Allow for this session" is Allow, with
/// the session's rule kept first (a rule that cannot be kept leaves a plain Allow,
/// said in the log).
pub fn settled(mut answer: Answer, request: &Request, config: Option<&Path>) -> Answer {
    let Some(item) = answer.answers.first_mut().filter(|i| i.selected == [ALLOW_SESSION]) else { return answer };
    let approve = request.questions.first().and_then(|q| q.intent.as_ref()).map(|i| i.approve.clone());
    item.selected = approve.into_iter().collect();
    let way = config.and_then(|c| Some((c, session::offered(c, request)?)));
    match way.map(|(c, way)| remember::keep(c, &way)) {
        Some(Ok(())) => {}
        Some(Err(e)) => tracing::warn!("matrix: the session's rule could not be kept, so it was allowed once: {e}"),
        None => tracing::warn!("matrix: no rule for the session could be made, so it was allowed once"),
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::hook::permission::request_for;
    use crate::model::AnswerItem;

    fn request(session: Option<&str>) -> Request {
        request_for("cargo test -q", session)
    }

    fn labels(r: &Request) -> Vec<String> {
        r.questions[0].options.iter().map(|o| o.label.clone()).collect()
    }

    #[test]
    fn the_room_sees_the_option_and_the_asker_reads_allow_with_the_rule_kept() {
        let config = tempfile::tempdir().unwrap();
        let asked = request(Some("s1"));
        assert_eq!(labels(&shown(&asked, Some(config.path()))), ["Allow", ALLOW_SESSION, "Deny"]);
        assert_eq!(labels(&shown(&request(None), Some(config.path()))), ["Allow", "Deny"], "no session");
        assert_eq!(labels(&shown(&asked, None)), ["Allow", "Deny"], "no rules file to keep it in");

        let voted = Answer::new(vec![AnswerItem::selected("permission", &[ALLOW_SESSION])]);
        let answer = settled(voted, &asked, Some(config.path()));
        assert_eq!(answer.answers[0].selected, ["Allow"]);
        let rules = std::fs::read_to_string(config.path().join("rules.toml")).unwrap();
        assert_eq!(rules, "[[allow]]\ncommand = \"cargo test\"\nsession = \"s1\"\n");
        let denied = Answer::new(vec![AnswerItem::selected("permission", &["Deny"])]);
        assert_eq!(settled(denied.clone(), &asked, Some(config.path())), denied);
    }
}
