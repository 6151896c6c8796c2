"""OpenCode 2, which the registry here does not carry (npm has `opencode-ai` up to 1.18.33
and no `@opencode/cli`): the plugin `userq setup opencode` writes, loaded by a host
that gives it exactly what OpenCode 2's plugin documentation says a v2 plugin gets
(opencode2_host.mjs names the files), fed OpenCode 2's documented requests, and
checked against what OpenCode 2 reads back: the `evaluate` hook's `effect` and
`message`, and the form reply `opencode api POST /api/session/ID/form/ID/reply`
(OpenCode's CLI reference, `cli/commands.mdx`) with `{"answer": {...}}`."""

import json
import queue
import subprocess
import threading
from pathlib import Path

import pytest

from conftest import Answerer
from world import AGENTS, Person, agent  # noqa: F401 (a fixture)

HOST = Path(__file__).with_name("opencode2_host.mjs")
SHELL = {"sessionID": "ses_1", "agent": "build", "action": "shell", "resources": ["git push origin main"],
         "save": ["git push *"], "source": {"type": "tool", "messageID": "msg_1", "id": "call_1"}, "effect": "ask"}
FORM = {"id": "frm_1", "sessionID": "ses_1", "title": "Questions", "mode": "form",
        "metadata": {"kind": "question", "tool": {"messageID": "msg_1", "id": "call_2"}},
        "fields": [
            {"key": "q0", "title": "Colour", "description": "Which colour?", "type": "string", "custom": True,
             "options": [{"value": "Red", "label": "Red", "description": "warm"},
                         {"value": "Blue", "label": "Blue", "description": "cool"}]},
            {"key": "q1", "title": "Sizes", "description": "Which sizes?", "type": "multiselect", "custom": True,
             "options": [{"value": "S", "label": "S"}, {"value": "M", "label": "M"}, {"value": "L", "label": "L"}]}]}


