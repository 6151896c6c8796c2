"""Figures of a code review in the real desktop app, inside tests/e2e/session:
  - a 5,000-line diff (20 files of 250 changed lines) asked with `userq review`, from
    the ask to its first screen painted (the page's own clock, after two animation
    frames), against a 10-line diff asked the same way in the same run, alternated;
  - the app's PSS (with its WebKit processes) idle, and with the 5,000-line review open.
Uses the release build when there is one (`cargo build --release -p user-questions-desktop`).
Usage: tests/e2e/session .tools/venv/bin/python benches/review_figures.py"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from conftest import DRIVER, USERQ, wait_for  # noqa: E402
from desktop_figures import BINARY, _try, session, settle  # noqa: E402

RUNS = int(os.environ.get("RUNS", "10"))

WATCH = """
window.__painted = null;
new MutationObserver((_, observer) => {
  if (!document.querySelector('form.ask .review .line')) return;
  observer.disconnect();
  requestAnimationFrame(() => requestAnimationFrame(() => {
    window.__painted = performance.timeOrigin + performance.now();
  }));
}).observe(document.body, {childList: true, subtree: true});
"""


def diff(files, lines):
    out = []
    for f in range(files):
        path = f"src/module_{f}.py"
        out += [f"diff --git a/{path} b/{path}", f"--- a/{path}", f"+++ b/{path}",
                f"@@ -1,{lines // 2} +1,{lines // 2} @@"]
        for i in range(lines // 2):
            out.append(f"-    value_{i} = compute({i}, 'old')")
            out.append(f"+    value_{i} = compute({i}, 'new', cache=True)")
    return "\n".join(out) + "\n"


def first_screen(driver, sock, text):
    """Milliseconds from asking for a review of `text` to its first screen painted."""
    driver.execute_script(WATCH)
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    t0 = time.time() * 1000
    asker = subprocess.Popen([USERQ, "review"], env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, text=True)
    asker.stdin.write(text)
    asker.stdin.close()
    painted = wait_for(lambda: driver.execute_script("return window.__painted"), "the first screen", 60)
    return painted - t0, asker


def withdraw(driver, asker):
    asker.kill()
    asker.wait(10)
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('form.ask').length") == 0,
             "the review withdrawn", 30)


def main():
    sock = Path(tempfile.mkdtemp()) / "userq.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_DATA_DIR=str(sock.parent / "data"), RUST_LOG="warn")
    print(f"app binary: {BINARY}")
    driver_proc = subprocess.Popen([DRIVER, "--port", "4777", "--native-driver", "/usr/bin/WebKitWebDriver"],
                                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver, pid = session(sock)
    big, small = diff(20, 250), diff(1, 10)
    print(f"diffs: {big.count(chr(10))} and {small.count(chr(10))} lines")
    idle = settle(pid)
    open_pss = None
    times = {"5,000 lines": [], "10 lines": []}
    for run in range(RUNS):
        for name, text in (("5,000 lines", big), ("10 lines", small)):
            ms, asker = first_screen(driver, sock, text)
            times[name].append(ms)
            if name == "5,000 lines" and open_pss is None:
                open_pss = settle(pid)
            withdraw(driver, asker)
    _try(driver.quit)
    driver_proc.terminate()

    def p95(xs):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]

    print(f"ask -> first screen painted, {RUNS} runs each, alternated:")
    for name, xs in times.items():
        print(f"  {name}: median {statistics.median(xs):.0f} ms, p95 {p95(xs):.0f} ms")
    ratio = statistics.median(times["5,000 lines"]) / statistics.median(times["10 lines"])
    print(f"  ratio of medians (5,000 / 10 lines): {ratio:.2f}")
    print(f"app PSS: idle {idle:.0f} MiB, with the 5,000-line review open {open_pss:.0f} MiB "
          f"(+{open_pss - idle:.0f} MiB)")


if __name__ == "__main__":
    main()
