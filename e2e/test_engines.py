"""Firefox and Safari's engine play the same journeys (e2e/engines/journeys.py): boot to ready with
the snapshot made, a reload that restores it, an offline reload; each of the five systems' tests;
export and import, a share link, an undo. Firefox is Debian's firefox-esr, driven over WebDriver
BiDi by Puppeteer; WebKitGTK is Debian's webkit2gtk-driver (WebKitWebDriver and its MiniBrowser),
driven over W3C WebDriver by Selenium in an Xvfb of its own (e2e/engines/drivers.py). One browser
of each engine per test process, on a site served for them (the ``firefox``, ``webkit`` and
``engine_site`` fixtures of e2e/conftest.py).

Then what only one engine has: the live table between a Chromium MJ (Playwright) and this Firefox
as a player's phone, joined through the pages; Debian's WebKitGTK is built without WebRTC, and its
live page says in plain words that this browser cannot join a live table. WebKit's storage quota
counts a 16-bit value at two bytes a character: a French table of 1.9 M characters and the backup
an import makes of it both fit.

Where an engine's browser, driver, Xvfb, Node or its library is missing and cannot be installed,
its tests skip and say why; under CI they fail instead (`make test` installs them:
tools/browser.sh)."""

from __future__ import annotations

import base64
import json
import re
import tempfile
from pathlib import Path

import pytest

from bench_table import saved_table
from engines import journeys as J

# Selenium 4.50's own WebKitGTK driver still builds its connection the deprecated way.
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")]

ENGINES = ("firefox", "webkit")


@pytest.fixture(params=ENGINES)
def engine(request):
    """The test's engine's page (each test runs once in Firefox, once in WebKitGTK)."""
    return request.getfixturevalue(request.param)


@pytest.mark.journey
def test_boots_with_the_snapshot_then_restores_it_online_and_offline(engine, engine_site):
    # A first visit: of the site the engine's tests share when this browser has not opened it yet
    # (the tests after it then start from the snapshot it made), else of a site of its own, on
    # another port (the tests run in any order).
    own = J.Site() if engine.has_visited(engine_site.url) else None
    try:
        times = J.boot_reload_offline(engine, own or engine_site)
    finally:
        if own is not None:
            own.stop()
    print(f"{engine.name} {engine.version}: " + ", ".join(f"{k} {v:.1f} s" for k, v in times.items()))


@pytest.mark.parametrize("system", list(J.PAGES))
def test_plays_each_system_s_test(engine, engine_site, system):
    J.seeded(engine, engine_site.url)
    J.create_through_the_page(engine, system, f"Neuve {system}")
    J.system_test(engine, system)
    J.no_page_errors(engine)


def test_exports_imports_opens_a_share_link_and_undoes(engine, engine_site):
    J.open_with(engine, engine_site.url, J.seeded_table(), "table")
    J.undo_damage(engine)
    J.export_then_import(engine, engine_site.url)
    J.share_link(engine, engine_site.url)
    J.no_page_errors(engine)


# ------------------------------------------------------------------ the live table
#: The app's scan decoder run on a PNG picture (base64): which decoder, and the text it read.
SCAN_A_PICTURE = """async (png) => {
  const scan = await import(new URL('static/js/views/scan.js', document.baseURI).href);
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const detector = await scan.qrDetector();
  return { decoder: detector.kind, text: await scan.decodeQr(new Blob([bytes], { type: 'image/png' })) };
}"""


def test_a_firefox_phone_joins_a_chromium_mj_and_plays_a_move(firefox, engine_site, browser):
    """The MJ's laptop in Chromium, the player's phone in Firefox, joined through the pages by
    the paste fallback, the phone having read the MJ's invitation with its scan decoder from a
    picture of the MJ's QR code: the phone gets the table, asks for a character the MJ confirms, and its
    Point Zéro test reaches the MJ's saved log, refereed there, and comes back in the table the phone saves."""
    from playwright.sync_api import expect

    from browser_support import Device, ok

    origin = engine_site.url.split("/tablee/")[0]
    cid = J.PAGES["pointzero"].cid
    mj_device = Device(browser, origin, mj=True)
    try:
        mj = mj_device.page
        mj.goto(engine_site.url + "manifest.webmanifest")
        doc = J.seeded_table()
        doc["systems"]["pointzero"] = ok({"op": "pointzero.state.new"})["state"]  # the MJ's Point Zéro table opened
        mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(doc, ensure_ascii=False))
        mj.goto(engine_site.url + "#/live")
        expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
        expect(mj.locator("#live-offer, #live-open:enabled").first).to_be_visible()
        if mj.locator("#live-offer").count() == 0:
            mj.click("#live-open")
        expect(mj.locator("#live-offer")).to_have_value(re.compile(r"#/join/T\.[A-Za-z0-9_-]+$"))
        invitation = mj.locator("#live-offer").input_value()

        # The phone: a player's device (no MJ switch), French, nothing saved.
        firefox.goto(engine_site.url + "sw.js")
        firefox.call("() => { localStorage.clear(); localStorage.setItem('tablee.language', 'fr'); }")
        # The invitation read by the phone's scan decoder (views/scan.js; Firefox has no
        # BarcodeDetector: the vendored zxing-wasm one) from a picture of the MJ's QR code.
        firefox.goto(engine_site.url + "#/tray")
        J.engine_ready(firefox)
        picture = base64.b64encode(mj.get_by_test_id("live-offer-qr").screenshot()).decode()
        read = firefox.call(SCAN_A_PICTURE, picture)
        assert read == {"decoder": "zxing", "text": invitation}, read
        firefox.goto(read["text"])
        J.engine_ready(firefox)
        firefox.fill("#live-name", "Léa", commit=False)
        firefox.click("#live-join")
        answer = firefox.wait("() => { const v = document.querySelector('#live-answer-text')?.value ?? ''; return v.startsWith('T.') && v; }")
        mj.fill("#live-answer", answer)
        mj.click("#live-accept")
        firefox.wait("() => document.querySelector('[data-testid=live-join-state]')?.dataset.state === 'connected'")
        expect(mj.locator("[data-testid=live-players] li:has-text('Léa')")).to_have_attribute("data-state", "connected")
        J.wait_saved(firefox, "(d, id) => d.characters.some((c) => c.id === id)", cid)

        # Léa asks for the Point Zéro character; the MJ confirms.
        firefox.click(f"[data-testid=live-session] input[data-character={cid}]")
        expect(mj.locator("[data-testid=live-assign]")).to_contain_text("Léa")
        mj.locator("[data-testid=live-assign] li:has-text('Léa') button").click()
        firefox.wait("(id) => document.querySelector(`[data-testid=live-session] input[data-character=${id}]`)?.dataset.assigned === 'yes'", cid)

        # Her test, rolled on the phone, is applied on the MJ's device.
        before = len(mj.evaluate("JSON.parse(localStorage.getItem('tablee.document')).log"))
        J.route(firefox, f"pointzero/test/{cid}")
        firefox.click("#pz-roll")
        mj.wait_for_function(
            "n => { const d = JSON.parse(localStorage.getItem('tablee.document')); return d.log.length > n && d.log.at(-1).kind === 'pointzero.test'; }",
            arg=before, timeout=120_000,
        )
        entry = mj.evaluate("JSON.parse(localStorage.getItem('tablee.document')).log.at(-1)")
        # The phone shows the refereed result where it rolled.
        firefox.wait_for("[data-testid=pz-result]")
        # The MJ's table, published, brings the refereed roll back to the phone's saved table.
        J.wait_saved(firefox, "(d, id) => d.log.some((e) => e.id === id)", entry["id"])
        J.no_page_errors(firefox)
        mj_device.check()
    finally:
        mj_device.context.close()


