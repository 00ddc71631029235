"""The first evening, screens that broke at their size: the Théorem MK screen at 360 px (the
success table's level names wrapped one letter a line, inputs spilled off screen) and Point
Zéro's choices cut on a 1280×800 laptop ("VIG — Vigue")."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import goto_route, no_horizontal_scroll, open_table
from tablee.api import handle

#: Every <select> whose chosen text does not fit inside it (its padding and arrow aside).
CUT_SELECTS = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('main select')].filter((s) => s.offsetParent !== null).filter((s) => {
    const style = getComputedStyle(s);
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = s.options[s.selectedIndex]?.text ?? '';
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return ctx.measureText(text).width > room;
  }).map((s) => s.id + ': ' + s.options[s.selectedIndex]?.text);
}"""


def seed(page, site: str, characters: list[dict]) -> None:
    doc = handle({"op": "store.new", "name": "Premier soir", "language": "fr"})["document"]
    doc["characters"] = characters
    doc = handle({"op": "store.open", "document": doc})["document"]
    open_table(page, site, doc)


def test_theorem_mk_success_table_fits_a_phone(page, site, guarded):
    seed(page, site, [])
    goto_route(page, "theorem/mk")
    table = page.locator("table.th-success")
    expect(table.locator("tbody tr")).to_have_count(3)
    expect(page.locator("#th-save-table")).to_be_visible()
    # Each level's name is on one or two lines, never a letter a line.
    heights = table.locator("tbody th[scope=row]").evaluate_all(
        "cells => cells.map((c) => c.getBoundingClientRect().height / parseFloat(getComputedStyle(c).lineHeight || 20))")
    assert all(h < 2.5 for h in heights), heights
    # Every input is inside the viewport, with its column's name in sight.
    boxes = table.locator("input").evaluate_all("xs => xs.map((x) => x.getBoundingClientRect().right)")
    assert len(boxes) == 9 and max(boxes) <= 360, boxes
    expect(table.locator("tbody tr").first.locator("td").first).to_have_attribute("data-label", "À partir de")
    no_horizontal_scroll(page)


def test_pointzero_choices_are_not_cut_on_a_laptop(page, site, guarded):
    page.set_viewport_size({"width": 1280, "height": 800})
    c = handle({"op": "pointzero.character.new", "id": "pz-eve", "name": "Ève"})["character"]
    c["skills"] = [{"name": "Escalade", "level": 3}]
    seed(page, site, [c])
    goto_route(page, "pointzero/test/pz-eve")
    expect(page.locator("#pz-t-attr")).to_be_visible()
    assert page.evaluate(CUT_SELECTS) == []
