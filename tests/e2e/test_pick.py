"""A file pick in the real window: searched as the person types, picked with the
keyboard, one or several, a look inside the path under the cursor; and, in an ask of
several questions, the protocol's generic text field."""

import os

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import Agent, form_of, wait_for


def tree(root):
    """A project: sources, configs, a hidden file, an ignored folder, a link out."""
    files = {
        "Cargo.toml": "[package]\nname = \"app\"\n",
        "src/main.rs": "fn main() {}\n",
        "src/config/app.toml": "port = 8080\n",
        "config/dev.toml": "debug = true\n",
        "config/prod.toml": "debug = false\n",
        "target/debug/build.toml": "",
        ".env": "TOKEN=1\n",
    }
    for path, body in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(body)
    (root / ".gitignore").write_text("target/\n")
    (root.parent / "outside.toml").write_text("secret = 1\n")
    os.symlink(root.parent / "outside.toml", root / "out.toml")
    return root


def shown_paths(form):
    return [li.get_attribute("data-path") for li in form.find_elements(By.CSS_SELECTOR, ".pick-results li")]


def under_cursor(form):
    return form.find_element(By.CSS_SELECTOR, ".pick-results li[aria-selected='true']").get_attribute("data-path")


def test_a_file_pick_is_searched_as_typed_previewed_and_picked_with_enter(app, sock, tmp_path):
    root = tree(tmp_path / "project")
    agent = Agent(sock, "picker")
    agent.ask({"id": "cfg", "question": "Which config?", "pick": {"of": "files", "root": str(root), "globs": ["*.toml"]}})
    form = form_of(app, "picker")
    search = form.find_element(By.CSS_SELECTOR, "input.pick-search")
    wait_for(lambda: shown_paths(form), "the first results")
    # .gitignore kept, hidden names and the link out never offered, only the globs' files.
    assert sorted(shown_paths(form)) == ["Cargo.toml", "config/dev.toml", "config/prod.toml", "src/config/app.toml"]
    assert "4 of 4" in form.find_element(By.CSS_SELECTOR, ".pick-count").text

    search.send_keys("cfgprod")
    wait_for(lambda: shown_paths(form) == ["config/prod.toml"], "the search's best path")
    marked = form.find_elements(By.CSS_SELECTOR, ".pick-results li b")
    assert "".join(b.text for b in marked) == "cfgprod", "the letters that matched are shown"
    wait_for(lambda: "debug = false" in form.find_element(By.CSS_SELECTOR, ".pick-preview").text, "the preview")

    search.clear()
    search.send_keys("toml")
    wait_for(lambda: len(shown_paths(form)) == 4, "every toml again")
    first = under_cursor(form)
    search.send_keys(Keys.ARROW_DOWN)
    wait_for(lambda: under_cursor(form) != first, "the cursor moved")
    chosen = under_cursor(form)
    search.send_keys(Keys.ENTER)
    assert agent.reply()["result"] == {"answers": [{"id": "cfg", "selected": [chosen]}]}
    agent.close()


def test_several_files_are_marked_with_space_and_hidden_names_come_on_request(app, sock, tmp_path):
    root = tree(tmp_path / "project")
    agent = Agent(sock, "marker")
    agent.ask({"id": "files", "question": "Which files go in the release?", "multiSelect": True,
               "pick": {"of": "files", "root": str(root)}})
    form = form_of(app, "marker")
    search = form.find_element(By.CSS_SELECTOR, "input.pick-search")
    wait_for(lambda: shown_paths(form), "the first results")
    assert ".env" not in shown_paths(form)
    form.find_element(By.CSS_SELECTOR, "input.pick-hidden").click()
    search.send_keys(".env")
    wait_for(lambda: shown_paths(form)[:1] == [".env"], "a hidden file, asked for")

    search.clear()
    search.send_keys("main")
    wait_for(lambda: shown_paths(form)[:1] == ["src/main.rs"], "src/main.rs")
    search.send_keys(Keys.SPACE)
    search.clear()
    search.send_keys("dev")
    wait_for(lambda: shown_paths(form)[:1] == ["config/dev.toml"], "config/dev.toml")
    search.send_keys(Keys.SPACE)
    chips = lambda: [c.text for c in form.find_elements(By.CSS_SELECTOR, ".pick-marked .pick-chip")]
    wait_for(lambda: chips() == ["src/main.rs", "config/dev.toml"], "two marked")
    assert form.find_element(By.CSS_SELECTOR, ".pick-results li.marked").get_attribute("data-path") == "config/dev.toml"
    search.send_keys(Keys.ENTER)
    reply = agent.reply()["result"]
    assert reply == {"answers": [{"id": "files", "selected": ["src/main.rs", "config/dev.toml"]}]}
    agent.close()


def test_a_folder_pick_previews_a_folders_names(app, sock, tmp_path):
    root = tree(tmp_path / "project")
    agent = Agent(sock, "folders")
    agent.ask({"id": "dir", "question": "Where should the new module go?", "pick": {"of": "folders", "root": str(root)}})
    form = form_of(app, "folders")
    search = form.find_element(By.CSS_SELECTOR, "input.pick-search")
    search.send_keys("srccfg")
    wait_for(lambda: shown_paths(form)[:1] == ["src/config"], "a folder found")
    wait_for(lambda: "app.toml" in form.find_element(By.CSS_SELECTOR, ".pick-preview").text, "its names")
    form.find_element(By.XPATH, ".//button[text()='Pick']").click()
    assert agent.reply()["result"] == {"answers": [{"id": "dir", "selected": ["src/config"]}]}
    agent.close()


def test_a_pick_among_other_questions_is_a_text_field_and_arrives_in_custom(app, sock, tmp_path):
    # The protocol's promise for a kind a form does not present: a text field, and what
    # the person typed arrives in `custom`.
    root = tree(tmp_path / "project")
    agent = Agent(sock, "mixed")
    agent.send("ask", {"agent": agent.ref, "questions": [
        {"id": "cfg", "question": "Which config?", "pick": {"of": "files", "root": str(root)}},
        {"id": "env", "question": "Which environment?", "options": [{"label": "dev"}, {"label": "prod"}]},
    ]})
    form = form_of(app, "mixed")
    assert not form.find_elements(By.CSS_SELECTOR, "input.pick-search")
    cfg, env = form.find_elements(By.CSS_SELECTOR, "fieldset.question")
    cfg.find_element(By.CSS_SELECTOR, "input.other").send_keys("config/dev.toml")
    env.find_element(By.XPATH, ".//label[.//span[text()='dev']]").click()
    form.find_element(By.XPATH, ".//button[text()='Submit']").click()
    assert agent.reply()["result"] == {"answers": [
        {"id": "cfg", "selected": [], "custom": "config/dev.toml"},
        {"id": "env", "selected": ["dev"]},
    ]}
    agent.close()
