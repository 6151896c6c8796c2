//! The file pick at scale, in one run over a tree of 100,000 files (1,000 folders of
//! 100, as deep as a real checkout's):
//! - the first results after the question opens: the root listed as ripgrep walks it,
//!   and the first fifty paths taken to show;
//! - each keystroke: the best fifty of the 100,000 paths for what is typed so far,
//!   with nucleo (`Finder::best`), against the same paths scored by fuzzy-matcher's
//!   skim matcher (the one inquire filters `userq answer`'s list with), in this run.
//!
//! `cargo bench --bench pick`.

mod common;

use common::{scaled, show, times};
use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;
use user_questions::model::{Pick, Picked};
use user_questions::pick::{list, Finder};

const SHOWN: usize = 50;

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for folder in 0..1_000 {
        let path = root.join(format!("crate{:02}/src/module{folder:04}", folder % 40));
        std::fs::create_dir_all(&path).unwrap();
        for file in 0..100 {
            let ext = if file % 10 == 0 { "toml" } else { "rs" };
            std::fs::write(path.join(format!("item{file:03}.{ext}")), "").unwrap();
        }
    }
    let pick = Pick { of: Picked::Files, root: root.to_str().unwrap().to_owned(), globs: Vec::new() };
    let listing = list(&pick, false);
    assert_eq!(listing.paths.len(), 100_000);
    let mut finder = Finder::default();
    let opened = times(scaled(40), || {
        let listing = list(&pick, false);
        assert_eq!(finder.best("", &listing.paths, SHOWN).len(), SHOWN);
    });
    show("a pick of 100,000 files opened: listed, the first 50 shown", &opened);
    let mut typed = String::new();
    for key in "mod12item7".chars() {
        typed.push(key);
        let found = finder.best(&typed, &listing.paths, SHOWN).len();
        let ours = times(scaled(100), || drop(finder.best(&typed, &listing.paths, SHOWN)));
        let median = show(&format!("keystroke {typed:<12} nucleo, best 50 ({found} shown)"), &ours);
        let skim = SkimMatcherV2::default();
        let theirs = times(scaled(20), || {
            let mut scored: Vec<(i64, &String)> =
                listing.paths.iter().filter_map(|p| skim.fuzzy_match(p, &typed).map(|s| (s, p))).collect();
            scored.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
            scored.truncate(SHOWN);
        });
        let reference = show(&format!("keystroke {typed:<12} fuzzy-matcher (skim), the same"), &theirs);
        println!("  ratio: nucleo {:.2}× the time of skim", median.as_secs_f64() / reference.as_secs_f64());
    }
}
