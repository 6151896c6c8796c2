"""Kimi Code itself (pinned, `kimi -p`), with only the model scripted through a
provider of the person's own in `~/.kimi-code/config.toml`: `userq setup kimi` writes
its PreToolUse hook, which can only refuse (Kimi Code's hooks documentation). A call a
rule denies is refused with the rule's reason, with or without a server; everything
else goes on by Kimi Code's own rules (`-p` runs it)."""

import json

from models import ChatCompletions, text, tool, tool_messages
from world import AGENTS, agent  # noqa: F401 (a fixture)

GREET = tool("Bash", {"command": "echo hello-from-kimi > greeting.txt"})


def kimi(agent, model):
    """Runs `kimi -p` on `model`, its provider written before setup's hook."""
    config = agent.home / ".kimi-code" / "config.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text(f'''default_model = "scripted"

[providers.scripted]
type = "openai"
base_url = "{model.url}/v1"
api_key = "scripted"

[models.scripted]
provider = "scripted"
model = "scripted"
max_context_size = 128000
''')
    out = agent.setup("kimi")
    assert "Kimi Code 2.1.0 found" in out, out
    run = agent.run([str(AGENTS / "kimi"), "-p", "greet", "--output-format", "stream-json"])
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return tool_messages(model.main_requests()[-1])


def test_a_command_a_rule_denies_is_refused_with_the_rules_reason_with_no_server(agent, tmp_path):
    agent.env["USERQ_SOCKET"] = str(tmp_path / "nobody.sock")
    agent.rules("deny", "echo", "--reason", "no greetings from kimi")
    results = kimi(agent, ChatCompletions([GREET, text("understood")]))
    assert not (agent.work / "greeting.txt").exists()
    assert any("no greetings from kimi" in json.dumps(r) for r in results), results


def test_sudo_behind_a_wrapper_is_refused_with_the_rules_reason(agent, sock):
    agent.rules("deny", "sudo", "--reason", "nothing runs as root here")
    wrapped = tool("Bash", {"command": "timeout 5 sudo touch /root-owned"})
    results = kimi(agent, ChatCompletions([wrapped, text("understood")]))
    assert any("nothing runs as root here" in json.dumps(r) for r in results), results


def test_what_no_rule_denies_goes_on_by_kimi_codes_own_rules(agent, sock):
    # An allow decides nothing here: the hook says nothing, and `kimi -p` runs it.
    agent.rules("allow", "echo")
    results = kimi(agent, ChatCompletions([GREET, text("done")]))
    assert (agent.work / "greeting.txt").read_text() == "hello-from-kimi\n"
    assert not any("User Questions" in json.dumps(r) for r in results), results


def test_a_file_edit_a_rule_denies_is_refused(agent, sock):
    agent.rules("deny", "--edit", "secrets/**", "--reason", "secrets are edited by hand")
    write = tool("Write", {"path": "secrets/key.txt", "content": "x\n"})
    results = kimi(agent, ChatCompletions([write, text("understood")]))
    assert not (agent.work / "secrets" / "key.txt").exists()
    assert any("secrets are edited by hand" in json.dumps(r) for r in results), results
