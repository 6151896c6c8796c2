"""Figures of the hooks inside the real agents (their pinned CLIs in .tools/agents,
the model scripted as in tests/python/agents, whose helpers run each agent here):
  - the hook's own time, from the agent spawning `userq hook <agent>` to the decision
    it prints, when the person answers at once (a protocol answerer that claims and
    allows every offer);
  - the agent's whole run for one scripted shell command with the hook, beside the
    same run with the hook removed (`userq setup --remove`) and the command allowed by
    the agent's own configuration.
Medians and p95 over RUNS runs each, hooked and unhooked alternated so the machine's
noise falls on both. Usage: .tools/venv/bin/python benches/agent_hooks.py [agent...]"""

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
from models import Anthropic, ChatCompletions, Gemini, Responses, text, tool  # noqa: E402
from world import AGENTS, Agent, StreamSession  # noqa: E402
import test_codex  # noqa: E402
import test_copilot  # noqa: E402
import test_droid  # noqa: E402
import test_gemini  # noqa: E402
import test_opencode  # noqa: E402
import test_qwen  # noqa: E402

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


def command(n):
    return "echo %d > out-%d.txt" % (n, n)


def claude(agent, n, hooked):
    model = Anthropic([tool("Bash", {"command": command(n), "description": "write"}), text("done")])
    env = {"ANTHROPIC_BASE_URL": model.url, "ANTHROPIC_API_KEY": "scripted",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}
    argv = [str(AGENTS / "claude"), "-p", "go", "--output-format", "json"]
    return model, lambda: agent.run(argv + ([] if hooked else ["--allowedTools", "Bash"]), env)


def codex(agent, n, hooked):
    # Outside the project, where Codex's sandbox does not let it write without asking.
    target = agent.home / ("out-%d.txt" % n)
    call = {"cmd": "echo %d > %s" % (n, target)}
    if hooked:  # without a sandbox there is nothing to escalate from
        call.update(sandbox_permissions="require_escalated", justification="write")
    model = Responses([tool("exec_command", call), text("done")])
    argv, env = test_codex.codex(agent, model)
    if not hooked:
        argv = [a for a in argv if a not in ("--approve-for-me", "--dangerously-bypass-hook-trust")]
        argv.insert(argv.index("--json"), "--dangerously-bypass-approvals-and-sandbox")
    return model, lambda: agent.run(argv, env)


def gemini(agent, n, hooked):
    model = Gemini([tool("run_shell_command", {"command": command(n), "description": "write"}), text("done")])
    argv, env = test_gemini.gemini(agent, model, *([] if hooked else ["--approval-mode", "yolo"]))
    return model, lambda: agent.run(argv, env)


def copilot(agent, n, hooked):
    model = ChatCompletions([tool("bash", {"command": command(n), "description": "write"}), text("done")])
    argv, env = test_copilot.copilot(model)
    return model, lambda: agent.run(argv + ([] if hooked else ["--allow-all-tools"]), env)


def qwen(agent, n, hooked):
    model = ChatCompletions([tool("run_shell_command", {"command": command(n), "description": "write"}),
                             text("done")])

    def run():
        session = test_qwen.qwen(agent, model, "default" if hooked else "yolo")
        session.result()
    return model, run


def droid(agent, n, hooked):
    model = ChatCompletions([tool("Execute", {"command": command(n), "summary": "write", "riskLevel": "medium",
                                              "riskLevelReason": "writes a file"}), text("done")])
    return model, lambda: test_droid.droid(agent, model, "low" if hooked else "medium")


def opencode(agent, n, hooked):
    model = ChatCompletions([tool("bash", {"command": command(n), "description": "write"}), text("done")])
    server = test_opencode.OpenCode(agent, model, "ask" if hooked else "allow")

    def run():
        try:
            server.prompt("go")
        finally:
            server.close()
    return model, run


def xdg(agent):
    agent.env.update(XDG_CONFIG_HOME=str(agent.home / ".config"), XDG_DATA_HOME=str(agent.home / ".local/share"),
                     XDG_CACHE_HOME=str(agent.home / ".cache"), XDG_STATE_HOME=str(agent.home / ".local/state"))


