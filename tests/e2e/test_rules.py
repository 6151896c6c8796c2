"""The Rules view of the real window: the policy's rules, each with where it holds,
whose it is and how often it decided (a decision a hook made with the rules, read from
the history), beside the remembered answers; a rule removed from the window is gone
from the person's rules file and decides nothing more. Shown in both languages."""

import json
import os
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import USERQ, shot, wait_for

RULES = """# mine
[[allow]]
command = "cargo test"

[[allow]]
read-only = true

[[allow]]
command = "npm test"
from = "codex"

[[deny]]
command = "git push"
reason = "pushes go through review"
agent = "claude-code"
"""


def tab(driver, view):
    driver.find_element(By.CSS_SELECTOR, f"nav.tabs button[data-view='{view}']").click()


def texts(driver, selector):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def hook(tmp_path, command):
    """Claude Code's hook, fed its PermissionRequest, with the app's folders."""
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), USERQ_DATA_DIR=str(tmp_path / "data"),
               USERQ_SOCKET=str(tmp_path / "userq.sock"), USERQ_LANG="en")
    env.pop("USERQ_CONFIG_DIR", None)
    hook_input = {"session_id": "s1", "transcript_path": None, "cwd": str(tmp_path), "permission_mode": "default",
                  "hook_event_name": "PermissionRequest", "tool_name": "Bash",
                  "tool_input": {"command": command, "description": "Run it"}}
    out = subprocess.run([str(USERQ), "hook", "claude-code"], input=json.dumps(hook_input), env=env,
                         capture_output=True, text=True, timeout=20)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["hookSpecificOutput"]["decision"]["behavior"]


def test_the_rules_view_lists_the_policys_rules_with_their_uses_and_removes_one(app, tmp_path):
    rules = tmp_path / "config" / "user-questions" / "rules.toml"
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text(RULES)
    assert hook(tmp_path, "cargo test --release | head -3") == "allow"
    assert hook(tmp_path, "git push origin main") == "deny"

    tab(app, "rules")
    wait_for(lambda: len(texts(app, "#policy-list .text")) == 4, "the rules listed")
    assert texts(app, "#policy-list .text code") == ["cargo test", "read-only", "npm test", "git push"]
    verdicts = [e.get_attribute("class") for e in app.find_elements(By.CSS_SELECTOR, "#policy-list .verdict")]
    assert verdicts == ["verdict allow", "verdict allow", "verdict allow", "verdict deny"]
    assert texts(app, "#policy-list .scope") == ["everywhere", "everywhere", "everywhere", "claude-code"]
    assert texts(app, "#policy-list .source") == ["yours", "yours", "imported from codex", "yours"]
    assert texts(app, "#policy-list .uses") == ["used once", "used once", "not used yet", "used once"]
    when = [e.get_attribute("title") for e in app.find_elements(By.CSS_SELECTOR, "#policy-list time")]
    assert len(when) == 3 and all(w.startswith("20") for w in when), when
    assert texts(app, "#policy-list .outcome") == ["pushes go through review"]
    assert app.find_element(By.ID, "rules-empty").is_displayed(), "no remembered answers"
    shot(app, "rules-en")

    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    tab(app, "history")
    tab(app, "rules")
    wait_for(lambda: texts(app, "#policy-list .scope")[0] == "所有地方", "the rules in Chinese")
    assert app.find_element(By.CSS_SELECTOR, "nav.tabs button[data-view='rules']").text == "规则"
    shot(app, "rules-zh-CN")
    Select(app.find_element(By.ID, "language")).select_by_value("en")

    # Removing the deny from the window: it is gone from the file, comments kept,
    # and the push now reaches the person.
    tab(app, "history")
    tab(app, "rules")
    wait_for(lambda: texts(app, "#policy-list .scope")[0] == "everywhere", "the rules in English")
    app.find_elements(By.CSS_SELECTOR, "#policy-list button.dismiss")[3].click()
    wait_for(lambda: texts(app, "#policy-list .text code") == ["cargo test", "read-only", "npm test"], "the rule removed")
    assert "git push" not in rules.read_text() and rules.read_text().startswith("# mine\n")


def test_a_mistake_in_the_rules_file_is_said_in_the_view(app, tmp_path):
    rules = tmp_path / "config" / "user-questions" / "rules.toml"
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text("[[deny]]\nreason = \"no action\"\n")
    # Clicked again until shown: the page may still be starting.
    wait_for(lambda: tab(app, "rules") or app.find_element(By.ID, "rules-problem").is_displayed(), "the problem said")
    assert "[[deny]] number 1" in app.find_element(By.ID, "rules-problem").text
    assert not app.find_element(By.ID, "policy-empty").is_displayed()
