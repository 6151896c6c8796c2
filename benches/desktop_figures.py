"""Figures of the real desktop app, inside tests/e2e/session (Xvfb, D-Bus, dunst):
  - ask -> desktop notification, and ask -> question visible in the window;
  - the asker leaving -> its question gone from the window, the screen (its
    notification closed) and the tray menu;
  - PSS of the app with its WebKit processes: tray only (--background), window open
    and idle, with 1,000 pending, after 10,000 answered through the window (3 s and
    30 s after the last). The page is renewed in a new page process once, after the
    last answer, rather than after each 1,000 questions built: a WebDriver session
    ends with the page process it drove, so the run renews only when it is done
    with it, and the History view is then measured in a session of its own;
  - the History view's first page with 100,000 recorded asks (tab clicked -> 50 shown);
  - the peer desktop app (mcp-feedback-enhanced 2.8.5's Linux binary) idle, measured
    the same way.
Usage: tests/e2e/session .tools/venv/bin/python benches/desktop_figures.py"""

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from conftest import APP, DRIVER, OUT, Agent, Tray, answer_all, page_processes, displayed_notifications, wait_for  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.options import ArgOptions  # noqa: E402

PEER = Path(__file__).resolve().parents[1] / ".tools/peer/lib/python3.11/site-packages/mcp_feedback_enhanced/desktop_release/mcp-feedback-enhanced-desktop-linux"
RELEASE = APP.parent.parent / "release" / "user-questions"
BINARY = RELEASE if RELEASE.exists() else APP


def tree(pid):
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        kids = Path(f"/proc/{p}/task/{p}/children")
        if kids.exists():
            todo.extend(int(c) for c in kids.read_text().split())
    return pids


def pss_mib(pid):
    total = 0
    for p in tree(pid):
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total / 1024


def breakdown(pid):
    """PSS by process name, in MiB."""
    parts = {}
    for p in tree(pid):
        try:
            name = Path(f"/proc/{p}/comm").read_text().strip()
            kib = next(int(l.split()[1]) for l in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines() if l.startswith("Pss:"))
        except (FileNotFoundError, StopIteration):
            continue
        parts[name] = parts.get(name, 0) + kib / 1024
    return ", ".join(f"{n} {v:.0f}" for n, v in sorted(parts.items()))


def settle(pid, seconds=3, label=None):
    time.sleep(seconds)
    if label:
        print(f"  {label}: {breakdown(pid)}")
    return pss_mib(pid)


def notified(text):
    log = OUT / "notifications.log"
    return log.exists() and text in log.read_text(errors="replace")


