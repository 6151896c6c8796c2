"""The real app in a real WebKitGTK window, driven as a person uses it."""

import os
import select
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import (Agent, Tray, app_pid, page_processes, displayed_notifications, drafts, form_of, forms, gone, notification_log, picked, shot,
                      wait_for, window_visible)

PLAN = """# Migrate the session store to Redis

## Steps
1. Add a `SessionStore` trait with an in-memory and a Redis implementation.
2. Dual-write for one release; read from Redis behind a flag.
3. Remove the in-memory store.

| Risk | Mitigation |
|---|---|
| Redis outage | fall back to in-memory |

```rust
trait SessionStore { fn get(&self, id: &str) -> Option<Session>; }
```
"""


def test_ask_notify_answer_by_clicking(app, ask):
    subprocess.run(["dunstctl", "close-all"], check=True)
    a = ask("Which package manager?", "--header", "Tooling", "--option", "npm",
            "--option", "pnpm:fast, disk-efficient", "--detail", "We need **one** for the monorepo.",
            "--agent-id", "build-bot")
    form = form_of(app, "build-bot")
    wait_for(lambda: "Which package manager?" in notification_log(), "a desktop notification")
    wait_for(lambda: displayed_notifications() == 1, "the notification on screen")
    assert form.find_element(By.CSS_SELECTOR, ".header").text == "TOOLING"
    assert form.find_element(By.CSS_SELECTOR, ".detail strong").text == "one"
    shot(app, "generic-question")
    form.find_element(By.XPATH, ".//label[.//span[text()='pnpm']]").click()
    form.find_element(By.XPATH, ".//button[text()='Submit']").click()
    code, answer, err = a.result()
    assert code == 0, err
    assert answer == {"answers": [{"id": "q", "selected": ["pnpm"]}]}
    wait_for(lambda: not forms(app), "the answered question to leave")
    wait_for(lambda: displayed_notifications() == 0, "the notification to be closed")


