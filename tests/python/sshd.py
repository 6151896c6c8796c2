"""A host over SSH for the tests: a real `sshd` (Debian's openssh-server) on a loopback
port with keys of the test's own. The "host" is this machine seen through sshd, with a
socket path of its own (sshd's SetEnv gives its sessions USERQ_SOCKET, as a host's own
environment would). Used by tests/python/test_ssh.py and the desktop tests."""

import os
import shutil
import socket
import subprocess
import time

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


class Sshd:
    """`options` reach it with `ssh`; `socket` is the path its sessions ask on."""

    def __init__(self, folder):
        keys = folder / "keys"
        keys.mkdir(mode=0o700)
        for name in ("host", "client"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(keys / name)], check=True)
        shutil.copy(keys / "client.pub", keys / "authorized_keys")
        self.socket = folder / "host-runtime" / "userq.sock"
        self.port = _free_port()
        config = folder / "sshd_config"
        config.write_text("\n".join([
            "Port %d" % self.port, "ListenAddress 127.0.0.1", "HostKey %s" % (keys / "host"),
            "AuthorizedKeysFile %s" % (keys / "authorized_keys"), "PasswordAuthentication no",
            "KbdInteractiveAuthentication no", "UsePAM no", "StrictModes no", "PermitRootLogin prohibit-password",
            "AllowStreamLocalForwarding yes", "PidFile %s" % (folder / "sshd.pid"),
            "SetEnv USERQ_SOCKET=%s" % self.socket, "LogLevel ERROR", ""]))
        os.makedirs("/run/sshd", exist_ok=True)  # sshd's privilege separation folder, when run as root
        self.process = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 10
        while not _listening(self.port):
            if time.time() > deadline:
                raise RuntimeError("sshd did not listen: " + (self.process.stderr.read() if self.process.poll() else ""))
            time.sleep(0.05)
        self.options = ["-p", str(self.port), "-i", str(keys / "client"), "-o", "StrictHostKeyChecking=no",
                        "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes"]

    def answers(self):
        """Whether the host's socket answers (a forward is in place)."""
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(str(self.socket))
            s.close()
            return True
        except OSError:
            return False

    def stop(self):
        """sshd and every session it serves (they outlive the listener otherwise)."""
        for pid in [*_descendants(self.process.pid), self.process.pid]:
            try:
                os.kill(pid, 15)
            except ProcessLookupError:
                pass
        self.process.wait(5)


def _descendants(parent):
    children = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = open(f"/proc/{pid}/stat").read()
        except OSError:
            continue
        children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(pid))
    found, todo = [], [parent]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found
