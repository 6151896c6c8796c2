//! A command that reads a folder file by file (`grep -r`, `rg`, `git grep`, `diff -r`)
//! reads every secret under it, though no word names one: `grep -r KEY .` shows the
//! lines of `.env`. Such a command is the person's when a secret lies under a folder it
//! reads, as the program itself walks it (rg skips hidden files; `grep -R` and `rg -L`
//! follow links). A walk that meets more than [`MAX_ENTRIES`] entries cannot tell, and
//! the person decides.

use std::path::{Path, PathBuf};

use user_questions_shell::grammar::Arg;
use user_questions_shell::{Run, Word};

use super::known::{self, READ_ONLY};
use super::sensitive;

/// The most entries a walk visits before it gives up.
pub const MAX_ENTRIES: usize = 100_000;

/// What a command reads file by file: its folders, and how the program walks them.
#[derive(Debug, PartialEq)]
pub struct Recursion {
    pub folders: Vec<String>,
    /// The program reads as ripgrep does by default: no hidden file, nothing its
    /// ignore files (`.gitignore`, `.ignore`, `.rgignore`) name.
    pub filtered: bool,
    /// Links met in the walk are followed.
    pub follow: bool,
    /// rg's own selection of files (`-g`, `-t`), which reads a file its ignore files
    /// or a hidden name would skip.
    pub selection: Vec<Select>,
}

