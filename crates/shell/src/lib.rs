//! The reader of shell commands: a command read the way bash will run it, as the list
//! of its parts. It parses with tree-sitter-bash (the grammar Codex reads commands
//! with; docs/dependencies.md says why), never by splitting on spaces or `&&`, and
//! walks every place bash runs something: lists and pipelines, subshells and groups,
//! the bodies of `if`, `for`, `while` and `case`, the commands inside `$(…)`, backticks
//! and `<(…)`/`>(…)` wherever they stand (inside double quotes and unquoted
//! here-documents too). A redirection that writes a file is a part of its own.
//! Wrappers (`env`, `timeout`, `nice`, `nohup`, `time`, `command`, `exec`, `xargs`,
//! `find -exec`, `sh -c 'LITERAL'`) are read through to the command they run.
//!
//! What cannot be read with certainty is a part of its own, [`Part::Unreadable`],
//! saying why; the policy never allows one. This module knows nothing of rules: it
//! says what would run, and the policy (`user_questions::policy`) judges it. It is a crate
//! of its own so that it is fuzzed alone, in seconds of building.

mod command;
mod folder;
pub mod grammar;
mod reader;
mod walk;
mod word;

pub use folder::Folder;
pub use reader::HARMLESS;
pub use word::Word;

/// A command longer than this is the person's: no one reviews a longer one by eye,
/// and Claude Code asks for every command over 10,000 characters too.
pub const MAX_LEN: usize = 10_000;

/// How deep the reader goes into nested substitutions, groups and `sh -c` before it
/// calls a command unreadable: deeper than any command a person writes, shallow
/// enough that no input can exhaust the stack.
pub const MAX_DEPTH: usize = 64;

/// One thing a command does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// A program run with these words.
    Run(Run),
    /// A file written by a redirection (`> path`, `>> path`, `&> path`) or by `tee`.
    Write { path: Word, text: String },
    /// A file read by a redirection (`< path`).
    Read { path: String, text: String },
    /// Something that cannot be read with certainty.
    Unreadable { text: String, why: Unreadable },
}

impl Part {
    /// The part's own text, as it stands in the command.
    pub fn text(&self) -> &str {
        match self {
            Part::Run(run) => &run.text,
            Part::Write { text, .. } | Part::Read { text, .. } | Part::Unreadable { text, .. } => text,
        }
    }
}

/// A program and its words, wrappers read through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The words bash passes the program, the program's name first.
    pub argv: Vec<Word>,
    /// More words come at run time (`xargs CMD`, `find … -exec CMD {} +`).
    pub open: bool,
    /// The part's text in the command.
    pub text: String,
    /// The folders it may run in (`cd`, `pushd`, `env -C` before it in its list): its
    /// relative paths are found from them, and a program that finds its
    /// configuration from the folder (git, its repository) may find another.
    pub folder: Folder,
}

impl Run {
    /// The program's name: the last component of a path (`/usr/bin/sudo` is `sudo`).
    pub fn name(&self) -> Option<&str> {
        let first = self.argv.first()?.literal()?;
        Some(first.rsplit('/').next().unwrap_or(first))
    }

    /// Whether the program is named by a path (`./build.sh`, `/usr/bin/rm`).
    pub fn by_path(&self) -> bool {
        self.argv.first().and_then(Word::literal).is_some_and(|w| w.contains('/'))
    }
}

/// Why a part cannot be read with certainty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// The parser could not read the command as bash.
    Syntax,
    /// A variable, a substitution or a glob names the program.
    DynamicProgram,
    /// `eval`, `source`, `.`, `trap`, `coproc`, `alias` and their kind run text.
    RunsText(String),
    /// A function defined in the command: its name may hide any program.
    DefinesFunction(String),
    /// A shell or interpreter fed its program by a pipe or a here-document.
    FedToInterpreter(String),
    /// An assignment that changes what runs (`PATH`, `LD_PRELOAD`, …).
    ChangesWhatRuns(String),
    /// A `/dev/tcp` or `/dev/udp` redirection: a network connection.
    Network,
    /// `sh -c` with a program that is not a literal.
    DynamicScript(String),
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// Longer than [`MAX_LEN`].
    TooLong,
    /// Sets a variable the way a script does (`declare`, `for NAME`, `${x:=…}`), or
    /// evaluates arithmetic or a subscript, which runs the substitutions a value
    /// holds.
    Evaluates(String),
    /// A file read by a redirection named only when it runs (`< $X` may be
    /// `/dev/tcp/…`).
    DynamicInput,
    /// A construct the reader does not know.
    Unknown(String),
}

