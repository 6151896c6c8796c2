//! The state of one reading: the command's text and the parts found so far, how a
//! statement gets its input, and what the walk and the words' reader both ask of a
//! word (does it write a file, does an assignment change what runs).

use tree_sitter::Node;

use super::word::Word;
use super::{Folder, Part, Unreadable};

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
    /// The folders what is read now may run in ([`Folder`]).
    pub folder: Folder,
    /// How many loops the walk is inside: a `cd` there may run any number of times.
    pub loops: usize,
}

/// Programs after which a relative path names another file than it did before.
const CHANGES_FOLDER: &[&str] = &["cd", "pushd", "popd"];

impl<'s> Reader<'s> {
    pub fn text(&self, node: Node) -> &'s str {
        node.utf8_text(self.src.as_bytes()).unwrap_or_default()
    }

    /// The paths a part writes, one per folder it may run in; a relative path from a
    /// folder not known is known only when it runs.
    pub fn written(&self, path: Word) -> Vec<Word> {
        match &path {
            Word::Literal(p) => match self.folder.resolve(p) {
                Some(paths) => paths.into_iter().map(Word::Literal).collect(),
                None => vec![Word::Dynamic(p.clone())],
            },
            Word::Dynamic(_) => vec![path],
        }
    }

    /// After a part that ran: where the folder may be now.
    pub fn ran(&mut self, run: &[Word]) {
        let Some(name) = run.first().and_then(Word::literal).map(|p| p.rsplit('/').next().unwrap_or(p)) else {
            return;
        };
        if !CHANGES_FOLDER.contains(&name) {
            return;
        }
        let dir = match run {
            [_] if name == "cd" => Some("~"),
            [_, Word::Literal(dir)] if name != "popd" && !dir.starts_with('-') => Some(dir.as_str()),
            _ => None,
        };
        self.folder = match dir {
            Some(dir) if self.loops == 0 => self.folder.moved_to(dir),
            _ => Folder::Unknown,
        };
    }

    pub fn unreadable(&mut self, node: Node, why: Unreadable) {
        self.unreadable_text(self.text(node), why);
    }

    pub fn unreadable_text(&mut self, text: &str, why: Unreadable) {
        self.parts.push(Part::Unreadable { text: text.to_owned(), why });
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
