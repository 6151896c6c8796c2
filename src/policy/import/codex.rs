//! Codex's execpolicy rules (`~/.codex/rules/*.rules`, a project's `.codex/rules/`;
//! its execpolicy README): Starlark calls `prefix_rule(pattern = [...], decision =
//! "allow" | "prompt" | "forbidden", justification = "...")`, whose pattern is a
//! prefix of argv, each token equal or one of a list of alternatives, and
//! `network_rule(host = "...", decision = ...)`. Codex writes only these calls, with
//! string and list literals; this reads exactly that much of Starlark (the whole
//! language's interpreter would cost the build more than the policy itself), and a
//! file with anything else is named with the line that is not a call.

use super::{Imported, LeftOut};
use crate::policy::rules::{Entry, Verdict};

/// The most rules one pattern's alternatives expand into.
const MOST_ALTERNATIVES: usize = 64;

/// The rules of one `.rules` file.
pub(super) fn read(text: &str) -> Result<Imported, String> {
    let mut out = Imported::default();
    for call in Reader::new(text).calls()? {
        let shown = text[call.span.0..call.span.1].split_whitespace().collect::<Vec<_>>().join(" ");
        match call.name.as_str() {
            "prefix_rule" => prefix_rule(&call, &shown, &mut out),
            "network_rule" => match (call.string("host"), verdict(call.string("decision"))) {
                (Some(host), Some(verdict)) => {
                    let reason = reason(verdict, &call, || format!("{host} is forbidden in Codex's rules"));
                    out.rules.push((verdict, Entry { fetch: Some(host.to_owned()), reason, ..Entry::default() }));
                }
                _ => out.leave(shown, LeftOut::NotARule),
            },
            _ => out.leave(shown, LeftOut::NoKind),
        }
    }
    Ok(out)
}

fn prefix_rule(call: &Call, shown: &str, out: &mut Imported) {
    let (Some(Value::List(pattern)), Some(verdict)) = (call.arg("pattern"), verdict(call.string("decision"))) else {
        return out.leave(shown, LeftOut::NotARule);
    };
    // Each position: its one token, or its alternatives.
    let mut choices: Vec<Vec<&str>> = Vec::new();
    for token in pattern {
        let alternatives = match token {
            Value::Str(s) => vec![s.as_str()],
            Value::List(list) => list.iter().filter_map(Value::as_str).collect(),
            Value::Name(_) => Vec::new(),
        };
        if alternatives.is_empty() {
            return out.leave(shown, LeftOut::NotARule);
        }
        if alternatives.iter().any(|t| t.contains('*')) {
            return out.leave(shown, LeftOut::LiteralStar);
        }
        if alternatives.iter().any(|t| t.is_empty() || t.contains(char::is_whitespace)) {
            return out.leave(shown, LeftOut::SpaceInWord);
        }
        choices.push(alternatives);
    }
    let count = choices.iter().map(Vec::len).product::<usize>();
    if count > MOST_ALTERNATIVES {
        return out.leave(shown, LeftOut::TooMany);
    }
    let mut commands: Vec<Vec<&str>> = vec![Vec::new()];
    for alternatives in &choices {
        commands = commands
            .iter()
            .flat_map(|c| alternatives.iter().map(move |t| c.iter().copied().chain([*t]).collect()))
            .collect();
    }
    for words in commands {
        match super::command(&words, true) {
            Ok(mut entry) => {
                entry.reason = reason(verdict, call, || format!("`{}` is forbidden in Codex's rules", words.join(" ")));
                out.rules.push((verdict, entry));
            }
            Err(why) => out.leave(shown, why),
        }
    }
}

/// Codex's decision as a verdict: `allow` when none is given.
fn verdict(decision: Option<&str>) -> Option<Verdict> {
    match decision {
        None | Some("allow") => Some(Verdict::Allow),
        Some("prompt") => Some(Verdict::Ask),
        Some("forbidden" | "deny") => Some(Verdict::Deny),
        Some(_) => None,
    }
}

/// A deny's reason: the rule's justification, or where it came from.
fn reason(verdict: Verdict, call: &Call, otherwise: impl FnOnce() -> String) -> Option<String> {
    (verdict == Verdict::Deny).then(|| call.string("justification").map_or_else(otherwise, str::to_owned))
}

