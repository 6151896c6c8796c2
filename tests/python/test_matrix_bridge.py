"""The Matrix bridge at work, against a real Synapse (tests/python/homeserver.py) and a
phone nobody in this project wrote: matrix-js-sdk with its Rust crypto, cross-signed,
in Element's strict mode (tests/python/phone.mjs). `userq serve` runs the bridge with
no flags once `userq matrix init` and `room` made it. A plan asked with `userq ask
--plan` is read on the phone, decrypted, and approved there with a note in its thread;
the asker gets the approval, recorded as the phone's person on their device. A question
answered at the desk is ended in the room, saying where, and taken down; a late vote
counts for nothing. The homeserver's database holds no question and no answer, and the
push gateway hears event ids only."""

import json
import sqlite3
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from conftest import USERQ, Answerer, free_port
from homeserver import Desk, Homeserver, Phone, bridge_for


@pytest.fixture(scope="module")
def homeserver(tmp_path_factory):
    hs = Homeserver(tmp_path_factory.mktemp("synapse"))
    yield hs
    hs.stop()


class PushGateway:
    """A push gateway of the test's own on loopback: records what the homeserver pushes."""

    def __init__(self):
        self.pushed = []
        pushed = self.pushed

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                pushed.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                body = b'{"rejected": []}'
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/_matrix/push/v1/notify"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


def stored(homeserver):
    """Everything the homeserver's database keeps, its write-ahead log included."""
    db = homeserver.folder / "homeserver.db"
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT json FROM event_json").fetchall()
    text = "\n".join(r[0] for r in rows)
    media = [f for f in (homeserver.folder / "media").rglob("*") if f.is_file()]
    for f in [db, db.with_name("homeserver.db-wal"), *media]:
        if f.exists():
            text += f.read_bytes().decode("latin-1")
    return text


