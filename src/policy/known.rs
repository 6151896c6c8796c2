//! What commands do: the built-in set `read-only`, as data. Each entry is a command
//! that only inspects, with the options that make it write, execute or reach the
//! network excluded, each with its reason; [`markdown`] renders the table into
//! docs/policy.md, so it is reviewed in one place. A command is in the set only as
//! written here: by its bare name (never `./cat`), with every word known (or, for
//! a command with no excluded option, any words), and none of its exclusions.

use super::shell::{Run, Word};

/// How an entry's words are judged beyond its excluded options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The excluded options are all there is to it.
    Options,
    /// At most this many operands (`uniq IN OUT` writes OUT).
    Operands(usize),
    /// `sed`: only with `-n`, a script of printing commands, never `-i`.
    Sed,
    /// `git`: only its reading subcommands.
    Git,
}

pub struct ReadOnly {
    pub name: &'static str,
    /// Options that take it out of the set, each with the reason. A long option
    /// matches any prefix of it that getopt would take (`--out` is `--output`); a
    /// short one anywhere in a cluster (`-uo` holds `-o`).
    pub never: &'static [(&'static str, &'static str)],
    pub check: Check,
}

const fn plain(name: &'static str) -> ReadOnly {
    ReadOnly { name, never: &[], check: Check::Options }
}

const WRITES: &str = "writes a file";
const RUNS: &str = "runs a program";

/// The set. Reviewed as a whole: an entry here runs without asking wherever the person
/// allowed `read-only`.
pub const READ_ONLY: &[ReadOnly] = &[
    plain("cat"),
    plain("head"),
    plain("tail"),
    plain("ls"),
    plain("wc"),
    plain("nl"),
    plain("grep"),
    plain("egrep"),
    plain("fgrep"),
    plain("cut"),
    plain("diff"),
    plain("cmp"),
    plain("comm"),
    plain("jq"),
    plain("stat"),
    plain("pwd"),
    plain("echo"),
    ReadOnly {
        name: "printf",
        never: &[("-v", "sets a variable, which can change what later commands run")],
        check: Check::Options,
    },
    plain("cd"),
    plain("test"),
    plain("["),
    plain("true"),
    plain("false"),
    plain("which"),
    plain("whoami"),
    plain("id"),
    plain("uname"),
    plain("basename"),
    plain("dirname"),
    plain("realpath"),
    plain("readlink"),
    plain("tr"),
    plain("rev"),
    plain("seq"),
    plain("printenv"),
    plain("du"),
    plain("df"),
    plain("tac"),
    plain("paste"),
    plain("column"),
    plain("fold"),
    plain("expand"),
    plain("strings"),
    plain("od"),
    plain("nproc"),
    plain("md5sum"),
    plain("sha1sum"),
    plain("sha256sum"),
    plain("sha512sum"),
    ReadOnly { name: "file", never: &[("-C", WRITES), ("--compile", WRITES)], check: Check::Options },
    plain("type"),
    plain("command"),
    ReadOnly {
        name: "rg",
        never: &[
            ("--pre", "runs a program on each file"),
            ("--hostname-bin", RUNS),
            ("-z", "runs decompression programs"),
            ("--search-zip", "runs decompression programs"),
        ],
        check: Check::Options,
    },
    ReadOnly {
        name: "find",
        never: &[
            ("-exec", RUNS),
            ("-execdir", RUNS),
            ("-ok", RUNS),
            ("-okdir", RUNS),
            ("-delete", "deletes files"),
            ("-fprint", WRITES),
            ("-fprint0", WRITES),
            ("-fprintf", WRITES),
            ("-fls", WRITES),
        ],
        check: Check::Options,
    },
    ReadOnly {
        name: "sort",
        never: &[("-o", WRITES), ("--output", WRITES), ("--compress-program", RUNS)],
        check: Check::Options,
    },
    ReadOnly { name: "uniq", never: &[], check: Check::Operands(1) },
    ReadOnly { name: "tree", never: &[("-o", WRITES)], check: Check::Options },
    ReadOnly { name: "date", never: &[("-s", "sets the clock"), ("--set", "sets the clock")], check: Check::Options },
    ReadOnly {
        name: "sed",
        never: &[
            ("-i", "edits files in place"),
            ("--in-place", "edits files in place"),
            ("-f", "reads its script from a file"),
            ("--file", "reads its script from a file"),
        ],
        check: Check::Sed,
    },
    ReadOnly {
        name: "git",
        never: &[
            ("-c", "sets configuration, which can run programs"),
            ("--config-env", "sets configuration, which can run programs"),
            ("--exec-path", "runs its programs from another folder"),
            ("--output", WRITES),
            ("--ext-diff", "runs an external diff program"),
            ("-O", "runs a program on the files found"),
            ("--open-files-in-pager", "runs a program on the files found"),
        ],
        check: Check::Git,
    },
];

