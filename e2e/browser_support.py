"""Helpers shared by the browser tests (the fixtures live in conftest.py).

Test modules import them from here, never from ``conftest``: pytest imports every
``conftest.py`` under the one module name "conftest", so ``from conftest import …`` picks
whichever folder's conftest was loaded last (tests/versality's, when the unit and browser
tests run in one pytest call).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# How long a test waits for the engine: static/js/engine.js's STALL_MS (60 s of silence, then a
# second start without the snapshot) and that second start, on a loaded machine.
ENGINE_TIMEOUT_MS = 150_000

CONSOLE: list[str] = []

# Headless Debian Chromium in a container (the e2e suite and make bench launch it alike).
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


# Chromium's headless mode builds the popups of a window's address bar for every page it opens:
# two WebUI pages (chrome://omnibox-popup.top-chrome, the suggestions and the "AI mode" composer)
# that no headless page can show, about 1.2 s of CPU per page opened (measured on Chromium 156:
# a warm page start of the app with its engine took 3.5 s of CPU with them, 2.3 s without).
# The e2e suite and `make bench` open hundreds of pages; they turn both off.
HEADLESS_UNSEEN_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


def disabled_feature_lists(page) -> list[list[str]]:
    """The ``--disable-features`` lists of the command line of ``page``'s browser, in order (read
    from chrome://version; Chromium applies only the last)."""
    page.goto("chrome://version")
    command_line = page.locator("#command_line").inner_text(timeout=30_000).split()
    return [arg.split("=", 1)[1].split(",") for arg in command_line if arg.startswith("--disable-features=")]


def without_unseen_features(browser_type, launch: dict) -> dict:
    """``launch`` (the keyword arguments of ``browser_type.launch``) with
    :data:`HEADLESS_UNSEEN_FEATURES` turned off. Chromium reads only the last
    ``--disable-features`` of its command line and Playwright passes its own list, so the list a
    probe browser was given is read back and passed again with ours added. A probe that fails
    leaves ``launch`` as it was: the browser is then only slower."""
    try:
        probe = browser_type.launch(**launch)
    except Exception:
        return launch
    try:
        given = disabled_feature_lists(probe.new_page())
    except Exception:
        return launch
    finally:
        probe.close()
    features = [f for f in (given[-1] if given else []) if f]
    features += [f for f in HEADLESS_UNSEEN_FEATURES if f not in features]
    return {**launch, "args": [*launch.get("args", []), "--disable-features=" + ",".join(features)]}


def chromium_launch(browser_type, base: dict | None = None) -> dict:
    """The keyword arguments of ``browser_type.launch`` for the suite and ``make bench``:
    ``base`` with :data:`CHROMIUM_FLAGS`, Debian's Chromium when there is one, and the unseen
    popups off (:func:`without_unseen_features`)."""
    launch = {**(base or {}), "args": CHROMIUM_FLAGS}
    path = chromium_path()
    if path:
        launch["executable_path"] = path
    return without_unseen_features(browser_type, launch)


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None

# The app freezes every table it holds (static/js/app.js, STRICT_TABLES): a change written in
# place into a table shared with an earlier one throws, and the test fails on the page error.
STRICT_TABLES = "globalThis.__tableeStrictTables = true;"

# Reports every CSP violation of a page to the test (through an exposed binding, so a
# report made just before a navigation is not lost with the page).
CSP_RECORDER = """
addEventListener('securitypolicyviolation', (e) => {
  const report = globalThis.__tableeCspReport;
  if (typeof report === 'function') {
    report([e.effectiveDirective, e.blockedURI, e.sourceFile + ':' + e.lineNumber, e.sample].join(' | '));
  }
});
"""


# Where an engine start stood when a test gave up waiting for it: the engine's state (a start
# that stalled for static/js/engine.js's STALL_MS is retried without the snapshot, "retrying"),
# the progress bar's step, and the engine files still loading. A start that never ended on a
# machine no one watched then says whether it hung, and where.
ENGINE_WHERE = """() => {
  const html = document.documentElement;
  const bar = document.querySelector('[data-testid=engine-progress]');
  const files = performance.getEntriesByType('resource')
    .filter((e) => /vendor|py\\/|worker/.test(e.name))
    .map((e) => `${e.name.split('/').slice(-2).join('/')} ${Math.round(e.startTime)}+${Math.round(e.duration)}ms`);
  return `engine=${html.dataset.engine ?? 'unset'} step=${bar?.dataset.step ?? '-'} ${bar?.dataset.percent ?? '-'}% `
    + `page=${Math.round(performance.now())}ms sw=${navigator.serviceWorker?.controller ? 'controls' : 'none'}; `
    + `engine files: ${files.slice(-12).join(', ')}`;
}"""


