"""An address whose percent-escapes cannot be decoded (`#/%`, `#/share/%E0%A4%A`, `#/join/%`)
opens the home page with a notice, and the engine starts (it used to stop the app on
"Chargement de Tablée…" with "URI malformed")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_support import wait_engine


@pytest.mark.parametrize("hash_", ["#/%", "#/share/%E0%A4%A", "#/join/%"])
def test_a_route_that_cannot_be_read_opens_home_with_a_notice(page, site, guarded, hash_):
    page.goto(site + hash_)
    expect(page.locator("#notices")).to_contain_text("Cette adresse ne peut pas être lue")
    expect(page.locator('nav a[data-route="home"][aria-current="page"]')).to_have_count(1)
    wait_engine(page)
    # the nav works again: another page opens from there
    page.locator('nav a[data-route="tray"]').click()
    expect(page.locator('nav a[data-route="tray"][aria-current="page"]')).to_have_count(1)
