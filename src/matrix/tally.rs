//! Counting what the room says about one ask: votes in each question's poll and
//! replies in its thread, from the people who count, into the answer the asker gets and
//! who gave it. Nothing here talks to the homeserver; [`super::answerer`] feeds it what
//! sync brings, checked first for who sent it.
//!
//! How a vote and a thread reply combine:
//! - A vote answers its question at once, except a vote that says no (Deny, Revise,
//!   Request changes, Decline): that waits up to [`REASON_WAIT`] for its voter's reply
//!   in the thread, which becomes the reason the agent reads, unless the voter wrote
//!   one before voting.
//! - A reply written before the voter's own vote is that vote's note (an approval with
//!   notes; the reason of a no).
//! - A reply alone answers a question without a decision to make (no permission, plan
//!   or change under review) as its typed ("Other") answer. For a decision, a tap in the
//!   poll is always needed: a reply alone is held as a note for the writer's vote.
//!
//! Teams: with approvers named, only their votes count. A decision (a permission, a
//! plan, a change under review) is approved once `quorum` approvers voted the same
//! approving option, and refused at once by one approver's no (fail safe); each vote is
//! its voter's latest (ruma's `compile_unstable_poll_results`). Any other question is
//! answered by the first approver.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use matrix_sdk::ruma::events::poll::compile_unstable_poll_results;
use matrix_sdk::ruma::events::poll::unstable_start::UnstablePollStartContentBlock;
use matrix_sdk::ruma::events::poll::PollResponseData;
use matrix_sdk::ruma::{MilliSecondsSinceUnixEpoch, OwnedUserId, UserId};

use super::post;
use crate::model::labels::{APPROVE, APPROVE_EDITS};
use crate::model::{Answer, AnswerItem, Kind, Question, Request};
use crate::review::{self, plan};
use crate::service::Progress;

/// How long a no waits for its reason.
pub const REASON_WAIT: Duration = Duration::from_secs(60);

/// Who voted or wrote: the user and the device it came from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Voter {
    pub user: OwnedUserId,
    pub device: String,
}

/// The device a vote given at the desk (the window, a terminal, a socket answerer, a
/// paired machine) is counted from; who decided, when the desk's person is not named.
pub use crate::history::decider::DESK;
/// The desk's person, unnamed on Matrix, as the agent and the room read it.
pub const DESK_PERSON: &str = "the person at the desk";

/// The team's rule, as [`super::room::Rule`] keeps it.
#[derive(Debug, Clone, Default)]
pub struct Team {
    pub approvers: Vec<String>,
    pub quorum: usize,
    /// The kinds of decision that need the team.
    pub kinds: Vec<Kind>,
    /// When any are named, only a decision whose question or detail says one of
    /// these (case aside) needs the team.
    pub when: Vec<String>,
    /// Who the desk's own person is on Matrix; `None`: a person of their own.
    pub desk: Option<String>,
}

impl Team {
    /// Whether `user`'s votes count (an approver, or anyone when none are named).
    pub fn counts(&self, user: &str) -> bool {
        self.approvers.is_empty() || self.approvers.iter().any(|a| a == user)
    }

    /// Whether `question` needs the team's quorum: a decision of a kind the person
    /// chose, saying what they chose, with a quorum of more than one.
    pub fn needs(&self, question: &Question) -> bool {
        let kind = Kind::of(question);
        if self.quorum <= 1 || !kind.is_decision() {
            return false;
        }
        let said = |text: &str| {
            let text = text.to_lowercase();
            self.when.iter().any(|w| text.contains(&w.to_lowercase()))
        };
        self.kinds.contains(&kind)
            && (self.when.is_empty() || said(&question.question) || question.detail.as_deref().is_some_and(said))
    }

    /// How `voter` is named to the agent and in the window.
    pub fn name(&self, voter: &Voter) -> String {
        match (&self.desk, voter.device.as_str()) {
            (None, DESK) => DESK_PERSON.into(),
            _ => voter.user.to_string(),
        }
    }

    /// How `voter` is kept as who decided: `@user:server/DEVICE`, or `desk`.
    pub fn kept(&self, voter: &Voter) -> String {
        match (&self.desk, voter.device.as_str()) {
            (None, DESK) => DESK.into(),
            _ => format!("{}/{}", voter.user, voter.device),
        }
    }
}

