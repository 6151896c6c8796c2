//! A simple command's words turned into parts: wrappers read through to the command
//! they run, `sh -c 'LITERAL'` read again, `tee`'s files as writes, and the builtins
//! that run text nobody can see (`eval`, `source`, …) unreadable.

use super::reader::{changes_what_runs, writes_nothing, Fed, Reader};
use super::word::Word;
use super::{Part, Run, Unreadable};

/// Builtins that run text or change what later names mean.
const RUNS_TEXT: &[&str] =
    &["eval", "source", ".", "trap", "coproc", "alias", "unalias", "enable", "fc", "hash", "shopt", "set"];

/// Interpreters: fed their program on stdin, they run what nobody sees.
const INTERPRETERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "fish",
    "csh",
    "tcsh",
    "busybox",
    "python",
    "python2",
    "python3",
    "node",
    "nodejs",
    "deno",
    "bun",
    "perl",
    "ruby",
    "php",
    "lua",
    "tclsh",
    "wish",
    "Rscript",
    "pwsh",
    "osascript",
    "jshell",
    "irb",
    "ghci",
];

/// Shells whose `-c` takes a program text.
const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "mksh"];

/// The words of one simple command, before wrappers are read through.
pub struct Words {
    pub words: Vec<Word>,
    pub text: String,
    pub fed: Fed,
}

impl Words {
    pub fn run(self, reader: &mut Reader) {
        let Words { words, text, fed } = self;
        read_through(reader, words, false, &text, fed);
    }
}

fn unreadable(reader: &mut Reader, text: &str, why: Unreadable) {
    reader.parts.push(Part::Unreadable { text: text.to_owned(), why });
}

/// Reads `words` as the command bash runs, reading wrappers through; `open`: more
/// words come at run time.
fn read_through(reader: &mut Reader, words: Vec<Word>, open: bool, text: &str, fed: Fed) {
    let Some(first) = words.first() else { return };
    let Some(program) = first.literal() else {
        return unreadable(reader, text, Unreadable::DynamicProgram);
    };
    let name = program.rsplit('/').next().unwrap_or(program).to_owned();
    let rest = || words[1..].to_vec();
    match name.as_str() {
        n if RUNS_TEXT.contains(&n) => unreadable(reader, text, Unreadable::RunsText(n.to_owned())),
        "exec" | "builtin" | "nohup" | "time" | "command" => {
            let args = rest();
            let skip = leading_options(
                &args,
                match name.as_str() {
                    "exec" => &["-a"],
                    _ => &[],
                },
            );
            if name == "command" && args[..skip].iter().any(|w| matches!(w.literal(), Some("-v" | "-V"))) {
                // `command -v x` looks a name up; it runs nothing.
                return push_run(reader, words, open, text);
            }
            if skip == args.len() {
                if name != "exec" {
                    push_run(reader, words, open, text);
                }
                return;
            }
            read_through(reader, args[skip..].to_vec(), open, text, fed)
        }
        "env" => {
            let args = rest();
            let mut i = 0;
            while let Some(w) = args.get(i) {
                match w.literal() {
                    Some("-i" | "-0" | "--null" | "--ignore-environment" | "-") => i += 1,
                    Some("-u" | "--unset" | "-C" | "--chdir") => i += 2,
                    Some("--") => {
                        i += 1;
                        break;
                    }
                    Some(s) if s.starts_with("-S") || s.starts_with("--split-string") => {
                        return unreadable(reader, text, Unreadable::RunsText("env -S".into()))
                    }
                    Some(s) if s.starts_with('-') => i += 1,
                    Some(s) if s.contains('=') => {
                        let var = s.split('=').next().unwrap_or_default();
                        if changes_what_runs(var) {
                            return unreadable(reader, text, Unreadable::ChangesWhatRuns(var.to_owned()));
                        }
                        i += 1
                    }
                    Some(_) => break,
                    None => {
                        let shown = w.shown().to_owned();
                        if shown.contains('=') {
                            // `env $X=…`: the name itself is not known.
                            return unreadable(reader, text, Unreadable::ChangesWhatRuns(shown));
                        }
                        break;
                    }
                }
            }
            match args.get(i..) {
                Some(cmd) if !cmd.is_empty() => read_through(reader, cmd.to_vec(), open, text, fed),
                _ => push_run(reader, words, open, text),
            }
        }
        "timeout" => {
            let args = rest();
            let skip = leading_options(&args, &["-s", "-k", "--signal", "--kill-after"]);
            // The duration, then the command.
            match args.get(skip + 1..) {
                Some(cmd) if !cmd.is_empty() => read_through(reader, cmd.to_vec(), open, text, fed),
                _ => push_run(reader, words, open, text),
            }
        }
        "nice" | "stdbuf" | "ionice" | "setsid" | "chrt" | "taskset" => {
            let args = rest();
            let skip = leading_options(&args, &["-n", "--adjustment", "-i", "-o", "-e", "-c", "-p", "-t"]);
            // chrt and taskset take a value before the command.
            let skip = if matches!(name.as_str(), "chrt" | "taskset") { skip + 1 } else { skip };
            match args.get(skip..) {
                Some(cmd) if !cmd.is_empty() => read_through(reader, cmd.to_vec(), open, text, fed),
                _ => push_run(reader, words, open, text),
            }
        }
        "xargs" => {
            let args = rest();
            let skip = leading_options(
                &args,
                &[
                    "-a",
                    "-d",
                    "-E",
                    "-e",
                    "-I",
                    "-L",
                    "-l",
                    "-n",
                    "-P",
                    "-s",
                    "--arg-file",
                    "--delimiter",
                    "--eof",
                    "--max-args",
                    "--max-lines",
                    "--max-procs",
                    "--max-chars",
                    "--replace",
                ],
            );
            match args.get(skip..) {
                Some(cmd) if !cmd.is_empty() => read_through(reader, cmd.to_vec(), true, text, Fed::No),
                _ => push_run(reader, vec![Word::Literal("echo".into())], true, text),
            }
        }
        "find" => find(reader, words, open, text),
        "tee" => {
            for w in &words[1..] {
                if w.literal().is_none_or(|s| !s.starts_with('-')) && !writes_nothing(w) {
                    let path = reader.written(w.clone());
                    reader.parts.push(Part::Write { path, text: text.to_owned() });
                }
            }
            push_run(reader, words, open, text)
        }
        n if SHELLS.contains(&n) => shell(reader, words, open, text, fed),
        n if INTERPRETERS.contains(&n) && fed == Fed::Yes && reads_program_from_stdin(&words) => {
            unreadable(reader, text, Unreadable::FedToInterpreter(n.to_owned()))
        }
        _ => push_run(reader, words, open, text),
    }
}

