"""Connecting an agent from the window: in a home of the test's own, with a stand-in
`claude` on PATH that prints its version as Claude Code does, the empty inbox leads to
the Agents view; it lists Claude Code with its version, shows what connecting changes
before anything is written, and makes exactly the change `userq setup claude-code`
makes; Disconnect takes it out again. In English and in Chinese."""

import json
import subprocess

import pytest
from selenium.webdriver.common.by import By

from conftest import USERQ, shot, wait_for

PATH = "{tmp}/bin:/usr/local/bin:/usr/bin:/bin"


def stand_in(tmp_path, program, printed):
    """A program on the app's PATH that prints `printed` for --version."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / program).write_text(f"#!/bin/sh\necho '{printed}'\n")
    (bin_dir / program).chmod(0o755)


def rows(driver):
    """Each agent of the view: its name, version line, state and button."""
    return {r.get_attribute("data-agent"): r for r in driver.find_elements(By.CSS_SELECTOR, "#agents-list .agent-row")}


def shown_by(app, button):
    """Clicks `button` until the Agents view lists Claude Code (a click before the
    page's scripts have run does nothing)."""
    def click():
        found = app.find_element(*button)
        if found.is_displayed():
            found.click()
    wait_for(lambda: "claude-code" in rows(app) or click(), "Claude Code in the Agents view")


def text_of(row, css):
    return row.find_element(By.CSS_SELECTOR, css).text


def setup_says(tmp_path, *args):
    """`userq setup` as the person would run it, in the same home."""
    env = {"HOME": str(tmp_path / "home"), "PATH": str(tmp_path / "bin") + ":/usr/bin:/bin"}
    return subprocess.run([USERQ, "setup", "claude-code", *args], env=env, capture_output=True, text=True, check=True).stdout


@pytest.mark.env(HOME="{tmp}/home", PATH=PATH)
def test_an_agent_is_connected_from_the_window_as_setup_connects_it(app, tmp_path):
    (tmp_path / "home").mkdir(exist_ok=True)
    stand_in(tmp_path, "claude", "2.1.332 (Claude Code)")
    settings = tmp_path / "home" / ".claude" / "settings.json"
    wait_for(lambda: app.find_element(By.ID, "empty-connect").is_displayed(), "the empty inbox's Connect an agent")
    shot(app, "agents-empty-inbox")
    shown_by(app, (By.ID, "empty-connect"))
    assert app.find_element(By.ID, "agents").is_displayed()
    claude = rows(app)["claude-code"]
    assert text_of(claude, ".name") == "Claude Code"
    assert text_of(claude, ".version") == "2.1.332 (Claude Code) · tested with 2.1.332"
    assert text_of(claude, ".state") == "Not connected."
    assert list(rows(app)) == ["claude-code"], "only what is installed here"

    claude.find_element(By.CSS_SELECTOR, "button.connect").click()
    box = app.find_element(By.ID, "agents-changes")
    wait_for(lambda: box.is_displayed() and "PermissionRequest" in box.text, "what connecting changes")
    lines = [li.text for li in box.find_elements(By.CSS_SELECTOR, ".changes li")]
    assert lines[0] == "Claude Code 2.1.332 found (this release was tested with 2.1.332)."
    assert f"would add the PermissionRequest hook to {settings}" in lines
    assert not settings.exists(), "nothing is written before the person agrees"
    shot(app, "agents-connect-preview")

    box.find_element(By.CSS_SELECTOR, "button.apply").click()
    wait_for(lambda: text_of(rows(app)["claude-code"], ".state") == "Connected: its questions come here.",
             "Claude Code connected")
    written = settings.read_text()
    hooks = json.loads(written)["hooks"]
    assert sorted(hooks) == ["Elicitation", "PermissionRequest", "PreToolUse", "SessionEnd"]
    assert hooks["PermissionRequest"][0]["hooks"][0]["command"] == f"{USERQ.resolve()} hook claude-code"
    assert "nothing to change" in setup_says(tmp_path), "the window made exactly setup's change"
    assert settings.read_text() == written
    shot(app, "agents-connected")

    rows(app)["claude-code"].find_element(By.CSS_SELECTOR, "button.disconnect").click()
    wait_for(lambda: box.is_displayed() and "would remove" in box.text, "what disconnecting changes")
    box.find_element(By.CSS_SELECTOR, "button.apply").click()
    wait_for(lambda: text_of(rows(app)["claude-code"], ".state") == "Not connected.", "Claude Code disconnected")
    assert not settings.exists(), "setup created the file, so it goes"


@pytest.mark.env(HOME="{tmp}/home", PATH=PATH, LANG="zh_CN.UTF-8")
def test_the_agents_view_in_chinese(app, tmp_path):
    (tmp_path / "home").mkdir(exist_ok=True)
    stand_in(tmp_path, "claude", "2.1.50 (Claude Code)")
    shown_by(app, (By.CSS_SELECTOR, "nav.tabs button[data-view='agents']"))
    claude = rows(app)["claude-code"]
    assert text_of(claude, ".version") == "2.1.50 (Claude Code) · 已在 2.1.332 上测试"
    assert text_of(claude, ".state") == "未连接。"
    claude.find_element(By.CSS_SELECTOR, "button.connect").click()
    box = app.find_element(By.ID, "agents-changes")
    wait_for(lambda: box.is_displayed() and "Elicitation" in box.text, "the event this version does not know")
    assert "未写入 Elicitation：Claude Code 2.1.50 不认识它（它从 2.1.76 开始提供）" in box.text
    shot(app, "agents-connect-preview-zh-CN")
