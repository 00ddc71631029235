"""An undone move leaves nothing of itself on screen, and the undo notice never covers a button.

A new MJ's walk: SYSTMJ's Loup attacked by mistake, « Attaque ratée : Garance contre-attaque »,
Annuler: the notice said « Annulé » but the result and « Contre-attaquer » stayed, and pressing it
set up an undefended counter-attack for an attack that no longer existed. Versality's card played
then undone put the cards back in the hand under a banner still reading « Résultat : Oui ». Each
page now forgets what it showed of its moves when this tab undoes a change (views/ui.js onUndo,
called by undo-bar.js undoEntry). The undo notice, fixed over the bottom of the screen, had
« Lancer l'attaque » half under it at 1280×800: the page now scrolls by the least amount that leaves
every enabled button clear of it (undo.js keepButtonsClear), measured here from the boxes.
"""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import (
    force_next_seed,
    goto_route,
    new_table,
    no_button_covered,
    ok,
    versality_character,
    wait_saved,
)
from first_evening_support import theorem_joshua
from systmj_fight import fighter, seed_for, sj_entity


def undo_from_the_notice(app, says: str) -> None:
    toast = app.get_by_test_id("undo-toast")
    expect(toast).to_contain_text(says)
    no_button_covered(app)
    app.get_by_test_id("undo-toast-action").click()
    expect(toast).to_have_attribute("data-kind", "undo")


def test_systmj_an_undone_failed_attack_leaves_no_result_and_no_counter_attack(page, app_with):
    """SYSTMJ's combat at 1280×800: revealing the round, then an attack that fails (3.3.2 opens a
    counter-attack); Annuler takes the result, its « Contre-attaquer » and the offer away, and the
    notice covers no button after either move."""
    page.set_viewport_size({"width": 1280, "height": 800})
    loup = sj_entity("sj-loup", "Loup")
    loup["attributes"].update({"force": 30, "resistance": 30, "rapidite": 30})
    garance = sj_entity("sj-gar", "Garance")
    garance["attributes"].update({"force": 50, "resistance": 50, "rapidite": 50})
    state = ok({"op": "systmj.state.new"})["state"]
    state = ok({"op": "systmj.round.start", "state": state, "characters": [loup, garance]})["state"]
    for cid in ("sj-loup", "sj-gar"):
        state = ok({"op": "systmj.round.choose", "state": state, "entity": cid, "choice": "action"})["state"]
    app = app_with(new_table([loup, garance], {"systmj": state}), "systmj/combat")
    app.click("#sj-round-reveal")
    toast = app.get_by_test_id("undo-toast")
    expect(toast).to_contain_text("Tour 1 révélé")
    app.select_option("#sj-att-who", "sj-loup")
    app.select_option("#sj-def-who", "sj-gar")
    app.select_option("#sj-def-kind", "esquive")
    attack = app.locator("#sj-attack")
    expect(attack).to_be_enabled()
    # The notice of the reveal still shown: no enabled button under it ("Lancer l'attaque" was).
    expect(toast).to_contain_text("Tour 1 révélé")
    no_button_covered(app)

    base = {"op": "systmj.combat.exchange", "kind": "force", "attacker": fighter(loup), "defender": fighter(garance, True),
            "defence": "esquive", "subject": {"session": 1, "attacker": "sj-loup", "defender": "sj-gar", "items": []}}
    force_next_seed(app, seed_for(base, "counter_attack"))
    attack.click()
    expect(app.get_by_test_id("sj-combat-outcome")).to_contain_text("Garance")
    expect(app.locator("#sj-counter")).to_be_visible()
    wait_saved(app, "d => d.systems.systmj.counter !== undefined && d.log.some((e) => e.kind === 'systmj.combat.exchange')")
    undo_from_the_notice(app, "Loup")

    doc = wait_saved(app, "d => d.systems.systmj.counter === undefined && d.log.at(-1).kind === 'undo'")
    assert not next(e for e in doc["systems"]["systmj"]["rounds"]["entities"] if e["id"] == "sj-loup")["acted"]
    expect(app.get_by_test_id("sj-combat-outcome")).to_have_count(0)
    expect(app.get_by_test_id("sj-combat-result")).to_have_text("")
    expect(app.locator("#sj-counter")).to_have_count(0)
    expect(app.get_by_test_id("sj-counter-pending")).to_have_count(0)
    expect(app.get_by_test_id("sj-counter-note")).to_have_count(0)
    no_button_covered(app)


def test_versality_theorem_and_unicreon_undone_moves_leave_no_banner_or_result(app_with):
    """At 360 px: Versality's card played, Théorem's card drawn, Unicreon's new fight and Point
    Zéro's secret threshold, each followed by Annuler, leave neither the result nor the banner of
    the undone move; the notice covers no button after each move."""
    theorem = ok({"op": "theorem.state.new", "seed": 2})["state"]
    lina = ok({"op": "unicreon.character.new", "id": "uc-lina", "name": "Lina"})["character"]
    app = app_with(new_table([versality_character("vs-nadia", "Nadia"), theorem_joshua(), lina],
                             systems={"theorem": theorem}), "versality/test/vs-nadia")

    # Versality: draw, play the card, Annuler: the cards are back in the hand, no « Résultat ».
    app.click("#vs-draw")
    resolve = app.locator("#vs-resolve")
    expect(resolve).to_be_visible()
    if not resolve.is_enabled():
        app.locator("[data-testid=vs-hand] button").first.click()
    expect(resolve).to_be_enabled()
    resolve.click()
    expect(app.get_by_test_id("vs-announce-visible")).to_contain_text("Résultat")
    expect(app.locator("#vs-result-title")).to_be_visible()
    wait_saved(app, "d => d.log.some((e) => e.kind === 'versality.test')")
    undo_from_the_notice(app, "Nadia")
    expect(resolve).to_be_visible()
    expect(app.get_by_test_id("vs-announce-visible")).to_have_count(0)
    expect(app.locator("#vs-result-title")).to_have_count(0)
    expect(app.get_by_test_id("vs-announce")).to_have_text("")

    # Théorem: a numbered card drawn ends the action; Annuler takes its result away.
    goto_route(app, "theorem/test/th-josh")
    app.select_option("#th-skill", index=1)
    expect(app.locator("#th-draw")).to_be_enabled()
    app.click("#th-draw")
    expect(app.get_by_test_id("th-result")).to_be_visible()
    undo_from_the_notice(app, "Joshua")
    expect(app.get_by_test_id("th-result")).to_have_count(0)
    expect(app.get_by_test_id("th-level")).to_have_count(0)

    # Unicreon: a new fight, then Annuler: no fight and no line about it.
    goto_route(app, "unicreon/combat")
    app.get_by_role("button", name="Nouveau combat").click()
    undo_from_the_notice(app, "Nouveau combat")
    expect(app.get_by_role("button", name="Nouveau combat")).to_be_visible()

    # Point Zéro's MJ screen: the secret threshold set, then Annuler: no « Seuil secret fixé ».
    goto_route(app, "pointzero/mj")
    app.select_option("#pz-mj-threshold-input", "7")
    app.click("#pz-mj-threshold-save")
    status = app.get_by_test_id("pz-mj-status")
    expect(status).to_contain_text("Seuil secret fixé à 7")
    undo_from_the_notice(app, "Seuil secret du scénario fixé")
    expect(status).to_have_text("")
