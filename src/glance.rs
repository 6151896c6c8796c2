//! What a person reads of a request in one look, worded once for every door (the
//! window, its notification, `userq pending` and `userq answer`, the phone): where it
//! comes from (the project, its branch, the folder inside it, the session, the machine),
//! what the agent says of it (its own words, labelled as the agent's), and what it
//! acts on (the command, the file, the address). Text from an agent is made inert
//! here: it is shown, never obeyed by the screen that shows it.

use user_questions_i18n::Text;

use crate::model::{Context, Intent};
use crate::policy::Kind;

/// The longest last message a door shows; the rest is cut with an ellipsis.
pub const LAST_MESSAGE: usize = 1_500;

/// `text` with every character that could change how the text around it shows made
/// visible instead: control characters (a terminal's escapes, a bare carriage return)
/// but the line break and the tab, and the invisible marks that reorder or hide text
/// ([`marks_shown`]). Each shows as its code point: `[U+202E]`.
pub fn inert(text: &str) -> String {
    shown(&text.replace("\r\n", "\n"), |c| (c.is_control() && c != '\n' && c != '\t') || hides(c))
}

/// `text` with only the invisible marks that reorder or hide text made visible: the
/// bidi controls (an agent's `\u{202E}` turns "on prod" into "dorp no"), zero-width
/// spaces and joiners that split a word, the byte-order mark. For text a renderer
/// escapes itself (markdown), where line ends and tabs are its own.
pub fn marks_shown(text: &str) -> String {
    shown(text, hides)
}

