//! An agent's version, as its `--version` prints it: what `userq doctor` and `userq
//! setup` say beside the version each agent was tested with, and what setup checks
//! before it writes an event or a file that only newer versions read (an older
//! version can refuse to start on a settings file naming an event it does not know).

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// `major.minor.patch`; a version printed with fewer parts has zeros for the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u64, pub u64, pub u64);

impl Version {
    /// The first dotted number in `text` (`2.1.332 (Claude Code)`, `codex-cli 0.171.0`,
    /// `kimi, version 1.2`); `None` when there is none.
    pub fn find(text: &str) -> Option<Self> {
        let start = text.find(|c: char| c.is_ascii_digit())?;
        let rest = &text[start..];
        let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let mut parts = rest[..end].split('.').filter(|p| !p.is_empty()).map(str::parse::<u64>);
        let mut next = || parts.next().transpose().ok().flatten();
        let major = next()?;
        Some(Self(major, next().unwrap_or(0), next().unwrap_or(0)))
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// The first line `program --version` prints, within a few seconds; `None` when it
/// prints nothing or does not finish.
pub async fn printed_by(program: &Path) -> Option<String> {
    let run = tokio::process::Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(5), run).await.ok()?.ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().map(str::trim).find(|l| !l.is_empty()).map(str::to_owned)
}

/// `program` on `PATH`.
pub fn on_path(program: &str) -> Option<std::path::PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_is_found_in_what_agents_print() {
        assert_eq!(Version::find("2.1.332 (Claude Code)"), Some(Version(2, 1, 332)));
        assert_eq!(Version::find("codex-cli 0.171.0"), Some(Version(0, 171, 0)));
        assert_eq!(Version::find("kimi, version 1.2"), Some(Version(1, 2, 0)));
        assert_eq!(Version::find("v3"), Some(Version(3, 0, 0)));
        assert_eq!(Version::find("no version here"), None);
        assert!(Version(2, 1, 331) < Version(2, 1, 332) && Version(2, 1, 332) < Version(2, 2, 0));
        assert_eq!(Version(0, 225, 2).to_string(), "0.225.2");
    }
}
