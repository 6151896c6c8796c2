"""Figures of the agents' hooks, inside tests/e2e/session (Xvfb, D-Bus, dunst), against
the real desktop app:
  - a `true` process spawned and reaped by this script: the floor of any hook;
  - `userq --version` spawned and reaped: the binary's own start-up;
  - `userq hook claude-code` spawned -> its question offered on the socket (the hook
    read its input, connected, checked the server's uid, entered its agent and asked),
    seen by a protocol answerer of higher priority that passes it on;
  - the same spawn -> the question visible in the window (read over WebDriver).
Each hook is then ended with SIGTERM, as an agent ends it, and its question leaves.
Usage: tests/e2e/session .tools/venv/bin/python benches/hook_figures.py"""

import json
import os
import queue
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from conftest import APP, DRIVER, USERQ, free_port, wait_for  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.options import ArgOptions  # noqa: E402

RUNS = 40
RELEASE = APP.parent.parent / "release"
BINARY = RELEASE / "user-questions" if (RELEASE / "user-questions").exists() else APP
HOOK_BIN = RELEASE / "userq" if (RELEASE / "userq").exists() else USERQ


class Watcher:
    """A protocol answerer ahead of the window: notes when each offer arrives, passes."""

    def __init__(self, sock):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(str(sock))
        self.f = self.s.makefile("rwb")
        self.offers = queue.Queue()
        self.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}})
        self.send({"jsonrpc": "2.0", "id": 2, "method": "answerers/register",
                   "params": {"name": "watch", "scope": "agents", "priority": 10}})
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, m):
        self.f.write(json.dumps(m).encode() + b"\n")
        self.f.flush()

    def _read(self):
        for line in self.f:
            m = json.loads(line)
            if m.get("method") == "questions/offer":
                self.offers.put((time.perf_counter(), m))
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": {"claim": False}})


def spawned(argv, **kw):
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, **kw)
    return time.perf_counter() - t0


def summary(name, xs, ref=None):
    xs = sorted(xs)
    med, p95 = statistics.median(xs), xs[int(len(xs) * 0.95) - 1]
    ratio = f"  ({med / ref:.1f}x the `true` floor)" if ref else ""
    print(f"{name}: median {med * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms{ratio}")
    return med


def main():
    sock_dir = tempfile.mkdtemp()
    sock = Path(sock_dir) / "userq.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_DATA_DIR=str(sock.parent / "data"), RUST_LOG="warn")
    print(f"app: {BINARY}\nhook: {HOOK_BIN}")
    port, native = free_port(), free_port()
    driver_proc = subprocess.Popen([DRIVER, "--port", str(port), "--native-port", str(native),
                                    "--native-driver", "/usr/bin/WebKitWebDriver"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": str(BINARY)})
    driver = wait_for(lambda: _try(lambda: webdriver.Remote(f"http://127.0.0.1:{port}", options=options)), "tauri-driver")
    wait_for(sock.exists, "the app's socket")
    watcher = Watcher(sock)
    time.sleep(0.5)

    floor, version, offered, visible = [], [], [], []
    for i in range(RUNS):
        floor.append(spawned(["true"]))
        version.append(spawned([HOOK_BIN, "--version"]))
        command = f"echo figure {i} {time.time_ns()}"
        hook_input = {"session_id": "figures", "cwd": "/tmp", "hook_event_name": "PermissionRequest",
                      "tool_name": "Bash", "tool_input": {"command": command}}
        t0 = time.perf_counter()
        hook = subprocess.Popen([HOOK_BIN, "hook", "claude-code"], env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        hook.stdin.write(json.dumps(hook_input).encode())
        hook.stdin.close()
        t_offer, _ = watcher.offers.get(timeout=10)
        offered.append(t_offer - t0)
        while not driver.execute_script(
                "return [...document.querySelectorAll('.detail code')].some(c => c.textContent.includes(arguments[0]))",
                command):
            if time.perf_counter() - t0 > 10:
                raise RuntimeError("the question never showed")
            time.sleep(0.002)
        visible.append(time.perf_counter() - t0)
        hook.send_signal(signal.SIGTERM)
        hook.wait(10)
        wait_for(lambda: driver.execute_script("return document.querySelectorAll('form.ask').length") == 0, "withdrawn")
        time.sleep(0.1)

    print(f"{RUNS} runs each, this script spawning and timing every process:")
    ref = summary("`true` spawned and reaped", floor)
    summary("`userq --version` spawned and reaped", version, ref)
    summary("`userq hook claude-code` spawned -> its question offered on the socket", offered, ref)
    summary("`userq hook claude-code` spawned -> its question visible in the window", visible, ref)
    driver.quit()
    driver_proc.terminate()


def _try(f):
    try:
        return f()
    except Exception:
        return None


if __name__ == "__main__":
    main()