# (the name on the command line, how one run goes, what the agent's world needs, the
# files setup writes the hook's command into, how the agent names its version)
BENCHES = [
    ("claude-code", claude, None, [".claude/settings.json"], ["claude", "--version"]),
    ("codex", codex, None, [".codex/hooks.json"], ["codex", "--version"]),
    ("gemini", gemini, None, [".gemini/settings.json"], ["gemini", "--version"]),
    ("copilot", copilot, None, [".copilot/hooks/user-questions.json"], ["copilot", "--version"]),
    ("qwen", qwen, None, [".qwen/settings.json"], ["qwen", "--version"]),
    ("droid", droid, None, [".factory/hooks.json"], [str(test_droid.DROID), "--version"]),
    ("opencode", opencode, xdg, [".config/opencode/plugins/user-questions.js"], ["opencode", "--version"]),
]


def hook(agent, name, files):
    """Sets the hook up, run through a stand-in `userq` that logs when the agent
    spawned it and when it had printed its decision (its name keeps it setup's own)."""
    agent.setup(name)
    timed = agent.home / "timed"
    timed.mkdir(exist_ok=True)
    wrapper = timed / "userq"
    log = agent.home / "hook-times"
    wrapper.write_text('#!/bin/sh\nstart=$(date +%%s%%N)\n%s "$@"\nstatus=$?\nend=$(date +%%s%%N)\n'
                       '[ "$1" = hook ] && echo "$start $end" >> %s\nexit $status\n' % (USERQ, log))
    wrapper.chmod(0o755)
    for rel in files:
        path = agent.home / rel
        path.write_text(path.read_text().replace(str(USERQ) + " hook", str(wrapper) + " hook")
                        .replace('"%s"' % USERQ, '"%s"' % wrapper))
    return log


def unhook(agent, name):
    out = subprocess.run([USERQ, "setup", name, "--remove"], env=agent.env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def once(agent, bench, n, hooked):
    _, run, _, _, _ = bench
    model, go = run(agent, n, hooked)
    started = time.perf_counter()
    out = go()
    took = time.perf_counter() - started
    model.close()
    if hasattr(out, "returncode"):
        assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    written = [agent.work / ("out-%d.txt" % n), agent.home / ("out-%d.txt" % n)]
    assert any(p.exists() for p in written), "the command did not run (%s, hooked: %s)" % (bench[0], hooked)
    return took


def measure(tmp, sock, bench):
    name, _, prepare, files, version_argv = bench
    (tmp / name).mkdir()
    agent = Agent(tmp / name, sock)
    if prepare:
        prepare(agent)
    version_argv = [str(AGENTS / version_argv[0]) if "/" not in version_argv[0] else version_argv[0],
                    *version_argv[1:]]
    version = subprocess.run(version_argv, capture_output=True, text=True, env=agent.env).stdout.strip()
    version = version.splitlines()[0] if version else "?"
    with_hook, without = [], []
    log = None
    for n in range(RUNS):
        log = hook(agent, name, files)
        with_hook.append(once(agent, bench, 2 * n, True))
        unhook(agent, name)
        without.append(once(agent, bench, 2 * n + 1, False))
    spans = [(int(e) - int(s)) / 1e6 for s, e in (line.split() for line in log.read_text().splitlines())]
    print("%s (%s), %d runs each" % (name, version, RUNS))
    print("  hook spawn -> decision, answered at once: median %.1f ms, p95 %.1f ms (%d hooks)"
          % (statistics.median(spans), p95(spans), len(spans)))
    print("  whole run with the hook: median %.0f ms, p95 %.0f ms; hook removed, the command allowed by the agent: "
          "median %.0f ms, p95 %.0f ms; ratio of medians %.2f"
          % (1000 * statistics.median(with_hook), 1000 * p95(with_hook), 1000 * statistics.median(without),
             1000 * p95(without), statistics.median(with_hook) / statistics.median(without)))
    sys.stdout.flush()


def main():
    tmp = Path(tempfile.mkdtemp())
    sock = tmp / "userq.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_DATA_DIR=str(tmp / "data"))
    server = subprocess.Popen([USERQ, "serve"], env=env, stderr=subprocess.DEVNULL)
    while not listening(sock):
        time.sleep(0.01)
    wanted = sys.argv[1:]
    try:
        Allower(sock)
        for bench in BENCHES:
            if not wanted or bench[0] in wanted:
                measure(tmp, sock, bench)
    finally:
        server.terminate()
        server.wait(5)


if __name__ == "__main__":
    main()
