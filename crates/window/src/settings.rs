//! What the person chose in the window and the app keeps across restarts: for now the
//! language. One small JSON file, `settings.json` in the config folder every door uses
//! (`user_questions::paths`), written whole so a crash never leaves half of it; a file
//! that does not parse is left alone and the defaults used.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use user_questions::paths;
use user_questions_i18n::Text;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// A BCP 47 tag the person picked in the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// Where the settings live.
pub fn path() -> Option<PathBuf> {
    Some(paths::config_dir()?.join("settings.json"))
}

impl Settings {
    pub fn load(path: &Path) -> Settings {
        std::fs::read(path).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default()
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let bytes = serde_json::to_vec_pretty(self).expect("settings serialise");
        paths::write(path, &bytes, paths::Access::AsBefore)
    }

    /// The window's language: `USERQ_LANG` when set (the person said so for this
    /// run), else the one picked in the window, else the system's.
    pub fn text(&self) -> Text {
        match (std::env::var("USERQ_LANG").ok().filter(|v| !v.is_empty()), &self.language) {
            (None, Some(picked)) => Text::for_tag(picked),
            _ => Text::from_env(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_survive_a_round_trip_and_a_broken_file_means_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("user-questions/settings.json");
        assert_eq!(Settings::load(&path), Settings::default());
        let picked = Settings { language: Some("zh-CN".into()) };
        picked.save(&path).unwrap();
        assert_eq!(Settings::load(&path), picked);
        std::fs::write(&path, b"{not json").unwrap();
        assert_eq!(Settings::load(&path), Settings::default());
    }
}
