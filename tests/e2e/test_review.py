"""A code review in the real window: `userq review` asks, the person comments on a
line, on a range and on a file, and requests changes; the review reaches the asker
in the exact words an agent acts on. Approve exits 0."""

import os
import subprocess

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import USERQ, forms, shot, wait_for
from test_hooks import form_asking

DIFF = """diff --git a/src/cart.py b/src/cart.py
index 83db48f..bf269f4 100644
--- a/src/cart.py
+++ b/src/cart.py
@@ -1,3 +1,4 @@ def total(items):
 def total(items):
-    return sum(i.price for i in items)
+    return sum(i.price * i.n for i in items)
+
 # end
diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1 +1 @@
-Shop
+Shop, <b>with</b> quantities
"""


def review(sock):
    env = dict(os.environ, USERQ_SOCKET=str(sock))
    p = subprocess.Popen([USERQ, "review"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    p.stdin.write(DIFF)
    p.stdin.close()
    return p


def number(form, path, new):
    return form.find_element(
        By.XPATH, f".//section[@data-file='{path}']//div[contains(@class,'line')][@data-n='{new}'][not(@data-old)]/button[contains(@class,'new')]")


def test_a_review_with_line_range_and_file_comments_reaches_the_asker_as_the_agent_reads_it(app, sock):
    asker = review(sock)
    form = form_asking(app, "Approve these changes?")
    files = [e.text for e in form.find_elements(By.CSS_SELECTOR, ".review-file .path")]
    assert files == ["src/cart.py", "README.md"]
    added = form.find_elements(By.CSS_SELECTOR, ".review-file[data-file='README.md'] .line.add .code")
    assert [a.get_attribute("textContent") for a in added] == ["+Shop, <b>with</b> quantities"], "text, never markup"
    # A line, then a range (shift-click), then the whole file.
    number(form, "src/cart.py", 2).click()
    form.find_elements(By.CSS_SELECTOR, ".review-comment textarea")[-1].send_keys("Name it quantity.")
    number(form, "src/cart.py", 1).click()
    ActionChains(app).key_down(Keys.SHIFT).click(number(form, "src/cart.py", 3)).key_up(Keys.SHIFT).perform()
    form.find_elements(By.CSS_SELECTOR, ".review-comment textarea")[-1].send_keys("No blank line here.")
    form.find_element(By.CSS_SELECTOR, ".review-file[data-file='README.md'] .file-comment").click()
    form.find_elements(By.CSS_SELECTOR, ".review-comment textarea")[-1].send_keys("Keep the title short.")
    # The box the range started from, left empty, gave its place to the range's.
    assert len(form.find_elements(By.CSS_SELECTOR, ".review-comment")) == 3
    form.find_element(By.CSS_SELECTOR, "textarea.overall-text").send_keys("Add a test.")
    shot(app, "code-review")
    form.find_element(By.XPATH, ".//button[text()='Request changes']").click()
    asker.wait(10)
    out = asker.stdout.read()
    assert asker.returncode == 1, asker.stderr.read()
    assert out == """Changes requested: these changes were not approved. Address every comment below, then stop again; \
what changed since will be reviewed.

src/cart.py, lines 1-3:
  >  def total(items):
  > -    return sum(i.price for i in items)
  > +    return sum(i.price * i.n for i in items)
  > +
  No blank line here.

src/cart.py, line 2:
  > +    return sum(i.price * i.n for i in items)
  Name it quantity.

README.md (the whole file):
  Keep the title short.

On the whole change:
  Add a test.
"""
    wait_for(lambda: not forms(app), "the review to leave")


def test_approve_exits_0(app, sock):
    asker = review(sock)
    form = form_asking(app, "Approve these changes?")
    form.find_element(By.XPATH, ".//button[text()='Approve']").click()
    asker.wait(10)
    assert asker.returncode == 0, asker.stderr.read()


def test_approve_with_comments_written_says_they_are_not_sent_before_approving(app, sock):
    asker = review(sock)
    form = form_asking(app, "Approve these changes?")
    number(form, "src/cart.py", 2).click()
    form.find_elements(By.CSS_SELECTOR, ".review-comment textarea")[-1].send_keys("Name it quantity.")
    form.find_element(By.XPATH, ".//button[text()='Approve']").click()
    # Said, not sent, and not turned into a request for changes.
    wait_for(lambda: "Press Approve again" in form.find_element(By.CSS_SELECTOR, ".error").text, "the warning")
    assert asker.poll() is None, "nothing was sent yet"
    form.find_element(By.XPATH, ".//button[text()='Approve']").click()
    asker.wait(10)
    assert asker.returncode == 0, asker.stderr.read()
    assert asker.stdout.read() == "", "an approval prints no review"
