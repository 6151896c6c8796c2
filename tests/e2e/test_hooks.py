"""Agents' own hooks in the real window: `userq hook` fed the agents' documented input,
answered as a person would, in the form and from the notification's buttons."""

import json
import os
import subprocess

from selenium.webdriver.common.by import By

import signal

from conftest import (OUT, Hook, Tray, app_pid, displayed_notifications, forms, notification_log, picked, shot,
                      wait_for)


def hook_of(sock, agent, hook_input):
    """`userq hook <agent>` as the agent runs it, asking the app on `sock`."""
    return Hook(agent, hook_input, dict(os.environ, USERQ_SOCKET=str(sock)))


def form_asking(driver, text):
    xpath = f"//form[contains(@class,'ask')][.//p[@class='text' and text()={json.dumps(text, ensure_ascii=False)}]]"
    return picked(driver, wait_for(lambda: driver.find_elements(By.XPATH, xpath), f"the question {text!r}")[0])


def test_an_edit_shows_its_diff_and_is_always_allowed_from_the_window(app, sock, tmp_path):
    project = tmp_path / "shop"
    (project / "src").mkdir(parents=True)
    source = project / "src" / "cart.py"
    source.write_text("def total(items):\n    return sum(i.price for i in items)\n\n\ndef empty():\n    return []\n")
    suggestion = {"type": "addRules", "rules": [{"toolName": "Edit", "ruleContent": "src/**"}],
                  "behavior": "allow", "destination": "localSettings"}
    hook = hook_of(sock, "claude-code", {
        "session_id": "7f3e2a91-claude", "cwd": str(project), "permission_mode": "default",
        "hook_event_name": "PermissionRequest", "tool_name": "Edit",
        "tool_input": {"file_path": str(source), "old_string": "    return sum(i.price for i in items)",
                       "new_string": "    return sum(i.price * i.quantity for i in items)", "replace_all": False},
        "permission_suggestions": [suggestion]})
    form = form_asking(app, "Edit src/cart.py?")
    origin = form.find_element(By.CSS_SELECTOR, ".origin").text
    assert "Claude Code" in origin and "shop" in origin and "session 7f3e2a91" in origin, origin
    assert form.find_element(By.CSS_SELECTOR, ".detail .del").text == "-    return sum(i.price for i in items)"
    assert form.find_element(By.CSS_SELECTOR, ".detail .add").text == "+    return sum(i.price * i.quantity for i in items)"
    reason = form.find_element(By.CSS_SELECTOR, "input.reason")
    assert reason.get_attribute("placeholder") == "Tell the agent why, and deny"
    buttons = [b.text for b in form.find_elements(By.CSS_SELECTOR, ".actions button")]
    assert buttons == ["Allow", "Allow for this session", "Always allow Edit(src/**)", "Deny", "Dismiss"], buttons
    shot(app, "permission-edit")
    form.find_element(By.XPATH, ".//button[text()='Always allow Edit(src/**)']").click()
    assert hook.decision() == {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                               "decision": {"behavior": "allow", "updatedPermissions": [suggestion]}}}
    wait_for(lambda: not forms(app), "the answered permission to leave")


def test_a_command_is_denied_from_its_notification(app, sock):
    subprocess.run(["dunstctl", "close-all"], check=True)
    hook = hook_of(sock, "claude-code", {
        "session_id": "s-notify", "cwd": "/home/me/api", "hook_event_name": "PermissionRequest",
        "tool_name": "Bash", "tool_input": {"command": "git push --force", "description": "Force-push main"}})
    form_asking(app, "Run this command?")
    # The agent and its project in the title, the command in the body.
    wait_for(lambda: "Claude Code in api" in notification_log(), "the permission's notification")
    assert "git push --force" in notification_log()
    wait_for(lambda: displayed_notifications() == 1, "the notification on screen")
    (OUT / "action").write_text("Deny")  # the button the context menu presses
    try:
        subprocess.run(["dunstctl", "context"], check=True, timeout=10)
        decision = hook.decision()
    finally:
        (OUT / "action").unlink()
    assert decision == {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {
        "behavior": "deny", "message": "The user denied this in User Questions."}}}
    wait_for(lambda: not forms(app), "the denied permission to leave the window")


def test_ask_user_question_with_two_questions_is_answered_in_the_form(app, sock):
    questions = [
        {"question": "Which database?", "header": "Storage", "multiSelect": False,
         "options": [{"label": "Postgres", "description": "Relational, the default"}, {"label": "SQLite"}]},
        {"question": "Which environments?", "header": "Deploy", "multiSelect": True,
         "options": [{"label": "staging"}, {"label": "production"}]},
    ]
    hook = hook_of(sock, "claude-code", {
        "session_id": "s-ask", "cwd": "/home/me/api", "hook_event_name": "PreToolUse",
        "tool_name": "AskUserQuestion", "tool_use_id": "toolu_9", "tool_input": {"questions": questions}})
    form = form_asking(app, "Which database?")
    form.find_element(By.XPATH, ".//label[.//span[text()='SQLite']]").click()
    form.find_element(By.XPATH, ".//label[.//span[text()='staging']]").click()
    form.find_element(By.XPATH, ".//label[.//span[text()='production']]").click()
    shot(app, "ask-user-question")
    form.find_element(By.XPATH, ".//button[text()='Submit']").click()
    assert hook.decision() == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "allow",
        "updatedInput": {"questions": questions,
                         "answers": {"Which database?": "SQLite", "Which environments?": "staging, production"}}}}


