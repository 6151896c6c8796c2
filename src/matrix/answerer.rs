//! The bridge in the waterfall: each question goes to the room (once it has waited the
//! rule's delay unanswered here), and the room's answer, counted by [`Tally`], is
//! delivered as any answer from elsewhere is: the first answer anywhere wins. When the
//! question ends some other way (answered at the desk, the asker gone), its polls are
//! ended, saying where it was answered, and the question is redacted from the room, so
//! a late vote counts for nothing. A vote is counted only from a device its owner
//! cross-signed, from an identity as first seen (or trusted again with `userq matrix
//! trust`), and, with a team, from an approver; any other is answered in the thread
//! with why it does not count.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use matrix_sdk::attachment::AttachmentConfig;
use matrix_sdk::deserialized_responses::EncryptionInfo;
use matrix_sdk::deserialized_responses::{VerificationLevel, VerificationState};
use matrix_sdk::room::reply::{EnforceThread, Reply};
use matrix_sdk::room::RelationsOptions;
use matrix_sdk::ruma::api::Direction;
use matrix_sdk::ruma::events::poll::unstable_end::UnstablePollEndEventContent;
use matrix_sdk::ruma::events::relation::Thread;
use matrix_sdk::ruma::events::room::message::{AddMentions, ReplyWithinThread};
use matrix_sdk::ruma::events::room::message::{Relation, RoomMessageEventContent};
use matrix_sdk::ruma::events::{
    AnySyncMessageLikeEvent, AnySyncTimelineEvent, MessageLikeEventContent, SyncMessageLikeEvent,
};
use matrix_sdk::ruma::UInt;
use matrix_sdk::ruma::{MilliSecondsSinceUnixEpoch, OwnedEventId, OwnedUserId};
use matrix_sdk::{Client, Room};
use tokio::sync::mpsc;

use super::open::{Open, Posted};
use super::pick;
use super::pins::Pins;
use super::tally::{Tally, Team, Voter, DESK, DESK_PERSON};
use super::{post, session};
use crate::history::decider::{people_named, Decider};
use crate::model::{Answer, ErrorCode, Request, UserQuestionError};
use crate::service::{Answerer, Ask, Count, Next, Vote};

/// How often a message that could not be sent is tried again.
const RETRY: Duration = Duration::from_secs(2);

/// What the room said about one of an ask's questions.
#[derive(Debug)]
pub enum Heard {
    Vote {
        at: usize,
        /// The poll voted in.
        poll: String,
        voter: Voter,
        when: MilliSecondsSinceUnixEpoch,
        answers: Vec<String>,
    },
    Reply {
        at: usize,
        voter: Voter,
        text: String,
    },
    /// Paths picked for question `at`'s file pick.
    Picked {
        at: usize,
        voter: Voter,
        paths: Vec<String>,
    },
    /// The desk's person voted (the count took it already).
    Desk,
}

/// A team's count as the ask carries it: an answer given here is the desk's own
/// person's vote, counted with the room's.
struct DeskCount {
    tally: Arc<Mutex<Tally>>,
    desk: Voter,
    team: Team,
    voted: mpsc::UnboundedSender<Heard>,
    /// The request as the asker sent it, for the answer it reads.
    asked: Request,
}

impl Count for DeskCount {
    fn vote_here(&self, answer: &Answer) -> Vote {
        let mut tally = self.tally.lock().unwrap();
        if !tally.desk(&self.desk, answer) {
            return Vote::Decides;
        }
        let _ = self.voted.send(Heard::Desk);
        match tally.answer() {
            Some((answer, by)) => {
                let answer = session::settled(answer, &self.asked, crate::paths::config_dir().as_deref());
                Vote::Completes { answer, by: decider(&self.team, &by).to_string() }
            }
            None => Vote::Counted(tally.progress(&self.desk).unwrap_or_default()),
        }
    }
}

/// Who decided, as the history keeps it.
fn decider(team: &Team, by: &[Voter]) -> Decider {
    Decider::Matrix(by.iter().map(|v| team.kept(v)).collect())
}

/// Where an event of the room goes: the ask it belongs to and its question.
struct Route {
    to: mpsc::UnboundedSender<Heard>,
    at: usize,
}

