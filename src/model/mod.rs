//! Plain data of the question service: what an agent asks, what a person answers, and
//! the fixed errors both sides see. No I/O lives here but a file pick's look at the
//! disk (`pick`), so every front door (socket, CLI, MCP, desktop) shares one
//! definition of the wire shapes and of the answer that fits them.

mod agent_name;
mod answer;
mod context;
mod error;
mod kind;
pub mod labels;
mod pick;
mod question;

pub use agent_name::AgentName;
pub use answer::{Answer, AnswerItem};
pub use context::{base_name, Context};
pub use error::{jsonrpc, ErrorCode, UserQuestionError};
pub use kind::{Kind, Lapse, OwnLabel, OwnTitle};
pub use pick::{Pick, Picked};
pub use question::{AgentInfo, AgentRef, AskRequest, Intent, Question, QuestionOption, Request};