def test_a_plan_is_approved_on_the_phone_and_a_question_answered_at_the_desk_leaves_the_room(homeserver, tmp_path):
    homeserver.register("alice", "pw-alice")
    gateway = PushGateway()
    alice = Phone(homeserver, "alice", "pw-alice")
    desk = Desk(tmp_path)
    try:
        alice.send(pusher=gateway.url)
        room = bridge_for(homeserver, desk, "desk-bridge", [alice])

        # A plan, read on the phone and approved there with a note.
        plan = tmp_path / "plan.md"
        plan.write_text("# Rotate the signing keys\n\n1. Make the new keys\n2. Swap them in tonight<img src=https://elsewhere.example/x.png onerror=alert(1)>\n")
        asked = desk.ask("--plan", str(plan))
        poll = alice.poll("Approve this plan?")
        assert poll["encrypted"] and poll["kind"] == "org.matrix.msc3381.poll.disclosed" and poll["max"] == 1
        labels = {a["text"]: a["id"] for a in poll["answers"]}
        assert "Approve" in labels and "Revise" in labels, poll
        message = alice.wait(lambda m: "Rotate the signing keys" in (m.get("message") or {}).get("body", ""),
                             "the plan's message")["message"]
        assert message["encrypted"] and "<h1>Rotate the signing keys</h1>" in message["html"], message
        assert "<img" not in message["html"] and "onerror" not in message["html"], "no image loads from elsewhere"
        alice.send(room=room, reply=message["id"], text="Mind the old keys: keep them a week.")
        alice.send(room=room, vote=poll["id"], answers=[labels["Approve"]])
        out, err = asked.communicate(timeout=60)
        assert asked.returncode == 0, err
        answer = json.loads(out)["answers"][0]
        assert answer["custom"].startswith("Plan approved, with notes from the reviewer"), answer
        assert answer["custom"].endswith("Mind the old keys: keep them a week."), answer
        end = alice.wait(lambda m: (m.get("end") or {}).get("poll") == poll["id"], "the poll to end")["end"]
        assert end["text"] == "Answered by @alice:localhost on Matrix.", end
        record = desk.record("Approve this plan?")
        assert record["answeredBy"] == f"matrix:@alice:localhost/{alice.device}", record

        # A question answered at the desk: ended in the room, saying where, and taken down.
        person = Answerer(desk.socket, name="desk person")
        asked = desk.ask("Which region?", "--option", "eu-west", "--option", "us-east")
        offer = person.expect("questions/offer")
        poll = alice.poll("Which region?")
        header = alice.wait(lambda m: "Which region?" in (m.get("message") or {}).get("body", ""), "its message")
        person.reply(offer, {"answer": {"answers": [{"id": "q", "selected": ["eu-west"]}]}})
        out, err = asked.communicate(timeout=30)
        assert json.loads(out)["answers"][0]["selected"] == ["eu-west"], err
        end = alice.wait(lambda m: (m.get("end") or {}).get("poll") == poll["id"], "the poll to end")["end"]
        assert end["text"] == "Answered by desk person.", end
        for taken in [poll["id"], header["message"]["id"]]:
            alice.wait(lambda m: (m.get("redacted") or {}).get("of") == taken, f"{taken} to be redacted")
        alice.send(room=room, vote=poll["id"], answers=["o2"])
        record = desk.record("Which region?")
        assert record["answeredBy"] == "desk person" and record["outcome"]["answer"]["answers"][0]["selected"] == ["eu-west"], record

        # A long diff: the message keeps its start, the whole of it is a file in its thread.
        diff = "diff --git a/app.py b/app.py\n" + "".join(f"+kept-whole-{n}\n" for n in range(1500))
        (tmp_path / "long.diff").write_text(diff)
        asked = desk.ask("Apply it?", "--option", "Yes", "--option", "No", "--detail-file", str(tmp_path / "long.diff"))
        person.expect("questions/offer")
        header = alice.wait(lambda m: "Apply it?" in (m.get("message") or {}).get("body", ""), "its message")["message"]
        assert "+kept-whole-10\n" in header["body"] and "+kept-whole-1499" not in header["body"], "its start"
        assert "1501 lines in all" in header["body"]
        file = alice.wait(lambda m: (m.get("message") or {}).get("msgtype") == "m.file", "the diff's file")["message"]
        assert file["thread"] == header["id"] and file["body"] == "q.diff" and file["encrypted"], file
        assert file["file"] == diff, "the whole diff, decrypted on the phone"
        alice.send(room=room, vote=alice.poll("Apply it?")["id"], answers=["o1"])
        assert json.loads(asked.communicate(timeout=60)[0])["answers"][0]["selected"] == ["Yes"]

        # What the homeserver keeps and pushes: no question, no answer.
        kept = stored(homeserver)
        for secret in ["Rotate the signing keys", "Mind the old keys", "Which region", "eu-west", "Approve this plan",
                       "kept-whole-"]:
            assert secret not in kept, f"{secret!r} is on the homeserver in clear text"
        assert gateway.pushed, "the phone's pusher was pushed to"
        for push in gateway.pushed:
            n = push["notification"]
            assert n["event_id"] and n["room_id"] == room and "content" not in n, push
            assert "Rotate" not in json.dumps(push) and "region" not in json.dumps(push)
    finally:
        desk.stop()
        alice.close()
        gateway.close()


def notice_about(phone, user, why):
    """The bridge's word in a thread that `user`'s vote does not count, and why."""
    return phone.wait(lambda m: (m.get("message") or {}).get("msgtype") == "m.notice"
                      and m["message"]["body"].startswith(f"{user}: not counted, {why}"), f"why {user} does not count")


