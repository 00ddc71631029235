"""Versality in a real browser at 360 px: guided creation with rule messages at their
fields, tests on the card table (choose among 2, worst of 3), the reshuffle seen by the
players and counted on the MJ screen only, wounds and progression, and a reload that
keeps every deck in the same order."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import expect

from browser_support import (
    goto_route,
    new_table,
    no_horizontal_scroll,
    saved_document,
    wait_engine,
    wait_log,
    wait_saved,
)
from browser_support import versality_character as character
from tablee.systems.versality import state as versality_state

pytestmark = pytest.mark.slow

ORDER = ["echec-critique", "non-et", "non-mais", "oui-mais", "oui", "oui-et"]
SECRET_NOTE = "vol au-dessus de la foule"


def seed_table(app_with, chars: list[dict], state: dict | None = None):
    """The app opened on a new table holding these characters (and this Versality state): one engine boot."""
    return app_with(new_table(chars, {"versality": state} if state is not None else None))


def unlock_mj(page) -> None:
    """The MJ screen opens at once on a device where "Je suis MJ" was chosen (the suite's
    pages start so): Versality asks nothing more than the other systems."""
    expect(page.locator("[data-testid=vs-catastrophe]")).to_be_visible()


def set_number(page, selector: str, value: int) -> None:
    page.fill(selector, str(value))
    page.press(selector, "Tab")


def drawn_kinds(page) -> list[str]:
    cards = page.locator("[data-testid=hand-card]")
    return [cards.nth(i).get_attribute("data-kind") for i in range(cards.count())]


def test_guided_creation_shows_rules_at_fields_then_wounds_and_progression(app):
    goto_route(app, "versality")
    expect(app.get_by_role("heading", name="Versality")).to_be_visible()
    no_horizontal_scroll(app)
    app.fill("#vs-new-name", "Nadia")
    app.click("#vs-create")
    expect(app.locator("#vs-power-0")).to_be_visible()
    # Nothing is flagged before the player types: a field's message shows once
    # it is left, and follows the typing from then on.
    expect(app.locator("[data-field=powers]")).to_have_text("")
    expect(app.locator("#vs-power-0")).to_have_attribute("aria-invalid", "false")
    # Step 1: the power, with the MJ's approval asked at its checkbox.
    app.focus("#vs-power-0")
    app.focus("#vs-power-0-approved")
    expect(app.locator("[data-field=powers]")).to_have_text("Le personnage doit avoir un pouvoir.")
    app.fill("#vs-power-0", "Télékinésie")
    expect(app.locator("[data-field=powers]")).to_have_text("")
    # The approval checkbox was left unchecked on the way back to the power.
    expect(app.locator("[data-field='powers.0.approved']")).to_have_text("Le ou la MJ doit approuver ce pouvoir.")
    app.check("#vs-power-0-approved")
    expect(app.locator("[data-field='powers.0.approved']")).to_have_text("")
    # Step 2: 5 points of success cards; a 3-point card no longer fits after 3 + 2.
    expect(app.locator("[data-testid=vs-success-left]")).to_contain_text("Points restants : 5 sur 5")
    expect(app.locator("[data-testid=vs-buy-oui-mais]")).to_contain_text("(1 pt)")
    expect(app.locator("[data-testid=vs-buy-oui]")).to_contain_text("(2 pts)")
    app.click("[data-testid=vs-buy-oui-et]")
    expect(app.locator("[data-testid=vs-success-left]")).to_contain_text("Points restants : 2 sur 5")
    app.click("[data-testid=vs-buy-oui]")
    expect(app.locator("[data-testid=vs-success-left]")).to_contain_text("Points restants : 0 sur 5")
    expect(app.locator("[data-testid=vs-buy-oui-mais]")).to_be_disabled()
    # Failures: 12 success points → 6 to compensate, shown in the ledger.
    expect(app.locator("[data-testid=vs-ledger]")).to_contain_text("12")
    expect(app.locator("[data-testid=vs-gap]")).to_have_text("6")
    app.click("[data-testid=vs-buy-non-mais]")
    expect(app.locator("[data-testid=vs-gap]")).to_have_text("3")
    # non-et (5) is worth more than the 3 left while a non-mais is affordable: not allowed.
    expect(app.locator("[data-testid=vs-buy-non-et]")).to_be_disabled()
    app.click("[data-testid=vs-buy-non-mais]")
    expect(app.locator("[data-testid=vs-gap]")).to_have_text("0")
    expect(app.locator("[data-field=deck]")).to_have_text("")
    # Step 3: traits (the group's message once the player leaves it).
    expect(app.locator("[data-field=forces]")).to_have_text("")
    app.focus("#vs-forces-0")
    app.focus("#vs-characteristics-physique")
    expect(app.locator("[data-field=forces]")).to_contain_text("Il faut 2 forces et 1 faiblesse")
    app.fill("#vs-forces-0", "Agile")
    app.fill("#vs-forces-1", "Têtue")
    app.fill("#vs-faiblesses-0", "Naïve")
    app.check("#vs-traits-approved")
    # Steps 4-5: breaking a rule shows its message at the field.
    set_number(app, "#vs-characteristics-physique", 2)
    set_number(app, "#vs-characteristics-personnalite", 1)
    set_number(app, "#vs-skills-combattre", 4)
    expect(app.locator("[data-field='skills.combattre']")).to_contain_text("une compétence ne dépasse pas 3")
    # The skill is named by its label, not its key.
    expect(app.locator("[data-field='skills.combattre']")).to_contain_text("(Combattre : 4)")
    expect(app.locator("#vs-skills-combattre")).to_have_attribute("aria-invalid", "true")
    set_number(app, "#vs-skills-traquer", 3)
    # Over budget: never a negative "points left", the excess in words (plural).
    expect(app.locator("[data-testid=vs-skills-left]")).to_contain_text("Dépassement : 2 points de trop")
    expect(app.locator("[data-testid=vs-skills-left]")).not_to_contain_text("-2")
    # Trying to validate shows every problem and takes the focus to the first one.
    app.click("#vs-validate")
    expect(app.locator("[data-field=skills]")).to_contain_text("Il faut répartir 5 points de compétences (il y en a 7)")
    expect(app.locator("#vs-skills-combattre")).to_be_focused()
    assert saved_document(app)["characters"][-1]["created"] is False
    no_horizontal_scroll(app)
    set_number(app, "#vs-skills-combattre", 1)
    set_number(app, "#vs-skills-survivre", 1)
    expect(app.locator("[data-testid=vs-problem-count]")).to_contain_text("Tout est en règle")
    # A card bought during creation may still be taken back before validation...
    assert app.locator(".vs-chip-remove").count() == 4
    wait_saved(app, "d => d.characters.at(-1).skills.survivre === 1 && d.characters.at(-1).created === false")
    app.click("#vs-validate")
    # ...never after: the engine set `created` on the character itself.
    expect(app.locator("#vs-go-test")).to_be_visible()
    doc = wait_saved(app, "d => d.characters.at(-1).created === true")
    assert "versality" not in doc["settings"]
    expect(app.locator(".vs-chip-remove")).to_have_count(0)
    expect(app.locator("[data-testid=vs-sheet-deck-card]")).to_have_count(8)
    no_horizontal_scroll(app)

    # Wounds: one on Physique, and the test screen shows it as added difficulty.
    app.click("[data-testid=vs-wound-physique]")
    expect(app.locator("[data-testid=vs-status]")).to_have_text("Blessé")
    expect(app.locator("[data-testid=vs-untreated]")).to_contain_text("+1 en difficulté")
    app.click("#vs-go-test")
    expect(app.locator("[data-testid=vs-test-wounds]")).to_contain_text("+1 en difficulté")
    no_horizontal_scroll(app)

    # End of scenario on the MJ screen: objective reached, catastrophe ≤ 10 → 2 points.
    goto_route(app, "versality")
    app.click("#vs-mj-link")
    expect(app.get_by_role("heading", name="Écran MJ")).to_be_visible()
    unlock_mj(app)
    app.get_by_label("Objectif réussi").check()
    app.click("#vs-award")
    expect(app.locator("[data-testid=vs-mj-status]")).to_contain_text("Nadia : +2")
    # One award per scenario end: the form is reset, and a second click only asks for an
    # explicit confirmation (the award is recorded in the table state for this session).
    expect(app.get_by_label("Objectif réussi")).not_to_be_checked()
    expect(app.locator("[data-testid=vs-awarded]")).to_contain_text("déjà attribués pendant la session 0")
    app.click("#vs-award")
    expect(app.locator("[data-testid=vs-award-confirm]")).to_contain_text("Points déjà attribués pendant la session 0.")
    expect(app.locator("#vs-award-confirm-title")).to_be_focused()
    no_horizontal_scroll(app)
    app.click("#vs-award-cancel")
    expect(app.locator("[data-testid=vs-award-confirm]")).to_have_count(0)
    doc = wait_saved(app, "d => d.systems.versality.awarded_session === 0")
    assert next(c for c in doc["characters"] if c["name"] == "Nadia")["improvement_points"] == 2
    no_horizontal_scroll(app)

    # Progression: a skill at its score (1), then a power (5) that is too dear.
    goto_route(app, "versality")
    app.click("a.vs-char-name")
    expect(app.locator("[data-testid=vs-improvement-points]")).to_have_text("2")
    app.select_option("#vs-improve-skill", "combattre")
    expect(app.locator("[data-testid=vs-improve-skill]")).to_contain_text("coût 1")
    app.click("[data-testid=vs-improve-skill]")
    expect(app.locator("[data-testid=vs-improvement-points]")).to_have_text("1")
    # A power with no text cannot be bought (the engine refuses it too).
    expect(app.locator("#vs-buy-power")).to_be_disabled()
    app.fill("#vs-new-power", "   ")
    expect(app.locator("#vs-buy-power")).to_be_disabled()
    app.fill("#vs-new-power", "Vol")
    # Too dear (5 points, 1 left): still disabled, and the button says why.
    expect(app.locator("#vs-buy-power")).to_be_disabled()
    expect(app.locator("#vs-buy-power")).to_have_accessible_description("Coûte 5 points d'amélioration ; il y en a 1.")
    doc = wait_saved(app, "d => d.characters.some((c) => c.name === 'Nadia' && c.skills.combattre === 2)")
    nadia = next(c for c in doc["characters"] if c["name"] == "Nadia")
    assert nadia["skills"]["combattre"] == 2 and nadia["improvement_points"] == 1
    assert nadia["wounds"]["physique"] == 1 and len(nadia["powers"]) == 1


def test_card_table_choose_worst_reshuffle_mj_only_and_reload(app_with):
    ana = character("vs-ana", "Ana")
    ana["improvement_points"] = 1
    app = seed_table(app_with, [ana])
    goto_route(app, "versality/test/vs-ana")
    expect(app.get_by_role("heading", name="Test d'Ana")).to_be_visible()

    # 1. Physique 2 + Combattre 1 − facile 1 = 2: draw 2 and choose; odds before the draw.
    app.select_option("#vs-test-char", "physique")
    app.select_option("#vs-test-skill", "combattre")
    app.select_option("#vs-test-diff", "facile")
    rule = app.locator("[data-testid=vs-rule]")
    expect(rule).to_have_attribute("data-count", "2")
    expect(rule).to_have_text("Piochez 2 cartes et choisissez-en une.")
    # Exact odds from the 8-card deck, best of 2: oui-et = 1 − C(6,2)/C(8,2) = 13/28.
    expect(app.locator(".vs-fractions li[data-outcome=oui-et]")).to_have_attribute("data-p", "13/28")
    expect(app.locator("[data-testid=pile-draw]")).to_have_attribute("data-count", "8")
    no_horizontal_scroll(app)
    app.click("#vs-draw")
    expect(app.locator("[data-testid=hand-card]")).to_have_count(2)
    expect(app.locator("[data-testid=pile-draw]")).to_have_attribute("data-count", "6")
    # The draw button is gone: focus moved to the drawn cards' heading, not to <body>.
    expect(app.locator("#vs-hand-title")).to_be_focused()
    # The MJ's token decision sits in its own labelled "MJ" box (no count shown).
    mj_box = app.locator("[data-testid=vs-mj-box]")
    expect(mj_box.locator("legend")).to_have_text("MJ")
    expect(mj_box.get_by_label("Décision MJ : pions dépensés")).to_be_visible()
    expect(app.locator("#vs-resolve")).to_be_disabled()
    second = app.locator("[data-testid=hand-card]").nth(1)
    chosen = second.get_attribute("data-kind")
    second.focus()
    app.keyboard.press("Enter")  # keyboard choice
    expect(second).to_have_attribute("aria-pressed", "true")
    app.click("#vs-resolve")
    result = app.locator("[data-testid=vs-result]")
    expect(result).to_have_attribute("data-played", chosen)
    expect(app.locator("#vs-result-title")).to_be_focused()
    expect(result).to_have_attribute("data-final", chosen)
    expect(app.locator("[data-testid=pile-discard]")).to_have_attribute("data-count", "1")
    expect(app.locator("[data-testid=pile-draw]")).to_have_attribute("data-count", "7")

    # 2. Mental 0 + Comprendre 0 − facile 1 = −1: draw 3, the worst applies.
    app.select_option("#vs-test-char", "mental")
    app.select_option("#vs-test-skill", "comprendre")
    expect(rule).to_have_text("Piochez 3 cartes : la pire s'applique.")
    app.click("#vs-draw")
    expect(app.locator("[data-testid=hand-card]")).to_have_count(3)
    kinds = drawn_kinds(app)
    worst = min(kinds, key=ORDER.index)
    expect(app.locator(".play-card.applied")).to_have_attribute("data-kind", worst)
    expect(app.locator("#vs-resolve")).to_be_enabled()
    app.click("#vs-resolve")
    expect(result).to_have_attribute("data-played", worst)
    expect(result).to_have_attribute("data-final", worst)

    # 3. Épique (−5): 7 cards from a draw pile of 6: the discard is reshuffled in, and the
    # players are told (live region) without any catastrophe or token figure.
    app.select_option("#vs-test-diff", "epique")
    expect(rule).to_have_attribute("data-count", "7")
    runout = app.locator("[data-testid=vs-odds-runout]")
    expect(runout).to_contain_text("la défausse sera remélangée")
    expect(runout).to_have_attribute("data-penalties", "1")
    penalty = "Chaque épuisement du deck fait monter l'échelle de catastrophe d'un cran et donne un pion MJ."
    expect(runout).to_contain_text(penalty)
    app.click("#vs-draw")
    expect(app.locator("[data-testid=hand-card]")).to_have_count(7)
    # What the odds announced is what happened, in the same words.
    expect(app.locator("[data-testid=vs-announce]")).to_contain_text("Deck épuisé : toutes les cartes sont remélangées.")
    expect(app.locator("[data-testid=vs-announce]")).to_contain_text(penalty)
    worst = min(drawn_kinds(app), key=ORDER.index)
    app.click("#vs-resolve")
    expect(result).to_have_attribute("data-final", worst)
    no_horizontal_scroll(app)
    log = wait_log(app, 3)["log"]
    assert [e["system"] for e in log[-3:]] == ["versality"] * 3
    assert all(e["who"] == "Ana" and isinstance(e["request"]["seed"], int) for e in log[-3:])

    # The MJ screen (deliberately reached) shows the scale and the token that moved.
    goto_route(app, "versality")
    app.click("#vs-mj-link")
    unlock_mj(app)
    expect(app.locator("[data-testid=vs-catastrophe]")).to_have_text("1")
    expect(app.locator("[data-testid=vs-tokens]")).to_have_text("1")
    expect(app.locator(".vs-bands li[aria-current=true]")).to_contain_text("Sous les radars")
    expect(app.locator("[data-testid=vs-reshuffles]")).to_contain_text("Ana : deck épuisé et remélangé → catastrophe +1, +1 pion MJ")
    app.select_option("#vs-power-points", "5")
    app.fill("#vs-power-note", SECRET_NOTE)
    app.click("#vs-power-add")
    expect(app.locator("[data-testid=vs-catastrophe]")).to_have_text("6")
    expect(app.locator(".vs-bands li[aria-current=true]")).to_contain_text("Gêne légère")
    app.get_by_role("button", name="Pions +1").click()
    expect(app.locator("[data-testid=vs-tokens]")).to_have_text("2")
    no_horizontal_scroll(app)
    wait_saved(app, "d => d.systems.versality.catastrophe === 6 && d.systems.versality.tokens === 2")

    # Player views: no catastrophe value, no token count, no power-use points or notes in the DOM.
    for route in ("versality", "versality/character/vs-ana", "versality/test/vs-ana"):
        goto_route(app, route)
        expect(app.locator(".versality")).to_be_visible()
        dom = app.inner_html("main").lower()
        assert "vs-catastrophe" not in dom and "vs-bands" not in dom, route  # no value, no band of the scale
        expect(app.get_by_role("heading", name="Échelle de catastrophe")).to_have_count(0)
        assert SECRET_NOTE not in dom, route
        assert app.locator("[data-testid=vs-catastrophe], [data-testid=vs-tokens], [data-testid=vs-power-uses]").count() == 0
        no_horizontal_scroll(app)

    # A test drawn but not played survives a reload; every deck keeps its exact order.
    goto_route(app, "versality/test/vs-ana")
    app.select_option("#vs-test-diff", "facile")
    expect(rule).to_have_attribute("data-count", "3")
    app.click("#vs-draw")
    expect(app.locator("[data-testid=hand-card]")).to_have_count(3)
    before = wait_saved(app, "d => Object.hasOwn(d.systems.versality.pending, 'vs-ana')")["systems"]["versality"]
    hand = drawn_kinds(app)
    app.reload()
    wait_engine(app)
    after = saved_document(app)["systems"]["versality"]
    assert json.dumps(after, sort_keys=True) == json.dumps(before, sort_keys=True)
    expect(app.locator("[data-testid=hand-card]")).to_have_count(3)
    assert drawn_kinds(app) == hand
    app.click("#vs-resolve")
    expect(result).to_have_attribute("data-final", min(hand, key=ORDER.index))

    # Buying a card adds it to the draw pile only: the discard stays (no free reshuffle
    # dodging the exhaustion penalty), the MJ's scale and tokens do not move.
    before = wait_saved(app, "d => !Object.hasOwn(d.systems.versality.pending, 'vs-ana')")["systems"]["versality"]
    goto_route(app, "versality/character/vs-ana")
    app.click("[data-testid=vs-improve-oui-mais]")
    expect(app.locator("[data-testid=vs-sheet-status]")).to_contain_text("mélangée dans la pioche")
    after = wait_saved(app, "d => Object.keys(d.systems.versality.decks['vs-ana'].cards).length === 9")
    after = after["systems"]["versality"]
    old, new = before["decks"]["vs-ana"], after["decks"]["vs-ana"]
    assert new["piles"]["discard"]["cards"] == old["piles"]["discard"]["cards"] != []
    assert len(new["piles"]["draw"]["cards"]) == len(old["piles"]["draw"]["cards"]) + 1
    assert len(new["cards"]) == 9
    assert (after["catastrophe"], after["tokens"]) == (before["catastrophe"], before["tokens"])


def test_list_duplicate_delete_with_confirmation_and_heal_an_ally(page, app_with):
    ana = character("vs-ana", "Ana")
    ana["wounds"]["mental"] = 1
    ana["wounds"]["physique"] = 1
    app = seed_table(app_with, [ana, character("vs-bo", "Bo"), character("vs-cy", "Cy")])
    goto_route(app, "versality")
    expect(app.locator("[data-testid=vs-char]")).to_have_count(3)
    no_horizontal_scroll(app)
    app.locator("[data-testid=vs-char][data-id=vs-bo]").get_by_role("button", name="Dupliquer").click()
    expect(app.locator("[data-testid=vs-char]")).to_have_count(4)
    expect(app.get_by_role("link", name="Copie de Bo")).to_be_visible()
    notice = app.locator("#notices").get_by_text("Copie de Bo est créé·e.")
    expect(notice).to_be_visible()
    doc = wait_saved(app, "d => d.characters.some((c) => c.name === 'Copie de Bo')")
    copied = next(c for c in doc["characters"] if c["name"] == "Copie de Bo")
    assert copied["created"] is True and copied["id"] != "vs-bo"
    copy = app.locator("[data-testid=vs-char]").nth(3)
    copy.get_by_role("button", name="Supprimer").click()
    copy.get_by_role("button", name="Annuler").click()
    expect(app.locator("[data-testid=vs-char]")).to_have_count(4)
    copy.get_by_role("button", name="Supprimer").click()
    app.click("[data-testid=vs-confirm-delete]")
    expect(app.locator("[data-testid=vs-char]")).to_have_count(3)
    doc = wait_saved(app, "d => d.characters.length === 3")
    assert [c["name"] for c in doc["characters"]] == ["Ana", "Bo", "Cy"]

    # Bo soulage Ana (never himself): a success heals her Mental wound, once per game.
    goto_route(app, "versality/character/vs-bo")
    # Transient status lines do not follow the player to another page.
    expect(notice).to_have_count(0)
    # The played sheet keeps a sensible order: power, traits, scores, deck, wounds, heal, progression.
    order = app.evaluate("""() => [...document.querySelectorAll('main h2, main legend')].map((e) => e.textContent.trim())""")
    expected = ["Pouvoir", "Forces et faiblesses", "Caractéristiques et compétences", "Deck de résolution (8)",
                "Blessures", "Soulager un allié", "Progression"]
    assert [h for h in order if h in expected] == expected, order
    # Bo plays a real Soulager test on the card table, then applies its outcome to Ana's wound.
    app.select_option("#vs-heal-ally", "vs-ana")
    app.select_option("#vs-heal-char", "mental")
    app.click("#vs-heal-test")
    expect(app.locator("[data-testid=vs-heal-box]")).to_contain_text("Soin d'Ana : blessure en Mental")
    expect(app.locator("#vs-test-skill")).to_have_value("soulager")
    expect(app.locator("[data-testid=vs-rule]")).to_have_attribute("data-rule", "worst")  # 2 + 0 − 2 = 0
    app.click("#vs-draw")
    app.click("#vs-resolve")
    final = app.locator("[data-testid=vs-result]").get_attribute("data-final")
    app.click("#vs-heal-apply")
    healed = final in ("oui-et", "oui", "oui-mais")
    expect(app.locator("[data-testid=vs-heal-result]")).to_contain_text(
        "une blessure en Mental est soignée" if healed else "Le soin sur Ana a échoué")
    expect(app.locator("#vs-heal-apply")).to_have_count(0)
    no_horizontal_scroll(app)
    doc = wait_saved(app, "d => d.log.length > 0 && d.log.at(-1).kind === 'versality.heal'")
    chars = {c["id"]: c for c in doc["characters"]}
    assert chars["vs-ana"]["wounds"]["mental"] == (0 if healed else 1) and chars["vs-bo"]["heal_used"] is True
    heal_log = doc["log"][-1]
    assert heal_log["kind"] == "versality.heal" and heal_log["request"]["outcome"] == final

    # Cy's test was played with physical cards: the manual fallback takes its result.
    goto_route(app, "versality/character/vs-cy")
    app.select_option("#vs-heal-ally", "vs-ana")
    app.select_option("#vs-heal-char", "physique")
    app.click("text=Test joué avec des cartes physiques")
    app.select_option("#vs-heal-outcome", "oui")
    app.click("#vs-heal-do")
    expect(app.locator("[data-testid=vs-sheet-status]")).to_contain_text("une blessure en Physique est soignée")
    expect(app.locator("[data-testid=vs-heal-used]")).to_be_visible()
    doc = wait_saved(app, "d => d.characters.find((c) => c.id === 'vs-cy').heal_used")
    chars = {c["id"]: c for c in doc["characters"]}
    assert chars["vs-ana"]["wounds"]["physique"] == 0 and chars["vs-cy"]["heal_used"] is True
    no_horizontal_scroll(app)


def test_player_pages_hold_no_mj_data_and_the_mj_screen_needs_its_switch(page, app_with):
    """What the player pages receive from the engine (the answers of the
    player calls, the player view) and what they show hold none of the MJ's data; the MJ
    screen opens only on "Je suis MJ", and a link, a reload or a player page does not
    get past it. Also: an incapacitated healer's buttons are disabled and say why, and a
    success card is bought with its compensation."""
    ana = character("vs-ana", "Ana")
    ana["improvement_points"] = 6
    dan = character("vs-dan", "Dan")
    dan["incapacitated"] = True
    dan["wounds"] = {"physique": 2, "mental": 1, "personnalite": 0}
    secret = {"catastrophe": 4937, "tokens": 7723, "session": 2, "awarded_session": None,
              "power_uses": [{"character_id": "vs-ana", "points": 5, "note": SECRET_NOTE}], "decks": {}, "pending": {}}
    app = seed_table(app_with, [ana, dan], secret)

    # The player calls, as the test page makes them: odds, draw, resolve, and the view.
    answers = app.evaluate(
        """async () => {
          const { app } = await import("./static/js/app.js");
          const { playerCall, playerView } = await import("./static/js/systems/versality/table.js");
          const c = app.doc.characters.find((x) => x.id === "vs-ana");
          const test = { character: c, characteristic: "physique", skill: "combattre", difficulty: "facile" };
          const odds = await playerCall(app, { op: "versality.test.odds", ...test });
          const draw = await playerCall(app, { op: "versality.test.draw", ...test, seed: 1 });
          const resolve = await playerCall(app, { op: "versality.test.resolve", character_id: c.id,
            choice: draw.test.drawn[0].id, seed: 2 });
          return { odds, draw, resolve, view: playerView(app) };
        }"""
    )
    text = json.dumps(answers)
    for leak in ("4937", "7723", SECRET_NOTE, "power_uses", '"catastrophe":'):
        assert leak not in text, leak
    assert set(answers["draw"]) == {"seed", "view", "test"} and set(answers["resolve"]) == {"seed", "view", "result"}
    assert set(answers["view"]) == {"session", "decks", "pending"}
    # The store did get the new state, MJ data kept.
    doc = wait_saved(app, "d => d.systems.versality.decks['vs-ana'] && d.systems.versality.decks['vs-ana'].piles.discard.cards.length === 1")
    assert (doc["systems"]["versality"]["catastrophe"], doc["systems"]["versality"]["tokens"]) == (4937, 7723)

    # What the player pages show.
    for route in ("versality", "versality/character/vs-ana", "versality/test/vs-ana", "versality/character/vs-dan"):
        goto_route(app, route)
        dom = app.inner_html("main")
        for leak in ("4937", "7723", SECRET_NOTE):
            assert leak not in dom, (route, leak)

    # Dan is incapacitated: he cannot soothe an ally, and his sheet says why.
    expect(app.locator("[data-testid=vs-heal-incapacitated]")).to_have_text(
        "En incapacité : ce personnage ne peut pas soulager un allié.")
    expect(app.locator("#vs-heal-test")).to_be_disabled()
    expect(app.locator("#vs-heal-test")).to_have_attribute("aria-describedby", "vs-heal-why")
    expect(app.locator("#vs-heal-do")).to_be_disabled()

    # Ana buys a oui-et (15 → 8 owed: 2 stay, a debt), then a second one: 3 would stay
    # owed, refused with the card to buy; with its non-mais compensation it goes through.
    goto_route(app, "versality/character/vs-ana")
    app.click("[data-testid=vs-improve-oui-et]")
    expect(app.locator("[data-testid=vs-improvement-points]")).to_have_text("3")
    app.click("[data-testid=vs-improve-oui-et]")
    status = app.locator("[data-testid=vs-sheet-status]")
    expect(status).to_contain_text("Cet achat laisserait 3 points d'échec à compenser")
    expect(status).to_contain_text("« Non, mais… »")
    expect(app.locator("[data-testid=vs-improvement-points]")).to_have_text("3")
    app.select_option("#vs-improve-compensation", "non-mais")
    app.click("[data-testid=vs-improve-oui-et]")
    expect(status).to_contain_text("avec sa compensation")
    expect(app.locator("[data-testid=vs-improvement-points]")).to_have_text("0")
    doc = wait_saved(app, "d => d.characters.find((c) => c.id === 'vs-ana').deck.length === 11")
    assert [k["kind"] for k in doc["characters"][-2]["deck"][-3:]] == ["oui-et", "oui-et", "non-mais"]

    # The MJ screen: on a player's device (the one choice says "Je joue") a link or a reload
    # shows the choice, not the values; "Je suis MJ", right there, shows them.
    goto_route(app, "versality")
    app.click("#vs-mj-link")
    unlock_mj(app)
    expect(app.locator("[data-testid=vs-tokens]")).to_have_text("7723")
    app.get_by_role("button", name="Je joue").click()
    expect(app.get_by_test_id("mj-hidden")).to_be_visible()
    assert "4937" not in app.inner_html("main")
    goto_route(app, "versality")
    expect(app.locator("#vs-mj-link")).to_be_hidden()
    app.goto(app.url.split("#")[0] + "#/versality/mj")
    app.reload()
    wait_engine(app)
    expect(app.get_by_test_id("mj-hidden")).to_be_visible()
    assert app.locator("[data-testid=vs-catastrophe]").count() == 0
    app.get_by_role("button", name="Je suis MJ").click()
    expect(app.locator("[data-testid=vs-catastrophe]")).to_have_text("4937")


def test_a_card_bought_on_a_sheet_opened_directly_reaches_the_deck_and_a_resolution_names_its_player(app_with):
    """The sheet held 9 cards and the table's deck 8 when the sheet was opened directly: it asked
    the player view (empty until its cache had an answer) whether the table had a deck, and
    skipped the sync. And the undo notice after a resolution read « Carte jouée par . »: a
    resolution sends only the character's id."""
    ana = character("vs-ana", "Ana")
    ana["improvement_points"] = 1
    state = versality_state.build_deck(versality_state.new_state(), ana, random.Random(5))
    app = app_with(new_table([ana], {"versality": state}), "versality/character/vs-ana")
    app.click("[data-testid=vs-improve-oui-mais]")
    expect(app.locator("[data-testid=vs-sheet-status]")).to_contain_text("mélangée dans la pioche")
    doc = wait_saved(app, "d => Object.keys(d.systems.versality.decks['vs-ana'].cards).length === 9")
    assert len(doc["characters"][0]["deck"]) == 9
    assert len(doc["systems"]["versality"]["decks"]["vs-ana"]["piles"]["draw"]["cards"]) == 9

    goto_route(app, "versality/test/vs-ana")
    app.select_option("#vs-test-char", "physique")
    app.select_option("#vs-test-skill", "combattre")
    app.select_option("#vs-test-diff", "conventionnelle")  # 2 + 1 − 2 = 1 card: it applies
    app.click("#vs-draw")
    expect(app.locator("#vs-resolve")).to_be_enabled()
    app.click("#vs-resolve")
    expect(app.locator("[data-testid=vs-result]")).to_be_visible()
    expect(app.locator("[data-testid=undo-toast]")).to_contain_text("Carte jouée par Ana")
    wait_saved(app, "d => !Object.hasOwn(d.systems.versality.pending, 'vs-ana')")
