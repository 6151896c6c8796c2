"""The Matrix bridge's own account and room through `userq matrix`, against a real
Synapse on a loopback port (tests/python/homeserver.py): set up as a new device with
cross-signing and recovery, its keys kept by this user alone, seen by `status`, and
taken away by `leave`, which logs the device out on the homeserver; a wrong password,
an unreachable homeserver, an account whose identity another device made, and a setup
done twice, each a clear error that leaves nothing behind. The room: invite-only and
encrypted as an invited person's client sees it, with the team's rule and delay; a
rule that cannot hold refused; an unencrypted room never adopted."""

import json
import os
import stat
import subprocess

import pytest

from conftest import USERQ, free_port
from homeserver import Desk, Homeserver


@pytest.fixture(scope="module")
def homeserver(tmp_path_factory):
    hs = Homeserver(tmp_path_factory.mktemp("synapse"))
    yield hs
    hs.stop()


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
    desk.env["USERQ_LANG"] = "zh-CN"
    out = desk.init(homeserver, "someone", "wrong-password")
    assert out.stderr == "userq matrix: 主服务器拒绝了 @someone:localhost 的密码\n", "in the person's language"
    desk.env["USERQ_LANG"] = "en"

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


def test_the_room_is_invite_only_and_encrypted_with_the_teams_rule(homeserver, tmp_path):
    homeserver.register("teambridge", "bridge-pw")
    alice = homeserver.account("alice", "alice-pw")
    homeserver.register("bob", "bob-pw")
    desk = Desk(tmp_path)
    out = desk.matrix("room", "--invite", "@alice:localhost")
    assert out.returncode == 1 and "the bridge is not set up" in out.stderr, out.stderr
    assert desk.init(homeserver, "teambridge", "bridge-pw").returncode == 0

    # A rule that cannot hold is refused before anything is made.
    for args, said in [
        (["--invite", "@alice:localhost", "--approvers", "@alice:localhost,@carol:localhost", "--quorum", "1"],
         "approver @carol:localhost is not in the room: add --invite @carol:localhost"),
        (["--invite", "@alice:localhost", "--approvers", "@alice:localhost", "--quorum", "2"],
         "--quorum 2 is more than the 1 approvers named"),
        (["--invite", "alice"], "alice is not a Matrix user id"),
        (["--invite", "@alice:localhost", "--invite", "@bob:localhost", "--approvers", "@alice:localhost",
          "--quorum", "1", "--desk", "@bob:localhost"],
         "--desk @bob:localhost is not one of the approvers: add it to --approvers"),
    ]:
        out = desk.matrix("room", *args)
        assert out.returncode == 1 and said in out.stderr, (args, out.stderr)
    out = desk.matrix("room", "--invite", "@alice:localhost", "--after", "soon")
    assert out.returncode == 2 and "--after" in out.stderr, out.stderr
    out = desk.matrix("room", "--invite", "@alice:localhost", "--approvers", "@alice:localhost", "--quorum", "1",
                      "--team-for", "deploys")
    assert out.returncode == 2 and "invalid value 'deploys' for '--team-for" in out.stderr, out.stderr

    out = desk.matrix("room", "--invite", "@alice:localhost", "--invite", "@bob:localhost",
                      "--approvers", "@alice:localhost,@bob:localhost", "--quorum", "2", "--after", "5m",
                      "--desk", "@alice:localhost", "--team-for", "permission,review", "--team-when", "production")
    assert out.returncode == 0, out.stderr
    room = out.stdout.split("asks in ")[1].split(".\n")[0]
    assert ("2 approvals of @alice:localhost, @bob:localhost needed for a permission, a change under review that "
            "says production; one approver's no ends it. An answer at the desk is @alice:localhost's vote.") \
        in out.stdout, out.stdout
    assert "after 5m unanswered here" in out.stdout, out.stdout

    # Alice's phone sees the invite, joins, and finds the room encrypted and invite-only.
    invites = homeserver.call(alice["access_token"], "GET", "/_matrix/client/v3/sync?timeout=0")["rooms"]["invite"]
    assert room in invites, invites
    homeserver.call(alice["access_token"], "POST", f"/_matrix/client/v3/join/{room}", {})
    state = homeserver.call(alice["access_token"], "GET", f"/_matrix/client/v3/rooms/{room}/state")
    kinds = {e["type"]: e["content"] for e in state}
    assert kinds["m.room.encryption"]["algorithm"] == "m.megolm.v1.aes-sha2", kinds
    assert kinds["m.room.join_rules"]["join_rule"] == "invite"
    assert kinds["m.room.name"]["name"] == "User Questions", "nothing but the product's name in clear state"

    status = json.loads(desk.matrix("status", "--json").stdout)["room"]
    assert {k: status[k] for k in ("room", "approvers", "quorum", "after")} == {
        "room": room, "approvers": ["@alice:localhost", "@bob:localhost"], "quorum": 2, "after": "5m"}, status
    members = {m["user"]: (m["membership"], m["approver"]) for m in status["members"]}
    assert members == {"@alice:localhost": ("join", True), "@bob:localhost": ("invite", True)}, members
    words = desk.matrix("status").stdout
    assert f"Room: {room}." in words and "@alice:localhost (join), approver" in words, words

    # Leaving takes the bridge out of the room too.
    assert desk.matrix("leave").returncode == 0
    members = homeserver.call(alice["access_token"], "GET", f"/_matrix/client/v3/rooms/{room}/joined_members")
    assert "@teambridge:localhost" not in members["joined"], members


def test_a_room_that_is_not_encrypted_is_not_adopted_and_an_encrypted_one_is(homeserver, tmp_path):
    homeserver.register("adopter", "adopter-pw")
    carol = homeserver.account("carol", "carol-pw")
    desk = Desk(tmp_path)
    assert desk.init(homeserver, "adopter", "adopter-pw").returncode == 0
    token = carol["access_token"]
    plain = homeserver.call(token, "POST", "/_matrix/client/v3/createRoom",
                            {"preset": "private_chat", "invite": ["@adopter:localhost"]})["room_id"]
    out = desk.matrix("room", "--use", plain)
    assert out.returncode == 1 and f"{plain} is not end-to-end encrypted" in out.stderr, out.stderr
    assert json.loads(desk.matrix("status", "--json").stdout).get("room") is None
    sealed = homeserver.call(token, "POST", "/_matrix/client/v3/createRoom", {
        "preset": "private_chat", "invite": ["@adopter:localhost"],
        "initial_state": [{"type": "m.room.encryption", "state_key": "", "content": {"algorithm": "m.megolm.v1.aes-sha2"}}]})[
        "room_id"]
    out = desk.matrix("room", "--use", sealed, "--approvers", "@carol:localhost")
    assert out.returncode == 0, out.stderr
    status = json.loads(desk.matrix("status", "--json").stdout)["room"]
    assert status["room"] == sealed and status["quorum"] == 1
    assert status["members"] == [{"user": "@carol:localhost", "membership": "join", "approver": True,
                                  "identity": "none"}], status
