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
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from conftest import Answerer, free_port
from homeserver import Desk, Homeserver, Phone


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
    for f in [db, db.with_name("homeserver.db-wal")]:
        if f.exists():
            text += f.read_bytes().decode("latin-1")
    return text


def test_a_plan_is_approved_on_the_phone_and_a_question_answered_at_the_desk_leaves_the_room(homeserver, tmp_path):
    homeserver.register("desk-bridge", "pw-bridge")
    homeserver.register("alice", "pw-alice")
    gateway = PushGateway()
    alice = Phone(homeserver, "alice", "pw-alice")
    desk = Desk(tmp_path)
    try:
        alice.send(pusher=gateway.url)
        assert desk.init(homeserver, "desk-bridge", "pw-bridge").returncode == 0
        made = desk.matrix("room", "--invite", "@alice:localhost")
        assert made.returncode == 0, made.stderr
        room = json.loads(desk.matrix("status", "--json").stdout)["room"]["room"]
        alice.wait(lambda m: m.get("joined") == room, "alice to join the room")
        desk.serve()

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

        # What the homeserver keeps and pushes: no question, no answer.
        kept = stored(homeserver)
        for secret in ["Rotate the signing keys", "Mind the old keys", "Which region", "eu-west", "Approve this plan"]:
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
