"""The person's deadline in the real window: picked in the bar and kept in the
settings every door reads, shown in the person's language (one set with `userq
deadline` too), and acting on a plan nobody reviews: sent back to the agent with the
reason, taken down from the window, notified, and recorded in the History as the
deadline's."""

import json
import os
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import USERQ, form_of, forms, notification_log, shot, wait_for


def picker(driver):
    return Select(driver.find_element(By.ID, "deadline"))


def test_a_deadline_picked_in_the_window_sends_back_a_plan_nobody_reviews(app, ask, tmp_path):
    settings = tmp_path / "config" / "user-questions" / "settings.json"
    wait_for(lambda: picker(app).options, "the picker filled")
    assert picker(app).first_selected_option.text == "wait for me", "off by default"
    labels = [o.text for o in picker(app).options]
    assert labels[:3] == ["wait for me", "deny after 5 minutes", "deny after 15 minutes"], labels
    picker(app).select_by_value("5m")
    wait_for(lambda: settings.exists() and json.loads(settings.read_text()).get("deadline") == "5m", "the choice kept")

    # A shorter one from the command line; the window shows it among its own, in Chinese.
    env = {k: v for k, v in os.environ.items() if k != "USERQ_CONFIG_DIR"}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), USERQ_LANG="en")
    out = subprocess.run([USERQ, "deadline", "4s"], env=env, capture_output=True, text=True, check=True).stdout
    assert out.startswith("After 4s unanswered"), out
    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    wait_for(lambda: picker(app).first_selected_option.text == "4 秒后拒绝", "the picker in Chinese")
    assert app.find_element(By.CSS_SELECTOR, "label.choice span").text == "无人回答的问题"
    shot(app, "deadline-zh-CN")
    Select(app.find_element(By.ID, "language")).select_by_value("en")
    wait_for(lambda: picker(app).first_selected_option.text == "deny after 4 seconds", "the picker in English")

    before = notification_log()
    plan = tmp_path / "plan.md"
    plan.write_text("# Migrate the orders table\n1. Drop the old column\n")
    a = ask("--plan", str(plan), "--agent-id", "migrator")
    form_of(app, "migrator")
    shot(app, "deadline-en")
    code, answer, err = a.result(timeout=20)
    assert code == 0, err
    reason = answer["answers"][0]["custom"]
    assert reason.startswith("Not approved: nobody answered within 4s"), answer
    wait_for(lambda: not forms(app), "the review taken down from the window")
    wait_for(lambda: "Nobody answered in time: denied" in notification_log()[len(before):], "the notification")
    app.find_element(By.CSS_SELECTOR, "nav.tabs button[data-view='history']").click()
    wait_for(lambda: "by your deadline" in [e.text for e in app.find_elements(By.CSS_SELECTOR, "#history-list .by")],
             "the History says the deadline decided")
