//! Plain data of the question service: what an agent asks, what a person answers, and
//! the fixed errors both sides see. No I/O lives here, so every front door (socket,
//! CLI, MCP, desktop) shares one definition of the wire shapes.

mod agent_name;
mod answer;
mod context;
mod error;
pub mod labels;
mod question;

pub use agent_name::AgentName;
pub use answer::{Answer, AnswerItem};
pub use context::{base_name, Context};
pub use error::{jsonrpc, ErrorCode, UserQuestionError};
pub use question::{AgentInfo, AgentRef, AskRequest, Intent, Question, QuestionOption, Request};
