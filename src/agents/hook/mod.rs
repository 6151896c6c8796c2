//! What every agent's hook shares, apart from the agents themselves: how a tool call
//! reads to a person ([`call`], with an edit's changes from [`patch`]), the permission
//! question and its verdict ([`permission`]), the policy's decision before anyone is
//! asked ([`by_policy`]), and an MCP server's form handed to a hook ([`elicitation`]).

pub mod by_policy;
pub mod call;
pub mod elicitation;
pub mod patch;
pub mod permission;
