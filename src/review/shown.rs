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
