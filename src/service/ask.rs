//! One ask in flight, as an answerer holds it. The handle is how an answerer that
//! answers later (a socket client, a window, a terminal) delivers its outcome: the
//! answer is checked here, so a misfit goes back to that answerer and the ask stays
//! with it, and the first valid outcome wins exactly once. A delivered outcome goes
//! back up the waterfall, through every answerer that handed the ask on, before the
//! asker receives it.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use serde_json::value::RawValue;

use tokio::sync::watch;

use super::count::{Count, Progress, Vote};
use super::pending::{Ending, Pending, PendingAsk};
use super::signal::Signal;
use crate::model::{Answer, Request, UserQuestionError};

/// A handle on an ask in flight; cheap to clone.
#[derive(Clone)]
pub struct Ask(Arc<Inner>);

/// An ask as the service keeps it, to be answered by its id: it never keeps the ask
/// alive.
#[derive(Clone)]
pub(crate) struct Kept(std::sync::Weak<Inner>);

impl Kept {
    pub fn ask(&self) -> Option<Ask> {
        self.0.upgrade().map(Ask)
    }
}

struct Inner {
    seq: u64,
    id: String,
    since: SystemTime,
    request: Arc<Request>,
    /// The `client.name` of whoever asked (see [`Ask::client`]).
    client: Option<Arc<str>>,
    /// The request's JSON, written once for whoever sends or keeps it (an offer over
    /// the socket, the history's journal).
    request_json: OnceLock<Box<RawValue>>,
    outcome: Mutex<Option<Result<Answer, UserQuestionError>>>,
    /// What the holder delivered, on its way back up the waterfall.
    delivery: Mutex<Option<Result<Answer, UserQuestionError>>>,
    delivered: Signal,
    /// The answerer currently offered the ask.
    offeree: Mutex<Option<Arc<str>>>,
    /// Who gave the outcome: the answerer's registered name, or a finer name it gave.
    answered_by: Mutex<Option<Arc<str>>>,
    /// Why the ask was withdrawn (`ASK_ABORTED`, `SHUTTING_DOWN`).
    withdrawal: Mutex<Option<UserQuestionError>>,
    withdrawn: Signal,
    ended: Signal,
    pending: Arc<Pending>,
    /// A team's count, for a question one answer here does not decide alone.
    counting: OnceLock<Box<Counting>>,
    /// A question of it is one the team decides (the service's team rule said so).
    team: bool,
}

struct Counting {
    count: Arc<dyn Count>,
    progress: watch::Sender<Option<Progress>>,
}

impl Ask {
    pub(crate) fn post(
        seq: u64,
        request: Request,
        client: Option<Arc<str>>,
        pending: Arc<Pending>,
        team: bool,
    ) -> Self {
        let request = Arc::new(request);
        let id = format!("a{seq}");
        let since = SystemTime::now();
        let listed = PendingAsk { ask: id.clone(), request: request.clone(), answerer: None, since, progress: None };
        let ask = Self(Arc::new(Inner {
            seq,
            id,
            since,
            request,
            client,
            request_json: OnceLock::new(),
            outcome: Mutex::new(None),
            delivery: Mutex::new(None),
            delivered: Signal::default(),
            offeree: Mutex::new(None),
            answered_by: Mutex::new(None),
            withdrawal: Mutex::new(None),
            withdrawn: Signal::default(),
            ended: Signal::default(),
            pending,
            counting: OnceLock::new(),
            team,
        }));
        ask.0.pending.post(seq, listed);
        ask
    }

    /// The ask as the service keeps it to be answered by its id, never keeping it alive.
    pub(crate) fn kept(&self) -> Kept {
        Kept(Arc::downgrade(&self.0))
    }

    /// The ask's id, unique for the service's lifetime (`a1`, `a2`, ...).
    pub fn id(&self) -> &str {
        &self.0.id
    }

    /// Place in the order asks were received (1, 2, ...).
    pub fn order(&self) -> u64 {
        self.0.seq
    }

    /// When the ask was received.
    pub fn since(&self) -> SystemTime {
        self.0.since
    }

    /// The request as answerers see it: no runtime token.
    pub fn request(&self) -> &Arc<Request> {
        &self.0.request
    }

    /// The client that asked: the `client.name` of the connection the ask came
    /// through, else that of the connection that entered its agent; `None` when
    /// neither was named. Remembered answers are kept per client.
    pub fn client(&self) -> Option<&str> {
        self.0.client.as_deref()
    }

    /// The request as JSON text, serialized at most once however many read it.
    pub fn request_json(&self) -> &RawValue {
        self.0.request_json.get_or_init(|| self.0.request.to_json())
    }

    /// Takes the ask: observers see this answerer as its holder.
    pub fn claim(&self) {
        let holder = self.0.offeree.lock().unwrap().clone();
        self.0.pending.hold(self.0.seq, holder);
    }

    /// Answers the ask. A misfit is `BAD_ANSWER` and the ask stays pending; an ask
    /// already answered, rejected, withdrawn or ended is `NOT_PENDING`.
    /// On an ask a team counts ([`Self::count_with`]), the answer is a vote: counted,
    /// it leaves the ask pending (and `Ok`).
    pub fn answer(&self, answer: Answer) -> Result<(), UserQuestionError> {
        let answer = answer.fit(&self.0.request.questions)?;
        self.deliver(Ok(answer), true)
    }

    /// Answers the ask with an answer that is not a vote, whatever count is on it: what
    /// the count itself decided, or the person's deadline.
    pub fn answer_uncounted(&self, answer: Answer) -> Result<(), UserQuestionError> {
        let answer = answer.fit(&self.0.request.questions)?;
        self.deliver(Ok(answer), false)
    }

