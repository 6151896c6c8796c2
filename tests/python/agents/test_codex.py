"""Codex itself (`codex exec`, pinned), with only the model scripted through a model
provider of the test's own: `userq setup codex` writes the hook, Codex asks through
its PermissionRequest hook when a command wants out of the sandbox, and what it does
next is read from what it sends the model."""

import json
import subprocess

from conftest import USERQ
from models import Responses, function_outputs, text, tool
from world import (  # noqa: F401 (agent: a fixture)
    AGENTS, Person, a_project_file_decides_only_while_trusted, agent, allowing_for_the_session,
    only_the_read_only_rule_is_left)


def codex(agent, model):
    # The model provider as command-line overrides of config.toml, which stays setup's.
    provider = '{name = "scripted", base_url = "%s/v1", wire_api = "responses", env_key = "SCRIPTED_KEY"}' % model.url
    overrides = ["-c", 'model="gpt-test"', "-c", 'model_provider="scripted"', "-c", "model_providers.scripted=" + provider]
    # `exec` never asks unless a reviewer is on; hooks it has not been told to trust
    # are skipped (a person trusts them in Codex's /hooks).
    argv = [str(AGENTS / "codex"), "exec", *overrides, "--approve-for-me", "--dangerously-bypass-hook-trust",
            "--skip-git-repo-check", "--json", "greet"]
    return argv, {"SCRIPTED_KEY": "scripted"}


ESCALATE = tool("exec_command", {"cmd": "echo hello-from-codex > %s && cat %s",
                                 "sandbox_permissions": "require_escalated",
                                 "justification": "Write the greeting outside the sandbox"},
                say="The greeting goes in your home folder, outside the sandbox.")


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
    assert q["detail"].startswith("```sh\necho hello-from-codex")
    # The model's justification is the agent's own words on the request.
    assert asked["context"]["description"] == "Write the greeting outside the sandbox"
    # And its message before the call, from the end of the rollout Codex names.
    assert asked["context"]["lastMessage"] == "The greeting goes in your home folder, outside the sandbox.", asked["context"]
    assert asked["context"]["source"] == "Codex"
    assert target.read_text() == "hello-from-codex\n"
    outputs = function_outputs(model.main_requests()[-1])
    assert any("hello-from-codex" in json.dumps(o) for o in outputs), outputs


def test_a_command_the_rules_allow_runs_without_the_person(agent, sock):
    agent.setup("codex")
    agent.rules("allow", "echo")
    agent.rules("allow", "--read-only")
    agent.rules("allow", "--edit", str(agent.home / "greeting.txt"))
    model, target = script(agent, text("done"))
    # Nobody answers on the socket: only the rules can let it run.
    argv, env = codex(agent, model)
    out = agent.run(argv, env)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert target.read_text() == "hello-from-codex\n"


def test_a_command_a_rule_denies_does_not_run_and_the_model_reads_the_rules_reason(agent, sock):
    agent.setup("codex")
    agent.rules("deny", "echo", "--reason", "no greetings from codex")
    model, target = script(agent, text("understood"))
    argv, env = codex(agent, model)
    out = agent.run(argv, env)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert not target.exists()
    outputs = function_outputs(model.main_requests()[-1])
    assert any("no greetings from codex" in json.dumps(o) for o in outputs), outputs


def refused(agent, sock, model, reason):
    """Runs Codex on `model` while the person says no with `reason`: what was asked,
    and the function outputs the model got last."""
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "permission", "selected": [], "custom": reason})
    argv, env = codex(agent, model)
    out = agent.run(argv, env)
    answered.join(5)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return asked, function_outputs(model.main_requests()[-1])


def escalated(command):
    """The scripted model's call for `command`, asking to run outside the sandbox."""
    return dict(ESCALATE, args=dict(ESCALATE["args"], cmd=command))


def test_a_part_no_rule_allows_reaches_the_person(agent, sock):
    agent.setup("codex")
    agent.rules("allow", "echo")
    agent.rules("allow", "--read-only")
    agent.rules("allow", "--edit", str(agent.home / "greeting.txt"))
    (agent.work / "target").mkdir()
    command = "echo hi > %s && rm -rf target" % (agent.home / "greeting.txt")
    asked, outputs = refused(agent, sock, Responses([escalated(command), text("understood")]), "keep target")
    assert command in asked["questions"][0]["detail"]
    assert (agent.work / "target").is_dir()
    assert any("keep target" in json.dumps(o) for o in outputs), outputs


def test_a_denied_command_behind_a_wrapper_is_refused_with_the_rules_reason(agent, sock):
    agent.setup("codex")
    agent.rules("deny", "sudo", "--reason", "nothing runs as root here")
    model = Responses([escalated("timeout 5 sudo touch /root-owned"), text("understood")])
    # Nobody answers on the socket: the rule alone refuses it.
    argv, env = codex(agent, model)
    out = agent.run(argv, env)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    outputs = function_outputs(model.main_requests()[-1])
    assert any("nothing runs as root here" in json.dumps(o) for o in outputs), outputs


def test_a_deny_holds_with_approvals_and_the_sandbox_bypassed(agent, sock):
    """With --dangerously-bypass-approvals-and-sandbox Codex asks no one and never
    reaches PermissionRequest: the deny is refused at PreToolUse with the rule's reason."""
    agent.setup("codex")
    agent.rules("deny", "sudo", "--reason", "nothing runs as root here")
    ran = agent.work / "sudo-ran.txt"
    model = Responses([tool("exec_command", {"cmd": "timeout 5 sudo id > %s" % ran}), text("understood")])
    argv, env = codex(agent, model)
    argv = [a for a in argv if a != "--approve-for-me"]
    argv.insert(argv.index("exec") + 1, "--dangerously-bypass-approvals-and-sandbox")
    out = agent.run(argv, env)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert not ran.exists()
    outputs = function_outputs(model.main_requests()[-1])
    assert any("nothing runs as root here" in json.dumps(o) for o in outputs), outputs


