//! The window's logic, without Tauri: the inbox of asks the window answerer holds and
//! the view model the webview renders (each ask's questions, its origin, its detail
//! as sanitized HTML, whether it is a plan review or a permission prompt), the
//! markdown renderer, and what notifications say. The desktop crate (`src-tauri`)
//! wires these to a real window, tray and notification server; everything here is
//! covered by the fast `cargo test` at the root, with no WebKit to build.

pub mod agents;
pub mod deadline;
pub mod error;
pub mod history;
pub mod inbox;
pub mod list;
pub mod machines;
pub mod markdown;
pub mod matrix;
pub mod notice;
pub mod page;
pub mod picker;
pub mod pictures;
pub mod remember;
pub mod revision;
pub mod rules;
pub mod settings;

#[cfg(test)]
mod bindings;

pub use error::UiError;
pub use inbox::{presented, AgentView, AskView, Inbox, QuestionView, WindowAnswerer};
pub use list::ListView;
pub use user_questions_i18n::Text;
