//! `questions/pending`: every ask not yet ended, as observers see it.

use serde::{Deserialize, Serialize};

use super::{Empty, Method};
use crate::service::PendingAsk;

pub struct Pending;

impl Method for Pending {
    const NAME: &'static str = "questions/pending";
    type Params = Empty;
    type Reply = PendingReply;
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PendingReply {
    pub pending: Vec<PendingAsk>,
}