/// One of rg's options that select files, in their order on the command line.
#[derive(Debug, PartialEq)]
pub enum Select {
    /// `-g GLOB`, `--iglob GLOB` (the flag: case-insensitive).
    Glob(String, bool),
    /// `-t TYPE`, `-T TYPE`, `--type-add SPEC`, `--type-clear TYPE`.
    Type(&'static str, String),
}

/// rg's options that read hidden files or what ignore files name.
const UNFILTERED: [&str; 13] = [
    "-u",
    "--unrestricted",
    "--hidden",
    "-.",
    "--no-ignore",
    "--no-ignore-dot",
    "--no-ignore-exclude",
    "--no-ignore-files",
    "--no-ignore-global",
    "--no-ignore-parent",
    "--no-ignore-vcs",
    "--no-ignore-file-case-insensitive",
    "--no-require-git",
];

/// What `run`, a command of the read-only set, reads file by file.
pub fn of(run: &Run) -> Option<Recursion> {
    let name = run.name()?;
    let words: Vec<&str> = run.argv[1..].iter().map(|w| w.literal().unwrap_or("x")).collect();
    let grammar = &READ_ONLY.iter().find(|e| e.name == name)?.grammar;
    let parse = || grammar.parse(&words).ok();
    let has = |args: &[Arg], names: &[&str]| {
        args.iter().any(|a| matches!(a, Arg::Option(n, _) if names.contains(&n.as_str())))
    };
    let value_is = |args: &[Arg], names: &[&str], want: &str| {
        args.iter().any(|a| matches!(a, Arg::Option(n, Some(v)) if names.contains(&n.as_str()) && *v == want))
    };
    // The operands that are paths: all of them where the pattern is an option's value.
    let paths = |args: &[Arg], pattern_options: &[&str]| {
        let operands = args.iter().filter_map(|a| match a {
            Arg::Operand(o) => Some((*o).to_owned()),
            _ => None,
        });
        let skip = usize::from(!has(args, pattern_options));
        let folders: Vec<String> = operands.skip(skip).collect();
        if folders.is_empty() {
            vec![".".to_owned()]
        } else {
            folders
        }
    };
    match name {
        "grep" | "egrep" | "fgrep" => {
            let args = parse()?;
            let recursive = has(&args, &["-r", "-R", "--recursive", "--dereference-recursive"])
                || value_is(&args, &["-d", "--directories"], "recurse");
            recursive.then(|| Recursion {
                folders: paths(&args, &["-e", "--regexp", "-f", "--file"]),
                filtered: false,
                follow: has(&args, &["-R", "--dereference-recursive"]),
                selection: Vec::new(),
            })
        }
        "rg" => {
            let args = parse()?;
            let insensitive = has(&args, &["--glob-case-insensitive"]);
            let selection = args
                .iter()
                .filter_map(|a| match a {
                    Arg::Option(n, Some(v)) => match n.as_str() {
                        "-g" | "--glob" => Some(Select::Glob((*v).to_owned(), insensitive)),
                        "--iglob" => Some(Select::Glob((*v).to_owned(), true)),
                        "-t" | "--type" => Some(Select::Type("select", (*v).to_owned())),
                        "-T" | "--type-not" => Some(Select::Type("negate", (*v).to_owned())),
                        "--type-add" => Some(Select::Type("add", (*v).to_owned())),
                        "--type-clear" => Some(Select::Type("clear", (*v).to_owned())),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            Some(Recursion {
                folders: paths(&args, &["-e", "--regexp", "-f", "--file", "--files", "--type-list"]),
                // A configuration file named by the environment may add any option.
                filtered: !has(&args, &UNFILTERED) && std::env::var_os("RIPGREP_CONFIG_PATH").is_none(),
                follow: has(&args, &["-L", "--follow"]),
                selection,
            })
        }
        // diff reads the files of the folders it compares, one level down without
        // `-r` (`-N` shows every one), following links.
        "diff" => {
            let args = parse()?;
            let operands = args.iter().filter_map(|a| match a {
                Arg::Operand(o) => Some((*o).to_owned()),
                _ => None,
            });
            Some(Recursion { folders: operands.collect(), filtered: false, follow: true, selection: Vec::new() })
        }
        // `git grep` reads the files of the work tree, and with `--no-index` or
        // `--untracked` those git does not track; `git diff --no-index` every file of
        // the folders it compares.
        "git" => match known::git_subcommand(&words) {
            Some("grep") => {
                Some(Recursion { folders: vec![".".to_owned()], filtered: false, follow: false, selection: Vec::new() })
            }
            Some("diff") if words.contains(&"--no-index") => {
                let after = words.iter().skip_while(|w| **w != "diff").skip(1);
                let folders = after.filter(|w| !w.starts_with('-')).map(|w| (*w).to_owned()).collect();
                Some(Recursion { folders, filtered: false, follow: true, selection: Vec::new() })
            }
            _ => None,
        },
        _ => None,
    }
}

/// The first secret under the folders `recursion` reads, against `cwd`; or, where
/// the walk cannot tell, the reason.
pub fn secret_under(recursion: &Recursion, cwd: Option<&Path>) -> Option<String> {
    let mut budget = MAX_ENTRIES;
    for folder in &recursion.folders {
        let path = cwd.map_or_else(|| PathBuf::from(folder), |c| c.join(super::rules::expand_home(folder)));
        if let Some(found) = walk(&path, recursion, &mut budget) {
            return Some(found);
        }
    }
    None
}

fn walk(root: &Path, recursion: &Recursion, budget: &mut usize) -> Option<String> {
    // The folder named on the command line is followed wherever it leads, from the
    // folder bash thinks it is in (`cd L/..` is where it started) and from the one
    // the kernel finds.
    let mut roots: Vec<PathBuf> = super::files::both_ways(root);
    roots.dedup();
    roots.into_iter().find_map(|real| walk_one(&real, root, recursion, budget))
}

fn walk_one(real: &Path, root: &Path, recursion: &Recursion, budget: &mut usize) -> Option<String> {
    if sensitive::secret(real).is_some() {
        return Some(real.display().to_string());
    }
    let mut builder = ignore::WalkBuilder::new(real);
    builder.standard_filters(recursion.filtered).follow_links(recursion.follow);
    if recursion.filtered {
        builder.add_custom_ignore_filename(".rgignore");
        match selected(real, &recursion.selection) {
            Some((overrides, types)) => builder.overrides(overrides).types(types),
            // A selection rg refuses reads nothing; one this cannot build, anything.
            None => builder.standard_filters(false),
        };
    }
    let walker = builder.build();
    for entry in walker {
        if *budget == 0 {
            return Some(format!("more than {MAX_ENTRIES} files under {}", root.display()));
        }
        *budget -= 1;
        // An entry the walk cannot read (a loop of links, a folder it may not open)
        // is one the program cannot read either.
        let Ok(entry) = entry else { continue };
        let path = entry.path();
        if sensitive::secret(path).is_some() {
            return Some(path.display().to_string());
        }
        // A link met in the walk is read only where the program follows links.
        let target = (recursion.follow && entry.path_is_symlink()).then(|| std::fs::canonicalize(path).ok()).flatten();
        if let Some(target) = target.filter(|t| sensitive::secret(t).is_some()) {
            return Some(format!("{} (a link to {})", path.display(), target.display()));
        }
    }
    None
}

/// rg's selection as the ignore crate takes it: globs that override every ignore
/// rule, and file types over ripgrep's own list.
fn selected(root: &Path, selection: &[Select]) -> Option<(ignore::overrides::Override, ignore::types::Types)> {
    let mut globs = ignore::overrides::OverrideBuilder::new(root);
    let mut types = ignore::types::TypesBuilder::new();
    types.add_defaults();
    for select in selection {
        match select {
            Select::Glob(glob, insensitive) => {
                globs.case_insensitive(*insensitive).ok()?.add(glob).ok()?;
            }
            Select::Type("select", name) => drop(types.select(name)),
            Select::Type("negate", name) => drop(types.negate(name)),
            Select::Type("add", spec) => types.add_def(spec).ok()?,
            Select::Type(_, name) => drop(types.clear(name)),
        }
    }
    Some((globs.build().ok()?, types.build().ok()?))
}

/// Whether a word of the command is a file that is, through its links, a secret:
/// `cat notes` with `notes -> ~/.ssh/id_rsa`, from each folder the command may run in.
pub fn links_to_secret(run: &Run, cwd: Option<&Path>) -> Option<String> {
    let pattern = known::pattern_of(run);
    let words = run.argv[1..].iter().enumerate().filter(|(i, _)| Some(*i) != pattern).map(|(_, w)| w);
    // A whole word, or an option's value (`--from-file=LINK`, `-fLINK`).
    let values = words.filter_map(Word::literal).flat_map(known::option_values);
    let paths = values.filter_map(|w| run.folder.resolve(w)).flatten();
    paths.into_iter().find_map(|w| {
        let path = cwd.map_or_else(|| PathBuf::from(&w), |c| c.join(super::rules::expand_home(&w)));
        let real = super::files::both_ways(&path).into_iter().find(|p| sensitive::secret(p).is_some())?;
        Some(real.display().to_string())
    })
}