/// What the answerer and the sync loop share.
pub struct Bridge {
    pub(super) client: Client,
    pub(super) room_id: matrix_sdk::ruma::OwnedRoomId,
    pub(super) team: Team,
    pub(super) after: Option<Duration>,
    pub(super) here: String,
    /// Who an answer given at the desk is counted as: the desk's person named on
    /// Matrix, else the bridge's own account (whose votes in the room are never read).
    desk: OwnedUserId,
    pub(super) pins: Pins,
    pub(super) open: Open,
    routes: Mutex<HashMap<OwnedEventId, Route>>,
    stopping: Box<dyn Fn() -> bool + Send + Sync>,
}

/// Why a vote or reply is shown but not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotCounted {
    NotEncrypted,
    UnsignedDevice,
    IdentityChanged,
    NotApprover,
}

impl NotCounted {
    fn words(self, user: &str) -> String {
        match self {
            Self::NotEncrypted => format!("{user}: not counted, it was not encrypted."),
            Self::UnsignedDevice => {
                format!("{user}: not counted, it came from a device its owner has not verified (cross-signed).")
            }
            Self::IdentityChanged => format!(
                "{user}: not counted, their identity changed since it was first seen; on the desk's machine, \
                 `userq matrix trust {user}` trusts it again."
            ),
            Self::NotApprover => format!("{user}: not counted, they are not one of the approvers."),
        }
    }
}

impl Bridge {
    pub(super) fn new(
        client: Client,
        rule: &super::room::Rule,
        pins: Pins,
        open: Open,
        stopping: impl Fn() -> bool + Send + Sync + 'static,
    ) -> Result<Self, String> {
        let room_id = matrix_sdk::ruma::RoomId::parse(&rule.room).map_err(|e| e.to_string())?;
        let desk = match &rule.desk {
            Some(desk) => OwnedUserId::try_from(desk.as_str()).map_err(|e| e.to_string())?,
            None => client.user_id().ok_or("the bridge is not logged in")?.to_owned(),
        };
        Ok(Self {
            desk,
            client,
            room_id,
            team: rule.team(),
            after: rule.after,
            here: crate::paths::host_name(),
            pins,
            open,
            routes: Mutex::new(HashMap::new()),
            stopping: Box::new(stopping),
        })
    }

    fn room(&self) -> Option<Room> {
        self.client.get_room(&self.room_id)
    }

    /// Who sent an event, when it counts.
    async fn standing(&self, sender: &OwnedUserId, encryption: Option<&EncryptionInfo>) -> Result<Voter, NotCounted> {
        let info = encryption.ok_or(NotCounted::NotEncrypted)?;
        match &info.verification_state {
            VerificationState::Verified | VerificationState::Unverified(VerificationLevel::UnverifiedIdentity) => {}
            VerificationState::Unverified(VerificationLevel::VerificationViolation) => {
                return Err(NotCounted::IdentityChanged)
            }
            VerificationState::Unverified(_) => return Err(NotCounted::UnsignedDevice),
        }
        if !self.pins.holds(&self.client, sender).await {
            return Err(NotCounted::IdentityChanged);
        }
        let device = info.sender_device.as_ref().map(ToString::to_string).unwrap_or_default();
        Ok(Voter { user: sender.clone(), device })
    }

    /// A vote heard in the room, for the poll `start`.
    pub(super) async fn heard_vote(
        &self,
        start: &OwnedEventId,
        sender: &OwnedUserId,
        encryption: Option<&EncryptionInfo>,
        when: MilliSecondsSinceUnixEpoch,
        answers: Vec<String>,
    ) {
        if Some(sender.as_ref()) == self.client.user_id() || !self.routes.lock().unwrap().contains_key(start) {
            return;
        }
        match self.counted(sender, encryption).await {
            Ok(voter) => self.route(start, |at| Heard::Vote { at, poll: start.to_string(), voter, when, answers }),
            Err(why) => self.explain(start, sender, why).await,
        }
    }

    /// A reply heard in the thread of `root`.
    pub(super) async fn heard_reply(
        &self,
        root: &OwnedEventId,
        sender: &OwnedUserId,
        encryption: Option<&EncryptionInfo>,
        text: String,
    ) {
        if Some(sender.as_ref()) == self.client.user_id() || !self.routes.lock().unwrap().contains_key(root) {
            return;
        }
        match self.counted(sender, encryption).await {
            Ok(voter) => self.route(root, |at| Heard::Reply { at, voter, text }),
            Err(why) => self.explain(root, sender, why).await,
        }
    }

