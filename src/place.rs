//! Where an agent works, read from its folder on the machine it runs on: the project
//! (the nearest folder above holding `.git`) and the branch checked out there. The
//! hook fills them into its ask's context, so every door can say "shop, on main, in
//! crates/api" without a person opening a terminal. Read from the files git keeps, never
//! by running git: a hook stays fast and works where git is not installed.

use std::path::{Path, PathBuf};

use crate::model::Context;

/// The project a folder belongs to: the nearest folder above it (or it) holding
/// `.git`, else the folder itself.
pub fn project_of(cwd: &Path) -> PathBuf {
    git_root(cwd).unwrap_or(cwd).to_path_buf()
}

/// The nearest folder above `cwd` (or it) holding `.git`.
pub fn git_root(cwd: &Path) -> Option<&Path> {
    cwd.ancestors().find(|d| d.join(".git").exists())
}

/// The branch checked out in the repository at `root`, or the first seven
/// characters of the commit when none is (a detached HEAD). A worktree's `.git` is a
/// file naming its own git folder.
pub fn branch(root: &Path) -> Option<String> {
    let dot_git = root.join(".git");
    let git_dir = if dot_git.is_file() {
        let link = std::fs::read_to_string(&dot_git).ok()?;
        root.join(link.trim().strip_prefix("gitdir:")?.trim())
    } else {
        dot_git
    };
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    let head = head.trim();
    match head.strip_prefix("ref:") {
        Some(name) => {
            let name = name.trim();
            Some(name.strip_prefix("refs/heads/").unwrap_or(name).to_owned())
        }
        None if head.len() >= 7 && head.bytes().all(|b| b.is_ascii_hexdigit()) => Some(head[..7].to_owned()),
        None => None,
    }
}

/// Fills in the project's root and branch of a context whose folder is on this
/// machine; a context that names them already keeps its own.
pub fn locate(context: &mut Context) {
    if context.root.is_some() {
        return;
    }
    let Some(folder) = context.project.as_deref().map(Path::new).filter(|f| f.is_absolute()) else { return };
    if let Some(root) = git_root(folder) {
        context.branch = context.branch.take().or_else(|| branch(root));
        context.root = Some(root.to_string_lossy().into_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(head: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::write(dir.path().join(".git/HEAD"), head).unwrap();
        std::fs::create_dir_all(dir.path().join("crates/api")).unwrap();
        dir
    }

    #[test]
    fn a_folder_inside_a_repository_is_located_with_its_branch() {
        let dir = repo("ref: refs/heads/feature/login\n");
        let mut context =
            Context { project: Some(dir.path().join("crates/api").to_string_lossy().into()), ..Context::default() };
        locate(&mut context);
        assert_eq!(context.root.as_deref(), Some(dir.path().to_str().unwrap()));
        assert_eq!(context.branch.as_deref(), Some("feature/login"));
        assert_eq!(context.folder(), Some("crates/api"));
    }

    #[test]
    fn a_detached_head_a_worktree_and_no_repository() {
        let detached = repo("0123456789abcdef0123456789abcdef01234567\n");
        assert_eq!(branch(detached.path()).as_deref(), Some("0123456"));

        let main = repo("ref: refs/heads/main\n");
        let linked = main.path().join(".git/worktrees/wt");
        std::fs::create_dir_all(&linked).unwrap();
        std::fs::write(linked.join("HEAD"), "ref: refs/heads/fix\n").unwrap();
        let wt = tempfile::tempdir().unwrap();
        std::fs::write(wt.path().join(".git"), format!("gitdir: {}\n", linked.display())).unwrap();
        assert_eq!(branch(wt.path()).as_deref(), Some("fix"));

        let plain = tempfile::tempdir().unwrap();
        let mut context = Context { project: Some(plain.path().to_string_lossy().into()), ..Context::default() };
        locate(&mut context);
        assert_eq!((context.root, context.branch), (None, None));
        assert_eq!(branch(Path::new("/nonexistent")), None);
    }
}
