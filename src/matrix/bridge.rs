//! The bridge as a whole, its account ([`super::account`]) and its room ([`room`]): how it
//! is (`userq matrix status`), and taking it away (`userq matrix leave`: out of the
//! room, the device logged out, the keys removed).

use matrix_sdk::ruma::api::error::ErrorKind;
use serde::Serialize;

use super::account::{failed, failed_sdk, restore, Place};
use super::pins::Pins;
use super::{room, MatrixError};
use matrix_sdk::ruma::UserId;

/// How the bridge is.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub homeserver: String,
    pub reachable: bool,
    /// Why the homeserver could not be reached, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreachable: Option<String>,
    pub user: String,
    pub device: String,
    /// The account's identity is complete and this device is signed by it.
    pub cross_signed: bool,
    /// The room and the team's rule, once `userq matrix room` made them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<RoomStatus>,
}

/// The room as `status` shows it.
#[derive(Debug, Serialize)]
pub struct RoomStatus {
    #[serde(flatten)]
    pub rule: room::Rule,
    pub members: Vec<room::Member>,
}

/// The team's rule and the delay, in words.
pub fn rule_words(rule: &room::Rule, text: &user_questions_i18n::Text) -> String {
    let team = if rule.approvers.is_empty() {
        text.tr("matrix-rule-anyone")
    } else {
        let separator = text.tr("matrix-rule-list-separator");
        let kinds: Vec<String> = rule.team_for.iter().map(|k| text.tr(k.message())).collect();
        let mut what = kinds.join(&separator);
        if !rule.team_when.is_empty() {
            let texts = rule.team_when.join(&separator);
            what = text.tr_args("matrix-rule-when", &[("what", (&what).into()), ("texts", (&texts).into())]);
        }
        let names = rule.approvers.join(", ");
        let words = [("quorum", rule.quorum.into()), ("approvers", (&names).into()), ("what", (&what).into())];
        let team = text.tr_args("matrix-rule-team", &words);
        if rule.quorum > 1 {
            let desk = match &rule.desk {
                None => text.tr("matrix-rule-desk"),
                Some(desk) => text.tr_args("matrix-rule-desk-named", &[("desk", desk.into())]),
            };
            text.tr_args("matrix-rule-both", &[("team", (&team).into()), ("after", (&desk).into())])
        } else {
            team
        }
    };
    let after = match rule.after {
        None => text.tr("matrix-rule-at-once"),
        Some(d) => {
            let d = humantime::format_duration(d).to_string();
            text.tr_args("matrix-rule-after", &[("after", (&d).into())])
        }
    };
    text.tr_args("matrix-rule-both", &[("team", (&team).into()), ("after", (&after).into())])
}

/// How the bridge is: the homeserver reached or not, who it is, cross-signed or not.
pub async fn status(place: &Place) -> Result<Status, MatrixError> {
    let (client, saved) = restore(place).await?;
    let unreachable = client.whoami().await.err().map(|e| failed(&saved.homeserver, &e).to_string());
    let encryption = client.encryption();
    if unreachable.is_none() {
        // What the homeserver holds of this account's keys now (its signatures of
        // this device among them); else what was last heard.
        let _ = encryption.request_user_identity(&saved.session.meta.user_id).await;
    }
    let complete = encryption.cross_signing_status().await.is_some_and(|s| s.is_complete());
    let signed = match encryption.get_own_device().await {
        Ok(Some(device)) => device.is_cross_signed_by_owner(),
        _ => false,
    };
    let room = match place.rule()? {
        Some(rule) => {
            let members = if unreachable.is_none() {
                let mut members = room::members(&client, &rule).await.map_err(|e| failed_sdk(&saved.homeserver, e))?;
                let pins = Pins::load(place)?;
                for m in &mut members {
                    if let Ok(user) = UserId::parse(&m.user) {
                        let _ = client.encryption().request_user_identity(&user).await;
                        m.identity = pins.standing(&client, &user).await;
                    }
                }
                members
            } else {
                Vec::new()
            };
            Some(RoomStatus { rule, members })
        }
        None => None,
    };
    Ok(Status {
        room,
        homeserver: saved.homeserver,
        reachable: unreachable.is_none(),
        unreachable,
        user: saved.session.meta.user_id.to_string(),
        device: saved.session.meta.device_id.to_string(),
        cross_signed: complete && signed,
    })
}

/// Trusts `user`'s identity as the homeserver has it now (after it changed): their
/// votes count again. Their master key, to compare with what their own client shows.
pub async fn trust(place: &Place, user: &str) -> Result<String, MatrixError> {
    let id = UserId::parse(user).map_err(|_| MatrixError::BadUser(user.to_owned()))?;
    let (client, saved) = restore(place).await?;
    let pins = Pins::load(place)?;
    match pins.trust(&client, &id).await {
        Ok(Some(key)) => Ok(key),
        Ok(None) => Err(MatrixError::NoIdentity(user.to_owned())),
        Err(e) => Err(failed_sdk(&saved.homeserver, e)),
    }
}

/// Logs the bridge's device out and removes its keys; the user it was. An unreachable
/// homeserver changes nothing (the device would stay logged in there).
pub async fn leave(place: &Place) -> Result<String, MatrixError> {
    let (client, saved) = restore(place).await?;
    if let Some(rule) = place.rule()? {
        if let Some(room) = room::room_of(&client, &rule).await.map_err(|e| failed_sdk(&saved.homeserver, e))? {
            room.leave().await.map_err(|e| failed_sdk(&saved.homeserver, e))?;
        }
    }
    if let Err(e) = client.matrix_auth().logout().await {
        // A device logged out already (from Element's session list) is gone: go on.
        if !matches!(e.client_api_error_kind(), Some(ErrorKind::UnknownToken { .. })) {
            return Err(failed(&saved.homeserver, &e));
        }
    }
    drop(client);
    place.remove()?;
    Ok(saved.session.meta.user_id.to_string())
}
