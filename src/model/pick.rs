//! A question that asks the person to pick files or folders under a root: the seed's
//! last deferred vocabulary ("richer interaction shapes such as file pickers"). The
//! answer keeps the seed's shape: the paths picked are in `selected`, relative to the
//! root, `/` between folders; a door that does not know the kind shows a text field,
//! and what the person typed arrives in `custom`.
//!
//! The model holds no I/O but this: an answer fits a pick only when each path is under
//! its root on the disk (links resolved), is there, is what was asked for (a file or a
//! folder) and fits the globs, and that is decided here, with the rest of the one
//! answer-fit rule ([`super::Answer::fit`]).

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::question::object;
use super::UserQuestionError;

/// What the person picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Picked {
    Files,
    Folders,
}

/// `pick`: files or folders under `root`, fitting any of `globs` when there are some.
/// One or several, as the question's `multiSelect` says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "FilePick"))]
pub struct Pick {
    pub of: Picked,
    /// An absolute folder.
    pub root: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<String>>", optional))]
    pub globs: Vec<String>,
}

impl Pick {
    /// Parses `pick` at `at`, naming the first wrong field; [`Pick::check`] holds it to
    /// what no type says, where the request's shape is checked.
    pub fn from_value(v: &Value, at: &str) -> Result<Self, UserQuestionError> {
        let obj = object(v, at)?;
        let bad = |m: String| UserQuestionError::bad_request(m);
        let of = match obj.get("of").and_then(Value::as_str) {
            Some("files") => Picked::Files,
            Some("folders") => Picked::Folders,
            _ => return Err(bad(format!("{at}.of must be \"files\" or \"folders\""))),
        };
        let root = obj.get("root").and_then(Value::as_str).ok_or_else(|| bad(format!("{at}.root must be a string")))?;
        let globs = match obj.get("globs").filter(|g| !g.is_null()) {
            None => Vec::new(),
            Some(g) => g
                .as_array()
                .and_then(|a| a.iter().map(|s| s.as_str().map(str::to_owned)).collect::<Option<Vec<_>>>())
                .ok_or_else(|| bad(format!("{at}.globs must be an array of strings")))?,
        };
        Ok(Self { of, root: root.to_owned(), globs })
    }

    /// What no type says, `BAD_REQUEST` naming it: the root is an absolute path (with
    /// `here`, a folder on this disk), each glob a glob.
    pub fn check(&self, at: &str, here: bool) -> Result<(), UserQuestionError> {
        let bad = |m: String| UserQuestionError::bad_request(m);
        if !Path::new(&self.root).is_absolute() {
            return Err(bad(format!("{at}.root {:?} is not an absolute path", self.root)));
        }
        for (i, g) in self.globs.iter().enumerate() {
            glob::Pattern::new(g).map_err(|e| bad(format!("{at}.globs[{i}] {g:?} is not a glob: {}", e.msg)))?;
        }
        if !here {
            return Ok(());
        }
        match std::fs::metadata(&self.root) {
            Ok(m) if m.is_dir() => Ok(()),
            Ok(_) => Err(UserQuestionError::bad_request(format!("{at}.root {:?} is not a folder", self.root))),
            Err(_) => Err(UserQuestionError::bad_request(format!("{at}.root {:?} does not exist", self.root))),
        }
    }

    /// Whether a path relative to the root (`/` between folders) fits the globs, each
    /// compiled once for every path it is asked of: a glob with no `/` is matched
    /// against the last name (`*.toml` anywhere), any other against the whole path,
    /// whose `*` stays within one folder.
    pub fn globs_fit(&self) -> impl Fn(&str) -> bool {
        let options = glob::MatchOptions { require_literal_separator: true, ..Default::default() };
        let patterns: Vec<(bool, glob::Pattern)> =
            self.globs.iter().filter_map(|g| Some((g.contains('/'), glob::Pattern::new(g).ok()?))).collect();
        let any = self.globs.is_empty();
        move |path: &str| {
            let name = path.rsplit('/').next().unwrap_or(path);
            any || patterns.iter().any(|(whole, p)| p.matches_with(if *whole { path } else { name }, options))
        }
    }

