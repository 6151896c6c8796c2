"""Pictures in feedback, in the real window: an image pasted into a plan's feedback is
kept under the data folder, shown as a thumbnail, and named in the feedback the
agent reads; what is not a picture is refused with a reason, whatever its type says."""

import base64
import re
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import form_of, shot, wait_for

# A 1x1 PNG.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==")

PASTE = """
const [box, b64, type, name] = arguments;
const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const data = new DataTransfer();
data.items.add(new File([bytes], name, { type }));
const e = new Event("paste", { bubbles: true, cancelable: true });
Object.defineProperty(e, "clipboardData", { value: data });
box.focus();
box.dispatchEvent(e);
"""


def test_a_picture_pasted_into_feedback_is_kept_shown_and_named(app, ask, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text("# Plan\n\n- draw the chart\n")
    a = ask("--plan", str(plan), "--agent-id", "painter")
    form = form_of(app, "painter")
    box = form.find_element(By.CSS_SELECTOR, "textarea[aria-label='Feedback']")
    box.send_keys("The chart should look like this:")
    app.execute_script(PASTE, box, base64.b64encode(PNG).decode(), "image/png", "chart.png")
    thumb = wait_for(lambda: form.find_elements(By.CSS_SELECTOR, ".pictures img.thumb"), "the thumbnail")[0]
    assert thumb.get_attribute("src").startswith("blob:")
    value = box.get_attribute("value")
    path = re.search(r"\[Picture: (\S+)\]", value).group(1)
    assert Path(path).read_bytes() == PNG
    # A script that calls itself a picture is refused, and nothing is added.
    app.execute_script(PASTE, box, base64.b64encode(b"#!/bin/sh\nrm -rf ~\n").decode(), "image/png", "x.png")
    wait_for(lambda: "That is not a picture" in form.find_element(By.CSS_SELECTOR, ".error").text, "the refusal")
    assert box.get_attribute("value") == value
    shot(app, "picture-in-feedback")
    form.find_element(By.XPATH, ".//button[text()='Revise']").click()
    code, answer, err = a.result()
    assert value == "The chart should look like this:\n[Picture: %s]\n" % path
    # The plan's notes, with the picture's path in them, under the revision's preamble.
    assert answer == {"answers": [{"id": "plan", "selected": [], "custom": (
        "Plan not approved: revise it. Address every point below, then present the revised plan for review again."
        "\n\nOn the whole plan:\n  The chart should look like this:\n  [Picture: %s]" % path)}]}, err
