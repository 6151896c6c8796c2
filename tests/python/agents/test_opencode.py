"""OpenCode itself (pinned), with only the model scripted (an OpenAI-compatible
provider in the project's opencode.json): `userq setup opencode` writes its plugin,
OpenCode loads it, and the plugin hands each permission request and question to
`userq hook opencode` and replies through OpenCode's API. OpenCode runs as
`opencode serve` driven over its HTTP API, as its desktop and editor clients run it
(`opencode run` rejects every permission request itself before anyone can answer)."""

import json
import os
import subprocess
import time
import urllib.request

import pytest

from conftest import free_port
from models import ChatCompletions, text, tool, tool_messages
from world import AGENTS, Person, agent  # noqa: F401 (a fixture)

GREET = tool("bash", {"command": "echo hello-from-opencode > greeting.txt && cat greeting.txt",
                      "description": "Write a greeting"})


class OpenCode:
    """`opencode serve` in the agent's world, its model the scripted one."""

    def __init__(self, agent, model, bash="ask"):
        config = {"$schema": "https://opencode.ai/config.json", "model": "scripted/scripted",
                  "small_model": "scripted/scripted", "autoupdate": False, "share": "disabled",
                  "provider": {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
                                            "options": {"baseURL": model.url + "/v1", "apiKey": "scripted"},
                                            "models": {"scripted": {"name": "Scripted", "tool_call": True}}}},
                  "permission": {"bash": bash}}
        (agent.work / "opencode.json").write_text(json.dumps(config))
        # The plugins' own dependency, in place as OpenCode would install it, from
        # the pinned copy, and in its lock, which is what OpenCode checks before it
        # installs (and makes plugins wait for the registry).
        opencode_config = agent.home / ".config" / "opencode"
        (opencode_config / "node_modules" / "@opencode-ai").mkdir(parents=True, exist_ok=True)
        plugin = opencode_config / "node_modules" / "@opencode-ai" / "plugin"
        if not plugin.exists():
            plugin.symlink_to(AGENTS.parent / "@opencode-ai" / "plugin")
        dependencies = {"dependencies": {"@opencode-ai/plugin": "1.18.33"}}
        (opencode_config / "package.json").write_text(json.dumps(dependencies))
        (opencode_config / "package-lock.json").write_text(json.dumps({"packages": {"": dependencies}}))
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        env = dict(agent.env, OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_MODELS_FETCH="1",
                   OPENCODE_DISABLE_LSP_DOWNLOAD="1", OPENCODE_DISABLE_SHARE="1", OPENCODE_DISABLE_CLAUDE_CODE="1")
        self.log = open(agent.home / "opencode.log", "w+")
        self.p = subprocess.Popen([str(AGENTS / "opencode"), "serve", "--hostname", "127.0.0.1", "--port",
                                   str(self.port)], cwd=agent.work, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            try:
                self.call("GET", "/session", timeout=1)
                break
            except OSError:
                if time.time() > deadline or self.p.poll() is not None:
                    raise AssertionError("opencode serve never listened: " + self.said())
                time.sleep(0.2)

    def said(self):
        self.log.seek(0)
        return self.log.read()[-3000:]

    def call(self, method, path, body=None, timeout=10):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=timeout) as r:
            raw = r.read()
            return json.loads(raw) if raw else None

    def prompt(self, words, timeout=120):
        """A new session given `words`; returns once OpenCode has finished with them."""
        session = self.call("POST", "/session", {})["id"]
        return self.call("POST", "/session/%s/message" % session,
                         {"parts": [{"type": "text", "text": words}]}, timeout=timeout)

    def close(self):
        self.p.terminate()
        try:
            self.p.wait(15)
        except subprocess.TimeoutExpired:
            self.p.kill()
        self.log.close()


@pytest.fixture
def opencode(agent):
    agent.env.update(XDG_CONFIG_HOME=str(agent.home / ".config"), XDG_DATA_HOME=str(agent.home / ".local/share"),
                     XDG_CACHE_HOME=str(agent.home / ".cache"), XDG_STATE_HOME=str(agent.home / ".local/state"))
    running = []

    def start(model):
        running.append(OpenCode(agent, model))
        return running[-1]

    yield start
    for o in running:
        o.close()


def test_a_command_allowed_runs_and_the_model_reads_its_output(agent, opencode, sock):
    agent.setup("opencode")
    assert (agent.home / ".config" / "opencode" / "plugins" / "user-questions.js").exists()
    model = ChatCompletions([GREET, text("done")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "permission", "selected": ["Allow"]})
    server = opencode(model)
    server.prompt("greet")
    answered.join(5)
    q = asked["questions"][0]
    # OpenCode's request carries the command, not the model's description of it.
    assert (q["question"], q["detail"]) == (
        "Run this command?", "```sh\necho hello-from-opencode > greeting.txt && cat greeting.txt\n```"), server.said()
    assert [o["label"] for o in q["options"]][0] == "Allow"
    assert asked["context"]["source"] == "OpenCode"
    assert asked["context"]["project"] == str(agent.work)
    assert (agent.work / "greeting.txt").read_text() == "hello-from-opencode\n"
    results = tool_messages(model.main_requests()[-1])
    assert any("hello-from-opencode" in json.dumps(r) for r in results), results


def test_a_command_denied_with_a_reason_does_not_run_and_the_model_reads_it(agent, opencode, sock):
    agent.setup("opencode")
    model = ChatCompletions([GREET, text("understood")])
    person = Person(sock, name="person")
    _, answered = person.answer_next({"id": "permission", "selected": [], "custom": "use printf instead"})
    opencode(model).prompt("greet")
    answered.join(5)
    assert not (agent.work / "greeting.txt").exists()
    results = tool_messages(model.main_requests()[-1])
    assert any("use printf instead" in json.dumps(r) for r in results), results


def test_its_question_tool_is_answered_in_our_form(agent, opencode, sock):
    agent.setup("opencode")
    ask = tool("question", {"questions": [
        {"question": "Which colour?", "header": "Colour",
         "options": [{"label": "Red", "description": "warm"}, {"label": "Blue", "description": "cool"}]},
        {"question": "Which sizes?", "header": "Sizes", "multiple": True,
         "options": [{"label": "S", "description": "small"}, {"label": "M", "description": "medium"},
                     {"label": "L", "description": "large"}]}]})
    model = ChatCompletions([ask, text("noted")])
    person = Person(sock, name="person")
    asked, answered = person.answer_next({"id": "q1", "selected": ["Blue"]},
                                         {"id": "q2", "selected": ["S", "L"], "custom": "XL too"})
    opencode(model).prompt("pick")
    answered.join(5)
    assert [(q["header"], q["question"], q.get("multiSelect", False)) for q in asked["questions"]] == [
        ("Colour", "Which colour?", False), ("Sizes", "Which sizes?", True)]
    assert asked["questions"][0]["options"][1] == {"label": "Blue", "description": "cool"}
    results = json.dumps(tool_messages(model.main_requests()[-1]))
    assert "Blue" in results and "S, L, XL too" in results, results
