"""Qwen Code itself (pinned), with only the model scripted through `OPENAI_BASE_URL`:
`userq setup qwen` writes its PermissionRequest hook, which Qwen runs headless only in
stream-json mode (its plain `-p` does not offer tools that need asking)."""

import io
import json

import pexpect

from models import ChatCompletions, text, tool, tool_messages
from world import AGENTS, Person, StreamSession, agent, only_the_sessions_rule_lets_it_run  # noqa: F401 (a fixture)

GREET = tool("run_shell_command", {"command": "echo hello-from-qwen > greeting.txt && cat greeting.txt",
                                   "description": "Write a greeting"})


def scripted(agent, model):
    """Qwen Code's settings and environment for the scripted model."""
    agent.settings(".qwen/settings.json", lambda s: s.update(
        {"security": {"auth": {"selectedType": "openai"}}, "model": {"name": "scripted"}}))
    return dict(agent.env, OPENAI_BASE_URL=model.url + "/v1", OPENAI_API_KEY="scripted", OPENAI_MODEL="scripted")


def qwen(agent, model, approval="default"):
    argv = [str(AGENTS / "qwen"), "-p", "--input-format", "stream-json", "--output-format", "stream-json",
            "--approval-mode", approval]
    return StreamSession(argv, agent.work, scripted(agent, model), "greet")


def test_a_command_allowed_is_asked_as_a_command_runs_and_the_model_reads_its_output(agent, sock):
    agent.setup("qwen")
    model = ChatCompletions([GREET, text("done")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "permission", "selected": ["Allow"]})
    result = qwen(agent, model).result()
    answered.join(5)
    assert result["subtype"] == "success", result
    q = asked["questions"][0]
    # Not "Use run_shell_command?" over a JSON dump: the command, as a command.
    assert (q["question"], q["detail"]) == (
        "Run this command?", "```sh\necho hello-from-qwen > greeting.txt && cat greeting.txt\n```")
    assert asked["context"]["description"] == "Write a greeting"
    assert asked["context"]["source"] == "Qwen Code"
    assert (agent.work / "greeting.txt").read_text() == "hello-from-qwen\n"
    results = tool_messages(model.main_requests()[-1])
    assert any("hello-from-qwen" in json.dumps(r) for r in results), results


def test_in_its_terminal_a_sessions_rules_allow_in_it_and_end_with_it(agent, sock):
    agent.setup("qwen")
    session = "8d4e2b6a-1c3f-4a5e-b7d9-0f2e4c6a8b10"
    step = tool("run_shell_command", {"command": "touch made.txt", "description": "Make a file"})

    def run():
        # In its terminal: Qwen Code ends a session (SessionEnd) as the person quits, never headless.
        env = scripted(agent, ChatCompletions([step, text("all-made-here")]))
        term = pexpect.spawn(str(AGENTS / "qwen"), ["-i", "make", "--session-id", session], cwd=str(agent.work),
                             env=env, encoding="utf-8", timeout=60, dimensions=(40, 160))
        term.logfile_read = io.StringIO()
        try:
            term.expect("all-made-here")
            term.send("/quit\r")
            term.expect(pexpect.EOF, timeout=30)
        except pexpect.ExceptionPexpect as e:
            raise AssertionError(term.logfile_read.getvalue()[-3000:]) from e
        finally:
            term.terminate(force=True)

    only_the_sessions_rule_lets_it_run(agent, sock, session, run, agent.work / "made.txt")


def test_a_command_denied_does_not_run_and_the_model_reads_the_reason(agent, sock):
    agent.setup("qwen")
    model = ChatCompletions([GREET, text("understood")])
    person = Person(sock, name="person")
    _, answered = person.answer_next({"id": "permission", "selected": [], "custom": "not now, please"})
    qwen(agent, model).result()
    answered.join(5)
    assert not (agent.work / "greeting.txt").exists()
    results = tool_messages(model.main_requests()[-1])
    assert any("not now, please" in json.dumps(r) for r in results), results
