//! The bridge while a host serves: once `userq matrix init` and `userq matrix room`
//! made its files, the bridge's device syncs with the homeserver and its answerer
//! joins the waterfall; when they change it starts again, and when `userq matrix
//! leave` removes them it is dropped, each within seconds (as the relay's circle is).
//! A homeserver that is down is tried again every few seconds: questions asked
//! meanwhile wait to reach the room, and votes given meanwhile arrive with the next
//! sync.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use matrix_sdk::config::SyncSettings;
use matrix_sdk::deserialized_responses::EncryptionInfo;
use matrix_sdk::ruma::events::poll::unstable_response::OriginalSyncUnstablePollResponseEvent;
use matrix_sdk::ruma::events::room::message::{OriginalSyncRoomMessageEvent, Relation};
use matrix_sdk::Room;

use super::account::{restore, Place};
use super::answerer::{Answering, Bridge};
use super::open::{come_back, Open};
use super::pins::Pins;
use super::MatrixError;
use crate::service::{Registration, Scope, UserQuestions};

/// How often a serving host looks whether the bridge was set up or removed.
const CHECK: Duration = Duration::from_secs(2);
/// How long a sync waits for news.
const LONG_POLL: Duration = Duration::from_secs(30);
/// Where the bridge sits: below the history and the deadline, above every person.
const PRIORITY: i64 = i64::MAX - 2;

/// A bridge at work; dropping it takes it out.
struct Running {
    service: UserQuestions,
    stamps: Stamps,
    registration: Registration,
    sync: tokio::task::JoinHandle<()>,
    /// Withdraws what an earlier run left and nobody asked again.
    sweep: tokio::task::JoinHandle<()>,
    /// Follow what an earlier run left that another answerer took before the bridge was there.
    taken_up: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.service.set_team(None);
        self.registration.remove();
        self.sync.abort();
        self.sweep.abort();
        self.taken_up.iter().for_each(tokio::task::JoinHandle::abort);
    }
}

type Stamps = (Option<SystemTime>, Option<SystemTime>);

fn stamp(path: PathBuf) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Keeps the bridge of `place` running for `service` whenever it is set up. Runs
/// until dropped.
pub async fn keep(service: UserQuestions, place: Place) {
    let mut running: Option<Running> = None;
    let mut failed: Option<Stamps> = None;
    loop {
        let stamps = (stamp(place.dir().join("session.json")), stamp(place.dir().join("room.json")));
        if stamps.0.is_none() || stamps.1.is_none() {
            if running.take().is_some() {
                tracing::info!("matrix: the bridge was removed");
            }
            failed = None;
        } else if running.as_ref().map(|r| r.stamps) != Some(stamps) && failed != Some(stamps) {
            running = None;
            match start(&service, &place, stamps).await {
                Ok(r) => running = Some(r),
                Err(e) => {
                    tracing::warn!("matrix: {e}");
                    failed = Some(stamps);
                }
            }
        }
        tokio::time::sleep(CHECK).await;
    }
}

async fn start(service: &UserQuestions, place: &Place, stamps: Stamps) -> Result<Running, MatrixError> {
    let (client, _) = restore(place).await?;
    let rule = place.rule()?.ok_or(MatrixError::NotSetUp)?;
    let pins = Pins::load(place)?;
    let open = Open::load(place)?;
    let stopping = {
        let service = service.clone();
        move || service.is_stopping()
    };
    let bridge = Arc::new(Bridge::new(client.clone(), &rule, pins, open, stopping).map_err(|e| place.files_error(e))?);
    hear(&bridge);
    // Which questions the team decides, known to every ask before the bridge is offered one.
    let team = rule.team();
    service.set_team(Some(Arc::new(move |q| team.needs(q))));
    let registration = service.register("matrix", Scope::Any, PRIORITY, Arc::new(Answering(bridge.clone())));
    // Asked again before the bridge was in the waterfall, held by another answerer:
    // taken up all the same.
    let taken_up = service
        .pending()
        .iter()
        .filter_map(|p| service.live_ask(&p.ask))
        .filter_map(|ask| Some((bridge.open.take(ask.request_json().get())?, ask)))
        .map(|(earlier, ask)| tokio::spawn(bridge.clone().take_up(ask, earlier)))
        .collect();
    let left = bridge.clone();
    let sweep = tokio::spawn(async move {
        tokio::time::sleep(come_back()).await;
        for posted in left.open.left() {
            left.withdraw(posted, false, "Withdrawn: the agent stopped asking.".into()).await;
        }
    });
    let sync = tokio::spawn(async move {
        let mut down = false;
        loop {
            match client.sync_once(SyncSettings::default().timeout(LONG_POLL)).await {
                Ok(_) if down => {
                    tracing::info!("matrix: the homeserver is back");
                    down = false;
                }
                Ok(_) => {}
                Err(e) => {
                    if !down {
                        tracing::warn!("matrix: cannot sync with the homeserver (trying again): {e}");
                    }
                    down = true;
                    tokio::time::sleep(CHECK).await;
                }
            }
        }
    });
    tracing::info!(
        "matrix: asking in {} as {}",
        rule.room,
        bridge.client.user_id().map(|u| u.to_string()).unwrap_or_default()
    );
    Ok(Running { service: service.clone(), stamps, registration, sync, sweep, taken_up })
}

/// Votes and thread replies of the bridge's room go to the bridge (each in a task of
/// its own: checking who sent it, or saying why it does not count, never holds up sync).
fn hear(bridge: &Arc<Bridge>) {
    let b = bridge.clone();
    bridge.client.add_event_handler(
        move |ev: OriginalSyncUnstablePollResponseEvent, room: Room, encryption: Option<EncryptionInfo>| {
            let b = b.clone();
            async move {
                if room.room_id() != b.room_id {
                    return;
                }
                tokio::spawn(async move {
                    let (start, answers) = (ev.content.relates_to.event_id, ev.content.poll_response.answers);
                    b.heard_vote(&start, &ev.sender, encryption.as_ref(), ev.origin_server_ts, answers).await;
                });
            }
        },
    );
    let b = bridge.clone();
    bridge.client.add_event_handler(
        move |ev: OriginalSyncRoomMessageEvent, room: Room, encryption: Option<EncryptionInfo>| {
            let b = b.clone();
            async move {
                let Some(Relation::Thread(thread)) = &ev.content.relates_to else { return };
                if room.room_id() != b.room_id {
                    return;
                }
                let (root, text) = (thread.event_id.clone(), ev.content.body().to_owned());
                tokio::spawn(async move { b.heard_reply(&root, &ev.sender, encryption.as_ref(), text).await });
            }
        },
    );
}
