//! The walk over tree-sitter-bash's tree: every statement, every redirection and every
//! substitution, in the order bash meets them. A node kind the walk does not know is
//! unreadable, never skipped.

use tree_sitter::{Node, Parser};

use super::command::Words;
use super::reader::{changes_what_runs, is_fd, writes_nothing, Fed, Reader};
use super::word::{resolve, Word};
use super::{Folder, Part, Reading, Unreadable, MAX_DEPTH};

/// Statements whose named children are statements or words to search for
/// substitutions: their own kind decides nothing.
const COMPOUND: &[&str] = &[
    "program",
    "compound_statement",
    "do_group",
    "else_clause",
    "elif_clause",
    "subshell",
    "negated_command",
    "if_statement",
    "while_statement",
    "for_statement",
    "c_style_for_statement",
    "case_statement",
    "case_item",
];

/// Statements whose body may run more than once.
const LOOPS: &[&str] = &["while_statement", "for_statement", "c_style_for_statement"];

/// Reads `src`; `depth` counts the levels around it; `folder`: where it starts.
pub fn read(src: &str, depth: usize, folder: Folder) -> Reading {
    let mut reader = Reader { src, parts: Vec::new(), again: Vec::new(), folder, loops: 0 };
    if depth > MAX_DEPTH {
        reader.unreadable_text(src, Unreadable::TooDeep);
        return Reading { parts: reader.parts };
    }
    if super::read_otherwise(src) {
        let text: String = src.escape_debug().take(80).collect();
        reader.unreadable_text(&text, Unreadable::Syntax);
        return Reading { parts: reader.parts };
    }
    let mut parser = Parser::new();
    if parser.set_language(&tree_sitter_bash::LANGUAGE.into()).is_err() {
        reader.unreadable_text(src, Unreadable::Syntax);
        return Reading { parts: reader.parts };
    }
    // No character outside ASCII means anything to bash's syntax, and tree-sitter-bash
    // 0.25's scanner crashes on some of them (`{` before U+E01DA): the parser reads
    // each such byte as a letter, and every text is taken from `src` itself, at the
    // same offsets.
    let masked: Vec<u8> = src.bytes().map(|b| if b.is_ascii() { b } else { b'x' }).collect();
    let Some(tree) = parser.parse(&masked, None) else {
        reader.unreadable_text(src, Unreadable::Syntax);
        return Reading { parts: reader.parts };
    };
    let root = tree.root_node();
    if root.has_error() || splits_a_word(root, src) || misread_token(root, src) || drops_text(root, src) {
        reader.unreadable_text(src, Unreadable::Syntax);
    } else {
        reader.statement(root, Fed::No, depth);
    }
    Reading { parts: reader.parts }
}

/// Whether the parser took as one word what bash splits: an unquoted word holding a
/// blank or an operator no backslash escapes. tree-sitter-bash 0.25 reads
/// `echo x` + newline + `\rm x` as one `echo` whose third word starts with the line
/// break; bash runs `rm`. Where the two disagree, nothing is read with certainty.
fn splits_a_word(root: Node, src: &str) -> bool {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.kind() == "word" && unescaped_metacharacter(node.utf8_text(src.as_bytes()).unwrap_or_default()) {
            return true;
        }
        if cursor.goto_first_child() || cursor.goto_next_sibling() {
            continue;
        }
        loop {
            if !cursor.goto_parent() {
                return false;
            }
            if cursor.goto_next_sibling() {
                break;
            }
        }
    }
}

/// Where a command's words stand: its name, its arguments, its assignments.
const HOLDS_WORDS: &[&str] = &["command", "declaration_command", "unset_command", "for_statement", "array"];

/// What may follow a word with no blank between them and still be a word of its own.
const STARTS_WITH_AN_OPERATOR: &[&str] = &["file_redirect", "heredoc_redirect", "herestring_redirect"];

