"""The Rules view of the real window: the policy's rules, each with where it holds,
whose it is and how often it decided (a decision a hook made with the rules, read from
the history), beside the remembered answers; a rule removed from the window is gone
from the person's rules file and decides nothing more. A permission's Allow is
remembered as one of the ways offered beside it, each with how many past questions it
would have answered. Shown in both languages."""

import json
import os
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import USERQ, Hook, forms, picked, shot, wait_for

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


def start_hook(tmp_path, command, session="s1", cwd=None):
    """Claude Code's hook, fed its PermissionRequest, with the app's folders."""
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), USERQ_DATA_DIR=str(tmp_path / "data"),
               USERQ_SOCKET=str(tmp_path / "userq.sock"), USERQ_LANG="en")
    env.pop("USERQ_CONFIG_DIR", None)
    hook_input = {"session_id": session, "transcript_path": None, "cwd": str(cwd or tmp_path),
                  "permission_mode": "default", "hook_event_name": "PermissionRequest", "tool_name": "Bash",
                  "tool_input": {"command": command, "description": "Run it"}}
    return Hook("claude-code", hook_input, env)


def hook(tmp_path, command):
    return start_hook(tmp_path, command).behavior()


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


def permission_form(driver):
    form = wait_for(lambda: forms(driver), "the permission in the window")[0]
    return picked(driver, form)


def test_an_allow_is_remembered_as_the_way_picked_and_decides_the_next_command(app, tmp_path):
    rules = tmp_path / "config" / "user-questions" / "rules.toml"
    # An earlier question, allowed once: the count of the ways that would have answered it.
    earlier = start_hook(tmp_path, "cargo test --doc", session="earlier")
    permission_form(app).find_element(By.CSS_SELECTOR, "button.approve").click()
    assert earlier.behavior() == "allow"
    wait_for(lambda: not forms(app), "the answered permission to leave")

    asking = start_hook(tmp_path, "cargo test --release")
    form = permission_form(app)
    ways = Select(form.find_element(By.CSS_SELECTOR, "select.remember-way"))
    shown = [o.text for o in ways.options]
    assert shown[0] == "nothing more: allow just this once"
    assert shown[1:3] == ["“cargo test --release” exactly, in this session only (would have answered no past question)",
                          "“cargo test …” with any arguments, in this session only (would have answered no past question)"]
    assert shown[4] == f"“cargo test …” with any arguments, in {tmp_path} (would have answered one past question)"
    assert shown[6] == "“cargo test …” with any arguments, everywhere (would have answered one past question)"
    approve = form.find_element(By.CSS_SELECTOR, "button.approve")
    ways.select_by_index(4)
    assert approve.text == "Allow and remember"
    # Only this form's button changed: the earlier form's elements were reused in this
    # one and in the side list, and none of them answers to this select.
    assert [t.endswith("Run this command?") for t in texts(app, "#waiting button.item")] == [True]
    shot(app, "remember-en")

    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    form = permission_form(app)
    wait_for(lambda: "在" in Select(form.find_element(By.CSS_SELECTOR, "select.remember-way")).options[4].text,
             "the ways in Chinese")
    zh = Select(form.find_element(By.CSS_SELECTOR, "select.remember-way"))
    assert zh.options[4].text == f"“cargo test …”及任何参数，在 {tmp_path} 中 (本会回答过去的 1 个问题)"
    zh.select_by_index(4)
    assert form.find_element(By.CSS_SELECTOR, "button.approve").text == "允许并记住"
    shot(app, "remember-zh-CN")
    Select(app.find_element(By.ID, "language")).select_by_value("en")

    # The form is drawn again in English: pick once the new one is there.
    def english_way_picked():
        form = permission_form(app)
        ways = Select(form.find_element(By.CSS_SELECTOR, "select.remember-way"))
        if " in " not in ways.options[4].text:
            return None
        ways.select_by_index(4)
        approve = form.find_element(By.CSS_SELECTOR, "button.approve")
        return approve if approve.text == "Allow and remember" else None

    wait_for(english_way_picked, "the ways in English").click()
    assert asking.behavior() == "allow"
    wait_for(lambda: rules.exists(), "the rule kept")
    assert rules.read_text() == f'[[allow]]\ncommand = "cargo test"\nproject = "{tmp_path}"\n'
    # The next such command is the policy's: it never reaches the window.
    assert hook(tmp_path, "cargo test --lib -- --nocapture") == "allow"
    assert not forms(app)


