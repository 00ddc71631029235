"""A page whose module cannot be loaded says so in place, by the name the navigation gives it,
with "Réessayer"; trying again once the network answers opens the page. (Once, on a quiet
machine, the Versality page stayed on "La vue « versality » n'a pas pu être chargée", with
nothing to do but reload the whole app.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_support import wait_engine

# The module's requests are held here: a service worker would answer them from its cache.
pytestmark = pytest.mark.browser_context_args(service_workers="block")


def test_a_page_that_could_not_load_offers_to_try_again(page, site, guarded):
    page.goto(site + "#/tray")
    wait_engine(page)
    refused: list[str] = []

    def cut(route):
        refused.append(route.request.url)
        route.abort()

    page.route("**/static/js/systems/versality.js*", cut)
    page.goto(site + "#/versality")
    failed = page.get_by_test_id("view-load-failed")
    expect(failed).to_contain_text("La page « Versality » n'a pas pu être chargée.")
    assert len(refused) == 2  # the app tried once more by itself before saying so
    page.unroute("**/static/js/systems/versality.js*")
    failed.get_by_role("button", name="Réessayer").click()
    expect(page.locator("main h1")).to_have_text("Versality")
    expect(failed).to_have_count(0)
    expect(page.locator("#main")).to_be_focused()
