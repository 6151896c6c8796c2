"""`userq ssh`: agents on another host ask here, through a real `sshd` (Debian's
openssh-server) on a loopback port with keys of the test's own. The "host" is this
machine seen through sshd, with a socket path of its own (sshd's SetEnv gives its
sessions USERQ_SOCKET, as a host's own environment would); the hook "on the host"
runs with that path. The local server and a protocol answerer play this desk."""

import json
import os
import select
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from conftest import USERQ, Answerer, wait_until
from sshd import Sshd


@pytest.fixture
def host(tmp_path):
    """A host over SSH: its sshd, the key to reach it, the socket its sessions use."""
    sshd = Sshd(tmp_path)
    yield {"options": sshd.options, "socket": sshd.socket, "port": sshd.port, "sshd": sshd}
    sshd.stop()


def userq_ssh(sock, host, *extra):
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    return subprocess.Popen([USERQ, "ssh", "127.0.0.1", "--name", "devbox", *extra, "--", *host["options"]],
                            env=env, stderr=subprocess.PIPE, text=True)


@pytest.fixture
def forward(sock, host):
    """`userq ssh` forwarding to the host; at the end it is stopped as a person stops it
    (SIGTERM), and exits 0."""
    started = []

    def start():
        started.append(userq_ssh(sock, host))
        forwarded(host)
        return started[-1]

    yield start
    for bridge in started:
        bridge.send_signal(signal.SIGTERM)
        bridge.wait(10)
        assert bridge.returncode == 0, bridge.stderr.read()


def hook_on_host(host, hook_input):
    env = dict(os.environ, USERQ_SOCKET=str(host["socket"]))
    p = subprocess.Popen([USERQ, "hook", "claude-code"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    p.stdin.write(json.dumps(hook_input))
    p.stdin.close()
    return p


BASH = {"session_id": "s-remote", "cwd": "/srv/app", "hook_event_name": "PermissionRequest", "tool_name": "Bash",
        "tool_input": {"command": "systemctl restart app", "description": "Restart the app"}}


def decision(p, timeout=20):
    p.wait(timeout)
    assert p.returncode == 0, p.stderr.read()
    return json.loads(p.stdout.read())


def forwarded(host):
    """Waits for the host's socket to answer (the forward made)."""
    wait_until(host["sshd"].answers, "the forward on the host", timeout=20)


def ssh_child(parent):
    """The `ssh -R` process that holds the forward."""
    def find():
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    stat = Path("/proc/%s/stat" % pid).read_text()
                    cmdline = Path("/proc/%s/cmdline" % pid).read_bytes().split(b"\0")
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == parent.pid and b"ExitOnForwardFailure=yes" in cmdline:
                    return int(pid)
        return None
    return wait_until(find, "the forward's ssh", timeout=10)


def test_a_hook_on_the_host_is_answered_here_and_says_where_it_came_from(sock, host, forward):
    forward()
    person = Answerer(sock, name="person")
    hook = hook_on_host(host, BASH)
    offer = person.expect("questions/offer")
    request = offer["params"]["request"]
    assert request["context"] == {"project": "/srv/app", "session": "s-remote", "source": "Claude Code",
                                  "machine": "devbox", "description": "Restart the app"}
    person.reply(offer, {"answer": {"answers": [{"id": "permission", "selected": ["Allow"]}]}})
    assert decision(hook) == {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                                     "decision": {"behavior": "allow"}}}


def test_a_stale_socket_on_the_host_is_replaced(host, forward):
    host["socket"].parent.mkdir(mode=0o700, exist_ok=True)
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(host["socket"]))
    stale.close()  # a socket file nobody listens on, as a dropped forward leaves
    forward()  # made, and answering on the host


def test_the_connection_killed_mid_question_comes_back_and_the_ask_survives(sock, host, forward):
    bridge = forward()
    person = Answerer(sock, name="person")
    hook = hook_on_host(host, BASH)
    first = person.expect("questions/offer")
    person.reply(first, {"claim": True})
    os.kill(ssh_child(bridge), signal.SIGKILL)  # the connection drops mid-question
    person.expect("questions/withdraw")
    # The forward is made again, and the hook on the host asks again.
    again = person.expect("questions/offer", timeout=30)
    assert again["params"]["request"]["questions"][0]["question"] == "Run this command?"
    person.reply(again, {"answer": {"answers": [{"id": "permission", "selected": [], "custom": "not now"}]}})
    assert decision(hook)["hookSpecificOutput"]["decision"] == {"behavior": "deny", "message": "not now"}