def test_a_deny_remembers_nothing_whatever_way_is_picked(app, tmp_path):
    asking = start_hook(tmp_path, "make deploy")
    form = permission_form(app)
    Select(form.find_element(By.CSS_SELECTOR, "select.remember-way")).select_by_index(5)
    form.find_element(By.CSS_SELECTOR, "button.deny").click()
    assert asking.behavior() == "deny"
    assert not (tmp_path / "config" / "user-questions" / "rules.toml").exists()


def typed(driver, area, text):
    """`text` in a text area, as typed (WebKitWebDriver's keys lose a newline there)."""
    driver.execute_script("arguments[0].value = arguments[1];"
                          "arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", area, text)


def test_a_rule_of_yours_is_edited_in_its_row(app, tmp_path):
    rules = tmp_path / "config" / "user-questions" / "rules.toml"
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text(RULES)
    wait_for(lambda: tab(app, "rules") or len(texts(app, "#policy-list .text")) == 4, "the rules listed")
    app.find_elements(By.CSS_SELECTOR, "#policy-list button.edit")[0].click()
    entry = app.find_element(By.CSS_SELECTOR, "#policy-list textarea.entry")
    assert entry.get_attribute("value") == 'command = "cargo test"\n'
    typed(app, entry, 'command = "cargo test --lib"\nreason = 3')
    app.find_element(By.CSS_SELECTOR, "#policy-list button.approve").click()
    error = app.find_element(By.CSS_SELECTOR, "#policy-list .error")
    wait_for(lambda: error.text.startswith("Not saved:"), "the mistake said")
    assert rules.read_text() == RULES, "nothing saved"
    typed(app, entry, 'command = "cargo test --lib"\nagent = "codex"')
    app.find_element(By.CSS_SELECTOR, "#policy-list button.approve").click()
    wait_for(lambda: texts(app, "#policy-list .text code")[:1] == ["cargo test --lib"], "the rule edited")
    assert texts(app, "#policy-list .scope")[0] == "codex"
    assert rules.read_text().startswith('# mine\n[[allow]]\ncommand = "cargo test --lib"\nagent = "codex"\n')


def test_a_projects_file_waits_for_trust_and_is_trusted_from_the_view(app, tmp_path):
    project = tmp_path / "shop"
    (project / ".userq").mkdir(parents=True)
    file = project / ".userq" / "rules.toml"
    file.write_text('[[allow]]\ncommand = "make test"\n')
    # Untrusted, its rule decides nothing: the person is asked, from that project.
    asking = start_hook(tmp_path, "make test", cwd=project / "src")
    permission_form(app)
    tab(app, "rules")
    wait_for(lambda: texts(app, "#projects-list > li > .text code") == [str(file)], "the project's file listed")
    assert app.find_element(By.ID, "projects-title").is_displayed()
    status = app.find_element(By.CSS_SELECTOR, "#projects-list .status span")
    assert status.text.startswith("Not trusted"), status.text
    assert texts(app, "#projects-list .rules-list .text code") == ["make test"]
    shot(app, "rules-project-en")
    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    tab(app, "history")
    tab(app, "rules")
    wait_for(lambda: texts(app, "#projects-list .status span")[0].startswith("未信任"), "the project in Chinese")
    shot(app, "rules-project-zh-CN")
    Select(app.find_element(By.ID, "language")).select_by_value("en")
    tab(app, "history")
    tab(app, "rules")
    wait_for(lambda: texts(app, "#projects-list .status span")[0].startswith("Not trusted"), "the project in English")
    app.find_element(By.CSS_SELECTOR, "#projects-list button.approve").click()
    wait_for(lambda: texts(app, "#projects-list .status span")[0].startswith("Trusted"), "the file trusted")
    assert not app.find_elements(By.CSS_SELECTOR, "#projects-list button.approve")
    tab(app, "questions")
    form = permission_form(app)
    form.find_element(By.CSS_SELECTOR, "button.deny").click()
    assert asking.behavior() == "deny"
    # Trusted: the same command from the project is the policy's to allow.
    assert start_hook(tmp_path, "make test", cwd=project).behavior() == "allow"
    # Changed since: it waits again, and the view says so.
    file.write_text('[[allow]]\ncommand = "make"\n')
    tab(app, "history")
    tab(app, "rules")
    wait_for(lambda: texts(app, "#projects-list .status span")[0].startswith("Changed since"), "the change said")


