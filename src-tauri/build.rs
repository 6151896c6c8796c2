fn main() {
    // Declaring the app's commands makes each one need a permission, so the window
    // gets exactly the ones capabilities/default.json grants.
    let commands = &["list_questions", "answer_question", "dismiss_question", "save_draft", "status", "hide_window"];
    tauri_build::try_build(
        tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(commands)),
    )
    .expect("tauri build");
}
