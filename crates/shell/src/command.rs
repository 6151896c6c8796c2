//! A simple command's words turned into parts: wrappers read through to the command
//! they run, `sh -c 'LITERAL'` read again, `tee`'s files as writes, and the builtins
//! that run text nobody can see (`eval`, `source`, …) unreadable.

use super::grammar::{Arg, Grammar};
use super::reader::{changes_what_runs, writes_nothing, Fed, Reader};
use super::word::Word;
use super::{Folder, Part, Run, Unreadable};

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

const fn wrapper(flags: &'static str, valued: &'static str, long: &'static [&'static str]) -> Grammar {
    Grammar { flags, valued, optional: "", long, operands: None, permute: false }
}

/// The wrappers' options as getopt reads them (GNU coreutils, util-linux, findutils,
/// bash). An option not here makes the wrapper unreadable: it may take a value that
/// hides the command, or run one of its own. Left out on purpose: `env -S` (splits a
/// string into a command), `xargs --process-slot-var` (sets a variable), `time -o`
/// (writes a file; bash's own `time` takes only `-p`).
const WRAPPERS: &[(&str, Grammar)] = &[
    ("env", wrapper("i0v", "uC", &["ignore-environment", "null", "unset=", "chdir=", "debug", "help", "version"])),
    ("timeout", wrapper("v", "sk", &["foreground", "kill-after=", "signal=", "preserve-status", "verbose"])),
    ("nice", wrapper("", "n", &["adjustment="])),
    ("nohup", wrapper("", "", &[])),
    ("stdbuf", wrapper("", "ioe", &["input=", "output=", "error="])),
    ("ionice", wrapper("t", "cn", &["class=", "classdata=", "ignore"])),
    ("setsid", wrapper("cfw", "", &["ctty", "fork", "wait"])),
    (
        "chrt",
        wrapper(
            "abdefiorRvm",
            "TPD",
            &[
                "all-tasks",
                "batch",
                "deadline",
                "fifo",
                "idle",
                "other",
                "rr",
                "reset-on-fork",
                "verbose",
                "max",
                "sched-runtime=",
                "sched-period=",
                "sched-deadline=",
            ],
        ),
    ),
    ("taskset", wrapper("ac", "", &["all-tasks", "cpu-list"])),
    ("time", wrapper("p", "", &[])),
    ("command", wrapper("pvV", "", &[])),
    ("exec", wrapper("cl", "a", &[])),
    ("builtin", wrapper("", "", &[])),
    (
        "xargs",
        Grammar {
            flags: "0prtx",
            valued: "EdILnPs",
            optional: "eil",
            long: &[
                "null",
                "delimiter=",
                "eof=?",
                "replace=?",
                "max-lines=?",
                "max-args=",
                "max-procs=",
                "max-chars=",
                "no-run-if-empty",
                "interactive",
                "verbose",
                "exit",
                "open-tty",
                "show-limits",
            ],
            operands: None,
            permute: false,
        },
    ),
];

/// How many words a wrapper takes before the command it runs, beyond its options.
fn before_command(name: &str) -> usize {
    match name {
        "timeout" | "chrt" | "taskset" => 1,
        _ => 0,
    }
}