def test_webkit_says_it_cannot_join_a_live_table(webkit, engine_site):
    """No RTCPeerConnection in Debian's WebKitGTK: the live page says so (views/live.js) and
    points to sharing by link instead."""
    J.open_with(webkit, engine_site.url, J.seeded_table(), "live")
    assert webkit.call("() => typeof RTCPeerConnection") == "undefined"
    notice = webkit.wait("() => document.querySelector('[data-live-unsupported]')?.textContent.trim()")
    assert notice == webkit.call(
        "async () => { const i = await import('./static/js/i18n.js'); return `${i.t('live.unsupported')} ${i.t('live.fallback')}`; }"
    )
    assert "#/share" in webkit.call("() => document.querySelector('[data-live-unsupported] a').getAttribute('href')")


#: French as a person types it on a phone: "’" for each apostrophe, U+202F before « ; » (3 % of the
#: characters above U+00FF: the whole table's text is then 16-bit).
FRENCH = "L’équipée a quitté le port à l’aube, la dette envers la guilde reste à payer\u202f; le capitaine se tait. "


def large_french_table(name: str) -> dict:
    """A table of ~1.9 M characters the store keeps whole: the bench's 50 Unicreon sheets, each text
    field full (4,000 characters of French), and its 1,000 roll entries."""
    doc = saved_table()
    doc["name"] = name
    for c in doc["characters"]:
        for field in ("story", "origins", "job", "description", "don", "defaut", "secret"):
            c[field] = (FRENCH * 40)[:4000]
    return doc


def test_webkit_keeps_a_large_french_table_and_its_backup(webkit, engine_site):
    """WebKit counts a value holding one character above U+00FF at two bytes a character, within
    ~5.24 MB a site: a French table of 1.9 M characters as JSON.stringify writes it costs 3.8 MB,
    and the backup an import makes of it did not fit beside it (the import refused). Written 8-bit
    (storage.js storedJsonText), the table and its backup both fit."""
    first, second = large_french_table("Campagne d’hiver"), large_french_table("Campagne de printemps")
    size = len(json.dumps(first, ensure_ascii=False, separators=(",", ":")))
    assert 1_800_000 < size < 2_000_000, size
    J.open_with(webkit, engine_site.url, None, "table")
    done = """(n) => { const d = JSON.parse(localStorage.getItem('tablee.document') ?? 'null');
  if (d?.name === n) return 'saved';
  if (document.querySelector('[data-testid=replace-failed]')) return 'refused';
  return document.querySelector('#save-state[data-state=failed]') ? 'not saved' : false; }"""
    with tempfile.TemporaryDirectory() as folder:
        for doc in (first, second):  # the first import saves it; the second backs it up first
            path = Path(folder) / f"{doc['name']}.json"
            path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
            webkit.upload("#import-table", str(path))
            assert webkit.wait(done, doc["name"]) == "saved", doc["name"]
    stored = webkit.call("""async () => {
  const { storageUsage } = await import('./static/js/storage.js');
  const keys = Object.keys(localStorage);
  const wide = keys.filter((k) => /[^\\u0000-\\u00ff]/.test(localStorage.getItem(k)));
  const backups = keys.filter((k) => k.startsWith('tablee.backup.')).map((k) => JSON.parse(localStorage.getItem(k)).name);
  return { wide, backups, used: storageUsage().used, table: localStorage.getItem('tablee.document').length }; }""")
    assert "Campagne d’hiver" in stored["backups"], stored  # the table replaced, kept whole
    assert stored["wide"] == [], stored  # every value 8-bit: one byte a character
    assert stored["used"] < 5_000_000, stored
    assert webkit.call(J.SAVED) == second
