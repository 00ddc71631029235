"""Two quick edits on a sheet never lose one: a burst of edits typed without waiting (each
field changed and left at once, the next one right after), every one of them in the saved
document. The table is seeded in storage (no clicking through creation): what is tested is the
sheet's edits, which must each be applied to the character as the previous edit left it
(app.update(mutate) on the latest table), never to a copy taken before it was saved."""

from __future__ import annotations

import json
import sys

from browser_support import ROOT, wait_engine, wait_saved

sys.path.insert(0, str(ROOT / "py"))

from tablee.api import handle


def _character(request: dict) -> dict:
    response = handle(request)
    assert "error" not in response, response
    return response["character"]


def _open_with(page, site, characters: list[dict], route: str) -> None:
    doc = {"schema": 1, "app": "tablee", "name": "Rafale", "language": "fr", "characters": characters,
           "log": [], "systems": {}, "settings": {}}
    page.goto(site + "#/")
    page.evaluate("raw => localStorage.setItem('tablee.document', raw)", json.dumps(doc))
    page.goto(site + route)
    page.reload()
    wait_engine(page)


# Set each (selector, value) and fire its input and change events, one after the other in the
# same task: the burst a fast typist (or a pasted form) makes, nothing awaited in between.
BURST = """
pairs => {
  for (const [selector, value] of pairs) {
    const el = document.querySelector(selector);
    if (!el) throw new Error(`no ${selector}`);
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
}
"""


def _burst(page, pairs: list[tuple[str, str]]) -> None:
    for selector, _ in pairs:
        page.wait_for_selector(f"{selector}:not([disabled])")
    page.evaluate(BURST, pairs)


def test_a_theorem_sheet_keeps_every_edit_of_a_burst(page, site, guarded):
    c = _character({"op": "theorem.character.new", "id": "th1"})
    c.update(name="Théa", skills=[{"name": "Escalade", "level": 1}, {"name": "Discrétion", "level": 1}])
    _open_with(page, site, [c], "#/theorem/character/th1")
    _burst(page, [("#th-realite", "17"), ("#th-skills-0-level", "2"), ("#th-skills-1-level", "2"),
                  ("#th-notes", "rafale")])
    doc = wait_saved(page, """d => { const c = d.characters[0];
        return c.realite === 17 && c.skills[0].level === 2 && c.skills[1].level === 2 && c.notes === 'rafale'; }""")
    assert doc["characters"][0]["name"] == "Théa"


def test_a_pointzero_sheet_keeps_every_edit_of_a_burst(page, site, guarded):
    c = _character({"op": "pointzero.character.new", "id": "pz1", "name": "Zoé"})
    c["skills"] = [{"name": "Mécanique", "level": 1}]
    _open_with(page, site, [c], "#/pointzero/character/pz1")
    _burst(page, [("#pz-attr-0-level", "3"), ("#pz-attr-1-level", "4"), ("#pz-skill-0-level", "5"),
                  ("#pz-notes", "rafale")])
    wait_saved(page, """d => { const c = d.characters[0];
        return c.attributes[0].level === 3 && c.attributes[1].level === 4 && c.skills[0].level === 5
          && c.notes === 'rafale'; }""")
