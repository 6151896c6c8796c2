//! A file a rule is about, as the kernel will find it: made absolute against the
//! folder the agent works in, and its symbolic links followed, so `src/link/passwd`
//! with `src/link -> /etc` is `/etc/passwd` and no rule for `src/**` allows it. A deny
//! or an ask fits the path as written or as found; an allow only as found.

use std::path::{Component, Path, PathBuf};

use super::rules::{self, Rule, Verdict};
use user_questions_shell as shell;

pub struct File {
    /// As written, `.` and `..` taken out by their names.
    written: PathBuf,
    /// As the kernel finds it: the longest part that exists, its links followed.
    found: PathBuf,
}

impl File {
    pub fn at(path: &str, cwd: Option<&Path>) -> Self {
        let joined = joined(path, cwd);
        Self { written: by_names(&joined), found: found(&joined) }
    }

    /// Whether `glob` of `rule` covers this file: relative globs start at the rule's
    /// project, or the action's folder; a folder stands for everything under it.
    pub fn fits(&self, glob: &str, rule: &Rule, cwd: Option<&Path>) -> bool {
        let base = rule.scope.project.as_deref().or(cwd);
        // The folder a relative glob starts at is a path, never a pattern: a folder
        // named `br[1]` or `star*` matches only itself.
        let as_found = found(&joined(glob, base.map(found).as_deref().map(escaped).as_deref()));
        let as_written = by_names(&joined(glob, base.map(escaped).as_deref()));
        if rule.verdict == Verdict::Allow {
            // Where the write lands as the kernel finds it, and as a tool that takes
            // `..` out by name finds it: an allow must cover both.
            return matches(&as_found, &self.found) && matches(&as_written, &self.written);
        }
        [&as_written, &as_found].iter().any(|p| matches(p, &self.written) || matches(p, &self.found))
    }
}

impl File {
    /// Whether both name the same file, as written and as found.
    pub fn same_as(&self, other: &File) -> bool {
        self.written == other.written && self.found == other.found
    }

    /// Whether the file, as written or as found, falls under an entry of `list`
    /// ([`super::sensitive`]).
    pub fn is(&self, list: &[&str]) -> bool {
        [&self.written, &self.found].iter().any(|p| super::sensitive::under(p, list).is_some())
    }

    /// Whether the file, as written or as found, is a secret ([`super::sensitive::secret`]).
    pub fn is_secret(&self) -> bool {
        [&self.written, &self.found].iter().any(|p| super::sensitive::secret(p).is_some())
    }

    /// Whether this file, taken as a folder, holds what `glob` of `rule` covers.
    pub fn holds(&self, glob: &str, rule: &Rule, cwd: Option<&Path>) -> bool {
        let base = rule.scope.project.as_deref().or(cwd);
        let as_written = by_names(&joined(glob, base));
        let fixed: PathBuf = as_written
            .components()
            .take_while(|c| !c.as_os_str().to_string_lossy().contains(['*', '?', '[']))
            .collect();
        [&self.written, &self.found].iter().any(|f| fixed.starts_with(f) && fixed != **f)
    }
}

/// A path as the kernel finds it, and as bash's `cd` does (`..` taken out by name
/// first, then links followed): the two differ across a link to a folder.
pub fn both_ways(path: &Path) -> Vec<PathBuf> {
    let logical = by_names(path);
    [found(path), found(&logical)].into_iter().collect()
}

fn matches(pattern: &Path, file: &Path) -> bool {
    let options = glob::MatchOptions { require_literal_separator: true, ..Default::default() };
    let pattern = pattern.display().to_string();
    let fits = |p: &str| glob::Pattern::new(p).is_ok_and(|g| g.matches_path_with(file, options));
    fits(&pattern) || fits(&format!("{}/**", pattern.trim_end_matches('/')))
}

/// A folder's path with every glob character escaped.
fn escaped(path: &Path) -> PathBuf {
    PathBuf::from(glob::Pattern::escape(&path.display().to_string()))
}

/// `path` with `~` expanded, against `cwd` unless absolute.
fn joined(path: &str, cwd: Option<&Path>) -> PathBuf {
    let expanded = rules::expand_home(path);
    match cwd {
        Some(c) if !expanded.starts_with('/') => c.join(&expanded),
        _ => PathBuf::from(&expanded),
    }
}

/// `.` and `..` taken out by their names.
fn by_names(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The longest leading part of `path` that exists, resolved by the kernel (links
/// and `..` as it follows them), and the rest by name. A link whose target is not
/// there yet is followed too: writing to it creates its target.
fn found(path: &Path) -> PathBuf {
    found_within(path, 0)
}

fn found_within(path: &Path, links: usize) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            let rest: PathBuf = rest.iter().rev().collect();
            return by_names(&real.join(rest));
        }
        let dangling = existing.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink());
        if let (true, Ok(target), true) = (dangling, std::fs::read_link(&existing), links < 40) {
            let target = match existing.parent() {
                Some(parent) if target.is_relative() => parent.join(target),
                _ => target,
            };
            let rest: PathBuf = rest.iter().rev().collect();
            return found_within(&target.join(rest), links + 1);
        }
        match (existing.file_name().map(ToOwned::to_owned), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return by_names(path),
        }
    }
}

