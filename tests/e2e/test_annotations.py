"""A plan annotated in the real window: text selected in the rendered plan gets a
comment, a "remove this" or a replacement, each known by the plan's source lines;
Revise sends them in the exact words an agent acts on (docs/review.md), Approve sends
them as notes with the approval, and the next version of the plan shows which were
addressed and which are still open."""

from selenium.webdriver.common.by import By

from conftest import form_of, shot, wait_for
from test_desktop import PLAN

REVISE = "Plan not approved: revise it. Address every point below, then present the revised plan for review again."
APPROVED = ("Plan approved, with notes from the reviewer: go ahead with the plan and follow these notes as you "
            "carry it out.")


def select(app, form, start, end=None):
    """Selects the plan's text from `start` to the end of `end` (or of `start`), as a
    person's drag does, and lets go of the mouse."""
    app.execute_script(
        """
        const [form, start, end] = arguments;
        const plan = form.querySelector('.plan');
        const find = (text) => {
          const walker = document.createTreeWalker(plan, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const i = walker.currentNode.data.indexOf(text);
            if (i >= 0) return [walker.currentNode, i];
          }
          throw new Error('the plan has no ' + text);
        };
        const [a, i] = find(start);
        const [b, j] = find(end);
        const range = document.createRange();
        range.setStart(a, i);
        range.setEnd(b, j + end.length);
        const selection = getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        plan.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
        """,
        form, start, end or start)


def annotate(app, form, kind, start, end=None, text=""):
    select(app, form, start, end)
    bar = form.find_element(By.CSS_SELECTOR, ".annotate-bar")
    wait_for(bar.is_displayed, "the toolbar over the selection")
    bar.find_element(By.CSS_SELECTOR, f"button.annotate-{kind}").click()
    box = app.switch_to.active_element
    assert "annotation-text" in box.get_attribute("class"), "the new annotation's box has the focus"
    box.clear()
    if text:
        box.send_keys(text)


def cards(form):
    return [(c.find_element(By.CSS_SELECTOR, ".where").text, c.find_element(By.CSS_SELECTOR, ".kind").text)
            for c in form.find_elements(By.CSS_SELECTOR, ".annotations .annotation")]


