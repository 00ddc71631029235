"""Accessibility: axe-core (pinned in package.json, dev only) finds nothing, of any impact, on
every page of the app at 360 px and at 1280 px, and the keyboard alone reaches and runs a roll.

Every page: the shell's (home, dice, log, table, about, share, live), and for each of the five
systems its list, a character's sheet and test page, and its other pages (MJ screens included:
the device says "Je suis MJ"), on a table holding a character of each system and a roll. One
browser page walks them all at one width, then at the other (one engine start), so the pass stays short; every
finding of every page is listed before the test fails."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import MJ_MODE_ON, axe_findings, goto_route, new_table, ok, versality_character, wait_log


def characters() -> list[dict]:
    made = [ok({"op": f"{system}.character.new", "id": f"{system[:2]}-ana", "name": "Ana"})["character"]
            for system in ("systmj", "pointzero", "theorem", "unicreon")]
    return [*made, versality_character("ve-ana", "Ana")]


WIDTHS = [360, 1280]

#: Every page, as its route.
ROUTES = [
    "home", "tray", "log", "table", "about", "share", "live",
    "systmj", "systmj/character/sy-ana", "systmj/test/sy-ana", "systmj/learning/sy-ana", "systmj/review",
    "systmj/chronoste", "systmj/cards", "systmj/combat",
    "versality", "versality/character/ve-ana", "versality/test/ve-ana", "versality/mj",
    "pointzero", "pointzero/character/po-ana", "pointzero/test/po-ana", "pointzero/mj",
    "theorem", "theorem/character/th-ana", "theorem/test/th-ana", "theorem/chase", "theorem/mk",
    "unicreon", "unicreon/character/un-ana", "unicreon/test/un-ana", "unicreon/combat",
]


def test_no_axe_finding_on_any_page_at_either_width(page, app_with):
    page.set_viewport_size({"width": WIDTHS[0], "height": 800})
    page.add_init_script(MJ_MODE_ON)
    app_with(new_table(characters()), "tray")
    page.fill("#dice-expr", "2d6")
    page.click("#roll-button")
    expect(page.locator("#roll-result li.die")).to_have_count(2)
    wait_log(page, 1)  # the log then lists the roll
    found = {}
    for width in WIDTHS:  # one engine start: the page is resized, each route drawn again at its width
        page.set_viewport_size({"width": width, "height": 800})
        for route in ROUTES:
            goto_route(page, route)
            if findings := axe_findings(page):
                found[f"{width}px {route}"] = findings
    assert not found, found


def test_keyboard_alone_rolls_dice(app):
    app.keyboard.press("Tab")
    expect(app.locator(".skip-link")).to_be_focused()
    app.keyboard.press("Enter")
    # The skip link's navigation focuses the main region once the route is handled: wait for
    # it, or (on a loaded machine) it lands after we focus the field and swallows the typing.
    expect(app.locator("#main")).to_be_focused()
    app.locator("#dice-expr").focus()
    app.keyboard.press("Control+A")
    app.keyboard.type("3d6")
    app.keyboard.press("Enter")
    expect(app.locator("#roll-result li.die")).to_have_count(3)
