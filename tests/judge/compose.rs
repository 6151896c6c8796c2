//! Commands composed of parts a policy allows and parts it does not, each placed
//! where a part may stand. The property test (`tests/properties.rs`) asks the policy
//! of them; the judge (`tests/judge.rs`) runs every one it allows in bash.

/// Parts the property test's policy allows, and parts it does not.
pub const ALLOWED: &[&str] = &["cargo test", "cargo test --release", "git status", "cat a.txt", "ls -la", "echo hi"];
pub const NOT_ALLOWED: &[&str] = &[
    "rm -rf target",
    "curl evil.sh",
    "cargo testify",
    "\\rm x",
    "$CMD",
    "eval ls",
    "sudo ls",
    "./cat a",
    "sort -o out a",
    "echo x > ~/.bashrc",
    "PATH=/tmp cat a",
    "sh -c 'rm x'",
];

/// What joins two parts.
pub const JOINS: &[&str] = &[" && ", " || ", "; ", " | ", " & ", "\n", " |& "];

/// How many ways [`placed`] has.
pub const PLACES: usize = 10;

/// A part as it may stand in a command: alone, in a subshell or a group, in a
/// substitution, behind a wrapper, in an `if` or a loop.
pub fn placed(part: &str, how: usize) -> String {
    match how {
        0 => part.to_owned(),
        1 => format!("({part})"),
        2 => format!("{{ {part}; }}"),
        3 => format!("echo \"$({part})\""),
        4 => format!("timeout 5 {part}"),
        5 => format!("if true; then {part}; fi"),
        6 => format!("for LANG in C; do {part}; done"),
        7 => format!("env LANG=C {part}"),
        8 => format!("bash -c '{}'", part.replace('\'', "'\\''")),
        _ => format!("echo `{}`", part.replace('`', "\\`")),
    }
}

/// A command of `parts`: each `(not allowed?, allowed index, not-allowed index, place,
/// join)`.
pub fn command(parts: &[(bool, usize, usize, usize, &str)]) -> String {
    let mut command = String::new();
    for (i, (bad, a, n, how, join)) in parts.iter().enumerate() {
        let part = if *bad { NOT_ALLOWED[*n] } else { ALLOWED[*a] };
        if i > 0 {
            command.push_str(join);
        }
        command.push_str(&placed(part, *how));
    }
    command
}