#[derive(Debug, Clone, PartialEq)]
enum Value {
    Str(String),
    List(Vec<Value>),
    /// `True`, `None`, a name.
    Name(String),
}

impl Value {
    fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// One top-level call, its keyword arguments, and where it stands in the text.
#[derive(Debug)]
struct Call {
    name: String,
    args: Vec<(String, Value)>,
    span: (usize, usize),
}

impl Call {
    fn arg(&self, key: &str) -> Option<&Value> {
        self.args.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn string(&self, key: &str) -> Option<&str> {
        self.arg(key).and_then(Value::as_str)
    }
}

/// Reads top-level calls with keyword arguments of string and list literals.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }

    fn calls(mut self) -> Result<Vec<Call>, String> {
        let mut calls = Vec::new();
        while self.skip_space() {
            let start = self.at;
            let name = self.name().ok_or_else(|| self.fault("a rule call"))?;
            self.expect('(')?;
            let mut args = Vec::new();
            while !self.eat(')') {
                let key = self.name().ok_or_else(|| self.fault("a keyword argument"))?;
                self.expect('=')?;
                args.push((key, self.value(0)?));
                if !self.eat(',') {
                    self.expect(')')?;
                    break;
                }
            }
            calls.push(Call { name, args, span: (start, self.at) });
        }
        Ok(calls)
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        self.skip_space();
        if depth > 8 {
            return Err(self.fault("lists nested less deeply"));
        }
        if self.eat('[') {
            let mut items = Vec::new();
            while !self.eat(']') {
                items.push(self.value(depth + 1)?);
                if !self.eat(',') {
                    self.expect(']')?;
                    break;
                }
            }
            return Ok(Value::List(items));
        }
        if let Some(s) = self.string()? {
            return Ok(Value::Str(s));
        }
        self.name().map(Value::Name).ok_or_else(|| self.fault("a string or a list"))
    }

    /// A string literal: double or single quotes, triple quotes, with the escapes of
    /// Starlark's (and JSON's) strings.
    fn string(&mut self) -> Result<Option<String>, String> {
        let rest = &self.text[self.at..];
        let quote = match rest.chars().next() {
            Some(q @ ('"' | '\'')) => q,
            _ => return Ok(None),
        };
        let triple: String = [quote; 3].iter().collect();
        let (open, close) = if rest.starts_with(&triple) { (3, triple.as_str()) } else { (1, &triple[..1]) };
        let mut out = String::new();
        let mut chars = rest[open..].char_indices();
        while let Some((i, c)) = chars.next() {
            if rest[open + i..].starts_with(close) {
                self.at += open + i + close.len();
                return Ok(Some(out));
            }
            match c {
                '\\' => match chars.next().map(|(_, e)| e) {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('r') => out.push('\r'),
                    Some('u') => {
                        let hex: String = chars.by_ref().take(4).map(|(_, h)| h).collect();
                        let c = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                        out.push(c.ok_or_else(|| self.fault("a \\u escape of four hex digits"))?);
                    }
                    Some(e) => out.push(e),
                    None => break,
                },
                '\n' if open == 1 => break,
                c => out.push(c),
            }
        }
        Err(self.fault("the string's closing quote"))
    }

    fn name(&mut self) -> Option<String> {
        self.skip_space();
        let rest = &self.text[self.at..];
        let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        (len > 0 && !rest.starts_with(|c: char| c.is_ascii_digit())).then(|| {
            self.at += len;
            rest[..len].to_owned()
        })
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_space();
        let found = self.text[self.at..].starts_with(c);
        if found {
            self.at += c.len_utf8();
        }
        found
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.fault(&format!("`{c}`")))
        }
    }

    /// Skips spaces and comments; false at the end of the text.
    fn skip_space(&mut self) -> bool {
        loop {
            let rest = &self.text[self.at..];
            let trimmed = rest.trim_start();
            self.at += rest.len() - trimmed.len();
            if trimmed.starts_with('#') {
                self.at += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return !trimmed.is_empty();
            }
        }
    }

    /// What was expected where: `line 3: expected a rule call`.
    fn fault(&self, expected: &str) -> String {
        let line = self.text[..self.at].matches('\n').count() + 1;
        format!(
            "line {line}: expected {expected} (Codex writes prefix_rule and network_rule calls of strings and lists)"
        )
    }
}
