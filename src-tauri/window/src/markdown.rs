//! Question detail is untrusted markdown shown in a webview that can call commands.
//! It is rendered here, in Rust, and every byte of HTML passes ammonia's allow-list:
//! no scripts, no event handlers, no styles, no iframes or SVG, links only to http(s)
//! and mailto, opened nowhere by the page itself. A fenced `diff` block has its added,
//! removed and hunk lines marked (`span.add`, `span.del`, `span.hunk`), the only
//! classes the allow-list keeps (with `span.ctx`
//! for context lines).
//!
//! A plan is rendered with its source lines: each piece of text sits in a
//! `span[data-lines="first-last"]` (the markdown lines it came from), so a reviewer's
//! selection in the rendered plan is known by the lines of the markdown it points at.
//! The attribute is kept only on spans, only with that shape.
//!
//! Bidi controls and zero-width marks show as their code points (`[U+202E]`): an
//! agent cannot make "on prod" read "dorp no".

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use pulldown_cmark::{html, CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};

/// Markdown to sanitized HTML.
pub fn render(markdown: &str) -> String {
    render_with(markdown, false)
}

/// A plan's markdown to sanitized HTML whose text knows its source lines.
pub fn render_plan(markdown: &str) -> String {
    render_with(markdown, true)
}

fn render_with(markdown: &str, lines: bool) -> String {
    // Marks that reorder or hide text show as what they are, never do it.
    let markdown = &user_questions::glance::marks_shown(markdown);
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut unsafe_html = String::with_capacity(markdown.len() * if lines { 3 } else { 3 / 2 });
    let starts: Vec<usize> = std::iter::once(0).chain(markdown.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let line_of = |offset: usize| starts.partition_point(|&s| s <= offset) as u32;
    let span_of = |range: &Range<usize>| (line_of(range.start), line_of(range.end.saturating_sub(1).max(range.start)));
    let mut in_diff = false;
    let events = Parser::new_ext(markdown, options).into_offset_iter().map(|(event, range)| match event {
        Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(ref lang))) => {
            in_diff = lang.as_ref() == "diff";
            event
        }
        Event::End(TagEnd::CodeBlock) => {
            in_diff = false;
            event
        }
        Event::Text(text) if in_diff => {
            Event::Html(CowStr::from(mark_diff(&text, lines.then(|| line_of(range.start)))))
        }
        Event::Text(text) if lines => {
            let (first, last) = span_of(&range);
            Event::Html(CowStr::from(format!(
                "<span data-lines=\"{first}-{last}\">{}</span>",
                ammonia::clean_text(&text)
            )))
        }
        Event::Code(code) if lines => {
            let (first, last) = span_of(&range);
            Event::Html(CowStr::from(format!(
                "<span data-lines=\"{first}-{last}\"><code>{}</code></span>",
                ammonia::clean_text(&code)
            )))
        }
        // The plan's own HTML never says which lines it is: only ours does.
        Event::Html(raw) if lines => Event::Html(CowStr::from(unclaimed(&raw))),
        Event::InlineHtml(raw) if lines => Event::InlineHtml(CowStr::from(unclaimed(&raw))),
        other => other,
    });
    html::push_html(&mut unsafe_html, events);
    let classes = HashMap::from([("span", HashSet::from(["add", "del", "hunk", "ctx"]))]);
    let mut builder = ammonia::Builder::default();
    builder
        .allowed_classes(classes)
        .url_schemes(HashSet::from(["http", "https", "mailto"]))
        .link_rel(Some("noopener noreferrer nofollow"))
        .rm_tags(&["img"]);
    if lines {
        builder.add_tag_attributes("span", &["data-lines"]).attribute_filter(|_, attribute, value| {
            if attribute != "data-lines" || is_range(value) {
                Some(value.into())
            } else {
                None
            }
        });
    }
    builder.clean(&unsafe_html).to_string()
}

/// Raw HTML with every `data-lines` (in any case) renamed, for the sanitizer to drop.
fn unclaimed(raw: &str) -> String {
    let lower = raw.to_ascii_lowercase();
    let mut out = String::with_capacity(raw.len());
    let mut last = 0;
    for (at, _) in lower.match_indices("data-lines") {
        out.push_str(&raw[last..at]);
        out += "data-unclaimed";
        last = at + "data-lines".len();
    }
    out.push_str(&raw[last..]);
    out
}

/// `first-last`, two line numbers.
fn is_range(value: &str) -> bool {
    value.split_once('-').is_some_and(|(a, b)| {
        [a, b].iter().all(|n| !n.is_empty() && n.len() < 10 && n.bytes().all(|c| c.is_ascii_digit()))
    })
}

