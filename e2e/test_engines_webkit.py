"""Safari's engine: WebKitGTK (Debian's webkit2gtk-driver: WebKitWebDriver and its MiniBrowser,
driven over W3C WebDriver by Selenium in an Xvfb of its own: e2e/engines/drivers.py) plays the
journeys of e2e/engines/journeys.py: boot to ready with the snapshot made, a reload that restores
it, an offline reload; each of the five systems' tests; export and import, a share link, an undo.
One browser for the module, on a site served for it alone (stopped for the offline reload).
Debian's WebKitGTK is built without WebRTC: the live page says in plain words that this browser
cannot join a live table.

Where the driver, Xvfb or selenium is missing and cannot be installed, the module skips and says
why; under CI it fails instead (`make test` installs them: tools/browser.sh)."""

from __future__ import annotations

import os

import pytest

from engines import journeys as J
from engines.drivers import WebKitPage, missing

# Selenium 4.50's own WebKitGTK driver still builds its connection the deprecated way.
pytestmark = pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")


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
