//! The shapes the window receives, written as TypeScript from the Rust types that
//! produce them (ts-rs), into `ui/bindings.d.ts`: global declarations the page's
//! JSDoc names, checked by `tsc` with `strict`. The test fails when the file is not
//! what the types say; `make bindings` writes it again.

use ts_rs::TS;

use crate::agents::{AgentAction, AgentRow, AgentsView, ChangesView};
use crate::deadline::{DeadlineChoice, DeadlineView};
use crate::error::UiError;
use crate::history::{HistoryItem, HistoryPage, RememberFor, RuleView};
use crate::inbox::{AgentView, AskView, QuestionView};
use crate::list::{GroupView, ListView, ListedAsk};
use crate::machines::{InviteView, MachineView, MachinesView};
use crate::matrix::{MatrixView, MemberView};
use crate::page::{HistoryProblem, Status, UiText};
use crate::picker::{Found, FoundPath, Preview};
use crate::remember::WayView;
use crate::revision::Revision;
use crate::rules::{PolicyRuleView, ProjectView, RuleId, RulesView};
use user_questions::history::store::Rule;
use user_questions::model::{
    Answer, AnswerItem, Context, ErrorCode, Intent, Kind as QuestionKind, Pick, Picked, QuestionOption,
};
use user_questions::review::diff::{Change, File, Hunk, Line};
use user_questions::review::feedback::Comment;
use user_questions::review::plan::{Annotation, Kind, Status as AnnotationStatus};
use user_questions_i18n::Language;

/// Every code a command's error may carry, as one union the page compares with.
fn error_codes() -> String {
    let codes: Vec<String> = ErrorCode::ALL.iter().map(|c| format!("\"{}\"", c.as_str())).collect();
    format!("type ErrorCode = {};", codes.join(" | "))
}

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ui/bindings.d.ts");

/// Every declaration, in a fixed order.
fn declarations() -> String {
    let decls = [
        QuestionOption::decl(),
        Intent::decl(),
        Context::decl(),
        AgentView::decl(),
        QuestionKind::decl(),
        Picked::decl(),
        Pick::decl(),
        QuestionView::decl(),
        FoundPath::decl(),
        Found::decl(),
        Preview::decl(),
        Revision::decl(),
        Change::decl(),
        Line::decl(),
        Hunk::decl(),
        File::decl(),
        Comment::decl(),
        Kind::decl(),
        Annotation::decl(),
        AnnotationStatus::decl(),
        AskView::decl(),
        ListedAsk::decl(),
        GroupView::decl(),
        ListView::decl(),
        HistoryItem::decl(),
        HistoryPage::decl(),
        Rule::decl(),
        RuleView::decl(),
        PolicyRuleView::decl(),
        RulesView::decl(),
        ProjectView::decl(),
        RuleId::decl(),
        MachineView::decl(),
        MachinesView::decl(),
        InviteView::decl(),
        MemberView::decl(),
        MatrixView::decl(),
        AgentAction::decl(),
        AgentRow::decl(),
        AgentsView::decl(),
        ChangesView::decl(),
        DeadlineChoice::decl(),
        DeadlineView::decl(),
        Language::decl(),
        UiText::decl(),
        HistoryProblem::decl(),
        Status::decl(),
        error_codes(),
        UiError::decl(),
        Answer::decl(),
        AnswerItem::decl(),
        RememberFor::decl(),
        crate::list::PartView::decl(),
        crate::list::PlaceView::decl(),
        crate::list::SaysView::decl(),
        WayView::decl(),
    ];
    let mut out = String::from(
        "// Generated from the Rust types by src-tauri/window/src/bindings.rs (ts-rs): do not edit.\n\
         // `make bindings` writes it again; the test fails when it is stale.\n",
    );
    for d in decls {
        out.push('\n');
        out.push_str(&d);
        out.push('\n');
    }
    out
}

#[test]
fn the_bindings_are_what_the_types_say() {
    let want = declarations();
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(FILE, &want).unwrap();
    }
    let have = std::fs::read_to_string(FILE).unwrap_or_default();
    assert!(have == want, "ui/bindings.d.ts is stale: run `make bindings`\n--- want:\n{want}");
}
