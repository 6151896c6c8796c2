//! Codex's `apply_patch` (the patch text in its own envelope: `*** Begin Patch`, one
//! `*** Add File: `, `*** Update File: ` (optionally `*** Move to: `) or `*** Delete File: `
//! section per file, `*** End Patch`), read into the files it changes so a person sees
//! each file's lines as a diff rather than the envelope, and so the policy judges the
//! files the patch really reaches.
//!
//! It is read exactly as Codex's own `apply_patch` reads it (its lenient mode, the one it
//! runs): the text is trimmed; the first and last lines, trimmed, are the markers, or a
//! `<<EOF` heredoc holds them; a file's header is trimmed before it is read, a `Move to:`
//! line is not; an added file's lines are the `+` lines that follow; an update's chunks
//! run until a line that starts with `*`. Anything else makes the whole patch one that
//! `apply_patch` refuses, and it is then not a patch here either.

/// What a patch does to one file.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Add,
    Update,
    Delete,
    Move { to: String },
}

/// One file of a patch: its path, what happens to it, and its diff lines (`+`, `-`,
/// ` ` and `@@` lines as the patch has them).
#[derive(Debug, Clone, PartialEq)]
pub struct FilePatch {
    pub path: String,
    pub change: Change,
    pub lines: Vec<String>,
}

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const END_OF_FILE: &str = "*** End of File";

/// Reads a patch; `None` when `apply_patch` would refuse it (it is then shown as it came,
/// and judged as the command it is).
pub fn parse(patch: &str) -> Option<Vec<FilePatch>> {
    let lines: Vec<&str> = patch.trim().lines().collect();
    let mut body = inside_markers(&lines).or_else(|| inside_heredoc(&lines))?;
    let mut files = Vec::new();
    while let Some((file, used)) = one_file(body) {
        files.push(file);
        body = &body[used..];
    }
    (body.is_empty() && !files.is_empty()).then_some(files)
}

