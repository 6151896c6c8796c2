//! A code review's comments as the one text an agent acts on: a directive preamble
//! (the changes were not approved; address every point), then each comment under its
//! file and lines with the code it is about, then the file comments, then the comments
//! on the whole change. Worded in English, as everything a model reads; the window and
//! `userq review` send it as the answer's `custom`, so every agent reads the same.

use serde::Deserialize;

use super::diff::File;

/// One comment of a review.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReviewComment"))]
pub struct Comment {
    /// The file it is about; absent for the whole change.
    #[serde(default)]
    pub file: Option<String>,
    /// The lines it is about, first and last, on the new side (`old` for lines only
    /// the old file has); absent for the whole file.
    #[serde(default)]
    pub lines: Option<(u32, u32)>,
    #[serde(default)]
    pub old: bool,
    pub text: String,
}

/// The first line of every review that asks for changes.
pub const PREAMBLE: &str = "Changes requested: these changes were not approved. Address every comment below, \
then stop again; what changed since will be reviewed.";

/// The feedback text of `comments` on `files`, in the order of the diff.
pub fn text(files: &[File], comments: &[Comment]) -> String {
    let mut out = vec![PREAMBLE.to_owned()];
    let mut ordered: Vec<&Comment> = comments.iter().filter(|c| !c.text.trim().is_empty()).collect();
    let place = |c: &Comment| {
        let file =
            c.file.as_ref().map_or(usize::MAX, |f| files.iter().position(|x| &x.path == f).unwrap_or(usize::MAX - 1));
        (file, c.lines.map_or(u32::MAX, |l| l.0))
    };
    ordered.sort_by_key(|c| place(c));
    for c in ordered {
        let body = indent(c.text.trim(), "  ");
        out.push(match (&c.file, c.lines) {
            (Some(file), Some((from, to))) => {
                let at = if from == to { format!("line {from}") } else { format!("lines {from}-{to}") };
                let side = if c.old { " (before the change)" } else { "" };
                let code =
                    files.iter().find(|f| &f.path == file).map(|f| quote(f, from, to, c.old)).unwrap_or_default();
                format!("{file}, {at}{side}:\n{code}{body}")
            }
            (Some(file), None) => format!("{file} (the whole file):\n{body}"),
            (None, _) => format!("On the whole change:\n{body}"),
        });
    }
    out.join("\n\n")
}

/// The diff lines from `from` to `to` (of the old side when `old`), each `  > ±code`.
fn quote(file: &File, from: u32, to: u32, old: bool) -> String {
    let mut quoted = String::new();
    for hunk in &file.hunks {
        let number = |l: &super::diff::Line| if old { l.old } else { l.new };
        let inside: Vec<usize> = hunk
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| number(l).is_some_and(|n| n >= from && n <= to))
            .map(|(i, _)| i)
            .collect();
        let (Some(&first), Some(&last)) = (inside.first(), inside.last()) else { continue };
        for line in &hunk.lines[first..=last] {
            quoted.push_str(&format!("  > {}{}\n", line.kind, line.text));
        }
    }
    quoted
}

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}")).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::super::diff::parse;
    use super::*;

    const DIFF: &str = "diff --git a/src/cart.py b/src/cart.py
--- a/src/cart.py
+++ b/src/cart.py
@@ -1,4 +1,5 @@
 def total(items):
-    return sum(i.price for i in items)
+    return sum(i.price * i.quantity for i in items)
+
 
 def empty():
diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1 +1 @@
-Shop
+Shop, with quantities
";

    fn at(file: &str, lines: Option<(u32, u32)>, text: &str) -> Comment {
        Comment { file: Some(file.into()), lines, old: false, text: text.into() }
    }

    #[test]
    fn each_comment_under_its_file_and_lines_with_its_code_in_the_diffs_order() {
        let files = parse(DIFF);
        let comments = [
            Comment { file: None, lines: None, old: false, text: "Keep the old name.".into() },
            at("README.md", Some((1, 1)), "Say it in one word."),
            at("src/cart.py", None, "Add a test for an empty cart."),
            at("src/cart.py", Some((2, 3)), "Use the discounted price.\nAnd drop the blank line."),
            Comment {
                file: Some("src/cart.py".into()),
                lines: Some((2, 2)),
                old: true,
                text: "Why was this wrong?".into(),
            },
            at("src/cart.py", Some((5, 5)), "   "),
        ];
        assert_eq!(
            text(&files, &comments),
            "Changes requested: these changes were not approved. Address every comment below, then stop again; \
what changed since will be reviewed.

src/cart.py, lines 2-3:
  > +    return sum(i.price * i.quantity for i in items)
  > +
  Use the discounted price.
  And drop the blank line.

src/cart.py, line 2 (before the change):
  > -    return sum(i.price for i in items)
  Why was this wrong?

src/cart.py (the whole file):
  Add a test for an empty cart.

README.md, line 1:
  > +Shop, with quantities
  Say it in one word.

On the whole change:
  Keep the old name."
        );
    }
}