/// Whether the parser split or ended a token where bash does not, in one walk:
/// - two words of a command with nothing between them: tree-sitter-bash 0.25 ends a
///   word before `\c` after a `]` (`"a"]\c]`); bash passes the whole as one word;
/// - an ANSI-C string, `$'…'`, ends at the first `'` no backslash escapes; the
///   parser takes the `'` of `$'\\'` for an escaped one and runs on to the next;
/// - a here-document's delimiter with quotes anywhere in it has them removed (`tru"e"`
///   ends at a line `true`); the parser removes only a pair around the whole. A
///   delimiter is read when it is plain, or plain inside one pair of quotes;
/// - a here-document ends at a line that is its delimiter alone (see
///   [`ends_where_bash_does`]).
fn misread_token(root: Node, src: &str) -> bool {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let text = node.utf8_text(src.as_bytes()).unwrap_or_default();
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let misread = match node.kind() {
            kind if HOLDS_WORDS.contains(&kind) => {
                let words: Vec<&Node> = children.iter().filter(|c| c.is_named()).collect();
                words
                    .windows(2)
                    .any(|w| w[0].end_byte() == w[1].start_byte() && !STARTS_WITH_AN_OPERATOR.contains(&w[1].kind()))
            }
            "ansi_c_string" => ansi_c_end(text) != Some(text.len()),
            "heredoc_start" => !plain_delimiter(text),
            "heredoc_redirect" => !ends_where_bash_does(node, src),
            _ => false,
        };
        if misread {
            return true;
        }
        stack.extend(children);
    }
    false
}

/// Where bash ends the ANSI-C string `text` starts with (`$'`): after the first `'`
/// no backslash escapes.
fn ansi_c_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = text.strip_prefix("$'").map(|_| 2)?;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\'' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// Whether a here-document ends at a line that is its delimiter and nothing else, as
/// bash ends it: the parser also ends one at a line with blanks or a `;` beside it,
/// where bash reads on.
fn ends_where_bash_does(node: Node, src: &str) -> bool {
    let mut cursor = node.walk();
    let children: Vec<Node> = node.children(&mut cursor).collect();
    let find = |kind: &str| children.iter().find(|c| c.kind() == kind);
    let (Some(start), Some(end)) = (find("heredoc_start"), find("heredoc_end")) else { return true };
    let delimiter = start.utf8_text(src.as_bytes()).unwrap_or_default().trim_matches(['\'', '"']);
    let line_start = src[..end.start_byte()].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src[end.end_byte()..].find('\n').map_or(src.len(), |i| end.end_byte() + i);
    src.get(line_start..line_end) == Some(delimiter)
}

fn plain_delimiter(text: &str) -> bool {
    let plain = |t: &str| !t.is_empty() && !t.contains(['\'', '"', '\\', '$', '`']);
    let inside = |q: char| text.strip_prefix(q).and_then(|t| t.strip_suffix(q));
    plain(text) || inside('\'').is_some_and(plain) || inside('"').is_some_and(plain)
}

/// Whether the parser left text out of its tree, or split what bash joins: between
/// two of its leaves stands something other than blanks and escaped line breaks, or a
/// backslash-newline right after the first. tree-sitter-bash 0.25 drops
/// the lone `-` of `groups - 2>/dev/null`; bash passes it to the program.
fn drops_text(root: Node, src: &str) -> bool {
    let mut end = 0;
    let mut cursor = root.walk();
    // Text between two leaves other than blanks and escaped line breaks; or a
    // backslash-newline right after a leaf, which bash removes and so joins the leaf
    // with what follows (`.e\⏎nv` is `.env`), where the parser splits them.
    let gap = |from: usize, to: usize| {
        src.get(from..to).is_some_and(|g| {
            g.replace("\\\n", "").chars().any(|c| !c.is_whitespace()) || (from > 0 && g.starts_with("\\\n"))
        })
    };
    loop {
        let node = cursor.node();
        if node.child_count() == 0 || matches!(node.kind(), "string_content" | "heredoc_body" | "comment") {
            if node.start_byte() > end && gap(end, node.start_byte()) {
                return true;
            }
            end = end.max(node.end_byte());
            if cursor.goto_next_sibling() {
                continue;
            }
        } else if cursor.goto_first_child() {
            continue;
        }
        loop {
            if !cursor.goto_parent() {
                return gap(end, src.len());
            }
            if cursor.goto_next_sibling() {
                break;
            }
        }
    }
}

/// An unescaped blank or operator, or a backslash that ends the word: bash removes a
/// backslash-newline and joins the word with what follows (`.e\⏎nv` is `.env`).
fn unescaped_metacharacter(word: &str) -> bool {
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        match c {
            // The escaped letter is taken with it; none left: the word's last.
            '\\' if chars.next().is_none() => return true,
            ' ' | '\t' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>' => return true,
            _ => {}
        }
    }
    false
}

