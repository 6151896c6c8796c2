//! The terminal's file pick: the paths under the root, found as you type (inquire's
//! fuzzy filter over the listing every door uses), one or several; Esc skips it. A
//! root with nothing to pick falls back to the typed question.

use inquire::{InquireError, MultiSelect, Select};
use user_questions::model::{AnswerItem, Pick, Question};

use super::{ask_one, titled};
use crate::tr;

/// A file pick: the paths under its root, found as you type (inquire's fuzzy filter);
/// Esc skips it.
pub(super) fn paths(q: &Question, pick: &Pick) -> Result<Option<AnswerItem>, InquireError> {
    let title = titled(q);
    println!("{}", tr().tr_args("answer-pick-under", &[("root", pick.root.as_str().into())]));
    let listing = user_questions::pick::list(pick, false);
    if listing.paths.is_empty() {
        println!("{}", tr().tr("answer-pick-none"));
        return ask_one(q, None);
    }
    let picked = if q.multi_select {
        MultiSelect::new(&title, listing.paths)
            .with_help_message(&tr().tr("answer-help-pick-multi"))
            .prompt_skippable()?
    } else {
        let one =
            Select::new(&title, listing.paths).with_help_message(&tr().tr("answer-help-pick")).prompt_skippable()?;
        one.map(|p| vec![p])
    };
    Ok(Some(match picked {
        Some(paths) => AnswerItem { id: q.id.clone(), selected: paths, custom: None },
        None => AnswerItem::skipped(&q.id),
    }))
}
