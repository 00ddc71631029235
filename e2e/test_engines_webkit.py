"""Safari's engine: WebKitGTK (Debian's webkit2gtk-driver: WebKitWebDriver and its MiniBrowser,
driven over W3C WebDriver by Selenium in an Xvfb of its own: e2e/engines/drivers.py) plays the
journeys of e2e/engines/journeys.py: boot to ready with the snapshot made, a reload that restores
it, an offline reload; each of the five systems' tests; export and import, a share link, an undo.
One browser for the module, on a site served for it alone (stopped for the offline reload).
Debian's WebKitGTK is built without WebRTC: the live page says in plain words that this browser
cannot join a live table. WebKit's storage quota counts a 16-bit value at two bytes a character:
a French table of 1.9 M characters and the backup an import makes of it both fit.

Where the driver, Xvfb or selenium is missing and cannot be installed, the module skips and says
why; under CI it fails instead (`make test` installs them: tools/browser.sh)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from bench_table import saved_table
from engines import journeys as J
from engines.drivers import WebKitPage, missing

# Selenium 4.50's own WebKitGTK driver still builds its connection the deprecated way.
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")]


@pytest.fixture(scope="module")
def own_site():
    site = J.Site()
    yield site
    site.stop()


@pytest.fixture(scope="module")
def webkit(own_site):
    reason = missing("webkit")
    if reason:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    page = WebKitPage()
    yield page
    page.close()


def test_webkit_boots_with_the_snapshot_then_restores_it_online_and_offline(webkit):
    # A site of its own, on another port: a first visit whatever ran before (the suite orders
    # tests by their last durations, so another test of the module may have made a snapshot).
    first = J.Site()
    try:
        times = J.boot_reload_offline(webkit, first)
    finally:
        first.stop()
    print(f"webkitgtk {webkit.version}: " + ", ".join(f"{k} {v:.1f} s" for k, v in times.items()))


@pytest.mark.parametrize("system", list(J.PAGES))
def test_webkit_plays_each_system_s_test(webkit, own_site, system):
    J.seeded(webkit, own_site.url)
    J.create_through_the_page(webkit, system, f"Neuve {system}")
    J.system_test(webkit, system)


def test_webkit_exports_imports_opens_a_share_link_and_undoes(webkit, own_site):
    J.open_with(webkit, own_site.url, J.seeded_table(), "table")
    J.undo_damage(webkit)
    J.export_then_import(webkit, own_site.url)
    J.share_link(webkit, own_site.url)


def test_webkit_says_it_cannot_join_a_live_table(webkit, own_site):
    """No RTCPeerConnection in Debian's WebKitGTK: the live page says so (views/live.js) and
    points to sharing by link instead."""
    J.open_with(webkit, own_site.url, J.seeded_table(), "live")
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


def test_webkit_keeps_a_large_french_table_and_its_backup(webkit, own_site):
    """WebKit counts a value holding one character above U+00FF at two bytes a character, within
    ~5.24 MB a site: a French table of 1.9 M characters as JSON.stringify writes it costs 3.8 MB,
    and the backup an import makes of it did not fit beside it (the import refused). Written 8-bit
    (storage.js storedJsonText), the table and its backup both fit."""
    first, second = large_french_table("Campagne d’hiver"), large_french_table("Campagne de printemps")
    size = len(json.dumps(first, ensure_ascii=False, separators=(",", ":")))
    assert 1_800_000 < size < 2_000_000, size
    J.open_with(webkit, own_site.url, None, "table")
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
