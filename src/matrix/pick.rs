//! A file pick on the phone: a phone cannot browse the desk's disk, so the person
//! replies in the question's thread with a path, or a few letters of one. A path that
//! fits the pick answers it; anything else is answered with the best matches under the
//! root (the same listing and matcher as every door, `crate::pick`) as a poll to vote
//! in, which answers it with the paths voted for. Only those paths reach the asker; the
//! room sees only the matches of what its people typed.
//!
//! A pick asked from another machine (an SSH forward) has its root there: a reply to it
//! is typed text, as the protocol says of a door that cannot show the kind.

use matrix_sdk::ruma::events::poll::unstable_start::NewUnstablePollStartEventContent;

use super::post;
use crate::model::{Pick, Question, QuestionOption};
use crate::pick::{list, Finder};

/// How many matches a poll offers.
pub const OFFERED: usize = 10;

/// What a reply to a pick comes to.
#[derive(Debug)]
pub enum Reply {
    /// Paths that fit the pick: the answer.
    Picked(Vec<String>),
    /// The best matches, as a poll to send, and the paths of its options in order.
    Offer(Box<NewUnstablePollStartEventContent>, Vec<String>),
    /// Nothing fits: what to say in the thread.
    Nothing(String),
}

/// What `text`, replied to `question`'s pick, comes to. Reads the disk under the root.
pub fn reply(question: &Question, pick: &Pick, text: &str) -> Reply {
    let text = text.trim();
    // One path, or with several to pick, paths between commas.
    let paths: Vec<&str> = if question.multi_select {
        text.split([',', '\n']).map(str::trim).filter(|p| !p.is_empty()).collect()
    } else {
        vec![text]
    };
    if !paths.is_empty() && paths.iter().all(|p| pick.misfit(p).is_none()) {
        return Reply::Picked(paths.into_iter().map(str::to_owned).collect());
    }
    let listing = list(pick, false);
    let best: Vec<String> =
        Finder::default().best(text, &listing.paths, OFFERED).into_iter().map(str::to_owned).collect();
    let mut offered = question.clone();
    offered.question = format!("{} (the best matches for “{text}”)", question.question);
    offered.options = best.iter().map(|p| QuestionOption { label: p.clone(), description: None }).collect();
    match post::poll(&offered) {
        Some(poll) if !best.is_empty() => Reply::Offer(Box::new(poll), best),
        _ => Reply::Nothing(format!("Nothing under {} fits “{text}”: reply with a path or other letters.", pick.root)),
    }
}

/// The paths voted for in an offered poll (its option ids `o1`…), when all are known.
pub fn chosen(offered: &[String], answers: &[String]) -> Option<Vec<String>> {
    let paths: Option<Vec<String>> = answers
        .iter()
        .map(|id| offered.get(id.strip_prefix('o')?.parse::<usize>().ok()?.checked_sub(1)?).cloned())
        .collect();
    paths.filter(|p| !p.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Context, Picked, Request};

    fn tree() -> (tempfile::TempDir, Question, Pick) {
        let dir = tempfile::tempdir().unwrap();
        for f in ["config/dev.toml", "config/prod.toml", "src/main.rs"] {
            let path = dir.path().join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let pick = Pick { of: Picked::Files, root: dir.path().to_str().unwrap().into(), globs: vec![] };
        let mut q = Question::new("cfg", "Which config?");
        q.pick = Some(pick.clone());
        (dir, q, pick)
    }

    #[test]
    fn a_path_answers_and_letters_get_the_best_matches_as_a_poll() {
        let (_dir, q, pick) = tree();
        assert!(matches!(reply(&q, &pick, " config/dev.toml\n"), Reply::Picked(p) if p == ["config/dev.toml"]));
        let Reply::Offer(poll, paths) = reply(&q, &pick, "prd") else { panic!("an offer") };
        assert_eq!(paths, ["config/prod.toml"]);
        let said = poll.text.clone().unwrap_or_default();
        assert!(said.contains("Which config? (the best matches for “prd”)"), "{said}");
        assert_eq!(chosen(&paths, &["o1".into()]), Some(vec!["config/prod.toml".into()]));
        assert_eq!(chosen(&paths, &["o2".into()]), None);
        let Reply::Nothing(said) = reply(&q, &pick, "zzzz") else { panic!("nothing") };
        assert!(
            said.starts_with("Nothing under ") && said.ends_with("fits “zzzz”: reply with a path or other letters.")
        );
        // A path out of the root is letters like any others.
        assert!(matches!(reply(&q, &pick, "../../etc/passwd"), Reply::Nothing(_)));
    }

    #[test]
    fn several_paths_between_commas_answer_a_pick_of_several() {
        let (_dir, mut q, pick) = tree();
        q.multi_select = true;
        let Reply::Picked(paths) = reply(&q, &pick, "config/dev.toml, src/main.rs") else { panic!("picked") };
        assert_eq!(paths, ["config/dev.toml", "src/main.rs"]);
    }

    #[test]
    fn a_pick_from_another_machine_is_not_this_ones() {
        let (_dir, q, _) = tree();
        let mut request = Request { questions: vec![q], agent: None, context: None };
        assert!(request.pick_here(0).is_some());
        request.context = Some(Context { machine: Some("build-box".into()), ..Context::default() });
        assert!(request.pick_here(0).is_none());
    }
}
