"""Gemini CLI itself (pinned, `-p`), with only the model scripted through
`GOOGLE_GEMINI_BASE_URL`: `userq setup gemini` writes the BeforeTool hook and the
policy beside it, and Allow in User Questions is the only question the tool needs."""

import io
import json

import pexpect

from models import Gemini, function_responses, text, tool
from world import (  # noqa: F401 (agent: a fixture)
    AGENTS, Person, a_project_file_decides_only_while_trusted, agent, only_the_sessions_rule_lets_it_run)

GREET = tool("run_shell_command", {"command": "echo hello-from-gemini > greeting.txt && cat greeting.txt",
                                   "description": "Write a greeting"})


def gemini(agent, model, *flags):
    agent.settings(".gemini/settings.json", lambda s: s.update(
        security={"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}}))
    argv = [str(AGENTS / "gemini"), "-p", "greet", "-m", "gemini-2.5-flash", *flags]
    return argv, {"GOOGLE_GEMINI_BASE_URL": model.url, "GEMINI_API_KEY": "scripted"}


def test_a_command_allowed_runs_with_no_second_prompt(agent, sock):
    agent.setup("gemini")
    model = Gemini([GREET, text("done")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "permission", "selected": ["Allow"]})
    argv, env = gemini(agent, model)
    out = agent.run(argv, env)
    answered.join(5)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert asked["questions"][0]["question"] == "Run this command?"
    assert asked["context"]["source"] == "Gemini CLI"
    # In -p Gemini CLI cannot ask at all: the command ran because our Allow decided.
    assert (agent.work / "greeting.txt").read_text() == "hello-from-gemini\n"
    responses = function_responses(model.main_requests()[-1])
    assert any("hello-from-gemini" in json.dumps(r) for r in responses), responses


def test_a_command_the_rules_allow_runs_without_the_person(agent, sock):
    agent.setup("gemini")
    agent.rules("allow", "echo")
    agent.rules("allow", "--read-only")
    agent.rules("allow", "--edit", "greeting.txt")
    model = Gemini([GREET, text("done")])
    # Nobody answers on the socket: only the rules can let it run.
    argv, env = gemini(agent, model)
    out = agent.run(argv, env)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert (agent.work / "greeting.txt").read_text() == "hello-from-gemini\n"


def test_a_part_a_rule_denies_refuses_the_command_with_its_reason(agent, sock):
    agent.setup("gemini")
    agent.rules("allow", "echo")
    agent.rules("deny", "cat", "--reason", "no reading back today")
    model = Gemini([GREET, text("understood")])
    argv, env = gemini(agent, model)
    out = agent.run(argv, env)
    assert not (agent.work / "greeting.txt").exists()
    responses = function_responses(model.main_requests()[-1])
    assert any("no reading back today" in json.dumps(r) for r in responses), (responses, out.stderr[-2000:])


def shell(command):
    return tool("run_shell_command", {"command": command, "description": "A step"})


def test_a_part_no_rule_allows_reaches_the_person(agent, sock):
    agent.setup("gemini")
    agent.rules("allow", "echo")
    agent.rules("allow", "--read-only")
    (agent.work / "target").mkdir()
    model = Gemini([shell("echo hi && rm -rf target"), text("understood")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "permission", "selected": [], "custom": "keep target"})
    argv, env = gemini(agent, model)
    out = agent.run(argv, env)
    answered.join(5)
    assert "echo hi && rm -rf target" in asked["questions"][0]["detail"], out.stderr[-2000:]
    assert (agent.work / "target").is_dir()
    responses = function_responses(model.main_requests()[-1])
    assert any("keep target" in json.dumps(r) for r in responses), (responses, out.stderr[-2000:])


def test_a_denied_command_behind_a_wrapper_is_refused_with_the_rules_reason(agent, sock):
    agent.setup("gemini")
    agent.rules("deny", "sudo", "--reason", "nothing runs as root here")
    model = Gemini([shell("timeout 5 sudo touch /root-owned"), text("understood")])
    # Nobody answers on the socket: the rule alone refuses it.
    argv, env = gemini(agent, model)
    out = agent.run(argv, env)
    responses = function_responses(model.main_requests()[-1])
    assert any("nothing runs as root here" in json.dumps(r) for r in responses), (responses, out.stderr[-2000:])


def test_a_project_rules_file_allows_only_while_trusted(agent, sock):
    agent.setup("gemini")

    def run():
        argv, env = gemini(agent, Gemini([shell("touch made.txt"), text("ok")]))
        out = agent.run(argv, env)
        assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]

    a_project_file_decides_only_while_trusted(agent, sock, run, agent.work / "made.txt")


def test_a_sessions_rules_allow_in_it_and_end_with_it(agent, sock):
    agent.setup("gemini")
    session = "3f2a9c1e-7b4d-4e8a-9c2f-5d1b8a6e0f47"

    def run():
        argv, env = gemini(agent, Gemini([shell("touch made.txt"), text("ok")]), "--session-id", session)
        out = agent.run(argv, env)
        assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]

    only_the_sessions_rule_lets_it_run(agent, sock, session, run, agent.work / "made.txt")


def test_a_command_denied_does_not_run_and_the_model_reads_the_reason(agent, sock):
    agent.setup("gemini")
    model = Gemini([GREET, text("understood")])
    person = Person(sock, name="person")
    _, answered = person.answer_next({"id": "permission", "selected": [], "custom": "no greetings today"})
    argv, env = gemini(agent, model)
    out = agent.run(argv, env)
    answered.join(5)
    assert not (agent.work / "greeting.txt").exists()
    responses = function_responses(model.main_requests()[-1])
    assert any("no greetings today" in json.dumps(r) for r in responses), (responses, out.stderr[-2000:])


def test_with_no_server_headless_gemini_goes_on_by_its_own_rules(agent, tmp_path):
    agent.setup("gemini")
    agent.env["USERQ_SOCKET"] = str(tmp_path / "nobody.sock")
    model = Gemini([GREET, text("ok")])
    argv, env = gemini(agent, model)
    out = agent.run(argv, env)
    # `gemini -p` cannot show its own prompt (an "ask" would wait for it forever):
    # the command is refused, as -p refuses it with no hook at all, and the run ends.
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert not (agent.work / "greeting.txt").exists()
    responses = function_responses(model.main_requests()[-1])
    assert any("no user-questions server" in json.dumps(r) for r in responses), responses


def interactive(agent, model):
    """Gemini CLI in a terminal of its own, as a person runs it, given its first prompt."""
    argv, env = gemini(agent, model)
    argv = [a for a in argv if a not in ("-p", "greet")] + ["-i", "greet"]
    term = pexpect.spawn(argv[0], argv[1:], cwd=str(agent.work), env=dict(agent.env, **env), encoding="utf-8",
                         timeout=60, dimensions=(40, 160))
    term.logfile_read = io.StringIO()  # everything it showed
    return term


def test_in_its_terminal_an_allow_here_runs_the_command_with_no_second_prompt(agent, sock):
    agent.setup("gemini")
    model = Gemini([GREET, text("done")])
    person = Person(sock, name="person")
    _, answered = person.answer_next({"id": "permission", "selected": ["Allow"]})
    term = interactive(agent, model)
    try:
        term.expect("done")
        answered.join(5)
        assert (agent.work / "greeting.txt").read_text() == "hello-from-gemini\n"
        # Gemini CLI's own "Allow execution of …?" never came up: our Allow decided.
        shown = term.logfile_read.getvalue()
        assert "Allow execution" not in shown, shown[-2000:]
    finally:
        term.terminate(force=True)


def test_in_its_terminal_with_no_server_gemini_asks_in_its_own_prompt(agent, tmp_path):
    agent.setup("gemini")
    agent.env["USERQ_SOCKET"] = str(tmp_path / "nobody.sock")
    model = Gemini([GREET, text("done")])
    term = interactive(agent, model)
    try:
        term.expect("Allow execution")
        assert not (agent.work / "greeting.txt").exists()
    finally:
        term.terminate(force=True)