impl Unreadable {
    /// A stable name, for JSON and the catalogs.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Syntax => "syntax",
            Self::DynamicProgram => "dynamic-program",
            Self::RunsText(_) => "runs-text",
            Self::DefinesFunction(_) => "defines-function",
            Self::FedToInterpreter(_) => "fed-to-interpreter",
            Self::ChangesWhatRuns(_) => "changes-what-runs",
            Self::Network => "network",
            Self::DynamicScript(_) => "dynamic-script",
            Self::TooDeep => "too-deep",
            Self::TooLong => "too-long",
            Self::Evaluates(_) => "evaluates",
            Self::DynamicInput => "dynamic-input",
            Self::Unknown(_) => "unknown",
        }
    }

    /// The name the reason is about (`eval`, `PATH`), if any.
    pub fn subject(&self) -> Option<&str> {
        match self {
            Self::RunsText(s)
            | Self::DefinesFunction(s)
            | Self::FedToInterpreter(s)
            | Self::ChangesWhatRuns(s)
            | Self::DynamicScript(s)
            | Self::Evaluates(s)
            | Self::Unknown(s) => Some(s),
            _ => None,
        }
    }
}

/// A command read: every part, in the order bash meets them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reading {
    pub parts: Vec<Part>,
}

/// Reads `command` as bash would run it. Never panics; any input gets a reading.
pub fn read(command: &str) -> Reading {
    if command.len() > MAX_LEN {
        let text = command.chars().take(80).collect::<String>() + "…";
        return Reading { parts: vec![Part::Unreadable { text, why: Unreadable::TooLong }] };
    }
    walk::read(command, 0, Folder::default())
}

/// Text that bash reads otherwise than tree-sitter-bash, seen in the source itself,
/// at every depth (a program of `sh -c` is checked as the whole command is):
/// - a control character other than a tab or a newline: a NUL ends the word bash
///   hands a program, and tree-sitter-bash takes a carriage return, a vertical tab or
///   a form feed for a blank where bash reads each as a letter of its word (`xargs
///   \r-x` runs the program `\r-x`);
/// - a backslash-newline between two letters: bash removes it wherever it stands, in
///   double quotes and here-documents too, and joins them (`"$\⏎(rm x)"` is a
///   substitution, `EO\⏎F` ends a here-document);
/// - `<<-`, whose body bash reads with its leading tabs taken out;
/// - a redirection to a named descriptor, `{NAME}>&2`, by which bash sets `NAME`.
pub(crate) fn read_otherwise(command: &str) -> bool {
    if command.chars().any(|c| c.is_ascii_control() && c != '\t' && c != '\n') {
        return true;
    }
    let bytes = command.as_bytes();
    let blank = |b: Option<&u8>| b.is_none_or(|b| *b == b' ' || *b == b'\t');
    let joins = command.match_indices("\\\n").any(|(at, _)| {
        let before = at.checked_sub(1).map(|i| &bytes[i]);
        at == 0 || !blank(before) && !blank(bytes.get(at + 2))
    });
    let named_descriptor = command.match_indices('{').any(|(at, _)| {
        let rest = &command[at + 1..];
        let name_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        name_len > 0 && rest[name_len..].starts_with('}') && rest[name_len + 1..].starts_with(['<', '>'])
    });
    joins || command.contains("<<-") || named_descriptor
}

#[cfg(test)]
mod tests;