/// The lines of a diff, escaped, each in a span saying what it is (`ctx` for context),
/// shown one a line by the page's style; numbered from `first` when given.
fn mark_diff(text: &str, first: Option<u32>) -> String {
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let class = match line.as_bytes().first() {
                Some(b'+') if !line.starts_with("+++") => "add",
                Some(b'-') if !line.starts_with("---") => "del",
                Some(b'@') => "hunk",
                _ => "ctx",
            };
            let at = first.map(|f| format!(" data-lines=\"{0}-{0}\"", f + i as u32)).unwrap_or_default();
            format!("<span class=\"{class}\"{at}>{}</span>", ammonia::clean_text(line))
        })
        .collect()
}

#[cfg(test)]
mod tests {

    #[test]
    fn marks_that_reorder_text_are_shown_never_obeyed() {
        let html = render("Run the migration \u{202E}on prod\u{202C}, `a\u{200B}b`");
        assert_eq!(html, "<p>Run the migration [U+202E]on prod[U+202C], <code>a[U+200B]b</code></p>\n");
    }

    use super::render;

    #[test]
    fn a_diff_marks_its_lines_and_escapes_them() {
        let html = render("```diff\n@@ -1 +1 @@\n-<b>old</b>\n+new\n same\n```");
        assert!(html.contains("<span class=\"hunk\">@@ -1 +1 @@</span>"), "{html}");
        assert!(html.contains("<span class=\"del\">-&lt;b&gt;old&lt;/b&gt;</span>"), "{html}");
        assert!(html.contains("<span class=\"add\">+new</span><span class=\"ctx\"> same</span>"), "{html}");
        assert!(!render("<span class=\"add\" onclick=\"x()\">x</span><p class=\"add\">y</p>").contains("onclick"));
    }

    #[test]
    fn a_plans_text_knows_its_source_lines_and_no_one_else_can_say_them() {
        let html = super::render_plan(
            "# Plan\n\n1. Add a `SessionStore`\n   trait\n2. **Dual-write**\n\n```rust\nfn a() {}\nfn b() {}\n```\n",
        );
        for piece in [
            "<h1><span data-lines=\"1-1\">Plan</span></h1>",
            "<span data-lines=\"3-3\">Add a </span><span data-lines=\"3-3\"><code>SessionStore</code></span>",
            "<span data-lines=\"4-4\">trait</span>",
            "<strong><span data-lines=\"5-5\">Dual-write</span></strong>",
            "<pre><code><span data-lines=\"8-9\">fn a() {}\nfn b() {}\n</span></code>",
        ] {
            assert!(html.contains(piece), "{piece} in {html}");
        }
        let forged = super::render_plan(
            "<span data-lines=\"5-5\" onclick=\"x\">a</span><span DATA-LINES=\"7-7\">b</span>\n\n<div data-lines=\"9-9\">d</div>",
        );
        for claim in ["5-5", "7-7", "9-9", "onclick"] {
            assert!(!forged.contains(claim), "{claim} in {forged}");
        }
        assert!(!render("<span data-lines=\"1-1\">a</span>").contains("data-lines"));
        assert!(!super::render_plan("<script>x</script>`<b>`").contains("<script"));
    }

    #[test]
    fn keeps_structure() {
        let html = render("# Plan\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```rust\nfn x() {}\n```\n\n- [ ] task");
        for tag in ["<h1>", "<table>", "<td>", "<pre><code", "<li>"] {
            assert!(html.contains(tag), "{tag} in {html}");
        }
    }

    #[test]
    fn strips_everything_that_runs() {
        let hostile = [
            "<script>alert(1)</script>",
            "<img src=x onerror=alert(1)>",
            "[x](javascript:alert(1))",
            "<a href=\"javascript:alert(1)\">x</a>",
            "<svg onload=alert(1)><circle/></svg>",
            "<iframe src=\"https://evil\"></iframe>",
            "<div style=\"background:url(javascript:alert(1))\">x</div>",
            "<form action=\"https://evil\"><button>go</button></form>",
            "[x](data:text/html;base64,PHNjcmlwdD4=)",
            "<object data=x></object><embed src=x>",
            "<style>body{display:none}</style>",
            "<meta http-equiv=\"refresh\" content=\"0;url=https://evil\">",
        ];
        for h in hostile {
            let out = render(h).to_lowercase();
            for bad in [
                "<script",
                "onerror",
                "javascript:",
                "<svg",
                "onload",
                "<iframe",
                "style=",
                "<form",
                "data:",
                "<object",
                "<embed",
                "<style",
                "<meta",
                "<img",
            ] {
                assert!(!out.contains(bad), "{h} rendered {out}");
            }
        }
    }
}

