//! The window's file pick, without Tauri: the paths that best fit what the person
//! types, with the letters that matched, and a look inside the one they stand on (a
//! text file's first lines, a folder's first names). A pick's listing is read once
//! per question and kept while the person types (the last few, so a window of many
//! picks holds a bounded number). Everything is read under the pick's root only, and
//! stays in the window: the asker learns only the paths picked.

use std::io::Read;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use user_questions::model::{Pick, Picked, UserQuestionError};
use user_questions::pick::{list, Finder, Listing};

use crate::error::UiError;
use crate::inbox::Inbox;
use crate::Text;
use user_questions_i18n::Arg;

/// How many paths one search shows.
pub const SHOWN: usize = 50;
/// How many lines of a text file, or names of a folder, a preview shows.
pub const PREVIEW_LINES: usize = 40;
/// How much of a file a preview reads, at most.
const PREVIEW_BYTES: u64 = 16 * 1024;
/// How many listings are kept between keystrokes.
const KEPT: usize = 4;

/// One path found, and which of its characters matched (to show them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FoundPath {
    pub path: String,
    pub marks: Vec<u32>,
}

/// What a search of a pick found: the best paths, best first, out of `total`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Found {
    pub paths: Vec<FoundPath>,
    /// How many paths the pick offers in all.
    pub total: usize,
    /// The listing stopped at its bound (`user_questions::pick::MAX_PATHS`).
    pub cut: bool,
    /// How many are shown of how many, in the person's language.
    pub count: String,
}

/// A look inside one path of a pick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Preview {
    /// A text file's first lines; `more` when there are more.
    Text { lines: Vec<String>, more: bool },
    /// A file that is not text: its size in bytes, said in the person's language.
    Binary { bytes: u64, said: String },
    /// A folder's first names, folders ending in `/`.
    Folder { names: Vec<String>, more: bool },
}

type Key = (String, String, bool);

/// The listings of the picks the person is searching.
#[derive(Default)]
pub struct Picker {
    kept: Mutex<Vec<(Key, Arc<Listing>)>>,
}

impl Picker {
    /// The best paths of question `qid` of `ask` for `query`, hidden names too when
    /// `hidden`. Reads the listing the first time; blocks while it does.
    pub fn find(
        &self,
        inbox: &Inbox,
        (ask, qid): (&str, &str),
        query: &str,
        hidden: bool,
        text: &Text,
    ) -> Result<Found, UiError> {
        let pick = pick_of(inbox, ask, qid)?;
        let listing = self.listing((ask.to_owned(), qid.to_owned(), hidden), &pick);
        let mut finder = Finder::default();
        let paths = finder
            .best(query, &listing.paths, SHOWN)
            .into_iter()
            .map(|path| FoundPath { marks: finder.marks(query, path), path: path.to_owned() })
            .collect::<Vec<_>>();
        let total = listing.paths.len();
        let count = match (paths.len(), listing.cut) {
            (0, _) => text.tr("window-pick-nothing"),
            (shown, cut) => {
                let id = if cut { "window-pick-count-cut" } else { "window-pick-count" };
                text.tr_args(id, &[("shown", shown.into()), ("total", total.into())])
            }
        };
        Ok(Found { paths, total, cut: listing.cut, count })
    }

    fn listing(&self, key: Key, pick: &Pick) -> Arc<Listing> {
        if let Some(kept) = self.kept.lock().unwrap().iter().find(|(k, _)| *k == key) {
            return kept.1.clone();
        }
        let listing = Arc::new(list(pick, key.2));
        let mut kept = self.kept.lock().unwrap();
        kept.retain(|(k, _)| *k != key);
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push((key, listing.clone()));
        listing
    }
}

/// A look inside `path` of question `qid` of `ask`: only a path the pick would take
/// as an answer (under the root, links resolved) is read.
pub fn preview(inbox: &Inbox, (ask, qid): (&str, &str), path: &str, text: &Text) -> Result<Preview, UiError> {
    let pick = pick_of(inbox, ask, qid)?;
    let folders = Pick { of: Picked::Folders, globs: Vec::new(), ..pick.clone() };
    let as_file = Pick { of: Picked::Files, globs: Vec::new(), ..pick.clone() };
    if let (Some(why), Some(_)) = (as_file.misfit(path), folders.misfit(path)) {
        return Err(UserQuestionError::bad_answer(why).into());
    }
    let full = std::path::Path::new(&pick.root).join(path);
    let unreadable = |e: std::io::Error| UiError::from(UserQuestionError::bad_answer(format!("{path:?}: {e}")));
    if full.is_dir() {
        let mut names: Vec<String> = std::fs::read_dir(&full)
            .map_err(unreadable)?
            .flatten()
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                if e.path().is_dir() {
                    format!("{name}/")
                } else {
                    name
                }
            })
            .collect();
        names.sort_unstable();
        let more = names.len() > PREVIEW_LINES;
        names.truncate(PREVIEW_LINES);
        return Ok(Preview::Folder { names, more });
    }
    let file = std::fs::File::open(&full).map_err(unreadable)?;
    let bytes = file.metadata().map_err(unreadable)?.len();
    let mut head = Vec::new();
    file.take(PREVIEW_BYTES).read_to_end(&mut head).map_err(unreadable)?;
    Ok(text_lines(&head, bytes > PREVIEW_BYTES).unwrap_or_else(|| {
        let said = text.tr_args("window-pick-binary", &[("bytes", Arg::Num(bytes as f64))]);
        Preview::Binary { bytes, said }
    }))
}

/// A file's first lines, when its head is text (UTF-8, no NUL; a character cut at
/// the end of what was read is dropped).
fn text_lines(head: &[u8], cut: bool) -> Option<Preview> {
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        Err(e) if cut && e.error_len().is_none() => std::str::from_utf8(&head[..e.valid_up_to()]).ok()?,
        Err(_) => return None,
    };
    if text.contains('\0') {
        return None;
    }
    let mut lines: Vec<String> = text.lines().take(PREVIEW_LINES + 1).map(str::to_owned).collect();
    let more = lines.len() > PREVIEW_LINES || cut;
    lines.truncate(PREVIEW_LINES);
    Some(Preview::Text { lines, more })
}

fn pick_of(inbox: &Inbox, ask: &str, qid: &str) -> Result<Pick, UiError> {
    let held = inbox.ask(ask)?;
    let request = held.request();
    let at = request.questions.iter().position(|q| q.id == qid);
    let pick = at.and_then(|at| request.pick_here(at)).cloned();
    pick.ok_or_else(|| UserQuestionError::bad_request(format!("question {qid:?} of {ask} picks nothing here")).into())
}

#[cfg(test)]
mod tests;
