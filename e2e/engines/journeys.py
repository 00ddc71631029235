"""The journeys every engine plays (e2e/test_engines.py, parametrised by engine), written
once on the page interface of e2e/engines/drivers.py: boot to ready with the engine's memory
snapshot made, a reload that restores it, an offline reload (the server stopped: the service worker
serves the app); each system's signature test (a character created through its page, a test with
its odds shown, the result in the saved log and on the log page); export and import of the whole
table, a share link opened, an undo. Every wait is for a state of the page or of the saved table.
"""

from __future__ import annotations

import base64
import json
import socket
import sys
import tempfile
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from browser_support import new_table, ok, versality_character  # noqa: E402
from serve import make_server  # noqa: E402

BASE = "/tablee/"


@dataclass(frozen=True)
class SystemPage:
    """A system's test page (the selectors of e2e/test_test_pages.py, which the Chromium tests use)."""

    system: str
    cid: str  # the seeded character's id
    roll: str  # the roll (or draw) button
    result: str  # the result section
    odds: str  # the odds summary


PAGES = {
    "unicreon": SystemPage("unicreon", "t13-uc", "#uc-roll", "[data-testid=uc-result]", "[data-testid=uc-odds]"),
    "pointzero": SystemPage("pointzero", "t13-pz", "#pz-roll", "[data-testid=pz-result]", "[data-testid=pz-odds]"),
    "systmj": SystemPage("systmj", "t13-sj", "#sj-roll", "[data-testid=sj-result]", "[data-testid=sj-odds]"),
    "versality": SystemPage("versality", "t13-vs", "#vs-draw", "#vs-hand-title", "[data-testid=vs-odds]"),
    "theorem": SystemPage("theorem", "t13-th", "#th-draw",
                          "[data-testid=th-chain], [data-testid=th-result], [data-testid=th-decide]", "[data-testid=th-odds]"),
}


def character(system: str, cid: str) -> dict:
    """A complete character of ``system`` (Unicreon's and Versality's as created and validated;
    the others as the rules package makes them, run here in CPython)."""
    if system == "unicreon":
        return {
            "id": cid, "system": "unicreon", "name": "Ana", "created": True, "story": "Gardienne de phare.",
            "origins": "Nord", "job": "Escrimeuse", "description": "Grande", "don": "Nyctalope", "defaut": "Têtue",
            "secret": "", "characteristics": {"puissance": 20, "agilite": 40, "perception": 40, "volonte": 50},
            "skills": [{"name": "Escalade", "level": "bon"}], "pv": 12, "pv_max": 12, "po": 0, "conditions": [],
            "down": None, "ignore_encumbrance": False, "important_npc": False, "inventory": [],
        }
    if system == "versality":
        return versality_character(cid, "Ana")
    if system == "pointzero":
        return {
            "id": cid, "system": "pointzero", "name": "Ana",
            "attributes": [{"code": "VIG", "name": "Vigueur", "level": 3}, {"code": "ADR", "name": "Adresse", "level": 2},
                           {"code": "PER", "name": "Perception", "level": 3}, {"code": "COG", "name": "Cognition", "level": 2}],
            "skills": [{"name": "Vigilance", "level": 4}], "atouts": [], "notes": "",
        }
    c = ok({"op": f"{system}.character.new", "id": cid, "name": "Ana"})["character"]
    if system == "systmj":
        c["skills"]["detection"] = 45  # a skill worth rolling (0 is an automatic failure)
    return c
SNAPSHOT_STORED = """async () => { const cache = await caches.open('tablee-snapshot'); return (await cache.keys()).length > 0; }"""
ENGINE = "() => ['ready', 'failed'].includes(document.documentElement.dataset.engine) && document.documentElement.dataset.engine"
SAVED = "() => { try { return JSON.parse(localStorage.getItem('tablee.document')); } catch { return null; } }"


