"""Fixtures of the Python tests: a real `userq serve` on a socket in a temp folder,
and a protocol answerer that speaks docs/protocol.md over that socket from a thread."""

import json
import os
import queue
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
USERQ = Path(os.environ.get("USERQ_BIN", ROOT / "target" / "debug" / "userq"))


@pytest.fixture
def sock(tmp_path):
    path = tmp_path / "userq.sock"
    # A config folder of its own: never the person's circle or remembered hosts.
    env = dict(os.environ, USERQ_SOCKET=str(path), USERQ_DATA_DIR=str(tmp_path / "data"),
               USERQ_CONFIG_DIR=str(tmp_path / "config"))
    server = subprocess.Popen([USERQ, "serve"], env=env, stderr=subprocess.DEVNULL)
    for _ in range(300):
        if listening(path):
            break
        time.sleep(0.01)
    else:
        raise RuntimeError("userq serve did not start")
    yield path
    server.terminate()
    server.wait(5)


def free_port():
    """A loopback TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(path):
    """True once the server accepts connections (its socket file appears a moment
    before it listens)."""
    probe = socket.socket(socket.AF_UNIX)
    try:
        probe.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        probe.close()


class Answerer:
    """Registers in the waterfall; offers and notifications land in `messages`."""

    def __init__(self, path, scope="any", name="py"):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(str(path))
        self.f = self.s.makefile("rwb")
        self.messages = queue.Queue()
        self.replies = queue.Queue()
        self.ids = iter(range(1, 1 << 30))
        threading.Thread(target=self._read, daemon=True).start()
        self.call("initialize", {"protocolVersion": 1, "client": {"name": name, "version": "1"}})
        self.call("answerers/register", {"name": name, "scope": scope})

    def _read(self):
        for line in self.f:
            m = json.loads(line)
            (self.messages if "method" in m else self.replies).put(m)

    def send(self, m):
        self.f.write(json.dumps(m).encode() + b"\n")
        self.f.flush()

    def call(self, method, params):
        self.send({"jsonrpc": "2.0", "id": next(self.ids), "method": method, "params": params})
        reply = self.replies.get(timeout=10)
        assert "error" not in reply, reply
        return reply["result"]

    def expect(self, method, timeout=10):
        m = self.messages.get(timeout=timeout)
        assert m["method"] == method, m
        return m

    def reply(self, offer, result):
        self.send({"jsonrpc": "2.0", "id": offer["id"], "result": result})


def wait_until(check, what, timeout=10):
    """Polls `check` until it returns something true; fails naming `what`."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


@pytest.fixture
def answerer(sock):
    made = []

    def make(scope="any", name="py"):
        a = Answerer(sock, scope, name)
        made.append(a)
        return a

    yield make
    for a in made:
        a.s.close()


class Asker:
    """An agent speaking docs/protocol.md on a connection of its own: it enters once
    and asks, one question at a time."""

    def __init__(self, path, agent_id, client="py"):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(str(path))
        self.f = self.s.makefile("rwb")
        self.n = 0
        self.call("initialize", {"protocolVersion": 1, "client": {"name": client, "version": "1"}})
        self.ref = self.call("agents/enter", {"id": agent_id})["result"]

    def call(self, method, params):
        self.n += 1
        self.f.write(json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params}).encode() + b"\n")
        self.f.flush()
        return json.loads(self.f.readline())

    def ask(self, question, options=("Yes", "No")):
        return self.call("ask", {"agent": self.ref, "questions": [
            {"id": "q", "question": question, "options": [{"label": o} for o in options]}]})

    def close(self):
        self.f.close()
        self.s.close()