def test_a_permission_shows_what_each_part_would_do_and_why_it_reached_you(app, tmp_path):
    rules = tmp_path / "config" / "user-questions" / "rules.toml"
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text("[[allow]]\nread-only = true\n")
    asking = start_hook(tmp_path, "cat notes.txt | head -3 && rm -rf target && echo done > ~/.bashrc")
    form = permission_form(app)
    parts = form.find_element(By.CSS_SELECTOR, "section.parts")
    assert parts.find_element(By.TAG_NAME, "h4").text == "WHAT IT WOULD DO"
    rows = [[e.text for e in li.find_elements(By.CSS_SELECTOR, "code, span")]
            for li in parts.find_elements(By.CSS_SELECTOR, "li")]
    assert rows[2] == ["rm -rf target", "deletes files", "no rule allows it"], rows
    assert rows[0] == ["cat notes.txt", "only reads", "allowed: allow read-only"], rows
    assert rows[4][1].startswith("writes outside the project: ") and rows[4][1].endswith(".bashrc"), rows
    quiet = [li.get_attribute("class") for li in parts.find_elements(By.CSS_SELECTOR, "li")]
    assert quiet == ["part allowed", "part allowed", "part", "part allowed", "part"], quiet
    shot(app, "permission-parts-en")
    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    wait_for(lambda: "删除文件" in permission_form(app).find_element(By.CSS_SELECTOR, "section.parts").text,
             "the parts in Chinese")
    shot(app, "permission-parts-zh-CN")
    Select(app.find_element(By.ID, "language")).select_by_value("en")
    wait_for(lambda: "deletes files" in permission_form(app).find_element(By.CSS_SELECTOR, "section.parts").text,
             "the parts in English again")
    permission_form(app).find_element(By.CSS_SELECTOR, "button.deny").click()
    assert asking.behavior() == "deny"


def test_allow_for_this_session_keeps_a_rule_that_ends_with_the_session(app, tmp_path):
    rules = tmp_path / "config" / "user-questions" / "rules.toml"
    asking = start_hook(tmp_path, "cargo test --release", session="s9")
    form = permission_form(app)
    button = form.find_element(By.CSS_SELECTOR, "button.allow-session")
    assert button.text == "Allow for this session"
    assert button.get_attribute("title") == "“cargo test …” with any arguments, in this session only"
    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    wait_for(lambda: permission_form(app).find_element(By.CSS_SELECTOR, "button.allow-session").text
             == "在本会话中允许", "the button in Chinese")
    Select(app.find_element(By.ID, "language")).select_by_value("en")
    wait_for(lambda: permission_form(app).find_element(By.CSS_SELECTOR, "button.allow-session").text
             == "Allow for this session", "the button in English")
    permission_form(app).find_element(By.CSS_SELECTOR, "button.allow-session").click()
    assert asking.behavior() == "allow"
    wait_for(lambda: rules.exists(), "the session's rule kept")
    assert rules.read_text() == '[[allow]]\ncommand = "cargo test"\nsession = "s9"\n'
    # The same session's next such command is the policy's; another session's is asked.
    assert start_hook(tmp_path, "cargo test --lib", session="s9").behavior() == "allow"
    other = start_hook(tmp_path, "cargo test --lib", session="s10")
    permission_form(app).find_element(By.CSS_SELECTOR, "button.deny").click()
    assert other.behavior() == "deny"
    # The session ends: its rule goes with it.
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), USERQ_SOCKET=str(tmp_path / "userq.sock"))
    env.pop("USERQ_CONFIG_DIR", None)
    subprocess.run([str(USERQ), "hook", "claude-code"], env=env, check=True, timeout=20,
                   input=json.dumps({"session_id": "s9", "hook_event_name": "SessionEnd", "reason": "exit"}), text=True)
    assert rules.read_text() == ""
