//! Question detail is untrusted markdown shown in a webview that can call commands.
//! It is rendered here, in Rust, and every byte of HTML passes ammonia's allow-list:
//! no scripts, no event handlers, no styles, no iframes or SVG, links only to http(s)
//! and mailto, opened nowhere by the page itself.

use std::collections::HashSet;

use pulldown_cmark::{html, Options, Parser};

/// Markdown to sanitized HTML.
pub fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut unsafe_html = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut unsafe_html, Parser::new_ext(markdown, options));
    ammonia::Builder::default()
        .url_schemes(HashSet::from(["http", "https", "mailto"]))
        .link_rel(Some("noopener noreferrer nofollow"))
        .rm_tags(&["img"])
        .clean(&unsafe_html)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::render;

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