/// git's subcommands that only read, each with what else it may not carry.
const GIT_READS: &[&str] = &[
    "status",
    "log",
    "show",
    "diff",
    "rev-parse",
    "ls-files",
    "blame",
    "grep",
    "describe",
    "shortlog",
    "cat-file",
    "ls-tree",
    "merge-base",
    "show-ref",
    "rev-list",
    "name-rev",
    "whatchanged",
    "branch",
    "remote",
    "tag",
];

/// Why a command part is, or is not, in the set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    ReadOnly,
    /// Not a command the set knows.
    Unknown,
    /// In the set but for this: the word and the reason.
    Excluded {
        word: String,
        why: &'static str,
    },
}

/// Whether `run` only reads, by the set.
pub fn judge(run: &Run) -> Judgement {
    let Some(entry) = run.name().and_then(|n| READ_ONLY.iter().find(|e| e.name == n)) else {
        return Judgement::Unknown;
    };
    if run.by_path() {
        return Judgement::Unknown;
    }
    let args = &run.argv[1..];
    let open = run.open || args.iter().any(|w| w.literal().is_none());
    if open && !entry.never.is_empty() {
        // A word known only at run time may be any of the excluded options.
        let word = args.iter().find(|w| w.literal().is_none()).map_or("…", Word::shown);
        return Judgement::Excluded { word: word.to_owned(), why: "has words known only when it runs" };
    }
    for w in args.iter().filter_map(Word::literal) {
        if let Some((_, why)) = entry.never.iter().find(|(opt, _)| matches_option(w, opt)) {
            return Judgement::Excluded { word: w.to_owned(), why };
        }
    }
    let literal: Vec<&str> = args.iter().filter_map(Word::literal).collect();
    match entry.check {
        Check::Options => Judgement::ReadOnly,
        Check::Operands(max) => {
            let operands = literal.iter().filter(|w| !w.starts_with('-')).count() + usize::from(open);
            if operands > max {
                Judgement::Excluded { word: literal.last().unwrap_or(&"").to_string(), why: WRITES }
            } else {
                Judgement::ReadOnly
            }
        }
        Check::Sed => sed(&literal),
        Check::Git => git(&literal),
    }
}

/// Whether the word `w` is the option `opt`: a long option or any prefix of it
/// getopt would take, or a short option alone, in a cluster, or with its value.
fn matches_option(w: &str, opt: &str) -> bool {
    if let Some(long) = opt.strip_prefix("--") {
        let given = w.strip_prefix("--").map(|g| g.split('=').next().unwrap_or(g));
        return given.is_some_and(|g| !g.is_empty() && long.starts_with(g));
    }
    if opt.len() > 2 {
        // find's single-dash words are whole words.
        return w == opt;
    }
    let letter = &opt[1..];
    w.starts_with('-') && !w.starts_with("--") && w[1..].contains(letter)
}

/// `sed -n` with only printing commands: `p`, `=`, `l`, `q`, `d`, `n` after an
/// optional address or range, and `s/…/…/` with the flags `g`, `p`, `I`, `i` or a
/// number. No `w`, `W`, `e`, `r`, `R`, no `e` or `w` flag, no script from a file.
fn sed(args: &[&str]) -> Judgement {
    let quiet = args.iter().any(|a| matches!(*a, "-n" | "--quiet" | "--silent") || is_cluster_with(a, 'n'));
    if !quiet {
        return Judgement::Excluded { word: "sed".into(), why: "prints every line it edits: only sed -n is read-only" };
    }
    let mut scripts = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match *a {
            "-e" | "--expression" => {
                scripts.extend(args.get(i + 1));
                i += 2;
                continue;
            }
            a if a.starts_with("--expression=") => scripts.push(&a["--expression=".len()..]),
            a if a.starts_with('-') => {}
            a if scripts.is_empty() && !args.iter().any(|x| matches!(*x, "-e" | "--expression")) => scripts.push(a),
            _ => {}
        }
        i += 1;
    }
    match scripts.iter().find(|s| !sed_script_prints_only(s)) {
        Some(s) => Judgement::Excluded { word: (*s).to_owned(), why: "its script can write files or run programs" },
        None => Judgement::ReadOnly,
    }
}

