//! One word of a command as bash hands it to the program: quotes removed, escapes
//! resolved (`c''at` is `cat`, `\rm` is `rm`), or, where the word is only known at run
//! time (a variable, a substitution, a glob, a brace expansion), [`Word::Dynamic`]
//! with its text. A dynamic word may become any word, or several, or none.

use tree_sitter::Node;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Word {
    Literal(String),
    Dynamic(String),
}

impl Word {
    pub fn literal(&self) -> Option<&str> {
        match self {
            Word::Literal(s) => Some(s),
            Word::Dynamic(_) => None,
        }
    }

    /// The word as written (a literal's resolved text).
    pub fn shown(&self) -> &str {
        match self {
            Word::Literal(s) | Word::Dynamic(s) => s,
        }
    }

    /// Whether every word this one can become is an operand, never an option: a
    /// literal not starting with `-`, or a glob or brace expansion that starts with
    /// plain text other than `-` and splits into nothing else (no unquoted
    /// variable or substitution, whose value bash splits into words of its choosing).
    pub fn never_an_option(&self) -> bool {
        match self {
            Word::Literal(s) => !s.starts_with('-') || s == "-",
            Word::Dynamic(s) => {
                s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_'))
                    && !s.contains(['$', '`', '\\', '\'', '"'])
            }
        }
    }
}

/// The word `node` stands for; `src` is the command it was parsed from.
pub fn resolve(node: Node, src: &str) -> Word {
    let text = || node.utf8_text(src.as_bytes()).unwrap_or_default().to_owned();
    if matches!(node.kind(), "word" | "concatenation") && braces_expand(&unquoted_skeleton(node, src)) {
        return Word::Dynamic(text());
    }
    let literal = match node.kind() {
        "word" | "number" => unquoted(&text()),
        "raw_string" => {
            let t = text();
            Some(t.get(1..t.len().saturating_sub(1)).unwrap_or_default().to_owned())
        }
        "string" => double_quoted(node, src),
        "ansi_c_string" => ansi_c(&text()),
        "concatenation" => {
            let mut out = String::new();
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                match resolve(child, src) {
                    Word::Literal(s) => out.push_str(&s),
                    Word::Dynamic(_) => return Word::Dynamic(text()),
                }
            }
            // A concatenation may hold unnamed pieces the grammar does not name (a
            // bare `$`, a brace); those make the word uncertain.
            (node.child_count() == node.named_child_count()).then_some(out)
        }
        _ => None,
    };
    match literal {
        Some(s) => Word::Literal(s),
        None => Word::Dynamic(text()),
    }
}

/// The word's text with each quoted piece replaced by a plain letter: what is left is
/// what bash reads for brace expansion.
fn unquoted_skeleton(node: Node, src: &str) -> String {
    match node.kind() {
        "string" | "raw_string" | "ansi_c_string" | "translated_string" => "q".into(),
        "concatenation" => {
            let mut out = String::new();
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                out.push_str(&unquoted_skeleton(child, src));
            }
            out
        }
        _ => node.utf8_text(src.as_bytes()).unwrap_or_default().to_owned(),
    }
}

/// Whether bash expands braces in `text` (unquoted): a `{` not after `$` whose
/// matching `}` encloses a comma or `..` at its own level. `{}` and `stash@{1}` stay
/// one word.
fn braces_expand(text: &str) -> bool {
    let mut open: Vec<bool> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut previous = ' ';
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '{' if previous != '$' => open.push(false),
            ',' if !open.is_empty() => *open.last_mut().expect("open") = true,
            '.' if !open.is_empty() && chars.peek() == Some(&'.') => *open.last_mut().expect("open") = true,
            '}' if open.pop() == Some(true) => return true,
            _ => {}
        }
        previous = c;
    }
    false
}

/// An unquoted word: escapes resolved; `None` when bash would expand it (a glob, a
/// brace expansion, a `~user`, a `~` after `=` or `:`) into words of its own choosing.
fn unquoted(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut brace = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(escaped) => out.push(escaped),
            },
            '*' | '?' | '[' => return None,
            '{' => {
                brace += 1;
                out.push(c);
            }
            ',' if brace > 0 => return None,
            '.' if brace > 0 && chars.peek() == Some(&'.') => return None,
            '$' | '`' => return None,
            // Bash expands a `~` after `=` or `:` in a word shaped as an assignment
            // (`echo a=~` passes `a=/home/me`).
            '~' if out.ends_with(['=', ':']) => return None,
            _ => out.push(c),
        }
    }
    if out.starts_with('~') && !(out == "~" || out.starts_with("~/")) {
        // `~user` is another person's home.
        return None;
    }
    Some(out)
}

/// A double-quoted string without expansions: its text with `\"`, `\\`, `\$`, `` \` ``
/// and `\<newline>` resolved as bash does inside double quotes.
/// Letters after which bash reads a `$` in double quotes as itself: none starts a
/// parameter (`$-`, `$?`, `$_`, a name, a digit), a substitution or an expansion.
const LITERAL_AFTER_DOLLAR: &str = " \t\n|\\)/.,:;%+=^]";

fn double_quoted(node: Node, src: &str) -> Option<String> {
    let mut out = String::new();
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        if child.kind() != "string_content" {
            return None;
        }
    }
    let text = node.utf8_text(src.as_bytes()).ok()?;
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('\n') => {}
                Some(e @ ('"' | '\\' | '$' | '`')) => out.push(e),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        } else if c == '$' && chars.clone().next().is_none_or(|n| LITERAL_AFTER_DOLLAR.contains(n)) {
            // `$` before the closing quote or a letter no expansion starts with
            // (`"^\.$"`, `"a$\|b"`) is itself.
            out.push(c);
        } else if c == '$' || c == '`' {
            return None;
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// `$'…'` without escapes is its text; with escapes it is left uncertain rather than
/// decoded here.
fn ansi_c(text: &str) -> Option<String> {
    let inner = text.strip_prefix("$'")?.strip_suffix('\'')?;
    (!inner.contains('\\')).then(|| inner.to_owned())
}
