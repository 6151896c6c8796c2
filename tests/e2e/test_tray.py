"""The tray as a desktop panel drives it: the session's tray host (a
StatusNotifierWatcher) receives the app's item, and these tests read its icon and
menu and click menu items over D-Bus, as a panel does when a person clicks."""

import os
import signal
import subprocess
import threading
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import (APP, Agent, Tray, app_pid, form_of, forms, gone, notification_log, wait_for,
                      window_visible)

FIXED = ["Do not disturb", "Start at login", "Quit"]


def icon(tray):
    """The icon's image as the panel would load it."""
    return Path(tray.prop("IconName")).read_bytes()


def test_the_menu_lists_waiting_questions_and_opens_them(app, sock):
    tray = Tray(app_pid())
    idle = icon(tray)
    wait_for(lambda: tray.labels() == ["Open questions (0)", *FIXED], "the idle menu")
    agent = Agent(sock, "tray")
    texts = ["Which package manager should every workspace of this monorepo use from now on?",
             "Rename build_all & test_all?"] + [f"Question {i}?" for i in range(2, 7)]
    for text in texts:
        agent.ask({"id": "q", "question": text})
    wait_for(lambda: len(forms(app)) == 7, "seven questions in the window")
    expected = ["Open questions (7)",
                ("tray: " + texts[0])[:59] + "…",
                "tray: Rename build_all & test_all?",
                "tray: Question 2?", "tray: Question 3?", "tray: Question 4?", *FIXED]
    wait_for(lambda: tray.labels() == expected, f"the menu {expected}, got {tray.labels()}")
    assert len(expected[1]) == 60, "long questions are cut to 60 characters"
    assert icon(tray) != idle, "the icon changes while questions wait"

    app.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait_for(lambda: not window_visible(), "Esc to hide the window")
    tray.click("tray: Question 3?")
    wait_for(window_visible, "the window to open from the tray")
    form = [f for f in forms(app) if "Question 3?" in f.text][0]
    wait_for(lambda: "focused" in form.get_attribute("class"), "the question picked in the tray to be focused")

    app.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait_for(lambda: not window_visible(), "Esc to hide the window")
    tray.click("Open questions")
    wait_for(window_visible, "Open questions to bring the window back")

    agent.close()
    wait_for(lambda: tray.labels() == ["Open questions (0)", *FIXED], "the menu to empty when the agent leaves")
    wait_for(lambda: icon(tray) == idle, "the idle icon back")


def test_do_not_disturb_pauses_notifications_not_questions(app, sock):
    tray = Tray(app_pid())
    tray.click("Do not disturb")
    wait_for(lambda: dict((l, t) for _, l, t in tray.menu())["Do not disturb"] == 1, "the item to be checked")
    wait_for(lambda: app.find_element(By.ID, "dnd").is_displayed(), "the window to show Do not disturb")
    agent = Agent(sock, "quiet")
    agent.ask({"id": "q", "question": "Asked during do not disturb?"})
    form_of(app, "quiet")
    wait_for(lambda: tray.labels()[0] == "Open questions (1)", "the question counted in the tray")

    tray.click("Do not disturb")
    wait_for(lambda: dict((l, t) for _, l, t in tray.menu())["Do not disturb"] == 0, "the item to be unchecked")
    wait_for(lambda: not app.find_element(By.ID, "dnd").is_displayed(), "the badge to go")
    agent.ask({"id": "q", "question": "Asked after do not disturb?"})
    wait_for(lambda: "Asked after do not disturb?" in notification_log(), "notifications to resume")
    # Notifications leave in the order their questions came: the later one is out, so
    # the earlier one would be by now.
    assert "Asked during do not disturb?" not in notification_log(), "no notification while paused"
    agent.close()


def background_app(tmp_path, **env):
    sock = tmp_path / "tray.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), RUST_LOG="warn", **env)
    proc = subprocess.Popen([APP, "--background"], env=env, stderr=subprocess.PIPE, text=True)
    said = []
    threading.Thread(target=lambda: said.extend(proc.stderr), daemon=True).start()
    wait_for(lambda: sock.exists() or proc.poll() is not None, "the tray app's socket", timeout=20)
    assert proc.poll() is None, f"the app ended at start ({proc.returncode}): {''.join(said)}"
    return proc, sock


def test_start_at_login_writes_and_removes_the_autostart_entry(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    # A home of its own for the autostart entry; the caches (fonts above all, which take
    # long to gather anew) stay where they are.
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    proc, _ = background_app(tmp_path, HOME=str(home), XDG_CACHE_HOME=cache)
    entry = home / ".config" / "autostart" / "User Questions.desktop"
    try:
        tray = Tray(proc.pid)
        assert dict((l, t) for _, l, t in tray.menu())["Start at login"] == 0, "off by default"
        assert not entry.exists()
        tray.click("Start at login")
        wait_for(entry.exists, "the autostart entry")
        text = entry.read_text()
        # The app names itself as the system finds it (a target folder may be a link).
        app = os.path.realpath(APP)
        assert f"Exec={app} --background" in text or f'Exec="{app}" --background' in text, text
        wait_for(lambda: dict((l, t) for _, l, t in tray.menu())["Start at login"] == 1, "the item to be checked")
        tray.click("Start at login")
        wait_for(lambda: not entry.exists(), "the autostart entry to be removed")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        gone()


def test_quit_ends_asks_with_shutting_down_and_removes_the_socket(tmp_path):
    proc, sock = background_app(tmp_path)
    try:
        tray = Tray(proc.pid)
        agent = Agent(sock, "left-waiting")
        agent.ask({"id": "q", "question": "Still there?"})
        wait_for(lambda: tray.labels()[0] == "Open questions (1)", "the question in the tray")
        tray.click("Quit")
        reply = agent.reply()
        assert reply["error"]["data"]["code"] == "SHUTTING_DOWN", reply
        assert proc.wait(10) == 0, "Quit exits cleanly"
        assert not sock.exists(), "the socket is removed"
    finally:
        if proc.poll() is None:
            proc.kill()
        gone()
