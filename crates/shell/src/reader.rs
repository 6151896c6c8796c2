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
        let moved = self.parts.iter().any(|p| match p {
            Part::Run(run) => run.name().is_some_and(|n| CHANGES_FOLDER.contains(&n)),
            _ => false,
        });
        match path {
            Word::Literal(p) if moved && !p.starts_with('/') && !p.starts_with('~') => Word::Dynamic(p),
            other => other,
        }
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

/// Names whose value changes which program runs, or what it loads: never read as
/// harmless.
pub fn changes_what_runs(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "PATH",
        "BASH_ENV",
        "ENV",
        "IFS",
        "SHELLOPTS",
        "BASHOPTS",
        "PS4",
        "PROMPT_COMMAND",
        "CDPATH",
        "GLOBIGNORE",
        "PAGER",
        "MANPAGER",
        "EDITOR",
        "VISUAL",
        "BROWSER",
        "LESSOPEN",
        "LESSCLOSE",
        "NODE_OPTIONS",
        "PYTHONPATH",
        "PYTHONSTARTUP",
        "PYTHONHOME",
        "PERL5OPT",
        "PERL5LIB",
        "RUBYOPT",
        "RUBYLIB",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
    ];
    const PREFIXES: &[&str] = &["LD_", "DYLD_", "GIT_", "BASH_FUNC_"];
    NAMES.contains(&name) || PREFIXES.iter().any(|p| name.starts_with(p))
}
