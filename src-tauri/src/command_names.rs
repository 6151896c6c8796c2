// The window's commands, by name: read by build.rs (each one then needs a permission,
// so the window gets exactly those capabilities/default.json grants) and by the test
// that holds this list, `tauri::generate_handler!` and the capability file together.
pub const COMMAND_NAMES: [&str; 17] = [
    "list_questions",
    "answer_question",
    "request_changes",
    "review_plan",
    "save_picture",
    "dismiss_question",
    "save_draft",
    "status",
    "hide_window",
    "renew_page",
    "ui_text",
    "set_language",
    "history_page",
    "list_rules",
    "remove_rule",
    "relay_status",
    "relay_invite",
];
