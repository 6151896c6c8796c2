"""What a person reads of a permission in one look, in the real window: where the
agent works (its project's name, branch and folder, its session) and what it says of
the request, its own words labelled as its own, with the agent's markup, links and
bidi controls shown inert; the notification names the agent and the project and
carries the command; a request from a second project is told apart by its name."""

import json
import os
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import Hook, forms, notification_log, picked, shot, wait_for

LAST = ("The schema changed, so I will migrate the orders table. <b>bold</b> [docs](https://evil.example) "
        "<a href='https://evil.example'>click</a> done\u202egnp.exe")


def repository(folder, branch):
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", branch], cwd=folder, check=True)


def permission(sock, tmp_path, cwd, session, command, description, transcript=None):
    """Claude Code's PermissionRequest for Bash, as its hook documentation shows it."""
    env = dict(os.environ, USERQ_SOCKET=str(sock), USERQ_CONFIG_DIR=str(tmp_path / "config"))
    return Hook("claude-code", {
        "session_id": session, "transcript_path": str(transcript) if transcript else None, "cwd": str(cwd),
        "permission_mode": "default", "hook_event_name": "PermissionRequest", "tool_name": "Bash",
        "tool_input": {"command": command, "description": description}}, env)


def form_with(driver, command):
    def found():
        for form in forms(driver):
            if command in form.get_attribute("textContent"):
                return form
        return None
    return picked(driver, wait_for(found, f"the permission for {command!r}"))


def test_a_permission_shows_where_the_agent_works_and_what_it_says_inert(app, sock, tmp_path):
    shop = tmp_path / "shop"
    repository(shop, "feature/orders")
    (shop / "services" / "db").mkdir(parents=True)
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("\n".join(json.dumps(line) for line in [
        {"type": "user", "message": {"role": "user", "content": "Migrate the orders table"}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": LAST}]}},
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "tool_use", "name": "Bash"}]}},
    ]) + "\n")
    description = "Run the <i>migration</i> \u202eon prod"
    first = permission(sock, tmp_path, shop / "services" / "db", "7a1c9e3f-55aa", "npm run migrate -- --env prod",
                       description, transcript)
    form = form_with(app, "npm run migrate")
    origin = {c: form.find_element(By.CSS_SELECTOR, f".origin .{c}").text
              for c in ["source", "project", "branch", "folder", "session"]}
    assert origin == {"source": "Claude Code", "project": "shop", "branch": "on feature/orders",
                      "folder": "in services/db", "session": "session 7a1c9e3f"}, origin
    assert form.find_element(By.CSS_SELECTOR, ".origin .project").get_attribute("title") == str(shop)
    says = form.find_element(By.CSS_SELECTOR, "section.says")
    assert says.find_element(By.CSS_SELECTOR, "h4").text == "The agent says"
    assert says.find_element(By.CSS_SELECTOR, "blockquote.description").text == \
        "Run the <i>migration</i> [U+202E]on prod"
    last = says.find_element(By.CSS_SELECTOR, "details.last-message")
    assert last.find_element(By.CSS_SELECTOR, "summary").text == "Its last message"
    assert last.find_element(By.CSS_SELECTOR, "blockquote").text == LAST.replace("\u202e", "[U+202E]")
    # Inert: the agent's markup is text, its link no link.
    assert not says.find_elements(By.CSS_SELECTOR, "a, b, i"), "no element from the agent's text"
    shot(app, "context-en")

    # The notification: the agent and its project in the title, the command in the body.
    wait_for(lambda: "Claude Code in shop" in notification_log(), "the notification's title")
    assert "npm run migrate -- --env prod" in notification_log()

    # A second project's request is told apart by its name, in the list and the form.
    api = tmp_path / "api"
    repository(api, "main")
    second = permission(sock, tmp_path, api, "0b5e11e4-0000", "make deploy", "Deploy the API")
    groups = lambda: [e.get_attribute("textContent") for e in app.find_elements(By.CSS_SELECTOR, "section.agent h2 .id")]
    wait_for(lambda: groups() == ["shop", "api"], "both projects in the list")
    other = form_with(app, "make deploy")
    assert other.find_element(By.CSS_SELECTOR, ".origin .project").text == "api"
    assert not other.find_elements(By.CSS_SELECTOR, ".origin .folder"), "at the project's root"
    assert other.find_element(By.CSS_SELECTOR, "section.says blockquote.description").text == "Deploy the API"

    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    form = form_with(app, "npm run migrate")
    wait_for(lambda: form_with(app, "npm run migrate").find_element(By.CSS_SELECTOR, "section.says h4").text
             == "智能体说", "the form in Chinese")
    form = form_with(app, "npm run migrate")
    assert form.find_element(By.CSS_SELECTOR, ".origin .branch").text == "分支 feature/orders"
    assert form.find_element(By.CSS_SELECTOR, ".origin .folder").text == "目录 services/db"
    shot(app, "context-zh-CN")
    Select(app.find_element(By.ID, "language")).select_by_value("en")
    wait_for(lambda: form_with(app, "npm run migrate").find_element(By.CSS_SELECTOR, "section.says h4").text
             == "The agent says", "the form in English again")
    form_with(app, "npm run migrate").find_element(By.CSS_SELECTOR, "button.deny").click()
    assert first.behavior() == "deny"
    form_with(app, "make deploy").find_element(By.CSS_SELECTOR, "button.deny").click()
    assert second.behavior() == "deny"