fn shown(text: &str, hidden: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if hidden(c) {
            out.push_str(&format!("[U+{:04X}]", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Marks that change the order or the look of the text around them, never needed to
/// write it: the zero-width joiners (emoji, Persian, Indic scripts) are kept.
fn hides(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200B}' | '\u{200E}' | '\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// `text` cut to `max` characters, with an ellipsis where it was cut.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

/// Where a request comes from, each piece worded and inert: `shop`, `on main`, `in
/// crates/api`, `session 01234567`, `on devbox`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    pub project: Option<String>,
    pub branch: Option<String>,
    pub folder: Option<String>,
    pub session: Option<String>,
    pub machine: Option<String>,
}

impl Place {
    pub fn of(context: &Context, text: &Text) -> Self {
        let worded = |key, name, value: Option<&str>| {
            value.map(|v| {
                let v = inert(v);
                text.tr_args(key, &[(name, (&v).into())])
            })
        };
        Place {
            project: context.project_name().map(inert),
            branch: worded("glance-branch", "branch", context.branch.as_deref()),
            folder: worded("glance-folder", "folder", context.folder()),
            session: worded("glance-session", "session", context.short_session()),
            machine: worded("glance-machine", "machine", context.machine.as_deref()),
        }
    }
}

/// Where a request comes from, in pieces a door joins. The agent itself is named apart.
pub fn place(context: &Context, text: &Text) -> Vec<String> {
    let Place { project, branch, folder, session, machine } = Place::of(context, text);
    [project, branch, folder, session, machine].into_iter().flatten().collect()
}

/// The agent's own words as a door shows them: trimmed, cut to `max` characters,
/// inert; `None` when it said nothing.
pub fn words(said: Option<&str>, max: usize) -> Option<String> {
    said.map(str::trim).filter(|w| !w.is_empty()).map(|w| inert(&cut(w, max)))
}

/// What the agent says of its request, each labelled as the agent's: its own
/// description of the call, then its last message before asking (cut to `max`
/// characters). Inert.
pub fn says(context: &Context, max: usize, text: &Text) -> Vec<String> {
    let said = |key, said: Option<&str>| words(said, max).map(|w| text.tr_args(key, &[("words", (&w).into())]));
    [said("glance-says", context.description.as_deref()), said("glance-said-last", context.last_message.as_deref())]
        .into_iter()
        .flatten()
        .collect()
}

/// The whole of it as lines of text, for a terminal or a message: who and where
/// (`Claude Code · shop · on main · in crates/api`), then what the agent says.
pub fn lines(context: &Context, max: usize, text: &Text) -> Vec<String> {
    let who: Vec<String> = context.source.as_deref().map(inert).into_iter().chain(place(context, text)).collect();
    let who = (!who.is_empty()).then(|| who.join(" · "));
    who.into_iter().chain(says(context, max, text)).collect()
}

/// What a permission acts on, from its intent's action: the command, the file (or
/// files), the address, the MCP server and tool. Inert, on one line.
pub fn subject(intent: &Intent) -> Option<String> {
    let line = match Kind::of(intent)? {
        Kind::Command(command) => command,
        Kind::Read(file) => file,
        Kind::Edit(files) => files.join(", "),
        Kind::Fetch(url) => url,
        Kind::Mcp { server, tool } => format!("{server} · {tool}"),
    };
    Some(inert(&line.split_whitespace().collect::<Vec<_>>().join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Context {
        Context {
            project: Some("/home/me/shop/crates/api".into()),
            root: Some("/home/me/shop".into()),
            branch: Some("main".into()),
            session: Some("0123456789abcdef".into()),
            machine: Some("devbox".into()),
            description: Some("Run the migrations".into()),
            last_message: Some("The schema changed, so I will migrate the database.".into()),
            ..Context::default()
        }
    }

    #[test]
    fn the_place_and_the_agents_words_are_worded_in_the_persons_language() {
        let en = Text::for_tag("en");
        assert_eq!(place(&context(), &en), ["shop", "on main", "in crates/api", "session 01234567", "on devbox"]);
        assert_eq!(
            says(&context(), 20, &en),
            ["The agent says: Run the migrations", "Its last message: The schema changed, …"]
        );
        let zh = Text::for_tag("zh-CN");
        assert_eq!(place(&context(), &zh)[1], "分支 main");
        assert!(says(&context(), 100, &zh)[0].starts_with("智能体说："), "{:?}", says(&context(), 100, &zh));
        assert!(place(&Context::default(), &en).is_empty() && says(&Context::default(), 9, &en).is_empty());
        let claude = Context { source: Some("Claude Code".into()), machine: None, last_message: None, ..context() };
        assert_eq!(
            lines(&claude, 99, &en),
            ["Claude Code · shop · on main · in crates/api · session 01234567", "The agent says: Run the migrations"]
        );
    }

    #[test]
    fn an_agents_text_is_shown_inert() {
        assert_eq!(inert("safe\u{202E}txt.exe"), "safe[U+202E]txt.exe");
        assert_eq!(inert("\x1b[31mred\x1b[0m\n\tok"), "[U+001B][31mred[U+001B][0m\n\tok");
        assert_eq!(inert("a\u{200B}b\u{2066}c\u{FEFF}"), "a[U+200B]b[U+2066]c[U+FEFF]");
        assert_eq!(inert("one\r\ntwo\rover"), "one\ntwo[U+000D]over", "a bare carriage return overwrites a line");
        assert_eq!(inert("👨\u{200D}👩 می\u{200C}خواهم"), "👨\u{200D}👩 می\u{200C}خواهم", "joiners write words");
        assert_eq!(marks_shown("a\r\n\u{202E}b"), "a\r\n[U+202E]b");
        assert_eq!(
            inert("<b>中文</b> & [x](javascript:y)"),
            "<b>中文</b> & [x](javascript:y)",
            "markup is the door's to escape"
        );
    }

    #[test]
    fn a_permission_names_what_it_acts_on_on_one_line() {
        let intent = |action: serde_json::Value| {
            let mut extra = serde_json::Map::new();
            extra.insert(crate::policy::ACTION.into(), action);
            Intent { kind: "permission".into(), approve: "Allow".into(), extra }
        };
        assert_eq!(subject(&intent(serde_json::json!({"command": "make\n  deploy"}))).as_deref(), Some("make deploy"));
        assert_eq!(subject(&intent(serde_json::json!({"edit": ["a.rs", "b.rs"]}))).as_deref(), Some("a.rs, b.rs"));
        assert_eq!(
            subject(&intent(serde_json::json!({"mcp": {"server": "db", "tool": "drop"}}))).as_deref(),
            Some("db · drop")
        );
        assert_eq!(subject(&intent(serde_json::json!("nothing"))), None);
    }
}
