//! Bash judges the policy. Every command the policy allows (from the corpus of
//! attacks in `tests/judge/corpus.txt` and from commands generated out of the
//! read-only set's own grammars) is run by real bash in a throwaway bubblewrap
//! sandbox (a copy of a small project, a home of its own, no network) under `strace
//! -f`, with traps planted for what a command must never reach: a git directory and a
//! home `.gitconfig` whose `core.fsmonitor`, `core.pager` and `diff.external` name a
//! marker program, a `BASH_ENV` file, an `.envrc`. The trace must show nothing the
//! rules do not allow: every program executed is one the policy judged, with the
//! words it judged (a wrapper runs the command it was read through to); every file
//! opened for writing, created, removed, renamed or touched is inside the edit rule
//! (`src/**`) or is `/dev/null` or the terminal; no socket is connected; the clock is
//! not set. A difference fails and names the command and the system call.
//!
//! Edits are judged the same way: every Codex patch the hook allows is applied in
//! the sandbox by Codex's own `apply_patch` (the pinned CLI's binary), and every file
//! it touched must be inside the edit rule.
//!
//! It needs `bwrap` and `strace` (Debian's bubblewrap and strace, which `make test`
//! installs), and the edit judge the pinned Codex, so a plain `cargo test` leaves it
//! out: `make test-judge` (`cargo test --test judge`) runs it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use user_questions::policy::{Action, Kind, Policy, Verdict};
use user_questions_shell::{self as shell, Part, Run, Word};

#[path = "judge/compose.rs"]
mod compose;
#[path = "judge/generate.rs"]
mod generate;
#[path = "judge/trace.rs"]
mod trace;

/// The person's rules the attacks are aimed at.
const RULES: &str = r#"
[[allow]]
read-only = true
[[allow]]
command = "cargo test"
[[allow]]
command = "npm test"
[[allow]]
edit = "src/**"
[[deny]]
command = "git push"
reason = "pushing is the person's"
"#;

/// How many commands the generator writes; `JUDGE_GENERATED` sets another count.
const GENERATED: usize = 1000;

/// How many commands are composed as the property test composes them.
const COMPOSED: usize = 400;

/// The most inputs taken from the fuzzer's corpus.
const FUZZED: usize = 3000;

struct Sandbox {
    root: tempfile::TempDir,
    /// `/` is not a mount point (a chroot, as a clean root made with debootstrap is
    /// entered): bubblewrap starts from a mount namespace in which it is.
    chrooted: bool,
}

