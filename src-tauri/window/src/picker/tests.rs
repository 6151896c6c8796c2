use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use user_questions::model::{Context, Kind, Pick, Picked, Question};
use user_questions::{AskRequest, Scope, UserQuestions};

use super::*;

fn en() -> Text {
    Text::for_tag("en")
}
use crate::WindowAnswerer;

/// A tree with text, a binary file, a hidden file, an ignored folder and a link out.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    for (f, body) in [
        ("Cargo.toml", "[package]\nname = \"x\"\n".to_owned()),
        ("src/config/app.toml", "a = 1\n".to_owned()),
        ("src/main.rs", (1..=100).map(|i| format!("line {i}\n")).collect()),
        ("target/debug/x.toml", String::new()),
        (".env", "SECRET=1\n".to_owned()),
    ] {
        let path = root.join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    std::fs::write(root.join("logo.png"), b"\x89PNG\r\n\x1a\n\0\0\0").unwrap();
    std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
    std::fs::write(dir.path().join("outside.txt"), "secret\n").unwrap();
    std::os::unix::fs::symlink(dir.path().join("outside.txt"), root.join("out.txt")).unwrap();
    dir
}

/// The window holding one pick of files under the tree's root: the inbox and the ask.
async fn held(dir: &tempfile::TempDir) -> (UserQuestions, Arc<Inbox>, String) {
    held_from(dir, None).await
}

/// The same, asked from `machine` when there is one.
async fn held_from(dir: &tempfile::TempDir, machine: Option<&str>) -> (UserQuestions, Arc<Inbox>, String) {
    let s = UserQuestions::new();
    let inbox = Inbox::new();
    s.register("window", Scope::Agents, 0, Arc::new(WindowAnswerer(inbox.clone())));
    let mut w = inbox.watch();
    let mut q = Question::new("file", "Which config?");
    let root = dir.path().join("root").to_str().unwrap().to_owned();
    q.pick = Some(Pick { of: Picked::Files, root, globs: Vec::new() });
    let agent = s.enter("bot", None, 0).unwrap();
    let asking = s.clone();
    let context = Context { machine: machine.map(str::to_owned), ..Context::default() };
    let request = AskRequest::new(vec![q]).from_agent(agent).with_context(context);
    tokio::spawn(async move { asking.ask(request, &CancellationToken::new()).await });
    w.changed().await.unwrap();
    let ask = inbox.list()[0].ask.clone();
    (s, inbox, ask)
}

#[tokio::test]
async fn a_search_finds_the_best_paths_with_their_letters_and_hidden_names_on_request() {
    let dir = tree();
    let (_s, inbox, ask) = held(&dir).await;
    let picker = Picker::default();
    let found = picker.find(&inbox, (&ask, "file"), "cfgapp", false, &en()).unwrap();
    assert_eq!(found.paths, [FoundPath { path: "src/config/app.toml".into(), marks: vec![4, 7, 9, 11, 12, 13] }]);
    let all = picker.find(&inbox, (&ask, "file"), "", false, &en()).unwrap();
    let paths: Vec<&str> = all.paths.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["Cargo.toml", "logo.png", "src/config/app.toml", "src/main.rs"]);
    assert_eq!((all.total, all.cut, all.count.as_str()), (4, false, "4 of 4"));
    let zh = picker.find(&inbox, (&ask, "file"), "zzz", false, &Text::for_tag("zh-CN")).unwrap();
    assert_eq!((zh.paths.len(), zh.count.as_str()), (0, "没有匹配项"));
    let hidden = picker.find(&inbox, (&ask, "file"), "env", true, &en()).unwrap();
    assert_eq!(hidden.paths[0].path, ".env");
    assert_eq!(hidden.total, 6, "{hidden:?}");
    let e = picker.find(&inbox, (&ask, "other"), "", false, &en()).unwrap_err();
    assert_eq!(e.code, "BAD_REQUEST");
    assert_eq!(picker.find(&inbox, ("nope", "file"), "", false, &en()).unwrap_err().code, "NOT_PENDING");
}

#[tokio::test]
async fn a_preview_shows_a_text_files_first_lines_a_folders_names_and_nothing_out_of_the_root() {
    let dir = tree();
    let (_s, inbox, ask) = held(&dir).await;
    let Preview::Text { lines, more } = preview(&inbox, (&ask, "file"), "src/main.rs", &en()).unwrap() else {
        panic!()
    };
    assert_eq!((lines.len(), lines[0].as_str(), more), (PREVIEW_LINES, "line 1", true));
    let small = preview(&inbox, (&ask, "file"), "Cargo.toml", &en()).unwrap();
    assert_eq!(small, Preview::Text { lines: vec!["[package]".into(), "name = \"x\"".into()], more: false });
    assert_eq!(
        preview(&inbox, (&ask, "file"), "logo.png", &en()).unwrap(),
        Preview::Binary { bytes: 11, said: "Not text (11 bytes)".into() }
    );
    let folder = preview(&inbox, (&ask, "file"), "src", &en()).unwrap();
    assert_eq!(folder, Preview::Folder { names: vec!["config/".into(), "main.rs".into()], more: false });
    for outside in ["out.txt", "../outside.txt", "/etc/passwd", "missing"] {
        let e = preview(&inbox, (&ask, "file"), outside, &en()).unwrap_err();
        assert_eq!(e.code, "BAD_ANSWER", "{outside}: {e:?}");
    }
}

#[test]
fn a_head_cut_inside_a_character_is_still_text() {
    let head = "第一行\n二".as_bytes();
    let cut = &head[..head.len() - 1];
    assert_eq!(text_lines(cut, true), Some(Preview::Text { lines: vec!["第一行".into()], more: true }));
    assert_eq!(text_lines(cut, false), None);
    assert_eq!(text_lines(b"a\0b", false), None);
}

#[tokio::test]
async fn a_pick_asked_from_another_machine_is_typed_and_nothing_here_is_listed() {
    let dir = tree();
    let (_s, inbox, ask) = held_from(&dir, Some("build-box")).await;
    assert_eq!(inbox.list()[0].presentation, Kind::Generic);
    let e = Picker::default().find(&inbox, (&ask, "file"), "", false, &en()).unwrap_err();
    assert_eq!(e.code, "BAD_REQUEST");
    assert_eq!(preview(&inbox, (&ask, "file"), "Cargo.toml", &en()).unwrap_err().code, "BAD_REQUEST");
}