/// An interpreter given no program of its own (only options, or `-`) reads it from
/// its input.
fn reads_program_from_stdin(words: &[Word]) -> bool {
    words[1..].iter().all(|w| w.literal().is_some_and(|s| s.starts_with('-') || s == "/dev/stdin"))
}

fn push_run(reader: &mut Reader, argv: Vec<Word>, open: bool, text: &str) {
    reader.parts.push(Part::Run(Run { argv, open, text: text.to_owned() }));
}

/// How many leading words are options (with the values `valued` options take).
fn leading_options(args: &[Word], valued: &[&str]) -> usize {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let Some(s) = w.literal() else { break };
        if s == "--" {
            return i + 1;
        }
        if !s.starts_with('-') || s == "-" {
            break;
        }
        i += if valued.contains(&s) { 2 } else { 1 };
    }
    i.min(args.len())
}

/// `find`: its own part, with each `-exec`/`-execdir`/`-ok`/`-okdir` clause taken out
/// and read as the command it runs (its `{}` a word known only at run time).
fn find(reader: &mut Reader, words: Vec<Word>, open: bool, text: &str) {
    let mut kept = Vec::new();
    let mut execs = Vec::new();
    let mut it = words.into_iter();
    while let Some(w) = it.next() {
        if matches!(w.literal(), Some("-exec" | "-execdir" | "-ok" | "-okdir")) {
            let mut cmd = Vec::new();
            for w in it.by_ref() {
                if matches!(w.literal(), Some(";" | "+")) {
                    break;
                }
                cmd.push(if w.literal() == Some("{}") { Word::Dynamic("{}".into()) } else { w });
            }
            execs.push(cmd);
        } else {
            kept.push(w);
        }
    }
    push_run(reader, kept, open, text);
    for cmd in execs {
        if cmd.is_empty() {
            unreadable(reader, text, Unreadable::Unknown("find -exec".into()));
        } else {
            read_through(reader, cmd, true, text, Fed::No);
        }
    }
}

/// `sh -c 'PROGRAM'` is read again as a command of its own; a shell with no program
/// fed by a pipe is unreadable; `sh script.sh` is a program like any other.
fn shell(reader: &mut Reader, words: Vec<Word>, open: bool, text: &str, fed: Fed) {
    let name = words[0].shown().rsplit('/').next().unwrap_or_default().to_owned();
    let mut i = 1;
    let mut command_string = false;
    while let Some(w) = words.get(i) {
        match w.literal() {
            Some("--") => {
                i += 1;
                break;
            }
            Some("-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file") => i += 2,
            Some(s) if (s.starts_with('-') || s.starts_with('+')) && s.len() > 1 => {
                if !s.starts_with("--") && s.contains('c') {
                    command_string = true;
                }
                i += 1;
            }
            _ => break,
        }
    }
    if command_string {
        return match words.get(i) {
            Some(Word::Literal(program)) => reader.again.push(program.clone()),
            Some(other) => unreadable(reader, text, Unreadable::DynamicScript(other.shown().to_owned())),
            None => unreadable(reader, text, Unreadable::DynamicScript(name)),
        };
    }
    if words.get(i).is_none() && (fed == Fed::Yes || open) {
        return unreadable(reader, text, Unreadable::FedToInterpreter(name));
    }
    push_run(reader, words, open, text)
}