class Site:
    """The site served under BASE on a port of its own, for one engine's tests: it can be stopped
    (an offline reload) and started again on the same port (the same origin: the service worker
    and the snapshot stay)."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}{BASE}"
        self.httpd = None
        self.start()

    def start(self) -> None:
        self.httpd = make_server(self.port, BASE, quiet=True)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None


# ------------------------------------------------------------------ page helpers
def engine_ready(page) -> str:
    """Wait for the rules engine to be ready; its start ("made", "snapshot" or "plain")."""
    state = page.wait(ENGINE)
    assert state == "ready", f"{page.name}: engine {state}"
    return page.call("() => document.documentElement.dataset.engineBoot")


def saved(page) -> dict:
    return page.call(SAVED)


def wait_saved(page, predicate: str, *args) -> dict:
    """Wait until the saved table satisfies ``predicate`` (a JS function of the table and args)."""
    page.wait(f"(...a) => {{ const d = ({SAVED})(); return d !== null && ({predicate})(d, ...a); }}", *args)
    return saved(page)


def route(page, path: str) -> None:
    """Open ``#/<path>`` in the app (a change of the address's fragment) and wait until that view
    is rendered: its nav link current, its heading on screen."""
    page.call("(p) => { location.hash = '#/' + p; }", path)
    page.wait(
        """(top) => document.querySelector(`nav a[data-route="${top}"][aria-current="page"]`) !== null
          && document.querySelector('main h1') !== null""",
        path.split("/")[0],
    )


def open_with(page, site: str, doc: dict | None, path: str = "tray") -> str:
    """The app on ``#/<path>`` with ``doc`` saved before its first load (written from a page of
    the site where no script of the app runs: the service worker's source, shown as text; Firefox
    downloads the web manifest the Chromium tests use), the MJ's switch on, the device's language French (MiniBrowser reports en-US); the engine's start."""
    page.goto(site + "sw.js")
    page.call(
        "(raw) => { localStorage.clear(); localStorage.setItem('tablee.mj-mode', 'on'); localStorage.setItem('tablee.language', 'fr');"
        " if (raw !== null) localStorage.setItem('tablee.document', raw); }",
        None if doc is None else json.dumps(doc, ensure_ascii=False),
    )
    page.goto(site + "#/" + path)
    return engine_ready(page)


# Firefox's own notice on the plain-text page open_with writes the table from (the service worker's
# source, served without a charset): not an error of the app.
NOT_THE_APP = ("The character encoding of the document was not declared",)


def no_page_errors(page) -> None:
    errors = [e for e in page.errors() if not e.startswith(NOT_THE_APP)]
    assert errors == [], f"{page.name}: uncaught page errors: {errors}"


# ------------------------------------------------------------------ boot, reload, offline
def boot_reload_offline(page, site: Site) -> dict:
    """First visit: ready, snapshot made and stored; reload: restored; the server stopped: a
    reload is still ready (the service worker), from the snapshot. The seconds each took."""
    times = {}
    start = time.monotonic()
    boot = open_with(page, site.url, None)
    times["first visit"] = time.monotonic() - start
    assert boot == "made", f"{page.name}: first start {boot!r} ({page.call('() => document.documentElement.dataset.engineBootWhy ?? null')})"
    page.wait(SNAPSHOT_STORED)
    page.wait("async () => { await navigator.serviceWorker.ready; return navigator.serviceWorker.controller !== null; }")
    start = time.monotonic()
    page.reload()
    assert engine_ready(page) == "snapshot", page.name
    times["reload"] = time.monotonic() - start
    site.stop()
    try:
        start = time.monotonic()
        page.reload()
        assert engine_ready(page) == "snapshot", page.name
        times["offline reload"] = time.monotonic() - start
        # Offline for real: the site's own server no longer answers.
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", site.port)) != 0
        # The app works offline: a roll on the dice tray, saved.
        route(page, "tray")
        page.fill("#dice-expr", "2d6")
        page.click("#roll-button")
        wait_saved(page, "(d) => d.log.length === 1 && d.log[0].request.expr === '2d6'")
    finally:
        site.start()
    no_page_errors(page)
    return times


# ------------------------------------------------------------------ each system's test
def seeded_table() -> dict:
    """One complete character per system (test_test_pages), for the tests."""
    return new_table([character(p.system, p.cid) for p in PAGES.values()])


def seeded(page, site: str) -> None:
    """The app open on :func:`seeded_table` (opened once: the five systems' tests share it)."""
    try:
        doc = saved(page)
    except Exception:  # not on the site yet
        doc = None
    cids = {p.cid for p in PAGES.values()}
    if not doc or not cids <= {c["id"] for c in doc["characters"]}:
        open_with(page, site, seeded_table())


def create_through_the_page(page, system: str, name: str) -> None:
    """A character created on the system's page: its name, its create button, saved."""
    prefix = PAGES[system].roll.split("-")[0].lstrip("#")  # uc, pz, sj, vs, th
    route(page, system)
    page.fill(f"#{prefix}-new-name", name, commit=False)
    page.click(f"#{prefix}-create")
    wait_saved(page, "(d, s, n) => d.characters.some((c) => c.system === s && c.name === n)", system, name)


