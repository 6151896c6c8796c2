//! What commands do: the built-in set `read-only`, as data. Each entry is a command
//! that only inspects, with its grammar as getopt reads it ([`table`]): only the
//! options that read, print or format are declared, so a word the grammar does not
//! know (an option left out because it writes, runs or reaches the network, an
//! abbreviation, an operand too many) takes the command out of the set. git's and
//! docker's reading subcommands are declared the same way ([`git`]). A command is in
//! the set only as written here: by its bare name (never `./cat`), never naming a
//! secret file ([`super::sensitive`]), and with every word known, or known to be an
//! operand. [`markdown`] renders the table into docs/policy.md.

mod git;
mod subcommands;
mod table;

use super::sensitive;
pub use subcommands::git_subcommand;
pub use table::READ_ONLY;
pub use user_questions_shell::grammar;
use user_questions_shell::grammar::{Arg, Grammar, Misfit};
use user_questions_shell::{Folder, Run, Word};

/// How an entry's words are judged beyond its grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    None,
    /// `sed`: a script of printing commands only.
    Sed,
    /// `date`: only `+FORMAT` (any other operand sets the clock).
    Date,
    /// `find`: its own expression grammar ([`ReadOnly::grammar`]'s long names are
    /// its primaries).
    Find,
    /// `echo`: every word is printed (a word that is not `-n`, `-e`, `-E` or a cluster
    /// of them is an operand, whatever it starts with), and none runs or writes.
    Words,
    /// `lsof`: a word starting with `+` is an option (`+M` asks the portmapper), and
    /// none is declared.
    NoPlus,
    /// `test` and `[`: no `-v` or `-R`, which evaluate a name's subscript.
    Test,
    /// `git`: global options, then a reading subcommand ([`git::GIT`]).
    Git,
    /// `docker`: global options, then a reading subcommand ([`git::DOCKER`]).
    Docker,
    /// `jq`: no `import` or `include`, which read the module a program names.
    Jq,
    /// binutils (`strings`): no `@FILE` word, which reads more words from FILE.
    NoAtFile,
    /// `ps`: no BSD option `e`, which shows environments, and no word known only when
    /// it runs, which may be one.
    Ps,
}

pub struct ReadOnly {
    pub name: &'static str,
    pub grammar: Grammar,
    /// The program has no option or operand at all that writes, runs or reaches the
    /// network: words known only when it runs (`xargs cat`) are harmless too.
    pub any_words: bool,
    pub check: Check,
}

