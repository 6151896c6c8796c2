//! Several permission requests answered at once, the same way from every door that
//! offers it (`userq answer --allow/--deny`, the window's marked requests): the answer
//! each gets, and the one line that names it in the list shown before anything is
//! sent. Only permissions are batched: a plan, a code review or a question is answered
//! in its own form. A batch never remembers anything.

use user_questions_i18n::Text;

use crate::glance;
use crate::model::labels::DENY;
use crate::model::{Answer, AnswerItem, Context, Intent, Kind, Request};

/// The subject's length in a batch's line.
const SUBJECT: usize = 80;

/// The answer a permission request gets when allowed, or denied with `reason` (a
/// plain Deny without one); `None` for any other request.
pub fn answer(request: &Request, allow: bool, reason: Option<&str>) -> Option<Answer> {
    let [q] = request.questions.as_slice() else { return None };
    let intent = q.intent.as_ref().filter(|_| Kind::of(q).batches())?;
    let item = match (allow, reason.map(str::trim).filter(|r| !r.is_empty())) {
        (true, _) => AnswerItem::selected(&q.id, &[&intent.approve]),
        (false, Some(reason)) => AnswerItem::custom(&q.id, reason),
        (false, None) if q.has_option(DENY) => AnswerItem::selected(&q.id, &[DENY]),
        // What an agent reads after a plain Deny, in the fixed words a model reads.
        (false, None) => AnswerItem::custom(&q.id, crate::model::labels::DENIED),
    };
    Some(Answer::new(vec![item]))
}

/// "Claude Code · shop · session 01234567 · Run this command? · make deploy": who asks,
/// from where, and what, on one line.
pub fn summary(request: &Request, text: &Text) -> String {
    let q = request.questions.first();
    let context = request.context.clone().unwrap_or_default();
    line(&context, q.map_or("", |q| q.question.as_str()), q.and_then(|q| q.intent.as_ref()), text)
}

/// The same line, from its pieces: the ask's context, its (first) question's text as
/// shown, and that question's intent.
pub fn line(context: &Context, question: &str, intent: Option<&Intent>, text: &Text) -> String {
    let mut what: Vec<String> = context.source.as_deref().map(glance::inert).into_iter().collect();
    what.extend(context.project_name().map(glance::inert));
    what.extend(context.short_session().map(|s| text.tr_args("glance-session", &[("session", s.into())])));
    what.push(glance::inert(question));
    what.extend(intent.and_then(glance::subject).map(|s| glance::cut(&s, SUBJECT)));
    what.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::hook::permission;
    use crate::model::Question;

    fn asked(command: &str) -> Request {
        permission::request_for(command, Some("0123456789"))
    }

    #[test]
    fn a_permission_is_allowed_or_denied_and_nothing_else_is_batched() {
        let r = asked("make deploy");
        let selected = |a: Answer| (a.answers[0].selected.clone(), a.answers[0].custom.clone());
        assert_eq!(selected(answer(&r, true, Some("ignored")).unwrap()), (vec!["Allow".to_owned()], None));
        assert_eq!(selected(answer(&r, false, None).unwrap()), (vec!["Deny".to_owned()], None));
        assert_eq!(selected(answer(&r, false, Some(" not now ")).unwrap()), (vec![], Some("not now".to_owned())));
        let plain = Request { questions: vec![Question::new("q", "Which?").option("A", None)], ..asked("x") };
        assert!(answer(&plain, true, None).is_none());
    }

    #[test]
    fn a_batchs_line_names_who_where_and_what() {
        let line = summary(&asked("make deploy\n --force"), &Text::for_tag("en"));
        assert_eq!(line, "Claude Code · shop · session 01234567 · Run this command? · make deploy --force");
        assert!(summary(&asked("x"), &Text::for_tag("zh-CN")).contains("会话 01234567"));
    }
}
