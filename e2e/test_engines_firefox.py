"""Firefox (Debian's firefox-esr, driven over WebDriver BiDi by Puppeteer: e2e/engines/drivers.py)
plays the journeys of e2e/engines/journeys.py: boot to ready with the snapshot made, a reload
that restores it, an offline reload; each of the five systems' tests; export and import, a share
link, an undo. One Firefox for the module, on a site served for it alone (stopped for the offline
reload). Then the live table: a Chromium MJ (Playwright) and this Firefox as a player's phone,
joined through the pages.

Where Firefox, Node or puppeteer-core is missing and cannot be installed, the module skips and
says why; under CI it fails instead (`make test` installs them: tools/browser.sh)."""

from __future__ import annotations

import os

import pytest

from engines import journeys as J
from engines.drivers import FirefoxPage, missing


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


def test_firefox_boots_with_the_snapshot_then_restores_it_online_and_offline(firefox, own_site):
    times = J.boot_reload_offline(firefox, own_site)
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
