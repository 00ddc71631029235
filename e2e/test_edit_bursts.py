"""Two quick edits on a sheet never lose one: a burst of edits typed without waiting (each
field changed and left at once, the next one right after), every one of them in the saved
document. The table is seeded in storage (no clicking through creation): what is tested is the
sheet's edits, which must each be applied to the character as the previous edit left it
(app.update(mutate) on the latest table), never to a copy taken before it was saved."""

from __future__ import annotations

import sys

import pytest
from playwright.sync_api import expect

from browser_support import (
    ROOT,
    new_table,
    open_table,
    saved_document,
    versality_character,
    wait_saved,
    write_table,
)

sys.path.insert(0, str(ROOT / "py"))

from tablee.api import handle

pytestmark = pytest.mark.slow


def _character(request: dict) -> dict:
    response = handle(request)
    assert "error" not in response, response
    return response["character"]


def _open_with(page, site, characters: list[dict], route: str, systems: dict | None = None) -> None:
    open_table(page, site, new_table(characters, systems, name="Rafale"), route.removeprefix("#/"))


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
        page.wait_for_selector(f"{selector}:not([disabled])", state="attached")
    page.evaluate(BURST, pairs)


# Click each button (a CSS selector) or submit each form ("submit:<form selector>") one after
# the other in the same task, values set first where given: quick actions, nothing awaited.
ACTIONS = """
steps => {
  for (const [kind, selector, value] of steps) {
    const el = document.querySelector(selector);
    if (!el) throw new Error(`no ${selector}`);
    if (kind === 'set') {
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    } else if (kind === 'submit') {
      el.requestSubmit();
    } else {
      el.click();
    }
  }
}
"""


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


def test_a_systmj_sheet_keeps_every_edit_of_a_burst(page, site, guarded):
    c = _character({"op": "systmj.entity.new", "id": "sj1", "name": "Sam"})
    _open_with(page, site, [c], "#/systmj/character/sj1")
    _burst(page, [("#sj-attributes-force", "12"), ("#sj-attributes-agilite", "9"), ("#sj-player", "Léa"),
                  ("#sj-notes", "rafale")])
    wait_saved(page, """d => { const c = d.characters[0];
        return c.attributes.force === 12 && c.attributes.agilite === 9 && c.player === 'Léa' && c.notes === 'rafale'; }""")


def test_a_versality_sheet_keeps_the_edits_typed_while_a_wound_is_added(page, site, guarded):
    """A wound (an engine op on the whole character) clicked, then fields typed at once: the
    wound is computed on the character as the edits left it, and none of them is lost."""
    c = versality_character("vs1", "Vera")
    _open_with(page, site, [c], "#/versality/character/vs1")
    page.wait_for_selector("[data-testid=vs-wound-physique]:not([disabled])")
    page.evaluate(ACTIONS, [["click", "[data-testid=vs-wound-physique]", None],
                            ["set", "#vs-forces-0", "Rapide"], ["set", "#vs-faiblesses-0", "Distraite"],
                            ["set", "#vs-power-0", "Lévitation"]])
    doc = wait_saved(page, """d => { const c = d.characters[0];
        return c.wounds.physique === 1 && c.forces[0] === 'Rapide' && c.faiblesses[0] === 'Distraite'
          && c.powers[0].text === 'Lévitation'; }""")
    assert doc["characters"][0]["name"] == "Vera"


def test_a_unicreon_sheet_keeps_the_edits_made_while_an_item_op_runs(page, site, guarded):
    """An inventory op (carried elsewhere: the engine answers the whole character) and sheet
    edits right after it: the op runs on the character as the edits left it, all are kept."""
    c = _character({"op": "unicreon.character.new", "id": "uc1"})
    bought = handle({"op": "unicreon.shop.buy", "character": c, "ref": "bourse"})
    assert "error" not in bought, bought
    c = bought["character"]
    uid = bought["uid"]
    c["name"] = "Ulric"
    _open_with(page, site, [c], "#/unicreon/character/uc1")
    _burst(page, [(f"#uc-carry-{uid}", "hand"), ("#uc-job", "forgeron"), ("#uc-char-puissance", "50"),
                  ("#uc-char-volonte", "20")])
    wait_saved(page, f"""d => {{ const c = d.characters[0];
        return c.inventory.find((i) => i.uid === '{uid}').carried === 'hand' && c.job === 'forgeron'
          && c.characteristics.puissance === 50 && c.characteristics.volonte === 20; }}""")


