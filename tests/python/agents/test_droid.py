"""Factory Droid itself (its CLI binary, pinned), with only the model scripted (a
custom model of the person's own, in `~/.factory/settings.json`, and Droid's airgap
mode, so nothing else is reached): `userq setup droid` writes its PreToolUse hook,
and `droid exec` at an autonomy level that would stop on the command runs it."""

import json

from models import ChatCompletions, text, tool, tool_messages
from world import (  # noqa: F401 (agent: a fixture)
    AGENTS, Person, agent, allowing_for_the_session, only_the_read_only_rule_is_left)

DROID = AGENTS.parent / "@factory" / "cli-linux-x64" / "bin" / "droid"

GREET = tool("Execute", {"command": "echo hello-from-droid > greeting.txt && cat greeting.txt",
                         "summary": "Write a greeting", "riskLevel": "medium", "riskLevelReason": "writes a file"})


def droid(agent, model, autonomy="low"):
    agent.settings(".factory/settings.json", lambda s: s.update(customModels=[
        {"model": "scripted", "displayName": "Scripted", "baseUrl": model.url + "/v1", "apiKey": "scripted",
         "provider": "generic-chat-completion-api", "maxOutputTokens": 1024}]))
    argv = [str(DROID), "exec", "-o", "json", "--auto", autonomy, "--model", "custom:scripted", "greet"]
    return agent.run(argv, {"FACTORY_AIRGAP_ENABLED": "1"})


def allowed(agent, sock):
    """Sets Droid up, and runs it on the greeting with the person allowing it; what
    was asked, and the model's requests."""
    agent.setup("droid")
    model = ChatCompletions([GREET, text("done")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "permission", "selected": ["Allow"]})
    out = droid(agent, model)
    answered.join(5)
    assert out.returncode == 0, out.stdout + out.stderr
    return asked, model


def test_allow_for_this_session_lets_its_next_command_run_and_ends_with_the_session(agent, sock):
    agent.setup("droid")
    agent.rules("allow", "--read-only")
    touch = tool("Execute", {"command": "touch made.txt", "summary": "Make a file", "riskLevel": "medium",
                             "riskLevelReason": "writes a file"})
    model = ChatCompletions([GREET, touch, text("done")])
    person = Person(sock, name="person")
    thread = allowing_for_the_session(agent, person)
    out = droid(agent, model)
    thread.join(5)
    assert out.returncode == 0, out.stdout + out.stderr
    # The next command ran on the session's rule, with nobody asked.
    assert (agent.work / "made.txt").exists()
    assert person.messages.empty(), person.messages.get()
    # Droid's SessionEnd, as `droid exec` ends, took the session's rule out.
    only_the_read_only_rule_is_left(agent)


def test_a_command_droid_would_stop_on_is_asked_allowed_and_run(agent, sock):
    asked, model = allowed(agent, sock)
    q = asked["questions"][0]
    assert q["question"] == "Run this command?"
    assert "echo hello-from-droid > greeting.txt" in q["detail"]
    assert asked["context"]["source"] == "Factory Droid"
    assert (agent.work / "greeting.txt").read_text() == "hello-from-droid\n"
    results = json.dumps(tool_messages(model.main_requests()[-1]))
    assert "hello-from-droid" in results, results


def test_a_command_denied_does_not_run_and_the_model_reads_the_reason(agent, sock):
    agent.setup("droid")
    model = ChatCompletions([GREET, text("understood")])
    person = Person(sock, name="person")
    _, answered = person.answer_next({"id": "permission", "selected": [], "custom": "not in this folder"})
    droid(agent, model)
    answered.join(5)
    assert not (agent.work / "greeting.txt").exists()
    results = json.dumps(tool_messages(model.main_requests()[-1]))
    assert "not in this folder" in results, results


def test_the_persons_own_hooks_file_keeps_its_hooks_and_ours_is_asked_beside_them(agent, sock):
    """Droid reads ~/.factory/hooks.json first, and its events replace the same events
    in settings.json: with a PreToolUse hook of the person's own there, a hook in
    settings.json would never run. Setup writes beside it; both run."""
    seen = agent.home / "seen.log"
    agent.settings(".factory/hooks.json", lambda h: h.update(PreToolUse=[
        {"matcher": "Execute", "hooks": [{"type": "command", "command": f"cat >> {seen}"}]}]))
    asked, _ = allowed(agent, sock)
    assert asked["questions"][0]["question"] == "Run this command?"
    assert (agent.work / "greeting.txt").read_text() == "hello-from-droid\n"
    assert "hello-from-droid" in seen.read_text(), "the person's own hook ran too"