def wait_engine(page, state: str = "ready") -> None:
    try:
        page.wait_for_function(
            "s => document.documentElement.dataset.engine === s || document.documentElement.dataset.engine === 'failed'",
            arg=state,
            timeout=ENGINE_TIMEOUT_MS,
        )
    except Exception as error:
        try:
            where = page.evaluate(ENGINE_WHERE)
        except Exception as unreadable:  # a page that does not answer at all: say that
            where = f"page unreadable: {str(unreadable).splitlines()[0][:200]}"
        raise AssertionError(f"engine not {state} after {ENGINE_TIMEOUT_MS} ms: {where}; console:\n"
                             + "\n".join(CONSOLE[-30:])) from error
    engine = page.evaluate("document.documentElement.dataset.engine")
    assert engine == state, "engine " + engine + "; console:\n" + "\n".join(CONSOLE[-30:])


def no_horizontal_scroll(page, width: int = 360) -> None:
    """The page fits its phone-sized viewport: nothing scrolls sideways."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url}: scrollWidth {scroll}"


def saved_document(page) -> dict:
    return page.evaluate("JSON.parse(localStorage.getItem('tablee.document'))")


# Write the saved table as another tab of the app would: the text, and the revision that
# describes it (static/js/save-queue.js: {id, hash, chain}, a child of the revision saved now). A bare
# write of the text is a table no tab of this version wrote: the app then waits (seconds) for
# the revision that would describe it before its next save, as it must for a write in transit.
WRITE_AS_A_TAB = """raw => {
  let h = 0x811c9dc5;
  for (let i = 0; i < raw.length; i += 1) { h ^= raw.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  let parent = null;
  try { parent = JSON.parse(localStorage.getItem('tablee.document.rev')); } catch {}
  const id = 'rev-test-' + Math.random().toString(36).slice(2);
  const chain = [...(Array.isArray(parent?.chain) ? parent.chain : []), id].slice(-200);
  localStorage.setItem('tablee.document', raw);
  localStorage.setItem('tablee.document.rev', JSON.stringify({ id, hash: `${(h >>> 0).toString(36)}:${raw.length}`, chain }));
}"""


def write_table(page, doc) -> None:
    """Save ``doc`` (a dict, or the raw text) as the table, as another tab of the app would
    (WRITE_AS_A_TAB); the page's own tab follows it through the storage event or a reload."""
    raw = doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False)
    page.evaluate(WRITE_AS_A_TAB, raw)


def put_table(page, doc) -> None:
    """``write_table``, then reload and wait for the engine: the next boot opens ``doc``."""
    write_table(page, doc)
    page.reload()
    wait_engine(page)


# ------------------------------------------------------------------ waiting for the state
# A test waits for the state it checks, never for a fixed delay: the browser may run
# slowly (a loaded 2-core machine), and a read of localStorage before the app saved is a
# flaky test. These helpers wait for the saved document or the rendered view themselves.
def wait_saved(page, predicate_js: str, arg=None, timeout: float = 30_000) -> dict:
    """Wait until the saved document satisfies ``predicate_js`` (the source of a JS function
    of the document and ``arg``), then return that document. An unreadable or absent saved
    document does not satisfy it, nor does a predicate that throws on a document not yet there
    (``d.characters[0].name`` before the first character is saved): the wait goes on."""
    source = (
        "arg => { const raw = localStorage.getItem('tablee.document'); if (raw === null) return false;"
        " let doc; try { doc = JSON.parse(raw); } catch { return false; }"
        " try { return Boolean((" + predicate_js + ")(doc, arg)); } catch { return false; } }"
    )
    page.wait_for_function(source, arg=arg, timeout=timeout)
    return saved_document(page)


def wait_saved_where(page, expression: str, arg=None, timeout: float = 30_000) -> dict:
    """wait_saved with a JS expression of the document ``d`` (and ``a``, the argument)."""
    return wait_saved(page, f"(d, a) => ({expression})", arg, timeout)


def wait_log(page, count: int) -> dict:
    """Wait until the saved log holds ``count`` entries; returns the saved document."""
    return wait_saved(page, "(d, n) => d.log.length === n", count)