def test_three_annotations_and_a_note_revise_the_plan_in_the_words_the_agent_reads(app, ask, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text(PLAN)
    a = ask("--plan", str(plan), "--agent-id", "annotated")
    form = form_of(app, "annotated")
    # Made out of order, across an inline code span, and one discarded again.
    annotate(app, form, "remove", "Remove the in-memory store.")
    annotate(app, form, "comment", "SessionStore", "a Redis implementation", "Name the Redis one RedisSessions.")
    annotate(app, form, "replace", "one release", text="two releases")
    annotate(app, form, "comment", "Redis outage", text="never mind")
    assert cards(form) == [("4", "Comment"), ("5", "Replace"), ("6", "Remove"), ("10", "Comment")], "document order"
    assert len(form.find_elements(By.CSS_SELECTOR, ".plan mark.annotated")) >= 4, "each highlighted in the plan"
    shot(app, "plan-annotated")
    form.find_elements(By.CSS_SELECTOR, ".annotation .discard")[-1].click()
    assert "Redis outage" not in [m.text for m in form.find_elements(By.CSS_SELECTOR, ".plan mark.annotated")]
    form.find_element(By.CSS_SELECTOR, "textarea.feedback").send_keys("Keep the tests fast.")
    form.find_element(By.XPATH, ".//button[text()='Revise']").click()
    code, answer, err = a.result()
    assert code == 0, err
    assert answer == {"answers": [{"id": "plan", "selected": [], "custom": f"""{REVISE}

Line 4, "SessionStore trait with an in-memory and a Redis implementation":
  Name the Redis one RedisSessions.

Line 5, "one release":
  Replace with:
    two releases

Line 6, "Remove the in-memory store.":
  Remove this.

On the whole plan:
  Keep the tests fast."""}]}, answer


def test_a_selection_over_several_lines_is_known_by_all_of_them(app, ask, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text(PLAN)
    a = ask("--plan", str(plan), "--agent-id", "ranged")
    form = form_of(app, "ranged")
    annotate(app, form, "comment", "Dual-write", "Remove the in-memory", "One step at a time.")
    annotate(app, form, "comment", "trait SessionStore", text="Add a delete.")
    assert cards(form) == [("5–6", "Comment"), ("13", "Comment")]
    form.find_element(By.XPATH, ".//button[text()='Revise']").click()
    custom = a.result()[1]["answers"][0]["custom"]
    assert 'Lines 5-6, "Dual-write for one release; read from Redis behind a flag. Remove the in-memory":' in custom
    assert 'Line 13, "trait SessionStore":\n  Add a delete.' in custom, custom


def test_approve_with_notes_sends_them_with_the_approval(app, ask, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text(PLAN)
    a = ask("--plan", str(plan), "--agent-id", "noted")
    form = form_of(app, "noted")
    annotate(app, form, "comment", "behind a flag", text="Name the flag redis_sessions.")
    form.find_element(By.XPATH, ".//button[text()='Approve']").click()
    code, answer, err = a.result()
    assert answer == {"answers": [{"id": "plan", "selected": [], "custom": f"""{APPROVED}

Line 5, "behind a flag":
  Name the flag redis_sessions."""}]}, answer


def test_a_revised_plan_shows_one_annotation_addressed_and_one_open(app, ask, tmp_path):
    plan = tmp_path / "plan.md"
    plan.write_text(PLAN)
    first = ask("--plan", str(plan), "--agent-id", "versions")
    form = form_of(app, "versions")
    annotate(app, form, "comment", "one release", text="How long is a release?")
    annotate(app, form, "remove", "Remove the in-memory store.", text="tests use it")
    form.find_element(By.XPATH, ".//button[text()='Revise']").click()
    assert first.result()[0] == 0

    plan.write_text("Why: sessions must outlive a deploy.\n\n" + PLAN.replace("one release", "two weeks"))
    second = ask("--plan", str(plan), "--agent-id", "versions")
    wait_for(lambda: form_of(app, "versions").find_elements(By.CSS_SELECTOR, ".earlier-annotations"),
             "the earlier annotations")
    form = form_of(app, "versions")
    seen = [(li.get_attribute("class"), li.find_element(By.CSS_SELECTOR, ".where").text,
             li.find_element(By.CSS_SELECTOR, ".quote").text)
            for li in form.find_elements(By.CSS_SELECTOR, ".earlier-annotations li")]
    assert seen == [("addressed", "5", "one release"), ("open", "8", "Remove the in-memory store.")], seen
    assert not form.find_elements(By.CSS_SELECTOR, ".revision .feedback-given"), "the annotations are said once"
    still = [s.text for s in form.find_elements(By.CSS_SELECTOR, ".plan .still-open")]
    assert still == ["Remove the in-memory store."], still
    shot(app, "plan-annotations-revisited")
    form.find_element(By.CSS_SELECTOR, "button.approve").click()
    assert second.result()[1] == {"answers": [{"id": "plan", "selected": ["Approve"]}]}


HOSTILE_PLAN = """# <img src=x onerror="window.__pwned=1"> Plan

1. Run `<script>window.__pwned=1</script>` first
2. <span data-lines="1-1" onmouseover="window.__pwned=1">hover</span> then [go](javascript:window.__pwned=1)
"""

HOSTILE_DIFF = """diff --git a/<img src=x onerror=window.__pwned=1>.js b/<img src=x onerror=window.__pwned=1>.js
--- a/<img src=x onerror=window.__pwned=1>.js
+++ b/<img src=x onerror=window.__pwned=1>.js
@@ -1 +1 @@ <script>window.__pwned=1</script>
-<b onmouseover="window.__pwned=1">old</b>
+<script>window.__pwned=1</script>
"""


def test_a_hostile_plan_annotated_and_a_hostile_diff_run_nothing(app, ask, sock, tmp_path):
    import os
    import subprocess
    from conftest import USERQ
    from test_hooks import form_asking
    plan = tmp_path / "plan.md"
    plan.write_text(HOSTILE_PLAN)
    a = ask("--plan", str(plan), "--agent-id", "hostile-plan")
    form = form_of(app, "hostile-plan")
    annotate(app, form, "comment", "<script>window.__pwned=1</script>", text='<img src=x onerror="window.__pwned=1">')
    annotate(app, form, "replace", "hover", text="<b>bold</b>")
    quotes = [q.get_attribute("textContent") for q in form.find_elements(By.CSS_SELECTOR, ".annotation .quote")]
    assert quotes == ["<script>window.__pwned=1</script>", "hover"], quotes
    forged = form.find_elements(By.CSS_SELECTOR, ".plan [onmouseover], .plan img, .plan script")
    assert not forged, "no markup of the plan's survives"
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    review = subprocess.Popen([USERQ, "review"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    review.stdin.write(HOSTILE_DIFF)
    review.stdin.close()
    diff = form_asking(app, "Approve these changes?")
    paths = [p.get_attribute("textContent") for p in diff.find_elements(By.CSS_SELECTOR, ".review-file .path")]
    assert paths == ["<img src=x onerror=window.__pwned=1>.js"], paths
    # Everything a person might click or hover in both.
    app.execute_script("""
        for (const n of document.querySelectorAll('.review .line .no, mark.annotated, .annotation .quote, .plan span'))
          for (const type of ['mouseover', 'click']) n.dispatchEvent(new MouseEvent(type, {bubbles: true}));
    """)
    assert app.execute_script("return window.__pwned") is None
    assert not app.find_elements(By.CSS_SELECTOR, "form.ask img:not(.thumb), form.ask script, [onerror], [onmouseover]")
    shot(app, "hostile-review")
    form = form_of(app, "hostile-plan")
    form.find_element(By.XPATH, ".//button[text()='Revise']").click()
    custom = a.result()[1]["answers"][0]["custom"]
    assert 'Line 3, "<script>window.__pwned=1</script>":\n  <img src=x onerror="window.__pwned=1">' in custom, custom
    review.kill()