impl Sandbox {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        let template = r.join("template");
        let trap = r.join("trap");
        std::fs::create_dir_all(&trap).unwrap();
        let marker = trap.join("marker");
        std::fs::write(&marker, "#!/bin/sh\nexit 0\n").unwrap();
        chmod_x(&marker);
        let bin = r.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        // What the person's own rules allow stands in for itself: cargo and npm.
        for stand_in in ["cargo", "npm"] {
            std::fs::write(bin.join(stand_in), "#!/bin/sh\nexit 0\n").unwrap();
            chmod_x(&bin.join(stand_in));
        }
        let p = template.join("p");
        for (file, text) in [
            ("src/main.rs", "fn main() {}\n"),
            ("src/lib.rs", "pub fn a() {}\n"),
            ("README.md", "# p\nhello\nworld\n"),
            ("data.txt", "b\na\nc\na\n"),
            (".env", "KEY=secret\n"),
            ("certs/server.pem", "PEM\n"),
            (".envrc", &format!("{}\n", marker.display())),
            ("bashenv", &format!("{}\n", marker.display())),
            ("evil-git/HEAD", "ref: refs/heads/main\n"),
            ("evil-git/config", &hostile_git_config(&marker)),
            (".gitconfig", &hostile_git_config(&marker)),
            (".config/git/config", &hostile_git_config(&marker)),
        ] {
            let path = p.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        // Links out of the edit rule's folder, for the patches: one to a folder, one
        // to a file not made yet.
        std::fs::create_dir_all(p.join("out")).unwrap();
        std::os::unix::fs::symlink("../out", p.join("src/lnk")).unwrap();
        std::os::unix::fs::symlink("../out/nothing", p.join("src/dangling")).unwrap();
        // Secrets no word names: through a link, and beside a folder's link to one.
        std::os::unix::fs::symlink(".env", p.join("notes")).unwrap();
        std::os::unix::fs::symlink("../certs", p.join("out/certs")).unwrap();
        std::fs::create_dir_all(p.join("evil-git/objects")).unwrap();
        std::fs::create_dir_all(p.join("evil-git/refs")).unwrap();
        let git = |args: &[&str]| {
            let out = Command::new("git")
                .args(args)
                .current_dir(&p)
                .env("HOME", r)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .output()
                .unwrap();
            assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        git(&["init", "-q", "-b", "main"]);
        git(&["-c", "user.name=p", "-c", "user.email=p@p", "add", "src", "README.md", "data.txt"]);
        git(&["-c", "user.name=p", "-c", "user.email=p@p", "commit", "-q", "-m", "one"]);
        // A secret git does not track, where a recursive read of `src` meets it.
        std::fs::create_dir_all(p.join("src/deep")).unwrap();
        std::fs::write(p.join("src/deep/.env.local"), "KEY=secret\n").unwrap();
        let home = template.join("home");
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::write(home.join(".ssh/id_rsa"), "PRIVATE\n").unwrap();
        std::fs::create_dir_all(home.join(".aws")).unwrap();
        std::fs::write(home.join(".aws/credentials"), "AWS\n").unwrap();
        std::fs::write(home.join(".gitconfig"), "[user]\n\tname = p\n").unwrap();
        let mut sandbox = Sandbox { root, chrooted: false };
        if !sandbox.launch(&["--ro-bind", "/", "/", "true"]).status().unwrap().success() {
            sandbox.chrooted = true;
            let out = sandbox.launch(&["--ro-bind", "/", "/", "true"]).output().unwrap();
            assert!(out.status.success(), "bwrap cannot start here: {}", String::from_utf8_lossy(&out.stderr));
        }
        sandbox
    }

    /// `bwrap ARGS`, bounded in time; in a chroot, from a mount namespace where the
    /// root is bound onto a folder of its own and entered again.
    fn launch<S: AsRef<std::ffi::OsStr>>(&self, args: &[S]) -> Command {
        let mut c = Command::new("timeout");
        c.arg("20");
        if self.chrooted {
            let newroot = self.root.path().join("newroot");
            std::fs::create_dir_all(&newroot).unwrap();
            c.args(["unshare", "-m", "--propagation", "unchanged", "sh", "-c"])
                .arg("mount --make-rprivate /tmp 2>/dev/null; mount --rbind / \"$0\" && cd \"$0\" && exec chroot . \"$@\"")
                .arg(newroot);
        }
        c.arg("bwrap").args(args);
        c
    }

    fn project_template(&self) -> PathBuf {
        self.root.path().join("template/p")
    }

    /// Runs `command` with bash in a fresh copy of the project; the trace of every
    /// process, by pid.
    fn run(&self, n: usize, command: &str) -> (PathBuf, BTreeMap<String, String>) {
        let r = self.root.path();
        let run = r.join(format!("run{n}"));
        let status = Command::new("cp").arg("-a").arg(r.join("template")).arg(&run).status().unwrap();
        assert!(status.success());
        let out = run.join("out");
        std::fs::create_dir_all(&out).unwrap();
        let project = self.project_template();
        let home = r.join("template/home");
        let path = format!("{}:/usr/local/bin:/usr/bin:/bin", r.join("bin").display());
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        let mut push = |items: &[&dyn AsRef<std::ffi::OsStr>]| args.extend(items.iter().map(|i| i.as_ref().to_owned()));
        push(&[&"--ro-bind", &"/", &"/", &"--dev", &"/dev", &"--proc", &"/proc", &"--tmpfs", &"/tmp"]);
        push(&[&"--tmpfs", &"/home", &"--tmpfs", &"/root", &"--unshare-net", &"--unshare-ipc", &"--die-with-parent"]);
        push(&[&"--cap-drop", &"ALL"]);
        push(&[&"--bind", &run.join("p"), &project, &"--bind", &run.join("home"), &home, &"--bind", &out, &out]);
        push(&[&"--ro-bind", &r.join("trap"), &r.join("trap"), &"--ro-bind", &r.join("bin"), &r.join("bin")]);
        push(&[&"--chdir", &project, &"--setenv", &"HOME", &home]);
        push(&[&"--setenv", &"PATH", &path, &"--setenv", &"TMPDIR", &"/tmp", &"--unsetenv", &"BASH_ENV"]);
        push(&[&"strace", &"-f", &"-ff", &"-qq", &"-v", &"-y", &"-s", &"65536", &"-e", &trace::SYSCALLS]);
        push(&[&"-o", &out.join("t"), &"bash", &"-c", &command]);
        let _ = self
            .launch(&args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        let mut traces = BTreeMap::new();
        for entry in std::fs::read_dir(&out).unwrap().flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            traces.insert(entry.file_name().to_string_lossy().into_owned(), text);
        }
        let _ = std::fs::remove_dir_all(&run);
        (project, traces)
    }
}

impl Sandbox {
    /// Runs `command` with bash in a fresh copy of the project and judges its trace
    /// against `read_as` (what the policy read: the command itself, unless a test
    /// plays a policy that erred): what was done beyond it, each named by the trace
    /// it is in, the project's path there, and the traces.
    fn judge(&self, n: usize, command: &str, read_as: &str) -> (Vec<String>, PathBuf, BTreeMap<String, String>) {
        let (project, traces) = self.run(n, command);
        let judged = runs(read_as);
        let home = self.root.path().join("template/home");
        let verdict = trace::Verdict { project: &project, home: &home, bash: command, runs: &judged };
        let programs = trace::programs(&traces);
        let findings = traces
            .iter()
            .flat_map(|(file, text)| {
                verdict.findings(text, &programs[file]).into_iter().map(move |f| format!("({file}) {f}"))
            })
            .collect();
        (findings, project, traces)
    }
}

fn hostile_git_config(marker: &Path) -> String {
    let m = marker.display();
    format!("[core]\n\tfsmonitor = {m}\n\tpager = {m}\n\tsshCommand = {m}\n[diff]\n\texternal = {m}\n[pager]\n\tlog = {m}\n")
}

fn chmod_x(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn require(program: &str) {
    let found = Command::new("sh").arg("-c").arg(format!("command -v {program}")).output().unwrap();
    assert!(
        found.status.success(),
        "the judge needs {program}: install it (make deps-test installs bubblewrap and strace)"
    );
}

/// Every Run bash may execute for this command, as the policy read it.
fn runs(command: &str) -> Vec<Run> {
    shell::read(command)
        .parts
        .into_iter()
        .filter_map(|p| match p {
            Part::Run(run) => Some(run),
            _ => None,
        })
        .collect()
}

/// The commands of a file of `tests/judge/`, one a line, `#` lines left out.
fn lines_of(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/judge").join(name)).unwrap();
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(str::to_owned).collect()
}

/// What the fuzzer kept (`fuzz/corpus/shell_reader`, which `make test` fills first, or
/// the folder `JUDGE_FUZZ_CORPUS` names): each input that is text is a command, the
/// first `JUDGE_FUZZED` of them (3,000 unless told). None when the fuzzer has not run.
fn fuzz_corpus() -> Vec<String> {
    let dir = std::env::var_os("JUDGE_FUZZ_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/shell_reader"));
    let most = std::env::var("JUDGE_FUZZED").ok().and_then(|n| n.parse().ok()).unwrap_or(FUZZED);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
    files.sort();
    files.iter().filter_map(|f| String::from_utf8(std::fs::read(f).ok()?).ok()).take(most).collect()
}

fn corpus() -> Vec<String> {
    let mut commands = lines_of("corpus.txt");
    // What agents really ran: every one the policy allows is run by bash too.
    commands.extend(lines_of("real.txt"));
    commands
}

#[test]
fn nothing_the_policy_allows_does_more_than_the_rules_allow() {
    require("bwrap");
    require("strace");
    let sandbox = Sandbox::new();
    let project = sandbox.project_template();
    let config = sandbox.root.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("rules.toml"), RULES).unwrap();
    let policy = Policy::load(&config, Some(&project)).unwrap();
    let count = std::env::var("JUDGE_GENERATED").ok().and_then(|n| n.parse().ok()).unwrap_or(GENERATED);
    let seed = std::env::var("JUDGE_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or(0x5eed);
    let fuzzed = fuzz_corpus();
    let sources: Vec<(&str, Vec<String>)> = vec![
        ("the corpus", corpus()),
        ("generated", generate::commands(count, seed)),
        ("composed as the property test does", generate::composed(COMPOSED, seed)),
        ("from the fuzzer's corpus", fuzzed),
    ];
    let mut allowed = 0;
    let mut failures = Vec::new();
    let mut n = 0;
    let mut said = Vec::new();
    for (source, commands) in &sources {
        let mut allowed_here = 0;
        for command in commands {
            n += 1;
            let action =
                Action { kind: Kind::Command(command.clone()), cwd: Some(project.clone()), agent: None, session: None };
            if policy.decide(&action).decision != Verdict::Allow {
                continue;
            }
            allowed_here += 1;
            let (findings, _, traces) = sandbox.judge(n, command, command);
            let bash_ran = traces
                .values()
                .any(|t| t.lines().any(|l| l.starts_with("execve(\"") && l.contains("[\"bash\", \"-c\"")));
            if !bash_ran {
                failures.push(format!("{command:?}: bash never ran it in the sandbox"));
            }
            failures.extend(findings.into_iter().map(|f| format!("{command:?} {f}")));
        }
        allowed += allowed_here;
        said.push(format!("{} {source} ({allowed_here} allowed)", commands.len()));
    }
    eprintln!(
        "the judge: {n} commands: {}; {allowed} allowed and run by bash, {} findings",
        said.join(", "),
        failures.len()
    );
    assert!(allowed > 0, "nothing was allowed: the judge judged nothing");
    assert!(failures.is_empty(), "bash did more than the rules allow:\n{}", failures.join("\n"));
}

#[test]
fn the_judge_sees_what_bash_does_beyond_the_reading() {
    require("bwrap");
    require("strace");
    let sandbox = Sandbox::new();
    // Each is read as less than it does, as a policy that erred would: the judge must
    // name the difference.
    let cases = [
        ("HOME=. git status", "git status", "execve"),
        ("echo x > F", "echo x", "writes"),
        ("X=/dev/tcp/127.0.0.1/80; cat < $X", "cat", "connect"),
        ("sort -o F data.txt", "sort data.txt", "writes"),
        ("date -s 2020-01-01", "date", "clock"),
        ("touch src/../F", "touch src/x", "execve"),
        ("cat data.txt | xargs touch", "cat data.txt", "execve"),
        ("cat notes", "cat notes", "reads the secret"),
        ("grep -r KEY .", "grep -r KEY .", "reads the secret"),
        ("cat ~/.aws/credentials", "cat x", "reads the secret"),
    ];
    for (n, (command, read_as, expected)) in cases.into_iter().enumerate() {
        let (findings, _, _) = sandbox.judge(1000 + n, command, read_as);
        assert!(
            findings.iter().any(|f| f.contains(expected)),
            "{command}: expected a finding of {expected}, got {findings:?}"
        );
    }
}

/// The patches of a file of `tests/judge/`, between lines of `%%`, `#` lines before
/// the first left out.
fn patches_of(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/judge").join(name)).unwrap();
    text.split("\n%%\n").skip(1).map(|p| p.trim_end_matches('\n').to_owned()).collect()
}

/// Codex's own binary from the pinned CLIs (`make test-judge` installs them), which
/// applies a patch as the agent does when given `--codex-run-as-apply-patch`.
fn codex() -> PathBuf {
    let vendor = Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/agents/node_modules/@openai");
    let found = std::fs::read_dir(&vendor).into_iter().flatten().flatten().find_map(|platform| {
        let triples = std::fs::read_dir(platform.path().join("vendor")).ok()?;
        triples.flatten().map(|t| t.path().join("bin/codex")).find(|b| b.is_file())
    });
    found.unwrap_or_else(|| {
        panic!("the edit judge needs Codex's binary under {}: run make test-judge", vendor.display())
    })
}

/// The hook's decision on Codex's permission request to apply `patch` in `project`,
/// through `userq hook codex` as Codex runs it, with no server: whether it allowed.
fn hook_allows(patch: &str, project: &Path, config: &Path) -> bool {
    let input = serde_json::json!({
        "session_id": "019a-judge", "turn_id": "t1", "cwd": project, "hook_event_name": "PermissionRequest",
        "model": "gpt-5.5", "permission_mode": "default", "tool_name": "apply_patch",
        "tool_input": {"command": patch},
    });
    let mut child = Command::new(env!("CARGO_BIN_EXE_userq"))
        .args(["hook", "codex"])
        .env("USERQ_SOCKET", config.join("no-server.sock"))
        .env("USERQ_CONFIG_DIR", config)
        .env("USERQ_DATA_DIR", config.join("data"))
        .env("USERQ_LANG", "en")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the hook failed on {patch:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    said.contains("\"behavior\":\"allow\"")
}

/// The same judge for edits: every patch the policy allows under `allow --edit
/// "src/**"` (from `tests/judge/patches.txt` and generated) is applied in the sandbox
/// by Codex's own `apply_patch`, under strace, and every file it touched must be
/// inside `src/`.
#[test]
fn nothing_a_patch_the_policy_allows_touches_outside_the_edit_rule() {
    require("bwrap");
    require("strace");
    let codex = codex();
    let sandbox = Sandbox::new();
    std::os::unix::fs::symlink(&codex, sandbox.root.path().join("bin/codex")).unwrap();
    let project = sandbox.project_template();
    let config = sandbox.root.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("rules.toml"), RULES).unwrap();
    let p = project.display().to_string();
    let mut patches = patches_of("patches.txt");
    let written = patches.len();
    patches.extend(generate::patches(300, 0x5eed));
    // The judge itself: a patch out of the rule, applied unjudged, is named.
    let (_, findings) = apply(&sandbox, 1999, "*** Begin Patch\n*** Add File: out/x\n+x\n*** End Patch");
    assert!(findings.iter().any(|f| f.contains("out/x")), "the edit judge missed a write to out/x: {findings:?}");
    let (mut allowed, mut applied, mut failures) = (0, 0, Vec::new());
    for (n, patch) in patches.iter().enumerate() {
        let patch = patch.replace("$P", &p);
        if !hook_allows(&patch, &project, &config) {
            continue;
        }
        allowed += 1;
        let (wrote, findings) = apply(&sandbox, 2000 + n, &patch);
        applied += usize::from(wrote);
        failures.extend(findings.into_iter().map(|f| format!("{patch:?}: {f}")));
    }
    eprintln!(
        "the edit judge: {} patches ({written} written, {} generated), {allowed} allowed and applied by Codex's apply_patch ({applied} wrote a file), {} findings",
        patches.len(),
        patches.len() - written,
        failures.len()
    );
    assert!(applied > 0, "no allowed patch wrote a file: the edit judge judged nothing");
    assert!(failures.is_empty(), "apply_patch did more than the edit rule allows:\n{}", failures.join("\n"));
}

/// Applies `patch` in the sandbox with Codex's `apply_patch` under strace: whether it
/// wrote a file in `src/`, and what it did that the edit rule does not allow.
fn apply(sandbox: &Sandbox, n: usize, patch: &str) -> (bool, Vec<String>) {
    let command = format!("codex --codex-run-as-apply-patch '{}'", patch.replace('\'', "'\\''"));
    let (mut findings, project, traces) = sandbox.judge(n, &command, &command);
    if !traces.values().any(|t| t.contains("--codex-run-as-apply-patch")) {
        findings.push("Codex never ran it in the sandbox".to_owned());
    }
    let src = format!("{}/src/", project.display());
    let wrote = traces.values().any(|t| t.lines().any(|l| l.contains(&src) && l.contains("O_CREAT")));
    (wrote, findings)
}

/// Whether `argv` (what bash executed) is `run` (what the policy judged): a word
/// known only when it runs stands for any words, none included; an open run takes
/// any words after its own. A leading `~` is the sandbox's home, as bash expands it.
pub fn fits(run: &Run, argv: &[String], home: &Path) -> bool {
    fn go(pattern: &[Word], argv: &[String], open: bool, home: &str) -> bool {
        match pattern.split_first() {
            None => open || argv.is_empty(),
            Some((Word::Literal(w), rest)) => {
                let expanded = match w.strip_prefix('~') {
                    Some(tail) if tail.is_empty() || tail.starts_with('/') => format!("{home}{tail}"),
                    _ => w.clone(),
                };
                argv.first().is_some_and(|a| *a == expanded) && go(rest, &argv[1..], open, home)
            }
            Some((Word::Dynamic(_), rest)) => (0..=argv.len()).any(|k| go(rest, &argv[k..], open, home)),
        }
    }
    go(&run.argv, argv, run.open, &home.display().to_string())
}

/// On what agents really ran (`tests/judge/real.txt`, from public transcripts), with
/// only `allow --read-only`: the share of the read-only ones (`real-read-only.txt`,
/// labelled by reading each) that run unasked, and none of the others
/// (`real-writes.txt`) allowed.
#[test]
fn real_read_only_commands_run_unasked_and_nothing_else_does() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("p");
    std::fs::create_dir_all(&project).unwrap();
    let config = dir.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("rules.toml"), "[[allow]]\nread-only = true\n").unwrap();
    let policy = Policy::load(&config, Some(&project)).unwrap();
    let decide = |command: &String, cwd: &std::path::Path| {
        let action = Action { kind: Kind::Command(command.clone()), cwd: Some(cwd.into()), agent: None, session: None };
        policy.decide(&action).decision == Verdict::Allow
    };
    let allowed = |command: &String| decide(command, &project);
    // Most commands that start with `cd` to an absolute folder go to the agent's own
    // project: judged again as run there, where the transcript's agent worked.
    let in_its_folder = |command: &String| match first_cd(command) {
        Some(folder) => decide(command, std::path::Path::new(&folder)),
        None => allowed(command),
    };
    let read_only = lines_of("real-read-only.txt");
    let asked: Vec<&String> = read_only.iter().filter(|c| !allowed(c)).collect();
    let writes = lines_of("real-writes.txt");
    let wrongly: Vec<&String> = writes.iter().filter(|c| allowed(c)).collect();
    let unasked = read_only.len() - asked.len();
    eprintln!(
        "real read-only commands run unasked: {unasked} of {} ({:.1}%); of {} that write or run, allowed: {}",
        read_only.len(),
        100.0 * unasked as f64 / read_only.len() as f64,
        writes.len(),
        wrongly.len()
    );
    let there = read_only.iter().filter(|c| in_its_folder(c)).count();
    eprintln!(
        "… run where the command's first `cd` goes: {there} of {} ({:.1}%)",
        read_only.len(),
        100.0 * there as f64 / read_only.len() as f64
    );
    if std::env::var_os("JUDGE_VERBOSE").is_some() {
        asked.iter().for_each(|c| eprintln!("asked: {c}"));
    }
    assert!(wrongly.is_empty(), "allowed, yet they write or run: {wrongly:#?}");
    let wrongly_there: Vec<&String> = writes.iter().filter(|c| in_its_folder(c)).collect();
    assert!(wrongly_there.is_empty(), "allowed where they cd to, yet they write or run: {wrongly_there:#?}");
}

/// The absolute folder a command's first word `cd` goes to: `cd "/home/me/shop" && …`.
fn first_cd(command: &str) -> Option<String> {
    let rest = command.strip_prefix("cd ")?.trim_start();
    let folder = match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next()?,
        None => rest.split_whitespace().next()?,
    };
    folder.starts_with('/').then(|| folder.to_owned())
}
