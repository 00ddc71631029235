"""The first evening, the odds (a phone, 360×740): a system's core choices are on the first
screen, not behind "Plus d'options", and every table on the test page agrees with the headline.
Point Zéro: Tension and Surpassement are in sight; with Tension ticked, the headline's success
and the Surpassement comparison row of the chosen sacrifice are the same exact fraction, for
each allowed sacrifice, and the engine's own answer is the oracle."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import goto_route, no_horizontal_scroll, open_table
from first_evening_support import pz_sheet
from tablee.api import handle


def seed(page, site: str, characters: list[dict]) -> None:
    doc = handle({"op": "store.new", "name": "Premier soir", "language": "fr"})["document"]
    doc["characters"] = characters
    doc = handle({"op": "store.open", "document": doc})["document"]
    open_table(page, site, doc)


def engine_odds(tension: bool, sacrifice: int) -> dict:
    test = {"kind": "skill", "skill": 3, "attribute": 3, "difficulty": "moyen", "tension": tension, "sacrifice": sacrifice}
    return handle({"op": "pointzero.test.odds", "test": test})


def test_pointzero_tension_and_surpassement_in_sight_and_tables_agree_with_the_headline(page, site, guarded):
    seed(page, site, [pz_sheet()])
    goto_route(page, "pointzero/test/pz-eve")
    more = page.get_by_test_id("more-options")
    expect(more).not_to_have_attribute("open", "")
    tension = page.locator("#pz-t-tension")
    expect(tension).to_be_visible()  # not folded away
    expect(page.get_by_test_id("pz-surpassement")).to_be_visible()
    page.select_option("#pz-t-diff", "moyen")
    tension.check()
    success = page.get_by_test_id("pz-odds-success")
    oracle = engine_odds(True, 0)
    allowed = oracle["surpassement"]["allowed"]
    assert len(allowed) > 1  # Tension adds dice: there is something to compare
    expect(success).to_have_attribute("data-p", oracle["odds"]["success"]["p"])
    for sacrifice in allowed:
        page.check(f"#pz-sacrifice-{sacrifice}")
        want = engine_odds(True, sacrifice)["odds"]["success"]["p"]
        expect(success).to_have_attribute("data-p", want)
        row = page.locator(f"[data-testid=pz-compare] tr[data-sacrifice='{sacrifice}'] [data-p]").first
        expect(row).to_have_attribute("data-p", want)
        # The comparison rows are those of a test with Tension (more dice than without it).
        dice = {c["sacrifice"]: c["dice"] for c in engine_odds(True, sacrifice)["comparison"]}
        without = {c["sacrifice"]: c["dice"] for c in engine_odds(False, 0)["comparison"]}
        assert dice[0] > without[0]
        expect(page.locator("[data-testid=pz-compare] tbody tr")).to_have_count(len(dice))
    no_horizontal_scroll(page)
    # Unticked, the headline and the table go back to the test without Tension together.
    page.check("#pz-sacrifice-0")
    tension.uncheck()
    plain = engine_odds(False, 0)["odds"]["success"]["p"]
    expect(success).to_have_attribute("data-p", plain)
    compare = page.locator("[data-testid=pz-compare] tr[data-sacrifice='0'] [data-p]")
    if compare.count():
        expect(compare.first).to_have_attribute("data-p", plain)


def test_unicreon_skill_on_the_first_screen_and_combat_offers_the_characters_own_skill(app_with):
    """Unicreon's skill is on the test's first screen (it turns 83 % into 100 % on one test); in
    a passe d'armes the attacker's list is her own skills by name ("Escrime — Bon"), not the
    generic levels, and the headline's odds move with it as the engine says."""
    from unicreon_sheets import character, duel_state, go, seed_document

    bea = character("uc-bea", "Béa")
    bea["skills"] = [{"name": "Escrime", "level": "bon"}]
    state, _, _ = duel_state(bea)
    app = seed_document(app_with, [bea], state)
    go(app, "#/unicreon/test/uc-bea")
    expect(app.get_by_test_id("more-options")).not_to_have_attribute("open", "")
    skill = app.locator("#uc-t-skill")
    expect(skill).to_be_visible()
    expect(skill.locator("option").nth(1)).to_contain_text("Escrime — Bon")
    go(app, "#/unicreon/combat")
    app.check("#uc-a-weapon-i1")
    hit = app.locator("[data-testid=uc-odds-hit]")
    expect(hit).to_have_attribute("data-p", "55/144")
    own = app.locator("#uc-a-askill")
    expect(own).to_be_visible()
    expect(own.locator("option")).to_have_count(2)  # "Aucune" and her one skill, no generic level
    expect(own.locator("option").nth(1)).to_contain_text("Escrime — Bon")
    app.select_option("#uc-a-askill", "0:bon")
    expect(hit).not_to_have_attribute("data-p", "55/144")
    no_horizontal_scroll(app)
