//! Question detail is untrusted markdown shown in a webview that can call commands.
//! It is rendered here, in Rust, and every byte of HTML passes ammonia's allow-list:
//! no scripts, no event handlers, no styles, no iframes or SVG, links only to http(s)
//! and mailto, opened nowhere by the page itself. A fenced `diff` block has its added,
//! removed and hunk lines marked (`span.add`, `span.del`, `span.hunk`), the only
//! classes the allow-list keeps (with `span.ctx`
//! for context lines).

use std::collections::{HashMap, HashSet};

use pulldown_cmark::{html, CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};

/// Markdown to sanitized HTML.
pub fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut unsafe_html = String::with_capacity(markdown.len() * 3 / 2);
    let mut in_diff = false;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(ref lang))) => {
            in_diff = lang.as_ref() == "diff";
            event
        }
        Event::End(TagEnd::CodeBlock) => {
            in_diff = false;
            event
        }
        Event::Text(text) if in_diff => Event::Html(CowStr::from(mark_diff(&text))),
        other => other,
    });
    html::push_html(&mut unsafe_html, events);
    let classes = HashMap::from([("span", HashSet::from(["add", "del", "hunk", "ctx"]))]);
    ammonia::Builder::default()
        .allowed_classes(classes)
        .url_schemes(HashSet::from(["http", "https", "mailto"]))
        .link_rel(Some("noopener noreferrer nofollow"))
        .rm_tags(&["img"])
        .clean(&unsafe_html)
        .to_string()
}

/// The lines of a diff, escaped, each in a span saying what it is (`ctx` for context),
/// shown one a line by the page's style.
fn mark_diff(text: &str) -> String {
    text.lines()
        .map(|line| {
            let class = match line.as_bytes().first() {
                Some(b'+') if !line.starts_with("+++") => "add",
                Some(b'-') if !line.starts_with("---") => "del",
                Some(b'@') => "hunk",
                _ => "ctx",
            };
            format!("<span class=\"{class}\">{}</span>", ammonia::clean_text(line))
        })
        .collect()
}

#[cfg(test)]
mod tests {
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

    use super::render;

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
        fn nothing_that_runs_survives(markdown in hostile()) {
            let html = render(&markdown);
            for (name, attrs) in tags(&html) {
                let forbidden = ["script", "style", "iframe", "svg", "math", "object", "embed", "img", "form", "input"];
                prop_assert!(!forbidden.contains(&name.as_str()), "<{}> in {}", name, html);
                for (attr, value) in attrs {
                    prop_assert!(!attr.starts_with("on") && attr != "style", "{} on <{}> in {}", attr, name, html);
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