/// A subcommand of git or docker, by its words (`stash show`), and its grammar.
pub struct Sub {
    pub path: &'static [&'static str],
    pub grammar: Grammar,
}

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
    let excluded = |word: &str, why| Judgement::Excluded { word: word.to_owned(), why };
    let args = &run.argv[1..];
    if run.open && !entry.any_words {
        return excluded("…", "has words known only when it runs");
    }
    // A word known only when it runs stands as an operand when it can be nothing
    // else; where it may be an option, or one operand may become several, it is not
    // known.
    let mut words: Vec<&str> = Vec::with_capacity(args.len());
    for w in args {
        match w {
            Word::Literal(s) => words.push(s),
            Word::Dynamic(s) if entry.any_words => words.push(if w.never_an_option() { "x" } else { s }),
            Word::Dynamic(s)
                if w.never_an_option() && entry.grammar.operands.is_none() && entry.check == Check::None =>
            {
                words.push("x")
            }
            Word::Dynamic(s) => return excluded(s, "has words known only when it runs"),
        }
    }
    let names_only = NAMES_ONLY.contains(&entry.name);
    let shows = !names_only && !COUNTS_ONLY.contains(&entry.name);
    // grep's and rg's pattern is no file: `grep .env` reads its input.
    let pattern = pattern_word(entry, &words);
    let secret = |(i, w): &(usize, &Word)| {
        !names_only && Some(*i) != pattern && names_secret(w, entry.check, shows, &run.folder)
    };
    if let Some((_, word)) = args.iter().enumerate().find(secret) {
        return excluded(word.shown(), "may name a secret file, which only a read rule allows");
    }
    if run.open && shows {
        return excluded("…", "shows files named only when it runs, which may be secrets");
    }
    match entry.check {
        Check::Find => return find(&entry.grammar, &words),
        Check::Git => return subcommands::git(&words, !run.folder.is_start()),
        Check::Docker => return subcommands::docker(&words),
        _ => {}
    }
    if matches!(entry.check, Check::Words) {
        return Judgement::ReadOnly;
    }
    if let Check::Test = entry.check {
        // Every word is an operand of the expression.
        return match words.iter().find(|w| matches!(**w, "-v" | "-R")) {
            Some(w) => excluded(w, "evaluates a variable's name, which can run what its subscript holds"),
            None => Judgement::ReadOnly,
        };
    }
    let parsed = match entry.grammar.parse(&words) {
        Ok(parsed) => parsed,
        Err(misfit) => return misfit_judgement(&misfit),
    };
    match entry.check {
        Check::Sed => sed(&parsed),
        Check::Date => match parsed.iter().find_map(|a| match a {
            Arg::Operand(o) if !o.starts_with('+') => Some(*o),
            _ => None,
        }) {
            Some(o) => excluded(o, "sets the clock: only +FORMAT only reads it"),
            None => Judgement::ReadOnly,
        },
        Check::Jq => match args.iter().map(Word::shown).find(|w| w.contains("import") || w.contains("include")) {
            Some(w) => excluded(w, "reads the module its program names"),
            None => Judgement::ReadOnly,
        },
        Check::NoAtFile => match args.iter().map(Word::shown).find(|w| w.starts_with('@')) {
            Some(w) => excluded(w, "reads more words from the file it names"),
            None => Judgement::ReadOnly,
        },
        Check::Ps => {
            // procps reads a UNIX cluster it cannot take (`-auxe`: `-u` of user `xe`)
            // as BSD options: an `e` in an option's attached value may be one.
            let attached_e = |w: &&&str| {
                let cluster = w.strip_prefix('-').filter(|c| !c.starts_with('-')).unwrap_or_default();
                let valued = cluster.find(|c| entry.grammar.valued.contains(c));
                valued.is_some_and(|i| cluster[i + 1..].contains('e'))
            };
            let bsd_e = parsed.iter().find_map(|a| match a {
                Arg::Operand(o) if o.contains('e') => Some(*o),
                _ => None,
            });
            let bsd_e = bsd_e.or_else(|| words.iter().find(attached_e).copied());
            match args.iter().find(|w| w.literal().is_none()).map(Word::shown).or(bsd_e) {
                Some(w) => excluded(w, "may show each process's environment, where credentials live"),
                None => Judgement::ReadOnly,
            }
        }
        Check::NoPlus => match words.iter().find(|w| w.starts_with('+')) {
            Some(w) => excluded(w, "is not an option it is known to only read with"),
            None => Judgement::ReadOnly,
        },
        _ => Judgement::ReadOnly,
    }
}

/// Commands of the set that read no file at all, only names and metadata: naming a
/// secret (`ls -la .env`, `cd ~/.ssh`) reads nothing of it, and what follows a `cd` is
/// judged from where it went.
pub const NAMES_ONLY: &[&str] = &[
    "ls", "stat", "du", "df", "pwd", "echo", "cd", "true", "false", "which", "type", "whereis", "whoami", "id",
    "groups", "uname", "basename", "dirname", "realpath", "readlink", "seq", "sleep", "nproc", "ps", "free", "uptime",
    "locale",
];

/// Commands of the set that read files but show only counts and digests of them. Like
/// [`NAMES_ONLY`], they show nothing of a file named only when they run.
pub const COUNTS_ONLY: &[&str] = &["wc", "md5sum", "sha1sum", "sha256sum", "sha512sum"];

/// Whether a word may name a secret file, from each folder the command may run in:
/// as a path (or an option's `=value`), as a glob that may match one (`.e?v`) given
/// to a command that shows what it reads (`ls php*` shows names only), for
/// git as the path of a revision's file (`HEAD:.env`). Where the command `shows`
/// what it reads, a word known only when it runs (`$F`), or a relative path from a
/// folder not known, may be any.
pub(super) fn names_secret(word: &Word, check: Check, shows: bool, folder: &Folder) -> bool {
    let any_secret = |paths: Vec<String>, glob: bool| {
        paths.iter().map(|p| super::rules::expand_home(p)).any(|p| {
            if glob {
                super::overlap::may_name_secret(&p)
            } else {
                sensitive::secret(std::path::Path::new(&p)).is_some()
            }
        })
    };
    match word {
        Word::Literal(w) => {
            let mut paths = Vec::new();
            for path in option_values(w) {
                match folder.resolve(path) {
                    Some(found) => paths.extend(found),
                    None => return shows,
                }
            }
            if check == Check::Git {
                paths.extend(w.match_indices(':').map(|(i, _)| w[i + 1..].to_owned()));
            }
            any_secret(paths, false)
        }
        // A glob or a brace expansion and nothing else known only when it runs.
        Word::Dynamic(s) if !s.contains(['$', '`', '\\', '\'', '"']) => {
            let paths: Option<Vec<Vec<String>>> = option_values(s).into_iter().map(|p| folder.resolve(p)).collect();
            match paths {
                Some(paths) => shows && any_secret(paths.concat(), true),
                None => shows,
            }
        }
        Word::Dynamic(_) => shows,
    }
}

