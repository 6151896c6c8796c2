//! The state of one reading: the command's text and the parts found so far, how a
//! statement gets its input, and what the walk and the words' reader both ask of a
//! word (does it write a file, does an assignment change what runs).

use tree_sitter::Node;

use super::word::Word;
use super::{Part, Unreadable};

/// Whether a statement reads its input from a pipe or a here-document: a shell or an
/// interpreter fed that way runs a program nobody can see here.
#[derive(Clone, Copy, PartialEq)]
pub enum Fed {
    No,
    Yes,
}

pub struct Reader<'s> {
    pub src: &'s str,
    pub parts: Vec<Part>,
    /// Programs of `sh -c 'LITERAL'` met by the words' reader, to be read again at
    /// this depth plus one, where they stand.
    pub again: Vec<String>,
    /// Whether the folder may have moved (`cd`, `env -C`, `git -C`) before what is
    /// read now, here or in the command around this one.
    pub moved: bool,
}

/// Programs after which a relative path names another file than it did before.
const CHANGES_FOLDER: &[&str] = &["cd", "pushd", "popd"];

impl<'s> Reader<'s> {
    pub fn text(&self, node: Node) -> &'s str {
        node.utf8_text(self.src.as_bytes()).unwrap_or_default()
    }

    /// A path a part writes: after a `cd` earlier in the command a relative path is
    /// known only when it runs.
    pub fn written(&self, path: Word) -> Word {
        let moved = self.folder_moved();
        match path {
            Word::Literal(p) if moved && !p.starts_with('/') && !p.starts_with('~') => Word::Dynamic(p),
            other => other,
        }
    }

    /// Whether the folder may have moved by now: for a command read inside this one.
    pub fn folder_moved(&self) -> bool {
        self.moved || self.parts.iter().any(moves_folder)
    }

    pub fn unreadable(&mut self, node: Node, why: Unreadable) {
        self.unreadable_text(self.text(node), why);
    }

    pub fn unreadable_text(&mut self, text: &str, why: Unreadable) {
        self.parts.push(Part::Unreadable { text: text.to_owned(), why });
    }
}

/// Whether a part moves the folder for what follows it.
fn moves_folder(part: &Part) -> bool {
    let Part::Run(run) = part else { return false };
    let words = || run.argv.iter().filter_map(Word::literal);
    match run.name() {
        Some(n) if CHANGES_FOLDER.contains(&n) => true,
        Some("git") => words().any(|w| w == "-C"),
        _ => false,
    }
}

pub fn is_fd(p: &str) -> bool {
    p == "-" || (!p.is_empty() && p.trim_end_matches('-').chars().all(|c| c.is_ascii_digit()))
}

/// Destinations that keep nothing.
pub fn writes_nothing(path: &Word) -> bool {
    matches!(path.literal(), Some("/dev/null" | "/dev/stdout" | "/dev/stderr"))
        || path.literal().is_some_and(|p| p.strip_prefix("/dev/fd/").is_some_and(is_fd))
}

/// The variables that may be set in a command read as harmless: they change how text
/// looks, never what runs or what a program reads. `LC_*` is every locale category.
pub const HARMLESS: &[&str] = &[
    "LANG",
    "LANGUAGE",
    "LC_*",
    "TZ",
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "TERM",
    "COLUMNS",
    "LINES",
    "RUST_BACKTRACE",
    "RUST_LOG",
];

/// Whether setting `name` can change what runs or what a program reads: every name
/// but the [`HARMLESS`] ones.
pub fn changes_what_runs(name: &str) -> bool {
    let locale = name.strip_prefix("LC_").is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_uppercase()));
    !(locale || (HARMLESS.contains(&name) && !name.contains('*')))
}
