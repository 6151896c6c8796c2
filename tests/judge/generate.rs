//! Commands written from the constructs an attacker uses, mixing the read-only set's
//! commands with every option of their grammars and with options left out of them:
//! wrappers, brace expansion, variables, substitutions, redirections, pipes into
//! `xargs`, folders that move. Deterministic for a seed, so a finding repeats.

use user_questions::policy::known::READ_ONLY;

/// A small, fixed generator (xorshift): the same seed gives the same commands.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Operands: files in the project, its secrets, traps, and words that may expand.
const OPERANDS: &[&str] = &[
    "README.md",
    "data.txt",
    "src",
    "src/main.rs",
    ".",
    "-",
    "F",
    "src/x",
    "~/.ssh/id_rsa",
    ".env",
    "'$(touch F)'",
    "*.txt",
    "src/*",
    "{a,-o}",
    "\"$X\"",
    "$X",
    "~",
    "..",
    "/etc/hostname",
    "--",
    "+%s",
    "0101000000",
    "'w F'",
    "p",
    "1p",
    "'s/a/b/w F'",
    "'1e touch F'",
    "HEAD",
    "main",
    "stash@{0}",
    "-- src",
];

/// Options left out of every grammar, and other words that must never run unasked.
const HOSTILE: &[&str] = &[
    "-o F",
    "--output=F",
    "--out=F",
    "-delete",
    "-exec touch F ;",
    "-i",
    "-fprint F",
    "--pre=touch",
    "-s 2020-01-01",
    "--set=2020-01-01",
    "-HR",
    "-C F",
    "--compress-program=touch",
    "-e 'w F'",
    "-z",
    "--ext-diff",
    "-O touch",
    "--git-dir=evil-git",
    "-c core.pager=touch",
    "--rcfile",
    "-v",
    "-eaF",
];

/// What goes before a command.
const PREFIXES: &[&str] = &[
    "",
    "",
    "",
    "LANG=C ",
    "HOME=. ",
    "GIT_DIR=evil-git ",
    "XDG_CONFIG_HOME=.config ",
    "BASH_ENV=bashenv ",
    "env ",
    "env -i ",
    "timeout 5 ",
    "nice -n 1 ",
    "nohup ",
    "command ",
    "time ",
    "stdbuf -o0 ",
    "env -C src ",
    "cd src && ",
    "cd .. && ",
    "x=1; ",
    "export X=F; ",
];

/// What comes after one.
const SUFFIXES: &[&str] = &[
    "",
    "",
    "",
    " > F",
    " > src/out",
    " 2>/dev/null",
    " >> src/log",
    " < data.txt",
    " < .env",
    " | xargs cat",
    " | xargs -I{} sh -c {}",
    " | head -n 2",
    " >& F",
    " | sort -o F",
    " && touch F",
    " | tee src/t",
];

/// One command from the read-only set, with options from its grammar and beyond.
fn one(rng: &mut Rng) -> String {
    let entry = &READ_ONLY[rng.below(READ_ONLY.len())];
    let g = &entry.grammar;
    let mut words = vec![entry.name.to_owned()];
    for _ in 0..rng.below(4) {
        let word = match rng.below(6) {
            0 if !g.flags.is_empty() => {
                let letters: String = (0..1 + rng.below(3))
                    .map(|_| g.flags.chars().nth(rng.below(g.flags.chars().count())).unwrap())
                    .collect();
                format!("-{letters}")
            }
            1 if !g.valued.is_empty() => {
                let letter = g.valued.chars().nth(rng.below(g.valued.chars().count())).unwrap();
                format!("-{letter} {}", rng.pick(OPERANDS))
            }
            2 if !g.long.is_empty() => {
                let long = g.long[rng.below(g.long.len())];
                let dash = if entry.name == "find" { "-" } else { "--" };
                match long.split_once('=') {
                    Some((name, "?")) => format!("{dash}{name}"),
                    Some((name, _)) => format!("{dash}{name} {}", rng.pick(OPERANDS)),
                    None => format!("{dash}{long}"),
                }
            }
            3 => rng.pick(HOSTILE).to_owned(),
            _ => rng.pick(OPERANDS).to_owned(),
        };
        words.push(word);
    }
    words.join(" ")
}