def test_two_of_three_approve_one_no_refuses_and_others_count_for_nothing(homeserver, tmp_path):
    for name in ["ann", "ben", "cat", "dan"]:
        homeserver.register(name, "pw-" + name)
    ann, ben, cat, dan = (Phone(homeserver, n, "pw-" + n) for n in ["ann", "ben", "cat", "dan"])
    stray = None
    desk = Desk(tmp_path)
    try:
        # Ben's second device, which Ben never signed (an older client, not in strict mode).
        stray = Phone(homeserver, "ben", "pw-ben", unsigned=True)
        room = bridge_for(homeserver, desk, "team-bridge", [ann, ben, cat, dan],
                          "--approvers", "@ann:localhost,@ben:localhost,@cat:localhost", "--quorum", "2")
        stray.wait(lambda m: m.get("joined") == room, "Ben's unsigned device to join")

        # Two approvers approve; a member who is not one, and a device its owner never
        # signed, are shown why they do not count; a no after the quorum changes nothing.
        plan = tmp_path / "deploy.md"
        plan.write_text("# Deploy 4.2 to production\n\nMigrate the orders table first.\n")
        asked = desk.ask("--plan", str(plan))
        poll = ann.poll("Approve this plan?")
        labels = {a["text"]: a["id"] for a in poll["answers"]}
        dan.send(room=room, vote=poll["id"], answers=[labels["Approve"]])
        notice_about(ann, "@dan:localhost", "they are not one of the approvers")
        stray.send(room=room, vote=poll["id"], answers=[labels["Approve"]])
        notice_about(ann, "@ben:localhost", "it came from a device its owner has not verified")
        ann.send(room=room, vote=poll["id"], answers=[labels["Approve"]])
        assert asked.poll() is None, "one approval of two decides nothing"
        ben.send(room=room, vote=poll["id"], answers=[labels["Approve"]])
        out, err = asked.communicate(timeout=60)
        assert asked.returncode == 0, err
        text = json.loads(out)["answers"][0]["custom"]
        assert text.startswith("Plan approved") and text.endswith("Approved by @ann:localhost, @ben:localhost."), text
        cat.send(room=room, vote=poll["id"], answers=[labels["Revise"]])
        ann.wait(lambda m: (m.get("end") or {}).get("poll") == poll["id"], "the poll to end")
        record = desk.record("Approve this plan?")
        assert record["answeredBy"] == f"matrix:@ann:localhost/{ann.device},@ben:localhost/{ben.device}", record

        # One approver's no ends the next one at once, with the reason that follows it.
        plan.write_text("# Deploy 4.3 to production\n\nNo migration.\n")
        asked = desk.ask("--plan", str(plan), "Ship 4.3?")
        poll = ann.poll("Ship 4.3?")
        labels = {a["text"]: a["id"] for a in poll["answers"]}
        message = cat.wait(lambda m: "Deploy 4.3" in (m.get("message") or {}).get("body", ""), "the message")
        ann.send(room=room, vote=poll["id"], answers=[labels["Approve"]])
        cat.send(room=room, vote=poll["id"], answers=[labels["Revise"]])
        cat.send(room=room, reply=message["message"]["id"], text="Not during the sale: Monday.")
        out, err = asked.communicate(timeout=60)
        text = json.loads(out)["answers"][0]["custom"]
        assert text.startswith("Plan not approved: revise it.") and text.endswith("Not during the sale: Monday."), text
        record = desk.record("Ship 4.3?")
        assert record["answeredBy"] == f"matrix:@cat:localhost/{cat.device}", record
    finally:
        desk.stop()
        for phone in [ann, ben, cat, dan] + ([stray] if stray else []):
            phone.close()


def test_a_changed_identity_counts_for_nothing_until_trusted(homeserver, tmp_path):
    homeserver.register("eve", "pw-eve")
    eve = Phone(homeserver, "eve", "pw-eve")
    again = None
    desk = Desk(tmp_path)
    try:
        room = bridge_for(homeserver, desk, "trust-bridge", [eve])
        asked = desk.ask("Which port?", "--option", "8080", "--option", "9090")
        poll = eve.poll("Which port?")
        eve.send(room=room, vote=poll["id"], answers=["o1"])
        assert json.loads(asked.communicate(timeout=60)[0])["answers"][0]["selected"] == ["8080"]

        # Eve sets her phone up again from scratch: a new identity.
        eve.close()
        again = Phone(homeserver, "eve", "pw-eve", new_identity=True)
        asked = desk.ask("Which host?", "--option", "alpha", "--option", "beta")
        poll = again.poll("Which host?")
        again.send(room=room, vote=poll["id"], answers=["o2"])
        notice_about(again, "@eve:localhost", "their identity changed since it was first seen")
        assert asked.poll() is None, "a changed identity decides nothing"
        members = json.loads(desk.matrix("status", "--json").stdout)["room"]["members"]
        assert [m["identity"] for m in members if m["user"] == "@eve:localhost"] == ["changed"], members
        words = desk.matrix("status").stdout
        assert "identity CHANGED since first seen" in words, words

        trusted = desk.matrix("trust", "@eve:localhost")
        assert trusted.returncode == 0 and "@eve:localhost's identity is trusted now" in trusted.stdout, trusted
        again.send(room=room, vote=poll["id"], answers=["o2"])
        assert json.loads(asked.communicate(timeout=60)[0])["answers"][0]["selected"] == ["beta"]
        nobody = desk.matrix("trust", "@nobody:localhost")
        assert nobody.returncode == 1 and "@nobody:localhost has no cross-signing identity yet" in nobody.stderr
    finally:
        desk.stop()
        eve.close()
        if again:
            again.close()


