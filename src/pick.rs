//! The paths a file pick offers and the best of them for a few letters: one listing
//! for every door that shows a pick (the window, the terminal, the phone). A listing
//! is read only under the pick's root, walked as ripgrep walks (the `ignore` crate:
//! `.gitignore` kept, hidden names only on request), never through a link that leads
//! out of the root. Listings stay in the doors: the asker learns only the paths the
//! person picked.

use ignore::WalkBuilder;
use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use crate::model::{Pick, Picked};

/// The most paths a listing holds; past it, the listing says it was cut.
pub const MAX_PATHS: usize = 200_000;

/// What a pick offers: paths relative to its root, `/` between folders, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    pub paths: Vec<String>,
    /// More were there than [`MAX_PATHS`].
    pub cut: bool,
}

/// Every path under the pick's root that fits it: files or folders, its globs, hidden
/// names only when `hidden`.
pub fn list(pick: &Pick, hidden: bool) -> Listing {
    let root = std::path::Path::new(&pick.root);
    let mut listing = Listing::default();
    let fits = pick.globs_fit();
    let walk = WalkBuilder::new(root).hidden(!hidden).follow_links(false).require_git(false).build();
    for entry in walk.flatten() {
        let Ok(relative) = entry.path().strip_prefix(root) else { continue };
        let Some(path) = relative.to_str().filter(|p| !p.is_empty()) else { continue };
        let Some(kind) = entry.file_type() else { continue };
        let is_link = kind.is_symlink();
        let is_dir = if is_link { entry.path().is_dir() } else { kind.is_dir() };
        if is_dir != (pick.of == Picked::Folders) || !fits(path) {
            continue;
        }
        // A link is offered only where it leads inside the root.
        if is_link && pick.misfit(path).is_some() {
            continue;
        }
        if listing.paths.len() == MAX_PATHS {
            listing.cut = true;
            break;
        }
        listing.paths.push(path.to_owned());
    }
    listing.paths.sort_unstable();
    listing
}

/// A fuzzy matcher over one listing, kept between keystrokes (nucleo, Helix's).
pub struct Finder {
    matcher: Matcher,
}

impl Default for Finder {
    fn default() -> Self {
        Self { matcher: Matcher::new(Config::DEFAULT.match_paths()) }
    }
}

impl Finder {
    /// The best `n` of `paths` for `query`, best first; the first `n` when it is blank.
    pub fn best<'p>(&mut self, query: &str, paths: &'p [String], n: usize) -> Vec<&'p str> {
        if query.trim().is_empty() {
            return paths.iter().take(n).map(String::as_str).collect();
        }
        let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
        let mut buf = Vec::new();
        let mut scored: Vec<(u32, &str)> = paths
            .iter()
            .filter_map(|p| pattern.score(Utf32Str::new(p, &mut buf), &mut self.matcher).map(|s| (s, p.as_str())))
            .collect();
        // Best first, and among equals the shorter path (nearer the root), then by name.
        let n = n.min(scored.len());
        if n == 0 {
            return Vec::new();
        }
        let order = |a: &(u32, &str), b: &(u32, &str)| b.0.cmp(&a.0).then(a.1.len().cmp(&b.1.len())).then(a.1.cmp(b.1));
        scored.select_nth_unstable_by(n - 1, order);
        scored.truncate(n);
        scored.sort_unstable_by(order);
        scored.into_iter().map(|(_, p)| p).collect()
    }

    /// Where `query`'s letters fall in `path`, as indices of its characters in order,
    /// for a door to show them.
    pub fn marks(&mut self, query: &str, path: &str) -> Vec<u32> {
        let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
        let (mut buf, mut indices) = (Vec::new(), Vec::new());
        pattern.indices(Utf32Str::new(path, &mut buf), &mut self.matcher, &mut indices);
        indices.sort_unstable();
        indices.dedup();
        indices
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        for f in ["Cargo.toml", "src/main.rs", "src/config/app.toml", "target/debug/x.toml", ".env", "docs/a.md"] {
            let path = root.join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
        std::fs::write(dir.path().join("outside.toml"), "").unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside.toml"), root.join("out.toml")).unwrap();
        std::os::unix::fs::symlink(root.join("Cargo.toml"), root.join("in.toml")).unwrap();
        dir
    }

    fn pick(dir: &tempfile::TempDir, of: Picked, globs: &[&str]) -> Pick {
        let root = dir.path().join("root").to_str().unwrap().to_owned();
        Pick { of, root, globs: globs.iter().map(|g| g.to_string()).collect() }
    }

    #[test]
    fn a_listing_keeps_gitignore_hides_hidden_names_and_never_leaves_the_root() {
        let dir = tree();
        let files = list(&pick(&dir, Picked::Files, &[]), false);
        assert_eq!(files.paths, ["Cargo.toml", "docs/a.md", "in.toml", "src/config/app.toml", "src/main.rs"]);
        let hidden = list(&pick(&dir, Picked::Files, &["*.toml", ".env"]), true);
        assert_eq!(hidden.paths, [".env", "Cargo.toml", "in.toml", "src/config/app.toml"]);
        assert_eq!(list(&pick(&dir, Picked::Folders, &[]), false).paths, ["docs", "src", "src/config"]);
    }

    #[test]
    fn a_few_letters_find_the_best_paths_first() {
        let paths: Vec<String> =
            ["Cargo.toml", "src/config/app.toml", "src/main.rs", "docs/config.md"].map(String::from).to_vec();
        let mut finder = Finder::default();
        assert_eq!(finder.best("cfgapp", &paths, 5), ["src/config/app.toml"]);
        assert_eq!(finder.best("config", &paths, 1).len(), 1);
        assert_eq!(finder.best("", &paths, 2), ["Cargo.toml", "src/config/app.toml"]);
        assert!(finder.best("zzzz", &paths, 5).is_empty());
        assert_eq!(finder.marks("cfgapp", "src/config/app.toml"), [4, 7, 9, 11, 12, 13]);
    }
}