impl Reader<'_> {
    /// One statement and everything inside it. `depth` bounds the recursion.
    pub fn statement(&mut self, node: Node, fed: Fed, depth: usize) {
        // A loop's body may run any number of times: a `cd` there goes anywhere.
        let looping = usize::from(LOOPS.contains(&node.kind()));
        self.loops += looping;
        self.statement_once(node, fed, depth);
        self.loops -= looping;
    }

    fn statement_once(&mut self, node: Node, fed: Fed, depth: usize) {
        if depth > MAX_DEPTH {
            return self.unreadable(node, Unreadable::TooDeep);
        }
        let kind = node.kind();
        match kind {
            "comment" => {}
            "command" => self.command(node, fed, depth),
            "pipeline" => {
                let mut cursor = node.walk();
                for (i, child) in node.named_children(&mut cursor).enumerate() {
                    let fed = if i == 0 { fed } else { Fed::Yes };
                    self.statement(child, fed, depth + 1);
                }
            }
            "list" => {
                // `a && b && c` nests to the left, one level per operator: walked as
                // the flat list it is, so a long list is not a deep one.
                let mut chain = vec![node];
                while let Some(left) = chain.last().and_then(|n| n.named_child(0)).filter(|n| n.kind() == "list") {
                    chain.push(left);
                }
                let first = chain.last().and_then(|n| n.named_child(0));
                first.into_iter().for_each(|n| self.statement(n, fed, depth + 1));
                for list in chain.iter().rev() {
                    let mut cursor = list.walk();
                    for child in list.named_children(&mut cursor).skip(1) {
                        self.statement(child, fed, depth + 1);
                    }
                }
            }
            "redirected_statement" => self.redirected(node, fed, depth),
            "variable_assignment" => self.assignment(node, depth),
            "variable_assignments" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    match child.kind() {
                        "variable_assignment" => self.assignment(child, depth + 1),
                        _ => self.search(child, depth + 1),
                    }
                }
            }
            "declaration_command" | "unset_command" => {
                // `export`, `declare`, `local`, `readonly`, `typeset`, `unset`: what
                // they set (a name reference, an attribute, a function) is not read.
                let word = node.child(0).map(|n| self.text(n)).unwrap_or_default().to_owned();
                self.unreadable(node, Unreadable::Evaluates(word));
                self.search(node, depth + 1);
            }
            "test_command" => {
                // `[[ … ]]` evaluates a variable's value as arithmetic (`-eq`) or as a
                // name (`-v`): with any expansion in it, what runs is not known. The
                // operands of `-eq` are arithmetic themselves (`[[ 0 -eq PATH=0 ]]`
                // assigns, `'a[$(id)]'` runs `id`): only numbers are read.
                if has_kind(node, &["simple_expansion", "expansion", "arithmetic_expansion"])
                    || self.text(node).contains("-v")
                    || !plain_arithmetic(self.text(node))
                {
                    self.unreadable(node, Unreadable::Evaluates("[[".into()));
                }
                self.search(node, depth + 1)
            }
            "for_statement" if node.child_by_field_name("variable").is_some() => {
                let name = node.child_by_field_name("variable").map(|n| self.text(n)).unwrap_or_default();
                if changes_what_runs(name) {
                    self.unreadable(node, Unreadable::Evaluates(format!("for {name}")));
                }
                self.compound(node, fed, depth)
            }
            "c_style_for_statement" => {
                self.unreadable(node, Unreadable::Evaluates("((".into()));
                self.compound(node, fed, depth)
            }
            "function_definition" => {
                let name = node.child_by_field_name("name").map(|n| self.text(n)).unwrap_or_default();
                self.unreadable(node, Unreadable::DefinesFunction(name.to_owned()))
            }
            _ if COMPOUND.contains(&kind) => self.compound(node, fed, depth),
            other => self.unreadable(node, Unreadable::Unknown(other.to_owned())),
        }
    }

    /// A statement made of statements: each is read, every other child searched.
    fn compound(&mut self, node: Node, fed: Fed, depth: usize) {
        // An empty group or body: bash reads `{}` as a command of that name, and `{ }`,
        // `( )` or `do done` as a syntax error, where the parser reads nothing to run.
        let mut cursor = node.walk();
        let empty = !node.named_children(&mut cursor).any(|c| is_statement(c.kind()));
        if empty && ["compound_statement", "subshell", "do_group"].contains(&node.kind()) {
            return self.unreadable(node, Unreadable::Syntax);
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if is_statement(child.kind()) {
                self.statement(child, fed, depth + 1);
            } else if child.kind() != "variable_name" {
                self.search(child, depth + 1);
            }
        }
    }

    /// A simple command: its assignments, its words, its redirections, and every
    /// substitution inside them.
    fn command(&mut self, node: Node, fed: Fed, depth: usize) {
        if node.child_count() != node.named_child_count() {
            // A token the grammar does not name (a lone `-` it dropped): bash passes
            // it as a word; the parser lost it.
            return self.unreadable(node, Unreadable::Syntax);
        }
        let mut words = Vec::new();
        let mut assigned = Vec::new();
        let mut fed = fed;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "variable_assignment" => {
                    assigned.push(child);
                }
                "command_name" => {
                    self.search(child, depth + 1);
                    let word = child.named_child(0).map(|w| resolve(w, self.src));
                    words.push(word.unwrap_or_else(|| Word::Dynamic(self.text(child).to_owned())));
                }
                "file_redirect" | "herestring_redirect" => {
                    fed = if child.kind() == "herestring_redirect" { Fed::Yes } else { fed };
                    self.redirect(child, depth + 1);
                }
                "subshell" => self.statement(child, Fed::No, depth + 1),
                _ => {
                    self.search(child, depth + 1);
                    words.push(resolve(child, self.src));
                }
            }
        }
        for a in &assigned {
            self.assignment(*a, depth);
        }
        if words.is_empty() {
            return;
        }
        let words = Words { words, text: self.text(node).to_owned(), fed };
        words.run(self);
        // `sh -c 'PROGRAM'`: the program is a command of its own, one level deeper.
        for program in std::mem::take(&mut self.again) {
            let folder = self.folder.clone();
            self.parts.extend(read(&program, depth + 1, folder).parts);
        }
    }

    /// `NAME=value`: any name but the few harmless ones is unreadable (a subscript,
    /// `a[$(…)]=1`, among them); the value is searched.
    fn assignment(&mut self, node: Node, depth: usize) {
        let name = node.child_by_field_name("name").map(|n| self.text(n)).unwrap_or_default();
        if changes_what_runs(name) {
            self.unreadable(node, Unreadable::ChangesWhatRuns(name.to_owned()));
        }
        if self.text(node).contains("+=") || self.text(node).contains("=(") {
            self.unreadable(node, Unreadable::Evaluates(name.to_owned()));
        }
        if let Some(value) = node.child_by_field_name("value") {
            self.search(value, depth + 1);
        }
    }

    /// A statement with redirections: the statement reads a here-document or a here
    /// string as its input; each redirection is read too.
    fn redirected(&mut self, node: Node, fed: Fed, depth: usize) {
        let mut cursor = node.walk();
        let redirects: Vec<Node> =
            node.children_by_field_name("redirect", &mut cursor).chain(herestrings(node)).collect();
        let fed_here = redirects.iter().any(|r| matches!(r.kind(), "heredoc_redirect" | "herestring_redirect"));
        if let Some(body) = node.child_by_field_name("body") {
            self.statement(body, if fed_here { Fed::Yes } else { fed }, depth + 1);
        }
        for r in redirects {
            self.redirect(r, depth + 1);
        }
    }

    /// One redirection: a write to a file is a part of its own; `/dev/null` and fd
    /// duplications write nothing; `/dev/tcp` is unreadable.
    fn redirect(&mut self, node: Node, depth: usize) {
        match node.kind() {
            "file_redirect" => {
                let op = operator(node, self.src);
                let mut cursor = node.walk();
                if node.children_by_field_name("destination", &mut cursor).count() > 1 {
                    // Words after a redirection hung on it: bash passes them to the
                    // program.
                    return self.unreadable(node, Unreadable::Syntax);
                }
                let Some(dest) = node.child_by_field_name("destination") else { return };
                if op.ends_with('-') {
                    // `<&-` closes a descriptor and takes no word: the parser took the
                    // program's next word as its destination.
                    return self.unreadable(node, Unreadable::Syntax);
                }
                self.search(dest, depth + 1);
                let path = resolve(dest, self.src);
                if path.shown().starts_with("/dev/tcp/") || path.shown().starts_with("/dev/udp/") {
                    return self.unreadable(node, Unreadable::Network);
                }
                // `>& WORD` writes a file unless WORD is a descriptor; known only when
                // it runs, it may be either.
                let writes = matches!(op.as_str(), ">" | ">>" | "&>" | "&>>" | ">|" | "<>")
                    || (op == ">&" && path.literal().is_none_or(|p| !is_fd(p)));
                let reads =
                    matches!(op.as_str(), "<" | "<>") || (op == "<&" && path.literal().is_none_or(|p| !is_fd(p)));
                if reads && path.literal().is_none() {
                    self.unreadable(node, Unreadable::DynamicInput);
                } else if let (true, Some(p)) = (reads && !writes, path.literal()) {
                    match self.folder.resolve(p) {
                        Some(paths) => paths
                            .into_iter()
                            .for_each(|path| self.parts.push(Part::Read { path, text: self.text(node).to_owned() })),
                        None => self.unreadable(node, Unreadable::DynamicInput),
                    }
                }
                if writes && !writes_nothing(&path) {
                    for path in self.written(path) {
                        self.parts.push(Part::Write { path, text: self.text(node).to_owned() });
                    }
                }
            }
            "herestring_redirect" => self.search(node, depth + 1),
            "heredoc_redirect" => {
                let mut cursor = node.walk();
                if node.children_by_field_name("argument", &mut cursor).next().is_some() {
                    // Words after the here-document's start: bash passes them to the
                    // program; the parser hung them here.
                    return self.unreadable(node, Unreadable::Syntax);
                }
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    match child.kind() {
                        // The parser finds no backticks in a body bash expands
                        // (its delimiter unquoted); bash runs them.
                        "heredoc_body" if expands(node, self.src) && self.text(child).contains('`') => {
                            return self.unreadable(node, Unreadable::Syntax);
                        }
                        "heredoc_body" => self.search(child, depth + 1),
                        "heredoc_start" | "heredoc_end" | "file_descriptor" => {}
                        "file_redirect" | "herestring_redirect" => self.redirect(child, depth + 1),
                        // `cat <<EOF | sh` and `cat <<EOF && next`: the grammar hangs
                        // what follows the here-document's start under it.
                        "pipeline" => {
                            let mut inner = child.walk();
                            for stage in child.named_children(&mut inner) {
                                self.statement(stage, Fed::Yes, depth + 1);
                            }
                        }
                        k if is_statement(k) => {
                            let piped = child.prev_sibling().is_some_and(|p| matches!(p.kind(), "|" | "|&"));
                            self.statement(child, if piped { Fed::Yes } else { Fed::No }, depth + 1)
                        }
                        _ => self.search(child, depth + 1),
                    }
                }
            }
            other => self.unreadable(node, Unreadable::Unknown(other.to_owned())),
        }
    }

    /// Finds every command substitution and process substitution inside a word or an
    /// expression and reads its statements as parts.
    pub fn search(&mut self, node: Node, depth: usize) {
        if depth > MAX_DEPTH {
            return self.unreadable(node, Unreadable::TooDeep);
        }
        // Text that runs nothing; inside anything else (a substitution's statements
        // among them), every statement is a part.
        if matches!(node.kind(), "raw_string" | "string_content" | "heredoc_content" | "word" | "comment") {
            return;
        }
        match node.kind() {
            // `$((x))` and `a[x]` evaluate x's value as arithmetic, which runs the
            // substitutions inside it; `${…}` with an operator may assign (`:=`),
            // look a name up (`${!x}`) or expand prompts (`@P`).
            "arithmetic_expansion" | "subscript" => {
                return self.unreadable(node, Unreadable::Evaluates(self.text(node).to_owned()))
            }
            "expansion" if !plain_expansion(self.text(node)) => {
                self.unreadable(node, Unreadable::Evaluates(self.text(node).to_owned()))
            }
            _ => {}
        }
        // Inside backticks bash takes `\``, `\$` and `\\` out before it runs the text,
        // so an escaped backtick there starts a substitution of its own: the text is read
        // again as bash will run it.
        if node.kind() == "command_substitution" {
            // `$((` is arithmetic to bash, whatever the parser made of it (in a
            // here-document it reads a subshell).
            if self.text(node).starts_with("$((") {
                return self.unreadable(node, Unreadable::Evaluates(self.text(node).to_owned()));
            }
            if let Some(inner) = self.text(node).strip_prefix('`').and_then(|t| t.strip_suffix('`')) {
                // In double quotes (or a here-document) bash takes the backslash out
                // of `\"` too: what the inner text then quotes is not read.
                if inner.contains("\\\"") && quoted_around(node) {
                    return self.unreadable(node, Unreadable::Syntax);
                }
                let folder = self.folder.clone();
                return self.parts.extend(read(&unescape_backticks(inner), depth + 1, folder).parts);
            }
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if is_statement(child.kind()) {
                self.statement(child, Fed::No, depth + 1);
            } else if child.kind() == "file_redirect" {
                // A substitution of redirections alone: `$(< F)` reads F, `$(> F)`
                // makes it empty.
                self.redirect(child, depth + 1);
            } else {
                self.search(child, depth + 1);
            }
        }
    }
}

