"""SYSTMJ in a real browser at 360 px: a PJ with the universe's special skill, a skill test
with its exact odds (its logged request replays to the same dice), a learning session with a
mentor, the end-of-session review granting experience, the Chronoste advanced by a day, and a
reload that finds everything as it was."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from browser_support import axe_findings, no_horizontal_scroll, saved_document, wait_engine
from browser_support import wait_saved_where as wait_saved
from tablee.api import handle  # the rules package (pythonpath "py"): replays the logged requests

pytestmark = pytest.mark.slow


def goto(page, route: str) -> None:
    page.goto(page.url.split("#")[0] + f"#/{route}")


def set_field(page, selector_or_locator, value: str) -> None:
    loc = page.locator(selector_or_locator) if isinstance(selector_or_locator, str) else selector_or_locator
    loc.fill(value)
    loc.press("Tab")


def char_js(cid: str) -> str:
    return f"d.characters.find(c => c.id === {json.dumps(cid)})"


def create(page, name: str) -> str:
    goto(page, "systmj")
    page.fill("#sj-new-name", name)
    page.click("#sj-create")
    expect(page.locator("#sj-name")).to_have_value(name)
    return page.url.split("#/systmj/character/")[1]


def test_journey_pj_test_learning_review_chronoste_and_reload(app):
    page = app
    goto(page, "systmj")
    expect(page.get_by_role("heading", name="SYSTMJ", exact=True)).to_be_visible()
    expect(page.locator("[data-testid=sj-status]")).to_contain_text("Jeu libre")
    no_horizontal_scroll(page)

    # The universe's special skill: an empty name is refused at the field, then "Forge" (DA 2).
    page.click("#sj-special-add")
    expect(page.locator("[data-testid=sj-error]")).to_have_text("Donnez un nom à la compétence.")
    page.fill("#sj-special-name", "Forge")
    page.select_option("#sj-special-da", "2")
    page.click("#sj-special-add")
    expect(page.locator("[data-testid=sj-specials]")).to_contain_text("Forge")
    doc = wait_saved(page, "d.systems.systmj && d.systems.systmj.universe.special_skills.length === 1")
    forge = doc["systems"]["systmj"]["universe"]["special_skills"][0]
    assert (forge["name"], forge["da"]) == ("Forge", 2)
    sp = forge["id"]

    # A PJ: language, attributes, skills; a bad value stays a message at its field.
    aldo = create(page, "Aldo")
    # Nothing flagged before anything is typed; the language left empty says so.
    expect(page.locator("[data-field=language]")).to_have_text("")
    page.focus("#sj-language")
    page.focus("#sj-name")
    expect(page.locator("[data-field=language]")).to_have_text("Un personnage maîtrise un langage : indiquez lequel.")
    set_field(page, "#sj-language", "Commun")
    expect(page.locator("[data-field=language]")).to_have_text("")
    set_field(page, "#sj-attributes-intelligence", "60")
    set_field(page, "#sj-attributes-personnalite", "50")
    set_field(page, "#sj-skills-detection", "74")
    expect(page.locator("[data-testid=sj-skills-detection-degree]")).to_have_text("Spécialiste")
    set_field(page, page.get_by_label("Forge", exact=True), "40")
    expect(page.locator(f"[data-testid=sj-special-{sp}-degree]")).to_have_text("Standard")
    set_field(page, "#sj-skills-nage", "abc")
    expect(page.locator("[data-field='skills.nage']")).to_have_text("Entrez un nombre entier.")
    expect(page.locator("#sj-skills-nage")).to_have_attribute("aria-invalid", "true")
    set_field(page, "#sj-attributes-chance", "120")
    expect(page.locator("[data-field='attributes.chance']")).to_have_text("Entrez un nombre entre 0 et 99.")
    doc = wait_saved(page, f"{char_js(aldo)}.special[{json.dumps(sp)}] === 40")
    pj = next(c for c in doc["characters"] if c["id"] == aldo)
    assert (pj["skills"]["nage"], pj["attributes"]["chance"], pj["skills"]["detection"]) == (0, 0, 74)
    assert pj["language"] == "Commun" and pj["kind"] == "pj"
    no_horizontal_scroll(page)
    assert axe_findings(page) == []

    # A mentor: a PNJ at Maîtrise in Forge.
    orsk = create(page, "Maître Orsk")
    page.select_option("#sj-kind", "pnj")
    expect(page.locator("#sj-kind")).to_have_value("pnj")
    set_field(page, "#sj-language", "Commun")
    set_field(page, "#sj-attributes-intelligence", "80")
    set_field(page, "#sj-attributes-personnalite", "70")
    set_field(page, page.get_by_label("Forge", exact=True), "60")
    wait_saved(page, f"{char_js(orsk)}.special[{json.dumps(sp)}] === 60 && {char_js(orsk)}.kind === 'pnj'")

    # A skill test: Détection 74 at Très difficile (−30): the odds first, then the roll.
    goto(page, f"systmj/test/{aldo}")
    page.select_option("#sj-t-pick", "skill:detection")
    page.select_option("#sj-t-mod", "tres_difficile")
    odds = page.locator("[data-testid=sj-odds]")
    expect(odds).to_have_attribute("data-effective", "44")
    expect(page.locator("[data-testid=sj-odds-success]")).to_have_attribute("data-p", "9/20")
    # The full distribution follows the roll button, outside the odds summary.
    expect(page.locator("[data-testid=sj-odds-table]")).to_contain_text("Réussite critique")
    no_horizontal_scroll(page)
    page.click("#sj-roll")
    result = page.locator("[data-testid=sj-result]")
    expect(result).to_be_visible()
    expect(page.locator("[data-testid=sj-verdict]")).not_to_be_empty()
    doc = wait_saved(page, "d.log.some(e => e.kind === 'systmj.test')")
    entry = next(e for e in doc["log"] if e["kind"] == "systmj.test")
    replay = handle(entry["request"])
    assert entry["request"]["subject"] == {"character": aldo, "target": "skill", "key": "detection", "session": 1}
    assert result.get_attribute("data-outcome") == replay["outcome"]
    assert entry["result"]["total"] == replay["roll"] and replay["effective"] == 44
    assert axe_findings(page) == []

    # A learning session in Forge with the mentor: limit ((60+50)/2 + (80+70)/2)/2 = 65.
    goto(page, f"systmj/learning/{aldo}")
    page.select_option("#sj-l-skill", sp)
    page.select_option("#sj-l-mode", "mentor")
    expect(page.locator("#sj-l-mentor-err")).to_have_text("Choisissez le mentor.")
    page.select_option("#sj-l-mentor", orsk)
    page.select_option("#sj-l-gain", "1d4")
    # The gain is the session's, the MJ's choice (2.4.1): kept in the table for every roll after.
    wait_saved(page, "d.systems.systmj.learning_gain === '1d4'")
    expect(page.locator("#sj-l-gain")).to_have_value("1d4")
    expect(page.locator("[data-testid=sj-l-odds]")).to_have_attribute("data-limit", "65")
    expect(page.locator("[data-testid=sj-l-odds]")).to_contain_text("+8")  # 4 × 2 from 60 up
    # The mean gain is written as French writes it, whatever the browser's own language.
    expect(page.locator("[data-testid=sj-l-odds]")).to_contain_text(re.compile(r"Gain moyen\u00a0: \d+,\d+ point"))
    no_horizontal_scroll(page)
    page.click("#sj-l-roll")
    learned = page.locator("[data-testid=sj-l-result]")
    expect(learned).to_be_visible()
    after = int(learned.get_attribute("data-after"))
    assert 40 <= after <= 48
    # The roll's log entry is a change of its own, saved after the sheet: wait for both.
    doc = wait_saved(page, f"{char_js(aldo)}.progress.length === 1 && d.log.some(e => e.kind === 'systmj.learning')")
    pj = next(c for c in doc["characters"] if c["id"] == aldo)
    assert pj["special"].get(sp, 0) == after and pj["progress"][0]["kind"] == "learning"
    learn_entry = next(e for e in doc["log"] if e["kind"] == "systmj.learning")
    assert handle(learn_entry["request"])["after"] == after

    # The end-of-session review: Détection was used (from the log); 1D4 for it, +5 PER with a reason.
    goto(page, "systmj/review")
    card = page.locator(f"[data-testid=sj-review-pj][data-id='{aldo}']")
    expect(card).to_contain_text("Détection")
    expect(card.locator(".sj-used")).to_have_count(1)
    expect(page.locator(f"[data-testid=sj-review-pj][data-id='{orsk}']")).to_have_count(0)  # PJs only
    card.locator("select[data-skill=detection]").select_option("1d4")
    card.get_by_label("Attribut", exact=True).select_option("personnalite")
    card.get_by_label("Points gagnés (1 à 10)").fill("5")
    card.get_by_role("button", name="Accorder").click()
    expect(card.locator(".field-error").filter(has_text="Un gain d'attribut demande la raison du MJ.")).to_be_visible()
    card.get_by_label("Raison du MJ").fill("Fin de campagne : maturité émotionnelle")
    card.get_by_role("button", name="Accorder").click()
    expect(card.locator("[data-testid=sj-granted]")).to_contain_text("Personnalité : 50 → 55")
    doc = wait_saved(page, f"{char_js(aldo)}.attributes.personnalite === 55 && d.log.some(e => e.kind === 'systmj.xp')")
    pj = next(c for c in doc["characters"] if c["id"] == aldo)
    assert 75 <= pj["skills"]["detection"] <= 78
    xp_entry = next(e for e in doc["log"] if e["kind"] == "systmj.xp")
    assert handle(xp_entry["request"])["results"][0]["after"] == pj["skills"]["detection"]
    no_horizontal_scroll(page)
    assert axe_findings(page) == []
    page.click("#sj-close-session")
    expect(page.locator("[data-testid=sj-status]")).to_contain_text("Session 2")

    # The Chronoste: one day with a note.
    goto(page, "systmj/chronoste")
    expect(page.locator("[data-testid=sj-now]")).to_contain_text("1er janvier, an 1 — 08:00")
    page.fill("#sj-c-amount", "x")
    page.click("#sj-c-advance")
    expect(page.locator("#sj-c-amount-err")).to_have_text("Entrez un nombre entier de 1 à 100000.")
    page.fill("#sj-c-amount", "1")
    page.select_option("#sj-c-unit", "days")
    page.fill("#sj-c-note", "Voyage vers Orsk")
    page.click("#sj-c-advance")
    expect(page.locator("[data-testid=sj-now]")).to_contain_text("2 janvier, an 1 — 08:00 (jour)")
    expect(page.locator("[data-testid=sj-history]")).to_contain_text("Voyage vers Orsk")
    expect(page.locator("[data-testid=sj-time]")).to_contain_text("2 janvier")
    no_horizontal_scroll(page)
    assert axe_findings(page) == []
    before = wait_saved(page, "d.systems.systmj.chronoste.day === 2 && d.systems.systmj.session === 2")

    # Reload: everything is where it was.
    page.reload()
    wait_engine(page)
    assert saved_document(page) == before
    expect(page.locator("[data-testid=sj-now]")).to_contain_text("2 janvier, an 1 — 08:00 (jour)")
    expect(page.locator("[data-testid=sj-history]")).to_contain_text("Voyage vers Orsk")
    goto(page, f"systmj/character/{aldo}")
    expect(page.get_by_label("Forge", exact=True)).to_have_value(str(after))
    expect(page.locator("#sj-attributes-personnalite")).to_have_value("55")
    expect(page.locator("[data-testid=sj-progress]")).to_contain_text("Fin de campagne")
    expect(page.locator("[data-testid=sj-status]")).to_contain_text("Session 2")
    goto(page, "systmj")
    expect(page.locator("[data-testid=sj-char-list]")).to_contain_text("Maître Orsk")
    expect(page.locator("[data-testid=sj-specials]")).to_contain_text("Forge")
    assert axe_findings(page) == []


def test_creature_phase_automatic_tests_brutor_and_delete(app):
    page = app
    # A créature has no language: the field is disabled once the kind is Créature.
    loup = create(page, "Loup gris")
    page.select_option("#sj-kind", "creature")
    expect(page.locator("#sj-language")).to_be_disabled()
    expect(page.locator("[data-field=language]")).to_have_text("")
    wait_saved(page, f"{char_js(loup)}.kind === 'creature' && {char_js(loup)}.language === ''")

    # Brutor: Force 70, no skill for tossing the caber, an attribute test with the MJ's −30.
    brutor = create(page, "Brutor")
    set_field(page, "#sj-attributes-force", "70")
    wait_saved(page, f"{char_js(brutor)}.attributes.force === 70")
    page.click("#sj-to-test")
    page.select_option("#sj-t-pick", "attribute:force")
    page.fill("#sj-t-sub", "30")
    page.press("#sj-t-sub", "Tab")
    expect(page.locator("#sj-t-sub-err")).to_have_text("Entrez 0 ou un malus entre −100 et 0.")
    expect(page.locator("#sj-roll")).to_be_disabled()
    page.fill("#sj-t-sub", "-30")
    page.press("#sj-t-sub", "Tab")
    expect(page.locator("[data-testid=sj-odds]")).to_have_attribute("data-effective", "40")
    expect(page.locator("[data-testid=sj-odds-success]")).to_have_attribute("data-p", "41/100")
    # A skill at 0 (Inapte) fails with no roll; "Extrêmement simple" succeeds with no roll.
    page.select_option("#sj-t-pick", "skill:nage")
    expect(page.locator("[data-testid=sj-odds]")).to_have_attribute("data-automatic", "automatic_failure")
    page.click("#sj-roll")
    expect(page.locator("[data-testid=sj-result]")).to_have_attribute("data-outcome", "automatic_failure")
    page.select_option("#sj-t-pick", "attribute:force")
    page.select_option("#sj-t-mod", "extremement_simple")
    expect(page.locator("[data-testid=sj-odds]")).to_have_attribute("data-automatic", "automatic_success")
    no_horizontal_scroll(page)

    # The phase of play, shown on every SYSTMJ screen.
    goto(page, "systmj")
    page.click("#sj-to-action")
    expect(page.locator("[data-testid=sj-phase]")).to_have_text("Action & Mouvement — tour 1")
    page.click("#sj-next-round")
    expect(page.locator("[data-testid=sj-phase]")).to_have_text("Action & Mouvement — tour 2")
    goto(page, f"systmj/character/{loup}")
    expect(page.locator("[data-testid=sj-phase]")).to_have_text("Action & Mouvement — tour 2")

    # Delete with a confirmation.
    goto(page, "systmj")
    row = page.locator("[data-testid=sj-char]").filter(has_text="Loup gris")
    row.get_by_role("button", name="Supprimer").click()
    page.click("[data-testid=sj-confirm-delete]")
    expect(page.locator("[data-testid=sj-char]").filter(has_text="Loup gris")).to_have_count(0)
    wait_saved(page, f"!{char_js(loup)} && d.systems.systmj.round === 2")
    expect(page.get_by_text("Loup gris est supprimé·e.")).to_be_visible()

    # Removing a special skill asks first, then drops its scores from every sheet.
    page.fill("#sj-special-name", "Chasse")
    page.click("#sj-special-add")
    goto(page, f"systmj/character/{brutor}")
    set_field(page, page.get_by_label("Chasse", exact=True), "35")
    wait_saved(page, f"Object.keys({char_js(brutor)}.special).length === 1")
    expect(page.get_by_text("Loup gris est supprimé·e.")).to_have_count(0)  # status lines stay on their page
    goto(page, "systmj")
    page.get_by_role("button", name="Retirer Chasse").click()
    expect(page.get_by_text("Retirer Chasse de la table, et ses scores de chaque fiche ?")).to_be_visible()
    page.click("[data-testid=sj-confirm-remove]")
    expect(page.locator("[data-testid=sj-specials]")).to_have_count(0)
    doc = wait_saved(page, "d.systems.systmj.universe.special_skills.length === 0")
    assert next(c for c in doc["characters"] if c["id"] == brutor)["special"] == {}
    assert axe_findings(page) == []
