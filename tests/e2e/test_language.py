"""The interface in the person's language: the real window, tray and notifications
under a Chinese locale, and a switch of language in the window without a restart.
What an agent wrote is shown as it came, and what the asker receives is the same JSON
in every language."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import Agent, Tray, app_pid, form_of, notification_log, shot, wait_for


def text(driver, selector):
    """The text of the first element `selector` finds, or None while there is none."""
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return found[0].text if found else None


@pytest.mark.env(LANG="zh_CN.UTF-8")
def test_a_chinese_locale_gets_the_chinese_interface(app, ask):
    before = notification_log()
    a = ask("部署到生产环境吗？Deploy to prod?", "--header", "部署", "--option", "Yes", "--option", "No:keep staging",
            "--agent-id", "zh-agent")
    form = form_of(app, "zh-agent")
    assert app.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-CN"
    wait_for(lambda: text(app, "#count") == "1 个待回答", "the count in Chinese")
    assert app.title == "User Questions（1）"
    assert form.find_element(By.CSS_SELECTOR, "button.primary").text == "提交"
    assert form.find_element(By.CSS_SELECTOR, "button.dismiss").text == "忽略"
    assert form.find_element(By.CSS_SELECTOR, "input.other").get_attribute("placeholder") == "其他…"
    assert form.find_element(By.CSS_SELECTOR, "label.skip").text == "跳过这个问题"
    assert "选择选项" in text(app, ".shortcuts") and "隐藏窗口" in text(app, ".shortcuts")
    assert text(app, "section.agent h2 .n") == "1 个问题"
    assert text(app, "section.agent h2 .depth") == "", "an agent asking for itself needs no words"
    # The agent's own words, as they came.
    assert form.find_element(By.CSS_SELECTOR, "p.text").text == "部署到生产环境吗？Deploy to prod?"
    assert [e.text for e in form.find_elements(By.CSS_SELECTOR, ".label-text")] == ["Yes", "No"]
    notified = wait_for(lambda: notification_log()[len(before):], "the notification")
    assert "部署" in notified and "Deploy to prod?" in notified
    tray = Tray(app_pid())
    wait_for(lambda: tray.labels()[0] == "打开问题（1）", "the tray in Chinese")
    assert tray.labels()[-3:] == ["勿扰", "登录时启动", "退出"]
    shot(app, "window-zh-CN")
    form.find_element(By.XPATH, ".//label[.//span[text()='No']]").click()
    form.find_element(By.CSS_SELECTOR, "button.primary").click()
    code, answer, err = a.result()
    assert (code, answer) == (0, {"answers": [{"id": "q", "selected": ["No"]}]}), err


@pytest.mark.env(LANG="zh_CN.UTF-8")
def test_a_burst_is_announced_in_chinese(app, sock):
    before = notification_log()
    one, two = Agent(sock, "zh-a"), Agent(sock, "zh-b")
    for agent, n in ((one, 1), (one, 2), (two, 3)):
        agent.ask({"id": "q", "question": f"Question {n}?", "options": [{"label": "Yes"}]})
    wait_for(lambda: "来自 2 个智能体的 3 个新问题" in notification_log()[len(before):], "one notification for the burst")
    assert "打开 User Questions 来回答。" in notification_log()[len(before):]
    one.close()
    two.close()


def test_the_window_switches_language_without_a_restart_and_keeps_the_draft(app, ask):
    a = ask("Which package manager?", "--option", "npm", "--option", "pnpm", "--agent-id", "switcher")
    form = form_of(app, "switcher")
    assert form.find_element(By.CSS_SELECTOR, "button.primary").text == "Submit"
    form.find_element(By.CSS_SELECTOR, "input.other").send_keys("yarn, if it must")
    pid = app_pid()
    Select(app.find_element(By.ID, "language")).select_by_value("zh-CN")
    wait_for(lambda: text(app, "form.ask button.primary") == "提交", "the form in Chinese")
    assert text(app, "#count") == "1 个待回答"
    assert app.find_element(By.CSS_SELECTOR, "form.ask input.other").get_attribute("value") == "yarn, if it must"
    assert app_pid() == pid, "no restart"
    tray = Tray(pid)
    wait_for(lambda: tray.labels()[0] == "打开问题（1）", "the tray in Chinese")
    Select(app.find_element(By.ID, "language")).select_by_value("en")
    wait_for(lambda: text(app, "form.ask button.primary") == "Submit", "the form in English again")
    app.find_element(By.CSS_SELECTOR, "form.ask button.primary").click()
    code, answer, err = a.result()
    assert (code, answer) == (0, {"answers": [{"id": "q", "selected": [], "custom": "yarn, if it must"}]}), err


@pytest.mark.env(LANG="zh_CN.UTF-8")
def test_a_plan_review_is_shown_in_chinese_and_answered_with_the_protocols_label(app, ask, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text("# 迁移数据库\n\n1. 导出\n2. 导入并校验\n")
    a = ask("--plan", str(plan), "--agent-id", "zh-planner")
    form = form_of(app, "zh-planner")
    assert form.find_element(By.CSS_SELECTOR, "legend.header").text == "计划审阅"
    assert form.find_element(By.CSS_SELECTOR, "p.text").text == "批准这个计划吗？"
    buttons = [b.text for b in form.find_elements(By.CSS_SELECTOR, ".actions button")]
    assert buttons == ["批准", "修改", "忽略"], buttons
    assert form.find_element(By.CSS_SELECTOR, "textarea.feedback").get_attribute("placeholder") == "对整个计划的意见（随“修改”发送，也可随“批准”作为备注发送）"
    assert form.find_element(By.CSS_SELECTOR, ".detail h1").text == "迁移数据库"
    form.find_element(By.CSS_SELECTOR, "button.approve").click()
    code, answer, err = a.result()
    assert (code, answer) == (0, {"answers": [{"id": "plan", "selected": ["Approve"]}]}), err


@pytest.mark.env(LANG="zh_CN.UTF-8")
def test_a_plan_annotated_in_chinese_reaches_the_agent_in_the_words_it_acts_on(app, ask, tmp_path):
    from test_annotations import REVISE, annotate, cards
    plan = tmp_path / "plan.md"
    plan.write_text("# 迁移数据库\n\n1. 导出全部表\n2. 导入并校验\n")
    a = ask("--plan", str(plan), "--agent-id", "zh-annotator")
    form = form_of(app, "zh-annotator")
    assert form.find_element(By.CSS_SELECTOR, ".annotate-hint").text == "在计划中选中文字，即可评论、要求删除或替换它。"
    annotate(app, form, "comment", "全部表", text="只导出用户表。")
    annotate(app, form, "replace", "导入并校验", text="导入后对比行数")
    assert cards(form) == [("3", "评论"), ("4", "替换")]
    bar = [b.get_attribute("textContent") for b in form.find_elements(By.CSS_SELECTOR, ".annotate-bar button")]
    assert bar == ["评论", "删除", "替换"], bar
    shot(app, "plan-annotated-zh")
    form.find_element(By.XPATH, ".//button[text()='修改']").click()
    code, answer, err = a.result()
    assert answer["answers"][0]["custom"] == f"""{REVISE}

