//! Every word a person reads comes from a Fluent catalog here: the window, the tray,
//! notifications, and the human-facing messages of `userq`. One file per language in
//! `locales/` (`en.ftl`, `zh-CN.ftl`), embedded at build time, so a translator adds a
//! language by adding one file. Plurals and arguments are Fluent's (`fluent-bundle`),
//! and so is choosing among the catalogs (`fluent-langneg`); anything a catalog lacks
//! falls back to English.
//!
//! What a model reads is not here: the reference's error texts, tool descriptions and
//! JSON answers are the same in every language, and so is an agent's own text.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_langneg::{negotiate_languages, NegotiationStrategy};
use unic_langid::LanguageIdentifier;

mod catalogs {
    include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));
}

/// The language everything falls back to, and the one with every message.
pub const FALLBACK: &str = "en";

type Bundle = FluentBundle<FluentResource>;

struct Catalog {
    id: LanguageIdentifier,
    tag: &'static str,
    bundle: Bundle,
}

fn catalogs() -> &'static [Arc<Catalog>] {
    static ALL: OnceLock<Vec<Arc<Catalog>>> = OnceLock::new();
    ALL.get_or_init(|| {
        catalogs::CATALOGS
            .iter()
            .filter_map(|(tag, source)| {
                let id: LanguageIdentifier = tag.parse().ok()?;
                // A catalog with a broken entry still serves the rest (the catalog
                // tests fail on any error, so none ships).
                let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|(r, _)| r);
                let mut bundle = Bundle::new_concurrent(vec![id.clone()]);
                // No Unicode isolation marks: terminals and notification servers show them.
                bundle.set_use_isolating(false);
                let _ = bundle.add_resource(resource);
                Some(Arc::new(Catalog { id, tag, bundle }))
            })
            .collect()
    })
}

/// A language a person can choose: its tag and its own name for itself.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Language {
    pub tag: String,
    pub name: String,
}

/// Every language with a catalog, by tag.
pub fn languages() -> Vec<Language> {
    catalogs()
        .iter()
        .map(|c| Language { tag: c.tag.to_owned(), name: Text::only(c.clone()).tr("language-name") })
        .collect()
}

/// The language a person asked for: `USERQ_LANG` (a BCP 47 tag), else the system's
/// (`LC_ALL`, `LC_MESSAGES`, `LANG`, as POSIX orders them); `C` and `POSIX` ask for none.
pub fn requested_from_env() -> Option<String> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    if let Some(tag) = var("USERQ_LANG") {
        return Some(tag);
    }
    let posix = var("LC_ALL").or_else(|| var("LC_MESSAGES")).or_else(|| var("LANG"))?;
    let tag = posix.split(['.', '@']).next().unwrap_or_default().replace('_', "-");
    (!tag.is_empty() && tag != "C" && tag != "POSIX").then_some(tag)
}

/// A value for a message argument: a number (for plurals) or a string.
pub enum Arg<'a> {
    Num(f64),
    Str(&'a str),
}

impl From<usize> for Arg<'_> {
    fn from(n: usize) -> Self {
        Arg::Num(n as f64)
    }
}
impl From<u64> for Arg<'_> {
    fn from(n: u64) -> Self {
        Arg::Num(n as f64)
    }
}
impl<'a> From<&'a str> for Arg<'a> {
    fn from(s: &'a str) -> Self {
        Arg::Str(s)
    }
}
impl<'a> From<&'a String> for Arg<'a> {
    fn from(s: &'a String) -> Self {
        Arg::Str(s)
    }
}

/// The messages of one language, with English behind it.
#[derive(Clone)]
pub struct Text {
    chain: Vec<Arc<Catalog>>,
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Text").field("tag", &self.tag()).finish()
    }
}

impl Default for Text {
    fn default() -> Self {
        Text::for_tag(FALLBACK)
    }
}

impl Text {
    fn only(catalog: Arc<Catalog>) -> Text {
        Text { chain: vec![catalog] }
    }

    /// The catalog that best fits `requested` (`zh-CN`, `zh`, `zh-Hans-CN` all pick
    /// Simplified Chinese), with English behind it; English for a tag no catalog fits
    /// or that is not a tag.
    pub fn for_tag(requested: &str) -> Text {
        let all = catalogs();
        let available: Vec<&LanguageIdentifier> = all.iter().map(|c| &c.id).collect();
        let fallback: LanguageIdentifier = FALLBACK.parse().expect("en is a tag");
        let wanted: Vec<LanguageIdentifier> = requested.parse().into_iter().collect();
        let fallback = &fallback;
        let picked = negotiate_languages(&wanted, &available, Some(&fallback), NegotiationStrategy::Lookup);
        let mut chain: Vec<Arc<Catalog>> =
            picked.iter().filter_map(|id| all.iter().find(|c| &&c.id == *id).cloned()).collect();
        if let Some(en) = all.iter().find(|c| c.tag == FALLBACK) {
            if chain.iter().all(|c| c.tag != FALLBACK) {
                chain.push(en.clone());
            }
        }
        Text { chain }
    }

    /// The language the environment asks for (see [`requested_from_env`]).
    pub fn from_env() -> Text {
        Text::for_tag(&requested_from_env().unwrap_or_else(|| FALLBACK.to_owned()))
    }

    /// The tag of the catalog in use (`en`, `zh-CN`).
    pub fn tag(&self) -> &str {
        self.chain.first().map(|c| c.tag).unwrap_or(FALLBACK)
    }

    /// A message with no arguments.
    pub fn tr(&self, id: &str) -> String {
        self.format(id, None)
    }

    /// A message with arguments: `text.tr_args("notice-burst", &[("questions", 5.into()), ("agents", 2.into())])`.
    pub fn tr_args(&self, id: &str, args: &[(&str, Arg)]) -> String {
        let mut fluent = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Num(n) => fluent.set(*name, FluentValue::from(*n)),
                Arg::Str(s) => fluent.set(*name, FluentValue::from(*s)),
            }
        }
        self.format(id, Some(&fluent))
    }

    fn format(&self, id: &str, args: Option<&FluentArgs>) -> String {
        for catalog in &self.chain {
            let Some(pattern) = catalog.bundle.get_message(id).and_then(|m| m.value()) else { continue };
            let mut errors = Vec::new();
            return catalog.bundle.format_pattern(pattern, args, &mut errors).into_owned();
        }
        // A message no catalog has: the catalog tests keep this from shipping.
        id.to_owned()
    }

    /// Every message whose id starts with `prefix`, formatted without arguments: what
    /// the window's static labels need in one call.
    pub fn all_with_prefix(&self, prefix: &str) -> BTreeMap<String, String> {
        let ids = ids(FALLBACK).into_iter().filter(|id| id.starts_with(prefix));
        ids.map(|id| {
            let text = self.tr(&id);
            (id, text)
        })
        .collect()
    }
}

/// The message ids of one catalog, in file order.
pub fn ids(tag: &str) -> Vec<String> {
    let Some((_, source)) = catalogs::CATALOGS.iter().find(|(t, _)| *t == tag) else { return Vec::new() };
    let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|(r, _)| r);
    resource
        .entries()
        .filter_map(|e| match e {
            fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_owned()),
            _ => None,
        })
        .collect()
}

/// The source of each catalog, by tag, for the catalog tests.
pub fn sources() -> &'static [(&'static str, &'static str)] {
    catalogs::CATALOGS
}

#[cfg(test)]
mod tests;