/// A question's answer and who gave it.
#[derive(Debug, Clone)]
struct Decided {
    item: AnswerItem,
    by: Vec<Voter>,
}

/// One question's votes and notes.
struct Count {
    poll: Option<UnstablePollStartContentBlock>,
    /// Every counted vote, in the order heard.
    votes: Vec<(Voter, MilliSecondsSinceUnixEpoch, Vec<String>)>,
    /// Each person's latest reply not yet used.
    notes: HashMap<OwnedUserId, String>,
    /// A no waiting for its reason.
    waiting: Option<(Voter, String, Instant)>,
    decided: Option<Decided>,
}

impl Count {
    /// The votes per option, each person's latest only (ruma's tally); `None` for a
    /// question without a poll.
    fn results(&self) -> Option<Vec<(&str, Vec<&UserId>)>> {
        let responses = self.votes.iter().map(|(v, ts, answers)| PollResponseData {
            sender: &v.user,
            origin_server_ts: *ts,
            selections: answers,
        });
        let results = compile_unstable_poll_results(self.poll.as_ref()?, responses, None);
        Some(results.into_iter().map(|(id, users)| (id, users.into_iter().collect())).collect())
    }

    /// `user`'s latest vote: who, from which device.
    fn latest(&self, user: &UserId) -> &Voter {
        let (voter, _, _) = self.votes.iter().rev().find(|(v, _, _)| v.user == user).expect("a voter voted");
        voter
    }
}

/// The room's say on one ask.
pub struct Tally {
    questions: Vec<Question>,
    counts: Vec<Count>,
    team: Team,
}

impl Tally {
    pub fn new(request: &Request, team: Team) -> Self {
        let counts = request
            .questions
            .iter()
            .map(|q| Count {
                poll: post::poll(q).map(|p| p.poll_start),
                votes: Vec::new(),
                notes: HashMap::new(),
                waiting: None,
                decided: None,
            })
            .collect();
        Self { questions: request.questions.clone(), counts, team }
    }

    /// A counted vote on question `at`'s poll.
    pub fn vote(&mut self, at: usize, voter: Voter, at_time: MilliSecondsSinceUnixEpoch, answers: Vec<String>) {
        let Some(count) = self.counts.get_mut(at) else { return };
        if count.decided.is_some() {
            return;
        }
        count.votes.push((voter.clone(), at_time, answers));
        self.settle(at, Instant::now());
    }

    /// A counted reply in question `at`'s thread.
    pub fn reply(&mut self, at: usize, voter: Voter, text: String) {
        let question = &self.questions[at];
        let Some(count) = self.counts.get_mut(at) else { return };
        if count.decided.is_some() || text.trim().is_empty() {
            return;
        }
        if let Some((waiting, label, _)) = count.waiting.take_if(|(v, _, _)| v.user == voter.user) {
            let item = item(question, &label, Some(&text));
            count.decided = Some(Decided { item, by: vec![waiting] });
        } else if !Kind::of(question).is_decision() && count.votes.iter().all(|(v, _, _)| v.user != voter.user) {
            count.decided = Some(Decided { item: AnswerItem::custom(question.id.clone(), text), by: vec![voter] });
        } else {
            count.notes.insert(voter.user.clone(), text);
        }
    }

    /// Paths picked for question `at`'s file pick (a path replied, or voted for in a
    /// poll of matches): its answer, as a reply alone answers a question that is no
    /// decision.
    pub fn pick(&mut self, at: usize, voter: Voter, paths: Vec<String>) {
        let Some(question) = self.questions.get(at) else { return };
        let count = &mut self.counts[at];
        if count.decided.is_none() && (question.multi_select || paths.len() == 1) {
            let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
            count.decided = Some(Decided { item: AnswerItem::selected(question.id.clone(), &paths), by: vec![voter] });
        }
    }

