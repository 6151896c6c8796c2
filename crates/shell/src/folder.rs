//! The folder a part runs in. `cd DIR` with a literal `DIR` moves it for what follows,
//! but a `cd` may fail and a subshell's `cd` ends with it, so the reader keeps every
//! folder a part may run in rather than one it cannot be sure of: after `cd src; cat
//! a`, `cat` reads `a` or `src/a`. A folder named only when it runs (`cd $D`, `popd`,
//! `cd -`, `env -C`) or a `cd` inside a loop leaves the folder unknown.

/// The most folders a part may run in before the folder is unknown.
const MAX_FOLDERS: usize = 8;

/// Where a part runs, as far as the reader can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Folder {
    /// One of these: `.` is the folder the command starts in; the others are relative
    /// to it, or absolute (a leading `~` kept).
    Among(Vec<String>),
    /// A folder known only when it runs.
    Unknown,
}

impl Default for Folder {
    fn default() -> Self {
        Folder::Among(vec![".".to_owned()])
    }
}

impl Folder {
    /// Whether the part surely runs in the folder the command starts in.
    pub fn is_start(&self) -> bool {
        *self == Folder::default()
    }

    /// `path` as found from each folder the part may run in; `None` for a relative
    /// path from a folder not known.
    pub fn resolve(&self, path: &str) -> Option<Vec<String>> {
        if path.starts_with('/') || path == "~" || path.starts_with("~/") {
            return Some(vec![path.to_owned()]);
        }
        match self {
            Folder::Among(folders) => {
                Some(folders.iter().map(|f| if f == "." { path.to_owned() } else { format!("{f}/{path}") }).collect())
            }
            Folder::Unknown => None,
        }
    }

    /// After `cd DIR`, which may fail: any folder before it, or `DIR` from one of them.
    pub fn moved_to(&self, dir: &str) -> Folder {
        let (Folder::Among(before), Some(after)) = (self, self.resolve(dir)) else { return Folder::Unknown };
        let mut all = before.clone();
        for folder in after {
            if !all.contains(&folder) {
                all.push(folder);
            }
        }
        if all.len() > MAX_FOLDERS {
            Folder::Unknown
        } else {
            Folder::Among(all)
        }
    }
}