    async fn counted(&self, sender: &OwnedUserId, encryption: Option<&EncryptionInfo>) -> Result<Voter, NotCounted> {
        let voter = self.standing(sender, encryption).await?;
        if self.team.counts(sender.as_str()) {
            Ok(voter)
        } else {
            Err(NotCounted::NotApprover)
        }
    }

    fn route(&self, event: &OwnedEventId, heard: impl FnOnce(usize) -> Heard) {
        if let Some(route) = self.routes.lock().unwrap().get(event) {
            let _ = route.to.send(heard(route.at));
        }
    }

    /// Shown, not counted: says why in the thread.
    async fn explain(&self, root: &OwnedEventId, sender: &OwnedUserId, why: NotCounted) {
        self.notice(root, why.words(sender.as_str())).await;
    }

    /// Says `text` in the thread of `root`, once.
    async fn notice(&self, root: &OwnedEventId, text: String) {
        let Some(room) = self.room() else { return };
        let mut notice = RoomMessageEventContent::notice_plain(text);
        notice.relates_to = Some(Relation::Thread(Thread::plain(root.clone(), root.clone())));
        if let Err(e) = room.send(notice).await {
            tracing::warn!("matrix: could not say something in a question's thread: {e}");
        }
    }

    /// A reply to question `at`'s file pick: a path that fits picks it; letters are
    /// answered with a poll of the best matches (`offered` keeps its paths), or a word
    /// in the thread when nothing fits.
    async fn pick_reply(
        &self,
        (question, pick): (&crate::model::Question, &crate::model::Pick),
        (at, voter, text): (usize, Voter, String),
        posted: &Mutex<Option<Posted>>,
        route: &(dyn Fn(&str, usize) + Sync),
        offered: &mut HashMap<String, Vec<String>>,
    ) -> Option<Heard> {
        let (asked, pick) = (question.clone(), pick.clone());
        let reply = tokio::task::spawn_blocking(move || pick::reply(&asked, &pick, &text)).await.ok()?;
        match reply {
            pick::Reply::Picked(paths) => return Some(Heard::Picked { at, voter, paths }),
            pick::Reply::Offer(poll, paths) => {
                let id = self.send(|| (*poll).clone()).await.to_string();
                route(&id, at);
                offered.insert(id.clone(), paths.clone());
                let kept = posted.lock().unwrap().as_mut().map(|p| {
                    p.polls.push((at, id.clone()));
                    p.offered.push((id, paths));
                    p.clone()
                });
                if let Some(kept) = kept {
                    self.open.keep(kept);
                }
            }
            pick::Reply::Nothing(said) => {
                let message = posted.lock().unwrap().as_ref().map(|p| p.message.clone());
                if let Some(root) = message.and_then(|m| OwnedEventId::try_from(m).ok()) {
                    self.notice(&root, said).await;
                }
            }
        }
        None
    }

    /// Sends `content` to the room, again and again until it is sent (the homeserver
    /// may be down, or the room not synced yet); for as long as the ask is pending.
    async fn send<C: MessageLikeEventContent>(&self, content: impl Fn() -> C) -> OwnedEventId {
        self.until_sent(|room| {
            let content = content();
            async move { room.send(content).await.map(|sent| sent.response.event_id) }
        })
        .await
    }

    /// What `attempt` sends, tried again every [`RETRY`] until it is sent; the first
    /// failure is logged.
    async fn until_sent<F, Fut>(&self, attempt: F) -> OwnedEventId
    where
        F: Fn(Room) -> Fut,
        Fut: std::future::Future<Output = Result<OwnedEventId, matrix_sdk::Error>>,
    {
        let mut told = false;
        loop {
            if let Some(room) = self.room() {
                match attempt(room).await {
                    Ok(id) => return id,
                    Err(e) if !told => {
                        tracing::warn!("matrix: a question waits to reach the room: {e}");
                        told = true;
                    }
                    Err(_) => {}
                }
            }
            tokio::time::sleep(RETRY).await;
        }
    }