fn is_cluster_with(a: &str, letter: char) -> bool {
    a.starts_with('-') && !a.starts_with("--") && a[1..].chars().all(|c| c.is_ascii_alphabetic()) && a.contains(letter)
}

fn sed_script_prints_only(script: &str) -> bool {
    script.split([';', '\n']).map(str::trim).filter(|c| !c.is_empty()).all(|cmd| {
        let rest = sed_address(cmd).and_then(|r| match r.strip_prefix(',') {
            Some(second) => sed_address(second),
            None => Some(r),
        });
        match rest.map(str::trim_start) {
            Some("p" | "=" | "l" | "q" | "d" | "n") => true,
            Some(c) => sed_substitution(c),
            None => false,
        }
    })
}

/// An address (`12`, `$`, `/regex/`) at the start of `cmd`, and what follows it.
fn sed_address(cmd: &str) -> Option<&str> {
    if let Some(rest) = cmd.strip_prefix('$') {
        return Some(rest);
    }
    if let Some(rest) = cmd.strip_prefix('/') {
        let end = rest.find(['/', '\\'])?;
        return (rest.as_bytes()[end] == b'/').then(|| &rest[end + 1..]);
    }
    Some(cmd.trim_start_matches(|c: char| c.is_ascii_digit()))
}

/// `s/a/b/FLAGS` with `/` as delimiter, no backslashes, and printing flags only.
fn sed_substitution(cmd: &str) -> bool {
    let Some(body) = cmd.strip_prefix("s/") else { return false };
    if body.contains('\\') {
        return false;
    }
    let pieces: Vec<&str> = body.split('/').collect();
    let [_, _, flags] = pieces.as_slice() else { return false };
    flags.chars().all(|c| matches!(c, 'g' | 'p' | 'I' | 'i') || c.is_ascii_digit())
}

/// git: global options first (any excluded one already refused), then a reading
/// subcommand; `branch`, `remote` and `tag` only list.
fn git(args: &[&str]) -> Judgement {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match *a {
            "-C" | "--git-dir" | "--work-tree" | "--namespace" => i += 2,
            a if a.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let Some(sub) = args.get(i) else { return Judgement::ReadOnly };
    let rest = &args[i + 1..];
    let excluded = |why| Judgement::Excluded { word: format!("git {sub}"), why };
    if !GIT_READS.contains(sub) {
        return excluded("is not one of git's reading subcommands");
    }
    let lists = match *sub {
        // `git branch NAME` creates a branch; listing takes options only.
        "branch" => rest.iter().all(|a| {
            matches!(*a, "-a" | "-r" | "-v" | "-vv" | "--all" | "--remotes" | "--list" | "--show-current" | "-l")
        }),
        "remote" => rest.iter().all(|a| matches!(*a, "-v" | "--verbose")),
        "tag" => rest.first().is_none_or(|a| matches!(*a, "-l" | "--list")),
        _ => true,
    };
    if lists {
        Judgement::ReadOnly
    } else {
        excluded("changes the repository unless it only lists")
    }
}

/// The set as a markdown table, for docs/policy.md.
pub fn markdown() -> String {
    let plain: Vec<String> = READ_ONLY
        .iter()
        .filter(|e| e.never.is_empty() && e.check == Check::Options)
        .map(|e| format!("`{}`", e.name))
        .collect();
    let mut out = format!("With any words: {}.\n\n", plain.join(", "));
    out.push_str("| command | excluded | why |\n|---|---|---|\n");
    for e in READ_ONLY.iter().filter(|e| !e.never.is_empty() || e.check != Check::Options) {
        let extra = match e.check {
            Check::Options => None,
            Check::Operands(n) => Some(format!("more than {n} operand(s): a second one is written")),
            Check::Sed => Some("without `-n`; a script with anything but `p`, `=`, `l`, `q`, `d`, `n` or `s///` with `g`/`p`/`I`/number flags (no `w`, `W`, `e`, `r`, `R`, no `e` or `w` flag)".into()),
            Check::Git => Some(format!("any subcommand but {}; `branch`, `remote` and `tag` with anything but listing options", GIT_READS.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", "))),
        };
        for (opt, why) in e.never {
            out.push_str(&format!("| `{}` | `{opt}` | {why} |\n", e.name));
        }
        if let Some(extra) = extra {
            out.push_str(&format!("| `{}` | {extra} | |\n", e.name));
        }
    }
    out
}
