//! The Machines view: this machine's circle of the relay (`userq relay`), as the window
//! shows it. Whether the broker is reached, each machine and when it was last heard
//! from, and an invite for one more, with a QR code. What needs a broker or a broker
//! URL the person types (`init`, `join`) stays on the command line the view names.

use std::path::Path;
use std::time::Duration;

use serde::Serialize;
use user_questions::model::ErrorCode;
use user_questions::relay::{pairing, ConfigError, RelayError};
use user_questions_i18n::Text;

use crate::error::UiError;

/// How long an invite made in the window may be used.
pub const INVITE_FOR: Duration = Duration::from_secs(10 * 60);

/// The circle as the window shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MachinesView {
    /// Whether this machine is in a circle; when not, the rest is empty.
    pub paired: bool,
    /// "Connected to nats://…" or why not.
    pub connection_label: String,
    pub connected: bool,
    pub machines: Vec<MachineView>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MachineView {
    pub name: String,
    pub this_machine: bool,
    /// "this machine", "heard from 3 min ago", "not heard from yet".
    pub seen_label: String,
}

/// An invite made in the window.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct InviteView {
    pub code: String,
    /// The code as a QR code: an SVG drawing as a `data:` URL.
    pub qr: String,
    /// What to do with it, and for how long.
    pub how_label: String,
}

fn failed(text: &Text) -> impl Fn(RelayError) -> UiError + '_ {
    move |e| UiError::new(ErrorCode::Relay, text.tr_args("window-error-relay", &[("error", (&e.to_string()).into())]))
}

/// The circle of the relay file at `path` (reaching its broker, for up to 5 s).
pub async fn view(path: Option<&Path>, text: &Text) -> Result<MachinesView, UiError> {
    let unpaired = MachinesView { paired: false, connection_label: String::new(), connected: false, machines: vec![] };
    let Some(path) = path else { return Ok(unpaired) };
    let status = match pairing::status(path).await {
        Err(RelayError::Config(ConfigError::NotPaired)) => return Ok(unpaired),
        other => other.map_err(failed(text))?,
    };
    let broker = (&status.broker).into();
    let connection_label = match &status.error {
        None => text.tr_args("window-machines-connected", &[("broker", broker)]),
        Some(error) => text.tr_args("window-machines-not-connected", &[("broker", broker), ("error", error.into())]),
    };
    let now = user_questions::relay::wire::now_ms() / 1000;
    let machines = status
        .machines
        .iter()
        .map(|m| MachineView {
            name: m.name.clone(),
            this_machine: m.this_machine,
            seen_label: match m.last_seen {
                _ if m.this_machine => text.tr("window-machines-this"),
                None => text.tr("window-machines-never"),
                Some(t) => seen(now.saturating_sub(t), text),
            },
        })
        .collect();
    Ok(MachinesView { paired: true, connection_label, connected: status.connected, machines })
}

fn seen(ago: u64, text: &Text) -> String {
    let (id, count) = match ago {
        0..60 => return text.tr("window-machines-seen-now"),
        60..3_600 => ("window-machines-seen-minutes", ago / 60),
        3_600..86_400 => ("window-machines-seen-hours", ago / 3_600),
        _ => ("window-machines-seen-days", ago / 86_400),
    };
    text.tr_args(id, &[("count", count.into())])
}

/// A new single-use invite to the circle of the relay file at `path`.
pub fn invite(path: Option<&Path>, text: &Text) -> Result<InviteView, UiError> {
    let path = path.ok_or_else(|| failed(text)(RelayError::Config(ConfigError::NotPaired)))?;
    let code = pairing::invite(path, INVITE_FOR).map_err(failed(text))?;
    let how_label = text.tr_args("window-machines-invite-how", &[("minutes", (INVITE_FOR.as_secs() / 60).into())]);
    Ok(InviteView { qr: user_questions::relay::qr::image(&code), code, how_label })
}

#[cfg(test)]
mod tests {
    use super::*;
    use user_questions::relay::config::Config;

    #[tokio::test]
    async fn an_unpaired_machine_shows_no_circle_and_cannot_invite() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("relay.json");
        let text = Text::for_tag("en");
        let view = view(Some(&path), &text).await.unwrap();
        assert!(!view.paired && view.machines.is_empty());
        let e = invite(Some(&path), &text).unwrap_err();
        assert_eq!(e.code, "RELAY");
        assert!(e.message.contains("userq relay init"), "{}", e.message);
    }

    #[tokio::test]
    async fn a_circle_shows_its_machines_and_an_invite_the_relay_file_keeps() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("relay.json");
        // A broker that is not there: the view says so, and still lists the circle.
        pairing::init(&path, "nats://127.0.0.1:9", Some("desk".into()), None).unwrap();
        let text = Text::for_tag("zh-CN");
        let view = view(Some(&path), &text).await.unwrap();
        assert!(view.paired && !view.connected);
        assert!(view.connection_label.contains("nats://127.0.0.1:9"), "{}", view.connection_label);
        assert_eq!(view.machines.len(), 1);
        assert_eq!(view.machines[0].seen_label, text.tr("window-machines-this"));
        let made = invite(Some(&path), &text).unwrap();
        assert!(made.code.starts_with("userq-invite-") && made.qr.starts_with("data:image/svg+xml;base64,"));
        assert!(made.how_label.contains("10"), "{}", made.how_label);
        assert_eq!(Config::load(&path).unwrap().invites.len(), 1, "the invite is the circle's to take");
    }

    #[test]
    fn when_a_machine_was_heard_from_reads_as_a_person_says_it() {
        let text = Text::for_tag("en");
        let said: Vec<String> = [5, 120, 7_200, 3 * 86_400].iter().map(|&s| seen(s, &text)).collect();
        assert_eq!(
            said,
            ["heard from just now", "heard from 2 min ago", "heard from 2 h ago", "heard from 3 days ago"]
        );
    }
}
