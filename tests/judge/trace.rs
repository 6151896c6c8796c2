//! What bash did, read from `strace -f -y -v` output, against what the policy judged:
//! programs run, files written, sockets connected, the clock set, and secrets read.

use std::path::Path;

use user_questions::policy::sensitive;
use user_questions_shell::Run;

/// The system calls traced: programs run, files opened, made, removed, renamed or
/// touched, sockets connected, the clock set.
pub const SYSCALLS: &str = "trace=clone,clone3,fork,vfork,execve,execveat,open,openat,openat2,creat,truncate,unlink,unlinkat,rename,renameat,renameat2,mkdir,mkdirat,rmdir,symlink,symlinkat,link,linkat,chmod,fchmodat,utimensat,utimes,utime,mknod,mknodat,connect,clock_settime,settimeofday,clock_adjtime";

/// Programs that run the command they were read through to.
const WRAPPERS: &[&str] =
    &["env", "timeout", "nice", "nohup", "stdbuf", "ionice", "setsid", "chrt", "taskset", "time", "xargs", "command"];
const SHELLS: &[&str] = &["sh", "bash", "dash"];

/// Scripts that run another program with words of their own first: Debian's `egrep`
/// is `exec grep -E "$@"`.
const ALIASES: &[(&str, &[&str])] = &[("egrep", &["grep", "-E"]), ("fgrep", &["grep", "-F"])];

/// Programs that keep scratch files of their own in `$TMPDIR` (`tac` reading a pipe,
/// `sort` a large input), named after themselves.
const SCRATCH: &[&str] = &["tac", "sort"];

pub struct Verdict<'a> {
    pub project: &'a Path,
    pub home: &'a Path,
    /// The command bash was given.
    pub bash: &'a str,
    pub runs: &'a [Run],
}

