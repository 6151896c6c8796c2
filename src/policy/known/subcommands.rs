//! git and docker: global options, then a reading subcommand with its own grammar.
//! git runs only on the repository found from the folder the agent runs in: never
//! `-C` (a folder below may hold a bare repository whose `config` an allowed edit
//! wrote, naming a program to run), never after the folder moved, never `--git-dir`
//! or `--work-tree` (not in the global grammar).

use super::git::{DOCKER, DOCKER_GLOBAL, GIT, GIT_GLOBAL};
use super::{misfit_judgement, Judgement, Sub};
use user_questions_shell::grammar::{Arg, Grammar};

/// Each program with its global grammar and its subcommands, for the docs' table.
pub const TABLES: &[(&str, &Grammar, &[Sub])] = &[("git", &GIT_GLOBAL, GIT), ("docker", &DOCKER_GLOBAL, DOCKER)];

pub fn git(words: &[&str], moved: bool) -> Judgement {
    if moved {
        return Judgement::Excluded {
            word: "cd".into(),
            why: "git runs only on the repository found from the folder, which moved before it",
        };
    }
    let (globals, rest) = match split_globals(&GIT_GLOBAL, words) {
        Ok(split) => split,
        Err(judgement) => return judgement,
    };
    for arg in &globals {
        if let Arg::Option(name, Some(folder)) = arg {
            if name == "-C" {
                return Judgement::Excluded {
                    word: format!("-C {folder}"),
                    why: "git runs only on the repository found from the folder",
                };
            }
        }
    }
    if rest.is_empty() {
        return Judgement::ReadOnly;
    }
    subcommand("git", GIT, rest)
}

/// The subcommand git runs, after its global options: `grep` of `git --no-pager grep x`.
pub fn git_subcommand<'w>(words: &[&'w str]) -> Option<&'w str> {
    split_globals(&GIT_GLOBAL, words).ok().and_then(|(_, rest)| rest.first().copied())
}

pub fn docker(words: &[&str]) -> Judgement {
    let (_, rest) = match split_globals(&DOCKER_GLOBAL, words) {
        Ok(split) => split,
        Err(judgement) => return judgement,
    };
    subcommand("docker", DOCKER, rest)
}

/// The global options (up to the first operand, the subcommand) and what follows.
fn split_globals<'a, 'w>(global: &Grammar, words: &'a [&'w str]) -> Result<(Vec<Arg<'w>>, &'a [&'w str]), Judgement> {
    let args = global.parse(words).map_err(|m| misfit_judgement(&m))?;
    let operands = args.iter().filter(|a| matches!(a, Arg::Operand(_))).count();
    let globals = args.into_iter().take_while(|a| matches!(a, Arg::Option(..))).collect();
    Ok((globals, &words[words.len() - operands..]))
}

/// The longest declared subcommand the words start with, and its words by its grammar.
fn subcommand(program: &str, subs: &[Sub], words: &[&str]) -> Judgement {
    // `%G…` and `%(signature)` in a format run gpg.
    if let Some(w) = words.iter().find(|w| w.contains("%G") || w.contains("%(signature")) {
        return Judgement::Excluded { word: (*w).to_owned(), why: "runs gpg to check signatures" };
    }
    let found = subs
        .iter()
        .filter(|s| words.len() >= s.path.len() && words[..s.path.len()] == *s.path)
        .max_by_key(|s| s.path.len());
    let Some(sub) = found else {
        let shown = words.iter().take(2).copied().collect::<Vec<_>>().join(" ");
        return Judgement::Excluded {
            word: format!("{program} {shown}"),
            why: "is not one of its reading subcommands",
        };
    };
    match sub.grammar.parse(&words[sub.path.len()..]) {
        Ok(_) => Judgement::ReadOnly,
        Err(misfit) => misfit_judgement(&misfit),
    }
}