/// The comparisons bash's `[[ ]]` makes as arithmetic, evaluating both sides.
const ARITHMETIC_TESTS: &[&str] = &["-eq", "-ne", "-lt", "-le", "-gt", "-ge"];

/// Whether a `[[ … ]]` compares numbers as arithmetic only between numbers, or not at
/// all: with one of [`ARITHMETIC_TESTS`] in it, every other word is a number or a
/// logical operator.
fn plain_arithmetic(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |w: &str| {
        let digits = w.strip_prefix('-').unwrap_or(w);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    !words.iter().any(|w| ARITHMETIC_TESTS.contains(w))
        || words.iter().all(|w| {
            ARITHMETIC_TESTS.contains(w) || number(w) || matches!(*w, "[[" | "]]" | "&&" | "||" | "!" | "(" | ")")
        })
}

/// `${NAME}` alone, or with a default that assigns nothing (`${NAME:-word}`,
/// `${NAME-word}`): every other form evaluates or assigns.
fn plain_expansion(text: &str) -> bool {
    let Some(inner) = text.strip_prefix("${").and_then(|t| t.strip_suffix('}')) else { return false };
    let name_end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_end);
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && (rest.is_empty() || rest.starts_with(":-") || rest.starts_with('-'))
        && !rest.contains(['$', '`', '[', '{'])
}