    /// Puts the ask in the room and counts what comes back until it is decided; then
    /// delivers it. Never returns otherwise: the ask's other ending stops it. What it
    /// sent is in `posted` from the moment each event is sent.
    /// `earlier`: the same question an earlier run left in the room, taken up again.
    async fn follow(&self, ask: &Ask, posted: &Mutex<Option<Posted>>, counting: Counting, earlier: Option<Posted>) {
        let Counting { tally, to, mut heard, desk, shown } = counting;
        let request = &shown;
        let key = ask.request_json().get();
        let first_open = request.questions.iter().position(|q| post::poll(q).is_none()).unwrap_or(0);
        let route = |id: &str, at: usize| {
            if let Ok(id) = OwnedEventId::try_from(id) {
                self.routes.lock().unwrap().insert(id, Route { to: to.clone(), at });
            }
        };
        if let Some(earlier) = earlier {
            // Asked again after a restart: the same question in the room, and what was
            // said there meanwhile.
            route(&earlier.message, first_open);
            for (at, id) in &earlier.polls {
                route(id, *at);
            }
            *posted.lock().unwrap() = Some(earlier.clone());
            self.replay(&earlier).await;
        } else {
            if let Some(after) = self.after {
                // A vote at the desk that is not enough alone sends it at once.
                tokio::select! {
                    () = tokio::time::sleep(after) => {}
                    _ = heard.recv() => {}
                }
            }
            let message = self.send(|| post::message(request, &self.here)).await.to_string();
            route(&message, first_open);
            let sent = |add: &dyn Fn(&mut Posted)| add(posted.lock().unwrap().as_mut().expect("the message was sent"));
            *posted.lock().unwrap() =
                Some(Posted { request: key.to_owned(), message: message.clone(), ..Default::default() });
            for file in post::files(request) {
                let id = self.send_file(&message, &file).await.to_string();
                sent(&|p| p.files.push(id.clone()));
            }
            for (at, question) in request.questions.iter().enumerate() {
                let Some(poll) = post::poll(question) else { continue };
                let id = self.send(|| poll.clone()).await.to_string();
                route(&id, at);
                sent(&|p| p.polls.push((at, id.clone())));
            }
            self.open.keep(posted.lock().unwrap().clone().expect("sent"));
        }
        // The paths of the polls offered for a file pick, by poll (an earlier run's too).
        let mut offered: HashMap<String, Vec<String>> =
            posted.lock().unwrap().iter().flat_map(|p| p.offered.iter().cloned()).collect();
        loop {
            let wake = tally.lock().unwrap().next_tick().unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            let heard = tokio::select! {
                heard = heard.recv() => heard,
                () = tokio::time::sleep_until(wake.into()) => {
                    tally.lock().unwrap().tick(Instant::now());
                    None
                }
            };
            let heard = match heard {
                Some(Heard::Reply { at, voter, text }) => match post::paths_here(request, at) {
                    Some(pick) => {
                        let reply = (at, voter, text);
                        self.pick_reply((&request.questions[at], pick), reply, posted, &route, &mut offered).await
                    }
                    None => Some(Heard::Reply { at, voter, text }),
                },
                Some(Heard::Vote { at, poll, voter, answers, .. }) if offered.contains_key(&poll) => {
                    pick::chosen(&offered[&poll], &answers).map(|paths| Heard::Picked { at, voter, paths })
                }
                heard => heard,
            };
            let decided = {
                let mut tally = tally.lock().unwrap();
                match heard {
                    Some(Heard::Vote { at, voter, when, answers, .. }) => tally.vote(at, voter, when, answers),
                    Some(Heard::Picked { at, voter, paths }) => tally.pick(at, voter, paths),
                    Some(Heard::Reply { at, voter, text }) => tally.reply(at, voter, text),
                    Some(Heard::Desk) | None => {}
                }
                if let Some(progress) = tally.progress(&desk) {
                    ask.set_progress(progress);
                }
                tally.answer()
            };
            if let Some((answer, by)) = decided {
                if self.deliver(ask, answer, &by) {
                    return;
                }
            }
        }
    }

    fn deliver(&self, ask: &Ask, answer: Answer, by: &[Voter]) -> bool {
        let who = decider(&self.team, by);
        let answer = session::settled(answer, ask.request(), crate::paths::config_dir().as_deref());
        match ask.answer_uncounted(answer) {
            Ok(()) => {
                ask.note_answered_by(&who.to_string());
                true
            }
            Err(e) => {
                tracing::warn!("matrix: the room's answer did not fit the question: {}", e.message());
                // Not delivered: only an answer from elsewhere ends it now.
                e.code() != ErrorCode::BadAnswer.as_str()
            }
        }
    }