/// The place among `run`'s words (its name not counted) of grep's or rg's pattern,
/// which names no file: the first operand, unless an option gives it (`-e`, `-f`).
pub fn pattern_of(run: &Run) -> Option<usize> {
    let entry = READ_ONLY.iter().find(|e| Some(e.name) == run.name())?;
    let words: Vec<&str> = run.argv[1..].iter().map(|w| w.literal().unwrap_or("x")).collect();
    pattern_word(entry, &words)
}

fn pattern_word(entry: &ReadOnly, words: &[&str]) -> Option<usize> {
    if !matches!(entry.name, "grep" | "egrep" | "fgrep" | "rg") {
        return None;
    }
    let parsed = entry.grammar.parse(words).ok()?;
    let given = ["-e", "--regexp", "-f", "--file", "--files", "--type-list"];
    if parsed.iter().any(|a| matches!(a, Arg::Option(n, _) if given.contains(&n.as_str()))) {
        return None;
    }
    // The first word whose reading makes an operand, the words before it all options
    // and their values.
    let has_operand =
        |k: usize| entry.grammar.parse(&words[..=k]).is_ok_and(|p| p.iter().any(|a| matches!(a, Arg::Operand(_))));
    (0..words.len()).find(|&k| has_operand(k))
}

/// What a word may name as a file: itself; a long option's `=value`; every tail of a
/// short option's cluster, where one letter may take the rest as its value
/// (`date -f.env`, `date -uf.env`).
pub(super) fn option_values(word: &str) -> Vec<&str> {
    match word.strip_prefix('-') {
        None | Some("") => vec![word],
        Some(long) if long.starts_with('-') => long.split_once('=').map(|(_, v)| v).into_iter().collect(),
        Some(cluster) => cluster.char_indices().skip(1).map(|(i, _)| &cluster[i..]).collect(),
    }
}

/// A word outside a grammar, as a judgement.
pub fn misfit_judgement(misfit: &Misfit) -> Judgement {
    let why = match misfit {
        Misfit::Unknown(_) => "is not an option it is known to only read with",
        Misfit::NoValue(_) => "is missing its value",
        Misfit::TooMany(_) => "is an operand too many: it may be written",
    };
    Judgement::Excluded { word: misfit.word().to_owned(), why }
}

/// `find PATH… EXPRESSION`: its leading options by getopt, its starting points, then
/// each primary of the expression by name, with its argument where it takes one.
fn find(grammar: &Grammar, words: &[&str]) -> Judgement {
    let mut i = 0;
    // `-H`, `-L`, `-P` and `-O3`/`-D x` before the starting points.
    while let Some(w) = words.get(i) {
        match *w {
            "-H" | "-L" | "-P" => i += 1,
            w if w.starts_with("-O") && w.len() > 2 => i += 1,
            "-D" => i += 2,
            _ => break,
        }
    }
    while words.get(i).is_some_and(|w| !w.starts_with('-') && !matches!(*w, "(" | "!" | ")")) {
        i += 1;
    }
    while let Some(w) = words.get(i) {
        i += 1;
        if matches!(*w, "(" | ")" | "!" | ",") {
            continue;
        }
        let name = w.strip_prefix('-').unwrap_or(w);
        let declared = grammar.long.iter().find(|l| l.split('=').next() == Some(name));
        match declared {
            Some(d) if w.starts_with('-') => {
                if d.ends_with('=') {
                    if words.get(i).is_none() {
                        return misfit_judgement(&Misfit::NoValue((*w).to_owned()));
                    }
                    i += 1;
                }
            }
            _ => return misfit_judgement(&Misfit::Unknown((*w).to_owned())),
        }
    }
    Judgement::ReadOnly
}

