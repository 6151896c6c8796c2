//! Every event the app sends the window, by name: the window's bridge (ui/bridge.js,
//! `EVENTS`) names the same ones, and a test holds the two lists together, as
//! `command_names.rs` does for the commands.

/// The asks the window holds changed: the window reads the list again.
pub const QUESTIONS_CHANGED: &str = "questions-changed";
/// The history cannot be kept or written now (`HistoryProblem`), or can again (null).
pub const HISTORY_PROBLEM: &str = "history-problem";
/// The person picked another language (its tag).
pub const LANGUAGE_CHANGED: &str = "language-changed";
/// A notification was clicked: the window shows this ask.
pub const FOCUS_QUESTION: &str = "focus-question";
/// Do not disturb was turned on or off.
pub const DO_NOT_DISTURB: &str = "do-not-disturb";

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [&str; 5] = [QUESTIONS_CHANGED, HISTORY_PROBLEM, LANGUAGE_CHANGED, FOCUS_QUESTION, DO_NOT_DISTURB];

    /// The window listens for exactly the events the app sends.
    #[test]
    fn the_bridge_names_the_same_events() {
        let bridge = include_str!("../../ui/bridge.js");
        let list = &bridge[bridge.find("EVENTS = Object.freeze({").expect("EVENTS in ui/bridge.js")..];
        let list = &list[..list.find("});").unwrap()];
        let mut named: Vec<&str> = list.split('"').skip(1).step_by(2).collect();
        let mut sent = ALL.to_vec();
        named.sort_unstable();
        sent.sort_unstable();
        assert_eq!(named, sent);
    }
}
