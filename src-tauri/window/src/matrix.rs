//! The Matrix bridge in the Machines view: whether it is set up, its homeserver
//! reached or not, the account it asks as, the room with the team's rule and delay,
//! and each member with whether they are an approver and whether their identity is as
//! first seen. Setting it up (a password, invites) stays on the command line the view
//! names (`userq matrix init`, `room`, `trust`).

use std::path::Path;

use serde::Serialize;
use user_questions::matrix::account::Place;
use user_questions::matrix::bridge;
use user_questions::matrix::pins::Standing;
use user_questions::matrix::MatrixError;
use user_questions::model::ErrorCode;
use user_questions_i18n::Text;

use crate::error::UiError;

/// The bridge as the window shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MatrixView {
    /// Whether the bridge is set up; when not, the rest is empty.
    pub set_up: bool,
    /// "Connected to https://… as @bridge:…" or why not.
    pub connection_label: String,
    pub connected: bool,
    /// The room and the team's rule, in words; empty before `userq matrix room`.
    pub room_label: String,
    pub rule_label: String,
    pub members: Vec<MemberView>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemberView {
    pub user: String,
    /// "approver, joined", "invited".
    pub role_label: String,
    /// "identity as first seen", "identity changed: …".
    pub identity_label: String,
    /// Their identity changed since first seen: their votes do not count.
    pub changed: bool,
}

/// The bridge kept in `dir` (its homeserver asked, as `userq matrix status` does).
pub async fn view(dir: Option<&Path>, text: &Text) -> Result<MatrixView, UiError> {
    let none = MatrixView {
        set_up: false,
        connection_label: String::new(),
        connected: false,
        room_label: String::new(),
        rule_label: String::new(),
        members: vec![],
    };
    let Some(dir) = dir else { return Ok(none) };
    let status = match bridge::status(&Place::at(dir)).await {
        Err(MatrixError::NotSetUp) => return Ok(none),
        Err(e) => return Err(UiError::new(ErrorCode::Matrix, e.words(text))),
        Ok(status) => status,
    };
    let homeserver = || ("homeserver", (&status.homeserver).into());
    let connection_label = match &status.unreachable {
        None => text.tr_args("window-matrix-connected", &[homeserver(), ("user", (&status.user).into())]),
        Some(why) => text.tr_args("window-matrix-not-connected", &[homeserver(), ("error", why.into())]),
    };
    let (room_label, rule_label, members) = match &status.room {
        None => (text.tr("window-matrix-no-room"), String::new(), vec![]),
        Some(room) => {
            let members = room
                .members
                .iter()
                .map(|m| MemberView {
                    user: m.user.clone(),
                    role_label: text.tr(match (m.approver, m.membership.as_str()) {
                        (true, "join") => "window-matrix-approver-joined",
                        (true, _) => "window-matrix-approver-invited",
                        (false, "join") => "window-matrix-joined",
                        (false, _) => "window-matrix-invited",
                    }),
                    identity_label: text.tr(match m.identity {
                        Standing::Trusted => "matrix-identity-trusted",
                        Standing::Changed => "matrix-identity-changed",
                        Standing::NotSeen => "matrix-identity-not-seen",
                        Standing::None => "matrix-identity-none",
                    }),
                    changed: m.identity == Standing::Changed,
                })
                .collect();
            let room_label = text.tr_args("window-matrix-room", &[("room", (&room.rule.room).into())]);
            (room_label, bridge::rule_words(&room.rule, text), members)
        }
    };
    Ok(MatrixView { set_up: true, connection_label, connected: status.reachable, room_label, rule_label, members })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn no_bridge_shows_nothing_and_a_bridge_whose_files_do_not_read_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let text = Text::for_tag("en");
        assert!(!view(Some(dir.path()), &text).await.unwrap().set_up);
        assert!(!view(None, &text).await.unwrap().set_up);
        std::fs::write(dir.path().join("session.json"), b"{").unwrap();
        let e = view(Some(dir.path()), &text).await.unwrap_err();
        assert_eq!(e.code, "MATRIX");
        assert!(e.message.contains("session.json does not read"), "{}", e.message);
    }
}
