"""Figures of the hooks inside the real agents (their pinned CLIs in .tools/agents,
the model scripted as in tests/python/agents):
  - the hook's own time, from the agent spawning `userq hook <agent>` to the decision
    it prints, when the person answers at once (a protocol answerer that claims and
    allows every offer);
  - the agent's whole run for one scripted tool call with the hook, beside the same
    run with the hook removed and the tool allowed by the agent's own configuration.
Medians and p95 over RUNS runs each, alternated so the machine's noise falls on both.
Usage: .tools/venv/bin/python benches/agent_hooks.py"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "python"), str(ROOT / "tests" / "python" / "agents")]
from conftest import USERQ, Answerer, listening  # noqa: E402
from models import Anthropic, text, tool  # noqa: E402
from world import AGENTS, Agent  # noqa: E402

RUNS = int(os.environ.get("RUNS", "10"))


class Allower(Answerer):
    """Allows every offer at once."""

    def __init__(self, sock):
        super().__init__(sock, name="allower")
        threading.Thread(target=self.allow, daemon=True).start()

    def allow(self):
        while True:
            offer = self.messages.get()
            if offer.get("method") != "questions/offer":
                continue
            self.reply(offer, {"claim": True})
            q = offer["params"]["request"]["questions"][0]
            self.send({"jsonrpc": "2.0", "id": 1 << 29, "method": "questions/answer",
                       "params": {"ask": offer["params"]["ask"],
                                  "answer": {"answers": [{"id": q["id"], "selected": ["Allow"]}]}}})


def timed_hook(agent, name):
    """Wraps the hook setup wrote in a script that logs its spawn and exit times."""
    log = agent.home / "hook-times"
    wrapper = agent.home / "timed-hook"
    wrapper.write_text('#!/bin/sh\nstart=$(date +%%s%%N)\n%s hook %s\nend=$(date +%%s%%N)\n'
                       'echo "$start $end" >> %s\n' % (USERQ, name, log))
    wrapper.chmod(0o755)
    return wrapper, log


def claude_code(tmp, sock):
    agent = Agent(tmp, sock)
    agent.setup("claude-code")
    wrapper, log = timed_hook(agent, "claude-code")
    settings = agent.home / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace("%s hook claude-code" % USERQ, str(wrapper)))
    return agent, log


def run_claude(agent, hooked, n):
    model = Anthropic([tool("Bash", {"command": "echo %d > out-%d.txt" % (n, n), "description": "write"}),
                       text("done")])
    env = {"ANTHROPIC_BASE_URL": model.url, "ANTHROPIC_API_KEY": "scripted",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}
    argv = [str(AGENTS / "claude"), "-p", "go", "--output-format", "json"]
    if not hooked:
        argv += ["--settings", json.dumps({"hooks": {}, "disableAllHooks": True}), "--allowedTools", "Bash"]
    started = time.perf_counter()
    out = agent.run(argv, env)
    took = time.perf_counter() - started
    model.close()
    assert out.returncode == 0 and (agent.work / ("out-%d.txt" % n)).exists(), out.stdout + out.stderr
    return took


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def main():
    tmp = Path(tempfile.mkdtemp())
    sock = tmp / "userq.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_DATA_DIR=str(tmp / "data"))
    server = subprocess.Popen([USERQ, "serve"], env=env, stderr=subprocess.DEVNULL)
    while not listening(sock):
        time.sleep(0.01)
    try:
        Allower(sock)
        agent, log = claude_code(tmp, sock)
        version = subprocess.run([str(AGENTS / "claude"), "--version"], capture_output=True, text=True).stdout.strip()
        with_hook, without = [], []
        for n in range(RUNS):
            with_hook.append(run_claude(agent, True, 2 * n))
            without.append(run_claude(agent, False, 2 * n + 1))
        hook = [(int(e) - int(s)) / 1e6 for s, e in (line.split() for line in log.read_text().splitlines())]
        print("Claude Code %s, %d runs each" % (version, RUNS))
        print("  hook spawn -> decision (PermissionRequest, answered at once): median %.1f ms, p95 %.1f ms"
              % (statistics.median(hook), p95(hook)))
        print("  whole run with the hook:    median %.0f ms, p95 %.0f ms"
              % (1000 * statistics.median(with_hook), 1000 * p95(with_hook)))
        print("  whole run, hook removed, Bash allowed by Claude Code: median %.0f ms, p95 %.0f ms"
              % (1000 * statistics.median(without), 1000 * p95(without)))
        print("  ratio of medians (with / without): %.2f"
              % (statistics.median(with_hook) / statistics.median(without)))
    finally:
        server.terminate()
        server.wait(5)


if __name__ == "__main__":
    main()
