//! A project's own rules, `.userq/rules.toml` in its repository, apply only once the
//! person trusted that file's content (`userq rules trust`), as direnv trusts an
//! `.envrc`: a cloned repository's file allows nothing by itself, and a changed file
//! stops applying until it is trusted again. The trust is the file's SHA-256, kept
//! per file in `trusted-projects.toml` of the configuration folder.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use toml_edit::DocumentMut;

use super::rules::{self, Origin, Rule, RulesError};
use crate::paths::{self, Access};

/// Where a project keeps its rules, under its folder.
pub const PROJECT_FILE: &str = ".userq/rules.toml";
const STORE: &str = "trusted-projects.toml";

/// Whether a project's rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    Trusted,
    /// Never trusted.
    Untrusted,
    /// Trusted once; its content changed since.
    Changed,
}

/// The nearest project rules file at or above `cwd`.
pub fn find(cwd: &Path) -> Option<PathBuf> {
    find_all(cwd).into_iter().next()
}

/// Every project rules file at or above `cwd`, the nearest first: each one trusted
/// applies, so an untrusted file below never hides a trusted one's denies.
pub fn find_all(cwd: &Path) -> Vec<PathBuf> {
    cwd.ancestors().map(|d| d.join(PROJECT_FILE)).filter(|p| p.is_file()).collect()
}

/// Why a file was not trusted.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}: not UTF-8 text, so it is not read as rules")]
    NotText(PathBuf),
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// A file trusted: the hash its trust is pinned to, and how many rules it holds.
pub struct Trusted {
    pub hash: String,
    pub rules: usize,
}

/// The hash trust is pinned to.
pub fn hash(content: &[u8]) -> String {
    Sha256::digest(content).iter().map(|b| format!("{b:02x}")).collect()
}

fn store(config: &Path) -> DocumentMut {
    std::fs::read_to_string(config.join(STORE)).ok().and_then(|t| t.parse().ok()).unwrap_or_default()
}

/// Whether `file`, whose content is `content`, is trusted.
pub fn status(config: &Path, file: &Path, content: &[u8]) -> Trust {
    let doc = store(config);
    match doc.get(&file.display().to_string()).and_then(|v| v.as_str()) {
        Some(h) if h == hash(content) => Trust::Trusted,
        Some(_) => Trust::Changed,
        None => Trust::Untrusted,
    }
}

/// Trusts `file` as it is now: the very bytes read once, which must be text that
/// reads as rules (a file that does not is never trusted), are the ones hashed.
pub fn trust(config: &Path, file: &Path) -> Result<Trusted, TrustError> {
    let content = std::fs::read(file)?;
    let text = std::str::from_utf8(&content).map_err(|_| TrustError::NotText(file.to_owned()))?;
    let rules = rules::parse(text, file, &Origin::Project(file.to_path_buf()))?.len();
    let h = hash(&content);
    let mut doc = store(config);
    doc[&file.display().to_string()] = toml_edit::value(h.clone());
    paths::write(&config.join(STORE), doc.to_string().as_bytes(), Access::Private)?;
    Ok(Trusted { hash: h, rules })
}

/// The rules of a trusted project file that apply: an allow reaches only inside the
/// file's project (no absolute path, `~` or `..` in a file rule), whatever the file
/// says; its denies and asks all hold.
pub fn within_project(rules: Vec<Rule>) -> Vec<Rule> {
    use super::rules::{Verdict, What};
    rules
        .into_iter()
        .filter(|r| match (&r.what, r.verdict) {
            (What::Read(glob) | What::Edit(glob), Verdict::Allow) => {
                !(glob.starts_with('/')
                    || glob.starts_with('~')
                    || Path::new(glob).components().any(|c| c == std::path::Component::ParentDir))
            }
            _ => true,
        })
        .collect()
}

/// A project's rules file as a door shows it: whether it applies, and its rules.
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectFile {
    pub file: PathBuf,
    pub trust: Trust,
    /// Its rules, or what is wrong with the file.
    pub rules: Result<Vec<Rule>, RulesError>,
}

impl ProjectFile {
    /// The file at `file`, as it is now; `None` when it cannot be read.
    pub fn read(config: &Path, file: &Path) -> Option<Self> {
        let content = std::fs::read(file).ok()?;
        let trust = status(config, file, &content);
        let rules = rules::parse(&String::from_utf8_lossy(&content), file, &Origin::Project(file.to_path_buf()));
        Some(Self { file: file.to_path_buf(), trust, rules })
    }
}

/// The project rules files at or above each of `folders`, each once, in the order
/// their folders come.
pub fn project_files(config: &Path, folders: impl IntoIterator<Item = PathBuf>) -> Vec<ProjectFile> {
    let mut found: Vec<ProjectFile> = Vec::new();
    for folder in folders {
        let Some(file) = find(&folder) else { continue };
        if found.iter().any(|f| f.file == file) {
            continue;
        }
        found.extend(ProjectFile::read(config, &file));
    }
    found
}
