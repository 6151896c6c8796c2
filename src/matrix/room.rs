//! The room the bridge asks in, and the team's rule: `userq matrix room` makes an
//! invite-only, end-to-end encrypted room and invites the people who answer (or
//! adopts one the bridge was invited to, if it is encrypted), with who approves, how
//! many approvals a team question needs, and how long a question waits here before it
//! goes to the room. Kept beside the account as `room.json` (0600).

use std::time::Duration;

use matrix_sdk::config::SyncSettings;
use matrix_sdk::ruma::api::client::room::create_room::v3::{Request as CreateRoom, RoomPreset};
use matrix_sdk::ruma::events::room::encryption::RoomEncryptionEventContent;
use matrix_sdk::ruma::events::InitialStateEvent;
use matrix_sdk::ruma::{OwnedUserId, RoomId, UserId};
use matrix_sdk::{Client, RoomMemberships};
use serde::{Deserialize, Serialize};
use user_questions_i18n::Text;

use super::account::{restore, Place};
use super::MatrixError;
use crate::model::Kind;
use crate::paths;

/// A room or a rule that cannot be.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    #[error("approver {0} is not in the room: add --invite {0}")]
    ApproverOutside(String),
    #[error("--quorum needs --approvers")]
    QuorumAlone,
    #[error("--quorum is at least 1")]
    QuorumZero,
    #[error("--quorum {quorum} is more than the {approvers} approvers named")]
    QuorumTooBig { quorum: usize, approvers: usize },
    #[error("{0} is not a room id (!…:server)")]
    BadRoom(String),
    #[error("{0} is not end-to-end encrypted: turn encryption on in its settings, or let userq make a room")]
    NotEncrypted(String),
    #[error("--desk {0} is not one of the approvers: add it to --approvers")]
    DeskNotApprover(String),
}

impl RuleError {
    pub fn words(&self, text: &Text) -> String {
        let one = |id: &str, value: &str| text.tr_args(id, &[("what", value.into())]);
        match self {
            Self::ApproverOutside(who) => one("matrix-error-approver-outside", who),
            Self::QuorumAlone => text.tr("matrix-error-quorum-alone"),
            Self::QuorumZero => text.tr("matrix-error-quorum-zero"),
            Self::QuorumTooBig { quorum, approvers } => text.tr_args(
                "matrix-error-quorum-too-big",
                &[("quorum", (*quorum).into()), ("approvers", (*approvers).into())],
            ),
            Self::BadRoom(room) => one("matrix-error-bad-room", room),
            Self::NotEncrypted(room) => one("matrix-error-not-encrypted", room),
            Self::DeskNotApprover(who) => one("matrix-error-desk-not-approver", who),
        }
    }
}

/// The room's name: what every member sees (state is not encrypted: nothing else goes in it).
const NAME: &str = "User Questions";

/// The room and the team's rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    pub room: String,
    /// Whose approvals count for a team question; empty: anyone in the room answers.
    #[serde(default)]
    pub approvers: Vec<String>,
    /// How many approvers must approve (one approver's no ends it at once).
    pub quorum: usize,
    /// How long a question waits unanswered here before it goes to the room.
    #[serde(default, with = "crate::settings::words", skip_serializing_if = "Option::is_none")]
    pub after: Option<Duration>,
    /// Who the desk's own person is on Matrix: an answer given here is their vote, and
    /// theirs in the room the same vote. `None`: a person of their own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desk: Option<String>,
    /// Which kinds of decision need the team (`permission`, `plan-review`, `code-review`).
    #[serde(default = "every_decision")]
    pub team_for: Vec<Kind>,
    /// When any, only the decisions that say one of these need the team.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub team_when: Vec<String>,
}

/// Every kind of decision: what needs the team unless the person chose fewer.
pub fn every_decision() -> Vec<Kind> {
    Kind::DECISIONS.to_vec()
}

impl Rule {
    /// The team the bridge counts by.
    pub fn team(&self) -> super::tally::Team {
        super::tally::Team {
            approvers: self.approvers.clone(),
            quorum: self.quorum,
            kinds: self.team_for.clone(),
            when: self.team_when.clone(),
            desk: self.desk.clone(),
        }
    }
}

/// What the person asked for on the command line.
pub struct Wanted {
    pub invite: Vec<String>,
    pub approvers: Vec<String>,
    pub quorum: Option<usize>,
    pub after: Option<Duration>,
    /// A room to adopt rather than make.
    pub adopt: Option<String>,
    pub desk: Option<String>,
    /// Empty: every decision.
    pub team_for: Vec<Kind>,
    pub team_when: Vec<String>,
}

fn user(id: &str) -> Result<OwnedUserId, MatrixError> {
    UserId::parse(id).map_err(|_| MatrixError::BadUser(id.to_owned()))
}

