"""GitHub Copilot CLI itself (pinned, `-p`, offline, with a provider of the test's own
that speaks chat completions): `userq setup copilot` writes its hooks file, Copilot
runs `userq hook copilot` on its permissionRequest, and what it does next is read from
what it sends the model."""

import json

from models import ChatCompletions, text, tool, tool_messages
from world import (  # noqa: F401 (agent: a fixture)
    AGENTS, Person, agent, allowing_for_the_session, only_the_read_only_rule_is_left)

GREET = tool("bash", {"command": "echo hello-from-copilot > greeting.txt && cat greeting.txt",
                      "description": "Write a greeting"})


def copilot(model):
    argv = [str(AGENTS / "copilot"), "-p", "greet", "--no-auto-update"]
    return argv, {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": model.url + "/v1",
                  "COPILOT_PROVIDER_API_KEY": "scripted", "COPILOT_MODEL": "scripted"}


def test_a_command_allowed_runs_and_the_model_reads_its_output(agent, sock):
    agent.setup("copilot")
    model = ChatCompletions([GREET, text("done")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "permission", "selected": ["Allow"]})
    argv, env = copilot(model)
    out = agent.run(argv, env)
    answered.join(5)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert asked["questions"][0]["question"] == "Run this command?"
    assert asked["context"]["source"] == "GitHub Copilot CLI"
    assert (agent.work / "greeting.txt").read_text() == "hello-from-copilot\n"
    results = tool_messages(model.main_requests()[-1])
    assert any("hello-from-copilot" in json.dumps(r) for r in results), results


def test_allow_for_this_session_lets_its_next_command_run_and_ends_with_the_session(agent, sock):
    agent.setup("copilot")
    agent.rules("allow", "--read-only")
    touch = tool("bash", {"command": "touch made.txt", "description": "Make a file"})
    model = ChatCompletions([GREET, touch, text("done")])
    person = Person(sock, name="person")
    thread = allowing_for_the_session(agent, person)
    argv, env = copilot(model)
    out = agent.run(argv, env)
    thread.join(5)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    # The next command ran on the session's rule, with nobody asked.
    assert (agent.work / "made.txt").exists()
    assert person.messages.empty(), person.messages.get()
    # Copilot's SessionEnd, as `copilot -p` ends, took the session's rule out.
    only_the_read_only_rule_is_left(agent)


def test_a_command_denied_does_not_run_and_the_model_reads_the_reason(agent, sock):
    agent.setup("copilot")
    model = ChatCompletions([GREET, text("understood")])
    person = Person(sock, name="person")
    _, answered = person.answer_next({"id": "permission", "selected": [], "custom": "no greetings here"})
    argv, env = copilot(model)
    agent.run(argv, env)
    answered.join(5)
    assert not (agent.work / "greeting.txt").exists()
    results = tool_messages(model.main_requests()[-1])
    assert any("no greetings here" in json.dumps(r) for r in results), results
