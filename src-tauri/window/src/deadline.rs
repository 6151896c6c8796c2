//! The deadline picker in the window's bar: what happens to a question nobody answers
//! (see [`user_questions::deadline`]). The choices are offered in the person's
//! language; one set elsewhere (`userq deadline 45m`) is shown among them.

use std::path::Path;
use std::time::Duration;

use serde::Serialize;
use user_questions::model::ErrorCode;
use user_questions::settings::{parse_deadline, Settings};
use user_questions_i18n::Text;

use crate::error::UiError;

/// The choices offered besides "wait for me", in minutes.
const OFFERED: [u64; 5] = [5, 15, 30, 60, 240];

/// The picker as the window shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DeadlineView {
    /// The value of the choice in force: `off`, or a duration (`30m`).
    pub current: String,
    pub choices: Vec<DeadlineChoice>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DeadlineChoice {
    /// What `set_deadline` takes back: `off` or a duration.
    pub value: String,
    /// "wait for me", "deny after 30 minutes".
    pub label: String,
}

fn value(d: Option<Duration>) -> String {
    d.map_or_else(|| "off".to_owned(), |d| humantime::format_duration(d).to_string())
}

fn label(d: Option<Duration>, text: &Text) -> String {
    let Some(d) = d else { return text.tr("window-deadline-off") };
    let secs = d.as_secs();
    let (id, count) = match secs {
        s if s % 3600 == 0 => ("window-deadline-hours", s / 3600),
        s if s % 60 == 0 => ("window-deadline-minutes", s / 60),
        s => ("window-deadline-seconds", s),
    };
    text.tr_args(id, &[("count", count.into())])
}

/// The picker for the settings at `path`.
pub fn view(path: Option<&Path>, text: &Text) -> DeadlineView {
    let current = path.map(Settings::load).and_then(|s| s.deadline);
    let mut offered: Vec<Option<Duration>> =
        std::iter::once(None).chain(OFFERED.iter().map(|m| Some(Duration::from_secs(m * 60)))).collect();
    if !offered.contains(&current) {
        offered.push(current);
        offered[1..].sort();
    }
    DeadlineView {
        current: value(current),
        choices: offered.into_iter().map(|d| DeadlineChoice { value: value(d), label: label(d, text) }).collect(),
    }
}

/// Keeps `choice` (`off` or a duration) in the settings at `path`.
pub fn set(path: Option<&Path>, choice: &str, text: &Text) -> Result<DeadlineView, UiError> {
    let deadline = parse_deadline(choice).map_err(|why| UiError::new(ErrorCode::BadRequest, why.words(text)))?;
    let path = path.ok_or_else(|| UiError::new(ErrorCode::BadRequest, text.tr("window-deadline-no-folder")))?;
    Settings::update(path, |s| s.deadline = deadline).map_err(|e| {
        let (shown, error) = (path.display().to_string(), e.to_string());
        let words = [("path", (&shown).into()), ("error", (&error).into())];
        UiError::new(ErrorCode::BadRequest, text.tr_args("window-deadline-cannot-keep", &words))
    })?;
    Ok(view(Some(path), text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_offers_waiting_first_and_shows_a_deadline_set_elsewhere() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let en = Text::for_tag("en");
        let v = view(Some(&path), &en);
        assert_eq!(v.current, "off");
        let labels: Vec<&str> = v.choices.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels[..3], ["wait for me", "deny after 5 minutes", "deny after 15 minutes"]);
        assert_eq!(labels[4], "deny after 1 hour");
        std::fs::write(&path, br#"{"deadline": "45m", "language": "zh-CN"}"#).unwrap();
        let v = view(Some(&path), &Text::for_tag("zh-CN"));
        assert_eq!(v.current, "45m");
        let at = v.choices.iter().position(|c| c.value == "45m").unwrap();
        assert_eq!((at, v.choices[at].label.as_str()), (4, "45 分钟后拒绝"));
    }

    #[test]
    fn a_choice_is_kept_beside_the_language_and_a_bad_one_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        std::fs::write(&path, br#"{"language": "zh-CN"}"#).unwrap();
        let en = Text::for_tag("en");
        assert_eq!(set(Some(&path), "30m", &en).unwrap().current, "30m");
        let kept = Settings::load(&path);
        assert_eq!((kept.language.as_deref(), kept.deadline), (Some("zh-CN"), Some(Duration::from_secs(1800))));
        let e = set(Some(&path), "soon", &en).unwrap_err();
        assert!(e.message.contains("\"soon\" is not a duration"), "{}", e.message);
        assert_eq!(Settings::load(&path).deadline, Some(Duration::from_secs(1800)));
        assert_eq!(set(Some(&path), "off", &en).unwrap().current, "off");
    }
}