def test_two_quick_systmj_chronoste_advances_are_both_applied_in_order(page, site, guarded):
    """Two "Avancer" of the Chronoste submitted without waiting: both are in the saved state, in
    the order given, the second computed on the state the first left (none dropped as "busy")."""
    state = handle({"op": "systmj.state.new"})["state"]
    _open_with(page, site, [], "#/systmj/chronoste", systems={"systmj": state})
    page.wait_for_selector("#sj-c-advance:not([disabled])")
    page.evaluate(ACTIONS, [["set", "#sj-c-amount", "1"], ["set", "#sj-c-note", "premier"],
                            ["submit", "form:has(#sj-c-advance)", None],
                            ["set", "#sj-c-amount", "2"], ["set", "#sj-c-note", "second"],
                            ["submit", "form:has(#sj-c-advance)", None]])
    doc = wait_saved(page, "d => (d.systems.systmj?.chronoste.history ?? []).length === 2")
    history = doc["systems"]["systmj"]["chronoste"]["history"]
    assert [h["note"] for h in history] == ["premier", "second"]
    assert [h["advanced"] for h in history] == [1440, 2880]
    assert doc["systems"]["systmj"]["chronoste"]["day"] == state["chronoste"]["day"] + 3


def test_quick_clicks_on_the_versality_mj_screen_are_all_applied(page, site, guarded):
    """The MJ's +1 on the catastrophe scale and on the token box, clicked without waiting: each
    is asked of the table state the one before left (never of the copy the screen showed when
    clicked, which made five +1 a single +1), every one in the saved state."""
    state = handle({"op": "versality.state.new"})["state"]
    _open_with(page, site, [], "#/versality/mj", systems={"versality": state})
    cat_plus, token_plus = "button[aria-label='Catastrophe +1']", "button[aria-label='Pions +1']"
    page.wait_for_selector(f"{cat_plus}:not([disabled])")
    page.evaluate(ACTIONS, [["click", cat_plus, None], ["click", token_plus, None], ["click", cat_plus, None],
                            ["click", cat_plus, None], ["click", token_plus, None]])
    doc = wait_saved(page, "d => d.systems.versality.catastrophe === 3 && d.systems.versality.tokens === 2")
    assert doc["systems"]["versality"]["session"] == state["session"]


def test_quick_pv_clicks_on_the_unicreon_combat_tracker_are_all_applied(page, site, guarded):
    """Three "−1 PV" on a fighter clicked without waiting: none is dropped as "busy" nor
    computed from the tracker as the page showed it: 12 PV become 9."""
    from tablee.systems.unicreon import combat as cb
    from tablee.systems.unicreon import combat_state as cs
    from unicreon_sheets import character as uc_character

    bea = uc_character("uc-bea", "Béa")
    combat = cb.add_character(cs.new_state(), bea)
    cid = combat["combatants"][0]["cid"]
    _open_with(page, site, [bea], "#/unicreon/combat", systems={"unicreon": {"combat": combat, "custom_items": []}})
    minus = f"[data-testid=uc-fighter][data-cid='{cid}'] button[aria-label^='Retirer 1 PV']"
    page.wait_for_selector(f"{minus}:not([disabled])", state="attached")
    page.evaluate(ACTIONS, [["click", minus, None]] * 3)
    wait_saved(page, f"d => d.systems.unicreon.combat.combatants.find((c) => c.cid === '{cid}').pv === 9")