    /// What was said about `earlier` while no server listened: its votes and thread
    /// replies, oldest first, heard as if they came now.
    async fn replay(&self, earlier: &Posted) {
        let Some(room) = self.room() else { return };
        let mut said = Vec::new();
        for id in earlier.events() {
            let Ok(id) = OwnedEventId::try_from(id) else { continue };
            let options =
                RelationsOptions { dir: Direction::Forward, limit: Some(UInt::from(100u32)), ..Default::default() };
            match room.relations(id, options).await {
                Ok(relations) => said.extend(relations.chunk),
                Err(e) => tracing::warn!("matrix: could not read what was said meanwhile: {e}"),
            }
        }
        let mut heard: Vec<_> = said
            .iter()
            .filter_map(|e| Some((e.raw().deserialize().ok()?, e.encryption_info().map(|i| (**i).clone()))))
            .collect();
        heard.sort_by_key(|(e, _): &(AnySyncTimelineEvent, _)| e.origin_server_ts());
        for (event, encryption) in heard {
            match event {
                AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::UnstablePollResponse(
                    SyncMessageLikeEvent::Original(vote),
                )) => {
                    let (start, answers) = (vote.content.relates_to.event_id, vote.content.poll_response.answers);
                    self.heard_vote(&start, &vote.sender, encryption.as_ref(), vote.origin_server_ts, answers).await
                }
                AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::RoomMessage(
                    SyncMessageLikeEvent::Original(reply),
                )) => {
                    if let Some(Relation::Thread(thread)) = &reply.content.relates_to {
                        let text = reply.content.body().to_owned();
                        self.heard_reply(&thread.event_id, &reply.sender, encryption.as_ref(), text).await
                    }
                }
                _ => {}
            }
        }
    }

    /// A long detail, whole, as an encrypted file in the thread of `message`; sent
    /// again and again until it is, as [`Self::send`] does.
    async fn send_file(&self, message: &str, file: &post::File) -> OwnedEventId {
        let Ok(message) = OwnedEventId::try_from(message) else { return std::future::pending().await };
        self.until_sent(|room| {
            let reply = Reply {
                event_id: message.clone(),
                enforce_thread: EnforceThread::Threaded(ReplyWithinThread::No),
                add_mentions: AddMentions::No,
            };
            let config = AttachmentConfig::new().reply(Some(reply));
            let bytes = file.text.clone().into_bytes();
            async move {
                let sent = room.send_attachment(&file.name, &mime::TEXT_PLAIN_UTF_8, bytes, config).await?;
                Ok(sent.event_id)
            }
        })
        .await
    }

    /// After the ask ended: its polls ended with where it was answered; redacted
    /// unless the room answered it.
    pub(super) async fn withdraw(&self, posted: Posted, ours: bool, how: String) {
        self.open.end(&posted.message);
        let events: Vec<OwnedEventId> = posted.events().filter_map(|id| id.try_into().ok()).collect();
        {
            let mut routes = self.routes.lock().unwrap();
            for id in &events {
                routes.remove(id);
            }
        }
        let Some(room) = self.room() else { return };
        for (_, poll) in &posted.polls {
            let Ok(poll) = OwnedEventId::try_from(poll.as_str()) else { continue };
            if let Err(e) = room.send(UnstablePollEndEventContent::new(how.clone(), poll)).await {
                tracing::warn!("matrix: could not end a poll: {e}");
            }
        }
        if !ours {
            for id in events.iter().rev() {
                if let Err(e) = room.redact(id, None, None).await {
                    tracing::warn!("matrix: could not take a question down: {e}");
                }
            }
        }
    }
}

/// What [`Bridge::follow`] counts with: the tally the ask's count shares, and the
/// room's (and the desk's) word on the ask.
struct Counting {
    tally: Arc<Mutex<Tally>>,
    to: mpsc::UnboundedSender<Heard>,
    heard: mpsc::UnboundedReceiver<Heard>,
    desk: Voter,
    /// The request as the room sees it ([`session::shown`]).
    shown: Request,
}

