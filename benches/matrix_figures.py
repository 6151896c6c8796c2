"""Figures of the Matrix bridge, with a real Synapse on a loopback port and the test
phone (matrix-js-sdk with its Rust crypto, tests/python/phone.mjs), beside a local
answer measured in the same script:
  - `userq ask` to the question decrypted on the phone (median, p95 over RUNS asks);
  - the phone's vote sent to `userq ask` printing the answer (median, p95);
  - for reference, alternated with those: `userq ask` answered at once by a protocol
    answerer on a server with no bridge (median, p95);
  - a question asked while the homeserver is down: from the homeserver back to the
    question on the phone, and from the phone's vote then to the answer (median of 3).
Usage: .tools/venv/bin/python benches/matrix_figures.py (USERQ_BIN for a release build)"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))
from conftest import Answerer  # noqa: E402
from relay_figures import auto_answer  # noqa: E402
from homeserver import USERQ, Desk, Homeserver, Phone, bridge_for  # noqa: E402

RUNS = int(os.environ.get("RUNS", "20"))


def say(name, xs):
    ms = [x * 1000 for x in xs]
    # A p95 of a handful is its slowest.
    tail, label = (statistics.quantiles(ms, n=20)[-1], "p95") if len(ms) >= 10 else (max(ms), "max")
    print(f"{name:<48} median {statistics.median(ms):8.1f} ms   {label} {tail:8.1f} ms   (n={len(ms)})")


def main():
    folder = Path(tempfile.mkdtemp(prefix="userq-matrix-bench-"))
    hs = Homeserver(folder / "synapse")
    hs.register("hal", "pw-hal")
    hal = Phone(hs, "hal", "pw-hal")
    desk, local = Desk(folder / "desk"), Desk(folder / "local")
    for place in ["desk", "local"]:
        (folder / place).mkdir(mode=0o700)
    try:
        room = bridge_for(hs, desk, "bench-bridge", [hal])
        local.server = subprocess.Popen([USERQ, "serve"], env=local.env, stderr=subprocess.DEVNULL)
        while not local.socket.exists():
            time.sleep(0.01)
        time.sleep(0.2)
        auto_answer(Answerer(local.socket, name="reference"))

        on_phone, voted, reference = [], [], []
        for i in range(RUNS):
            started = time.monotonic()
            asked = local.ask(f"Local {i}?", "--option", "Yes", "--option", "No")
            asked.communicate(timeout=30)
            reference.append(time.monotonic() - started)

            started = time.monotonic()
            asked = desk.ask(f"Remote {i}?", "--option", "Yes", "--option", "No")
            poll = hal.poll(f"Remote {i}?")
            on_phone.append(time.monotonic() - started)
            started = time.monotonic()
            hal.send(room=room, vote=poll["id"], answers=["o1"])
            out, _ = asked.communicate(timeout=30)
            voted.append(time.monotonic() - started)
            assert json.loads(out)["answers"][0]["selected"] == ["Yes"]

        back_to_phone, back_to_answer = [], []
        for i in range(3):
            hs.stop()
            asked = desk.ask(f"While down {i}?", "--option", "Yes", "--option", "No")
            time.sleep(1)
            hs.start()
            started = time.monotonic()
            poll = hal.poll(f"While down {i}?")
            back_to_phone.append(time.monotonic() - started)
            started = time.monotonic()
            hal.send(room=room, vote=poll["id"], answers=["o1"])
            asked.communicate(timeout=60)
            back_to_answer.append(time.monotonic() - started)

        print(f"Matrix bridge figures ({RUNS} asks each; {USERQ})")
        say("local: ask -> answered (reference)", reference)
        say("matrix: ask -> decrypted on the phone", on_phone)
        say("matrix: phone's vote -> the asker has it", voted)
        say("homeserver back -> question on the phone", back_to_phone)
        say("then the phone's vote -> the asker has it", back_to_answer)
        print(f"ratio, ask -> on the phone vs a local round trip: {statistics.median(on_phone) / statistics.median(reference):.1f}x")
    finally:
        desk.stop()
        local.stop()
        hal.close()
        hs.stop()


if __name__ == "__main__":
    main()