    /// An answer given at the desk, as `voter`'s vote. Counted (true) when it approves
    /// every question that needs the team: those approvals join the room's votes, and
    /// the rest of its questions are decided as given. Not counted (false) when it says
    /// no to one (which ends a team question at once, fail safe) or needs no team at
    /// all: the answer then stands as given.
    pub fn desk(&mut self, voter: &Voter, answer: &Answer) -> bool {
        let mut approvals = Vec::new();
        for (at, question) in self.questions.iter().enumerate() {
            let Some(item) = answer.answers.iter().find(|i| i.id == question.id) else { return false };
            if !self.team.needs(question) {
                continue;
            }
            let Some((label, note)) = approval(question, item) else { return false };
            let Some(n) = question.options.iter().position(|o| o.label == label) else { return false };
            approvals.push((at, post::option_id(n), note));
        }
        if approvals.is_empty() {
            return false;
        }
        let now = MilliSecondsSinceUnixEpoch::now();
        for (at, question) in self.questions.iter().enumerate() {
            let count = &mut self.counts[at];
            if count.decided.is_some() {
                continue;
            }
            match approvals.iter().find(|(a, _, _)| *a == at) {
                Some((_, id, note)) => {
                    if let Some(note) = note {
                        count.notes.insert(voter.user.clone(), note.clone());
                    }
                    count.votes.push((voter.clone(), now, vec![id.clone()]));
                }
                None => {
                    let item = answer.answers.iter().find(|i| i.id == question.id).expect("checked above");
                    count.decided = Some(Decided { item: item.clone(), by: vec![voter.clone()] });
                }
            }
        }
        for (at, _, _) in approvals {
            self.settle(at, Instant::now());
        }
        true
    }

    /// Where the first team question still open stands: who approved it (its most
    /// voted approving option), the desk's own person aside, and how many more it
    /// needs; what the desk's person voted, here or in the room.
    pub fn progress(&self, desk: &Voter) -> Option<Progress> {
        let (at, question) = self
            .questions
            .iter()
            .enumerate()
            .find(|(at, q)| self.team.needs(q) && self.counts[*at].decided.is_none())?;
        let count = &self.counts[at];
        let results = count.results()?;
        let most = results
            .iter()
            .filter(|(id, _)| post::option_of(question, id).is_some_and(|l| !Kind::of(question).says_no(l)))
            .max_by_key(|(_, users)| users.len());
        let users: &[&UserId] = most.map(|(_, users)| users.as_slice()).unwrap_or_default();
        let approved = users.iter().filter(|u| **u != desk.user).map(|u| self.team.name(count.latest(u))).collect();
        let yours = count.votes.iter().rev().find(|(v, _, _)| v.user == desk.user).map(|(_, _, answers)| {
            answers.iter().filter_map(|id| post::option_of(question, id)).map(str::to_owned).collect()
        });
        Some(Progress { needed: self.team.quorum.saturating_sub(users.len()), approved, yours })
    }

    /// Lets a no that waited long enough for its reason go without one.
    pub fn tick(&mut self, now: Instant) {
        for at in 0..self.counts.len() {
            self.settle(at, now);
        }
    }

    /// When a waiting no gives up waiting for its reason.
    pub fn next_tick(&self) -> Option<Instant> {
        self.counts.iter().filter_map(|c| c.waiting.as_ref().map(|(_, _, since)| *since + REASON_WAIT)).min()
    }

    /// The answer, once every question is decided, and everyone who decided.
    pub fn answer(&self) -> Option<(Answer, Vec<Voter>)> {
        let mut items = Vec::new();
        let mut by: Vec<Voter> = Vec::new();
        for count in &self.counts {
            let decided = count.decided.as_ref()?;
            items.push(decided.item.clone());
            for voter in &decided.by {
                if !by.contains(voter) {
                    by.push(voter.clone());
                }
            }
        }
        Some((Answer::new(items), by))
    }