/// `sed -n` with only printing commands: `p`, `=`, `l`, `q`, `d`, `n` after an
/// optional address or range, and `s/…/…/` with the flags `g`, `p`, `I`, `i` or a
/// number. No `w`, `W`, `e`, `r`, `R`, no `e` or `w` flag, no script from a file.
fn sed(args: &[Arg]) -> Judgement {
    let mut scripts: Vec<&str> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Option(n, Some(v)) if n == "-e" || n == "--expression" => Some(*v),
            _ => None,
        })
        .collect();
    if scripts.is_empty() {
        scripts.extend(args.iter().find_map(|a| match a {
            Arg::Operand(o) => Some(*o),
            _ => None,
        }));
    }
    match scripts.iter().find(|s| !sed_script_prints_only(s)) {
        Some(s) => Judgement::Excluded { word: (*s).to_owned(), why: "its script can write files or run programs" },
        None => Judgement::ReadOnly,
    }
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

/// `sFaFbFFLAGS` with any delimiter F but a letter, a digit, a backslash or a line
/// break, escapes read as escapes, and printing flags only (`g`, `p`, `I`, `i`, `M`,
/// `m`, a number): never `w` (writes) or `e` (runs the pattern space).
fn sed_substitution(cmd: &str) -> bool {
    let mut chars = cmd.chars();
    if chars.next() != Some('s') {
        return false;
    }
    let Some(delimiter) = chars.next().filter(|d| !d.is_ascii_alphanumeric() && !matches!(d, '\\' | '\n')) else {
        return false;
    };
    for _ in 0..2 {
        loop {
            match chars.next() {
                Some('\\') => {
                    chars.next();
                }
                Some(c) if c == delimiter => break,
                Some(_) => {}
                None => return false,
            }
        }
    }
    chars.all(|c| matches!(c, 'g' | 'p' | 'I' | 'i' | 'M' | 'm') || c.is_ascii_digit())
}

/// The set as a markdown table, for docs/policy.md: one row per command, with the
/// options its grammar declares.
pub fn markdown() -> String {
    let mut out = String::from("| command | short options | long options | operands |\n|---|---|---|---|\n");
    for e in READ_ONLY {
        out.push_str(&format!("| `{}` | {} |\n", e.name, row(&e.grammar, e.check)));
    }
    out.push_str("\n| subcommand | short options | long options | operands |\n|---|---|---|---|\n");
    for (program, global, subs) in subcommands::TABLES {
        out.push_str(&format!("| `{program}` (global) | {} |\n", row(global, Check::None)));
        for sub in *subs {
            out.push_str(&format!("| `{program} {}` | {} |\n", sub.path.join(" "), row(&sub.grammar, Check::None)));
        }
    }
    let harmless: Vec<String> = user_questions_shell::HARMLESS.iter().map(|v| format!("`{v}`")).collect();
    out.push_str(&format!("\nVariables that may be set: {}.\n\n", harmless.join(", ")));
    out.push_str(&sensitive::markdown());
    out
}

fn row(g: &Grammar, check: Check) -> String {
    let mut short: Vec<String> = g.flags.chars().map(|c| format!("`-{c}`")).collect();
    short.extend(g.valued.chars().map(|c| format!("`-{c} X`")));
    short.extend(g.optional.chars().map(|c| format!("`-{c}[X]`")));
    let dash = if check == Check::Find { "-" } else { "--" };
    let long: Vec<String> = g
        .long
        .iter()
        .map(|l| match l.split_once('=') {
            Some((n, "?")) => format!("`{dash}{n}[=X]`"),
            Some((n, _)) => format!("`{dash}{n} X`"),
            None => format!("`{dash}{l}`"),
        })
        .collect();
    let operands = match (check, g.operands) {
        (Check::Date, _) => "`+FORMAT` only".to_owned(),
        (Check::Sed, _) => "a script of `p`, `=`, `l`, `q`, `d`, `n`, `s///` with any delimiter (flags `g`, `p`, `I`, `i`, `M`, `m`, a number)".to_owned(),
        (Check::Test, _) => "no `-v`, `-R`".to_owned(),
        (Check::NoPlus, _) => "none starting with `+`".to_owned(),
        (Check::Words, _) => "any: every word is printed".to_owned(),
        (_, Some(n)) => format!("at most {n}"),
        (_, None) => "any".to_owned(),
    };
    format!("{} | {} | {operands}", short.join(" "), long.join(" "))
}