def test_a_question_waits_its_delay_before_the_room_and_the_deadline_denies_it_there(homeserver, tmp_path):
    homeserver.register("fay", "pw-fay")
    fay = Phone(homeserver, "fay", "pw-fay")
    desk = Desk(tmp_path)
    try:
        bridge_for(homeserver, desk, "late-bridge", [fay], "--after", "3s")
        person = Answerer(desk.socket, name="desk person")

        # Answered at the desk within the delay: it never reaches the room.
        asked = desk.ask("Answered here?", "--option", "Yes", "--option", "No")
        person.reply(person.expect("questions/offer"), {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
        assert asked.communicate(timeout=30)[0]

        # Nobody answers: it reaches the room after the delay, and the deadline denies it there.
        assert subprocess.run([USERQ, "deadline", "8s"], env=desk.env, capture_output=True).returncode == 0
        plan = tmp_path / "plan.md"
        plan.write_text("# Drop the old index\n")
        started = time.monotonic()
        asked = desk.ask("--plan", str(plan), "Drop it?")
        person.expect("questions/offer")
        poll = fay.poll("Drop it?")
        waited = time.monotonic() - started
        assert waited >= 3, f"the room saw it after {waited:.1f}s, before its delay"
        out, err = asked.communicate(timeout=30)
        text = json.loads(out)["answers"][0]["custom"]
        assert text.startswith("Not approved: nobody answered within 8s"), text
        end = fay.wait(lambda m: (m.get("end") or {}).get("poll") == poll["id"], "the poll to end")["end"]
        assert end["text"] == "Answered by your deadline.", end
        fay.wait(lambda m: (m.get("redacted") or {}).get("of") == poll["id"], "the question taken down")
        assert not [m for m in fay.seen if (m.get("poll") or {}).get("question") == "Answered here?"]
        assert desk.record("Drop it?")["answeredBy"] == "deadline"
    finally:
        desk.stop()
        fay.close()


class Holding(Answerer):
    """A window's answerer: it holds every question it is offered."""

    def _read(self):
        for line in self.f:
            m = json.loads(line)
            if m.get("method") == "questions/offer":
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": {"claim": True}})
            (self.messages if "method" in m else self.replies).put(m)


def window_at(path):
    """Registers a holding answerer as soon as a server listens at `path`, as the desktop
    window does when its host starts; the future of it."""
    from concurrent.futures import ThreadPoolExecutor

    def register():
        deadline = time.time() + 60
        while True:
            try:
                return Holding(path, name="desk window")
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.01)

    return ThreadPoolExecutor(1).submit(register)


def test_nothing_is_lost_when_the_homeserver_or_the_desk_restarts(homeserver, tmp_path):
    homeserver.register("gus", "pw-gus")
    gus = Phone(homeserver, "gus", "pw-gus")
    desk = Desk(tmp_path)
    try:
        room = bridge_for(homeserver, desk, "steady-bridge", [gus])

        # Asked while the homeserver is down: it reaches the room once it is back.
        homeserver.stop()
        asked = desk.ask("Which shard?", "--option", "north", "--option", "south")
        time.sleep(3)
        assert asked.poll() is None
        homeserver.start()
        poll = gus.poll("Which shard?")
        gus.send(room=room, vote=poll["id"], answers=["o2"])
        assert json.loads(asked.communicate(timeout=60)[0])["answers"][0]["selected"] == ["south"]

        # The desk's server restarts mid-question; the vote given meanwhile reaches the
        # asker, who asked again, in the same poll. A window is there too: an answerer at
        # the lowest priority that registers as soon as the new server listens and holds
        # whatever it is offered, so it may hold the ask again before the bridge is back.
        asked = desk.ask("Which queue?", "--option", "fast", "--option", "bulk")
        poll = gus.poll("Which queue?")
        desk.stop()
        gus.send(room=room, vote=poll["id"], answers=["o2"])
        window = window_at(desk.socket)
        desk.serve()
        out, err = asked.communicate(timeout=60)
        assert asked.returncode == 0, err
        assert json.loads(out)["answers"][0]["selected"] == ["bulk"]
        held = window.result(timeout=60)
        offer = held.expect("questions/offer", timeout=10)
        assert offer["params"]["request"]["questions"][0]["question"] == "Which queue?"
        assert held.expect("questions/withdraw", timeout=10)["params"]["ask"] == offer["params"]["ask"]
        held.s.close()
        assert desk.record("Which queue?")["answeredBy"] == f"matrix:@gus:localhost/{gus.device}"
        gus.wait(lambda m: (m.get("end") or {}).get("poll") == poll["id"], "the poll to end")
        polls = {m["poll"]["id"] for m in gus.seen if (m.get("poll") or {}).get("question") == "Which queue?"}
        assert len(polls) == 1, "asked again, in the same poll"

        # One whose asker does not come back is withdrawn from the room once the next
        # run has waited for it (two minutes; three seconds here).
        asked = desk.ask("Which zone?", "--option", "a", "--option", "b")
        poll = gus.poll("Which zone?")
        desk.stop()
        asked.kill()
        desk.env["USERQ_MATRIX_COME_BACK_SECS"] = "3"
        desk.serve()
        end = gus.wait(lambda m: (m.get("end") or {}).get("poll") == poll["id"], "the poll to end")["end"]
        assert end["text"] == "Withdrawn: the agent stopped asking.", end
        gus.wait(lambda m: (m.get("redacted") or {}).get("of") == poll["id"], "the poll taken down")
        assert json.loads((desk.data / "matrix" / "open.json").read_text()) == [], "nothing left open"
    finally:
        desk.stop()
        gus.close()


def test_an_answer_at_the_desk_is_one_vote_of_the_team(homeserver, tmp_path):
    """With a team, an answer here approves nothing alone: it is the desk's own person's
    vote, counted with the room's; it sends the question to the room at once, and
    `userq pending` says where it stands. A no at the desk ends it at once."""
    for name in ["hal", "ivy"]:
        homeserver.register(name, "pw-" + name)
    hal, ivy = (Phone(homeserver, n, "pw-" + n) for n in ["hal", "ivy"])
    desk = Desk(tmp_path)
    try:
        room = bridge_for(homeserver, desk, "desk-vote-bridge", [hal, ivy], "--approvers",
                   "@hal:localhost,@ivy:localhost", "--quorum", "2", "--team-for", "plan,permission", "--after", "10m")
        status = desk.matrix("status").stdout
        assert ("2 approvals of @hal:localhost, @ivy:localhost needed for a plan, a permission; one approver's no "
                "ends it. "
                "An answer at the desk is one vote, of a person of its own.") in status, status

        person = Answerer(desk.socket, name="desk person")
        plan = tmp_path / "migrate.md"
        plan.write_text("# Migrate the orders table\n\nAdd the column, backfill, then swap.\n")
        asked = desk.ask("--plan", str(plan), "Migrate orders?")
        offer = person.expect("questions/offer")
        approve = {"answers": [{"id": offer["params"]["request"]["questions"][0]["id"], "selected": ["Approve"]}]}
        person.reply(offer, {"answer": approve})
        # Not the ten minutes' delay: a vote that is not enough alone sends it at once.
        poll = hal.poll("Migrate orders?")
        assert asked.poll() is None, "one approval of two decides nothing"
        pending = subprocess.run([USERQ, "pending"], env=desk.env, capture_output=True, text=True, timeout=30)
        assert "You voted Approve. One more approval needed." in pending.stdout, pending.stdout
        listed = subprocess.run([USERQ, "pending", "--json"], env=desk.env, capture_output=True, text=True,
                                timeout=30)
        progress = json.loads(listed.stdout)["pending"][0]["progress"]
        assert progress == {"approved": [], "needed": 1, "yours": ["Approve"]}, progress

        labels = {a["text"]: a["id"] for a in poll["answers"]}
        hal.send(room=room, vote=poll["id"], answers=[labels["Approve"]])
        out, err = asked.communicate(timeout=60)
        assert asked.returncode == 0, err
        text = json.loads(out)["answers"][0]["custom"]
        assert text.startswith("Plan approved") and text.endswith(
            "Approved by the person at the desk, @hal:localhost."), text
        end = hal.wait(lambda m: (m.get("end") or {}).get("poll") == poll["id"], "the poll to end")["end"]
        assert end["text"] == "Answered by the person at the desk, @hal:localhost.", end
        record = desk.record("Migrate orders?")
        assert record["answeredBy"] == f"matrix:desk,@hal:localhost/{hal.device}", record
        history = subprocess.run([USERQ, "history"], env=desk.env, capture_output=True, text=True, timeout=30)
        assert "you at the desk, @hal:localhost on Matrix" in history.stdout, history.stdout

        # A no at the desk ends it at once, as the desk's answer.
        plan.write_text("# Drop the orders table\n")
        asked = desk.ask("--plan", str(plan), "Drop orders?")
        offer = person.expect("questions/offer")
        question = offer["params"]["request"]["questions"][0]["id"]
        revise = {"answers": [{"id": question, "selected": [], "custom": "Never."}]}
        person.reply(offer, {"answer": revise})
        out, err = asked.communicate(timeout=30)
        assert json.loads(out)["answers"][0]["custom"] == "Never.", out
        assert desk.record("Drop orders?")["answeredBy"] == "desk person"
    finally:
        desk.stop()
        for phone in [hal, ivy]:
            phone.close()


def test_a_permission_reaches_the_phone_with_where_the_agent_works_and_what_it_says(homeserver, tmp_path):
    homeserver.register("pia", "pw-pia")
    pia = Phone(homeserver, "pia", "pw-pia")
    desk = Desk(tmp_path)
    try:
        room = bridge_for(homeserver, desk, "hook-bridge", [pia])
        shop = tmp_path / "shop"
        (shop / "web").mkdir(parents=True)
        subprocess.run(["git", "init", "-q", "-b", "release"], cwd=shop, check=True)
        transcript = tmp_path / "session.jsonl"
        transcript.write_text("\n".join(json.dumps(line) for line in [
            {"type": "user", "message": {"role": "user", "content": "Ship the release"}},
            {"type": "assistant", "message": {"role": "assistant",
                                              "content": [{"type": "text", "text": "The build is green; I will tag it."}]}},
            {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "name": "Bash"}]}},
        ]) + "\n")
        # Claude Code's own PermissionRequest, as its hook documentation shows it.
        hook = subprocess.Popen([USERQ, "hook", "claude-code"], env=desk.env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        hook.stdin.write(json.dumps({
            "session_id": "5c0ffee0-1234", "transcript_path": str(transcript), "cwd": str(shop / "web"),
            "hook_event_name": "PermissionRequest", "tool_name": "Bash",
            "tool_input": {"command": "git tag v2.0 && git push --tags", "description": "Tag <b>the</b> release"}}))
        hook.stdin.close()
        poll = pia.poll("Run this command?")
        message = pia.wait(lambda m: "Run this command?" in (m.get("message") or {}).get("body", ""),
                           "the permission's message")["message"]
        body = message["body"]
        assert body.startswith("Claude Code asks, in shop · on release · in web · session 5c0ffee0, on "), body
        assert "\nThe agent says: Tag <b>the</b> release\nIts last message: The build is green; I will tag it.\n" in body, body
        assert "<blockquote>The agent says: Tag &lt;b&gt;the&lt;/b&gt; release</blockquote>" in message["html"], message
        labels = {a["text"]: a["id"] for a in poll["answers"]}
        pia.send(room=room, reply=message["id"], text="Not on release day.")
        pia.send(room=room, vote=poll["id"], answers=[labels["Deny"]])
        hook.wait(60)
        out, err = hook.stdout.read(), hook.stderr.read()
        decision = json.loads(out)["hookSpecificOutput"]["decision"]
        assert (decision["behavior"], decision["message"]) == ("deny", "Not on release day."), (decision, err)

        # "Allow for this session" is a poll option: the agent reads Allow, and the
        # session's next such command is the desk's rule's, never the phone's.
        def hook_for(command):
            p = subprocess.Popen([USERQ, "hook", "claude-code"], env=desk.env, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            p.stdin.write(json.dumps({
                "session_id": "5c0ffee0-1234", "cwd": str(shop / "web"), "hook_event_name": "PermissionRequest",
                "tool_name": "Bash", "tool_input": {"command": command}}))
            p.stdin.close()
            return p

        def behavior(p):
            p.wait(60)
            return json.loads(p.stdout.read())["hookSpecificOutput"]["decision"]["behavior"]

        tests = hook_for("cargo test --release")
        poll = pia.wait(lambda m: (m.get("poll") or {}).get("question") == "Run this command?"
                        and m["poll"]["id"] != poll["id"], "the second permission's poll")["poll"]
        assert [a["text"] for a in poll["answers"]] == ["Allow", "Allow for this session", "Deny"], poll
        labels = {a["text"]: a["id"] for a in poll["answers"]}
        pia.send(room=room, vote=poll["id"], answers=[labels["Allow for this session"]])
        assert behavior(tests) == "allow"
        rules = (tmp_path / "config" / "rules.toml").read_text()
        assert rules == '[[allow]]\ncommand = "cargo test"\nsession = "5c0ffee0-1234"\n', rules
        assert behavior(hook_for("cargo test --lib")) == "allow"
    finally:
        desk.stop()
        pia.close()


def test_a_file_pick_is_answered_on_the_phone_with_a_path_or_a_poll_of_the_best_matches(homeserver, tmp_path):
    """A phone cannot browse the desk's disk: a path replied in the thread answers the
    pick, and a few letters come back as a poll of the best matches under the root."""
    homeserver.register("kai", "pw-kai")
    kai = Phone(homeserver, "kai", "pw-kai")
    desk = Desk(tmp_path)
    project = tmp_path / "project"
    for f in ["config/dev.toml", "config/prod.toml", "src/main.rs", ".env"]:
        (project / f).parent.mkdir(parents=True, exist_ok=True)
        (project / f).write_text("")
    said = lambda message, words: lambda m: ((m.get("message") or {}).get("thread") == message["id"]
                                              and words in m["message"]["body"])
    try:
        room = bridge_for(homeserver, desk, "pick-bridge", [kai])
        asked = desk.ask("Which config?", "--pick", "files", "--root", str(project))
        message = kai.wait(lambda m: "Which config?" in (m.get("message") or {}).get("body", ""), "the pick")["message"]
        assert f"Reply in this message's thread with a path under {project}, or a few letters" in message["body"]
        assert not [m for m in kai.seen if (m.get("poll") or {}).get("question", "").startswith("Which config?")]

        kai.send(room=room, reply=message["id"], text="zzzz")
        kai.wait(said(message, f"Nothing under {project} fits “zzzz”"), "nothing fits, said in the thread")
        kai.send(room=room, reply=message["id"], text="prd")
        poll = kai.poll("Which config? (the best matches for “prd”)")
        assert [a["text"] for a in poll["answers"]] == ["config/prod.toml"] and poll["max"] == 1
        kai.send(room=room, vote=poll["id"], answers=[poll["answers"][0]["id"]])
        out, err = asked.communicate(timeout=60)
        assert asked.returncode == 0, err
        assert json.loads(out)["answers"][0]["selected"] == ["config/prod.toml"]
        kai.wait(lambda m: (m.get("end") or {}).get("poll") == poll["id"], "the offered poll to end")

        # Several, as paths between commas; a hidden file or a path out of the root is
        # never one of them.
        asked = desk.ask("Which files?", "--pick", "files", "--multi", "--root", str(project))
        message = kai.wait(lambda m: "Which files?" in (m.get("message") or {}).get("body", ""), "the pick")["message"]
        kai.send(room=room, reply=message["id"], text="env")
        kai.wait(said(message, "Nothing under"), "a hidden file is not offered")
        kai.send(room=room, reply=message["id"], text="src/main.rs, config/dev.toml")
        out, err = asked.communicate(timeout=60)
        assert asked.returncode == 0, err
        assert json.loads(out)["answers"][0]["selected"] == ["src/main.rs", "config/dev.toml"]
        assert desk.record("Which files?")["answeredBy"] == f"matrix:@kai:localhost/{kai.device}"

        # A poll of matches offered before the desk's server restarts still picks: the
        # vote given while it was down reaches the asker, who asked again.
        asked = desk.ask("Which one for dev?", "--pick", "files", "--root", str(project))
        message = kai.wait(lambda m: "Which one for dev?" in (m.get("message") or {}).get("body", ""),
                           "the pick")["message"]
        kai.send(room=room, reply=message["id"], text="dev")
        poll = kai.poll("Which one for dev? (the best matches for “dev”)")
        desk.stop()
        kai.send(room=room, vote=poll["id"], answers=[poll["answers"][0]["id"]])
        desk.serve()
        out, err = asked.communicate(timeout=60)
        assert asked.returncode == 0, err
        assert json.loads(out)["answers"][0]["selected"] == ["config/dev.toml"]
    finally:
        desk.stop()
        kai.close()