    /// Question `at` as the votes stand: decided, waiting for a reason, or still open.
    fn settle(&mut self, at: usize, now: Instant) {
        let question = &self.questions[at];
        let count = &mut self.counts[at];
        if count.decided.is_some() {
            return;
        }
        if let Some((voter, label, since)) = count.waiting.take() {
            if now < since + REASON_WAIT {
                count.waiting = Some((voter, label, since));
            } else {
                count.decided = Some(Decided { item: item(question, &label, None), by: vec![voter] });
            }
            return;
        }
        let Some(results) = count.results() else { return };
        let team = self.team.needs(question);
        // A no from anyone who counts ends it, as does the first answer of a question
        // that needs no team; else the first approving option with enough votes.
        let no = results.iter().find_map(|(id, users)| {
            let label = post::option_of(question, id)?;
            (Kind::of(question).is_decision() && Kind::of(question).says_no(label))
                .then(|| users.iter().next().map(|u| (label, u.to_owned())))?
        });
        let (labels, by): (Vec<String>, Vec<Voter>) = if let Some((label, user)) = no {
            let voter = count.latest(user).clone();
            if let Some(note) = count.notes.remove(&voter.user) {
                count.decided = Some(Decided { item: item(question, label, Some(&note)), by: vec![voter] });
            } else {
                count.waiting = Some((voter, label.to_owned(), now));
            }
            return;
        } else if team {
            let Some((id, users)) = results.iter().find(|(_, users)| users.len() >= self.team.quorum) else { return };
            // In the order they voted.
            let mut voters: Vec<Voter> = users.iter().map(|u| count.latest(u).clone()).collect();
            voters.sort_by_key(|v| count.votes.iter().rposition(|(w, _, _)| w == v));
            (post::option_of(question, id).into_iter().map(str::to_owned).collect(), voters)
        } else {
            let Some((voter, _, answers)) = count.votes.last() else { return };
            let labels: Vec<String> =
                answers.iter().filter_map(|id| post::option_of(question, id)).map(str::to_owned).collect();
            if labels.is_empty() || labels.len() != answers.len() || (!question.multi_select && labels.len() > 1) {
                return;
            }
            (labels, vec![voter.clone()])
        };
        let mut notes: Vec<String> = by.iter().filter_map(|v| count.notes.remove(&v.user)).collect();
        if team {
            let names: Vec<String> = by.iter().map(|v| self.team.name(v)).collect();
            notes.push(format!("Approved by {}.", names.join(", ")));
        }
        let note = (!notes.is_empty()).then(|| notes.join("\n\n"));
        let item = match labels.as_slice() {
            [label] => item(question, label, note.as_deref()),
            labels => {
                let mut item =
                    AnswerItem::selected(question.id.clone(), &labels.iter().map(String::as_str).collect::<Vec<_>>());
                item.custom = note.filter(|_| question.multi_select);
                item
            }
        };
        count.decided = Some(Decided { item, by });
    }
}

/// The approving option an answer given at the desk chose for a decision, with its
/// notes; `None` when it says no or decides nothing. Read as the hooks read it.
fn approval(question: &Question, item: &AnswerItem) -> Option<(String, Option<String>)> {
    let one = Answer::new(vec![item.clone()]);
    match Kind::of(question) {
        Kind::PlanReview => match plan::verdict(&one, None) {
            plan::Verdict::Approved { label, notes } => {
                let notes = notes.map(|n| plan::without_preamble(&n).to_owned()).filter(|n| !n.is_empty());
                Some((label.to_owned(), notes))
            }
            _ => None,
        },
        Kind::CodeReview => (review::verdict(&one) == review::Verdict::Approved).then(|| (APPROVE.to_owned(), None)),
        _ => match (item.custom.as_deref().map(str::trim).filter(|t| !t.is_empty()), item.selected.as_slice()) {
            (None, [label]) if !Kind::of(question).says_no(label) => Some((label.clone(), None)),
            _ => None,
        },
    }
}