/// The most paths a glob of a command is found as before it counts as any.
const MOST_GLOBBED: usize = 2_000;

/// `run` with each glob word (`n?tes`, `aws?/credentials`) replaced by the paths bash
/// finds for it from every folder the run may be in, as absolute paths (a glob that
/// finds nothing stays as written, as bash leaves it). `None` where they cannot be
/// found here: no folder to look in, a folder not known, a glob mixed with quotes,
/// escapes or expansions, or more than [`MOST_GLOBBED`] paths.
pub fn globbed(run: &shell::Run, cwd: Option<&Path>) -> Option<shell::Run> {
    let glob_of = |w: &shell::Word| match w {
        shell::Word::Dynamic(text) if text.contains(['*', '?', '[']) => Some(text.clone()),
        _ => None,
    };
    if !run.argv.iter().any(|w| glob_of(w).is_some()) {
        return Some(run.clone());
    }
    let options =
        glob::MatchOptions { require_literal_separator: true, require_literal_leading_dot: true, ..Default::default() };
    let mut argv = Vec::with_capacity(run.argv.len());
    for word in &run.argv {
        let Some(pattern) = glob_of(word) else {
            argv.push(word.clone());
            continue;
        };
        if pattern.contains(['\'', '"', '\\', '$', '`', '{']) {
            return None;
        }
        let mut found = Vec::new();
        for path in run.folder.resolve(&pattern)? {
            let joined = joined(&path, Some(cwd?));
            for hit in glob::glob_with(&joined.display().to_string(), options).ok()?.flatten() {
                found.push(shell::Word::Literal(hit.display().to_string()));
                if found.len() > MOST_GLOBBED {
                    return None;
                }
            }
        }
        if found.is_empty() {
            argv.push(word.clone());
        }
        argv.extend(found);
    }
    Some(shell::Run { argv, ..run.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::rules::{parse, Origin};

    #[test]
    fn a_link_out_of_the_allowed_folder_is_not_allowed_and_a_deny_sees_through_it() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("p");
        let secret = dir.path().join("secret");
        std::fs::create_dir_all(project.join("src")).unwrap();
        std::fs::create_dir_all(&secret).unwrap();
        std::os::unix::fs::symlink(&secret, project.join("src/link")).unwrap();
        let toml = format!("[[allow]]\nedit = \"src/**\"\n[[deny]]\nedit = \"{}\"\n", secret.display());
        let rules = parse(&toml, Path::new("r.toml"), &Origin::Yours).unwrap();
        let (allow, deny) = (&rules[0], &rules[1]);
        let cwd = Some(project.as_path());
        let inside = File::at("src/a.rs", cwd);
        assert!(inside.fits("src/**", allow, cwd));
        let through = File::at("src/link/key", cwd);
        assert!(!through.fits("src/**", allow, cwd), "the link leads out of src");
        assert!(through.fits(&secret.display().to_string(), deny, cwd), "the deny sees where it leads");
        let new = File::at("src/new/deeper/x.rs", cwd);
        assert!(new.fits("src/**", allow, cwd), "a file not made yet is judged by its name");
        // `src/deep/../../x`: the kernel goes through the link, a tool by name.
        std::fs::create_dir_all(project.join("a/b/c")).unwrap();
        std::os::unix::fs::symlink(project.join("a/b/c"), project.join("src/deep")).unwrap();
        let through = File::at("src/deep/../../.git/hooks/pre-commit", cwd);
        assert!(!through.fits("src/**", allow, cwd), "by name it is .git/hooks");
        // A link to a file not there yet is judged by where the write lands.
        std::os::unix::fs::symlink(project.join(".git/hooks/post-merge"), project.join("src/dangling")).unwrap();
        assert!(!File::at("src/dangling", cwd).fits("src/**", allow, cwd));
    }

    #[test]
    fn a_folder_named_like_a_pattern_matches_only_itself() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["br[1]", "br1", "star*", "starlight"] {
            std::fs::create_dir_all(dir.path().join(name).join("src")).unwrap();
        }
        let rules = parse("[[allow]]\nedit = \"src/**\"\n", Path::new("r.toml"), &Origin::Yours).unwrap();
        for (cwd, other) in [("br[1]", "br1"), ("star*", "starlight")] {
            let cwd = dir.path().join(cwd);
            let cwd = Some(cwd.as_path());
            assert!(File::at("src/a.rs", cwd).fits("src/**", &rules[0], cwd));
            let elsewhere = dir.path().join(other).join("src/a.rs");
            assert!(!File::at(&elsewhere.display().to_string(), cwd).fits("src/**", &rules[0], cwd), "{other}");
        }
    }
}
