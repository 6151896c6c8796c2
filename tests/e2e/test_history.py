"""The History and Remembered views of the real window, and "Remember this answer":
a remembered answer answers the next same question at once, is listed with its uses,
and is forgotten from the window; the History view lists what was asked, newest
first, searches it, and opens a reviewed plan again; a full disk shows the history
paused, and questions go on."""

import json
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import Agent, answer_all, app_pid, form_of, forms, shot, wait_for


def tab(driver, view):
    driver.find_element(By.CSS_SELECTOR, f"nav.tabs button[data-view='{view}']").click()


def texts(driver, selector):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def test_a_remembered_answer_answers_the_next_ask_and_is_forgotten_from_the_window(app, ask):
    a = ask("Run the test suite?", "--option", "Yes", "--option", "No", "--agent-id", "tester")
    form = form_of(app, "tester")
    whom = Select(form.find_element(By.CSS_SELECTOR, "select.remember-for"))
    assert [o.text for o in whom.options] == ["for userq ask", "for every client"]
    form.find_element(By.CSS_SELECTOR, "input.remember").click()
    form.find_element(By.XPATH, ".//label[.//span[text()='Yes']]").click()
    form.find_element(By.CSS_SELECTOR, "button.primary").click()
    assert a.result()[1] == {"answers": [{"id": "q", "selected": ["Yes"]}]}

    # The same question from the same client: answered at once, never shown.
    again = ask("Run the test suite?", "--option", "Yes", "--option", "No", "--agent-id", "tester-2")
    assert again.result()[1] == {"answers": [{"id": "q", "selected": ["Yes"]}]}
    assert not forms(app)

    tab(app, "rules")
    wait_for(lambda: texts(app, "#rules-list .text") == ["Run the test suite?"], "the rule listed")
    assert texts(app, "#rules-list .outcome") == ["→ Yes"]
    assert "used once" in app.find_element(By.CSS_SELECTOR, "#rules-list .origin").text
    assert "userq ask" in app.find_element(By.CSS_SELECTOR, "#rules-list .origin").text
    app.find_element(By.CSS_SELECTOR, "#rules-list button.dismiss").click()
    wait_for(lambda: app.find_element(By.ID, "rules-empty").is_displayed(), "the rule forgotten")

    tab(app, "questions")
    third = ask("Run the test suite?", "--option", "Yes", "--option", "No", "--agent-id", "tester-3")
    form_of(app, "tester-3").find_element(By.CSS_SELECTOR, "button.dismiss").click()
    assert third.result()[0] == 1, "forgotten: asked in the window again"