/// The answer item of one option chosen, with the voter's note: a plan's approval
/// with notes or revision in the review's own words, a no's reason as the text the
/// agent reads, an approval's note dropped where the agent has no place for it.
fn item(question: &Question, label: &str, note: Option<&str>) -> AnswerItem {
    let id = question.id.clone();
    let plan = Kind::of(question) == Kind::PlanReview;
    match note {
        Some(note) if plan => {
            let approve = (!Kind::of(question).says_no(label)).then_some(if label == APPROVE_EDITS {
                APPROVE_EDITS
            } else {
                label
            });
            match plan::feedback(approve, &[], note) {
                Some(text) => AnswerItem::custom(id, text),
                None => AnswerItem::selected(id, &[label]),
            }
        }
        Some(note) if Kind::of(question).says_no(label) || question.multi_select => {
            let mut item = AnswerItem::selected(id, &[label]);
            item.custom = Some(note.to_owned());
            item
        }
        _ => AnswerItem::selected(id, &[label]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::labels::{ALLOW, APPROVE};
    use crate::model::labels::{DENY, PERMISSION, PLAN_REVIEW, REVISE};
    use crate::model::Intent;

    fn decision(kind: &str, approve: &str, options: &[&str]) -> Request {
        let mut q = Question::new("q", "May I?");
        for o in options {
            q = q.option(*o, None);
        }
        q.intent = Some(Intent { kind: kind.into(), approve: approve.into(), extra: Default::default() });
        Request { questions: vec![q], agent: None, context: None }
    }

    fn voter(name: &str) -> Voter {
        Voter { user: format!("@{name}:hs").try_into().unwrap(), device: format!("{name}-PHONE") }
    }

    fn at(ms: u64) -> MilliSecondsSinceUnixEpoch {
        MilliSecondsSinceUnixEpoch(ms.try_into().unwrap())
    }

    fn team(quorum: usize) -> Team {
        Team {
            approvers: vec!["@alice:hs".into(), "@bob:hs".into(), "@carol:hs".into()],
            quorum,
            kinds: Kind::DECISIONS.to_vec(),
            ..Team::default()
        }
    }

    fn users(by: &[Voter]) -> Vec<&str> {
        by.iter().map(|v| v.user.as_str()).collect()
    }

    #[test]
    fn two_of_three_approve_and_a_later_no_changes_nothing() {
        let request = decision(PLAN_REVIEW, APPROVE, &[APPROVE, REVISE]);
        let mut tally = Tally::new(&request, team(2));
        tally.vote(0, voter("alice"), at(1), vec!["o1".into()]);
        assert!(tally.answer().is_none(), "one approval of two");
        tally.vote(0, voter("bob"), at(2), vec!["o1".into()]);
        let (answer, by) = tally.answer().unwrap();
        match plan::verdict(&answer, None) {
            plan::Verdict::Approved { label: APPROVE, notes: Some(n) } => {
                assert!(n.ends_with("Approved by @alice:hs, @bob:hs."), "the agent is told who: {n}")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(users(&by), ["@alice:hs", "@bob:hs"]);
        tally.vote(0, voter("carol"), at(3), vec!["o2".into()]);
        assert_eq!(users(&tally.answer().unwrap().1), ["@alice:hs", "@bob:hs"]);
    }

    #[test]
    fn one_no_ends_a_team_question_with_the_reason_that_follows_it() {
        let request = decision(PERMISSION, ALLOW, &[ALLOW, DENY]);
        let mut tally = Tally::new(&request, team(2));
        tally.vote(0, voter("alice"), at(1), vec!["o1".into()]);
        tally.vote(0, voter("carol"), at(2), vec!["o2".into()]);
        assert!(tally.answer().is_none(), "the no waits for its reason");
        assert!(tally.next_tick().is_some());
        tally.reply(0, voter("bob"), "not bob's to give".into());
        tally.reply(0, voter("carol"), "Not on a Friday.".into());
        let (answer, by) = tally.answer().unwrap();
        let fitted = answer.fit(&request.questions).unwrap();
        assert_eq!(fitted.answers[0].custom.as_deref(), Some("Not on a Friday."));
        assert_eq!(users(&by), ["@carol:hs"]);
    }

    #[test]
    fn a_no_without_a_reason_goes_once_the_wait_is_over() {
        let request = decision(PLAN_REVIEW, APPROVE, &[APPROVE, REVISE]);
        let mut tally = Tally::new(&request, Team::default());
        tally.vote(0, voter("alice"), at(1), vec!["o2".into()]);
        tally.tick(Instant::now() + REASON_WAIT / 2);
        assert!(tally.answer().is_none());
        tally.tick(Instant::now() + REASON_WAIT * 2);
        assert_eq!(tally.answer().unwrap().0.answers[0].selected, vec![REVISE]);
    }

    #[test]
    fn a_note_written_before_an_approval_goes_with_it() {
        let request = decision(PLAN_REVIEW, APPROVE, &[APPROVE, REVISE]);
        let mut tally = Tally::new(&request, Team::default());
        tally.reply(0, voter("alice"), "Mind the TTL.".into());
        assert!(tally.answer().is_none(), "a decision needs a vote");
        tally.vote(0, voter("alice"), at(1), vec!["o1".into()]);
        let (answer, _) = tally.answer().unwrap();
        let text = answer.answers[0].custom.as_deref().unwrap();
        assert_eq!(plan::verdict(&answer, None), plan::Verdict::Approved { label: APPROVE, notes: Some(text.into()) });
        assert!(text.ends_with("Mind the TTL."), "{text}");
    }

    #[test]
    fn a_reply_alone_answers_a_plain_question_and_a_spoiled_vote_nothing() {
        let q = Question::new("q", "Which one?").option("A", None).option("B", None);
        let request = Request { questions: vec![q], agent: None, context: None };
        let mut tally = Tally::new(&request, Team::default());
        tally.vote(0, voter("alice"), at(1), vec!["o9".into()]);
        tally.vote(0, voter("alice"), at(2), vec!["o1".into(), "o2".into()]);
        assert!(tally.answer().is_none(), "no such option; two on a single choice");
        tally.reply(0, voter("bob"), "Neither: C.".into());
        let (answer, by) = tally.answer().unwrap();
        assert_eq!((answer.answers[0].custom.as_deref(), users(&by)), (Some("Neither: C."), vec!["@bob:hs"]));
    }

    fn desk() -> Voter {
        Voter { user: "@bridge:hs".try_into().unwrap(), device: DESK.into() }
    }

    #[test]
    fn an_answer_at_the_desk_is_one_vote_and_a_no_there_ends_it() {
        let request = decision(PERMISSION, ALLOW, &[ALLOW, DENY]);
        let allow = Answer::new(vec![AnswerItem::selected("q", &[ALLOW])]);
        let mut tally = Tally::new(&request, team(2));
        assert!(tally.desk(&desk(), &allow), "counted");
        assert!(tally.answer().is_none(), "one approval of two");
        let progress = tally.progress(&desk()).unwrap();
        assert!(progress.approved.is_empty(), "the desk's own vote is `yours`");
        assert_eq!((progress.needed, progress.yours), (1, Some(vec![ALLOW.to_owned()])));
        tally.vote(0, voter("alice"), MilliSecondsSinceUnixEpoch::now(), vec!["o1".into()]);
        let (answer, by) = tally.answer().unwrap();
        assert_eq!(answer.answers[0].selected, [ALLOW]);
        assert_eq!(by.iter().map(|v| tally.team.kept(v)).collect::<Vec<_>>(), ["desk", "@alice:hs/alice-PHONE"]);
        assert!(tally.progress(&desk()).is_none(), "decided");

        let deny = Answer::new(vec![AnswerItem::custom("q", "Not now.")]);
        let mut tally = Tally::new(&request, team(2));
        assert!(!tally.desk(&desk(), &deny), "a no at the desk stands as given");

        // The desk named on Matrix is that person: their vote on the phone and at the
        // desk are one vote, the latest.
        let named = Team { desk: Some("@alice:hs".into()), ..team(2) };
        let mut tally = Tally::new(&request, named);
        tally.vote(0, voter("alice"), at(1), vec!["o1".into()]);
        let alice_at_desk = Voter { user: "@alice:hs".try_into().unwrap(), device: DESK.into() };
        assert!(tally.desk(&alice_at_desk, &allow));
        assert!(tally.answer().is_none(), "still one person");
        let progress = tally.progress(&alice_at_desk).unwrap();
        assert_eq!((progress.yours, progress.needed), (Some(vec![ALLOW.to_owned()]), 1));
        tally.vote(0, voter("bob"), at(5), vec!["o1".into()]);
        assert!(tally.answer().is_some(), "alice and bob");
    }

    #[test]
    fn which_questions_need_the_team_is_the_persons_choice() {
        let mut request = decision(PERMISSION, ALLOW, &[ALLOW, DENY]);
        request.questions[0].detail = Some("git push --force origin main".into());
        let only_plans = Team { kinds: vec![Kind::PlanReview], ..team(2) };
        assert!(!only_plans.needs(&request.questions[0]));
        let pushes = Team { when: vec!["GIT PUSH".into()], ..team(2) };
        assert!(pushes.needs(&request.questions[0]), "said in its detail, case aside");
        let deploys = Team { when: vec!["deploy".into()], ..team(2) };
        assert!(!deploys.needs(&request.questions[0]));
        let mut tally = Tally::new(&request, deploys);
        let allow = Answer::new(vec![AnswerItem::selected("q", &[ALLOW])]);
        assert!(!tally.desk(&desk(), &allow), "needs no team: the desk's answer stands");
        assert!(!Team { quorum: 1, ..team(1) }.needs(&request.questions[0]), "a quorum of one is no team");
    }
}
