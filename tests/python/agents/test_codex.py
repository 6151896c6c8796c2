"""Codex itself (`codex exec`, pinned), with only the model scripted through a model
provider of the test's own: `userq setup codex` writes the hook, Codex asks through
its PermissionRequest hook when a command wants out of the sandbox, and what it does
next is read from what it sends the model."""

import json

from models import Responses, function_outputs, text, tool
from world import AGENTS, Person, agent  # noqa: F401 (a fixture)


def codex(agent, model):
    config = agent.home / ".codex" / "config.toml"
    config.write_text(
        'model = "gpt-test"\nmodel_provider = "scripted"\n' + config.read_text()
        + '\n[model_providers.scripted]\nname = "scripted"\nbase_url = "%s/v1"\nwire_api = "responses"\n'
        'env_key = "SCRIPTED_KEY"\n' % model.url)
    # `exec` never asks unless a reviewer is on; hooks it has not been told to trust
    # are skipped (a person trusts them in Codex's /hooks).
    argv = [str(AGENTS / "codex"), "exec", "--approve-for-me", "--dangerously-bypass-hook-trust",
            "--skip-git-repo-check", "--json", "greet"]
    return argv, {"SCRIPTED_KEY": "scripted"}


ESCALATE = tool("exec_command", {"cmd": "echo hello-from-codex > %s && cat %s",
                                 "sandbox_permissions": "require_escalated",
                                 "justification": "Write the greeting outside the sandbox"})


def script(agent, then):
    target = agent.home / "greeting.txt"  # outside the project: the sandbox does not let it write there
    step = dict(ESCALATE, args=dict(ESCALATE["args"], cmd=ESCALATE["args"]["cmd"] % (target, target)))
    return Responses([step, then]), target


def test_a_command_allowed_runs_and_the_model_reads_its_output(agent, sock):
    agent.setup("codex")
    model, target = script(agent, text("done"))
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "permission", "selected": ["Allow"]})
    argv, env = codex(agent, model)
    out = agent.run(argv, env)
    answered.join(5)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    q = asked["questions"][0]
    assert q["question"] == "Run this command?"
    assert q["detail"].startswith("Write the greeting outside the sandbox\n\n```sh\necho hello-from-codex")
    assert asked["context"]["source"] == "Codex"
    assert target.read_text() == "hello-from-codex\n"
    outputs = function_outputs(model.main_requests()[-1])
    assert any("hello-from-codex" in json.dumps(o) for o in outputs), outputs


def test_a_command_denied_does_not_run_and_the_model_reads_the_reason(agent, sock):
    agent.setup("codex")
    model, target = script(agent, text("understood"))
    person = Person(sock, name="person")
    _, answered = person.answer_next({"id": "permission", "selected": [], "custom": "keep it in the project"})
    argv, env = codex(agent, model)
    out = agent.run(argv, env)
    answered.join(5)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert not target.exists()
    outputs = function_outputs(model.main_requests()[-1])
    assert any("keep it in the project" in json.dumps(o) for o in outputs), outputs


def test_with_no_server_codex_goes_on_by_its_own_rules(agent, tmp_path):
    agent.setup("codex")
    agent.env["USERQ_SOCKET"] = str(tmp_path / "nobody.sock")
    model, target = script(agent, text("ok"))
    argv, env = codex(agent, model)
    out = agent.run(argv, env)
    # No decision from the hook: Codex's own reviewer decides (here it denies).
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert not target.exists()
    assert any("guardian_review" in r["headers"].get("x-codex-turn-metadata", "") for r in model.requests)
