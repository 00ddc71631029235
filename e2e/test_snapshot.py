"""The engine's memory snapshot in a real browser (static/js/pyodide-snapshot.js).

A first start makes the snapshot (``data-engine-boot="made"``) and stores it in Cache Storage;
a later start restores it (``"snapshot"``) and answers as the rules package does under CPython;
a corrupted, truncated or foreign-build snapshot falls back to a plain start (``"plain"``) that
makes a good one again; a restored interpreter's ``random`` is reseeded from crypto; offline
after a first visit still restores; a service worker update replaces the snapshot.
Every wait is for a state (an attribute, a stored entry), never a delay.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from browser_support import wait_engine
from tablee.api import handle_json

# Each test starts from a first visit (no snapshot stored): a context of its own.
pytestmark = pytest.mark.fresh_context

SNAPSHOT_CACHE = "tablee-snapshot"
SNAPSHOT_PATH = "static/vendor/pyodide/engine.snapshot"

#: One first op per system (and the generic roll, seeded): the restored engine's answers must be
#: the rules package's own, computed here under CPython.
FIRST_OPS = [
    {"op": "systmj.rules"},
    {"op": "versality.rules"},
    {"op": "pointzero.rules"},
    {"op": "theorem.rules"},
    {"op": "unicreon.data"},
    {"op": "roll", "expr": "4d6kh3", "seed": 12345},
]

#: The stored snapshot's digest (null when there is none).
STORED_JS = """async ([url, old]) => {
  const cache = await caches.open('tablee-snapshot');
  const hit = await cache.match(url);
  const digest = hit ? hit.headers.get('x-tablee-snapshot-sha256') : null;
  return old === undefined ? digest : digest !== null && digest !== old;
}"""


def boot(page) -> str:
    wait_engine(page)
    kind = page.evaluate("document.documentElement.dataset.engineBoot")
    assert kind in ("snapshot", "made", "plain"), kind
    return kind


def wait_stored(page, site: str, other_than: str | None = None) -> str:
    """Wait until a snapshot is in Cache Storage (another one than ``other_than``); its digest."""
    page.wait_for_function(STORED_JS, arg=[site + SNAPSHOT_PATH, other_than], timeout=60_000)
    return stored(page, site)


def stored(page, site: str) -> str | None:
    return page.evaluate(STORED_JS, [site + SNAPSHOT_PATH])


def call(page, request: dict) -> dict:
    return page.evaluate(
        "async (r) => (await import(new URL('static/js/engine.js', document.baseURI).href)).call(r)", request
    )


def made_then_restored(page, site: str) -> str:
    page.goto(site + "#/tray")
    assert boot(page) == "made"
    digest = wait_stored(page, site)
    page.reload()
    assert boot(page) == "snapshot"
    return digest


#: What the snapshot holds of the package (pyodide-snapshot.js, PACKAGE_PRELOAD): every module that
#: registers ops, and the libraries the ops use.
PRELOADED = [
    "tablee.api", "tablee.dice_ops", "tablee.store", "tablee.referee", "icepool", "fastjsonschema",
    *(f"tablee.systems.{sid}" for sid in ("systmj", "versality", "pointzero", "theorem", "unicreon")),
]


@pytest.mark.journey
def test_a_second_load_restores_and_answers_every_system_s_first_op_as_the_rules_do(page, site, guarded):
    made_then_restored(page, site)
    # Restored with the package already imported: no system's first op imports anything (the
    # dice tray has asked for nothing of Unicreon or Théorem yet).
    loaded = in_engine(page, site, f"import sys; [m for m in {PRELOADED!r} if m not in sys.modules]")
    assert loaded == [], f"not in the restored interpreter: {loaded}"
    for request in FIRST_OPS:
        assert call(page, request) == json.loads(handle_json(json.dumps(request))), request["op"]
    # The referee's list loads every system's moves module on first use (after the restore):
    # the standard library it reaches lazily is there (importlib.metadata, through
    # importlib.invalidate_caches: every phone's move failed with request.internal without it).
    moves = {"op": "live.moves"}
    assert call(page, moves) == json.loads(handle_json(json.dumps(moves)))
    size = page.evaluate(
        "async () => (await import(new URL('static/js/engine.js', document.baseURI).href)).engineBoot().snapshot_bytes"
    )
    assert size > 10_000_000
    # The storage figures show it (page Table).
    page.goto(site + "#/table")
    expect(page.get_by_test_id("snapshot-usage")).to_contain_text("Mo")


def damage(page, site: str, how: str) -> None:
    page.evaluate(
        """async ([name, url, how]) => {
  const cache = await caches.open(name);
  const hit = await cache.match(url);
  let bytes = new Uint8Array(await hit.arrayBuffer());
  const headers = Object.fromEntries(hit.headers);
  const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  if (how === 'corrupted') bytes[bytes.length >> 1] ^= 0xff;  // the stored digest no longer matches
  if (how === 'truncated') bytes = bytes.slice(0, bytes.length >> 1);
  if (how === 'foreign') {  // another Pyodide build's id in the header, with a matching digest
    bytes[20] ^= 0xff;
    headers['x-tablee-snapshot-sha256'] = hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
  }
  await cache.put(url, new Response(bytes, { headers }));
}""",
        [SNAPSHOT_CACHE, site + SNAPSHOT_PATH, how],
    )


def test_a_bad_snapshot_falls_back_to_a_plain_start_and_the_next_load_restores(page, site, guarded):
    """Each kind of damage in turn, on the one first visit (a first visit is the costly part):
    the fallback of each stores a good snapshot again, which the next damage starts from."""
    good = made_then_restored(page, site)
    for how in ("corrupted", "truncated", "foreign"):
        damage(page, site, how)
        page.reload()
        assert boot(page) == "plain", how
        assert call(page, FIRST_OPS[-1]) == json.loads(handle_json(json.dumps(FIRST_OPS[-1])))
        wait_stored(page, site, other_than=None)
        page.reload()
        assert boot(page) == "snapshot", how
        assert stored(page, site) is not None
    assert good


def in_engine(page, site: str, code: str):
    """The value of Python ``code`` (its last expression, converted to JS) in the engine's
    worker, run beside the app (the module's `started` interpreter, imported by the URL the
    worker loaded it from: static/js/engine.js puts the start's options in its query)."""
    workers = page.workers
    assert workers, "no worker"
    url = site + "static/js/pyodide-snapshot.js"
    for worker in workers:
        try:
            values = worker.evaluate(
                "async ([url, code]) => { const urls = performance.getEntriesByType('resource').map((e) => e.name)"
                "  .filter((n) => n.split('?')[0] === url);"
                " for (const u of urls) { const m = await import(u); if (!m.started) continue;"
                " const v = m.started.runPython(code); return { value: v?.toJs ? v.toJs() : v }; } return null; }",
                [url, code],
            )
        except Exception:  # not the engine's worker
            continue
        if values:
            return values["value"]
    raise AssertionError("the engine's worker was not found")


def python_random(page, site: str) -> list[float]:
    """Three draws of Python's global `random` in the engine's worker, without touching its
    state for the app."""
    return in_engine(page, site, "import random as _r; [_r.random() for _ in range(3)]")


def test_two_restored_loads_give_different_seeds_and_python_randomness(page, site, guarded):
    made_then_restored(page, site)
    first = python_random(page, site)
    page.reload()
    assert boot(page) == "snapshot"
    second = python_random(page, site)
    assert first != second, "a restored interpreter's random state is the snapshot's"
    # The page draws each roll's seed from crypto: two restored loads roll with different seeds.
    # The roll shows before it is saved: wait for the saved log to hold it, then read its seed.
    seeds = []
    saved = "(JSON.parse(localStorage.getItem('tablee.document') || '{}').log || [])"
    for _ in range(2):
        page.reload()
        assert boot(page) == "snapshot"
        before = page.evaluate(f"() => {saved}.length")
        page.fill("#dice-expr", "d6")
        page.click("#roll-button")
        expect(page.locator("#roll-result li.die")).to_have_count(1)
        page.wait_for_function(f"() => {saved}.length === {before + 1}")
        seeds.append(page.evaluate(f"() => {saved}.at(-1).request.seed"))
    assert seeds[0] != seeds[1]


def test_offline_after_the_first_visit_still_restores(page, site, guarded, context):
    page.goto(site + "#/tray")
    assert boot(page) == "made"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    wait_stored(page, site)
    context.set_offline(True)
    try:
        page.reload()
        assert boot(page) == "snapshot"
        page.fill("#dice-expr", "2d6")
        page.click("#roll-button")
        expect(page.locator("#roll-result li.die")).to_have_count(2)
    finally:
        context.set_offline(False)


def test_a_service_worker_update_replaces_the_snapshot(page, site, guarded, new_version):
    page.goto(site + "#/tray")
    assert boot(page) == "made"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    old = wait_stored(page, site)
    page.reload()
    assert boot(page) == "snapshot"
    new_version("next")
    # Ask for the update until the page says there is one: an update check already under way
    # (the reload's own) answers the call with the old script (a clean-clone CI run saw it).
    page.wait_for_function(
        """async () => {
          if ([...document.querySelectorAll('.notice')].some((n) => n.textContent.includes('nouvelle version'))) return true;
          await (await navigator.serviceWorker.getRegistration())?.update().catch(() => {});
          return false;
        }""",
        polling=1000, timeout=60_000)
    notice = page.locator(".notice", has_text="nouvelle version")
    expect(notice).to_be_visible()
    page.wait_for_function("() => navigator.serviceWorker.getRegistration().then(r => r.waiting !== null)")
    with page.expect_navigation(timeout=60_000):
        notice.get_by_role("button", name="Mettre à jour").click()
    assert boot(page) == "made", "the old version's snapshot was restored after the update"
    new = wait_stored(page, site, other_than=old)
    assert new != old
    page.reload()
    assert boot(page) == "snapshot"
