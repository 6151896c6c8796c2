//! How text is shown inside a question's markdown detail: a change as a unified diff,
//! and any text fenced so nothing inside it can close its block. Every door that puts a
//! change or a command in front of a person (an agent's hook, a review, a revised plan)
//! shows it through here.

use similar::TextDiff;

/// A unified diff of `before` against `after`, named `a/<path>` and `b/<path>`.
pub fn unified(path: &str, before: &str, after: &str) -> String {
    let name = path.trim_start_matches('/');
    TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .missing_newline_hint(false)
        .to_string()
}

/// A fenced code block whose fence is longer than any run of backticks inside it,
/// so no content can close it early.
pub fn fenced(lang: &str, body: &str) -> String {
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let body = body.strip_suffix('\n').unwrap_or(body);
    format!("{fence}{lang}\n{body}\n{fence}")
}

/// The body of the first block [`fenced`] made with `lang` in `text`.
pub fn unfenced(lang: &str, text: &str) -> Option<String> {
    let mut lines = text.lines();
    let fence = lines.find_map(|l| {
        let ticks = l.len() - l.trim_start_matches('`').len();
        (ticks >= 3 && &l[ticks..] == lang).then(|| &l[..ticks])
    })?;
    let body: Vec<&str> = lines.take_while(|l| *l != fence).collect();
    Some(body.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fenced_body_is_read_back_whatever_its_backticks() {
        for body in ["ls -la", "echo ```` done\nsecond line", ""] {
            assert_eq!(unfenced("sh", &format!("Why\n\n{}", fenced("sh", body))).as_deref(), Some(body));
        }
        assert_eq!(unfenced("sh", "```diff\n-a\n```"), None);
    }
}