fn inside_markers<'a>(lines: &'a [&'a str]) -> Option<&'a [&'a str]> {
    match lines {
        [first, body @ .., last] if first.trim() == BEGIN && last.trim() == END => Some(body),
        _ => None,
    }
}

/// `apply_patch <<'EOF'` passed as one argument: the heredoc's lines hold the patch.
fn inside_heredoc<'a>(lines: &'a [&'a str]) -> Option<&'a [&'a str]> {
    match lines {
        [first, inner @ .., last]
            if ["<<EOF", "<<'EOF'", "<<\"EOF\""].contains(first) && last.ends_with("EOF") && inner.len() >= 2 =>
        {
            inside_markers(inner)
        }
        _ => None,
    }
}

/// One file's section from the start of `lines`, and how many lines it took.
fn one_file(lines: &[&str]) -> Option<(FilePatch, usize)> {
    let header = lines.first()?.trim();
    let file = |path: &str, change| FilePatch { path: path.to_owned(), change, lines: Vec::new() };
    if let Some(path) = header.strip_prefix("*** Add File: ") {
        let added: Vec<String> = lines[1..].iter().take_while(|l| l.starts_with('+')).map(|l| l.to_string()).collect();
        let used = 1 + added.len();
        return Some((FilePatch { lines: added, ..file(path, Change::Add) }, used));
    }
    if let Some(path) = header.strip_prefix("*** Delete File: ") {
        return Some((file(path, Change::Delete), 1));
    }
    let path = header.strip_prefix("*** Update File: ")?;
    let mut used = 1;
    let mut update = file(path, Change::Update);
    if let Some(to) = lines.get(1).and_then(|l| l.strip_prefix("*** Move to: ")) {
        update.change = Change::Move { to: to.to_owned() };
        used += 1;
    }
    while let Some(line) = lines.get(used) {
        if line.trim().is_empty() {
            used += 1;
            continue;
        }
        if line.starts_with('*') {
            break;
        }
        let taken = chunk(&lines[used..], update.lines.is_empty())?;
        update.lines.extend(lines[used..used + taken].iter().filter(|l| **l != END_OF_FILE).map(|l| l.to_string()));
        used += taken;
    }
    (!update.lines.is_empty()).then_some((update, used))
}

/// How many lines one chunk of an update takes: an optional `@@` line, then context,
/// `+` and `-` lines (an empty line is empty context), up to `*** End of File` or the
/// first other line.
fn chunk(lines: &[&str], first: bool) -> Option<usize> {
    let start = match lines[0] {
        "@@" => 1,
        l if l.starts_with("@@ ") => 1,
        _ if first => 0,
        _ => return None,
    };
    let mut taken = 0;
    for line in &lines[start..] {
        match line.chars().next() {
            _ if *line == END_OF_FILE => return (taken > 0).then_some(start + taken + 1),
            None | Some(' ' | '+' | '-') => taken += 1,
            _ if taken == 0 => return None,
            _ => break,
        }
    }
    (taken > 0).then_some(start + taken)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_of_the_envelope_is_read_with_its_lines() {
        let patch = "*** Begin Patch\n*** Add File: notes/new.txt\n+hello\n*** Update File: src/a.rs\n\
                     *** Move to: src/b.rs\n@@ fn main\n-old\n+new\n*** Delete File: gone.txt\n*** End Patch";
        let files = parse(patch).unwrap();
        assert_eq!(files.len(), 3);
        assert_eq!(
            files[0],
            FilePatch { path: "notes/new.txt".into(), change: Change::Add, lines: vec!["+hello".into()] }
        );
        assert_eq!(files[1].change, Change::Move { to: "src/b.rs".into() });
        assert_eq!(files[1].lines, ["@@ fn main", "-old", "+new"]);
        assert_eq!((files[2].path.as_str(), &files[2].change), ("gone.txt", &Change::Delete));
    }

    #[test]
    fn text_outside_the_envelope_is_not_a_patch() {
        assert_eq!(parse("rm -rf /"), None);
        assert_eq!(parse("*** Begin Patch\n+orphan line\n*** End Patch"), None);
        assert_eq!(parse(""), None);
    }

    fn paths(patch: &str) -> Vec<(String, Change)> {
        parse(patch).unwrap().into_iter().map(|f| (f.path, f.change)).collect()
    }

    #[test]
    fn a_header_is_read_trimmed_as_apply_patch_reads_it() {
        let indented =
            "*** Begin Patch\n*** Add File: src/a\n+a\n   *** Add File: .git/hooks/pre-commit\n+boo\n*** End Patch";
        assert_eq!(paths(indented), [("src/a".into(), Change::Add), (".git/hooks/pre-commit".into(), Change::Add)]);
        let deleted = "*** Begin Patch\n*** Add File: src/a\n+a\n\t*** Delete File: secret.txt\n*** End Patch";
        assert_eq!(paths(deleted)[1], ("secret.txt".into(), Change::Delete));
    }

    #[test]
    fn only_the_last_line_ends_the_patch() {
        let going_on = "*** Begin Patch\n*** Update File: src/a\n@@\n-x\n+y\n *** End Patch\n*** Add File: out/evil\n+e\n*** End Patch";
        let files = parse(going_on).unwrap();
        assert_eq!(files[0].lines, ["@@", "-x", "+y", " *** End Patch"]);
        assert_eq!((files[1].path.as_str(), &files[1].change), ("out/evil", &Change::Add));
    }

    #[test]
    fn what_apply_patch_refuses_is_no_patch() {
        for refused in [
            "*** Begin Patch\n*** Update File: a\n*** End Patch",
            "*** Begin Patch\n*** Add File: a\n+a\n*** Move to: b\n*** End Patch",
            "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End Patch\n*** Add File: b\n+b",
            "*** Begin Patch\n*** Add File:b\n+b\n*** End Patch",
            "*** Begin Patch\n*** Update File: a\n@@\n*** End Patch",
        ] {
            assert_eq!(parse(refused), None, "{refused}");
        }
    }

    #[test]
    fn a_move_line_keeps_its_spaces_and_a_heredoc_holds_the_markers() {
        let moved = "<<'EOF'\n*** Begin Patch\n*** Update File: src/a\n*** Move to: src/b \n@@\n-x\n+y\n*** End of File\n*** End Patch\nEOF";
        assert_eq!(paths(moved), [("src/a".into(), Change::Move { to: "src/b ".into() })]);
        assert_eq!(parse(moved).unwrap()[0].lines, ["@@", "-x", "+y"]);
    }
}
