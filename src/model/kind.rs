//! What kind of decision a question is, as one type. Each kind carries its behaviour
//! here, in one place: the labels of its own options and the messages that show them,
//! which answers fit, what a deadline does with it, whether it can be batched,
//! remembered or counted by a team, and how its title is worded. The doors present a
//! kind each in a module of their own and show [`Kind::Generic`]'s form for a kind
//! they do not know, as the protocol promises; adding a kind is one variant here and
//! one module per door (docs/architecture.md lists them).

use serde::{Deserialize, Serialize};

use super::labels::{
    ALLOW, APPROVE, APPROVE_EDITS, CODE_REVIEW, DECLINE, DENY, ELICITATION, OPEN, PERMISSION, PLAN_HEADER,
    PLAN_QUESTION, PLAN_REVIEW, REQUEST_CHANGES, REVIEW_HEADER, REVIEW_QUESTION, REVISE, SEND,
};
use super::Question;

/// Every kind of question the product knows. On the wire a kind is an intent's `kind`
/// tag (`permission`, `plan-review`…), or a question's `pick` for [`Kind::FilePick`];
/// any other tag is [`Kind::Generic`], shown as the seed's option list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "QuestionKind"))]
pub enum Kind {
    /// The seed's question: options, several or one, and typed text.
    Generic,
    /// May the agent do this? Allow or Deny.
    Permission,
    /// A plan under review: Approve or Revise.
    PlanReview,
    /// Changed code under review: Approve or Request changes.
    CodeReview,
    /// An MCP server's form: Send its values, or Decline.
    Elicitation,
    /// Which files or folders? Paths picked under a root.
    FilePick,
}

/// One of a kind's own option labels: the label an asker reads, and the catalog
/// messages that show it and its description to a person (none: the option's own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnLabel {
    pub label: &'static str,
    pub message: &'static str,
    pub description: Option<&'static str>,
}

const fn own(label: &'static str, message: &'static str, description: Option<&'static str>) -> OwnLabel {
    OwnLabel { label, message, description }
}

/// What the person's deadline does with a question of a kind nobody answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lapse {
    /// Denied, with the deadline as the reason.
    Deny,
    /// Sent back unapproved, with the deadline as the reason.
    SendBack,
    /// Left without an answer: the whole ask is dismissed when nothing else decides.
    Skip,
}

/// A title a kind's own asks carry, and the message that words it for a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnTitle {
    pub question: (&'static str, &'static str),
    pub header: (&'static str, &'static str),
}

impl Kind {
    pub const ALL: [Kind; 6] =
        [Kind::Generic, Kind::Permission, Kind::PlanReview, Kind::CodeReview, Kind::Elicitation, Kind::FilePick];

    /// The kinds a team may be asked to decide (`userq matrix team --for`).
    pub const DECISIONS: [Kind; 3] = [Kind::Permission, Kind::PlanReview, Kind::CodeReview];