def test_plan_review_approved_and_revised(app, ask, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text(PLAN)
    a = ask("--plan", str(plan), "--agent-id", "planner")
    form = form_of(app, "planner")
    doc = form.find_element(By.CSS_SELECTOR, ".plan")
    assert doc.find_element(By.TAG_NAME, "h1").text == "Migrate the session store to Redis"
    assert len(doc.find_elements(By.CSS_SELECTOR, "table td")) == 2
    assert "trait SessionStore" in doc.find_element(By.CSS_SELECTOR, "pre code").text
    shot(app, "plan-review")
    form.find_element(By.XPATH, ".//button[text()='Approve']").click()
    code, answer, err = a.result()
    assert answer == {"answers": [{"id": "plan", "selected": ["Approve"]}]}, err

    a = ask("--plan", str(plan), "--agent-id", "planner-2")
    form = form_of(app, "planner-2")
    form.find_element(By.CSS_SELECTOR, "textarea[aria-label='Feedback']").send_keys("Keep the in-memory store for tests.")
    form.find_element(By.XPATH, ".//button[text()='Revise']").click()
    code, answer, err = a.result()
    assert answer == {"answers": [{"id": "plan", "selected": [], "custom": (
        "Plan not approved: revise it. Address every point below, then present the revised plan for review again."
        "\n\nOn the whole plan:\n  Keep the in-memory store for tests.")}]}, err


def test_approve_with_feedback_written_sends_it_as_notes_with_the_approval(app, ask, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text(PLAN)
    a = ask("--plan", str(plan), "--agent-id", "planner-notes")
    form = form_of(app, "planner-notes")
    form.find_element(By.CSS_SELECTOR, "textarea[aria-label='Feedback']").send_keys("Mind the session TTL.")
    form.find_element(By.XPATH, ".//button[text()='Approve']").click()
    # An approval, not turned into a Revise, with the notes under its own preamble.
    code, answer, err = a.result()
    assert answer == {"answers": [{"id": "plan", "selected": [], "custom": (
        "Plan approved, with notes from the reviewer: go ahead with the plan and follow these notes as you carry "
        "it out.\n\nOn the whole plan:\n  Mind the session TTL.")}]}, err


def test_withdrawn_questions_disappear_everywhere(app, ask):
    subprocess.run(["dunstctl", "close-all"], check=True)
    tray = Tray(app_pid())
    a = ask("Still needed?", "--option", "Yes", "--agent-id", "quitter")
    form_of(app, "quitter")
    wait_for(lambda: displayed_notifications() == 1, "the question's notification")
    wait_for(lambda: tray.labels()[0] == "Open questions (1)", "the question in the tray")
    a.p.send_signal(signal.SIGINT)
    a.result()
    # How fast (the aim is a second) is measured by benches/desktop_figures.py.
    wait_for(lambda: not forms(app), "the withdrawn question to leave the window")
    wait_for(lambda: displayed_notifications() == 0, "its notification to close")
    wait_for(lambda: tray.labels()[0] == "Open questions (0)", "the tray to forget it")


def test_reload_keeps_questions_and_drafts(app, ask):
    ask("Name the release?", "--agent-id", "namer")
    other = form_of(app, "namer").find_element(By.CSS_SELECTOR, "input[aria-label='Other']")
    other.send_keys("Aurora")
    typed = lambda: any(d and any(q.get("custom") == "Aurora" for q in d.values()) for d in drafts(app).values())
    wait_for(typed, "the draft kept in Rust")
    app.refresh()
    other = form_of(app, "namer").find_element(By.CSS_SELECTOR, "input[aria-label='Other']")
    assert other.get_attribute("value") == "Aurora"


def test_keyboard_picks_and_submits(app, ask):
    a = ask("Deploy?", "--option", "Yes", "--option", "No", "--agent-id", "kbd")
    form_of(app, "kbd")
    body = app.find_element(By.TAG_NAME, "body")
    body.send_keys("2")
    app.switch_to.active_element.send_keys(Keys.ENTER)
    code, answer, err = a.result()
    assert answer == {"answers": [{"id": "q", "selected": ["No"]}]}, err


def test_dismiss_cancels_the_ask(app, ask):
    a = ask("Delete the branch?", "--option", "Yes", "--agent-id", "cleaner")
    form_of(app, "cleaner").find_element(By.XPATH, ".//button[text()='Dismiss']").click()
    code, answer, err = a.result()
    assert (code, err) == (1, "Error: the user cancelled ask_user_question\n")


def test_fifty_questions_from_five_agents(app, sock):
    clients = ["claude-code", "codex", "cursor", "aider", "gemini-cli"]
    agents = [Agent(sock, f"agent-{i}", client=clients[i], depth=i) for i in range(5)]
    for n in range(10):
        for i, agent in enumerate(agents):
            agent.ask({"id": "q", "question": f"Question {n + 1} of agent {i}?", "header": f"Step {n + 1}",
                       "options": [{"label": "Yes"}, {"label": "No", "description": "not now"}]})
    wait_for(lambda: len(forms(app)) == 50, "fifty questions", timeout=20)
    # The side list: every agent at a glance, with its count, its questions oldest first.
    groups = app.find_elements(By.CSS_SELECTOR, "#waiting section.agent")
    assert sorted(g.get_attribute("data-agent") for g in groups) == [f"agent-{i}" for i in range(5)]
    for g in groups:
        i = g.get_attribute("data-agent").split("-")[1]
        titles = [t.text for t in g.find_elements(By.CSS_SELECTOR, "button.item .title")]
        assert titles == [f"Question {n + 1} of agent {i}?" for n in range(10)], "oldest first, none lost"
        headers = [t.text for t in g.find_elements(By.CSS_SELECTOR, "button.item .header")]
        assert headers == [f"Step {n + 1}" for n in range(10)], "each with its header"
        assert g.find_element(By.CSS_SELECTOR, "h2 .n").text == "10 questions"
        assert g.find_element(By.CSS_SELECTOR, "h2 .client").text == clients[int(i)], "the agent's client is named"
        said = {"0": "", "1": "asked by a subagent"}.get(i, f"asked by a subagent {i} levels down")
        assert g.find_element(By.CSS_SELECTOR, "h2 .depth").text == said, "a subagent is said in words"
        assert "null" not in g.text
        # The header wraps, never overlaps: no two of its parts share a pixel.
        rects = app.execute_script(
            "return [...arguments[0].querySelectorAll('h2 > span, h2 .about > span')]"
            ".filter(s => s.textContent && !s.classList.contains('about'))"
            ".map(s => s.getBoundingClientRect()).map(r => [r.left, r.top, r.right, r.bottom])", g)
        for a, b in [(a, b) for n, a in enumerate(rects) for b in rects[n + 1:]]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, f"agent-{i}'s header parts overlap: {rects}"
    assert app.find_element(By.ID, "count").text == "50 waiting"
    # One question on the right, full size: the first in the list, until another is picked.
    lines = [b.text for b in app.find_elements(By.CSS_SELECTOR, "#waiting button.item .title")]
    current = lambda: app.find_element(By.CSS_SELECTOR, "#waiting button.item[aria-current='true'] .title").text
    shown = lambda: [f.find_element(By.CSS_SELECTOR, "p.text").text for f in forms(app) if f.is_displayed()]
    wait_for(lambda: shown() == [lines[0]] == [current()], "the oldest question shown")
    assert not [f for f in forms(app) if f.is_displayed()][0].find_elements(By.CSS_SELECTOR, ".detail"), \
        "no detail, no detail block"
    shot(app, "inbox")
    # Answered one after another, with no scrolling: each answer shows the next.
    body = app.find_element(By.TAG_NAME, "body")
    for n in range(2):
        body.send_keys("1")
        app.switch_to.active_element.send_keys(Keys.ENTER)
        wait_for(lambda: current() == lines[n + 1] and shown() == [lines[n + 1]],
                 f"the next question shown: {lines[n + 1]}")
    # j goes down the list, k back up.
    body.send_keys("j")
    wait_for(lambda: current() == lines[3], "j: the next in the list")
    body.send_keys("k")
    wait_for(lambda: current() == lines[2], "k: the one before")
    count = lambda: app.find_element(By.CSS_SELECTOR, "#waiting section.agent[data-agent='agent-3'] h2 .n").text
    before = int(count().split()[0])
    form_of(app, "agent-3").find_element(By.XPATH, ".//button[text()='Submit']").click()
    wait_for(lambda: count() == f"{before - 1} questions", "the count follows the answer")
    for agent in agents:
        agent.close()
    wait_for(lambda: not forms(app), "every question withdrawn when its agents go", timeout=5)


HOSTILE = [
    "<script>window.__pwned = 1</script>",
    "<img src=x onerror=\"window.__pwned = 1\">",
    "[click](javascript:window.__pwned=1)",
    "<svg onload=\"window.__pwned = 1\"></svg>",
    "<iframe srcdoc=\"<script>parent.__pwned = 1</script>\"></iframe>",
    "<a href=\"javascript:window.__pwned=1\" id=\"trap\">trap</a>",
    "<div style=\"position:fixed;inset:0;background:red\">cover</div>",
    "<details open ontoggle=\"window.__pwned = 1\">x</details>",
    "[x](data:text/html,<script>parent.__pwned=1</script>)",
    "<math><mtext><table><mglyph><style><img src=x onerror=\"window.__pwned=1\">",
]


def test_hostile_details_and_labels_run_nothing(app, ask):
    for i, payload in enumerate(HOSTILE):
        ask(payload, "--header", payload, "--detail", payload, "--option", payload[:60] or "x",
            "--option", f"safe{i}", "--agent-id", f"hostile-{i}")
    wait_for(lambda: len(forms(app)) == len(HOSTILE), "every hostile question", timeout=15)
    time.sleep(0.5)
    for form in forms(app):
        picked(app, form)
        for link in form.find_elements(By.CSS_SELECTOR, ".detail a"):
            href = link.get_attribute("href") or ""
            assert not href.lower().startswith(("javascript:", "data:")), href
            link.click() if href == "" else None
    assert app.execute_script("return window.__pwned") is None
    assert not app.find_elements(By.CSS_SELECTOR, ".detail script, .detail img, .detail svg, .detail iframe, .detail [style], [onerror], [onload], [ontoggle]")
    texts = [e.get_attribute("textContent") for e in app.find_elements(By.CSS_SELECTOR, "p.text")]
    assert HOSTILE[0] in texts, "question text is shown as text, not markup"
    titles = [e.get_attribute("textContent") for e in app.find_elements(By.CSS_SELECTOR, "#waiting .title")]
    assert HOSTILE[0] in titles, "and so is its line in the side list"
    shot(app, "hostile")


def test_a_notification_click_opens_the_window_at_its_question(app, ask):
    subprocess.run(["dunstctl", "close-all"], check=True)
    ask("First?", "--agent-id", "first")
    form_of(app, "first")
    app.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait_for(lambda: not window_visible(), "Esc to hide the window")
    subprocess.run(["dunstctl", "close-all"], check=True)
    ask("Which region?", "--option", "eu", "--option", "us", "--agent-id", "clicked")
    wait_for(lambda: "Which region?" in notification_log(), "the notification")
    wait_for(lambda: displayed_notifications() == 1, "the notification on screen")
    subprocess.run(["dunstctl", "action", "0"], check=True)
    wait_for(window_visible, "the window to open from the notification")
    form = form_of(app, "clicked")
    wait_for(lambda: "focused" in form.get_attribute("class"), "the clicked question to be focused")


def test_quit_by_signal_ends_asks_and_removes_the_socket(app, sock):
    agent = Agent(sock, "waiter")
    agent.ask({"id": "q", "question": "Wait?"})
    form_of(app, "waiter")
    pid = int(subprocess.run(["pgrep", "-n", "-f", "target/debug/user-questions"], capture_output=True, text=True).stdout)
    os.kill(pid, signal.SIGTERM)
    reply = agent.reply()
    assert reply["error"]["data"]["code"] == "SHUTTING_DOWN", reply
    wait_for(lambda: not sock.exists(), "the socket file to be removed")


def test_a_second_launch_focuses_the_running_window_and_one_on_another_socket_serves_beside_it(app, sock, tmp_path):
    from conftest import APP

    def press():
        # Again until it hides: a key sent while the page is still loading is lost.
        app.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        time.sleep(0.5)
        return not window_visible()

    wait_for(press, "Esc to hide the window")
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    second = subprocess.run([APP], env=env, capture_output=True, timeout=20)
    assert second.returncode == 0, second.stderr
    wait_for(window_visible, "the running window to come back")
    assert sock.exists(), "the first instance still serves"

    # A launch on another socket is another server: it runs beside the first (one app
    # per socket, not per person), and the first goes on serving its own.
    other = tmp_path / "other.sock"
    beside = subprocess.Popen([APP, "--background"], stderr=subprocess.DEVNULL, env=dict(
        env, USERQ_SOCKET=str(other), USERQ_DATA_DIR=str(tmp_path / "other-data"),
        XDG_CONFIG_HOME=str(tmp_path / "other-config")))
    try:
        wait_for(other.exists, "the socket of the app launched on another socket")
        assert beside.poll() is None, "the second server runs"
    finally:
        beside.send_signal(signal.SIGTERM)
        beside.wait(10)
    assert sock.exists(), "the first instance serves on"


def hide_with_escape():
    """Real X input: a click gives the page focus once it has loaded, then Esc."""
    window = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^User Questions"], capture_output=True, text=True).stdout.split()[0]

    def press():
        subprocess.run(["xdotool", "mousemove", "--window", window, "200", "200", "click", "1", "key", "Escape"], check=True)
        time.sleep(0.5)
        return not window_visible()

    wait_for(press, "Esc to hide the window")


def test_background_start_holds_no_webview_until_a_question_whose_click_only_shows_it(tmp_path):
    from conftest import APP

    sock = tmp_path / "bg.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_DATA_DIR=str(tmp_path / "data"),
               RUST_LOG="warn,user_questions_desktop::window=debug", USERQ_WINDOW_IDLE_SECS="1")
    bg = subprocess.Popen([APP, "--background"], env=env, stderr=subprocess.PIPE, text=True)
    said = []
    threading.Thread(target=lambda: said.extend(bg.stderr), daemon=True).start()
    page = lambda: page_processes(bg.pid)
    try:
        subprocess.run(["dunstctl", "close-all"], check=True)
        wait_for(sock.exists, "the tray app's socket")
        Tray(bg.pid)  # the tray is up: start-up is over
        assert not window_visible(), "started in the tray, no window"
        assert not page(), "no web page process while nothing is pending"
        agent = Agent(sock, "tray-only")
        agent.ask({"id": "q", "question": "Asked while in the tray?", "options": [{"label": "Yes"}, {"label": "No"}]})
        wait_for(lambda: "Asked while in the tray?" in notification_log(), "a notification without a window")
        # The question got the window ready: built, page loaded, and not shown.
        wait_for(page, "the window built hidden for the question")
        wait_for(lambda: any("the window is kept" in line for line in said), "the idle time to pass")
        assert not window_visible(), "still hidden: nobody asked to see it"
        assert page(), "kept while its question waits, though hidden longer than the idle time"
        wait_for(lambda: displayed_notifications() >= 1, "the notification on screen")
        subprocess.run(["dunstctl", "action", "0"], check=True)
        wait_for(window_visible, "the click shows the window")
        agent.close()  # withdrawn: nothing pending any more
        hide_with_escape()
        wait_for(lambda: not page(), "no webview once hidden a while with nothing pending", timeout=10)
    finally:
        bg.send_signal(signal.SIGTERM)
        bg.wait(10)
        gone()
    assert not sock.exists()


def test_a_plan_is_approved_from_its_notification(app, ask, tmp_path):
    subprocess.run(["dunstctl", "close-all"], check=True)
    plan = tmp_path / "plan.md"
    plan.write_text(PLAN)
    a = ask("--plan", str(plan), "--agent-id", "from-notification")
    form_of(app, "from-notification")
    wait_for(lambda: "Approve this plan?" in notification_log(), "the plan's notification")
    wait_for(lambda: displayed_notifications() == 1, "the plan's notification on screen")
    subprocess.run(["dunstctl", "context"], check=True, timeout=10)
    code, answer, err = a.result()
    assert answer == {"answers": [{"id": "plan", "selected": ["Approve"]}]}, err
    wait_for(lambda: not forms(app), "the answered plan to leave the window")


def test_an_unknown_intent_renders_as_a_generic_question(app, sock):
    agent = Agent(sock, "future")
    agent.ask({"id": "d", "question": "Apply this diff?", "detail": "```diff\n-a\n+b\n```",
               "options": [{"label": "Apply"}, {"label": "Skip"}],
               "intent": {"kind": "diff-review", "approve": "Apply", "files": ["a.rs"]}})
    form = form_of(app, "future")
    assert len(form.find_elements(By.CSS_SELECTOR, "input[type=radio]")) == 2
    assert not form.find_elements(By.CSS_SELECTOR, ".plan, button.approve")
    form.find_element(By.XPATH, ".//label[.//span[text()='Apply']]").click()
    form.find_element(By.XPATH, ".//button[text()='Submit']").click()
    assert agent.reply()["result"] == {"answers": [{"id": "d", "selected": ["Apply"]}]}
    agent.close()


def test_a_hidden_window_is_destroyed_and_its_page_process_exits(tmp_path):
    from conftest import APP

    sock = tmp_path / "idle.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), RUST_LOG="warn", USERQ_WINDOW_IDLE_SECS="1")
    gone()  # no window of an earlier test's app to be found in this one's place
    app = subprocess.Popen([APP], env=env, stderr=subprocess.DEVNULL)
    page = lambda: page_processes(app.pid)
    try:
        wait_for(window_visible, "the window of a launch by a person")
        wait_for(page, "the page process")
        hide_with_escape()
        wait_for(lambda: not page(), "the page process to exit after the window stayed hidden", timeout=10)
        assert app.poll() is None, "the app lives on in the tray"
        assert sock.exists()

        # A window built anew after the destroy answers as the first one did.
        subprocess.run([APP], env=env, check=True, timeout=20)  # a second launch opens the window
        wait_for(window_visible, "the window built anew")
        assert answer_by_keyboard(sock, "after-destroy") == [{"id": "q", "selected": ["No"]}]
    finally:
        app.send_signal(signal.SIGTERM)
        app.wait(10)
        gone()


@pytest.mark.env(USERQ_DATA_DIR="/dev/null/history")
def test_a_history_that_cannot_be_kept_is_named_in_the_window_and_questions_go_on(app, ask):
    a = ask("Still there?", "--option", "Yes", "--agent-id", "no-history")
    form = form_of(app, "no-history")
    notice = app.find_element(By.ID, "history-problem")
    assert notice.is_displayed()
    assert notice.text.startswith("History is off.") and "/dev/null/history cannot be used (" in notice.text, notice.text
    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    wait_for(lambda: notice.text.startswith("历史记录已关闭。") and "无法使用 /dev/null/history（" in notice.text, "the notice in Chinese")
    shot(app, "history-off-zh-CN")
    Select(app.find_element(By.ID, "language")).select_by_value("en")
    wait_for(lambda: notice.text.startswith("History is off."), "the notice in English again")
    form = form_of(app, "no-history")
    form.find_element(By.XPATH, ".//label[.//span[text()='Yes']]").click()
    form.find_element(By.CSS_SELECTOR, "button.primary").click()
    code, answer, err = a.result()
    assert (code, answer) == (0, {"answers": [{"id": "q", "selected": ["Yes"]}]}), err


def test_j_and_k_go_from_question_to_question(app, ask):
    first = ask("First?", "--option", "A", "--option", "B", "--agent-id", "nav-1")
    form_of(app, "nav-1")
    second = ask("Second?", "--option", "C", "--option", "D", "--agent-id", "nav-2")
    form_of(app, "nav-2")
    body = app.find_element(By.TAG_NAME, "body")
    body.send_keys("j")
    wait_for(lambda: app.switch_to.active_element.find_element(By.XPATH, "./ancestor::form").get_attribute("data-agent") == "nav-2",
             "j to the second question")
    app.switch_to.active_element.send_keys("k")
    wait_for(lambda: app.switch_to.active_element.find_element(By.XPATH, "./ancestor::form").get_attribute("data-agent") == "nav-1",
             "k back to the first")
    app.switch_to.active_element.send_keys("2")
    app.switch_to.active_element.send_keys(Keys.ENTER)
    assert first.result()[1] == {"answers": [{"id": "q", "selected": ["B"]}]}
    form_of(app, "nav-2").find_element(By.CSS_SELECTOR, "button.dismiss").click()
    assert second.result()[0] == 1


def test_the_page_loads_itself_again_in_a_new_page_process_after_many_questions_once_nothing_waits(tmp_path):
    # WebKit keeps what a long run of questions used until the page is loaded again,
    # in a page process of its own: the old one exits, and its memory is freed at once.
    # (A WebDriver session ends with the page process it drove, so real X input here.)
    from conftest import APP

    sock = tmp_path / "renew.sock"
    env = dict(os.environ, USERQ_SOCKET=str(sock), RUST_LOG="warn", USERQ_WINDOW_RENEW_AFTER="3",
               USERQ_DATA_DIR=str(tmp_path / "data"))
    # Its socket is its own, and so is its single instance: an app of an earlier test
    # still running is another server, and this launch comes up beside it.
    gone()
    app = subprocess.Popen([APP], env=env, stderr=subprocess.DEVNULL)
    pages = lambda: page_processes(app.pid)
    try:
        # Its own window: the socket is bound before the window opens.
        wait_for(lambda: window_visible(app.pid), "the window of a launch by a person")
        assert sock.exists(), "the socket is there once the window is"
        first = wait_for(pages, "the page process")
        for i in range(3):
            assert answer_by_keyboard(sock, f"renew-{i}") == [{"id": "q", "selected": ["No"]}]
            if i < 2:
                assert pages() == first, "renewed only after three questions"
        wait_for(lambda: pages() and not pages() & first, "the old page process gone, a new one in its place")
        # The page loaded anew answers as before.
        assert answer_by_keyboard(sock, "renewed") == [{"id": "q", "selected": ["No"]}]
    finally:
        app.send_signal(signal.SIGTERM)
        app.wait(10)
        gone()


def answer_by_keyboard(sock, agent_id):
    """Asks a question as `agent_id` and answers it in the window with real X input,
    once the page has listed it (it titles the window with what waits; keys sent
    before that would reach a page with no form yet): 2 picks "No", Enter submits,
    again until the answer comes."""
    agent = Agent(sock, agent_id)
    agent.ask({"id": "q", "question": "Still there?", "options": [{"label": "Yes"}, {"label": "No"}]})
    rendered = lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", r"^User Questions \(1\)"],
                                      capture_output=True, text=True).stdout.split()
    window = wait_for(rendered, f"the question of {agent_id} listed in the window")[0]

    def answer():
        subprocess.run(["xdotool", "mousemove", "--window", window, "5", "5", "click", "1", "key", "2", "key", "Return"], check=True)
        return agent.reply() if select.select([agent.s], [], [], 0.5)[0] else None

    reply = wait_for(answer, f"the answer to {agent_id} from the window")
    agent.close()
    return reply["result"]["answers"]