Line 3, "全部表":
  只导出用户表。

Line 4, "导入并校验":
  Replace with:
    导入后对比行数""", answer


@pytest.mark.env(LANG="zh_CN.UTF-8")
def test_an_mcp_servers_form_in_chinese_sends_the_protocols_values(app, sock, monkeypatch):
    from test_hooks import form_asking, hook_of
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")  # the agent's hook, in the person's language too
    hook = hook_of(sock, "claude-code", {
        "session_id": "s-zh", "cwd": "/home/me/api", "hook_event_name": "Elicitation", "mcp_server_name": "deploy",
        "message": "部署到哪里？", "mode": "form", "requested_schema": {"type": "object", "properties": {
            "canary": {"type": "boolean", "title": "先灰度", "default": False},
            "replicas": {"type": "integer", "title": "副本数", "minimum": 1, "maximum": 5}}}})
    form = form_asking(app, "部署到哪里？")
    buttons = [b.text for b in form.find_elements(By.CSS_SELECTOR, ".actions button")]
    assert buttons == ["发送", "拒绝", "忽略"], buttons
    assert "MCP 服务器 deploy 请你填写以下内容" in form.find_element(By.CSS_SELECTOR, "fieldset.elicitation").text
    no = form.find_element(By.XPATH, ".//fieldset[@data-qid='canary']//input[@value='否']")
    assert no.is_selected(), "the default, in Chinese"
    replicas = form.find_element(By.XPATH, ".//fieldset[@data-qid='replicas']")
    assert "一个整数。从 1 到 5。" in replicas.text, replicas.text
    replicas.find_element(By.CSS_SELECTOR, "input.other").send_keys("2")
    shot(app, "elicitation-zh-CN")
    form.find_element(By.XPATH, ".//button[text()='发送']").click()
    assert hook.decision() == {"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept",
                                                      "content": {"canary": False, "replicas": 2}}}


@pytest.mark.env(LANG="zh_CN.UTF-8")
def test_a_code_review_in_chinese(app, sock):
    from test_review import review
    from test_hooks import form_asking
    asker = review(sock)
    form = form_asking(app, "批准这些改动吗？")
    buttons = [b.text for b in form.find_elements(By.CSS_SELECTOR, ".actions button")]
    assert buttons == ["批准", "要求修改", "忽略"], buttons
    assert form.find_element(By.CSS_SELECTOR, ".review-file .file-comment").text == "评论这个文件"
    assert not form.find_elements(By.CSS_SELECTOR, "input.remember"), "a review is judged each time"
    form.find_element(By.CSS_SELECTOR, ".review-file .line.add .no.new").click()
    form.find_elements(By.CSS_SELECTOR, ".review-comment textarea")[-1].send_keys("改名为 quantity。")
    shot(app, "code-review-zh-CN")
    form.find_element(By.XPATH, ".//button[text()='要求修改']").click()
    asker.wait(10)
    assert asker.returncode == 1
    assert "src/cart.py, line 2:\n" in asker.stdout.read()
