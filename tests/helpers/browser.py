"""What the browser tests share (tests/external/test_explorer_browser.py, the explorer's
server page; tests/external/test_explorer_site.py, the static site; bench/site.py): the
system's Chromium, launched by Playwright, and a wait that keeps the page's
Content-Security-Policy on.

Playwright's wait_for_function compiles its expression in the page (eval), which the
explorer's policy forbids (script-src 'self'); `wait_until` asks page.evaluate instead
(the DevTools protocol's evaluation, which no page policy governs) until the expression
holds, so the tests open the page as its users do, under its policy, and a console
error the policy causes fails them.
"""
import os
import shutil
import time

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def chromium_path():
    """The system's Chromium: $CHROMIUM, /usr/bin/chromium, or chromium(-browser) on PATH."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def wait_until(tab, expression, timeout=20.0):
    """Poll the JavaScript `expression` in `tab` until it is truthy; its value. Fails
    (AssertionError) after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = tab.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        time.sleep(0.05)


SETTLED = ("document.body.dataset.ready === 'yes' && [...document.querySelectorAll('.pane')]"
           ".every(p => p.dataset.busy === 'no')")


# Every id on the page once, and every url(#...) of a picture naming an element of its own
# picture (the page's own controls bear ids too: #neg is the --neg field).
OWN_REFERENCES = """(() => {
  const ids = [...document.querySelectorAll("[id]")].map((node) => node.id);
  const twice = ids.filter((id, at) => ids.indexOf(id) !== at);
  const wrong = [];
  let hatched = 0;
  for (const svg of document.querySelectorAll(".picture svg")) {
    for (const node of svg.querySelectorAll('[fill^="url(#"]')) {
      const id = node.getAttribute("fill").slice(5, -1);
      const target = document.getElementById(id);
      if (!target || !svg.contains(target) || target.tagName !== "pattern") wrong.push(id);
      hatched += 1;
    }
  }
  return { twice, wrong, hatched };
})()"""


class Recorder:
    """The console errors and page errors of a tab, as they come."""

    def __init__(self, tab):
        self.errors = []
        tab.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
               else None)
        tab.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
