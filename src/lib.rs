//! User Questions: the place where AI agents' questions reach a person.
//!
//! Layers, each knowing only the ones above it: [`model`] (plain data and errors),
//! [`service`] (`ask()`, the live agent registry, the answerer waterfall, the pending
//! set), [`tool`] (the model-facing `ask_user_question` projection), [`channel`] (the
//! local socket of `docs/protocol.md`: server, client, and the asker that rides out
//! restarts), and the front doors built on them: [`mcp`] (the MCP server of
//! `userq mcp`) and [`agents`] (the agents' own hooks and `userq setup`), which asks
//! MCP servers' forms through [`elicitation`]. Beside the
//! waterfall, [`history`] keeps every ask and the remembered answers as two of its
//! answerers, and [`wording`] shows the product's own labels in the person's
//! language. [`paths`] is the one door to the folders and to writing a file whole.
//! [`host`] starts the service with its history and socket for every door
//! that serves, and [`relay`] carries questions between the paired machines of a
//! circle, sealed end to end through a NATS broker. Nothing here depends on a window
//! toolkit.

pub mod agents;
pub mod batch;
pub mod channel;
pub mod deadline;
pub mod elicitation;
pub mod glance;
pub mod history;
pub mod host;
pub mod matrix;
pub mod mcp;
pub mod model;
pub mod paths;
pub mod pick;
pub mod place;
pub mod policy;
pub mod relay;
pub mod review;
pub mod service;
pub mod settings;
pub mod ssh;
pub mod tls;
pub mod tool;
pub mod wording;

pub use model::{AgentRef, Answer, AnswerItem, AskRequest, ErrorCode, Question, UserQuestionError};
pub use service::{Answerer, Ask, Next, Scope, UserQuestions};
