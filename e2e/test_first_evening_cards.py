"""The first evening, round two: arcana and cards that start empty.

- Théorem: the text gives no arcana effects, the table writes them: the MK screen's editor
  counts them and opens a text box for each arcane the MK chooses to write; an arcane played "pour son effet"
  shows the effect the table wrote (before: only "joué pour son effet", the text nowhere).
- SYSTMJ: an empty card library says what each of the four families is for and opens a new
  card of the family chosen, each field explained under it (before: "Aucune carte pour
  l'instant." and a bare form).

Tables are seeded in storage (built with the real engine in CPython).
"""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import goto_route, no_horizontal_scroll, ok, open_table, saved_document, wait_saved


def table(characters=(), systems=None) -> dict:
    doc = ok({"op": "store.new", "name": "Soirée d'essai", "language": "fr"})["document"]
    doc["characters"] = list(characters)
    doc["systems"] = systems or {}
    return ok({"op": "store.open", "document": doc})["document"]


WIDTHS = (360, 1280)


def sized(page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 740 if width == 360 else 800})


def test_theorem_arcana_effects_written_at_once_and_shown_when_played(page, site, guarded):
    # One engine start: the effects are written once, and what they show is read at both widths
    # (the page resized).
    sized(page, 360)
    joshua = ok({"op": "theorem.character.new", "id": "th-josh", "name": "Joshua"})["character"]
    joshua["realite"] = 20
    state = ok({"op": "theorem.state.new", "seed": 7})["state"]
    state = ok({"op": "theorem.hand.draw", "state": state, "character": joshua, "seed": 3})["state"]
    open_table(page, site, table([joshua], {"theorem": state}), "theorem/mk")

    editor = page.get_by_test_id("th-effects")
    # Shown on demand: closed, then a text box only for each arcane the MK chooses to write.
    expect(editor).not_to_have_attribute("open", "")
    expect(page.get_by_test_id("th-effects-count")).to_have_text("(écrits : 0 sur 22)")
    editor.locator("summary").click()
    expect(editor.locator("textarea")).to_have_count(0)
    for i in range(22):
        page.select_option("#th-effect-pick", str(i))
        page.click("#th-effect-write")
        page.fill(f"#th-effect-{i}", f"Effet écrit par la table pour l'arcane {i}.")
    page.click("#th-save-effects")
    wait_saved(page, "d => d.systems.theorem.effects.every((e, i) => e.endsWith(`arcane ${i}.`))")
    for width in WIDTHS:
        sized(page, width)
        expect(page.get_by_test_id("th-effects-count")).to_have_text("(écrits : 22 sur 22)")
        if width == 360:
            no_horizontal_scroll(page)

    sized(page, 360)
    goto_route(page, "theorem/test/th-josh")
    page.click("#th-look-hand")
    cards = page.locator("[data-testid=th-hand-card]")
    expect(cards).to_have_count(2)
    first = cards.first.get_attribute("data-card-id")
    number = int(first.rsplit("-", 1)[1])
    page.locator("[data-testid=th-arcane-effect]").first.click()
    played = page.get_by_test_id("th-effect-played")
    for width in WIDTHS:
        sized(page, width)
        expect(played).to_have_attribute("data-arcane", str(number))
        expect(page.get_by_test_id("th-effect-text")).to_have_text(f"Effet écrit par la table pour l'arcane {number}.")
        expect(page.get_by_test_id("th-announce")).to_contain_text(f"pour l'arcane {number}.")
        if width == 360:
            no_horizontal_scroll(page)
    doc = wait_saved(page, "d => d.log.some(e => e.kind === 'theorem.arcane')")
    entry = next(e for e in doc["log"] if e["kind"] == "theorem.arcane")
    assert entry["result"]["summary"].endswith(f"Effet écrit par la table pour l'arcane {number}.")


def test_theorem_an_arcane_without_effect_says_where_it_is_written(page, site, guarded):
    joshua = ok({"op": "theorem.character.new", "id": "th-josh", "name": "Joshua"})["character"]
    joshua["realite"] = 20
    state = ok({"op": "theorem.state.new", "seed": 7})["state"]
    state = ok({"op": "theorem.hand.draw", "state": state, "character": joshua, "seed": 3})["state"]
    open_table(page, site, table([joshua], {"theorem": state}), "theorem/test/th-josh")
    page.click("#th-look-hand")
    page.locator("[data-testid=th-arcane-effect]").first.click()
    expect(page.get_by_test_id("th-effect-none")).to_contain_text("le MK l'écrit sur son écran")


def test_systmj_empty_library_explains_the_families_and_opens_one(page, site, guarded):
    open_table(page, site, table(), "systmj/cards")
    families = page.get_by_test_id("sj-family")
    expect(families).to_have_count(4)
    expect(families.nth(0)).to_contain_text("Équipement")
    expect(families.nth(0)).to_contain_text("porte, utilise ou manipule")
    expect(families.nth(2)).to_contain_text("Savoir")
    expect(families.nth(2)).to_contain_text("support d'une connaissance")
    expect(families.nth(3)).to_contain_text("difficulté d'apprentissage")
    no_horizontal_scroll(page)

    page.get_by_role("button", name="Créer une carte Savoir").click()
    form = page.get_by_test_id("sj-card-form")
    expect(form.get_by_role("heading", name="Nouvelle carte Savoir")).to_be_focused()
    expect(page.get_by_test_id("sj-family-for")).to_contain_text("support d'une connaissance")
    # Each field says what it is for (and a screen reader hears it with the field).
    expect(page.locator("#sj-cf-author")).to_have_accessible_description("Qui l'a écrit.")
    expect(page.locator("#sj-cf-type")).to_have_accessible_description(
        "Le support : livre, grimoire, parchemin, plan, recette, schéma…")
    expect(page.locator("#sj-cf-pu")).to_have_accessible_description(
        "Les points d'usure, de 0 (détruit) à 99 (parfait) : ils donnent l'état de l'objet et son malus.")
    no_horizontal_scroll(page)
    page.fill("#sj-cf-name", "Grimoire des ombres")
    page.click("#sj-card-save")
    wait_saved(page, "d => (d.systems.systmj?.library?.cards ?? []).length === 1")
    card = page.get_by_test_id("sj-card")
    expect(card).to_have_attribute("data-family", "savoir")
    expect(page.get_by_test_id("sj-empty-library")).to_have_count(0)
    assert saved_document(page)["systems"]["systmj"]["library"]["cards"][0]["family"] == "savoir"
