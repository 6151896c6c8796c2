//! Paths no allow reaches on its own: secrets, which the read-only set never reads
//! unasked, and protected paths, which no edit rule allows writing (what is written
//! there runs later: git's hooks and configuration, an agent's settings, a shell's
//! startup files). Both lists are data, rendered into docs/policy.md.

use std::path::Path;

/// Secret files, by a folder in their path or by their name (`*` any run of letters).
pub const SECRETS: &[&str] = &[
    ".ssh/",
    ".aws/",
    ".gnupg/",
    ".config/gh/",
    ".kube/config",
    ".docker/config.json",
    ".netrc",
    ".git-credentials",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "*.p12",
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    // The agents' own credentials and other tools' tokens.
    ".claude/.credentials.json",
    ".codex/auth.json",
    ".gemini/oauth_creds.json",
    ".config/gcloud/",
    ".azure/",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".vault-token",
    // What was typed, and what other processes were given.
    ".bash_history",
    ".zsh_history",
    "environ",
    "etc/shadow",
];

/// Names that match a secret's pattern but are, by convention, its committed
/// template: no secret is in them.
pub const TEMPLATES: &[&str] = &[".env.example", ".env.sample", ".env.template", ".env.dist"];

/// Paths no edit rule allows, by a folder in their path or by their name.
pub const PROTECTED: &[&str] = &[
    ".git/",
    ".userq/",
    ".claude/",
    ".codex/",
    ".gemini/",
    ".qwen/",
    ".cursor/",
    ".factory/",
    ".kiro/",
    ".kimi/",
    ".opencode/",
    ".copilot/",
    ".config/",
    ".envrc",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".inputrc",
    ".gitconfig",
];

/// The entry of `list` that `path` falls under, if any, in any case: a folder entry
/// (`.ssh/`) anywhere in the path or its last part (`~/.ssh` itself), a name entry as
/// its last part.
pub fn under<'l>(path: &Path, list: &'l [&'l str]) -> Option<&'l str> {
    // In any case: a filesystem that ignores case (macOS's, by default) opens `.ENV`.
    let text = path.to_string_lossy().to_lowercase();
    let names: Vec<&str> = text.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    list.iter().copied().find(|entry| {
        if let Some(folder) = entry.strip_suffix('/') {
            let parts: Vec<&str> = folder.split('/').collect();
            names.windows(parts.len()).any(|w| w == parts.as_slice())
        } else if entry.contains('/') {
            text.trim_end_matches('/').ends_with(&format!("/{entry}")) || text == *entry
        } else {
            names.last().is_some_and(|name| wildcard(entry, name))
        }
    })
}

/// The secret entry `path` falls under, unless it is a secret's template.
pub fn secret(path: &Path) -> Option<&'static str> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_lowercase();
    if TEMPLATES.contains(&name.as_str()) {
        return None;
    }
    under(path, SECRETS)
}

fn wildcard(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail),
    }
}

/// The lists as markdown, for docs/policy.md.
pub fn markdown() -> String {
    let show = |l: &[&str]| l.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", ");
    format!(
        "Secrets (never read by the read-only set; a read rule may allow them): {}; but not their templates {}.\n\nProtected (no edit rule allows writing them; a folder entry covers everything under it): {}.\n",
        show(SECRETS),
        show(TEMPLATES),
        show(PROTECTED)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_and_protected_paths_are_found_by_folder_or_name() {
        let secret = |p: &str| secret(Path::new(p));
        assert_eq!(secret("/home/a/.ssh/id_rsa"), Some(".ssh/"));
        assert_eq!(secret("/home/a/.ssh"), Some(".ssh/"));
        assert_eq!(secret("app/.env.local"), Some(".env.*"));
        assert_eq!(secret(".env"), Some(".env"));
        assert_eq!(secret("backend/.env.example"), None);
        assert_eq!(secret("certs/server.pem"), Some("*.pem"));
        assert_eq!(secret("/home/a/.kube/config"), Some(".kube/config"));
        assert_eq!(secret("/proc/1/environ"), Some("environ"));
        assert_eq!(secret("/home/a/.claude/.credentials.json"), Some(".claude/.credentials.json"));
        assert_eq!(secret("/etc/shadow"), Some("etc/shadow"));
        assert_eq!(secret("/home/a/.config/gcloud/credentials.db"), Some(".config/gcloud/"));
        assert_eq!(secret("/home/a/.claude/settings.json"), None);
        assert_eq!(secret("src/environment.rs"), None);
        assert_eq!(secret("keys.rs"), None);
        assert_eq!(secret("certs/server.PEM"), Some("*.pem"));
        assert_eq!(secret("/home/a/.AWS/credentials"), Some(".aws/"));
        let protected = |p: &str| under(Path::new(p), PROTECTED);
        assert_eq!(protected("/p/.git/hooks/pre-commit"), Some(".git/"));
        assert_eq!(protected("/p/.envrc"), Some(".envrc"));
        assert_eq!(protected("/p/src/main.rs"), None);
        assert_eq!(protected("/p/.github/workflows/ci.yml"), None);
    }
}
