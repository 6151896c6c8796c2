//! `questions/pending`: every ask not yet ended, as observers see it.

use serde::{Deserialize, Serialize};

use super::Empty;
use crate::service::PendingAsk;

method!(Pending = "questions/pending", Empty => PendingReply);

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PendingReply {
    pub pending: Vec<PendingAsk>,
}
