"""Figures of the relay, with a real nats-server on a loopback port and "machines"
(homes of their own, each with its `userq serve`) on this host:
  - one asker's round trip through the relay: asked on alpha, answered at once by a
    protocol answerer on beta; beside it, the same ask answered at once on a machine
    with no relay (median, p95 over RUNS asks, alternated);
  - asks per second with 64 askers at once, through the relay and locally (each asker
    one question at a time, for SECONDS);
  - from the broker's restart to a question asked while it was down being offered on
    the other machine (median of 5);
  - from the asking machine's server started again to the answer given on the other
    machine while it was down reaching its asker (median of 5).
Usage: .tools/venv/bin/python benches/relay_figures.py"""

import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))
from conftest import Answerer, Asker, free_port, wait_until  # noqa: E402
from test_relay import Broker, Machine, pair  # noqa: E402

RUNS = int(os.environ.get("RUNS", "200"))
SECONDS = float(os.environ.get("SECONDS", "5"))


def auto_answer(person):
    """Answers every offer at once with its first option."""
    def run():
        while True:
            m = person.messages.get()
            if m["method"] == "questions/offer":
                person.reply(m, {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
    threading.Thread(target=run, daemon=True).start()


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def throughput(machine, askers=64):
    done = [0]
    stop = time.time() + SECONDS
    lock = threading.Lock()

    def run(i):
        a = Asker(machine.socket, f"load-{i}")
        while time.time() < stop:
            assert "result" in a.ask("Load?"), "answered"
            with lock:
                done[0] += 1
        a.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(askers)]
    start = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return done[0] / (time.time() - start)


def main():
    root = Path(tempfile.mkdtemp())
    made = []

    def make(name):
        m = Machine(root, name)
        made.append(m)
        return m

    broker = Broker(free_port())
    try:
        alpha, beta = pair(broker, make, "alpha", "beta")
        local = make("local").serve()
        auto_answer(beta.person())
        auto_answer(local.person())
        relayed, alone = Asker(alpha.socket, "timer"), Asker(local.socket, "timer")
        times = {"through the relay": [], "locally": []}
        for i in range(RUNS):
            for name, asker in (("through the relay", relayed), ("locally", alone)):
                t0 = time.perf_counter()
                assert "result" in asker.ask(f"Round trip {i}?")
                times[name].append((time.perf_counter() - t0) * 1000)
        print(f"one asker's round trip, {RUNS} asks each, alternated:")
        for name, xs in times.items():
            print(f"  {name}: median {statistics.median(xs):.2f} ms, p95 {p95(xs):.2f} ms")
        print(f"  ratio of medians: {statistics.median(times['through the relay']) / statistics.median(times['locally']):.1f}")
        through, here = throughput(alpha), throughput(local)
        print(f"64 askers for {SECONDS:.0f} s: {through:.0f} asks/s through the relay, {here:.0f} asks/s locally "
              f"({through / here:.2f} of local)")
        waits = []
        for i in range(5):
            broker.stop()
            asker = alpha.ask(f"While the broker was down {i}?", "--option", "Yes")
            time.sleep(0.5)
            t0 = time.perf_counter()
            broker.start()
            asker.communicate(timeout=30)
            waits.append((time.perf_counter() - t0) * 1000)
        print(f"broker restarted -> the question asked while it was down answered on the other machine: "
              f"median {statistics.median(waits):.0f} ms (of 5; max {max(waits):.0f} ms)")
        gamma, delta = pair(broker, make, "gamma", "delta")
        person = delta.person()
        waits = []
        for i in range(5):
            asker = gamma.ask(f"Answered while the asking machine restarts {i}?", "--option", "Yes")
            offer = person.expect("questions/offer", 10)
            gamma.stop()
            person.reply(offer, {"answer": {"answers": [{"id": "q", "selected": ["Yes"]}]}})
            wait_until(lambda: delta.history().count("person at delta") == i + 1, "the answer taken on delta")
            t0 = time.perf_counter()
            gamma.serve()
            out, _ = asker.communicate(timeout=60)
            assert '"Yes"' in out
            waits.append((time.perf_counter() - t0) * 1000)
        print(f"asking machine's server started again -> the answer given meanwhile reaches its asker: "
              f"median {statistics.median(waits):.0f} ms (of 5; max {max(waits):.0f} ms)")
    finally:
        for m in made:
            m.stop()
        broker.stop()


if __name__ == "__main__":
    main()
