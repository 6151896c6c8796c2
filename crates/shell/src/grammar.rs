//! A command's options as getopt reads them: which short letters it takes alone, which
//! take a value (attached, `-n5`, or the next word, `-n 5`), which long options it has
//! and whether each takes a value. The read-only set declares one for every command,
//! so a word the grammar does not declare (an unknown option, an abbreviation, a
//! cluster whose value hides another option, an operand too many) is never read as
//! harmless.

/// One command's grammar.
#[derive(Debug, Clone, Copy)]
pub struct Grammar {
    /// Short options that take no value, as one string of letters (`"nvE"`).
    pub flags: &'static str,
    /// Short options that take a value, attached or the next word.
    pub valued: &'static str,
    /// Short options whose value is optional and only ever attached (`xargs -e`,
    /// `-eEND`).
    pub optional: &'static str,
    /// Long options without their dashes: `"name"` takes no value, `"name="` takes
    /// one (after `=` or as the next word), `"name=?"` an optional one (after `=`
    /// only). Only the whole name is read: getopt's abbreviations are not declared.
    pub long: &'static [&'static str],
    /// How many operands it takes at most; `None`: any number.
    pub operands: Option<usize>,
    /// Whether options may follow operands (GNU getopt's permutation). When not, the
    /// first operand ends the options, as POSIX getopt and wrappers read them.
    pub permute: bool,
}

/// One word of a command line, as the grammar reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg<'w> {
    /// An option and its value, if it takes one: (`-n`, `5`), (`--lines`, `5`).
    Option(String, Option<&'w str>),
    Operand(&'w str),
}

/// Why the words do not fit the grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Misfit {
    /// An option the grammar does not declare (or an abbreviation of one).
    Unknown(String),
    /// An option whose value is missing.
    NoValue(String),
    /// More operands than the command takes.
    TooMany(String),
}

impl Misfit {
    pub fn word(&self) -> &str {
        match self {
            Misfit::Unknown(w) | Misfit::NoValue(w) | Misfit::TooMany(w) => w,
        }
    }
}

impl Grammar {
    /// Reads `words` (the command's name left out) as getopt would: `--` ends the
    /// options, `-` is an operand, a cluster's letters are read one by one until one
    /// takes a value, which is the rest of the cluster or the next word.
    pub fn parse<'w>(&self, words: &[&'w str]) -> Result<Vec<Arg<'w>>, Misfit> {
        let mut out = Vec::new();
        let mut operands = 0usize;
        let mut options_end = false;
        let mut i = 0;
        while let Some(&w) = words.get(i) {
            i += 1;
            let option = !options_end && w.len() > 1 && w.starts_with('-');
            if !option {
                if !options_end && w == "--" {
                    options_end = true;
                    continue;
                }
                operands += 1;
                if self.operands.is_some_and(|max| operands > max) {
                    return Err(Misfit::TooMany(w.to_owned()));
                }
                if !self.permute {
                    options_end = true;
                }
                out.push(Arg::Operand(w));
                continue;
            }
            if w == "--" {
                options_end = true;
                continue;
            }
            if let Some(long) = w.strip_prefix("--") {
                let (name, attached) = match long.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (long, None),
                };
                let declared = self.long.iter().find(|l| l.split('=').next() == Some(name));
                let Some(declared) = declared else { return Err(Misfit::Unknown(w.to_owned())) };
                let shown = format!("--{name}");
                match (declared.split_once('=').map(|(_, k)| k), attached) {
                    (None, Some(_)) => return Err(Misfit::Unknown(w.to_owned())),
                    (None, None) => out.push(Arg::Option(shown, None)),
                    (Some(_), Some(v)) => out.push(Arg::Option(shown, Some(v))),
                    (Some("?"), None) => out.push(Arg::Option(shown, None)),
                    (Some(_), None) => {
                        let Some(&v) = words.get(i) else { return Err(Misfit::NoValue(w.to_owned())) };
                        i += 1;
                        out.push(Arg::Option(shown, Some(v)));
                    }
                }
                continue;
            }
            // A cluster of short options.
            for (at, letter) in w.char_indices().skip(1) {
                let shown = format!("-{letter}");
                if self.flags.contains(letter) && letter != '-' {
                    out.push(Arg::Option(shown, None));
                } else if self.optional.contains(letter) && letter != '-' {
                    let rest = &w[at + letter.len_utf8()..];
                    out.push(Arg::Option(shown, (!rest.is_empty()).then_some(rest)));
                    break;
                } else if self.valued.contains(letter) && letter != '-' {
                    let rest = &w[at + letter.len_utf8()..];
                    let value = if rest.is_empty() {
                        let Some(&v) = words.get(i) else { return Err(Misfit::NoValue(shown)) };
                        i += 1;
                        v
                    } else {
                        rest
                    };
                    out.push(Arg::Option(shown, Some(value)));
                    break;
                } else {
                    return Err(Misfit::Unknown(if w.len() > 2 { format!("{shown} (in {w})") } else { shown }));
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SORT: Grammar = Grammar {
        flags: "nrfu",
        valued: "kt",
        optional: "e",
        long: &["reverse", "key=", "debug", "color=?"],
        operands: None,
        permute: true,
    };

    #[test]
    fn reads_clusters_values_and_operands_as_getopt_does() {
        let args = SORT.parse(&["-rk2", "-t", ",", "a", "--key=3", "--", "-o"]).unwrap();
        assert_eq!(
            args,
            vec![
                Arg::Option("-r".into(), None),
                Arg::Option("-k".into(), Some("2")),
                Arg::Option("-t".into(), Some(",")),
                Arg::Operand("a"),
                Arg::Option("--key".into(), Some("3")),
                Arg::Operand("-o"),
            ]
        );
        assert_eq!(SORT.parse(&["-", "--color"]).unwrap()[0], Arg::Operand("-"));
    }

    #[test]
    fn a_word_outside_the_grammar_is_a_misfit() {
        assert_eq!(SORT.parse(&["-o", "F"]), Err(Misfit::Unknown("-o".into())));
        assert_eq!(SORT.parse(&["-ro", "F"]), Err(Misfit::Unknown("-o (in -ro)".into())));
        // An abbreviation getopt would take is not declared.
        assert_eq!(SORT.parse(&["--rev"]), Err(Misfit::Unknown("--rev".into())));
        assert_eq!(SORT.parse(&["--debug=x"]), Err(Misfit::Unknown("--debug=x".into())));
        assert_eq!(SORT.parse(&["-k"]), Err(Misfit::NoValue("-k".into())));
        let one = Grammar { operands: Some(1), ..SORT };
        assert_eq!(one.parse(&["a", "F"]), Err(Misfit::TooMany("F".into())));
        // `-tX` takes X as the value, so a cluster never hides an option after it.
        assert_eq!(SORT.parse(&["-to"]).unwrap(), vec![Arg::Option("-t".into(), Some("o"))]);
        assert_eq!(SORT.parse(&["-e", "x"]).unwrap(), vec![Arg::Option("-e".into(), None), Arg::Operand("x")]);
        assert_eq!(SORT.parse(&["-ex"]).unwrap(), vec![Arg::Option("-e".into(), Some("x"))]);
    }

    #[test]
    fn without_permutation_the_first_operand_ends_the_options() {
        let posix = Grammar { permute: false, ..SORT };
        assert_eq!(posix.parse(&["a", "-o"]).unwrap(), vec![Arg::Operand("a"), Arg::Operand("-o")]);
    }
}
