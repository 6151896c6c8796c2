"""The window's lifecycle, inside tests/e2e/session: time from a notification click to
the window mapped and to its question painted, for a question that arrived when no
window existed (the window is destroyed before each ask: the app builds it hidden when
the question comes, so the click only maps it; "painted" is read from the X server's
pixels, where the question's text appears), and PSS after 100 open/close cycles, next
to the first. Real X input
throughout: dunstctl invokes the notification's default action, xdotool presses Esc.
Usage: tests/e2e/session .tools/venv/bin/python benches/window_cycles.py"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import APP, Agent, displayed_notifications, wait_for  # noqa: E402
from desktop_figures import breakdown, pss_mib  # noqa: E402

RELEASE = APP.parent.parent / "release" / "user-questions"
BINARY = RELEASE if RELEASE.exists() else APP


def window():
    out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^User Questions"], capture_output=True, text=True)
    return out.stdout.split()[0] if out.stdout.split() else None


def question_painted(wid):
    """True once dark text sits on the page's light background where the first
    question's text is drawn (left of the empty-list message, below the group title)."""
    from Xlib import X, display
    d = display.Display()
    try:
        raw = d.create_resource_object("window", int(wid)).get_image(30, 125, 170, 75, X.ZPixmap, 0xFFFFFFFF).data
    except Exception:
        return False
    finally:
        d.close()
    px = [raw[i:i + 3] for i in range(0, len(raw), 4)]
    dark = sum(1 for p in px if max(p) < 90)
    light = sum(1 for p in px if min(p) > 200)
    return dark >= 20 and light >= len(px) // 2


def poll(check, what, timeout=10):
    """`wait_for` with a shorter pause: the figures are read every 10 ms (tighter
    polling takes CPU the page needs on this two-core machine)."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def page_process(pid):
    return subprocess.run(["pgrep", "-P", str(pid), "WebKitWebProces"], capture_output=True, text=True).stdout.strip()


def close(pid):
    def press():
        w = window()
        if w is None:
            return True
        subprocess.run(["xdotool", "mousemove", "--window", w, "200", "200", "click", "1", "key", "Escape"], check=True)
        time.sleep(0.2)
        return window() is None
    wait_for(press, "Esc to hide the window")
    wait_for(lambda: not page_process(pid), "the window to be destroyed", 10)


def main():
    sock = Path(tempfile.mkdtemp()) / "userq.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_DATA_DIR=str(sock.parent / "data"), RUST_LOG="warn", USERQ_WINDOW_IDLE_SECS="0")
    app = subprocess.Popen([BINARY], env=env, stderr=subprocess.DEVNULL)
    wait_for(window, "the first window")
    time.sleep(1)
    close(app.pid)

    clicks, painted = [], []
    for i in range(20):
        subprocess.run(["dunstctl", "close-all"], check=True)
        assert not page_process(app.pid), "no webview before the question"
        agent = Agent(sock, f"cycler-{i}")
        agent.ask({"id": f"q{i}", "question": f"Click me {i}?"})
        wait_for(lambda: displayed_notifications() >= 1, "the notification")
        time.sleep(0.3)  # a person reads it
        started = time.perf_counter()
        subprocess.run(["dunstctl", "action", "0"], check=True)
        wid = poll(window, "the window from the click")
        clicks.append(time.perf_counter() - started)
        poll(lambda: question_painted(wid), "the question painted")
        painted.append(time.perf_counter() - started)
        agent.close()  # its question withdrawn: nothing pending, so the window may go
        close(app.pid)

    first = None
    for i in range(100):
        subprocess.run([BINARY], env=env, check=True, timeout=20)  # a second launch opens the window
        wait_for(window, "the window")
        close(app.pid)
        time.sleep(0.3)
        if i == 0:
            first = pss_mib(app.pid)
        if i in (0, 24, 49, 99):
            print(f"  after {i + 1} cycles: {breakdown(app.pid)}", flush=True)
    after = pss_mib(app.pid)
    app.terminate()
    app.wait(10)
    p95 = lambda xs: sorted(xs)[round(0.95 * (len(xs) - 1))] * 1000
    print(f"notification click -> window mapped, {len(clicks)} clicks: median {statistics.median(clicks) * 1000:.0f} ms, p95 {p95(clicks):.0f} ms, max {max(clicks) * 1000:.0f} ms")
    print(f"notification click -> its question painted: median {statistics.median(painted) * 1000:.0f} ms, p95 {p95(painted):.0f} ms, max {max(painted) * 1000:.0f} ms")
    print(f"PSS with no window: after 1 open/close cycle {first:.0f} MiB; after 100 cycles {after:.0f} MiB ({after - first:+.0f} MiB)")


if __name__ == "__main__":
    main()
