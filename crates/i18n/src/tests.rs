//! The catalogs are complete and used: every message in every language, no message
//! the code does not use, none the code uses that is missing, the same arguments in
//! every language; and the language is chosen as a person expects.

use super::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn variables(source: &str, id: &str) -> BTreeSet<String> {
    let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(r, _)| r);
    let mut found = BTreeSet::new();
    for entry in resource.entries() {
        if let fluent_syntax::ast::Entry::Message(m) = entry {
            if m.id.name == id {
                let text = format!("{:?}", m.value);
                for part in text.split("VariableReference { id: Identifier { name: \"").skip(1) {
                    found.insert(part.split('"').next().unwrap_or_default().to_owned());
                }
            }
        }
    }
    found
}

#[test]
fn every_catalog_parses_without_errors() {
    for (tag, source) in sources() {
        if let Err((_, errors)) = FluentResource::try_new(source.to_string()) {
            panic!("locales/{tag}.ftl does not parse: {errors:?}");
        }
        let ids = ids(tag);
        let unique: BTreeSet<&String> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "locales/{tag}.ftl has a message twice");
    }
    assert!(sources().len() >= 2, "English and Simplified Chinese at least");
}

#[test]
fn every_message_is_in_every_catalog_with_the_same_arguments() {
    let english: BTreeSet<String> = ids(FALLBACK).into_iter().collect();
    let en_source = sources().iter().find(|(t, _)| *t == FALLBACK).unwrap().1;
    for (tag, source) in sources() {
        let here: BTreeSet<String> = ids(tag).into_iter().collect();
        let missing: Vec<_> = english.difference(&here).collect();
        let extra: Vec<_> = here.difference(&english).collect();
        assert!(missing.is_empty(), "locales/{tag}.ftl lacks {missing:?}");
        assert!(extra.is_empty(), "locales/{tag}.ftl has messages English does not: {extra:?}");
        for id in &english {
            assert_eq!(
                variables(source, id),
                variables(en_source, id),
                "locales/{tag}.ftl: {id} takes other arguments than in English"
            );
        }
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Rust, JS and HTML under the folders that hold the product's code.
fn code() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "node_modules" && n != "gen") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|x| x == "rs" || x == "js" || x == "html") {
                if path.ends_with("crates/i18n/src/tests.rs") {
                    continue;
                }
                out.push((path.clone(), std::fs::read_to_string(&path).unwrap_or_default()));
            }
        }
    }
    let mut out = Vec::new();
    for dir in ["src", "crates", "src-tauri", "ui"] {
        walk(&repo().join(dir), &mut out);
    }
    assert!(out.len() > 20, "the code was found ({} files)", out.len());
    out
}

/// The message ids the code names: `tr("id")`, `tr_args("id", …)` in Rust and JS,
/// `data-tr="id"` (and `data-tr-placeholder`, `data-tr-label`) in HTML.
fn named_in(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for marker in ["tr(\"", "tr_args(\"", "data-tr=\"", "data-tr-placeholder=\"", "data-tr-label=\""] {
        for part in text.split(marker).skip(1) {
            let id = part.split('"').next().unwrap_or_default();
            if !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit()) {
                found.push(id.to_owned());
            }
        }
    }
    found
}

#[test]
fn every_message_the_code_names_exists() {
    let english: BTreeSet<String> = ids(FALLBACK).into_iter().collect();
    let mut missing = Vec::new();
    for (path, text) in code() {
        for id in named_in(&text) {
            if !english.contains(&id) {
                missing.push(format!("{}: {id}", path.display()));
            }
        }
    }
    assert!(missing.is_empty(), "messages named in the code but in no catalog: {missing:#?}");
}

#[test]
fn every_message_is_used_by_the_code() {
    let code = code();
    let unused: Vec<String> = ids(FALLBACK)
        .into_iter()
        .filter(|id| !code.iter().any(|(_, text)| text.contains(&format!("\"{id}\""))))
        .collect();
    assert!(unused.is_empty(), "messages no code uses: {unused:?}");
}

#[test]
fn plurals_and_arguments_are_fluents() {
    let en = Text::for_tag("en");
    assert_eq!(
        en.tr_args("notice-burst", &[("questions", 5usize.into()), ("agents", 2usize.into())]),
        "5 new questions from 2 agents"
    );
    assert_eq!(
        en.tr_args("notice-burst", &[("questions", 2usize.into()), ("agents", 1usize.into())]),
        "2 new questions from 1 agent"
    );
    assert_eq!(en.tr_args("window-group-count", &[("count", 1usize.into())]), "1 question");
    let zh = Text::for_tag("zh-CN");
    assert_eq!(
        zh.tr_args("notice-burst", &[("questions", 5usize.into()), ("agents", 2usize.into())]),
        "来自 2 个智能体的 5 个新问题"
    );
    assert_eq!(zh.tr("window-submit"), "提交");
    assert_eq!(en.tr("window-submit"), "Submit");
    assert!(!zh.tr_args("window-waiting", &[("count", 3usize.into())]).contains('\u{2068}'), "no isolation marks");
}

#[test]
fn the_language_is_negotiated_and_english_stands_behind_it() {
    for (asked, got) in
        [("zh-CN", "zh-CN"), ("zh", "zh-CN"), ("zh-Hans-CN", "zh-CN"), ("en-GB", "en"), ("fr", "en"), ("!!", "en")]
    {
        assert_eq!(Text::for_tag(asked).tag(), got, "{asked}");
    }
    assert_eq!(Text::for_tag("zh-CN").chain.last().map(|c| c.tag), Some(FALLBACK));
    let names: Vec<String> = languages().into_iter().map(|l| format!("{}={}", l.tag, l.name)).collect();
    assert_eq!(names, ["en=English", "zh-CN=简体中文"]);
}

#[test]
fn the_environment_names_the_language_as_posix_orders_it() {
    // One test owns these variables: tests of one binary share the environment.
    let vars = ["USERQ_LANG", "LC_ALL", "LC_MESSAGES", "LANG"];
    let set = |values: [&str; 4]| {
        for (k, v) in vars.iter().zip(values) {
            std::env::set_var(k, v);
        }
    };
    set(["", "", "", "zh_CN.UTF-8"]);
    assert_eq!(requested_from_env().as_deref(), Some("zh-CN"));
    assert_eq!(Text::from_env().tag(), "zh-CN");
    set(["", "", "en_US.UTF-8", "zh_CN.UTF-8"]);
    assert_eq!(requested_from_env().as_deref(), Some("en-US"));
    set(["", "C", "zh_CN.UTF-8", ""]);
    assert_eq!(requested_from_env(), None);
    set(["zh-CN", "C", "", ""]);
    assert_eq!(Text::from_env().tag(), "zh-CN");
    set(["", "", "", ""]);
    assert_eq!(Text::from_env().tag(), "en");
}
