"""The rules engine's start as the header tells it (static/js/engine.js, engine-progress.js).

- While the engine loads, the header shows a bar with what is loading, under the status line;
  the bar moves and is gone once the engine is ready.
- A start that stays silent (a worker that never answers: its messages are swallowed) is told
  on screen (« ne répond pas, nouvel essai »), then tried once more without the memory
  snapshot, which starts.
- A worker that dies at each start: after the second try the page says what to do, and the
  pages that need no engine keep working.

The page's own Worker constructor is replaced before the app's scripts run (PyScript creates
the engine's worker through it); the silence bound is shortened to a few seconds for the
test (``TABLEE_ENGINE_STALL_MS``).
"""

from __future__ import annotations

from itertools import pairwise

from playwright.sync_api import expect

from browser_support import wait_engine

#: Records each value the header's bar shows, and whether it was ever on screen.
WATCH_BAR = """
window.__bar = [];
new MutationObserver(() => {
  const box = document.querySelector('[data-testid=engine-progress]');
  if (box) window.__bar.push([box.dataset.step, Number(box.dataset.percent)]);
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-percent', 'data-step'] });
"""


def faulty_workers(fault: str, count: int, stall_ms: int = 3000) -> str:
    """An init script: the page's first ``count`` workers are ``fault`` ("silent": nothing posted
    to them arrives; "dying": ended right after they start)."""
    return f"""
window.TABLEE_ENGINE_STALL_MS = {stall_ms};
{{
  const Native = window.Worker;
  let made = 0;
  window.Worker = class extends Native {{
    constructor(...args) {{
      super(...args);
      this.faulty = made++ < {count};
      if (this.faulty && "{fault}" === "dying") setTimeout(() => this.terminate(), 100);
    }}
    postMessage(...args) {{
      if (this.faulty && "{fault}" === "silent") return;
      return super.postMessage(...args);
    }}
  }};
}}
"""


def test_a_silent_start_is_told_then_tried_again_without_the_snapshot_and_the_bar_shows_the_way(page, site, guarded):
    page.add_init_script(WATCH_BAR)
    page.add_init_script(faulty_workers("silent", 1))
    page.goto(site + "#/")
    html = page.locator("html")
    expect(html).to_have_attribute("data-engine", "retrying")
    page.evaluate("() => { window.TABLEE_ENGINE_STALL_MS = 600000; }")  # the second try is left alone
    expect(page.locator("#engine-status")).to_have_text("Moteur de règles : ne répond pas, nouvel essai…")
    bar = page.locator("[data-testid=engine-progress]")
    expect(bar).to_be_visible()
    wait_engine(page)
    assert page.evaluate("document.documentElement.dataset.engineBoot") == "plain"
    expect(bar).to_have_count(0)
    expect(page.locator("#engine-status")).to_have_text("Moteur de règles : prêt")
    seen = page.evaluate("window.__bar")
    steps = [step for step, _ in seen]
    assert "core" in steps and "retry" in steps, seen
    after_retry = [percent for step, percent in seen[steps.index("retry"):]]
    assert after_retry[0] == 0  # a new try starts the bar again
    # it moved during the second start (the downloads' bytes, then the interpreter's start)
    assert len(set(after_retry)) >= 3 and max(after_retry) > after_retry[0], seen
    assert all(b >= a for a, b in pairwise(after_retry)), seen
    assert {"runtime", "interpreter"} <= set(steps), seen


def test_a_worker_that_dies_twice_says_what_to_do_and_the_other_pages_work(page, site, guarded):
    page.add_init_script(faulty_workers("dying", 2))
    page.goto(site + "#/")
    expect(page.locator("html")).to_have_attribute("data-engine", "retrying")
    wait_engine(page, "failed")
    expect(page.locator("#engine-status")).to_have_text("Moteur de règles : échec du démarrage")
    expect(page.locator("[data-testid=engine-progress]")).to_have_count(0)
    notice = page.get_by_text("Le moteur de règles ne démarre pas", exact=False)
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("rechargez la page")
    expect(page.get_by_role("button", name="Recharger")).to_be_visible()
    # A page that needs no engine works: the log of the table.
    page.click("#app-nav a[data-route=log]")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate("location.hash") == "#/log"


def test_a_return_visit_starts_the_engine_before_its_first_render(app):
    """A service worker controls the page (the shared context was warmed): the engine's worker
    starts before the shell's first render, not after it."""
    marks = app.evaluate("""() => ({
      controlled: navigator.serviceWorker.controller !== null,
      start: performance.getEntriesByName('tablee-engine-start')[0]?.startTime ?? null,
      render: performance.getEntriesByName('tablee-first-render')[0]?.startTime ?? null,
    })""")
    assert marks["controlled"], marks
    assert marks["start"] is not None and marks["render"] is not None, marks
    assert marks["start"] < marks["render"], marks
    assert app.locator("[data-testid=engine-progress]").count() == 0