    /// The intent tag that declares this kind; none for the generic question and the
    /// file picker, which a question's `pick` declares.
    pub fn tag(self) -> Option<&'static str> {
        match self {
            Kind::Permission => Some(PERMISSION),
            Kind::PlanReview => Some(PLAN_REVIEW),
            Kind::CodeReview => Some(CODE_REVIEW),
            Kind::Elicitation => Some(ELICITATION),
            Kind::Generic | Kind::FilePick => None,
        }
    }

    /// The kind an intent's tag declares: an unknown tag is a generic question.
    pub fn of_tag(tag: &str) -> Kind {
        Self::ALL.into_iter().find(|k| k.tag() == Some(tag)).unwrap_or(Kind::Generic)
    }

    /// The kind of `question`.
    pub fn of(question: &Question) -> Kind {
        if question.pick.is_some() {
            return Kind::FilePick;
        }
        question.intent.as_ref().map_or(Kind::Generic, |i| Kind::of_tag(&i.kind))
    }

    /// The labels of the options the product gives its own questions of this kind.
    pub fn own_labels(self) -> &'static [OwnLabel] {
        const PERMISSION_LABELS: [OwnLabel; 2] = [
            own(ALLOW, "label-allow", Some("label-allow-description")),
            own(DENY, "label-deny", Some("label-deny-description")),
        ];
        const PLAN_LABELS: [OwnLabel; 3] = [
            own(APPROVE, "label-approve", Some("label-approve-description")),
            own(REVISE, "label-revise", Some("label-revise-description")),
            own(APPROVE_EDITS, "label-approve-edits", Some("label-approve-edits-description")),
        ];
        const REVIEW_LABELS: [OwnLabel; 2] = [
            own(APPROVE, "label-approve", Some("label-approve-changes-description")),
            own(REQUEST_CHANGES, "label-request-changes", Some("label-request-changes-description")),
        ];
        // A form's descriptions name its server, and are already worded.
        const FORM_LABELS: [OwnLabel; 3] =
            [own(SEND, "label-send", None), own(DECLINE, "label-decline", None), own(OPEN, "label-open", None)];
        match self {
            Kind::Permission => &PERMISSION_LABELS,
            Kind::PlanReview => &PLAN_LABELS,
            Kind::CodeReview => &REVIEW_LABELS,
            Kind::Elicitation => &FORM_LABELS,
            Kind::Generic | Kind::FilePick => &[],
        }
    }

    /// Whether `label` is one of this kind's labels that says no.
    pub fn says_no(self, label: &str) -> bool {
        let no: &[&str] = match self {
            Kind::Permission => &[DENY],
            Kind::PlanReview => &[REVISE],
            Kind::CodeReview => &[REQUEST_CHANGES],
            Kind::Elicitation => &[DECLINE],
            Kind::Generic | Kind::FilePick => &[],
        };
        no.contains(&label)
    }

    /// What a deadline does with it.
    pub fn lapse(self) -> Lapse {
        match self {
            Kind::Permission => Lapse::Deny,
            Kind::PlanReview | Kind::CodeReview => Lapse::SendBack,
            Kind::Generic | Kind::Elicitation | Kind::FilePick => Lapse::Skip,
        }
    }

    /// A decision a team may count: one person's answer is one vote.
    pub fn is_decision(self) -> bool {
        Self::DECISIONS.contains(&self)
    }

    /// Several of it may be answered at once, with one choice (the window's marked list).
    pub fn batches(self) -> bool {
        self == Kind::Permission
    }

    /// An answer to it may be remembered and given again to the same question: not a
    /// plan (each is new), not a pick (the files change).
    pub fn remembers(self) -> bool {
        !matches!(self, Kind::PlanReview | Kind::FilePick)
    }

    /// The message that names it in the history, the phone's rules and the window.
    pub fn message(self) -> &'static str {
        match self {
            Kind::Generic => "kind-generic",
            Kind::Permission => "kind-permission",
            Kind::PlanReview => "kind-plan-review",
            Kind::CodeReview => "kind-code-review",
            Kind::Elicitation => "kind-elicitation",
            Kind::FilePick => "kind-file-pick",
        }
    }

    /// The title the product's own asks of this kind carry, worded for a person by its
    /// messages; none where the asker words its own.
    pub fn own_title(self) -> Option<OwnTitle> {
        match self {
            Kind::PlanReview => Some(OwnTitle {
                question: (PLAN_QUESTION, "label-plan-question"),
                header: (PLAN_HEADER, "label-plan-header"),
            }),
            Kind::CodeReview => Some(OwnTitle {
                question: (REVIEW_QUESTION, "label-review-question"),
                header: (REVIEW_HEADER, "label-review-header"),
            }),
            _ => None,
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = serde_json::to_value(self).ok();
        f.write_str(shown.as_ref().and_then(|v| v.as_str()).unwrap_or("generic"))
    }
}

impl std::str::FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        serde_json::from_value(serde_json::Value::String(s.to_owned())).map_err(|_| {
            let known: Vec<String> = Kind::ALL.iter().map(Kind::to_string).collect();
            format!("{s:?} is no kind of question (one of {})", known.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Intent;

    #[test]
    fn a_tag_names_its_kind_and_an_unknown_one_is_generic() {
        for kind in Kind::ALL {
            if let Some(tag) = kind.tag() {
                assert_eq!(Kind::of_tag(tag), kind);
                assert_eq!(kind.to_string(), tag, "the wire's tag is the kind's name");
            }
            assert_eq!(kind.to_string().parse::<Kind>(), Ok(kind));
        }
        assert_eq!(Kind::of_tag("diff-review"), Kind::Generic);
        let mut q = Question::new("a", "q");
        assert_eq!(Kind::of(&q), Kind::Generic);
        q.intent = Some(Intent { kind: PLAN_REVIEW.into(), approve: APPROVE.into(), extra: Default::default() });
        assert_eq!(Kind::of(&q), Kind::PlanReview);
        assert!("nonsense".parse::<Kind>().unwrap_err().contains("plan-review"));
    }

    #[test]
    fn each_kind_says_no_with_its_own_labels() {
        for kind in Kind::ALL {
            for own in kind.own_labels() {
                let no = kind.says_no(own.label);
                assert_eq!(no, [DENY, REVISE, REQUEST_CHANGES, DECLINE].contains(&own.label), "{kind} {}", own.label);
            }
        }
    }
}