# A field being typed in keeps what was typed when the page draws again before it is left: the
# table changed in another tab (or arrived from the live table, or the engine became ready)
# redraws the sheet, and the typed text must not be put back to the saved value, which lost
# the edit silently (the change event then saw no change).
TYPED_FIELDS = {
    "pointzero": ("pointzero.character.new", "#/pointzero/character/c1", "#pz-attr-1-level", "4",
                  "d => d.characters[0].attributes[1].level === 4"),
    "versality": (None, "#/versality/character/c1", "#vs-forces-0", "Rapide",
                  "d => d.characters[0].forces[0] === 'Rapide'"),
    "unicreon": ("unicreon.character.new", "#/unicreon/character/c1", "#uc-job", "forgeron",
                 "d => d.characters[0].job === 'forgeron'"),
    "systmj": ("systmj.entity.new", "#/systmj/character/c1", "#sj-attributes-force", "12",
               "d => d.characters[0].attributes.force === 12"),
    "theorem": ("theorem.character.new", "#/theorem/character/c1", "#th-realite", "17",
                "d => d.characters[0].realite === 17"),
}


@pytest.mark.parametrize("system", sorted(TYPED_FIELDS))
def test_what_is_typed_survives_a_redraw_before_the_field_is_left(page, site, guarded, system):
    """Each system's sheet: a value typed, the table changed by another tab before the field
    is left, then the field left: the typed value is saved, the other tab's change kept."""
    new_op, route, field, value, saved = TYPED_FIELDS[system]
    c = versality_character("c1", "Vera") if new_op is None else _character({"op": new_op, "id": "c1", "name": "Zoé"})
    _open_with(page, site, [c], route)
    page.wait_for_selector(f"{field}:not([disabled])")
    page.fill(field, value)  # typed, not left yet
    other = page.context.new_page()
    other.goto(site + "#/")
    doc = saved_document(page)
    doc["name"] = "Renommée ailleurs"
    write_table(other, doc)  # another tab changes the table: this page redraws
    other.close()
    expect(page.locator("#table-name")).to_have_text("Renommée ailleurs")
    expect(page.locator(field)).to_have_value(value)
    page.press(field, "Tab")
    doc = wait_saved(page, saved)
    assert doc["name"] == "Renommée ailleurs"


def test_the_suite_catches_a_table_changed_in_place(app):
    """Every browser test runs with the app's tables frozen (browser_support.STRICT_TABLES): a
    write into a record the table shares with the one before it throws at once, and a shallow
    change that only replaces values (putSystem, replaceCharacter) keeps the table it came from
    as it was."""
    outcome = app.evaluate("""async () => {
      "use strict"; // (as the app's modules are: a write into a frozen object throws)
      const { app } = await import("./static/js/app.js");
      const { putSystem } = await import("./static/js/views/ui.js");
      const { replaceCharacter } = await import("./static/js/views/characters.js");
      const out = {};
      const { character } = await app.call({ op: "theorem.character.new", id: "strict-1", name: "Avant" });
      app.update((doc) => { doc.characters = [character]; }, { record: false });
      const before = app.doc;
      out.frozen = Object.isFrozen(before) && Object.isFrozen(before.characters) && Object.isFrozen(before.characters[0]);
      try {
        before.characters[0].name = "Changé en place";
        out.inPlace = "accepted";
      } catch (error) {
        out.inPlace = error.name;
      }
      app.update((doc) => {
        replaceCharacter(doc, { ...doc.characters[0], name: "Après" });
      }, { shallow: true, record: false });
      const copy = { ...app.doc };
      putSystem(copy, "theorem", { marker: 1 });
      out.before = [before.characters[0].name, "theorem" in before.systems];
      out.after = [app.doc.characters[0].name, "theorem" in app.doc.systems, copy.systems.theorem.marker];
      try {
        app.update((doc) => { doc.characters[0].name = "Écrit dans l'ancienne table"; }, { shallow: true, record: false });
        out.shallowInPlace = "accepted";
      } catch (error) {
        out.shallowInPlace = error.name;
      }
      out.kept = app.doc.characters[0].name;
      return out;
    }""")
    assert outcome == {
        "frozen": True,
        "inPlace": "TypeError",
        "before": ["Avant", False],
        "after": ["Après", False, 1],
        "shallowInPlace": "TypeError",
        "kept": "Après",
    }
