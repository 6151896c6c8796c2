//! A repository that tracks a secret shows it through git's reading subcommands
//! though no word names it: `git show`, `git diff`, `git log -p`, `git cat-file -p
//! <id>`. Where the repository's index holds a secret, only git's subcommands that
//! show names, not content, run unasked. A secret committed once and removed since
//! is not searched for in the history.

use std::path::Path;
use std::process::{Command, Stdio};

use super::sensitive;
use user_questions_shell::Run;

/// git's reading subcommands that show a file's content whatever their options.
const SHOWS_CONTENT: &[&str] = &["show", "diff", "blame", "grep", "cat-file", "stash"];

/// Options of git's log family that show content: patches (`-p`, `-U3`, `--cc`,
/// `--word-diff`), lines (`--check`), or whether a string is in them (`-S`, `-G`).
const PATCH_LONG: &[&str] = &[
    "--patch",
    "--unified",
    "--cc",
    "--dd",
    "--word-diff",
    "--color-words",
    "--full-diff",
    "--binary",
    "--ext-diff",
    "--textconv",
    "--function-context",
    "--pickaxe",
    "--find-object",
    "--check",
    "--verbose",
];

/// Short options of git's log family that show content, alone or in a cluster, and
/// `git status -v`, which shows the diff.
const PATCH_SHORT: &str = "puUGSWcmv";

/// Whether `run`, a git command of the read-only set, may show a file's content.
pub fn shows_content(run: &Run) -> bool {
    let words: Vec<&str> = run.argv[1..].iter().map(|w| w.literal().unwrap_or("-p")).collect();
    let Some(sub) = super::known::git_subcommand(&words) else { return false };
    SHOWS_CONTENT.contains(&sub)
        || words.iter().any(|w| match w.strip_prefix("--") {
            Some(_) => PATCH_LONG.iter().any(|p| w.starts_with(p)),
            None => w.strip_prefix('-').is_some_and(|cluster| cluster.contains(|c| PATCH_SHORT.contains(c))),
        })
}

/// Whether the repository git finds from `cwd` tracks a secret, by `git ls-files`
/// (which runs nothing its configuration names: no pager, no fsmonitor). A folder
/// outside any repository tracks nothing.
pub fn tracks_secret(cwd: &Path) -> bool {
    let listed = Command::new("git")
        .args(["--no-pager", "-c", "core.fsmonitor=false", "ls-files", "-z"])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output();
    let Some(listed) = listed.ok().filter(|o| o.status.success()) else { return false };
    listed.stdout.split(|b| *b == 0).any(|path| sensitive::secret(Path::new(&*String::from_utf8_lossy(path))).is_some())
}
