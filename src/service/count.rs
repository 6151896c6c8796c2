//! When one answer here is not the whole decision. A team question (two approvals of
//! three, say) is approved only by enough people; an answer given here (the window, a
//! terminal, a socket answerer, a paired machine) is then the vote of the desk's own
//! person, not the ending. The answerer that keeps the team's count (the Matrix bridge)
//! puts a [`Count`] on the ask before handing it on; [`super::Ask::answer`] gives it
//! every answer from below, and the count says whether that answer ends the ask.

use serde::{Deserialize, Serialize};

use crate::model::Answer;

/// What an answer given here does to a counted ask.
#[derive(Debug, Clone, PartialEq)]
pub enum Vote {
    /// It ends the ask as it is (a no, which ends a team question at once; or a
    /// question the team is not needed for).
    Decides,
    /// It was the vote that was missing: the ask ends with `answer`, decided by `by`
    /// (kept in the history as who decided).
    Completes { answer: Answer, by: String },
    /// Counted: the ask waits for more votes, and the progress says how many.
    Counted(Progress),
}

/// Counts an ask's votes: given every answer from the answerers below it.
pub trait Count: Send + Sync {
    fn vote_here(&self, answer: &Answer) -> Vote;
}

/// Where a team question stands, for whoever shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// Who approved so far, each as they are known (`@alice:server`), the desk's own
    /// person aside (see `yours`).
    pub approved: Vec<String>,
    /// How many more approvals it needs.
    pub needed: usize,
    /// What the desk's own person voted, here or (when named there) in the room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yours: Option<Vec<String>>,
}
