//! A unified diff as git writes it, read into files, hunks and numbered lines: what a
//! code review shows and what its comments point at. Git's own headers are kept
//! (`diff --git`, `new file`, `deleted file`, `rename from/to`, `Binary files … differ`),
//! which the unified-diff crates drop, so renames and binary files can be named. Text
//! that is not a diff reads as no files; nothing here fails.

use serde::Serialize;

/// What happened to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "FileChange"))]
pub enum Change {
    Added,
    Deleted,
    Modified,
    Renamed,
}

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "DiffLine"))]
pub struct Line {
    /// `+`, `-` or ` `.
    pub kind: char,
    /// Its number in the old file (absent for an added line).
    pub old: Option<u32>,
    /// Its number in the new file (absent for a removed line).
    pub new: Option<u32>,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "DiffHunk"))]
pub struct Hunk {
    /// The `@@ … @@` line, with the section it is in.
    pub header: String,
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ChangedFile"))]
pub struct File {
    /// The path after the change (before it, for a deleted file).
    pub path: String,
    /// The path before a rename.
    pub old_path: Option<String>,
    pub status: Change,
    pub binary: bool,
    pub added: u32,
    pub removed: u32,
    pub hunks: Vec<Hunk>,
}

impl File {
    fn new(path: String) -> Self {
        Self { path, old_path: None, status: Change::Modified, binary: false, added: 0, removed: 0, hunks: Vec::new() }
    }
}

/// The files of a diff, in its order.
pub fn parse(diff: &str) -> Vec<File> {
    let mut files: Vec<File> = Vec::new();
    // Lines of the current hunk still expected, old and new.
    let (mut old_left, mut new_left) = (0u32, 0u32);
    let (mut old_no, mut new_no) = (0u32, 0u32);
    for raw in diff.lines() {
        let in_hunk = old_left > 0 || new_left > 0;
        if in_hunk {
            if let Some(file) = files.last_mut() {
                if let Some(hunk) = file.hunks.last_mut() {
                    let (kind, text) = raw.split_at(raw.len().min(1));
                    let kind = kind.chars().next().unwrap_or(' ');
                    let line = match kind {
                        '+' => {
                            file.added += 1;
                            new_left = new_left.saturating_sub(1);
                            new_no += 1;
                            Line { kind, old: None, new: Some(new_no - 1), text: text.to_owned() }
                        }
                        '-' => {
                            file.removed += 1;
                            old_left = old_left.saturating_sub(1);
                            old_no += 1;
                            Line { kind, old: Some(old_no - 1), new: None, text: text.to_owned() }
                        }
                        // "\ No newline at end of file" belongs to the line before.
                        '\\' => continue,
                        _ => {
                            old_left = old_left.saturating_sub(1);
                            new_left = new_left.saturating_sub(1);
                            old_no += 1;
                            new_no += 1;
                            Line { kind: ' ', old: Some(old_no - 1), new: Some(new_no - 1), text: text.to_owned() }
                        }
                    };
                    hunk.lines.push(line);
                    continue;
                }
            }
        }
        if let Some(rest) = raw.strip_prefix("diff --git ") {
            files.push(File::new(git_paths(rest).1));
        } else if let Some(path) = raw.strip_prefix("--- ").filter(|_| files.last().is_none_or(|f| !f.hunks.is_empty()))
        {
            // A plain unified diff, with no `diff --git` line: its next file starts here.
            files.push(File::new(side(path, "a/").unwrap_or_default()));
        } else if let Some(header) = raw.strip_prefix("@@ ") {
            let Some((old, new)) = hunk_ranges(header) else { continue };
            if files.is_empty() {
                files.push(File::new(String::new()));
            }
            (old_no, old_left) = old;
            (new_no, new_left) = new;
            files.last_mut().expect("just made").hunks.push(Hunk { header: raw.to_owned(), lines: Vec::new() });
        } else if let Some(file) = files.last_mut() {
            if raw.starts_with("new file mode") {
                file.status = Change::Added;
            } else if raw.starts_with("deleted file mode") {
                file.status = Change::Deleted;
            } else if let Some(from) = raw.strip_prefix("rename from ") {
                file.status = Change::Renamed;
                file.old_path = Some(from.to_owned());
            } else if let Some(to) = raw.strip_prefix("rename to ") {
                file.path = to.to_owned();
            } else if raw.starts_with("Binary files ") || raw == "GIT binary patch" {
                file.binary = true;
            } else if let Some(path) = raw.strip_prefix("+++ ") {
                if let Some(p) = side(path, "b/") {
                    file.path = p;
                }
            } else if let Some(path) = raw.strip_prefix("--- ") {
                if let (Some(p), true) = (side(path, "a/"), file.path.is_empty()) {
                    file.path = p;
                }
            }
        }
    }
    files
}

/// `a/x b/y` → (`x`, `y`).
fn git_paths(rest: &str) -> (String, String) {
    match rest.split_once(" b/") {
        Some((a, b)) => (a.trim_start_matches("a/").to_owned(), b.to_owned()),
        None => (rest.to_owned(), rest.to_owned()),
    }
}

/// A `---`/`+++` path without its `a/`/`b/` prefix and timestamp; `None` for /dev/null.
fn side(path: &str, prefix: &str) -> Option<String> {
    let path = path.split('\t').next().unwrap_or(path).trim_end();
    (path != "/dev/null").then(|| path.strip_prefix(prefix).unwrap_or(path).to_owned())
}

/// `-12,3 +12,4 @@ fn x` → ((12, 3), (12, 4)); a missing count is 1.
fn hunk_ranges(header: &str) -> Option<((u32, u32), (u32, u32))> {
    let mut parts = header.split_whitespace();
    let range = |s: &str, sign: char| -> Option<(u32, u32)> {
        let s = s.strip_prefix(sign)?;
        let (start, count) = s.split_once(',').unwrap_or((s, "1"));
        Some((start.parse().ok()?, count.parse().ok()?))
    };
    Some((range(parts.next()?, '-')?, range(parts.next()?, '+')?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIT: &str = "diff --git a/src/cart.py b/src/cart.py
index 83db48f..bf269f4 100644
--- a/src/cart.py
+++ b/src/cart.py
@@ -1,4 +1,5 @@ def total(items):
 def total(items):
-    return sum(i.price for i in items)
+    return sum(i.price * i.quantity for i in items)
+
 
 def empty():
diff --git a/docs/old.md b/docs/new.md
similarity 100%
rename from docs/old.md
rename to docs/new.md
diff --git a/logo.png b/logo.png
new file mode 100644
index 0000000..e69de29
Binary files /dev/null and b/logo.png differ
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 3b18e51..0000000
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
\\ No newline at end of file
";

    #[test]
    fn files_hunks_and_line_numbers_as_git_writes_them() {
        let files = parse(GIT);
        let names: Vec<(&str, Change, bool)> = files.iter().map(|f| (f.path.as_str(), f.status, f.binary)).collect();
        assert_eq!(
            names,
            [
                ("src/cart.py", Change::Modified, false),
                ("docs/new.md", Change::Renamed, false),
                ("logo.png", Change::Added, true),
                ("gone.txt", Change::Deleted, false)
            ]
        );
        assert_eq!(files[1].old_path.as_deref(), Some("docs/old.md"));
        let cart = &files[0];
        assert_eq!((cart.added, cart.removed), (2, 1));
        let lines: Vec<(char, Option<u32>, Option<u32>)> =
            cart.hunks[0].lines.iter().map(|l| (l.kind, l.old, l.new)).collect();
        assert_eq!(
            lines,
            [
                (' ', Some(1), Some(1)),
                ('-', Some(2), None),
                ('+', None, Some(2)),
                ('+', None, Some(3)),
                (' ', Some(3), Some(4)),
                (' ', Some(4), Some(5))
            ]
        );
        assert_eq!(cart.hunks[0].header, "@@ -1,4 +1,5 @@ def total(items):");
        assert_eq!(files[3].hunks[0].lines, [Line { kind: '-', old: Some(1), new: None, text: "bye".into() }]);
    }

    #[test]
    fn a_line_that_looks_like_a_header_inside_a_hunk_is_a_line() {
        let diff = "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n--- not a header\n+++ nor this\n keep\n";
        let files = parse(diff);
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].path, "x");
        assert_eq!(files[0].hunks[0].lines[0].text, "-- not a header");
        assert_eq!((files[0].added, files[0].removed), (1, 1));
    }

    #[test]
    fn a_plain_unified_diff_of_two_files_is_two_files() {
        let files = parse(
            "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- y.orig\t2026-01-01\n+++ y\t2026-01-02\n@@ -0,0 +1 @@\n+c\n",
        );
        let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(names, ["x", "y"]);
    }

    #[test]
    fn text_that_is_no_diff_has_no_files() {
        assert!(parse("hello\nworld").is_empty());
        assert!(parse("").is_empty());
    }
}
