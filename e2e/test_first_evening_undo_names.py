"""The first evening, a new MJ's walk of the five systems (a phone, 360×740): the undo bar, the
Table page's list and the log's "Annulé : …" read "Table <système> modifiée" after a change; each
change is now named by what it did (a secret choice or threshold without its value), and a
Théorem page opened only to look is no change to undo. The rest of the walk is in
e2e/test_first_evening_walk.py.
"""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import (
    goto_route,
    new_table,
    ok,
    versality_character,
    wait_saved,
)
from first_evening_support import sj_entity, theorem_joshua


def test_systmj_changes_are_named_by_what_they_did_in_the_undo_bar_the_table_page_and_the_log(app_with):
    """A SYSTMJ change read "Table SYSTMJ modifiée" in the undo bar, the Table page's list and the
    log's "Annulé : …": each now says what it was (static/js/systems/systmj/common.js
    changeLabel), a secret choice without saying which."""
    lea, gob = sj_entity("sj-lea", "Léa"), sj_entity("sj-gob", "Gobelin")
    state = ok({"op": "systmj.state.new"})["state"]
    state = ok({"op": "systmj.card.save", "state": state,
                "card": {"family": "equipement", "name": "Épée", "types": ["arme"], "categories": ["corps_a_corps"]}})["state"]
    state = ok({"op": "systmj.round.start", "state": state, "characters": [lea, gob]})["state"]
    state = ok({"op": "systmj.round.choose", "state": state, "entity": "sj-lea", "choice": "action"})["state"]
    app = app_with(new_table([lea, gob], {"systmj": state}), "systmj/combat")
    toast = app.get_by_test_id("undo-toast")

    app.locator("[data-testid=sj-round-entity][data-id=sj-gob] [data-testid=sj-choose-mouvement]").click()
    expect(toast).to_contain_text("Choix fait pour Gobelin")
    expect(toast).not_to_contain_text("Mouvement")
    app.click("#sj-round-reveal")
    expect(toast).to_contain_text("Tour 1 révélé")
    app.get_by_test_id("undo-toast-action").click()
    doc = wait_saved(app, "d => d.log.some((e) => e.kind === 'undo') && !d.systems.systmj.rounds.revealed")
    assert doc["log"][-1]["label"] == "Annulé\u00a0: Tour 1 révélé"

    goto_route(app, "systmj/cards")
    app.select_option("#sj-give-EQ-00001", "sj-lea")
    app.get_by_test_id("sj-give").click()
    expect(toast).to_contain_text("Carte EQ-00001 donnée à Léa")

    goto_route(app, "systmj/chronoste")
    app.fill("#sj-c-amount", "3")
    app.select_option("#sj-c-unit", "days")
    app.click("#sj-c-advance")
    expect(toast).to_contain_text("Chronoste avancé de 3 jours")

    goto_route(app, "table")
    entries = app.locator("[data-testid=undo-list] [data-testid=undo-entry]")
    expect(entries).to_have_count(3)
    expect(entries.nth(0)).to_contain_text("Chronoste avancé de 3 jours")
    expect(entries.nth(1)).to_contain_text("Carte EQ-00001 donnée à Léa")
    expect(entries.nth(2)).to_contain_text("Choix fait pour Gobelin")
    expect(app.locator("main")).not_to_contain_text("Table SYSTMJ modifiée")
    # In English, the same changes in English words.
    app.click("#lang-toggle")
    expect(app.locator("[data-testid=undo-list]")).to_contain_text("Chronoste moved on 3 days")
    expect(app.locator("[data-testid=undo-list]")).to_contain_text("Card EQ-00001 given to Léa")


def test_opening_theorem_is_not_a_change_to_undo(app_with):
    """Théorem's pages make the table's deck (the 56 numbered cards shuffled) the first time one
    opens. That was kept as the person's change: the Table page listed "Table Théorem modifiée"
    and offered to undo it, though they had only looked. It is no longer theirs to undo."""
    app = app_with(new_table([theorem_joshua()]), "theorem")
    wait_saved(app, "d => !!d.systems.theorem")
    goto_route(app, "table")
    expect(app.get_by_test_id("undo-section")).to_be_visible()
    expect(app.get_by_test_id("undo-entry")).to_have_count(0)
    expect(app.get_by_test_id("undo-toast")).to_have_count(0)


def test_a_versality_draw_is_named_in_the_undo_bar(app_with):
    """After drawing, the undo bar said "Table Versality modifiée. Annuler": which change would
    be undone was anyone's guess. The draw, the card played and a deck's update are named."""
    app = app_with(new_table([versality_character("vs-nadia", "Nadia")]), "versality/test/vs-nadia")
    app.click("#vs-draw")
    toast = app.get_by_test_id("undo-toast")
    expect(toast).to_contain_text("Cartes piochées par Nadia")
    app.click("#lang-toggle")
    goto_route(app, "table")
    expect(app.get_by_test_id("undo-list")).to_contain_text("Cards drawn by Nadia")


def test_a_theorem_draw_is_named_in_the_undo_bar(app_with):
    """After a draw on Théorem's table the undo bar said "Table Théorem modifiée": a player's
    draw, figure, arcane, hand and cancel are now named, with whose they were."""
    state = ok({"op": "theorem.state.new", "seed": 8})["state"]
    app = app_with(new_table([theorem_joshua()], systems={"theorem": state}), "theorem/test/th-josh")
    app.select_option("#th-skill", index=1)
    expect(app.locator("#th-draw")).to_be_enabled()
    app.click("#th-draw")
    expect(app.get_by_test_id("undo-toast")).to_contain_text("Carte tirée par Joshua")


def test_point_zero_changes_are_named_in_the_undo_bar_without_the_secret(app_with):
    """Setting the scenario's secret threshold left an undo bar saying "Table Point Zéro
    modifiée": the MJ's and the Tension gauge's changes are named (the threshold's value never
    is: the bar may be seen by the players at the table)."""
    app = app_with(new_table(), "pointzero/mj")
    app.select_option("#pz-mj-threshold-input", "7")
    app.click("#pz-mj-threshold-save")
    toast = app.get_by_test_id("undo-toast")
    expect(toast).to_contain_text("Seuil secret du scénario fixé")
    expect(toast).not_to_contain_text("7")


def test_versality_mj_changes_are_named_in_the_undo_bar(app_with):
    """The MJ's +1 on the catastrophe scale left "Table Versality modifiée. Annuler"; the MJ
    screen's changes are named (catastrophe, tokens, a power's use, a session, the awards)."""
    app = app_with(new_table([versality_character("vs-nadia", "Nadia")]), "versality/mj")
    app.get_by_role("button", name="Catastrophe +1").click()
    toast = app.get_by_test_id("undo-toast")
    expect(toast).to_contain_text("Échelle de catastrophe changée")
    app.get_by_role("button", name="Pions +1").click()
    expect(toast).to_contain_text("Pions de dégradation changés")


def test_unicreon_fight_changes_are_named_in_the_undo_bar(app_with):
    """Starting a fight left "Table Unicreon modifiée. Annuler": the combat tracker's changes
    are named (a new fight, a fighter added, an attack, the next turn…)."""
    lina = ok({"op": "unicreon.character.new", "id": "uc-lina", "name": "Lina"})["character"]
    app = app_with(new_table([lina]), "unicreon/combat")
    app.get_by_role("button", name="Nouveau combat").click()
    expect(app.get_by_test_id("undo-toast")).to_contain_text("Nouveau combat")
