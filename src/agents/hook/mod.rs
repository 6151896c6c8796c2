//! What every agent's hook shares, apart from the agents themselves: how a tool call
//! reads to a person ([`call`], with an edit's changes from [`patch`]), the permission
//! question and its verdict ([`permission`]), and an MCP server's form handed to a hook
//! ([`elicitation`]).

pub mod call;
pub mod elicitation;
pub mod patch;
pub mod permission;
