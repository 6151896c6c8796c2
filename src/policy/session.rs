//! "Allow for this session": a permission's Allow kept as rules of its agent session,
//! which end with it (`SessionEnd`, [`super::yours::end_session`]). One choice for
//! every door that offers it (the window's button beside Allow, `userq answer`'s
//! option, the phone's poll): of the ways to remember ([`super::remember`]), the one
//! with any arguments in this session only, or, where a rule cannot name the command
//! so, this command exactly in this session. None where the request names no session,
//! or where no allow could let it run.

use std::path::Path;

use super::remember::{self, Breadth, Reach, Way};
use super::{Action, Kind, Policy};
use crate::model::{self, AgentName, Request};

/// What a permission request asks to do, by whom and where: its intent's action in
/// its context. `None` for any other request.
pub fn action_of(request: &Request) -> Option<Action> {
    let [q] = request.questions.as_slice() else { return None };
    let kind = q.intent.as_ref().filter(|_| model::Kind::of(q) == model::Kind::Permission).and_then(Kind::of)?;
    let context = request.context.clone().unwrap_or_default();
    let agent = context.source.as_deref().and_then(AgentName::shown_as).map(|a| a.name.to_owned());
    Some(Action { kind, cwd: context.project.map(Into::into), agent, session: context.session })
}

/// Which of `ways` "Allow for this session" keeps.
pub fn way<'a>(ways: impl IntoIterator<Item = &'a Way>) -> Option<usize> {
    let in_session: Vec<(usize, Breadth)> =
        ways.into_iter().enumerate().filter(|(_, w)| w.reach == Reach::Session).map(|(i, w)| (i, w.breadth)).collect();
    let of = |breadth| in_session.iter().find(|(_, b)| *b == breadth).map(|(i, _)| *i);
    of(Breadth::Wide).or_else(|| of(Breadth::Exact))
}

/// The way "Allow for this session" would keep for `request`, under the rules in
/// `config`; `None` where it is not offered.
pub fn offered(config: &Path, request: &Request) -> Option<Way> {
    let action = action_of(request)?;
    let policy = Policy::load(config, action.cwd.as_deref()).ok()?;
    let mut ways = remember::ways(&action, &policy);
    way(&ways).map(|i| ways.swap_remove(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::hook::permission::request_for as request;

    #[test]
    fn the_session_way_is_the_command_with_any_arguments_and_it_ends_with_the_session() {
        let config = tempfile::tempdir().unwrap();
        let way = offered(config.path(), &request("cargo test --release", Some("s1"))).unwrap();
        assert_eq!((way.breadth, way.reach), (Breadth::Wide, Reach::Session));
        remember::keep(config.path(), &way).unwrap();
        let rules = std::fs::read_to_string(config.path().join(super::super::FILE)).unwrap();
        assert_eq!(rules, "[[allow]]\ncommand = \"cargo test\"\nsession = \"s1\"\n");
        // The next such command in that session is allowed; in another, it is not.
        let policy = Policy::load(config.path(), None).unwrap();
        let next = |session: &str| {
            let action = action_of(&request("cargo test --lib", Some(session))).unwrap();
            policy.decide(&action).decision
        };
        assert_eq!((next("s1"), next("s2")), (super::super::Verdict::Allow, super::super::Verdict::Ask));
        super::super::yours::end_session(config.path(), "s1").unwrap();
        assert_eq!(std::fs::read_to_string(config.path().join(super::super::FILE)).unwrap(), "");
    }

    #[test]
    fn none_without_a_session_or_where_no_allow_could_let_it_run() {
        let config = tempfile::tempdir().unwrap();
        assert!(offered(config.path(), &request("make deploy", None)).is_none(), "no session");
        assert!(offered(config.path(), &request("eval \"$x\"", Some("s1"))).is_none(), "it cannot be read");
    }
}
