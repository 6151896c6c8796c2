"""The Matrix bridge's own account through `userq matrix`, against a real Synapse on a
loopback port (tests/python/homeserver.py): set up as a new device with cross-signing
and recovery, its keys kept by this user alone, seen by `status`, and taken away by
`leave`, which logs the device out on the homeserver; a wrong password, an
unreachable homeserver, an account whose identity another device made, and a setup
done twice, each a clear error that leaves nothing behind."""

import json
import os
import stat
import subprocess

import pytest

from conftest import USERQ, free_port
from homeserver import Homeserver


@pytest.fixture(scope="module")
def homeserver(tmp_path_factory):
    hs = Homeserver(tmp_path_factory.mktemp("synapse"))
    yield hs
    hs.stop()


class Desk:
    """`userq matrix` with a data folder of its own."""

    def __init__(self, folder):
        self.data = folder / "data"
        self.env = dict(os.environ, USERQ_DATA_DIR=str(self.data), USERQ_CONFIG_DIR=str(folder / "config"),
                        USERQ_SOCKET=str(folder / "userq.sock"), USERQ_LANG="en")
        self.folder = folder

    def matrix(self, *args):
        return subprocess.run([USERQ, "matrix", *args], env=self.env, capture_output=True, text=True, timeout=60)

    def password_file(self, password):
        path = self.folder / "password"
        path.write_text(password + "\n")
        return str(path)

    def init(self, homeserver, user, password):
        return self.matrix("init", homeserver.url, "--user", f"@{user}:{homeserver.server_name}",
                           "--password-file", self.password_file(password))


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_the_bridge_is_set_up_as_a_cross_signed_device_seen_and_taken_away(homeserver, tmp_path):
    homeserver.register("bridge", "s3cret-bridge")
    desk = Desk(tmp_path)
    out = desk.init(homeserver, "bridge", "s3cret-bridge")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("The bridge is set up as @bridge:localhost, device "), out.stdout
    device = lines[0].split("device ")[1].split(",")[0]
    key = [line.strip() for line in lines if line.startswith("    ")]
    assert len(key) == 1 and len(key[0].split()) == 12, f"one recovery key, in twelve groups: {out.stdout}"
    assert device in homeserver.devices("bridge", "s3cret-bridge"), "a device of its own on the homeserver"

    folder = desk.data / "matrix"
    assert mode(folder) == 0o700 and mode(folder / "store") == 0o700
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert files and all(mode(p) == 0o600 for p in files), [(p.name, oct(mode(p))) for p in files]
    assert all(key[0] not in p.read_bytes().decode("latin-1") for p in files), "the recovery key is kept nowhere"

    status = json.loads(desk.matrix("status", "--json").stdout)
    assert status == {"homeserver": homeserver.url, "reachable": True, "user": "@bridge:localhost",
                      "device": device, "crossSigned": True}, status
    words = desk.matrix("status").stdout
    assert "Cross-signed: yes" in words and device in words, words

    again = desk.init(homeserver, "bridge", "s3cret-bridge")
    assert again.returncode == 1 and "set up already (as @bridge:localhost)" in again.stderr, again.stderr

    out = desk.matrix("leave")
    assert out.returncode == 0, out.stderr
    assert out.stdout == "The bridge (@bridge:localhost) is logged out and its keys are removed.\n"
    assert not folder.exists()
    assert device not in homeserver.devices("bridge", "s3cret-bridge"), "logged out on the homeserver"
    out = desk.matrix("status")
    assert out.returncode == 1 and "the bridge is not set up" in out.stderr, out.stderr


def test_a_wrong_password_an_unreachable_homeserver_and_an_account_in_use_leave_nothing(homeserver, tmp_path):
    homeserver.register("someone", "right-password")
    desk = Desk(tmp_path)
    out = desk.init(homeserver, "someone", "wrong-password")
    assert out.returncode == 1, out.stdout
    assert out.stderr == "userq matrix: the homeserver refused the password of @someone:localhost\n"
    assert not (desk.data / "matrix").exists()

    nobody = f"http://127.0.0.1:{free_port()}"
    out = desk.matrix("init", nobody, "--user", "@someone:localhost", "--password-file", desk.password_file("x"))
    assert out.returncode == 1 and out.stderr.startswith(f"userq matrix: cannot reach the homeserver at {nobody}"), \
        out.stderr
    assert not (desk.data / "matrix").exists()

    for bad, said in [(["not a url"], "is not a homeserver URL"), (["--user", "bridge"], "is not a Matrix user id")]:
        args = ["init", homeserver.url, "--user", "@someone:localhost", "--password-file", desk.password_file("x")]
        if bad[0] == "--user":
            args[3] = bad[1]
        else:
            args[1] = bad[0]
        out = desk.matrix(*args)
        assert out.returncode == 1 and said in out.stderr, out.stderr
    out = desk.matrix("init", homeserver.url, "--user", "@someone:localhost", "--password-file", str(tmp_path / "none"))
    assert out.returncode == 2 and "cannot read the password file" in out.stderr, out.stderr

    # The person's own account, whose identity their phone made: the bridge will not take it over.
    other = Desk(tmp_path / "phone")
    (tmp_path / "phone").mkdir()
    assert other.init(homeserver, "someone", "right-password").returncode == 0
    before = homeserver.devices("someone", "right-password")
    out = desk.init(homeserver, "someone", "right-password")
    assert out.returncode == 1, out.stdout
    assert "@someone:localhost already has an identity (cross-signing keys) made on another device" in out.stderr
    assert homeserver.devices("someone", "right-password") == before, "its new device logged out again"
    assert not (desk.data / "matrix").exists()
