//! The working tree as git sees it: a tree object of every file `git add -A` would
//! take (untracked ones included, ignored ones not), written through an index of its
//! own so the person's index is never touched, and the diff between two such trees.
//! What a review was of is remembered as its tree, so the next review is of what
//! changed since.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The tree of an empty repository, for a repository with no commit yet.
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

fn git(repo: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C").arg(repo).env_remove("GIT_INDEX_FILE");
    c
}

fn run(mut c: Command) -> Result<String, String> {
    let out = c.output().map_err(|e| format!("git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
    }
}

/// The repository's top folder, when `dir` is in one.
pub fn top(dir: &Path) -> Option<PathBuf> {
    let mut c = git(dir);
    c.args(["rev-parse", "--show-toplevel"]);
    run(c).ok().map(|s| PathBuf::from(s.trim()))
}

/// The tree of `rev` (a commit), or the empty tree when the repository has none.
pub fn tree_of(repo: &Path, rev: &str) -> Result<String, String> {
    let mut c = git(repo);
    c.args(["rev-parse", "--verify", "--quiet", &format!("{rev}^{{tree}}")]);
    match run(c) {
        Ok(tree) => Ok(tree.trim().to_owned()),
        Err(_) if rev == "HEAD" => Ok(EMPTY_TREE.to_owned()),
        Err(e) => Err(if e.is_empty() { format!("{rev} is not a commit") } else { e }),
    }
}

/// The working tree now, as a tree object.
pub fn snapshot(repo: &Path) -> Result<String, String> {
    let index =
        std::env::temp_dir().join(format!("userq-review-{}-{:08x}.index", std::process::id(), rand::random::<u32>()));
    let _gone = Remove(index.clone());
    let mut real = git(repo);
    real.args(["rev-parse", "--git-path", "index"]);
    // Starting from the real index makes `add -A` fast; a missing one starts empty.
    if let Ok(path) = run(real) {
        let path = repo.join(path.trim());
        let _ = std::fs::copy(path, &index);
    }
    let mut add = git(repo);
    add.env("GIT_INDEX_FILE", &index).args(["add", "-A", "--", "."]);
    run(add)?;
    let mut write = git(repo);
    write.env("GIT_INDEX_FILE", &index).arg("write-tree");
    Ok(run(write)?.trim().to_owned())
}

/// Removes a scratch file when dropped.
struct Remove(PathBuf);

impl Drop for Remove {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The diff from tree `from` to tree `to`, renames found, binary files named.
pub fn diff(repo: &Path, from: &str, to: &str) -> Result<String, String> {
    let mut c = git(repo);
    c.args(["diff", "--no-color", "--no-ext-diff", "-M", from, to]);
    run(c)
}

/// The changes a review is asked about in `dir`'s repository: what is staged, or the
/// working tree (untracked files in) against `base` (HEAD when absent).
pub fn changes(dir: &Path, staged: bool, base: Option<&str>) -> Result<String, String> {
    let repo = top(dir).ok_or_else(|| "not in a git repository".to_owned())?;
    if staged {
        return self::staged(&repo);
    }
    let base = tree_of(&repo, base.unwrap_or("HEAD"))?;
    diff(&repo, &base, &snapshot(&repo)?)
}

/// The staged changes against HEAD.
pub fn staged(repo: &Path) -> Result<String, String> {
    let mut c = git(repo);
    c.args(["diff", "--no-color", "--no-ext-diff", "-M", "--cached"]);
    run(c)
}