impl Verdict<'_> {
    /// Each thing in one process's trace that the rules do not allow; `program`: the
    /// program it runs until it executes one of its own ([`programs`]).
    pub fn findings(&self, trace: &str, program: &str) -> Vec<String> {
        let mut program = program.to_owned();
        let mut found = Vec::new();
        for line in trace.lines() {
            if line.starts_with("execve(") && succeeded(line) {
                program = strings(line.split_once('[').map_or("", |(_, r)| r)).first().cloned().unwrap_or_default();
                program = program.rsplit('/').next().unwrap_or_default().to_owned();
            }
            found.extend(self.finding(line, &program));
        }
        found
    }

    fn finding(&self, line: &str, program: &str) -> Option<String> {
        let (call, rest) = line.split_once('(')?;
        let ok = succeeded(line);
        match call {
            "execve" | "execveat" if ok => {
                let argv = strings(rest.split_once("[")?.1);
                self.executed(&argv).then_some(()).is_none().then(|| format!("{call} {argv:?} was not judged"))
            }
            "clock_settime" | "settimeofday" | "clock_adjtime" => Some(format!("{call}: the clock")),
            "connect" => {
                // The name service's own sockets, and docker's daemon, which its
                // reading subcommands ask.
                let local = rest.contains("nscd")
                    || rest.contains("/run/systemd/userdb")
                    || (program == "docker" && rest.contains("sun_path=\"/var/run/docker.sock\""));
                (!local).then(|| format!("connect: {}", line.trim()))
            }
            "open" | "openat" | "openat2" | "creat" if ok => {
                let writes = call == "creat"
                    || ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"].iter().any(|f| rest.contains(f));
                let path = returned_path(line)?;
                // A secret opened to be read, not a folder listed.
                // procps opens every process's `environ` and shows it only with `e`,
                // which the read-only set refuses: ps's own reading of `/proc` is not one.
                let procps = program == "ps" && path.starts_with("/proc/");
                let secret = !writes
                    && !procps
                    && !rest.contains("O_DIRECTORY")
                    && sensitive::secret(Path::new(&path)).is_some();
                if secret {
                    return Some(format!("{call} reads the secret {path}"));
                }
                (writes && !self.may_write(&path, program)).then(|| format!("{call} writes {path}"))
            }
            "execve" | "execveat" | "open" | "openat" | "openat2" | "creat" => None,
            _ if ok => {
                let path = first_path(rest)?;
                (!self.may_write(&path, program)).then(|| format!("{call} changes {path}"))
            }
            _ => None,
        }
    }

    /// Whether bash executing `argv` is what the policy judged.
    fn executed(&self, argv: &[String]) -> bool {
        if argv == ["bash", "-c", self.bash] {
            return true;
        }
        let name = argv.first().map(|a| a.rsplit('/').next().unwrap_or(a)).unwrap_or_default();
        let judged = |words: &[String]| self.runs.iter().any(|r| super::fits(r, words, self.home));
        if judged(argv) {
            return true;
        }
        for (alias, runs) in ALIASES {
            if argv.len() >= runs.len() && argv[..runs.len()] == **runs {
                let mut as_alias = vec![(*alias).to_owned()];
                as_alias.extend(argv[runs.len()..].iter().cloned());
                if judged(&as_alias) {
                    return true;
                }
            }
        }
        if WRAPPERS.contains(&name) && (1..argv.len()).any(|k| judged(&argv[k..])) {
            return true;
        }
        // xargs read as given no program runs `echo` (through nested xargs too, and
        // whatever its options' values are): xargs itself is judged, and what it then
        // executes is traced and judged as its own process is.
        let default_echo = self.runs.iter().any(|r| r.open && r.name() == Some("echo"));
        if name == "xargs" && default_echo {
            return true;
        }
        if SHELLS.contains(&name) {
            // `sh -c PROGRAM`: its program was read, and its parts judged, where it stands.
            if let Some(p) = command_string(&argv[1..]) {
                let same = |a: &Run, b: &Run| a.argv == b.argv && a.open == b.open;
                return p == self.bash || super::runs(p).iter().all(|inner| self.runs.iter().any(|r| same(r, inner)));
            }
        }
        if name == "find" {
            let mut kept = Vec::new();
            let mut it = argv.iter();
            while let Some(a) = it.next() {
                if matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                    it.by_ref().find(|a| *a == ";" || *a == "+");
                } else {
                    kept.push(a.clone());
                }
            }
            return judged(&kept);
        }
        false
    }

    /// Whether the edit rule (`src/**`) allows `program` changing `path`, or it keeps
    /// nothing: git's index (a cache of file times, locked and renamed into place by
    /// `git status`), a program's own scratch file.
    fn may_write(&self, path: &str, program: &str) -> bool {
        let src = self.project.join("src");
        let git = self.project.join(".git");
        let scratch = SCRATCH.contains(&program) && path.starts_with(&format!("/tmp/{program}"));
        Path::new(path).starts_with(&src)
            || scratch
            || (program == "git" && [git.join("index"), git.join("index.lock")].iter().any(|p| Path::new(path) == p))
            || matches!(path, "/dev/null" | "/dev/tty")
            || path.starts_with("/dev/pts/")
            || path.starts_with("pipe:")
            || path.starts_with("/tmp/sh-thd")
    }
}