/// Whether a node of one of `kinds` stands anywhere inside `node`.
fn has_kind(node: Node, kinds: &[&str]) -> bool {
    if kinds.contains(&node.kind()) {
        return true;
    }
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).any(|c| has_kind(c, kinds));
    found
}

/// Whether the here-document `redirect` expands its body: its delimiter unquoted.
fn expands(redirect: Node, src: &str) -> bool {
    let mut cursor = redirect.walk();
    let start = redirect.children(&mut cursor).find(|c| c.kind() == "heredoc_start");
    start.is_some_and(|s| !s.utf8_text(src.as_bytes()).unwrap_or_default().contains(['\'', '"', '\\']))
}

/// Whether `node` stands in double quotes or a here-document, not nearer to a
/// substitution of its own.
fn quoted_around(node: Node) -> bool {
    let mut up = node.parent();
    while let Some(n) = up {
        match n.kind() {
            "string" | "heredoc_body" => return true,
            "command_substitution" | "process_substitution" | "program" => return false,
            _ => up = n.parent(),
        }
    }
    false
}

/// The here strings the grammar puts beside a statement's `redirect` field.
fn herestrings(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.children(&mut cursor).filter(|c| c.kind() == "herestring_redirect").collect()
}

/// The text of a backtick substitution as bash runs it: `\``, `\$` and `\\` lose their
/// backslash, any other backslash stays.
fn unescape_backticks(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&next @ ('`' | '$' | '\\'))) => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

fn is_statement(kind: &str) -> bool {
    COMPOUND.contains(&kind)
        || matches!(
            kind,
            "command"
                | "list"
                | "pipeline"
                | "redirected_statement"
                | "variable_assignment"
                | "variable_assignments"
                | "declaration_command"
                | "unset_command"
                | "test_command"
                | "function_definition"
        )
}

/// A redirection's operator: its first unnamed child that is not a descriptor.
fn operator(node: Node, src: &str) -> String {
    let mut cursor = node.walk();
    let op = node
        .children(&mut cursor)
        .find(|c| !c.is_named())
        .map(|c| c.utf8_text(src.as_bytes()).unwrap_or_default().to_owned())
        .unwrap_or_default();
    op
}
