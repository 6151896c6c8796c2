//! Whether a glob in a command may name a secret: `cat .e?v` reads `.env` as surely as
//! `cat .env` does. The glob and each secret's pattern are both patterns over paths,
//! and the question is whether one path fits both, decided on the two patterns alone,
//! never on the files there are now (an allowed command runs later than it is judged).
//! Bash's rule that a wildcard never matches a leading `.` keeps `cat *` allowed.

use std::collections::HashSet;

use super::sensitive::SECRETS;

/// One piece of a pattern.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Token {
    Char(char),
    /// `?` or a bracket expression: one letter, never `/`.
    One,
    /// `*`: any run of letters, never `/`.
    Star,
    /// A brace expansion: any run of letters, `/` among them.
    Any,
}

impl Token {
    fn repeats(self) -> bool {
        matches!(self, Token::Star | Token::Any)
    }

    /// Whether it takes the letter `c`; `leading`: `c` starts a name, where bash's
    /// wildcards never take a `.`.
    fn takes(self, c: char, leading: bool, glob: bool) -> bool {
        match self {
            Token::Char(d) => c == d,
            Token::One | Token::Star => c != '/' && !(glob && leading && c == '.'),
            Token::Any => true,
        }
    }
}

/// A word of a command as bash reads it for pathname expansion: `?`, `*`, `[…]`,
/// and a brace expansion taken as any text.
fn glob(word: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '?' => out.push(Token::One),
            '*' => out.push(Token::Star),
            '[' => {
                // To the closing `]`, as bash reads a bracket: a `]` first in the set
                // (after `!` or `^`) is a letter of it; `[:alpha:]`, `[=e=]` and `[.i.]`
                // are classes to their own close; a backslash takes the next letter.
                // Whatever is in it, it takes one letter, any but `/`.
                let mut first = true;
                while let Some(d) = chars.next() {
                    match d {
                        ']' if !first => break,
                        '\\' => {
                            chars.next();
                        }
                        '[' if matches!(chars.peek(), Some(':' | '=' | '.')) => {
                            let close = chars.next();
                            let mut last = ' ';
                            for e in chars.by_ref() {
                                if e == ']' && Some(last) == close {
                                    break;
                                }
                                last = e;
                            }
                        }
                        _ => {}
                    }
                    first = first && (d == '!' || d == '^');
                }
                out.push(Token::One);
            }
            '{' => {
                let mut depth = 1;
                for d in chars.by_ref() {
                    depth += match d {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    if depth == 0 {
                        break;
                    }
                }
                out.push(Token::Any);
            }
            c => out.push(Token::Char(c)),
        }
    }
    out
}

/// A secret's entry as patterns over a whole path: anywhere in a path, as a folder in
/// it or as its last name ([`super::sensitive::under`]).
fn secret_patterns() -> Vec<Vec<Token>> {
    let mut out = Vec::new();
    for entry in SECRETS {
        let name: Vec<Token> =
            entry.trim_end_matches('/').chars().map(|c| if c == '*' { Token::Star } else { Token::Char(c) }).collect();
        let mut heads = vec![vec![], [vec![Token::Any], vec![Token::Char('/')]].concat()];
        let tails: Vec<Vec<Token>> = if entry.ends_with('/') {
            vec![vec![], vec![Token::Char('/')], vec![Token::Char('/'), Token::Any]]
        } else {
            vec![vec![], vec![Token::Char('/')]]
        };
        for head in heads.drain(..) {
            for tail in &tails {
                out.push([head.clone(), name.clone(), tail.clone()].concat());
            }
        }
    }
    out
}

/// Whether some path fits both the glob `a` and the pattern `b`.
fn meet(a: &[Token], b: &[Token]) -> bool {
    let mut seen = HashSet::new();
    let mut todo = vec![(0usize, 0usize, true)];
    while let Some(state) = todo.pop() {
        if !seen.insert(state) {
            continue;
        }
        let (i, j, leading) = state;
        if i == a.len() && j == b.len() {
            return true;
        }
        let (x, y) = (a.get(i).copied(), b.get(j).copied());
        if x.is_some_and(Token::repeats) {
            todo.push((i + 1, j, leading));
        }
        if y.is_some_and(Token::repeats) {
            todo.push((i, j + 1, leading));
        }
        let (Some(x), Some(y)) = (x, y) else { continue };
        // The letters worth trying: either side's own, or any plain letter, or `/`.
        let letters = [x, y].into_iter().filter_map(|t| match t {
            Token::Char(c) => Some(c),
            _ => None,
        });
        for c in letters.chain(['a', '/']) {
            if x.takes(c, leading, true) && y.takes(c, leading, false) {
                let next = |t: Token, k: usize| if t.repeats() { k } else { k + 1 };
                todo.push((next(x, i), next(y, j), c == '/'));
            }
        }
    }
    false
}

/// Whether the glob `word` (its `~` already expanded) may name a secret file. A
/// secret's template (`.env.example`) is not told apart here: a glob that may name
/// one may name the secret beside it.
pub fn may_name_secret(word: &str) -> bool {
    let a = glob(&word.to_lowercase());
    secret_patterns().iter().any(|b| meet(&a, b))
}

#[cfg(test)]
mod tests {
    use super::may_name_secret;

    #[test]
    fn a_glob_that_may_name_a_secret_is_found() {
        for word in [
            ".e?v",
            ".env*",
            ".??*",
            "/root/.s*/id_rsa",
            "/root/.s*/*",
            "*/.env",
            "app/.e[n]v",
            "*.pe?",
            "certs/*",
            "*",
            ".e{n,x}v",
            "{.ssh,x}/config",
            "/home/*/.aws/credentials",
            "*/*",
            ".e[[:alpha:]]v",
            ".[[=e=]]nv",
            ".e[\\n]v",
            "/root/.aw[[:alpha:]]/credentials",
            "[[:alpha:]]d_rsa",
            "[[.i.]]d_rsa",
            "[^[:digit:]]d_rsa",
            "server.[[:lower:]]ey",
            ".e[]n]v",
        ] {
            assert!(may_name_secret(word), "{word}");
        }
        for word in ["*.rs", "src/*.ts", "logs/*.log", "?ain.py", "src/**/*.rs", ".github/*.yml", "docs/[a-z]*.md"] {
            assert!(!may_name_secret(word), "{word}");
        }
    }
}