/// The program each process's trace starts in (by its file, `t.PID`): a thread or a
/// child runs its parent's until it executes one of its own.
pub fn programs(traces: &std::collections::BTreeMap<String, String>) -> std::collections::BTreeMap<String, String> {
    let mut parent = std::collections::BTreeMap::new();
    let mut own = std::collections::BTreeMap::new();
    for (file, text) in traces {
        for line in text.lines() {
            let call = line.split('(').next().unwrap_or_default();
            if matches!(call, "clone" | "clone3" | "fork" | "vfork") {
                if let Some((_, child)) = line.rsplit_once(") = ") {
                    parent.insert(format!("t.{}", child.trim()), file.clone());
                }
            }
            if call == "execve" && succeeded(line) && !own.contains_key(file) {
                let argv = strings(line.split_once('[').map_or("", |(_, r)| r));
                let name = argv.first().map(|a| a.rsplit('/').next().unwrap_or(a).to_owned()).unwrap_or_default();
                own.insert(file.clone(), name);
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    for file in traces.keys() {
        let mut at = file.clone();
        let mut program = String::new();
        for _ in 0..64 {
            match parent.get(&at) {
                Some(p) => {
                    at = p.clone();
                    if let Some(name) = own.get(&at) {
                        program = name.clone();
                        break;
                    }
                }
                None => break,
            }
        }
        out.insert(file.clone(), program);
    }
    out
}

/// Whether the call returned without an error.
fn succeeded(line: &str) -> bool {
    line.rsplit_once(") = ").is_some_and(|(_, ret)| !ret.starts_with('-') && !ret.starts_with('?'))
}

/// The path of the descriptor a call returned, as `-y` shows it: `= 3</path>`.
fn returned_path(line: &str) -> Option<String> {
    let (_, ret) = line.rsplit_once(") = ")?;
    let start = ret.find('<')?;
    Some(unescape(ret[start + 1..].trim_end().strip_suffix('>')?))
}

/// The file a path call acts on: its first string, against the folder `-y` shows
/// beside it (`AT_FDCWD</p>, "x"`), or a descriptor's own path (`3</p/x>, NULL`).
fn first_path(args: &str) -> Option<String> {
    let strings = strings(args);
    let folder = args.find('<').and_then(|s| args[s + 1..].find('>').map(|e| args[s + 1..s + 1 + e].to_owned()));
    match (strings.first(), folder) {
        (Some(p), _) if p.starts_with('/') => Some(p.clone()),
        (Some(p), Some(dir)) => Some(format!("{dir}/{p}")),
        (Some(p), None) => Some(p.clone()),
        (None, Some(dir)) => Some(dir),
        (None, None) => None,
    }
}

/// The quoted strings in `text`, up to its first `]` outside quotes, unescaped.
fn strings(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ']' | ')' => break,
            '"' => {
                let mut s = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            s.push('\\');
                            s.extend(chars.next());
                        }
                        '"' => break,
                        c => s.push(c),
                    }
                }
                out.push(unescape(&s));
            }
            _ => {}
        }
    }
    out
}

/// strace's C escapes undone.
fn unescape(s: &str) -> String {
    let mut out = Vec::new();
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 1 < bytes.len() {
            let c = bytes[i + 1];
            i += 2;
            match c {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'r' => out.push(b'\r'),
                b'v' => out.push(11),
                b'f' => out.push(12),
                b'0'..=b'7' => {
                    let mut v = u32::from(c - b'0');
                    while i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) && v < 32 {
                        v = v * 8 + u32::from(bytes[i] - b'0');
                        i += 1;
                    }
                    out.push(v as u8);
                }
                other => out.push(other),
            }
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The program of `sh -c PROGRAM` as bash reads its words: options (clusters, `+`
/// forms, `-o NAME`, long ones) up to the first operand or `--`; with `-c` in them,
/// that operand is the program. `bash -i -cBh -i -c true` runs `true`.
fn command_string(words: &[String]) -> Option<&String> {
    let mut c = false;
    let mut it = words.iter();
    while let Some(w) = it.next() {
        if w == "--" || w == "-" {
            break;
        }
        let Some(cluster) = w.strip_prefix('-').or_else(|| w.strip_prefix('+')) else {
            return c.then_some(w);
        };
        if cluster.starts_with('-') {
            continue;
        }
        c |= w.starts_with('-') && cluster.contains('c');
        if cluster.contains(['o', 'O']) {
            it.next();
        }
    }
    it.next().filter(|_| c)
}