impl Bridge {
    /// The tally of `ask`; on the ask as its count when the team decides it (the
    /// service's team rule, which `keep` sets from the same rule), so an answer given
    /// here is the desk's vote.
    fn counting(&self, ask: &Ask) -> Counting {
        let shown = session::shown(ask.request(), crate::paths::config_dir().as_deref());
        let (to, heard) = mpsc::unbounded_channel();
        let tally = Arc::new(Mutex::new(Tally::new(&shown, self.team.clone())));
        let desk = Voter { user: self.desk.clone(), device: DESK.into() };
        if ask.needs_team() {
            let count = DeskCount {
                tally: tally.clone(),
                desk: desk.clone(),
                team: self.team.clone(),
                voted: to.clone(),
                asked: Request::clone(ask.request()),
            };
            ask.count_with(Arc::new(count));
        }
        Counting { tally, to, heard, desk, shown }
    }
}

/// The bridge as the waterfall holds it.
pub struct Answering(pub Arc<Bridge>);

#[async_trait]
impl Answerer for Answering {
    async fn answer(&self, ask: &Ask, next: Next<'_>) -> Result<Answer, UserQuestionError> {
        let bridge = &self.0;
        let posted = Mutex::new(None);
        let counting = bridge.counting(ask);
        let earlier = bridge.open.take(ask.request_json().get());
        let follow = bridge.follow(ask, &posted, counting, earlier);
        let rest = async {
            match next.run().await {
                // Nobody here: the room holds the ask.
                Err(e) if e.code() == ErrorCode::NoProvider.as_str() => {
                    ask.claim();
                    tokio::select! {
                        () = ask.delivered() => ask.delivery(),
                        () = ask.withdrawn() => Err(ask.withdrawal().expect("withdrawn with a reason")),
                    }
                }
                outcome => outcome,
            }
        };
        tokio::pin!(follow, rest);
        let outcome = tokio::select! {
            outcome = &mut rest => outcome,
            () = &mut follow => rest.await,
        };
        bridge.ended(ask, &posted, &outcome);
        outcome
    }
}

impl Bridge {
    /// Takes up a question an earlier run left in the room whose asker asked again
    /// before this run's bridge was in the waterfall, so that another answerer (a
    /// window, at the lowest priority) holds it: the room's votes, those given
    /// meanwhile included, decide it as if the bridge had been offered it, and an
    /// answer from the holder ends it in the room. Nothing is lost whoever holds it.
    pub(super) async fn take_up(self: Arc<Self>, ask: Ask, earlier: Posted) {
        let posted = Mutex::new(None);
        let counting = self.counting(&ask);
        tokio::select! {
            () = self.follow(&ask, &posted, counting, Some(earlier)) => {}
            () = ask.ended() => {}
        }
        ask.ended().await;
        self.ended(&ask, &posted, &ask.take_outcome());
    }

    /// The question of `ask` ended: its poll ends in the room, saying how, unless the
    /// server stops (its asker may ask again, and finds it in the room).
    fn ended(self: &Arc<Self>, ask: &Ask, posted: &Mutex<Option<Posted>>, outcome: &Result<Answer, UserQuestionError>) {
        let Some(posted) = posted.lock().unwrap().take() else { return };
        if (self.stopping)() {
            return;
        }
        let by = ask.answered_by().map(|n| Decider::parse(&n));
        let ours = matches!(by, Some(Decider::Matrix(_)));
        let how = ending(outcome, by.as_ref());
        let bridge = self.clone();
        tokio::spawn(async move { bridge.withdraw(posted, ours, how).await });
    }
}

/// What a poll's end says: who answered, where, or why the question went.
fn ending(outcome: &Result<Answer, UserQuestionError>, by: Option<&Decider>) -> String {
    let en = user_questions_i18n::Text::for_tag("en");
    match (outcome, by) {
        (Err(e), _) if e.code() == ErrorCode::AskAborted.as_str() => "Withdrawn: the agent stopped asking.".into(),
        // The desk's own person is "you" in their history; in the room, who they are.
        (_, Some(Decider::Matrix(people))) if people.iter().any(|p| p == DESK) => {
            format!("Answered by {}.", people_named(people, DESK_PERSON).join(", "))
        }
        (_, Some(who)) => format!("Answered by {}.", who.words(&en)),
        (_, None) => "Answered elsewhere.".into(),
    }
}
