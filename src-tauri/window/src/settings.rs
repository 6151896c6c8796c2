//! What the person chose and the app keeps across restarts ([`user_questions::settings`],
//! shared with `userq deadline`), and the words the window shows in the language
//! picked there.

pub use user_questions::settings::{path, Settings};
use user_questions_i18n::Text;

/// The window's language: `USERQ_LANG` when set (the person said so for this run),
/// else the one picked in the window, else the system's.
pub fn text(settings: &Settings) -> Text {
    match (std::env::var("USERQ_LANG").ok().filter(|v| !v.is_empty()), &settings.language) {
        (None, Some(picked)) => Text::for_tag(picked),
        _ => Text::from_env(),
    }
}
