//! The local socket of docs/protocol.md: JSON-RPC 2.0 over lines on a Unix socket, bound to
//! one [`crate::UserQuestions`]. The server takes its listener and a shutdown signal as
//! arguments, so tests run it in a temp folder and stop it when they like; the client
//! is what `userq` and the MCP server speak through.

pub mod answering;
pub mod asker;
mod backoff;
pub mod bridge;
pub mod client;
mod connection;
mod frame;
mod outbox;
pub mod peer;
pub mod protocol;
mod remote;
pub mod rpc;
pub mod server;
mod session;

/// The protocol versions this server speaks.
pub const PROTOCOL_VERSION: u64 = 1;
/// The longest line either side accepts, not counting its `\n`.
pub const MAX_FRAME: usize = 1_048_576;