def main():
    sock_dir = tempfile.mkdtemp()
    sock = Path(sock_dir) / "userq.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_DATA_DIR=str(sock.parent / "data"), RUST_LOG="warn")
    print(f"app binary: {BINARY}")

    tray = subprocess.Popen([BINARY, "--background"], env=env, stderr=subprocess.DEVNULL)
    wait_for(sock.exists, "the tray app's socket")
    tray_pss = settle(tray.pid)
    tray.terminate()
    tray.wait(10)
    fill_history(sock.parent / "data" / "history.sqlite3", 100_000)

    # Built: 40 timing questions, 1,000 pending, 10,000 answered; the renewal comes
    # once nothing waits after the last of them.
    env["USERQ_WINDOW_RENEW_AFTER"] = str(40 + 1000 + 10_000)
    driver_proc = subprocess.Popen([DRIVER, "--port", "4777", "--native-driver", "/usr/bin/WebKitWebDriver"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver, pid = session(sock)
    idle_pss = settle(pid, label="idle")

    tray_item = Tray(pid)
    to_notify, to_visible, to_gone = [], [], []
    for i in range(40):
        agent = Agent(sock, f"timing-{i}")
        text = f"Timing question {i} {time.time_ns()}?"
        t0 = time.perf_counter()
        agent.ask({"id": "q", "question": text})
        seen_notify = seen_visible = None
        while seen_notify is None or seen_visible is None:
            now = time.perf_counter()
            if seen_visible is None and driver.execute_script(
                    "return [...document.querySelectorAll('p.text')].some(p => p.textContent === arguments[0])", text):
                seen_visible = time.perf_counter() - t0
            if seen_notify is None and notified(text):
                seen_notify = time.perf_counter() - t0
            if now - t0 > 10:
                raise RuntimeError("timed out")
            time.sleep(0.002)
        to_notify.append(seen_notify)
        to_visible.append(seen_visible)
        wait_for(lambda: displayed_notifications() == 1 and tray_item.labels()[0] == "Open questions (1)", "on screen and in the tray")
        t1 = time.perf_counter()
        agent.close()  # the asker leaves: its question is withdrawn
        in_window = on_screen = in_tray = True
        while in_window or on_screen or in_tray:
            if in_window:
                in_window = driver.execute_script(
                    "return [...document.querySelectorAll('p.text')].some(p => p.textContent === arguments[0])", text)
            on_screen = on_screen and displayed_notifications() > 0
            in_tray = in_tray and tray_item.labels()[0] != "Open questions (0)"
            if time.perf_counter() - t1 > 10:
                raise RuntimeError("timed out")
        to_gone.append(time.perf_counter() - t1)
        time.sleep(0.15)

    many = Agent(sock, "thousand")
    for i in range(1000):
        many.ask({"id": "q", "question": f"Pending {i}?", "options": [{"label": "Yes"}, {"label": "No"}]})
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('form.ask').length") == 1000, "1,000 pending", 60)
    pending_pss = settle(pid, label="1,000 pending")
    many.close()
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('form.ask').length") == 0, "withdrawn", 60)

    answered = 0
    for round_ in range(20):
        batch = Agent(sock, f"batch-{round_}")
        for i in range(500):
            batch.ask({"id": "q", "question": f"Batch {round_} question {i}?", "options": [{"label": "Yes"}]})
        wait_for(lambda: driver.execute_script("return document.querySelectorAll('form.ask').length") == 500, "a batch", 60)
        answer_all(driver)
        for _ in range(500):
            assert "result" in batch.reply()
        answered += 500
        batch.close()
    page = lambda: page_processes(pid)
    before = page()
    wait_for(lambda: page() and not page() & before, "the page renewed in a new page process", 60)
    after_pss = settle(pid, label="after 10,000 answered")
    later_pss = settle(pid, 30, label="30 s later")
    _try(driver.quit)
    os.kill(pid, signal.SIGTERM)
    wait_for(lambda: not sock.exists(), "the app gone")
    driver, _ = session(sock)
    first_page = history_first_page(driver, sock.parent / "data" / "history.sqlite3")
    driver.quit()
    driver_proc.terminate()

    peer_pss = None
    if PEER.exists():
        peer = subprocess.Popen([PEER], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        peer_pss = settle(peer.pid, 6)
        peer.terminate()
        peer.wait(10)

    def p(xs, q):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] * 1000

    print(f"ask -> notification (40 asks, polled every 2 ms): median {statistics.median(to_notify) * 1000:.0f} ms, p95 {p(to_notify, 0.95):.0f} ms")
    print(f"ask -> visible in the window (40 asks, polled over WebDriver): median {statistics.median(to_visible) * 1000:.0f} ms, p95 {p(to_visible, 0.95):.0f} ms")
    print(f"asker leaves -> its question gone from the window, the screen and the tray (40 asks, polled in turn): "
          f"median {statistics.median(to_gone) * 1000:.0f} ms, p95 {p(to_gone, 0.95):.0f} ms, max {max(to_gone) * 1000:.0f} ms")
    print(f"PSS, app + WebKit processes: tray only {tray_pss:.0f} MiB; window open, idle {idle_pss:.0f} MiB; "
          f"1,000 pending {pending_pss:.0f} MiB; after {answered:,} answered {after_pss:.0f} MiB, 30 s later {later_pss:.0f} MiB")
    print(f"History view, first page of 50 out of {first_page[1]:,} recorded asks (tab clicked -> shown, 10 times): "
          f"median {statistics.median(first_page[0]) * 1000:.0f} ms, max {max(first_page[0]) * 1000:.0f} ms")
    if peer_pss is not None:
        print(f"peer mcp-feedback-enhanced 2.8.5 desktop app, idle, same measure: {peer_pss:.0f} MiB PSS "
              f"(ratio to our idle window: {peer_pss / idle_pss:.1f}x)")


def fill_history(path, n):
    """`n` recorded asks, as the recorder writes them, put straight into the file the
    tray app made (the app is not running)."""
    import json
    import sqlite3
    conn = sqlite3.connect(path)
    now = time.time_ns()
    rows = []
    for i in range(n):
        q = {"id": "q", "question": f"Which package manager for service {i}?", "options": [{"label": "npm"}, {"label": "pnpm"}]}
        outcome = {"answer": {"answers": [{"id": "q", "selected": ["pnpm"]}]}}
        at = now - (n - i) * 1_000_000
        rows.append((at, i, f"agent-{i % 5}", "claude-code", 0, json.dumps({"questions": [q]}), None,
                     f"which package manager for service {i}?\npnpm", at + 500_000_000, json.dumps(outcome), "window"))
    conn.executemany("INSERT INTO asks (asked_at, seq, agent_id, agent_client, agent_depth, request, context, search, "
                     "ended_at, outcome, answered_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()


def history_first_page(driver, path):
    """Clicks the History tab and waits for its first page, ten times; the times and
    how many asks the history holds."""
    from selenium.webdriver.common.by import By
    times = []
    for _ in range(10):
        driver.find_element(By.CSS_SELECTOR, "nav.tabs button[data-view='questions']").click()
        t0 = time.perf_counter()
        driver.find_element(By.CSS_SELECTOR, "nav.tabs button[data-view='history']").click()
        wait_for(lambda: driver.execute_script(
            "return document.querySelectorAll('#history-list > li').length") == 50, "the first page", 10)
        times.append(time.perf_counter() - t0)
        driver.execute_script("document.getElementById('history-list').replaceChildren()")
    import sqlite3
    conn = sqlite3.connect(path)
    total = conn.execute("SELECT count(*) FROM asks").fetchone()[0]
    conn.close()
    return times, total


def session(sock):
    """A WebDriver session with the app (tauri-driver launches it): the driver, and the
    app's pid once it serves."""
    options = ArgOptions()
    options.set_capability("browserName", "wry")
    options.set_capability("tauri:options", {"application": str(BINARY)})
    driver = wait_for(lambda: _try(lambda: webdriver.Remote("http://127.0.0.1:4777", options=options)), "tauri-driver")
    wait_for(sock.exists, "the app's socket")
    return driver, int(subprocess.run(["pgrep", "-n", "-f", str(BINARY)], capture_output=True, text=True).stdout)


def _try(make):
    try:
        return make()
    except Exception:
        return None


if __name__ == "__main__":
    main()