class Host:
    """The plugin as OpenCode 2 loads it, in the agent's world."""

    def __init__(self, agent, env=None, *flags):
        plugin = agent.home / ".config" / "opencode" / "plugins" / "user-questions.js"
        self.p = subprocess.Popen([str(AGENTS / "node"), str(HOST), str(plugin), str(agent.work), *flags],
                                  env=dict(agent.env, **(env or {})), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        self.said = queue.Queue()
        threading.Thread(target=lambda: [self.said.put(json.loads(line)) for line in self.p.stdout],
                         daemon=True).start()
        assert self.next(10) == {"loaded": "user-questions"}, self.p.stderr.read()

    def send(self, command):
        self.p.stdin.write(json.dumps(command) + "\n")
        self.p.stdin.flush()

    def next(self, timeout=30):
        return self.said.get(timeout=timeout)

    def event(self, type, data):
        self.send({"event": {"type": type, "data": data}})
        assert self.next() == {"sent": type}

    def evaluate(self, request, timeout=30):
        self.send({"evaluate": request})
        return self.next(timeout)["evaluated"]

    def close(self):
        self.send({"close": True})
        assert self.next() == {"closed": True}
        self.p.wait(10)


@pytest.fixture
def host(agent):
    agent.env.update(XDG_CONFIG_HOME=str(agent.home / ".config"))
    agent.setup("opencode")
    made = []

    def start(env=None, *flags):
        made.append(Host(agent, env, *flags))
        return made[-1]

    yield start
    for h in made:
        if h.p.poll() is None:
            h.p.kill()


def test_a_command_allowed_here_is_allowed_in_opencode(agent, host, sock):
    asked, answered = Person(sock, name="person").answer_next({"id": "permission", "selected": ["Allow"]})
    evaluated = host().evaluate(SHELL)
    answered.join(5)
    q = asked["questions"][0]
    assert (q["question"], q["detail"]) == ("Run this command?", "```sh\ngit push origin main\n```")
    assert asked["context"]["source"] == "OpenCode"
    assert asked["context"]["project"] == str(agent.work)
    assert (evaluated["effect"], evaluated.get("message")) == ("allow", None)


def test_a_deny_with_a_reason_is_the_message_the_agent_reads(host, sock):
    _, answered = Person(sock, name="person").answer_next(
        {"id": "permission", "selected": [], "custom": "push to a branch instead"})
    evaluated = host().evaluate(SHELL)
    answered.join(5)
    assert (evaluated["effect"], evaluated["message"]) == ("deny", "push to a branch instead")


def test_what_opencode_would_not_ask_about_is_left_alone(host, sock):
    watcher = Answerer(sock, name="watcher")
    evaluated = host().evaluate(dict(SHELL, effect="allow"))
    assert evaluated["effect"] == "allow"
    assert watcher.call("questions/pending", {})["pending"] == []


def test_with_no_server_or_a_request_it_cannot_read_opencodes_own_prompt_stays(agent, host, tmp_path):
    gone = host({"USERQ_SOCKET": str(tmp_path / "nobody.sock")})
    assert gone.evaluate(SHELL) == SHELL
    # No action: the hook cannot read it, and OpenCode asks as it would have.
    garbled = {k: v for k, v in SHELL.items() if k != "action"}
    assert gone.evaluate(garbled) == garbled


def opencode_on_path(agent):
    """`opencode` as the plugin runs it for `opencode api`: here it writes down its
    arguments, one per line."""
    bin_dir = agent.home / "bin"
    bin_dir.mkdir()
    (bin_dir / "opencode").write_text('#!/bin/sh\nprintf "%%s\\n" "$@" > %s\n' % (agent.home / "api-call"))
    (bin_dir / "opencode").chmod(0o755)
    return {"PATH": "%s:%s" % (bin_dir, agent.env["PATH"])}


def test_its_question_form_is_answered_through_opencode_api(agent, host, sock):
    asked, answered = Person(sock, name="person").answer_next(
        {"id": "q0", "selected": ["Blue"]}, {"id": "q1", "selected": ["S", "L"], "custom": "XL"})
    h = host(opencode_on_path(agent))
    h.event("form.created", {"form": FORM})
    answered.join(10)
    assert [(q["header"], q["question"], q.get("multiSelect", False)) for q in asked["questions"]] == [
        ("Colour", "Which colour?", False), ("Sizes", "Which sizes?", True)]
    assert asked["questions"][0]["options"][1] == {"label": "Blue", "description": "cool"}
    call = agent.home / "api-call"
    for _ in range(100):
        if call.exists() and call.read_text().count("\n") == 5:
            break
        threading.Event().wait(0.1)
    method, verb, path, flag, body = call.read_text().splitlines()
    assert (method, verb, path, flag) == ("api", "POST", "/api/session/ses_1/form/frm_1/reply", "--data")
    assert json.loads(body) == {"answer": {"q0": "Blue", "q1": ["S", "L", "XL"]}}


def test_a_form_answered_in_opencode_first_is_withdrawn_here(agent, host, sock):
    person = Answerer(sock, name="person")
    h = host(opencode_on_path(agent))
    h.event("form.created", {"form": FORM})
    offer = person.expect("questions/offer", timeout=30)
    person.reply(offer, {"claim": True})
    h.event("form.replied", {"id": "frm_1", "sessionID": "ses_1", "answer": {"q0": "Red"}})
    withdrawn = person.expect("questions/withdraw", timeout=30)
    assert withdrawn["params"]["ask"] == offer["params"]["ask"]
    h.close()
    assert not (agent.home / "api-call").exists()


def test_a_form_that_is_not_the_question_tools_is_not_taken(host, sock):
    person = Answerer(sock, name="person")
    h = host()
    h.event("form.created", {"form": dict(FORM, id="frm_0", metadata={"kind": "other"})})
    h.event("form.created", {"form": FORM})
    offer = person.expect("questions/offer", timeout=30)
    assert offer["params"]["request"]["questions"][0]["question"] == "Which colour?"
    assert len(person.call("questions/pending", {})["pending"]) == 1


def test_a_host_without_the_permission_or_event_domain_still_loads_it(host):
    h = host(None, "--bare")
    h.close()