def system_test(page, system: str) -> dict:
    """The system's test page on its seeded character: the odds shown (a percentage), the roll
    (or draw, then resolve), the result on the page, one entry more in the saved log, shown first
    on the log page. The new log entry."""
    p = PAGES[system]
    before = len(saved(page)["log"])
    route(page, f"{system}/test/{p.cid}")
    page.wait_for(p.odds)
    odds = page.wait("(sel) => { const t = document.querySelector(sel)?.textContent ?? ''; return /\\d\\s?%/.test(t) && t; }", p.odds)
    assert "%" in odds
    if system == "versality":
        pile = page.call("() => Number(document.querySelector('[data-testid=pile-draw]').dataset.count)")
    page.click(p.roll)
    if system == "versality":  # one card drawn (its score is 1), out of the pile, played as it is: resolve
        page.wait_for("[data-testid=hand-card]")
        page.wait("(n) => Number(document.querySelector('[data-testid=pile-draw]')?.dataset.count) === n - 1", pile)
        page.click("#vs-resolve")
        page.wait_for("[data-testid=vs-result]")
    else:
        page.wait_for(p.result)
    doc = wait_saved(page, "(d, n) => d.log.length === n", before + 1)
    entry = doc["log"][-1]
    assert entry.get("system") == system or entry["kind"].startswith(system + "."), entry
    route(page, "log")
    shown = page.wait_text("[data-testid=log-entry]", entry.get("label") or entry["kind"])
    assert shown
    return entry


# ------------------------------------------------------------------ import, export, share, undo
def payload(envelope) -> str:
    """A share link's data as the page's codec writes it: deflate-raw, base64url without padding."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = c.compress(json.dumps(envelope).encode()) + c.flush()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


CATCH_EXPORT = """() => { window.__tableeExported = null; const make = URL.createObjectURL;
  URL.createObjectURL = (blob) => { blob.text().then((t) => { window.__tableeExported = t; }); return make.call(URL, blob); }; }"""


def export_then_import(page, site: str) -> None:
    """The whole table exported (the file's text read as the page wrote it), another table
    imported from a file, then the exported file imported back: the table as it was."""
    doc = saved(page)
    route(page, "table")
    page.call(CATCH_EXPORT)
    page.click("#export-table")
    exported = json.loads(page.wait("() => window.__tableeExported"))
    assert exported == doc
    with tempfile.TemporaryDirectory() as folder:
        other = Path(folder) / "autre.json"
        other.write_text(json.dumps(new_table([character("pointzero", "pz-autre")], name="Autre table")))
        page.upload("#import-table", str(other))
        page.wait_text("#table-name", "Autre table")
        wait_saved(page, "(d) => d.name === 'Autre table' && d.characters.length === 1")
        back = Path(folder) / "export.json"
        back.write_text(json.dumps(exported))
        page.upload("#import-table", str(back))
        page.wait_text("#table-name", doc["name"])
        again = wait_saved(page, "(d, n, k) => d.name === n && d.characters.length === k", doc["name"], len(doc["characters"]))
    assert again["characters"] == doc["characters"]


def share_link(page, site: str) -> None:
    """A character's link made on the share page carries that character; a link of another
    device's character, opened, says what it holds and imports it."""
    route(page, "share")
    page.select("#share-what", "character:" + PAGES["pointzero"].cid)
    page.click("#share-audience-player")
    page.click("#share-make")
    link = page.wait("() => { const v = document.querySelector('#share-link')?.value ?? ''; return /#\\/share\\/[A-Za-z0-9_-]+$/.test(v) && v; }")
    text = link.split("#/share/", 1)[1]
    data = json.loads(zlib.decompress(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), -15))
    assert data["kind"] == "character" and data["data"]["id"] == PAGES["pointzero"].cid
    visitor = {**character("pointzero", "pz-visiteuse"), "name": "Visiteuse"}
    page.goto(site + "#/share/" + payload({"app": "tablee", "kind": "character", "v": 1, "data": visitor}))
    page.wait_text("[data-testid=share-summary]", "Ce lien contient le personnage Visiteuse (Point Zéro).")
    assert page.call("() => location.hash") == "#/share"  # the data left the address bar
    page.click("#share-import")
    page.wait_text("[data-testid=share-done]", "Visiteuse a été importé.")
    doc = wait_saved(page, "(d) => d.characters.some((c) => c.id === 'pz-visiteuse')")
    assert next(c for c in doc["characters"] if c["id"] == "pz-visiteuse") == visitor


def undo_damage(page) -> None:
    """Unicreon: 3 PV of damage, then « Annuler » on the notice: back to 12, logged as undone."""
    cid = PAGES["unicreon"].cid
    route(page, f"unicreon/character/{cid}")
    page.fill("#uc-amount", "3", commit=False)
    page.click("#uc-damage")
    page.wait_text("[data-testid=uc-pv]", "9")
    wait_saved(page, "(d, id) => d.characters.find((c) => c.id === id).pv === 9", cid)
    page.wait_text("[data-testid=undo-toast]", "Fiche modifiée")
    page.click("[data-testid=undo-toast-action]")
    page.wait("() => document.querySelector('[data-testid=uc-pv]')?.textContent.trim() === '12'")
    doc = wait_saved(page, "(d, id) => d.characters.find((c) => c.id === id).pv === 12", cid)
    assert doc["log"][-1]["kind"] == "undo" and doc["log"][-1]["label"].startswith("Annulé")