def test_the_history_view_lists_searches_and_opens_a_plan_again(app, ask, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text("# Migrate the database\n\n1. Dump\n2. Restore\n")
    p = ask("--plan", str(plan), "--agent-id", "planner")
    form_of(app, "planner").find_element(By.CSS_SELECTOR, "button.approve").click()
    assert p.result()[0] == 0
    d = ask("Deploy to prod?", "--option", "Yes", "--option", "No", "--agent-id", "deployer")
    form = form_of(app, "deployer")
    form.find_element(By.CSS_SELECTOR, "input.other").send_keys("not on a Friday")
    form.find_element(By.CSS_SELECTOR, "button.primary").click()
    assert d.result()[0] == 0
    gone = ask("Delete the branch?", "--option", "Yes", "--agent-id", "cleaner")
    form_of(app, "cleaner").find_element(By.CSS_SELECTOR, "button.dismiss").click()
    assert gone.result()[0] == 1

    tab(app, "history")
    wait_for(lambda: len(texts(app, "#history-list .text")) == 3, "three asks in the history")
    assert texts(app, "#history-list .text") == ["Delete the branch?", "Deploy to prod?", "Approve this plan?"]
    assert texts(app, "#history-list .outcome") == ["dismissed", "“not on a Friday”", "Approve"]
    assert "deployer" in app.find_elements(By.CSS_SELECTOR, "#history-list .origin")[1].text
    shot(app, "history")
    summary = app.find_element(By.CSS_SELECTOR, "#history-list details summary")
    assert summary.text == "Open the plan"
    summary.click()
    assert app.find_element(By.CSS_SELECTOR, "#history-list details .plan h1").text == "Migrate the database"
    app.find_element(By.ID, "history-search").send_keys("friday")
    wait_for(lambda: texts(app, "#history-list .text") == ["Deploy to prod?"], "the search to find the answer's words")


def test_a_revised_plan_shows_what_changed_and_the_feedback_given(app, ask, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text("# Migrate the database\n\n1. Dump\n2. Restore\n")
    first = ask("--plan", str(plan), "--agent-id", "reviser")
    form = form_of(app, "reviser")
    assert not form.find_elements(By.CSS_SELECTOR, ".revision"), "a first version has nothing to compare"
    form.find_element(By.CSS_SELECTOR, "textarea.feedback").send_keys("test the restore first")
    form.find_element(By.XPATH, ".//button[text()='Revise']").click()
    custom = first.result()[1]["answers"][0]["custom"]
    assert custom.startswith("Plan not approved: revise it.") and custom.endswith("test the restore first"), custom

    plan.write_text("# Migrate the database\n\n1. Dump\n2. Restore\n3. Test the restore on a copy\n")
    second = ask("--plan", str(plan), "--agent-id", "reviser")
    wait_for(lambda: forms(app), "the revised plan")
    form = form_of(app, "reviser")
    revision = form.find_element(By.CSS_SELECTOR, ".revision")
    assert revision.find_element(By.TAG_NAME, "h3").text == "Changed since the last version"
    said = revision.find_element(By.CSS_SELECTOR, ".feedback-given").text
    assert said.startswith("You said: ") and said.endswith("test the restore first"), said
    assert "Plan not approved" not in said, "what the person wrote, not the preamble"
    added = [e.text for e in revision.find_elements(By.CSS_SELECTOR, "span.add")]
    assert added == ["+3. Test the restore on a copy"], added
    assert form.find_element(By.CSS_SELECTOR, ".detail.plan h1").text == "Migrate the database", "the full plan beside"
    shot(app, "plan-revision")
    form.find_element(By.CSS_SELECTOR, "button.approve").click()
    assert second.result()[1] == {"answers": [{"id": "plan", "selected": ["Approve"]}]}


@pytest.mark.small_disk
def test_a_full_disk_shows_the_history_paused_and_questions_go_on(app, sock, tmp_path):
    notice = app.find_element(By.ID, "history-problem")
    assert not notice.is_displayed()
    inside = Path(f"/proc/{app_pid()}/root") / str(tmp_path / "data").lstrip("/")
    with open(inside / "filler", "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as e:
            assert e.errno == 28, e  # ENOSPC: the disk is full
    agent = Agent(sock, "on-a-full-disk")
    for round_ in range(3):
        for i in range(10):
            agent.ask({"id": "q", "question": f"While the disk is full {round_}.{i}?", "options": [{"label": "Yes"}]})
        wait_for(lambda: len(forms(app)) == 10, "the questions shown")
        answer_all(app)
        for _ in range(10):
            assert agent.reply()["result"] == {"answers": [{"id": "q", "selected": ["Yes"]}]}
    wait_for(notice.is_displayed, "the notice")
    assert notice.text.startswith("History is paused.") and "cannot be written (No space left on device" in notice.text, notice.text
    assert "/data/journal/" in notice.text, "it names the file: " + notice.text
    agent.ask({"id": "q", "question": "Is the history paused?", "options": [{"label": "Yes"}]})
    wait_for(lambda: forms(app), "a question while paused")
    shot(app, "history-paused")
    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    wait_for(lambda: notice.text.startswith("历史记录已暂停。") and "无法写入" in notice.text, "the notice in Chinese")
    shot(app, "history-paused-zh-CN")
    answer_all(app)
    agent.reply()
    # Room again: the next ending is written, and the notice goes.
    (inside / "filler").unlink()
    time.sleep(1.2)
    agent.ask({"id": "q", "question": "With room again?", "options": [{"label": "Yes"}]})
    wait_for(lambda: forms(app), "the question")
    answer_all(app)
    agent.reply()
    wait_for(lambda: not notice.is_displayed(), "the notice gone")
    agent.close()


@pytest.mark.env(USERQ_CONFIG_DIR="{tmp}/own-config")
def test_remember_is_for_the_asking_client_unless_picked_even_after_the_forms_are_rebuilt(app, ask, tmp_path):
    # A language switch takes every form apart and builds it again from recycled
    # elements; an option reused with its old selectedness once came back picked.
    a = ask("Keep the cache?", "--option", "Yes", "--option", "No", "--agent-id", "rebuilt")
    whom = lambda: Select(form_of(app, "rebuilt").find_element(By.CSS_SELECTOR, "select.remember-for"))
    assert whom().first_selected_option.get_attribute("value") == "client"
    for lang in ["zh-CN", "en", "zh-CN"]:
        Select(app.find_element(By.ID, "language")).select_by_value(lang)
        wait_for(lambda: app.execute_script("return document.documentElement.lang") == lang, f"the page in {lang}")
        wait_for(lambda: whom().first_selected_option.get_attribute("value") == "client", f"this client still, in {lang}")
    form_of(app, "rebuilt").find_element(By.CSS_SELECTOR, "button.dismiss").click()
    assert a.result()[0] == 1
    # The language picked is kept where every door keeps its configuration.
    settings = tmp_path / "own-config" / "settings.json"
    wait_for(settings.exists, "the settings in USERQ_CONFIG_DIR")
    assert json.loads(settings.read_text()) == {"language": "zh-CN"}
    assert not (tmp_path / "config" / "user-questions" / "settings.json").exists()
