"""What the tests of the agents' own CLIs share: for driving the agents' own CLIs (installed by `make` into .tools/agents,
pinned in pins/agent-clis/package.json): a home of their own per test, `userq setup`
run in it as a person would, and the agent run against a scripted model."""

import json
import os
import queue
import subprocess
import threading
from pathlib import Path

import pytest

from conftest import ROOT, USERQ, Answerer

AGENTS = Path(os.environ.get("USERQ_AGENTS_BIN", ROOT / ".tools" / "agents" / "node_modules" / ".bin"))


class Agent:
    """One agent's world: a home, a project folder, and the environment it runs in."""

    def __init__(self, tmp_path, sock):
        self.home = tmp_path / "home"
        self.work = tmp_path / "project"
        self.home.mkdir()
        self.work.mkdir()
        self.env = dict(
            os.environ,
            HOME=str(self.home),
            USERQ_SOCKET=str(sock),
            PATH="%s:%s" % (AGENTS, os.environ["PATH"]),
        )
        assert AGENTS.is_dir(), "the agents' CLIs are installed by `make test`"

    def setup(self, agent, *flags):
        out = subprocess.run([USERQ, "setup", agent, *flags], env=self.env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout

    def rules(self, *args):
        """`userq rules ARGS` as the person of this home runs it."""
        out = subprocess.run([USERQ, "rules", *args], env=self.env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout

    def settings(self, rel, change):
        """Changes the agent's JSON settings file `rel` (under the home) with `change`,
        whether or not setup wrote one."""
        path = self.home / rel
        settings = json.loads(path.read_text()) if path.exists() else {}
        change(settings)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))

    def run(self, argv, env=None, timeout=120):
        return subprocess.run(
            argv, cwd=self.work, env=dict(self.env, **(env or {})), stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=timeout,
        )


@pytest.fixture
def agent(tmp_path, sock):
    return Agent(tmp_path, sock)


class StreamSession:
    """An agent headless in stream-json mode, the way SDKs run it (Claude Code with
    `--permission-prompt-tool stdio`: the only mode of `-p` in which AskUserQuestion
    and ExitPlanMode exist; Qwen Code: the only one in which its PermissionRequest
    fires). The session never answers a permission request itself, so only a hook can
    decide; it closes stdin once the result comes."""

    def __init__(self, argv, cwd, env, prompt):
        self.p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.done = threading.Event()
        self.send({"type": "user", "message": {"role": "user", "content": prompt},
                   "parent_tool_use_id": None, "session_id": ""})
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, message):
        self.p.stdin.write(json.dumps(message) + "\n")
        self.p.stdin.flush()

    def _read(self):
        for line in self.p.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            self.lines.append(message)
            if message.get("type") == "result":
                self.p.stdin.close()
                break
        self.done.set()

    def result(self, timeout=120):
        if not self.done.wait(timeout):
            self.p.kill()
            raise AssertionError("Claude Code never finished; it said %s and %s"
                                 % (self.lines[-5:], self.p.stderr.read()[-2000:]))
        self.p.wait(15)
        return next(m for m in self.lines if m.get("type") == "result")


class Person(Answerer):
    """The person at the window: answers the next question from a thread, so the
    agent can run in the test's own."""

    def answer_next(self, *items, expected=True, first=None):
        """Answers the next offer with `items`, having done `first(offer)` if given; with
        `expected` False, one that never comes is no fault (a person who would refuse
        what should not be asked)."""
        asked = {}

        def run():
            try:
                offer = self.expect("questions/offer", timeout=90)
            except queue.Empty:
                if expected:
                    raise
                return
            self.reply(offer, {"claim": True})
            if first:
                first(offer)
            self.call("questions/answer", {"ask": offer["params"]["ask"], "answer": {"answers": list(items)}})
            asked.update(offer["params"]["request"])

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return asked, thread


def a_project_file_decides_only_while_trusted(agent, sock, run, made):
    """A project's `.userq/rules.toml` allowing `touch`, while the agent's scripted model
    runs `touch MADE` (`run()` runs the agent once): untrusted, the person is asked (and
    says no); trusted, it runs with nobody asked; changed, it stops applying and the
    person is asked again."""
    rules = agent.work / ".userq" / "rules.toml"
    rules.parent.mkdir()
    rules.write_text('[[allow]]\ncommand = "touch"\n')
    person = Person(sock, name="person")

    def refused():
        asked, answered = person.answer_next({"id": "permission", "selected": [], "custom": "not yet"})
        run()
        answered.join(5)
        assert asked["questions"][0]["question"] == "Run this command?", asked
        assert not made.exists()

    refused()
    agent.rules("trust", str(agent.work))
    run()
    assert made.exists()
    assert person.messages.empty(), person.messages.get()
    made.unlink()
    rules.write_text(rules.read_text() + '\n[[allow]]\ncommand = "ls"\n')
    refused()


def only_the_sessions_rule_lets_it_run(agent, sock, session, run, made):
    """A rule allowing `touch` in agent session `session` alone, while the agent's
    scripted model runs `touch MADE` in that session (`run()`): it runs with nobody
    asked (a person who is asked says no), and once the agent's session has ended, its
    hook has taken the rule out."""
    agent.rules("allow", "touch", "--session", session)
    agent.rules("allow", "--read-only")
    person = Person(sock, name="person")
    asked, _ = person.answer_next({"id": "permission", "selected": [], "custom": "the session's rule should have decided"},
                                  expected=False)
    run()
    assert made.exists()
    assert not asked, asked
    only_the_read_only_rule_is_left(agent)


def allowing_for_the_session(agent, person):
    """The person answers the next ask as the window's "Allow for this session" does:
    a rule allowing `touch` in the asking agent's session, then Allow. Its thread."""
    def keep_the_sessions_rule(offer):
        agent.rules("allow", "touch", "--session", offer["params"]["request"]["context"]["session"])

    _, thread = person.answer_next({"id": "permission", "selected": ["Allow"]}, first=keep_the_sessions_rule)
    return thread


def only_the_read_only_rule_is_left(agent):
    """The agent's session has ended, and its hook took the session's rules out."""
    listed = [json.loads(line) for line in agent.rules("list", "--json").splitlines()]
    assert [r["rule"] for r in listed] == ["allow read-only"], listed