/// Reads `words` as the command bash runs, reading wrappers through; `open`: more
/// words come at run time.
fn read_through(reader: &mut Reader, words: Vec<Word>, open: bool, text: &str, fed: Fed) {
    let Some(first) = words.first() else { return };
    let Some(program) = first.literal() else {
        return unreadable(reader, text, Unreadable::DynamicProgram);
    };
    let name = program.rsplit('/').next().unwrap_or(program).to_owned();
    match name.as_str() {
        n if RUNS_TEXT.contains(&n) => unreadable(reader, text, Unreadable::RunsText(n.to_owned())),
        n if WRAPPERS.iter().any(|(w, _)| *w == n) => wrapped(reader, words, open, text, fed),
        "find" => find(reader, words, open, text),
        "tee" => {
            for w in &words[1..] {
                if w.literal().is_none_or(|s| !s.starts_with('-')) && !writes_nothing(w) {
                    for path in reader.written(w.clone()) {
                        reader.parts.push(Part::Write { path, text: text.to_owned() });
                    }
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

/// A wrapper: its options read by its grammar, then the command it runs read
/// through. A word known only when it runs where an option may stand, or an option
/// its grammar does not know, is unreadable.
fn wrapped(reader: &mut Reader, words: Vec<Word>, open: bool, text: &str, fed: Fed) {
    let name = words[0].shown().rsplit('/').next().unwrap_or_default().to_owned();
    let Some((_, grammar)) = WRAPPERS.iter().find(|(w, _)| *w == name) else { return };
    // The options end at the first word that is not one; a word known only when it
    // runs must be plain text there, or it may be an option.
    let known: Vec<&str> = words[1..].iter().map_while(Word::literal).collect();
    let args = match grammar.parse(&known) {
        Ok(args) => args,
        Err(misfit) => return unreadable(reader, text, Unreadable::Unknown(format!("{name} {}", misfit.word()))),
    };
    let first_operand = args.iter().position(|a| matches!(a, Arg::Operand(_)));
    let options = &args[..first_operand.unwrap_or(args.len())];
    let used: usize = 1 + known.len() - args[options.len()..].len();
    if first_operand.is_none() && known.len() + 1 < words.len() && !words[known.len() + 1].never_an_option() {
        return unreadable(reader, text, Unreadable::Unknown(format!("{name} {}", words[known.len() + 1].shown())));
    }
    let has = |o: &str| options.iter().any(|a| matches!(a, Arg::Option(n, _) if n == o));
    let value = |o: &str| {
        options.iter().find_map(|a| match a {
            Arg::Option(n, v) if n == o => Some(*v),
            _ => None,
        })
    };
    let mut rest: Vec<Word> = words[used..].to_vec();
    match name.as_str() {
        "command" if has("-v") || has("-V") => return push_run(reader, words, open, text),
        // With its output a terminal, nohup writes it to `nohup.out` (else
        // `$HOME/nohup.out`): a file written, judged as every write is.
        "nohup" => {
            let path = Word::Dynamic("nohup.out or $HOME/nohup.out".into());
            reader.parts.push(Part::Write { path, text: text.to_owned() });
        }
        "env" => {
            if has("-C") || has("--chdir") {
                reader.folder = Folder::Unknown;
            }
            let unset = options.iter().filter_map(|a| match a {
                Arg::Option(n, Some(v)) if n == "-u" || n == "--unset" => Some(*v),
                _ => None,
            });
            // A variable that changes what runs is unreadable; the command after it is
            // still read, so a deny sees it.
            if let Some(var) = unset.into_iter().find(|v| changes_what_runs(v)) {
                unreadable(reader, text, Unreadable::ChangesWhatRuns(var.to_owned()));
            }
            // `NAME=value` operands before the command.
            while let Some(w) = rest.first() {
                let assignment = w.shown().split_once('=').map(|(n, _)| n.to_owned());
                match (assignment, w) {
                    (Some(var), Word::Literal(_)) if !var.is_empty() && !var.contains('/') => {
                        if changes_what_runs(&var) {
                            unreadable(reader, text, Unreadable::ChangesWhatRuns(var));
                        }
                        rest.remove(0);
                    }
                    (Some(var), Word::Dynamic(_)) => {
                        unreadable(reader, text, Unreadable::ChangesWhatRuns(var));
                        rest.remove(0);
                    }
                    _ => break,
                }
            }
        }
        "xargs" => {
            // `-I R` puts each input where R stands in every word.
            let replace = value("-I")
                .flatten()
                .or(value("--replace").map(|v| v.unwrap_or("{}")))
                .or(value("-i").map(|v| v.unwrap_or("{}")));
            if let Some(r) = replace {
                rest = rest
                    .into_iter()
                    .map(|w| if w.shown().contains(r) { Word::Dynamic(w.shown().to_owned()) } else { w })
                    .collect();
            }
            if rest.is_empty() {
                return push_run(reader, vec![Word::Literal("echo".into())], true, text);
            }
            return read_through(reader, rest, replace.is_none() || open, text, Fed::No);
        }
        _ => {}
    }
    let skip = before_command(&name).min(rest.len());
    let cmd = rest.split_off(skip);
    if cmd.is_empty() {
        if name != "exec" {
            push_run(reader, words, open, text);
        }
        return;
    }
    read_through(reader, cmd, open, text, fed)
}

/// An interpreter given no program of its own (only options, or `-`) reads it from
/// its input.
fn reads_program_from_stdin(words: &[Word]) -> bool {
    words[1..].iter().all(|w| w.literal().is_some_and(|s| s.starts_with('-') || s == "/dev/stdin"))
}

fn push_run(reader: &mut Reader, argv: Vec<Word>, open: bool, text: &str) {
    let folder = reader.folder.clone();
    reader.ran(&argv);
    reader.parts.push(Part::Run(Run { argv, open, text: text.to_owned(), folder }));
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
                // `+` ends a clause only right after a `{}`, as find reads it.
                let after_braces = cmd.last().is_some_and(|l: &Word| l.shown() == "{}");
                if w.literal() == Some(";") || (w.literal() == Some("+") && after_braces) {
                    break;
                }
                // find puts each path found wherever `{}` stands in a word.
                cmd.push(if w.shown().contains("{}") { Word::Dynamic(w.shown().to_owned()) } else { w });
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

/// The options a shell may be given and still be read: `-c` and the ones that only
/// change how it reports or stops. `--rcfile`, `--init-file`, `-s` (a program on its
/// input) and anything else are unreadable; `-o NAME` only with the names below.
const SHELL_OPTIONS: Grammar = Grammar {
    flags: "ceuxvnlfhiB",
    valued: "o",
    optional: "",
    long: &["norc", "noprofile", "login", "posix", "noediting"],
    operands: None,
    permute: false,
};

const SHELL_SETTINGS: &[&str] =
    &["errexit", "nounset", "pipefail", "xtrace", "verbose", "noglob", "noclobber", "posix"];

/// `sh -c 'PROGRAM'` is read again as a command of its own; a shell with no program
/// fed by a pipe is unreadable; `sh script.sh` is a program like any other.
fn shell(reader: &mut Reader, words: Vec<Word>, open: bool, text: &str, fed: Fed) {
    let name = words[0].shown().rsplit('/').next().unwrap_or_default().to_owned();
    let known: Vec<&str> = words[1..].iter().map_while(Word::literal).collect();
    // `+o` and `+e` turn settings off: read as their `-` forms.
    let turned: Vec<String> = known
        .iter()
        .map(|w| if w.len() > 1 && w.starts_with('+') { format!("-{}", &w[1..]) } else { (*w).to_owned() })
        .collect();
    let turned: Vec<&str> = turned.iter().map(String::as_str).collect();
    let args = match SHELL_OPTIONS.parse(&turned) {
        Ok(args) => args,
        Err(misfit) => return unreadable(reader, text, Unreadable::RunsText(format!("{name} {}", misfit.word()))),
    };
    let operands = args.iter().filter(|a| matches!(a, Arg::Operand(_))).count();
    let i = 1 + known.len() - operands;
    let setting = args.iter().find_map(|a| match a {
        Arg::Option(o, Some(v)) if o == "-o" && !SHELL_SETTINGS.contains(v) => Some(*v),
        _ => None,
    });
    if let Some(setting) = setting {
        return unreadable(reader, text, Unreadable::RunsText(format!("{name} -o {setting}")));
    }
    if operands == 0 && known.len() + 1 < words.len() {
        // A word known only when it runs where an option or the program stands.
        return unreadable(reader, text, Unreadable::DynamicScript(words[known.len() + 1].shown().to_owned()));
    }
    let command_string = args.iter().any(|a| matches!(a, Arg::Option(o, _) if o == "-c"));
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
