//! Codex's `apply_patch` (the patch text in its own envelope: `*** Begin Patch`, one
//! `*** Add File:`, `*** Update File:` (optionally `*** Move to:`) or `*** Delete File:`
//! section per file, `*** End Patch`), read into the files it changes so a person sees
//! each file's lines as a diff rather than the envelope.

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

/// Reads a patch; `None` when it is not in the envelope (it is then shown as it came).
pub fn parse(patch: &str) -> Option<Vec<FilePatch>> {
    let mut lines = patch.lines();
    if lines.next()?.trim() != "*** Begin Patch" {
        return None;
    }
    let mut files: Vec<FilePatch> = Vec::new();
    for line in lines {
        let header = |prefix: &str| line.strip_prefix(prefix).map(|p| p.trim().to_owned());
        if let Some(path) = header("*** Add File:") {
            files.push(FilePatch { path, change: Change::Add, lines: Vec::new() });
        } else if let Some(path) = header("*** Update File:") {
            files.push(FilePatch { path, change: Change::Update, lines: Vec::new() });
        } else if let Some(path) = header("*** Delete File:") {
            files.push(FilePatch { path, change: Change::Delete, lines: Vec::new() });
        } else if let Some(to) = header("*** Move to:") {
            files.last_mut()?.change = Change::Move { to };
        } else if line.trim() == "*** End Patch" {
            break;
        } else if line.trim() == "*** End of File" {
            continue;
        } else {
            files.last_mut()?.lines.push(line.to_owned());
        }
    }
    (!files.is_empty()).then_some(files)
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
}
