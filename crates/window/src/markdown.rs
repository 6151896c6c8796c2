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
