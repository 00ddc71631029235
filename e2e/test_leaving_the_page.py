"""A change shown on screen is saved even when the page goes away before its turn to be written.

A change waits for the lock the tabs share (navigator.locks) and for the saved head
(IndexedDB), both asynchronous; a reload, a link followed or a phone that locks its screen
can end the page in between. The page writes what is waiting when it is hidden (pagehide,
visibilitychange). Here the test itself holds the lock, so the change cannot be written the
usual way: without the write on leaving, the change is lost every time, not by chance."""

from __future__ import annotations

from browser_support import saved_document, wait_engine, wait_saved

# Take the tabs' shared lock and keep it for as long as the page lives.
HOLD_LOCK = """
() => new Promise((held) => navigator.locks.request('tablee.document', () => {
  held();
  return new Promise(() => {});
}))
"""
# A change made through the app (app.addLog is an app.update): shown, not yet written.
CHANGE = """
async (label) => {
  const { app } = await import(new URL('static/js/app.js', location.href).href);
  return app.addLog({ kind: 'roll', label, request: { op: 'roll' }, result: { total: 1 } });
}
"""


def labels(doc: dict | None) -> list[str]:
    return [e["label"] for e in (doc or {}).get("log", [])]


def start(page, site: str) -> None:
    page.goto(site + "#/log")
    wait_engine(page)
    page.evaluate(CHANGE, "déjà là")
    wait_saved(page, "d => d.log.length === 1")
    page.evaluate(HOLD_LOCK)


def test_a_change_made_just_before_a_reload_is_in_the_table_after_it(page, site, guarded):
    start(page, site)
    assert page.evaluate(CHANGE, "juste avant") is True
    # Shown on the log page, but not written: the lock is held.
    page.get_by_text("juste avant").first.wait_for()
    assert labels(saved_document(page)) == ["déjà là"]
    page.reload()
    wait_engine(page)
    assert labels(saved_document(page)) == ["déjà là", "juste avant"]
    page.get_by_text("juste avant").first.wait_for()


def test_a_change_is_written_when_the_phone_hides_the_page(page, site, guarded):
    start(page, site)
    page.evaluate(CHANGE, "écran verrouillé")
    assert labels(saved_document(page)) == ["déjà là"]
    # The screen locks: the page is hidden (and may be killed without another event).
    page.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    assert labels(saved_document(page)) == ["déjà là", "écran verrouillé"]
    # Nothing is written twice when the page comes back and the lock is free again.
    page.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.reload()
    wait_engine(page)
    assert labels(saved_document(page)) == ["déjà là", "écran verrouillé"]
