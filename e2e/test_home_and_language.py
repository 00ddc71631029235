"""The home page for a real group, one language on screen, and a long one-word table name.

A first visit started silently as « Je joue » (the button pressed, nothing said); the MJ's choice
sat below the first screen of a 1280×800 laptop; nothing said what the live table is. After a
switch of language the header still read « My table » in French, notices already shown kept their
first language, and the switch was offered as a change of the table to undo (« Langue de la table
modifiée »), though the language belongs to the device. A 60-character one-word table name
scrolled the page sideways at 360 px.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_support import goto_route, new_table, no_horizontal_scroll, ok, wait_engine, wait_saved

LONG_NAME = "Tablée" + "x" * 54  # 60 characters, one word


@pytest.mark.parametrize("width", [360, 1280])
def test_a_first_visit_says_the_mj_choice_is_not_made_and_shows_the_live_table(devices, site, width):
    page = devices(mj=False).page  # (a device that never chose: the suite's pages start as the MJ's)
    page.set_viewport_size({"width": width, "height": 740 if width == 360 else 800})
    page.goto(site)
    wait_engine(page)
    home = page.get_by_test_id("home-mj")
    choice = home.get_by_test_id("mj-mode")
    expect(choice).to_have_attribute("data-mj", "unset")
    expect(home.get_by_role("button", name="Je joue")).to_have_attribute("aria-pressed", "false")
    expect(home.get_by_role("button", name="Je suis MJ")).to_have_attribute("aria-pressed", "false")
    expect(home).to_contain_text("Pas encore choisi sur cet appareil")
    live = page.get_by_test_id("home-live")
    expect(live).to_contain_text("Table en direct")
    expect(live).to_contain_text("scanne")
    expect(live.get_by_role("link", name="Ouvrir la table en direct")).to_have_attribute("href", "#/live")
    box = home.bounding_box()
    if width == 1280:
        # The MJ's choice, and the line on the live table, on the first screen of a laptop.
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800, box
    else:
        no_horizontal_scroll(page, 360)
    home.get_by_role("button", name="Je joue").click()
    expect(choice).to_have_attribute("data-mj", "off")
    expect(home.get_by_role("button", name="Je joue")).to_have_attribute("aria-pressed", "true")
    expect(home).not_to_contain_text("Pas encore choisi")
    assert page.evaluate("localStorage.getItem('tablee.mj-mode')") == "off"


def test_every_piece_of_chrome_follows_a_switch_of_language_and_the_switch_is_no_change_to_undo(page, app_with):
    """At 1280×800, a returning table keeps the MJ's choice on the home page's first screen. A table
    named « My table » (made on an English device) on a French one: the header names it in French;
    a notice shown before the switch, the header, the navigation and the title follow the switch;
    no undo notice, and nothing on the Table page, names the switch as a change of the table."""
    page.set_viewport_size({"width": 1280, "height": 800})
    made = [ok({"op": f"{s}.character.new", "id": f"{s[:2]}-ana", "name": "Ana"})["character"]
            for s in ("systmj", "pointzero", "theorem", "unicreon")]
    app = app_with(new_table(made, name="My table"), "home")
    expect(app.get_by_test_id("home-summary")).to_contain_text("Votre table\u00a0: Ma table")
    box = app.get_by_test_id("home-mj").bounding_box()
    assert box["y"] + box["height"] <= 800, box
    goto_route(app, "unicreon")
    expect(app.locator("#table-name")).to_have_text("Ma table")
    assert app.title() == "Tablée — Ma table"
    app.get_by_role("button", name="Dupliquer").first.click()
    notice = app.locator("#notices .notice.status").filter(has_text="Copie créée")
    expect(notice).to_be_visible()
    wait_saved(app, "d => d.characters.length === 5")
    app.click("#lang-toggle")
    expect(app.locator("html")).to_have_attribute("lang", "en")
    expect(app.locator("#table-name")).to_have_text("My table")
    assert app.title() == "Tablée — My table"
    expect(app.locator("#notices .notice.status").first).to_contain_text("Copy created: Ana (copie).")
    expect(app.locator("#app-nav a").first).to_have_text("Home")
    expect(app.locator(".skip-link")).to_have_text("Skip to content")
    wait_saved(app, "d => d.language === 'en'")
    # No undo notice names the language.
    expect(app.locator("[data-testid=undo-toast]", has_text="anguage")).to_have_count(0)
    goto_route(app, "table")
    entries = app.get_by_test_id("undo-entry")
    expect(entries).to_have_count(1)
    expect(app.get_by_test_id("undo-list")).not_to_contain_text("anguage")
    app.click("#lang-toggle")
    expect(app.locator("#table-name")).to_have_text("Ma table")
    expect(app.get_by_test_id("undo-list")).not_to_contain_text("angue")


def test_a_sixty_character_one_word_table_name_does_not_scroll_a_phone_sideways(app_with):
    ana = ok({"op": "unicreon.character.new", "id": "uc-ana", "name": "Ana"})["character"]
    app = app_with(new_table([ana], name=LONG_NAME), "home")
    assert len(LONG_NAME) == 60
    for route in ("home", "table", "log", "tray", "share", "unicreon", "about"):
        goto_route(app, route)
        expect(app.locator("main h1").first).to_be_visible()
        no_horizontal_scroll(app, 360)
    goto_route(app, "home")
    expect(app.get_by_test_id("home-summary")).to_contain_text(LONG_NAME)