/// The team's rule, checked: approvers are people in the room, a quorum is at most
/// their number.
fn rule_of(wanted: &Wanted, room: String, members: &[OwnedUserId]) -> Result<Rule, MatrixError> {
    let approvers = wanted.approvers.iter().map(|a| user(a)).collect::<Result<Vec<_>, _>>()?;
    if let Some(outside) = approvers.iter().find(|a| !members.contains(a)) {
        return Err(MatrixError::Rule(RuleError::ApproverOutside(outside.to_string())));
    }
    let quorum = match (wanted.quorum, approvers.len()) {
        (Some(_), 0) => return Err(MatrixError::Rule(RuleError::QuorumAlone)),
        (Some(0), _) => return Err(MatrixError::Rule(RuleError::QuorumZero)),
        (Some(quorum), approvers) if quorum > approvers => {
            return Err(MatrixError::Rule(RuleError::QuorumTooBig { quorum, approvers }));
        }
        (Some(q), _) => q,
        (None, _) => 1,
    };
    let desk = wanted.desk.as_deref().map(user).transpose()?;
    if let Some(desk) = desk.as_ref().filter(|d| !approvers.is_empty() && !approvers.contains(d)) {
        return Err(MatrixError::Rule(RuleError::DeskNotApprover(desk.to_string())));
    }
    Ok(Rule {
        room,
        approvers: approvers.iter().map(|a| a.to_string()).collect(),
        quorum,
        after: wanted.after,
        desk: desk.map(|d| d.to_string()),
        team_for: if wanted.team_for.is_empty() { every_decision() } else { wanted.team_for.clone() },
        team_when: wanted.team_when.clone(),
    })
}

/// Makes (or adopts) the room, invites, and keeps the rule.
pub async fn set_up(place: &Place, wanted: &Wanted) -> Result<Rule, MatrixError> {
    let (client, saved) = restore(place).await?;
    let url = saved.homeserver.clone();
    let failed = |e: matrix_sdk::Error| super::account::failed_sdk(&url, e);
    let invited = wanted.invite.iter().map(|i| user(i)).collect::<Result<Vec<_>, _>>()?;
    let mut members: Vec<OwnedUserId> = invited.clone();
    let room = match &wanted.adopt {
        None => {
            // Checked before anything is made.
            rule_of(wanted, String::new(), &members)?;
            let mut request = CreateRoom::new();
            request.preset = Some(RoomPreset::PrivateChat);
            request.name = Some(NAME.into());
            request.invite = invited.clone();
            request.initial_state =
                vec![InitialStateEvent::with_empty_state_key(RoomEncryptionEventContent::with_recommended_defaults())
                    .to_raw_any()];
            client.create_room(request).await.map_err(failed)?
        }
        Some(id) => {
            let id = RoomId::parse(id).map_err(|_| MatrixError::Rule(RuleError::BadRoom(id.clone())))?;
            let room = client.join_room_by_id(&id).await.map_err(failed)?;
            if !room.latest_encryption_state().await.map_err(failed)?.is_encrypted() {
                let _ = room.leave().await;
                return Err(MatrixError::Rule(RuleError::NotEncrypted(id.to_string())));
            }
            for person in &invited {
                room.invite_user_by_id(person).await.map_err(failed)?;
            }
            let present = room.members(RoomMemberships::JOIN | RoomMemberships::INVITE).await.map_err(failed)?;
            members.extend(present.iter().map(|m| m.user_id().to_owned()));
            room
        }
    };
    let rule = rule_of(wanted, room.room_id().to_string(), &members)?;
    place.save_rule(&rule)?;
    Ok(rule)
}

/// A member of the room as `status` shows it.
#[derive(Debug, Serialize)]
pub struct Member {
    pub user: String,
    /// `join`, `invite`.
    pub membership: String,
    pub approver: bool,
    /// Whether their identity is as first seen (`userq matrix trust` after a change).
    pub identity: super::pins::Standing,
}

/// The bridge's room, after a sync that brings it when this device has not seen it yet.
pub async fn room_of(client: &Client, rule: &Rule) -> Result<Option<matrix_sdk::Room>, matrix_sdk::Error> {
    let Ok(id) = RoomId::parse(&rule.room) else { return Ok(None) };
    if client.get_room(&id).is_none() {
        client.sync_once(SyncSettings::default().timeout(Duration::ZERO)).await?;
    }
    Ok(client.get_room(&id))
}

/// The room's members (the bridge aside), by user id.
pub async fn members(client: &Client, rule: &Rule) -> Result<Vec<Member>, matrix_sdk::Error> {
    let Some(room) = room_of(client, rule).await? else { return Ok(Vec::new()) };
    let me = client.user_id().map(ToOwned::to_owned);
    let listed = room.members(RoomMemberships::JOIN | RoomMemberships::INVITE).await?;
    let mut members: Vec<Member> = listed
        .iter()
        .filter(|m| Some(m.user_id()) != me.as_deref())
        .map(|m| Member {
            user: m.user_id().to_string(),
            membership: m.membership().to_string(),
            approver: rule.approvers.iter().any(|a| a == m.user_id().as_str()),
            identity: super::pins::Standing::NotSeen,
        })
        .collect();
    // The store keeps them in no order: by id, the same at every look.
    members.sort_by(|a, b| a.user.cmp(&b.user));
    Ok(members)
}

impl Place {
    fn rule_file(&self) -> std::path::PathBuf {
        self.dir().join("room.json")
    }

    /// The room and rule, when one was set up.
    pub fn rule(&self) -> Result<Option<Rule>, MatrixError> {
        match std::fs::read(self.rule_file()) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| self.files_error(format!("room.json does not read: {e}"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.files_error(e)),
        }
    }

    fn save_rule(&self, rule: &Rule) -> Result<(), MatrixError> {
        let bytes = serde_json::to_vec_pretty(rule).expect("a rule serializes");
        paths::write(&self.rule_file(), &bytes, paths::Access::Private).map_err(|e| self.files_error(e))
    }
}