def test_a_project_rules_file_allows_only_while_trusted(agent, sock):
    agent.setup("codex")
    made = agent.home / "made.txt"  # outside the sandbox, so Codex asks each time

    def run():
        argv, env = codex(agent, Responses([escalated("touch %s" % made), text("ok")]))
        out = agent.run(argv, env)
        assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]

    a_project_file_decides_only_while_trusted(agent, sock, run, made)


def test_allow_for_this_session_lets_its_next_command_run_and_ends_with_the_session(agent, sock):
    agent.setup("codex")
    agent.rules("allow", "--read-only")
    made = agent.home / "made.txt"
    model, _ = script(agent, escalated("touch %s" % made))
    model.script.append(text("done"))
    person = Person(sock, name="person")
    thread = allowing_for_the_session(agent, person)
    argv, env = codex(agent, model)
    out = agent.run(argv, env)
    thread.join(5)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    # The next command ran on the session's rule, with nobody asked.
    assert made.exists()
    assert person.messages.empty(), person.messages.get()
    # Codex's SessionEnd, as `codex exec` ends, took the session's rule out.
    only_the_read_only_rule_is_left(agent)


def test_a_command_denied_does_not_run_and_the_model_reads_the_reason(agent, sock):
    agent.setup("codex")
    model, target = script(agent, text("understood"))
    _, outputs = refused(agent, sock, model, "keep it in the project")
    assert not target.exists()
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


def app_server(agent, *requests):
    """`codex app-server` asked `requests` (JSON-RPC lines, as Codex's own TUI asks
    it); the answers to the ones with an id."""
    p = subprocess.Popen([str(AGENTS / "codex"), "app-server"], cwd=agent.work, env=agent.env, text=True,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    hello = {"id": 0, "method": "initialize", "params": {"clientInfo": {"name": "test", "version": "0"}}}
    answers = {}
    for request in [hello, {"method": "initialized"}, *requests]:
        p.stdin.write(json.dumps(request) + "\n")
        p.stdin.flush()
        while "id" in request and request["id"] not in answers:
            message = json.loads(p.stdout.readline())
            if "id" in message:
                answers[message["id"]] = message
    p.stdin.close()
    p.wait(10)
    return answers


def doctor(agent):
    out = subprocess.run([USERQ, "doctor", "--json"], cwd=agent.work, env=agent.env, capture_output=True, text=True)
    report = json.loads(out.stdout)
    return out.returncode, next(a for a in report["agents"] if a["agent"] == "codex")


def test_doctor_says_whether_codex_trusts_the_hook_as_codex_itself_does(agent, sock):
    agent.setup("codex")
    code, codex_report = doctor(agent)
    assert (code, codex_report["hooks"], codex_report["trust"]) == (1, "current", "untrusted"), codex_report
    listed = app_server(agent, {"id": 1, "method": "hooks/list", "params": {"cwds": [str(agent.work)]}})
    ours = {h["eventName"]: h for h in listed[1]["result"]["data"][0]["hooks"] if h["command"].endswith(" hook codex")}
    assert sorted(ours) == ["permissionRequest", "preToolUse", "sessionEnd"], ours

    def trust(hook):
        """As Codex's own "Trust" does."""
        trusted = app_server(agent, {"id": 1, "method": "config/batchWrite", "params": {
            "edits": [{"keyPath": "hooks.state", "value": {hook["key"]: {"trusted_hash": hook["currentHash"]}},
                       "mergeStrategy": "upsert"}], "reloadUserConfig": True}})
        assert trusted[1]["result"]["status"] == "ok", trusted

    # Two of the three trusted: a session's rules would not end with it, and doctor says so.
    trust(ours["permissionRequest"])
    trust(ours["preToolUse"])
    code, codex_report = doctor(agent)
    assert (code, codex_report["trust"]) == (1, "untrusted"), codex_report
    trust(ours["sessionEnd"])
    code, codex_report = doctor(agent)
    assert (code, codex_report["trust"]) == (0, "trusted"), codex_report
    assert codex_report["version"].startswith("codex-cli 0.171"), codex_report


def test_setup_trusts_the_hook_in_codex_only_when_asked_and_says_what_it_trusts(agent, sock):
    out = agent.setup("codex")
    assert "userq setup codex --trust" in out, out
    code, codex_report = doctor(agent)
    assert codex_report["trust"] == "untrusted", codex_report
    out = agent.setup("codex", "--trust")
    hook = f"{USERQ.resolve()} hook codex"
    for event in ("permissionRequest", "preToolUse", "sessionEnd"):
        assert f"Trusting in Codex: the {event} hook `{hook}` from {agent.home / '.codex' / 'hooks.json'} (hash sha256:" in out, out
    assert "Codex trusts the hook and runs it" in out, out
    code, codex_report = doctor(agent)
    assert (code, codex_report["trust"]) == (0, "trusted"), codex_report
    # Trusted already: said, and nothing written again.
    config = (agent.home / ".codex" / "config.toml").read_text()
    assert agent.setup("codex", "--trust").strip().endswith("Codex trusts the hook and runs it")
    assert (agent.home / ".codex" / "config.toml").read_text() == config
