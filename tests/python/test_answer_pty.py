"""`userq answer` in a pseudo-terminal, as a person on a server or in SSH uses it."""

import json
import os
import subprocess
import time

import pexpect
import pytest

from conftest import USERQ

DOWN = "\x1b[B"


def spawn_answer(sock, lang="en"):
    env = dict(os.environ, USERQ_SOCKET=str(sock), TERM="xterm", USERQ_LANG=lang)
    return pexpect.spawn(str(USERQ), ["answer"], env=env, encoding="utf-8", timeout=10, dimensions=(40, 120))


@pytest.fixture
def term(sock):
    child = spawn_answer(sock)
    child.expect("Answering questions")
    yield child
    child.terminate(force=True)


def test_the_terminal_speaks_chinese_and_the_answer_stays_the_same(sock):
    child = spawn_answer(sock, "zh-CN")
    try:
        child.expect("以“terminal”的身份回答问题")
        p = ask(sock, "Which package manager?", "--option", "npm", "--option", "pnpm")
        child.expect("━━ 问题 ")
        child.expect("✎ 其他（输入回答）")
        child.expect("↑↓ 移动，Enter 选择，Esc 跳过")
        child.send(DOWN)
        child.send("\r")
        child.expect("（已发送）")
        assert answer_of(p) == {"answers": [{"id": "q", "selected": ["pnpm"]}]}
    finally:
        child.terminate(force=True)


