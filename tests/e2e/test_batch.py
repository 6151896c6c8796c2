"""Several permission requests answered at once in the real window: three agents'
hooks ask together, the person marks two (Ctrl+click, then the x key), sees exactly
what will be sent, and allows them. Each of those two agents reads its allow, the
third is still waiting, and nothing was remembered. A plan cannot be marked, and a
marked request that is gone before sending sends nothing."""

import os
import subprocess

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import USERQ, Hook, forms, shot, wait_for


def hook(sock, tmp_path, agent, hook_input):
    """`userq hook <agent>` fed the agent's documented input, with the test's own rules."""
    return Hook(agent, hook_input, dict(os.environ, USERQ_SOCKET=str(sock), USERQ_CONFIG_DIR=str(tmp_path / "config")))


def texts(driver, selector):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def three_agents(driver, sock, tmp_path, between=None):
    """Claude Code's, Codex's and Gemini CLI's hooks, asking in that order, each once
    the one before is in the window; `between` runs after Claude Code's."""
    claude = hook(sock, tmp_path, "claude-code", {
        "session_id": "c1a0de00", "transcript_path": None, "cwd": "/home/me/shop", "permission_mode": "default",
        "hook_event_name": "PermissionRequest", "tool_name": "Bash",
        "tool_input": {"command": "npm test", "description": "Run the tests"}})
    line_of(driver, "npm test")
    if between:
        between()
    codex = hook(sock, tmp_path, "codex", {
        "session_id": "019a-codex", "turn_id": "t1", "transcript_path": None, "cwd": "/home/me/api",
        "hook_event_name": "PermissionRequest", "model": "gpt-5-codex", "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "cargo build"}})
    line_of(driver, "cargo build")
    gemini = hook(sock, tmp_path, "gemini", {
        "session_id": "g1", "transcript_path": None, "cwd": "/home/me/site", "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-01T10:00:00Z", "tool_name": "run_shell_command",
        "tool_input": {"command": "npm run deploy", "description": "Deploy the site"}})
    line_of(driver, "npm run deploy")
    return claude, codex, gemini


def item(driver, text):
    return wait_for(lambda: [b for b in driver.find_elements(By.CSS_SELECTOR, "#waiting button.item")
                             if text in b.get_attribute("textContent")] or None, f"the line of {text!r}")[0]


def line_of(driver, command):
    """The side list's line of the permission whose form names `command`."""
    form = wait_for(lambda: [f for f in forms(driver) if command in f.get_attribute("textContent")] or None,
                    f"the permission for {command!r}")[0]
    return driver.find_element(By.CSS_SELECTOR, f"#waiting button.item[data-ask='{form.get_attribute('data-ask')}']")


def test_two_of_three_marked_are_allowed_and_the_third_still_waits(app, sock, tmp_path):
    claude, codex, gemini = three_agents(app, sock, tmp_path)
    # Ctrl and a click marks without opening; x marks the one shown.
    ActionChains(app).key_down(Keys.CONTROL).click(line_of(app, "npm test")).key_up(Keys.CONTROL).perform()
    line_of(app, "cargo build").click()
    wait_for(lambda: line_of(app, "cargo build").get_attribute("aria-current") == "true", "codex's shown")
    app.find_element(By.TAG_NAME, "body").send_keys("x")
    marked = lambda: sorted(b.get_attribute("data-ask") for b in app.find_elements(By.CSS_SELECTOR, "#waiting button.item.marked"))
    wait_for(lambda: len(marked()) == 2, "two marked")
    assert line_of(app, "npm run deploy").get_attribute("aria-pressed") == "false"

    app.find_element(By.CSS_SELECTOR, "#batch button.allow-marked").click()
    listed = wait_for(lambda: texts(app, "#batch .batch-list li"), "the list before sending")
    assert sorted(listed) == ["Claude Code · shop · session c1a0de00 · Run this command? · npm test",
                              "Codex · api · session 019a-cod · Run this command? · cargo build"], listed
    assert app.find_element(By.CSS_SELECTOR, "#batch .confirm").text == \
        "Allow exactly these requests? Nothing is remembered."
    shot(app, "batch-en")
    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    wait_for(lambda: app.find_element(By.CSS_SELECTOR, "#batch button.allow-marked").text == "允许已标记的",
             "the marks kept, in Chinese")
    app.find_element(By.CSS_SELECTOR, "#batch button.allow-marked").click()
    assert app.find_element(By.CSS_SELECTOR, "#batch .confirm").text == "只允许这些请求吗？不会记住任何规则。"
    shot(app, "batch-zh-CN")
    Select(app.find_element(By.ID, "language")).select_by_value("en")
    wait_for(lambda: app.find_element(By.CSS_SELECTOR, "#batch button.allow-marked").text == "Allow marked",
             "English again")
    app.find_element(By.CSS_SELECTOR, "#batch button.allow-marked").click()
    app.find_element(By.CSS_SELECTOR, "#batch button.send-batch").click()

    assert claude.decision()["hookSpecificOutput"]["decision"]["behavior"] == "allow"
    assert codex.decision()["hookSpecificOutput"]["decision"]["behavior"] == "allow"
    wait_for(lambda: len(forms(app)) == 1, "the third still waiting")
    assert gemini.p.poll() is None, "gemini's hook still waits for its answer"
    assert app.find_element(By.ID, "batch").get_attribute("hidden") is not None, "no marks left"
    # Nothing remembered: no rule in the app's rules file, no remembered answer.
    assert not (tmp_path / "config" / "user-questions" / "rules.toml").exists()
    env = {k: v for k, v in os.environ.items() if k != "USERQ_CONFIG_DIR"}
    listed = subprocess.run([USERQ, "rules", "list"], capture_output=True, text=True, check=True,
                            env=dict(env, XDG_CONFIG_HOME=str(tmp_path / "config"), USERQ_DATA_DIR=str(tmp_path / "data")))
    assert listed.stdout == "No remembered answers.\n", listed.stdout

    forms(app)[0].find_element(By.CSS_SELECTOR, "button.deny").click()
    assert gemini.decision()["decision"] == "deny"


def test_a_plan_is_never_marked_and_a_request_gone_before_sending_sends_nothing(app, sock, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text("# Ship it\n")
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    asking = []

    def ask_the_plan():
        asking.append(subprocess.Popen([USERQ, "ask", "--plan", str(plan)], env=env, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True))
        item(app, "Approve this plan?")

    claude, codex, gemini = three_agents(app, sock, tmp_path, between=ask_the_plan)
    plan_line = item(app, "Approve this plan?")
    ActionChains(app).key_down(Keys.CONTROL).click(plan_line).key_up(Keys.CONTROL).perform()
    assert "marked" not in plan_line.get_attribute("class")
    # Shift and a click marks the range from the last marked: every permission in it,
    # the plan between them never.
    ActionChains(app).key_down(Keys.CONTROL).click(line_of(app, "npm test")).key_up(Keys.CONTROL).perform()
    last = app.find_elements(By.CSS_SELECTOR, "#waiting button.item")[-1]
    ActionChains(app).key_down(Keys.SHIFT).click(last).key_up(Keys.SHIFT).perform()
    marked = lambda: [b.get_attribute("textContent") for b in app.find_elements(By.CSS_SELECTOR, "#waiting button.item.marked")]
    wait_for(lambda: len(marked()) == 3, "the three permissions marked")
    assert "marked" not in plan_line.get_attribute("class")
    app.find_element(By.CSS_SELECTOR, "#batch button.deny-marked").click()
    wait_for(lambda: len(texts(app, "#batch .batch-list li")) == 3, "the three listed")
    # Codex's hook ends before the person sends: its request is withdrawn.
    codex.p.kill()
    wait_for(lambda: len(forms(app)) == 3, "codex's request gone")
    # Its mark went with it; the others are sent, and only those.
    wait_for(lambda: len(app.find_elements(By.CSS_SELECTOR, "#waiting button.item.marked")) == 2, "two marks left")
    app.find_element(By.CSS_SELECTOR, "#batch button.deny-marked").click()
    assert len(texts(app, "#batch .batch-list li")) == 2
    app.find_element(By.CSS_SELECTOR, "#batch button.send-batch").click()
    assert claude.decision()["hookSpecificOutput"]["decision"]["behavior"] == "deny"
    assert gemini.decision()["decision"] == "deny"
    wait_for(lambda: len(forms(app)) == 1, "the plan still waiting")
    asking[0].kill()