def open_table(page, site: str, doc, route: str = "") -> None:
    """Open the app on ``#/<route>`` with ``doc`` (a table as a dict, or the raw saved text)
    already saved, and wait for the engine: one engine start. The table is written from the
    site's manifest (same origin, no script of the app runs there), so the app's first load
    reads it; writing it from the app and reloading would start the engine twice."""
    page.goto(site + "manifest.webmanifest")
    raw = doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False)
    page.evaluate("raw => localStorage.setItem('tablee.document', raw)", raw)
    page.goto(site + (f"#/{route}" if route else ""))
    wait_engine(page)


def goto_route(page, route: str) -> None:
    """Open ``#/<route>`` and wait until that view is rendered (its nav link is current
    and its heading is on screen; a lazily loaded system page has replaced its placeholder)."""
    page.goto(page.url.split("#")[0] + f"#/{route}")
    top = route.split("/")[0]
    page.wait_for_function(
        """top => document.querySelector(`nav a[data-route="${top}"][aria-current="page"]`) !== null
          && document.querySelector('main h1') !== null""",
        arg=top,
        timeout=ENGINE_TIMEOUT_MS,
    )


# ------------------------------------------------------------------ accessibility
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe_findings(page) -> list[dict]:
    """Every violation axe-core finds on the page as it is (any impact)."""
    # Evaluated, not added as a <script> tag: the page's Content-Security-Policy refuses inline scripts.
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    return page.evaluate(
        """() => axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
            .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)})))"""
    )


# ------------------------------------------------------------------ table data
def ok(request: dict) -> dict:
    """The rules package's answer to ``request`` (run here, in CPython), asserted not an error:
    the tests build their tables and oracles with the engine the page runs."""
    from tablee.api import handle

    response = handle(request)
    assert "error" not in response, response
    return response


def new_table(characters=(), systems: dict | None = None, **fields) -> dict:
    """The table the app saves on a first visit in French (static/js/storage.js ``newDocument``
    named with fr ``table.default_name``), holding these characters and system states; ``fields``
    replace any other top-level field. For the ``app_with`` fixture (conftest.py), which saves it
    before the app's first load."""
    doc = {"schema": 1, "app": "tablee", "name": "Ma table", "language": "fr",
           "characters": list(characters), "log": [], "systems": dict(systems or {}), "settings": {}}
    doc.update(fields)
    return doc


def versality_character(cid: str, name: str) -> dict:
    """A created (validated) character: base deck + oui-et + oui (5 points) + two non-mais (6 = ⌈12/2⌉)."""
    deck = [{"kind": k, "origin": "base"} for k in ("oui-et", "oui", "oui-mais", "oui-mais")]
    deck += [{"kind": k, "origin": "creation"} for k in ("oui-et", "oui", "non-mais", "non-mais")]
    return {
        "id": cid, "system": "versality", "name": name, "created": True,
        "powers": [{"text": "Télékinésie", "approved": True}],
        "forces": ["Agile", "Têtue"], "faiblesses": ["Naïve"], "traits_approved": True,
        "characteristics": {"physique": 2, "mental": 0, "personnalite": 1},
        "skills": {"traquer": 3, "survivre": 1, "terroriser": 0, "combattre": 1, "soulager": 0,
                   "comprendre": 0, "fureter": 0, "resister": 0},
        "deck": deck, "wounds": {"physique": 0, "mental": 0, "personnalite": 0},
        "incapacitated": False, "heal_used": False, "improvement_points": 0,
    }


# ------------------------------------------------------------------ several devices
#: Empties a context's site storage from a page of the site (e2e/conftest.py: a context used
#: by several tests): everything but the service worker's caches and the engine's snapshot.
CLEAR_SITE_STORAGE = """async () => {
  localStorage.clear();
  sessionStorage.clear();
  if (indexedDB.databases) {
    for (const db of await indexedDB.databases()) if (db.name) indexedDB.deleteDatabase(db.name);
  }
  for (const name of await caches.keys()) {
    if (!name.startsWith('tablee-')) await caches.delete(name);
  }
}"""


def emptied_page(context, site: str):
    """A new page of ``context``, on which the context's site storage was just emptied
    (CLEAR_SITE_STORAGE, from a page of the site that runs no script: its web manifest). It is
    the test's first page (the ``page`` fixture, a device's page): opening and closing a page of
    its own only to empty the storage cost about 0.5 s of CPU before every test."""
    page = context.new_page()
    page.goto(site + "manifest.webmanifest")
    page.evaluate(CLEAR_SITE_STORAGE)
    return page