def ask(sock, *args):
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    return subprocess.Popen([USERQ, "ask", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def answer_of(p):
    out, err = p.communicate(timeout=10)
    assert p.returncode == 0, err
    return json.loads(out)


def test_single_select_with_descriptions(sock, term):
    p = ask(sock, "Which package manager?", "--header", "Tooling", "--option", "npm", "--option", "pnpm:fast, strict")
    term.expect("Tooling")
    term.expect("pnpm — fast, strict")
    term.send(DOWN)
    term.send("\r")
    term.expect(r"\(sent\)")
    assert answer_of(p) == {"answers": [{"id": "q", "selected": ["pnpm"]}]}


def test_plan_review_revise_with_feedback(sock, term, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text("# Migrate the database\n\n1. Dump\n2. Restore\n")
    p = ask(sock, "--plan", str(plan))
    term.expect("Migrate the database")
    term.expect("2. Restore")
    term.expect("Approve")
    term.send(DOWN)
    term.send("\r")
    term.expect("Feedback")
    term.send("test the restore first\r")
    term.expect(r"\(sent\)")
    assert answer_of(p) == {"answers": [{"id": "plan", "selected": [], "custom": "test the restore first"}]}


def test_multi_select_free_text_and_skip(sock, term):
    p = ask(sock, "Which checks?", "--multi", "--option", "fmt", "--option", "clippy", "--option", "test")
    term.expect("Which checks")
    term.send(" ")
    term.send(DOWN + DOWN)
    term.send(" ")
    term.send("\r")
    term.expect("Anything to add")
    term.send("and miri\r")
    term.expect(r"\(sent\)")
    assert answer_of(p) == {"answers": [{"id": "q", "selected": ["fmt", "test"], "custom": "and miri"}]}
    p = ask(sock, "Name of the branch?")
    term.expect("Name of the branch")
    term.send("\r")
    term.expect(r"\(sent\)")
    assert answer_of(p) == {"answers": [{"id": "q", "selected": []}]}


def test_dismiss_tells_the_agent_the_user_cancelled(sock, term):
    p = ask(sock, "Deploy?", "--option", "Yes", "--option", "No")
    term.expect("Deploy")
    term.send(DOWN * 4)
    term.send("\r")
    term.expect(r"\(sent\)")
    out, err = p.communicate(timeout=10)
    assert p.returncode == 1
    assert err == "Error: the user cancelled ask_user_question\n"


def test_a_withdrawn_question_is_reported(sock, term):
    p = ask(sock, "Wait for me?", "--option", "Yes")
    term.expect("Wait for me")
    p.send_signal(2)
    p.communicate(timeout=10)
    term.expect("withdrawn by its asker")


def serve(path):
    server = subprocess.Popen([USERQ, "serve"], env=dict(os.environ, USERQ_SOCKET=str(path)), stderr=subprocess.DEVNULL)
    for _ in range(300):
        if path.exists():
            return server
        time.sleep(0.01)
    raise RuntimeError("userq serve did not start")


def test_a_terminal_rides_out_a_server_crash(tmp_path):
    path = tmp_path / "restart.sock"
    server = serve(path)
    env = dict(os.environ, USERQ_SOCKET=str(path), TERM="xterm")
    term = pexpect.spawn(str(USERQ), ["answer"], env=env, encoding="utf-8", timeout=10, dimensions=(40, 120))
    try:
        term.expect("Answering questions")
        p = ask(path, "Survive the crash?", "--option", "Yes", "--option", "No")
        term.expect("Survive the crash")
        server.kill()
        server.wait(5)
        term.expect("the server went away")
        server = serve(path)
        term.expect("connected again")
        # The question on screen belonged to the crashed server: answering it sends
        # nothing. Its asker asked again, and that question comes next.
        term.send("\r")
        term.expect("Survive the crash")
        term.send(DOWN)
        term.send("\r")
        term.expect(r"\(sent\)")
        assert answer_of(p) == {"answers": [{"id": "q", "selected": ["No"]}]}
        assert "not sent" not in term.before
    finally:
        term.terminate(force=True)
        server.terminate()
        server.wait(5)


def test_an_agents_hook_shows_who_asks_from_where(sock, term):
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    hook = subprocess.Popen([USERQ, "hook", "claude-code"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    hook.stdin.write(json.dumps({
        "session_id": "abc123", "cwd": "/home/me/shop", "hook_event_name": "PermissionRequest",
        "tool_name": "Bash", "tool_input": {"command": "npm publish", "description": "Publish the package"}}))
    hook.stdin.close()
    term.expect(r"from Claude Code, agent claude-code-abc123-\S+ · shop · session abc123")
    term.expect("The agent says: Publish the package")
    term.expect("npm publish")
    term.expect("Allow")
    term.send("\r")
    term.expect(r"\(sent\)")
    hook.wait(10)
    out, err = hook.stdout.read(), hook.stderr.read()
    assert json.loads(out) == {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                                      "decision": {"behavior": "allow"}}}, err


def test_a_plan_revised_at_the_terminal_reaches_claude_code_as_the_directive_with_its_file(sock, term):
    """The person's words typed under Revise reach the agent as every door's revision
    does: the directive, where the plan is kept, then the words."""
    hook_input = {"session_id": "s-plan", "cwd": "/srv/app", "hook_event_name": "PermissionRequest",
                  "tool_name": "ExitPlanMode",
                  "tool_input": {"plan": "# Cache sessions\n\n1. Add Redis\n", "planFilePath": "/home/me/.claude/plans/cache.md"}}
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    hook = subprocess.Popen([USERQ, "hook", "claude-code"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    hook.stdin.write(json.dumps(hook_input))
    hook.stdin.close()
    term.expect("Cache sessions")
    term.expect("Revise")
    term.send(DOWN)
    term.send(DOWN)
    term.send("\r")
    term.expect("Feedback")
    term.send("use the in-process cache instead\r")
    term.expect(r"\(sent\)")
    hook.wait(10)
    assert hook.returncode == 0, hook.stderr.read()
    message = json.loads(hook.stdout.read())["hookSpecificOutput"]["decision"]["message"]
    assert message == ("Plan not approved: revise it. Address every point below, then present the revised plan for "
                       "review again. The plan is in /home/me/.claude/plans/cache.md: edit it there.\n\n"
                       "use the in-process cache instead")


def test_allow_for_this_session_keeps_a_rule_the_next_command_of_that_session_meets(sock, tmp_path):
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_CONFIG_DIR=str(tmp_path / "config"), TERM="xterm",
               USERQ_LANG="en")
    term = pexpect.spawn(str(USERQ), ["answer"], env=env, encoding="utf-8", timeout=10, dimensions=(40, 160))
    term.expect("Answering questions")

    def hook(command, session):
        p = subprocess.Popen([USERQ, "hook", "claude-code"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        p.stdin.write(json.dumps({
            "session_id": session, "cwd": "/home/me/shop", "hook_event_name": "PermissionRequest",
            "tool_name": "Bash", "tool_input": {"command": command}}))
        p.stdin.close()
        return p

    def behavior(p):
        p.wait(10)
        out, err = p.stdout.read(), p.stderr.read()
        return json.loads(out)["hookSpecificOutput"]["decision"]["behavior"]

    try:
        first = hook("cargo test --release", "s7")
        term.expect("Allow for this session \\(“cargo test …” with any arguments, in this session only\\)")
        term.send(DOWN)
        term.send("\r")
        term.expect(r"\(sent\)")
        assert behavior(first) == "allow"
        rules = (tmp_path / "config" / "rules.toml").read_text()
        assert rules == '[[allow]]\ncommand = "cargo test"\nsession = "s7"\n', rules
        # The next such command of that session never reaches the terminal.
        assert behavior(hook("cargo test --lib", "s7")) == "allow"
    finally:
        term.terminate(force=True)


def test_a_file_pick_is_found_by_a_few_letters_and_pending_shows_it(sock, term, tmp_path):
    root = tmp_path / "project"
    for f in ["Cargo.toml", "src/main.rs", "src/config/app.toml", "target/x.toml", "docs/app.md"]:
        (root / f).parent.mkdir(parents=True, exist_ok=True)
        (root / f).write_text("")
    (root / ".gitignore").write_text("target/\n")
    p = ask(sock, "Which config?", "--pick", "files", "--root", str(root), "--glob", "*.toml", "--multi")
    term.expect(f"pick under {root}")
    term.expect("Which config")
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_LANG="en")
    pending = subprocess.run([USERQ, "pending"], env=env, capture_output=True, text=True, timeout=10).stdout
    assert f"picks files under {root} (*.toml)" in pending, pending
    term.send("cfgapp")
    term.expect("src/config/app.toml")
    term.send(" ")
    term.send("\r")
    term.expect(r"\(sent\)")
    assert answer_of(p) == {"answers": [{"id": "q", "selected": ["src/config/app.toml"]}]}


def test_a_bad_root_is_named(sock):
    p = ask(sock, "Which?", "--pick", "folders", "--root", "/nonexistent/root")
    out, err = p.communicate(timeout=10)
    assert p.returncode == 2
    assert err.strip() == 'userq ask: questions[0].pick.root "/nonexistent/root" does not exist'
