//! What the person chose and every door keeps across restarts: the window's language
//! and the deadline for unanswered questions. One small JSON file, `settings.json` in
//! the configuration folder ([`crate::paths`]), written whole so a crash never leaves
//! half of it. A file that does not parse is left alone and the defaults used; a key
//! this version does not know is kept when the file is written again.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use user_questions_i18n::Text;

use crate::paths;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// A BCP 47 tag the person picked in the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// After how long an unanswered question is decided for the person (see
    /// [`crate::deadline`]); absent: wait for the person. Written as people write it:
    /// `30m`, `1h 30m`.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "words")]
    pub deadline: Option<Duration>,
    /// What a later version wrote here.
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// Where the settings live.
pub fn path() -> Option<PathBuf> {
    Some(paths::config_dir()?.join("settings.json"))
}

/// The shortest deadline: less would decide before a person could read the question.
pub const SHORTEST_DEADLINE: Duration = Duration::from_secs(1);

impl Settings {
    pub fn load(path: &Path) -> Settings {
        std::fs::read(path).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default()
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let bytes = serde_json::to_vec_pretty(self).expect("settings serialise");
        paths::write(path, &bytes, paths::Access::AsBefore)
    }

    /// Reads the file, lets `change` change it, and writes it back whole.
    pub fn update(path: &Path, change: impl FnOnce(&mut Settings)) -> std::io::Result<Settings> {
        let mut settings = Settings::load(path);
        change(&mut settings);
        settings.save(path)?;
        Ok(settings)
    }
}

/// A deadline that cannot be.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DeadlineError {
    #[error("\"{0}\" is not a duration: give one like 30m or 2h, or off")]
    NotADuration(String),
    #[error("\"{0}\" is shorter than a second: give one like 30m or 2h, or off")]
    TooShort(String),
}

impl DeadlineError {
    /// What is wrong, in the person's language.
    pub fn words(&self, text: &Text) -> String {
        match self {
            Self::NotADuration(given) => text.tr_args("deadline-not-a-duration", &[("given", given.into())]),
            Self::TooShort(given) => text.tr_args("deadline-too-short", &[("given", given.into())]),
        }
    }
}

/// A deadline as a person writes it: `30m`, `2h`, or `off`.
pub fn parse_deadline(given: &str) -> Result<Option<Duration>, DeadlineError> {
    let given = given.trim();
    if ["off", "none", "never"].contains(&given.to_ascii_lowercase().as_str()) {
        return Ok(None);
    }
    let d = humantime::parse_duration(given).map_err(|_| DeadlineError::NotADuration(given.to_owned()))?;
    if d < SHORTEST_DEADLINE {
        return Err(DeadlineError::TooShort(given.to_owned()));
    }
    Ok(Some(d))
}

/// A duration in a file the person may read, in words (`30m`).
pub(crate) mod words {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_str(&humantime::format_duration(*d).to_string()),
            None => s.serialize_none(),
        }
    }

    /// A deadline that does not read is no deadline: the person is waited for.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        let text = Option::<serde_json::Value>::deserialize(d)?;
        Ok(text.as_ref().and_then(|v| v.as_str()).and_then(|t| super::parse_deadline(t).ok().flatten()))
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
        let picked = Settings {
            language: Some("zh-CN".into()),
            deadline: Some(Duration::from_secs(1800)),
            ..Default::default()
        };
        picked.save(&path).unwrap();
        assert_eq!(Settings::load(&path), picked);
        assert!(std::fs::read_to_string(&path).unwrap().contains("\"deadline\": \"30m\""));
        std::fs::write(&path, b"{not json").unwrap();
        assert_eq!(Settings::load(&path), Settings::default());
    }

    #[test]
    fn a_key_of_a_later_version_is_kept_and_an_unreadable_deadline_waits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        std::fs::write(&path, br#"{"deadline": "soon", "theme": "dark"}"#).unwrap();
        let now = Settings::update(&path, |s| s.language = Some("en".into())).unwrap();
        assert_eq!(now.deadline, None);
        let written: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(written, serde_json::json!({"language": "en", "theme": "dark"}));
    }

    #[test]
    fn a_deadline_is_read_as_a_person_writes_it() {
        assert_eq!(parse_deadline("30m"), Ok(Some(Duration::from_secs(1800))));
        assert_eq!(parse_deadline(" Off "), Ok(None));
        assert_eq!(parse_deadline("soon"), Err(DeadlineError::NotADuration("soon".into())));
        let e = parse_deadline("10ms").unwrap_err();
        assert_eq!(e.words(&Text::for_tag("en")), "\"10ms\" is shorter than a second: give one like 30m or 2h, or off");
        assert_eq!(e.words(&Text::for_tag("zh-CN")), "“10ms”不到一秒：请给出类似 30m 或 2h 的时长，或 off");
    }
}