    /// Ends the ask with an answerer's own error, which the asker receives unchanged.
    pub fn reject(&self, error: UserQuestionError) -> Result<(), UserQuestionError> {
        self.deliver(Err(error), false)
    }

    fn deliver(&self, mut outcome: Result<Answer, UserQuestionError>, vote: bool) -> Result<(), UserQuestionError> {
        let mut slot = self.0.delivery.lock().unwrap();
        if slot.is_some() || self.ending().is_some() || self.is_withdrawn() {
            return Err(UserQuestionError::not_pending(self.id()));
        }
        if let (Ok(answer), Some(counting), true) = (&outcome, self.0.counting.get(), vote) {
            match counting.count.vote_here(answer) {
                Vote::Decides => {}
                Vote::Completes { answer, by } => {
                    outcome = Ok(answer);
                    self.note_answered_by(&by);
                }
                Vote::Counted(progress) => {
                    drop(slot);
                    self.set_progress(progress);
                    return Ok(());
                }
            }
        }
        *slot = Some(outcome);
        drop(slot);
        self.0.delivered.set();
        Ok(())
    }

    /// Puts a team's count on the ask: from now on each answer given below is a vote
    /// the count takes (see [`Count`]). Set once; later calls do nothing.
    pub fn count_with(&self, count: Arc<dyn Count>) {
        let _ = self.0.counting.set(Box::new(Counting { count, progress: watch::Sender::new(None) }));
    }

    /// Whether a question of the ask is one a team decides (see
    /// [`super::UserQuestions::set_team`]).
    pub fn needs_team(&self) -> bool {
        self.0.team
    }

    /// Tells whoever shows the ask where its count stands.
    pub fn set_progress(&self, progress: Progress) {
        let Some(counting) = self.0.counting.get() else { return };
        self.0.pending.progress(self.0.seq, progress.clone());
        counting.progress.send_replace(Some(progress));
    }

    /// Where the ask's count stands, when it is counted and a vote came.
    pub fn progress(&self) -> Option<Progress> {
        self.0.counting.get().and_then(|c| c.progress.borrow().clone())
    }

    /// Changes of [`Self::progress`], for a holder that shows it; `None` when the ask
    /// is not counted.
    pub fn watch_progress(&self) -> Option<watch::Receiver<Option<Progress>>> {
        self.0.counting.get().map(|c| c.progress.subscribe())
    }

    /// Resolves once the holder delivered through [`Self::answer`] or [`Self::reject`].
    pub(crate) async fn delivered(&self) {
        self.0.delivered.wait().await
    }

    /// Whether an answer or an error was delivered (by anyone, through [`Self::answer`]
    /// or [`Self::reject`]).
    pub(crate) fn is_delivered(&self) -> bool {
        self.0.delivery.lock().unwrap().is_some()
    }

    /// What the holder delivered.
    pub(crate) fn delivery(&self) -> Result<Answer, UserQuestionError> {
        self.0.delivery.lock().unwrap().clone().expect("an ask is delivered before its delivery is read")
    }

    /// Names who gives the outcome more finely than the answerer's registered name
    /// (a remembered answer names its rule: `rule:3`). Called before returning it.
    pub fn note_answered_by(&self, name: &str) {
        *self.0.answered_by.lock().unwrap() = Some(name.into());
    }

    /// Who gave the outcome: set by the waterfall to the registered name of the
    /// answerer the outcome came from, unless that answerer named itself.
    pub fn answered_by(&self) -> Option<Arc<str>> {
        self.0.answered_by.lock().unwrap().clone()
    }

    pub(crate) fn answered_by_default(&self, name: &Arc<str>) {
        self.0.answered_by.lock().unwrap().get_or_insert_with(|| name.clone());
    }

    /// Why the ask was withdrawn, once it was.
    pub fn withdrawal(&self) -> Option<UserQuestionError> {
        self.0.withdrawal.lock().unwrap().clone()
    }

    /// Resolves when the asker cancelled, left, or the service is stopping: whoever
    /// holds the ask should take it down.
    pub async fn withdrawn(&self) {
        self.0.withdrawn.wait().await
    }

    pub fn is_withdrawn(&self) -> bool {
        self.0.withdrawn.is_set()
    }

    /// Resolves when the ask has ended, however it ended.
    pub async fn ended(&self) {
        self.0.ended.wait().await
    }

    /// How the ask ended, or `None` while it is pending.
    pub fn ending(&self) -> Option<Ending> {
        self.0.outcome.lock().unwrap().as_ref().map(Ending::of)
    }

    pub(crate) fn offer_to(&self, answerer: &Arc<str>) {
        *self.0.offeree.lock().unwrap() = Some(answerer.clone());
        self.0.pending.hold(self.0.seq, None);
    }

    pub(crate) fn withdraw(&self, reason: UserQuestionError) {
        self.0.withdrawal.lock().unwrap().get_or_insert(reason);
        self.0.withdrawn.set();
    }

    /// Sets the outcome unless one is set already; true when this call set it.
    pub(crate) fn settle(&self, outcome: Result<Answer, UserQuestionError>) -> bool {
        let mut slot = self.0.outcome.lock().unwrap();
        if slot.is_some() {
            return false;
        }
        let ending = Ending::of(&outcome);
        *slot = Some(outcome);
        drop(slot);
        self.0.pending.end(self.0.seq, ending);
        self.0.ended.set();
        true
    }

    pub(crate) fn take_outcome(&self) -> Result<Answer, UserQuestionError> {
        let slot = self.0.outcome.lock().unwrap();
        slot.clone().expect("an ask is settled before its outcome is read")
    }
}
