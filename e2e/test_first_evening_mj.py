"""The first evening, the MJ's tools (a phone, 360×740): one "Je suis MJ / Je joue" choice for
every system, offered on the home page and right where an MJ screen is masked; the navigation
shows every page's link (none hidden past a scrolling edge); on a player's device the Versality
test has no "Décision MJ : pions" box to change."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import (
    goto_route,
    new_table,
    no_horizontal_scroll,
    open_table,
    versality_character,
    wait_engine,
)

#: Every MJ screen, one per place that masks one.
MJ_ROUTES = ("versality/mj", "pointzero/mj", "theorem/mk", "systmj/combat", "live")


def open_with(device, doc_patch=None, route: str = ""):
    """The app on a fresh device (its own storage) at ``#/<route>``, its table saved before the
    first load with ``doc_patch``'s fields (one engine start)."""
    page = device.page
    if doc_patch:
        open_table(page, device.server_site, new_table(**doc_patch), route)
    else:
        page.goto(device.server_site)
        wait_engine(page)
    return page


def test_one_mj_choice_on_the_home_page_and_on_every_masked_screen(devices, site):
    device = devices(mj=False)
    device.server_site = site
    page = open_with(device)
    # The home page offers the choice; a new device has not made it (and hides the MJ's screens).
    home = page.get_by_test_id("home-mj")
    expect(home.get_by_role("button", name="Je joue")).to_have_attribute("aria-pressed", "false")
    expect(home.get_by_role("button", name="Je suis MJ")).to_have_attribute("aria-pressed", "false")
    no_horizontal_scroll(page)
    # Every MJ screen is masked, with the same choice right there.
    for route in MJ_ROUTES:
        goto_route(page, route)
        masked = page.get_by_test_id("mj-hidden")
        expect(masked).to_be_visible()
        expect(masked.get_by_role("button", name="Je suis MJ")).to_be_visible()
    # Said once (on the masked Point Zéro screen), it holds for every system: Versality asks
    # nothing more and shows its screen at once.
    goto_route(page, "pointzero/mj")
    page.get_by_test_id("mj-hidden").get_by_role("button", name="Je suis MJ").click()
    expect(page.get_by_test_id("mj-hidden")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('tablee.mj-mode')") == "on"
    goto_route(page, "versality/mj")
    expect(page.locator("[data-testid=vs-catastrophe]")).to_be_visible()
    for route in MJ_ROUTES:
        goto_route(page, route)
        expect(page.get_by_test_id("mj-hidden")).to_have_count(0)
    # The home page says so; "Je joue" there masks them again.
    goto_route(page, "home")
    home = page.get_by_test_id("home-mj")
    expect(home.get_by_role("button", name="Je suis MJ")).to_have_attribute("aria-pressed", "true")
    home.get_by_role("button", name="Je joue").click()
    expect(home.get_by_role("button", name="Je joue")).to_have_attribute("aria-pressed", "true")
    goto_route(page, "theorem/mk")
    expect(page.get_by_test_id("mj-hidden")).to_be_visible()


def test_every_navigation_link_is_in_sight_on_a_phone(devices, site):
    device = devices(mj=True)
    device.server_site = site
    page = open_with(device)
    for route in ("home", "theorem", "about"):
        goto_route(page, route)
        outside = page.evaluate(
            """() => [...document.querySelectorAll('#app-nav a')].filter((a) => {
                 const r = a.getBoundingClientRect();
                 return r.left < 0 || r.right > window.innerWidth || r.width === 0; }).map((a) => a.textContent)"""
        )
        assert outside == [], route
        expect(page.locator('#app-nav a[data-route="live"]')).to_be_in_viewport()


def test_a_players_versality_test_has_no_mj_token_box(devices, site):
    for mj in (False, True):
        device = devices(mj=mj)
        device.server_site = site
        page = open_with(device, {"characters": [versality_character("vs-ana", "Ana")]}, "versality/test/vs-ana")
        page.select_option("#vs-test-char", "physique")
        page.select_option("#vs-test-skill", "combattre")
        page.select_option("#vs-test-diff", "facile")
        page.click("#vs-draw")
        expect(page.locator("[data-testid=hand-card]")).to_have_count(2)
        box = page.locator("[data-testid=vs-mj-box]")
        if mj:
            expect(box.get_by_label("Décision MJ : pions dépensés")).to_be_visible()
        else:
            expect(box).to_have_count(0)
            expect(page.get_by_label("Décision MJ : pions dépensés")).to_have_count(0)
