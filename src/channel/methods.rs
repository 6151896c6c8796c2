//! Every method name of the protocol (docs/protocol.md), in one place: the server,
//! its client, the asker and the answerer all name methods from here, so a rename is
//! one line and a typo does not compile. Tests speak the wire literally on purpose.

/// Client → server: the first request of every connection.
pub const INITIALIZE: &str = "initialize";
/// Client → server: a new live runtime for an agent.
pub const ENTER: &str = "agents/enter";
/// Client → server: an agent (and every agent it owns) goes away.
pub const LEAVE: &str = "agents/leave";
/// Client → server: ask a person; the reply is the answer or the error.
pub const ASK: &str = "ask";
/// Client → server (notification): stop waiting for an ask of this connection.
pub const CANCEL: &str = "$/cancelRequest";
/// Client → server: join the waterfall as an answerer.
pub const REGISTER: &str = "answerers/register";
/// Client → server: leave the waterfall.
pub const UNREGISTER: &str = "answerers/unregister";
/// Client → server: answer an ask this connection's answerer holds.
pub const ANSWER: &str = "questions/answer";
/// Client → server: end a held ask with an error.
pub const REJECT: &str = "questions/reject";
/// Client → server: every ask not yet ended.
pub const PENDING: &str = "questions/pending";
/// Server → answerer: an ask it may pass, claim or answer at once.
pub const OFFER: &str = "questions/offer";
/// Server → answerer (notification): a held ask was withdrawn.
pub const WITHDRAW: &str = "questions/withdraw";
/// Server → answerer (notification): an answer given with the claim did not fit.
pub const BAD_ANSWER: &str = "questions/badAnswer";