    /// Why `path`, picked as an answer, does not fit: outside the root (after `..` and
    /// links), missing, not what was asked for, or outside the globs. `None`: it fits.
    pub fn misfit(&self, path: &str) -> Option<String> {
        let relative = Path::new(path);
        let plain = !path.is_empty()
            && !path.contains('\\')
            && relative.components().all(|c| matches!(c, Component::Normal(_)))
            && !path.ends_with('/');
        if !plain {
            return Some(format!("{path:?} is not a path relative to the root, `/` between folders"));
        }
        let Ok(root) = std::fs::canonicalize(&self.root) else {
            return Some(format!("the root {} is not there", self.root));
        };
        let found: PathBuf = match std::fs::canonicalize(root.join(relative)) {
            Ok(found) => found,
            Err(_) => return Some(format!("{path:?} does not exist under {}", self.root)),
        };
        if !found.starts_with(&root) {
            return Some(format!("{path:?} leads out of {}", self.root));
        }
        let is_dir = found.is_dir();
        match self.of {
            Picked::Files if is_dir => return Some(format!("{path:?} is a folder, and files were asked for")),
            Picked::Folders if !is_dir => return Some(format!("{path:?} is not a folder, and folders were asked for")),
            _ => {}
        }
        (!self.globs_fit()(path)).then(|| format!("{path:?} fits none of {}", self.globs.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pick(v: Value) -> Result<Pick, String> {
        let at = "questions[0].pick";
        let pick = Pick::from_value(&v, at).map_err(|e| e.message().to_owned())?;
        pick.check(at, false).map_err(|e| e.message().to_owned())?;
        Ok(pick)
    }

    #[test]
    fn names_what_is_wrong_in_a_pick() {
        assert_eq!(pick(json!("x")).unwrap_err(), "questions[0].pick must be an object");
        assert_eq!(pick(json!({"root": "/"})).unwrap_err(), "questions[0].pick.of must be \"files\" or \"folders\"");
        assert_eq!(pick(json!({"of": "files"})).unwrap_err(), "questions[0].pick.root must be a string");
        assert_eq!(
            pick(json!({"of": "files", "root": "src"})).unwrap_err(),
            "questions[0].pick.root \"src\" is not an absolute path"
        );
        assert_eq!(
            pick(json!({"of": "files", "root": "/", "globs": "*.rs"})).unwrap_err(),
            "questions[0].pick.globs must be an array of strings"
        );
        assert!(pick(json!({"of": "files", "root": "/", "globs": ["[a"]}))
            .unwrap_err()
            .starts_with("questions[0].pick.globs[0] \"[a\" is not a glob"));
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("f");
        std::fs::write(&file, "").unwrap();
        let at = |r: &Path| {
            pick(json!({"of": "files", "root": r})).unwrap().check("q.pick", true).unwrap_err().message().to_owned()
        };
        assert_eq!(at(&file), format!("q.pick.root {:?} is not a folder", file.to_str().unwrap()));
        assert_eq!(
            at(&root.path().join("gone")),
            format!("q.pick.root {:?} does not exist", root.path().join("gone").to_str().unwrap())
        );
    }

    #[test]
    fn a_picked_path_fits_only_under_its_root_as_asked() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        std::fs::write(root.join("src/deep/a.toml"), "").unwrap();
        std::fs::write(root.join("README.md"), "").unwrap();
        std::fs::write(dir.path().join("outside.toml"), "").unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside.toml"), root.join("link.toml")).unwrap();
        let files = Pick { of: Picked::Files, root: root.to_str().unwrap().into(), globs: vec!["*.toml".into()] };
        assert_eq!(files.misfit("src/deep/a.toml"), None);
        for (path, why) in [
            ("../outside.toml", "is not a path relative to the root"),
            ("/etc/passwd", "is not a path relative to the root"),
            ("src/../src/deep/a.toml", "is not a path relative to the root"),
            ("link.toml", "leads out of"),
            ("src/gone.toml", "does not exist"),
            ("src", "is a folder"),
            ("README.md", "fits none of *.toml"),
        ] {
            assert!(files.misfit(path).is_some_and(|m| m.contains(why)), "{path}: {:?}", files.misfit(path));
        }
        let folders = Pick { of: Picked::Folders, root: root.to_str().unwrap().into(), globs: vec!["src/*".into()] };
        assert_eq!(folders.misfit("src/deep"), None);
        assert!(folders.misfit("src").is_some_and(|m| m.contains("fits none")));
        assert!(folders.misfit("README.md").is_some_and(|m| m.contains("is not a folder")));
    }
}
