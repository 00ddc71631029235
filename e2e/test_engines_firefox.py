"""Firefox (Debian's firefox-esr, driven over WebDriver BiDi by Puppeteer: e2e/engines/drivers.py)
plays the journeys of e2e/engines/journeys.py: boot to ready with the snapshot made, a reload
that restores it, an offline reload; each of the five systems' tests; export and import, a share
link, an undo. One Firefox for the module, on a site served for it alone (stopped for the offline
reload). Then the live table: a Chromium MJ (Playwright) and this Firefox as a player's phone,
joined through the pages.

Where Firefox, Node or puppeteer-core is missing and cannot be installed, the module skips and
says why; under CI it fails instead (`make test` installs them: tools/browser.sh)."""

from __future__ import annotations

import base64
import json
import os
import re

import pytest

from engines import journeys as J
from engines.drivers import FirefoxPage, missing

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def own_site():
    site = J.Site()
    yield site
    site.stop()


@pytest.fixture(scope="module")
def firefox(own_site):
    reason = missing("firefox")
    if reason:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    page = FirefoxPage()
    yield page
    page.close()


def test_firefox_boots_with_the_snapshot_then_restores_it_online_and_offline(firefox):
    # A site of its own, on another port: a first visit whatever ran before (the suite orders
    # tests by their last durations, so another test of the module may have made a snapshot).
    first = J.Site()
    try:
        times = J.boot_reload_offline(firefox, first)
    finally:
        first.stop()
    print(f"firefox {firefox.version}: " + ", ".join(f"{k} {v:.1f} s" for k, v in times.items()))


@pytest.mark.parametrize("system", list(J.PAGES))
def test_firefox_plays_each_system_s_test(firefox, own_site, system):
    J.seeded(firefox, own_site.url)
    J.create_through_the_page(firefox, system, f"Neuve {system}")
    J.system_test(firefox, system)
    J.no_page_errors(firefox)


def test_firefox_exports_imports_opens_a_share_link_and_undoes(firefox, own_site):
    J.open_with(firefox, own_site.url, J.seeded_table(), "table")
    J.undo_damage(firefox)
    J.export_then_import(firefox, own_site.url)
    J.share_link(firefox, own_site.url)
    J.no_page_errors(firefox)


# ------------------------------------------------------------------ the live table
#: The app's scan decoder run on a PNG picture (base64): which decoder, and the text it read.
SCAN_A_PICTURE = """async (png) => {
  const scan = await import(new URL('static/js/views/scan.js', document.baseURI).href);
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const detector = await scan.qrDetector();
  return { decoder: detector.kind, text: await scan.decodeQr(new Blob([bytes], { type: 'image/png' })) };
}"""


def test_a_firefox_phone_joins_a_chromium_mj_and_plays_a_move(firefox, own_site, browser):
    """The MJ's laptop in Chromium, the player's phone in Firefox, joined through the pages by
    the paste fallback, the phone having read the MJ's invitation with its scan decoder from a
    picture of the MJ's QR code: the phone gets the table, asks for a character the MJ confirms, and its
    Point Zéro test reaches the MJ's saved log, refereed there, and comes back in the table the phone saves."""
    from playwright.sync_api import expect

    from browser_support import Device, ok

    origin = own_site.url.split("/tablee/")[0]
    cid = J.PAGES["pointzero"].cid
    mj_device = Device(browser, origin, mj=True)
    try:
        mj = mj_device.page
        mj.goto(own_site.url + "manifest.webmanifest")
        doc = J.seeded_table()
        doc["systems"]["pointzero"] = ok({"op": "pointzero.state.new"})["state"]  # the MJ's Point Zéro table opened
        mj.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(doc, ensure_ascii=False))
        mj.goto(own_site.url + "#/live")
        expect(mj.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
        expect(mj.locator("#live-offer, #live-open:enabled").first).to_be_visible()
        if mj.locator("#live-offer").count() == 0:
            mj.click("#live-open")
        expect(mj.locator("#live-offer")).to_have_value(re.compile(r"#/join/T\.[A-Za-z0-9_-]+$"))
        invitation = mj.locator("#live-offer").input_value()

        # The phone: a player's device (no MJ switch), French, nothing saved.
        firefox.goto(own_site.url + "sw.js")
        firefox.call("() => { localStorage.clear(); localStorage.setItem('tablee.language', 'fr'); }")
        # The invitation read by the phone's scan decoder (views/scan.js; Firefox has no
        # BarcodeDetector: the vendored zxing-wasm one) from a picture of the MJ's QR code.
        firefox.goto(own_site.url + "#/tray")
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
