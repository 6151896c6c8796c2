//! Finds the catalogs: every `locales/<tag>.ftl` is embedded, so a translator adds a
//! language by adding one file.
use std::{env, fs, path::Path};

fn main() {
    // The crate's folder as cargo names it for this build (not where this script was
    // compiled: a target folder may serve more than one checkout).
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("locales");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut found: Vec<(String, String)> = fs::read_dir(&dir)
        .expect("crates/i18n/locales is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ftl"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p.display().to_string()))
        .collect();
    found.sort();
    let entries: String = found.iter().map(|(tag, path)| format!("    ({tag:?}, include_str!({path:?})),\n")).collect();
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("catalogs.rs");
    fs::write(out, format!("pub static CATALOGS: &[(&str, &str)] = &[\n{entries}];\n")).unwrap();
}