/// `count` commands for `seed`.
pub fn commands(count: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed | 1);
    (0..count)
        .map(|_| {
            let mut command = format!("{}{}", rng.pick(PREFIXES), one(&mut rng));
            if rng.chance(30) {
                command = format!("{command}{}", rng.pick(SUFFIXES));
            }
            if rng.chance(15) {
                command = format!("{command} | {}", one(&mut rng));
            }
            if rng.chance(10) {
                command = format!("echo \"$({command})\"");
            }
            if rng.chance(10) {
                command = format!("bash -c '{}'", command.replace('\'', "'\\''"));
            }
            command
        })
        .collect()
}

/// Where a patch's file may be: inside the edit rule, beside it, through a link out of
/// it (`src/lnk` points at `out/`), protected, absolute (`$P` is the project).
const PATCH_PATHS: &[&str] = &[
    "src/new.rs",
    "src/sub/new.rs",
    "src/main.rs",
    "src/lib.rs",
    "README.md",
    "out/x",
    ".git/hooks/pre-commit",
    ".envrc",
    ".claude/settings.json",
    "src/../out/x",
    "src/lnk/x",
    "src/lnk/../../.git/config",
    "src/dangling",
    "../escape",
    "$P/src/abs.rs",
    "$P/out/abs",
    "src/x ",
    " src/x",
    "~/x",
];

/// One file's section of a patch, its header indented or not.
fn patch_file(rng: &mut Rng) -> String {
    let indent = rng.pick(&["", "", "", "  ", "\t"]);
    let path = rng.pick(PATCH_PATHS);
    let main = "@@\n-fn main() {}\n+fn main() { }";
    match rng.below(4) {
        0 => format!("{indent}*** Add File: {path}\n+added"),
        1 => format!("{indent}*** Delete File: {path}"),
        2 => format!("{indent}*** Update File: {path}\n@@\n+more"),
        _ => format!("{indent}*** Update File: src/main.rs\n*** Move to: {path}\n{main}"),
    }
}

/// `count` patches in Codex's `apply_patch` envelope for `seed`: one to three files,
/// with what may come between them (a context line that looks like the end, a blank
/// line, the end marker itself), sometimes inside a heredoc.
pub fn patches(count: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed | 1);
    (0..count)
        .map(|_| {
            let mut body = vec![patch_file(&mut rng)];
            for _ in 0..rng.below(3) {
                if rng.chance(40) {
                    body.push(rng.pick(&[" *** End Patch", "", "*** End Patch", " ", "*** End of File"]).to_owned());
                }
                body.push(patch_file(&mut rng));
            }
            let patch = format!("*** Begin Patch\n{}\n*** End Patch", body.join("\n"));
            if rng.chance(10) {
                format!("<<'EOF'\n{patch}\nEOF")
            } else {
                patch
            }
        })
        .collect()
}

/// `count` commands composed as the property test composes them (`compose.rs`), for
/// `seed`: parts the policy allows and parts it does not, placed and joined.
pub fn composed(count: usize, seed: u64) -> Vec<String> {
    use super::compose::{command, ALLOWED, JOINS, NOT_ALLOWED, PLACES};
    let mut rng = Rng(seed | 1);
    (0..count)
        .map(|_| {
            let parts: Vec<_> = (0..1 + rng.below(4))
                .map(|_| {
                    let bad = rng.chance(20);
                    (bad, rng.below(ALLOWED.len()), rng.below(NOT_ALLOWED.len()), rng.below(PLACES), rng.pick(JOINS))
                })
                .collect();
            command(&parts)
        })
        .collect()
}
