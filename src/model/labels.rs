//! The product's own intents and the labels of their options: what a model reads in an
//! answer, in every language (a UI shows them translated; see `wording`). Agents' hooks
//! map these back to their own decisions.

/// A permission prompt: may the agent do this?
pub const PERMISSION: &str = "permission";
pub const ALLOW: &str = "Allow";
pub const DENY: &str = "Deny";
/// Allow, kept as a rule of the agent's session: a choice of a door (the phone's poll),
/// never a label an asker reads.
pub const ALLOW_SESSION: &str = "Allow for this session";
/// The sentence an agent reads when the person pressed Deny.
pub const DENIED: &str = "The user denied this in User Questions.";

/// A plan under review.
pub const PLAN_REVIEW: &str = "plan-review";
pub const APPROVE: &str = "Approve";
pub const REVISE: &str = "Revise";
/// A plan approval that also switches the agent's session to accepting edits.
pub const APPROVE_EDITS: &str = "Approve and auto-accept edits";
pub const PLAN_QUESTION: &str = "Approve this plan?";
pub const PLAN_HEADER: &str = "Plan review";

/// An MCP server's form (an elicitation): send the values, or decline.
pub const ELICITATION: &str = "elicitation";
pub const SEND: &str = "Send";
pub const DECLINE: &str = "Decline";
/// A server's request to open a page (MCP's URL mode): open it, or decline.
pub const OPEN: &str = "Open";

/// Changed code under review (the seed's "diff-preview confirmation"): Approve, or
/// Request changes with the review.
pub const CODE_REVIEW: &str = "code-review";
pub const REQUEST_CHANGES: &str = "Request changes";
pub const REVIEW_QUESTION: &str = "Approve these changes?";
pub const REVIEW_HEADER: &str = "Code review";