/// Generated markdown full of what an attacker would try: whatever it is, no script,
/// no event handler, no style and no `javascript:` (or other non-web) URL survives.
#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::{render, render_plan};

    /// Pieces of markdown and of hostile HTML, to be strung together in any order.
    fn hostile() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("<script>alert(1)</script>"),
            Just("<img src=x onerror=alert(1)>"),
            Just("<a href=\"javascript:alert(1)\">x</a>"),
            Just("<a href='  JaVaScRiPt:alert(1)'>x</a>"),
            Just("<a href=\"java\tscript:alert(1)\">x</a>"),
            Just("[x](javascript:alert(1))"),
            Just("[x](vbscript:msgbox)"),
            Just("![i](data:text/html,<script>alert(1)</script>)"),
            Just("<svg onload=alert(1)>"),
            Just("<iframe src=\"https://evil\"></iframe>"),
            Just("<div style=\"background:url(x)\" onclick=\"x()\">d</div>"),
            Just("<span class=\"add\" onmouseover=\"x\">s</span>"),
            Just("<form action=\"https://evil\"><input></form>"),
            Just("<object data=x></object><embed src=x>"),
            Just("<math><mi xlink:href=\"javascript:alert(1)\">m</mi></math>"),
            Just("```diff\n+<script>x</script>\n-\" onerror=\"x\n```\n"),
            Just("<<script>script>"),
            Just("\"'><"),
            Just("\n\n"),
            Just("# "),
            Just("* "),
            Just("`"),
            Just("> "),
            Just("| a | b |\n|---|---|\n"),
            Just("[ref]: javascript:alert(1)\n[ref]\n"),
            Just("<https://example.com>"),
            Just("<a href=\"https://ok.example\">ok</a>"),
            Just("<span data-lines=\"1-2\" onclick=\"x\">s</span><p data-lines=\"3-3\">p</p>"),
        ];
        (prop::collection::vec(piece, 1..8), prop::collection::vec(".{0,6}", 0..4)).prop_map(|(pieces, text)| {
            let mut s = String::new();
            for (i, p) in pieces.iter().enumerate() {
                s.push_str(p);
                if let Some(t) = text.get(i) {
                    s.push_str(t);
                }
            }
            s
        })
    }

    /// The tags of serialized HTML: each tag's name and its attributes' names and
    /// values. Values are double-quoted by the serializer, and may hold `<` and `>`.
    fn tags(html: &str) -> Vec<(String, Vec<(String, String)>)> {
        let mut out = Vec::new();
        let mut rest = html;
        while let Some(start) = rest.find('<') {
            let body = &rest[start + 1..];
            let mut end = body.len();
            let mut quoted = false;
            for (i, c) in body.char_indices() {
                match c {
                    '"' => quoted = !quoted,
                    '>' if !quoted => {
                        end = i;
                        break;
                    }
                    _ => {}
                }
            }
            let tag = &body[..end];
            rest = body.get(end + 1..).unwrap_or("");
            let tag = tag.trim_start_matches('/').trim_end_matches('/');
            let (name, mut attrs_text) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
            let mut attrs = Vec::new();
            while !attrs_text.trim().is_empty() {
                let t = attrs_text.trim_start();
                let (attr, after) = t.split_once('=').unwrap_or((t, ""));
                let (value, after) = match after.strip_prefix('"') {
                    Some(v) => v.split_once('"').unwrap_or((v, "")),
                    None => ("", after),
                };
                if attr.contains(char::is_whitespace) {
                    // A bare attribute followed by more.
                    let (bare, more) = attr.split_once(char::is_whitespace).unwrap();
                    attrs.push((bare.to_lowercase(), String::new()));
                    attrs_text = if after.is_empty() { more } else { t.split_once(char::is_whitespace).unwrap().1 };
                    continue;
                }
                attrs.push((attr.to_lowercase(), value.to_owned()));
                attrs_text = after;
            }
            out.push((name.to_lowercase(), attrs));
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4096, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn nothing_that_runs_survives(markdown in hostile(), plan in any::<bool>()) {
            let html = if plan { render_plan(&markdown) } else { render(&markdown) };
            for (name, attrs) in tags(&html) {
                let forbidden = ["script", "style", "iframe", "svg", "math", "object", "embed", "img", "form", "input"];
                prop_assert!(!forbidden.contains(&name.as_str()), "<{}> in {}", name, html);
                for (attr, value) in attrs {
                    prop_assert!(!attr.starts_with("on") && attr != "style", "{} on <{}> in {}", attr, name, html);
                    prop_assert!(attr != "data-lines" || (plan && name == "span"), "{} on <{}> in {}", attr, name, html);
                    if matches!(attr.as_str(), "href" | "src" | "action" | "xlink:href") {
                        let url: String = value.chars().filter(|c| !c.is_whitespace() && !c.is_control()).collect();
                        let url = url.to_lowercase();
                        let scheme = url.split_once(':').map(|(s, _)| s).filter(|s| !s.contains('/'));
                        prop_assert!(
                            scheme.is_none_or(|s| ["http", "https", "mailto"].contains(&s)),
                            "{}={} in {}", attr, value, html
                        );
                    }
                }
            }
        }
    }
}
