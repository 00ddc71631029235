"""A new character's sheet opens at its top, the focus in its first field, at 360 and 1280 px.

After « Créer » from the keyboard (the list page at its top), Unicreon at 360 px landed 2,498 px
down a 3,238 px page, Théorem 852 of 1,592, Point Zéro at 1280 px 461 px down: the page's main,
focused when a page opens, was "kept clear" of the undo notice (« Ajouté : … ») by scrolling its
bottom above it. A sheet made by « Créer » now opens at its top with the focus in its first field
(render.js openAtTop), and the notice rises above the buttons it would cover instead of moving the
page (undo.js keepButtonsClear): it covers no enabled button either.
"""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import goto_route, new_table, no_button_covered, ok

#: Each system and the prefix of its list's fields.
SYSTEMS = [("systmj", "sj"), ("versality", "vs"), ("pointzero", "pz"), ("theorem", "th"), ("unicreon", "uc")]

#: Where the page stands and what has the focus: its scroll, the sheet's title box, whether the
#: focus is in the first field of the page.
WHERE_JS = """() => {
  const main = document.getElementById('main');
  const first = [...main.querySelectorAll('input, select, textarea')]
    .find((el) => el.type !== 'hidden' && !el.disabled && el.getClientRects().length);
  const h1 = main.querySelector('h1').getBoundingClientRect();
  const a = document.activeElement;
  return {scroll: window.scrollY, h1Top: h1.top, h1Bottom: h1.bottom, height: innerHeight,
          focusFirst: a === first, focused: a ? `${a.tagName}#${a.id}` : null};
}"""


def test_a_new_sheet_of_each_system_opens_at_its_top_with_the_focus_in_its_first_field(page, app_with):
    # A character already in each list: the list page is long enough to scroll.
    made = [ok({"op": f"{system}.character.new", "id": f"{prefix}-old", "name": "Ancien"})["character"]
            for system, prefix in SYSTEMS if system != "versality"]
    page.set_viewport_size({"width": 360, "height": 740})
    app = app_with(new_table(made), "home")
    # One engine start: the page is resized, and each system's list makes a sheet at each width.
    for width, system, prefix in ((w, s, p) for w in (360, 1280) for s, p in SYSTEMS):
        app.set_viewport_size({"width": width, "height": 740 if width == 360 else 800})
        goto_route(app, system)
        field = app.locator(f"#{prefix}-new-name")
        field.fill(f"Nouveau {system} {width}")
        field.press("Enter")
        expect(app.locator("#main h1")).to_contain_text(f"Nouveau {system} {width}")
        expect(app.get_by_test_id("undo-toast")).to_be_visible()
        app.wait_for_function(f"() => ({WHERE_JS})().focusFirst")
        where = app.evaluate(WHERE_JS)
        assert where["scroll"] == 0, (system, width, where)
        assert 0 <= where["h1Top"] and where["h1Bottom"] <= where["height"], (system, width, where)
        no_button_covered(app)
        where = app.evaluate(WHERE_JS)
        assert where["focusFirst"], (system, width, where)
        assert where["h1Top"] >= 0, (system, width, where)