MJ_MODE_ON = "try { localStorage.setItem('tablee.mj-mode', 'on'); } catch {}"


class Device:
    """One browser context (its own storage: a phone, the MJ's laptop) that records page errors,
    CSP violations and requests to another origin (aborted); `check()` asserts there were none.
    `mj` turns the device's "Mode MJ" on; `scripts` are more init scripts (e.g. recorders)."""

    def __init__(self, browser, server: str, mj: bool, scripts: tuple[str, ...] = ()):
        self.context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.csp: list[str] = []
        own = re.escape(server)

        def block(route):
            self.foreign.append(route.request.url)
            route.abort()

        self.context.route(re.compile(rf"^(?!{own}/|blob:|data:).*"), block)
        self.context.on("weberror", lambda e: self.errors.append(str(e.error)))
        self.context.on("console", lambda m: self.csp.append(m.text) if "Content Security Policy" in m.text else None)
        self.context.expose_binding("__tableeCspReport", lambda source, text: self.csp.append(str(text)))
        self.context.add_init_script(CSP_RECORDER)
        self.context.add_init_script(STRICT_TABLES)
        for script in scripts:
            self.context.add_init_script(script)
        if mj:
            self.context.add_init_script(MJ_MODE_ON)
        self.key = (mj, tuple(scripts))
        # A context a test changed for itself (another init script) is not used again.
        self.reusable = True
        own_add = self.context.add_init_script

        def add_init_script(*args, **kwargs):
            self.reusable = False
            return own_add(*args, **kwargs)

        self.context.add_init_script = add_init_script
        self.page = self.context.new_page()

    def reset(self, site: str) -> None:
        """Ready for another test: its pages closed, its site storage emptied (the service
        worker and the engine's snapshot kept: the next test starts as a return visit), its
        records cleared, one new page."""
        for page in list(self.context.pages):
            page.close()
        self.page = emptied_page(self.context, site)
        self.foreign.clear()
        self.errors.clear()
        self.csp.clear()

    def check(self) -> None:
        assert not self.foreign, f"requests left the site's origin: {self.foreign}"
        assert not self.errors, f"uncaught page errors: {self.errors}"
        assert not self.csp, f"Content-Security-Policy violations: {self.csp}"


#: The enabled buttons (page coordinates of their boxes) that the undo notice's box overlaps.
COVERED_JS = """() => {
  const bar = document.querySelector('[data-testid=undo-toast]');
  if (!bar) return null;
  const n = bar.getBoundingClientRect();
  return [...document.querySelectorAll('button, [role=button], summary')]
    .filter((b) => !bar.contains(b) && !b.disabled && b.getClientRects().length)
    .map((b) => [b, b.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && r.height > 0 && r.top < n.bottom && r.bottom > n.top && r.left < n.right && r.right > n.left)
    .map(([b, r]) => `${b.id || b.textContent.trim().slice(0, 30)} ${Math.round(r.top)}-${Math.round(r.bottom)} under ${Math.round(n.top)}`);
}"""


def covered_buttons(page) -> list[str]:
    return page.evaluate(COVERED_JS) or []


def no_button_covered(page) -> None:
    """Once the page is at rest (a result brought into view scrolls it), no enabled button is
    under the undo notice."""
    try:
        page.wait_for_function(f"() => {{ const c = ({COVERED_JS})(); return c !== null && c.length === 0; }}", timeout=10_000)
    except Exception:
        assert covered_buttons(page) == []
        raise


def seed(app_with, characters: list[dict], systems: dict | None = None):
    """The app opened on a new table holding these characters and system states (one engine boot)."""
    return app_with(new_table(characters, systems))


def force_next_seed(page, value: int) -> None:
    """The next roll's seed is ``value``: storage.newSeed reads two words of
    crypto.getRandomValues (high 21 bits, low 32); the next such call gets them, then the
    browser's own generator is back. The app's ids (storage.newId) read the same two words, and
    the write of a change makes some (its revision, its undo entry): the hook is set once every
    change is saved, or a late write of the change before (under load) took the seed."""
    page.evaluate(
        """async v => { const { app } = await import('./static/js/app.js'); await app.saved();
          const own = crypto.getRandomValues.bind(crypto);
          crypto.getRandomValues = (a) => {
            if (a instanceof Uint32Array && a.length === 2) {
              a[0] = Math.floor(v / 2 ** 32); a[1] = v % 2 ** 32; crypto.getRandomValues = own; return a; }
            return own(a); }; }""",
        value,
    )