def test_a_hook_its_agent_ends_leaves_the_window_the_screen_and_the_tray(app, sock):
    """The person answered in the agent's own prompt instead: the agent ends the hook."""
    subprocess.run(["dunstctl", "close-all"], check=True)
    tray = Tray(app_pid())
    hook = hook_of(sock, "gemini", {
        "session_id": "g-away", "cwd": "/home/me/site", "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "make deploy"}})
    form_asking(app, "Run this command?")
    wait_for(lambda: displayed_notifications() == 1, "the permission's notification")
    wait_for(lambda: tray.labels()[0] == "Open questions (1)", "the permission in the tray")
    assert any(label.startswith("Gemini CLI (site): Run this command?") for label in tray.labels()), tray.labels()
    hook.p.send_signal(signal.SIGTERM)
    assert hook.decision() is None
    wait_for(lambda: not forms(app), "the withdrawn permission to leave the window")
    wait_for(lambda: displayed_notifications() == 0, "its notification to close")
    wait_for(lambda: tray.labels()[0] == "Open questions (0)", "the tray to forget it")


def test_an_mcp_servers_form_shows_its_fields_with_defaults_and_asks_again_what_does_not_fit(app, sock):
    hook = hook_of(sock, "claude-code", {
        "session_id": "s-form", "cwd": "/home/me/api", "hook_event_name": "Elicitation",
        "mcp_server_name": "deploy", "message": "Where should this go?", "mode": "form",
        "requested_schema": {"type": "object", "properties": {
            "region": {"type": "string", "title": "Region",
                       "oneOf": [{"const": "eu-1", "title": "Europe"}, {"const": "us-1", "title": "America"}]},
            "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 5, "default": 2},
            "canary": {"type": "boolean", "title": "Canary first", "default": True}},
            "required": ["region"]}})
    form = form_asking(app, "Where should this go?")
    assert form.find_element(By.CSS_SELECTOR, "fieldset.elicitation legend").get_attribute("textContent") == "deploy"
    buttons = [b.text for b in form.find_elements(By.CSS_SELECTOR, ".actions button")]
    assert buttons == ["Send", "Decline", "Dismiss"], buttons
    replicas = form.find_element(By.XPATH, ".//fieldset[@data-qid='replicas']//input[contains(@class,'other')]")
    assert replicas.get_attribute("value") == "2", "the default is filled in"
    yes = form.find_element(By.XPATH, ".//fieldset[@data-qid='canary']//input[@value='Yes']")
    assert yes.is_selected(), "the default is picked"
    form.find_element(By.XPATH, ".//label[.//span[text()='Europe']]").click()
    replicas.clear()
    replicas.send_keys("9")
    shot(app, "elicitation-form")
    form.find_element(By.XPATH, ".//button[text()='Send']").click()

    # Out of range: the same form again, the problem at its field, what was typed kept.
    problem = wait_for(lambda: [d for d in app.find_elements(By.XPATH, "//fieldset[@data-qid='replicas']//div[contains(@class,'detail')]")
                                if "Not sent" in d.text], "the problem shown at its field")[0]
    assert "“9” does not fit" in problem.text and "From 1 to 5." in problem.text, problem.text
    form = form_asking(app, "Where should this go?")
    replicas = form.find_element(By.XPATH, ".//fieldset[@data-qid='replicas']//input[contains(@class,'other')]")
    assert replicas.get_attribute("value") == "9"
    europe = form.find_element(By.XPATH, ".//fieldset[@data-qid='region']//input[@value='Europe']")
    assert europe.is_selected(), "what was picked is kept"
    replicas.clear()
    replicas.send_keys("3")
    shot(app, "elicitation-again")
    form.find_element(By.XPATH, ".//button[text()='Send']").click()
    assert hook.decision() == {"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept",
                                                      "content": {"region": "eu-1", "replicas": 3, "canary": True}}}


def test_a_question_from_another_machine_names_it_in_the_window_and_the_notification(app, sock):
    from conftest import Agent
    agent = Agent(sock, "remote-agent")
    # As `userq ssh`'s door passes it on: the host's name in the context.
    agent.send("ask", {"agent": agent.ref, "questions": [{"id": "q", "question": "Restart the app?",
                                                          "options": [{"label": "Yes"}, {"label": "No"}]}],
                       "context": {"project": "/srv/app", "source": "Claude Code", "machine": "devbox"}})
    form = form_asking(app, "Restart the app?")
    machine = form.find_element(By.CSS_SELECTOR, ".origin .machine")
    assert (machine.get_attribute("textContent"), machine.get_attribute("title")) == (
        "devbox", "The machine the agent runs on")
    wait_for(lambda: "Claude Code in app on devbox" in notification_log(), "the machine in the notification")
    form.find_element(By.XPATH, ".//label[.//span[text()='No']]").click()
    form.find_element(By.CSS_SELECTOR, "button.primary").click()
    assert agent.reply()["result"] == {"answers": [{"id": "q", "selected": ["No"]}]}