def forward_commands(host):
    """The forward's commands running on the host (its sessions carry the host's socket
    in their environment), found by what they print once the forward is made."""
    marker = ("USERQ_SOCKET=%s" % host["socket"]).encode()
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path("/proc/%s/cmdline" % pid).read_bytes()
            environ = Path("/proc/%s/environ" % pid).read_bytes().split(b"\0")
            parent = int(Path("/proc/%s/stat" % pid).read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if b"userq-forwarded" in cmdline and marker in environ:
            found[int(pid)] = parent
    # A child the shell forks has its words until it runs its own program: one forward.
    return sorted(pid for pid, parent in found.items() if parent not in found)


def said(process, words, timeout=20):
    """Reads the process's stderr until it says `words`; fails naming them."""
    heard = b""
    deadline = time.time() + timeout
    while words.encode() not in heard:
        ready, _, _ = select.select([process.stderr], [], [], max(0, deadline - time.time()))
        if not ready:
            raise AssertionError("timed out waiting for %r; heard %r" % (words, heard))
        chunk = os.read(process.stderr.fileno(), 4096)
        if not chunk:
            raise AssertionError("the process ended before it said %r; heard %r" % (words, heard))
        heard += chunk


def test_a_dropped_forward_leaves_nothing_running_on_the_host(sock, host, forward):
    bridge = forward()
    said(bridge, "Forwarding")
    [first] = wait_until(lambda: forward_commands(host), "the forward's command on the host")
    dropped = ssh_child(bridge)
    # The host's end of the connection dies at once (as a host's sshd killed, or a
    # session reaped, leaves it): its command is told nothing but that its input ended.
    session = int(Path("/proc/%d/stat" % first).read_text().rsplit(")", 1)[1].split()[1])
    os.kill(session, signal.SIGKILL)
    wait_until(lambda: ssh_child(bridge) != dropped, "the forward's ssh to be started again", timeout=30)
    forwarded(host)  # and is made again
    [again] = wait_until(lambda: [p for p in forward_commands(host) if p != first], "the new forward's command")
    wait_until(lambda: forward_commands(host) == [again],
               "the dropped forward's command on the host to end, leaving only the new one's", timeout=20)
    bridge.send_signal(signal.SIGTERM)
    bridge.wait(10)
    wait_until(lambda: not forward_commands(host), "the forward's command on the host to end with it", timeout=20)


def test_a_forward_the_host_refuses_ends_with_ssh_s_words(sock, host):
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    bad = [o for o in host["options"]]
    bad[bad.index("-i") + 1] = "/nonexistent-key"
    out = subprocess.run([USERQ, "ssh", "127.0.0.1", "--", *bad, "-o", "BatchMode=yes", "-o", "PubkeyAuthentication=no"],
                         env=env, capture_output=True, text=True, timeout=30)
    assert out.returncode == 1
    assert "Permission denied" in out.stderr, out.stderr


def test_a_remembered_host_is_kept_forwarded_by_the_server_until_forgotten(tmp_path, host):
    local = tmp_path / "desk" / "userq.sock"
    local.parent.mkdir(mode=0o700)
    env = dict(os.environ, USERQ_SOCKET=str(local), USERQ_CONFIG_DIR=str(tmp_path / "desk-config"),
               USERQ_DATA_DIR=str(tmp_path / "desk-data"))
    said = subprocess.run([USERQ, "ssh", "127.0.0.1", "--name", "devbox", "--remember", "--", *host["options"]],
                          env=env, capture_output=True, text=True, check=True).stdout
    assert "remembered as devbox" in said and "userq ssh --forget devbox" in said
    listed = json.loads(subprocess.run([USERQ, "ssh", "--list"], env=env, capture_output=True, text=True,
                                       check=True).stdout)
    assert listed == [{"host": "127.0.0.1", "name": "devbox", "options": host["options"]}]
    server = subprocess.Popen([USERQ, "serve"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        forwarded(host)
        person = Answerer(local, name="person")
        hook = hook_on_host(host, BASH)
        offer = person.expect("questions/offer")
        assert offer["params"]["request"]["context"]["machine"] == "devbox"
        person.reply(offer, {"answer": {"answers": [{"id": "permission", "selected": ["Allow"]}]}})
        assert decision(hook)["hookSpecificOutput"]["decision"] == {"behavior": "allow"}

        subprocess.run([USERQ, "ssh", "--forget", "devbox"], env=env, check=True)
        wait_until(lambda: not host["sshd"].answers(), "the forward dropped once forgotten", timeout=15)
        again = subprocess.run([USERQ, "ssh", "--forget", "devbox"], env=env, capture_output=True, text=True)
        assert again.returncode == 1 and "no host named devbox" in again.stderr
    finally:
        server.terminate()
        server.wait(10)

