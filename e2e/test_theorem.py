"""Théorem in a real browser at 360 px: a character made with a refused value at its field, the
starting arcana hand drawn face down then looked at and hidden, a simple action with its exact
odds, a figure set aside, an arcane paid in réalité, a chase of three rounds, and a reload that
finds every pile as it was. The deck is forced (through the saved document) where the journey
needs a given card."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, no_horizontal_scroll, put_table, saved_document, wait_engine
from browser_support import wait_saved_where as wait_saved

pytestmark = pytest.mark.slow

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe_serious(page) -> list[dict]:
    page.evaluate(AXE.read_text(encoding="utf-8"))  # not an inline <script>: the CSP refuses those
    return page.evaluate(
        """() => axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
            .filter(v => v.impact === "serious" || v.impact === "critical")
            .map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)})))"""
    )


def force_top(page, *ids: str) -> None:
    """Put these numbered cards on top of the MK's deck in the saved document, then reload."""
    doc = saved_document(page)
    piles = doc["systems"]["theorem"]["deck"]["piles"]
    for cid in ids:
        for name in ("draw", "discard"):
            if cid in piles[name]["cards"]:
                piles[name]["cards"].remove(cid)
    piles["draw"]["cards"][0:0] = list(ids)
    put_table(page, doc)


def character(page) -> dict:
    return next(c for c in saved_document(page)["characters"] if c["system"] == "theorem")


def open_more(page) -> None:
    """Unfold a test page's rarer settings (folds them in "Plus d'options")."""
    more = page.locator("[data-testid=more-options]")
    if more.get_attribute("open") is None:
        more.locator("summary").click()
    expect(more).to_have_attribute("open", "")


def test_theorem_journey(app):
    base = app.url.split("#")[0]
    app.goto(base + "#/theorem")
    expect(app.get_by_role("heading", name="Théorem", exact=True)).to_be_visible()
    app.fill("#th-new-name", "Joshua")
    app.click("#th-create")
    expect(app.locator("#th-spheres-humanite")).to_be_visible()
    wait_saved(app, "d.systems.theorem && d.characters.length === 1")
    # A sphere of 12 is refused at its field and the sheet keeps its 2.
    app.fill("#th-spheres-humanite", "12")
    app.press("#th-spheres-humanite", "Tab")
    expect(app.locator("[data-field='spheres.humanite']")).to_have_text(
        "La valeur doit être comprise entre 0 et 10 (ici 12)."
    )
    expect(app.locator("#th-spheres-humanite")).to_have_attribute("aria-invalid", "true")
    assert character(app)["spheres"]["humanite"] == 2
    app.fill("#th-spheres-humanite", "2")
    app.press("#th-spheres-humanite", "Tab")
    expect(app.locator("[data-field='spheres.humanite']")).to_have_text("")
    app.fill("#th-spheres-animalite", "4")
    app.press("#th-spheres-animalite", "Tab")
    wait_saved(app, "d.characters[0].spheres.animalite === 4")
    app.fill("#th-spheres-divinite", "3")
    app.press("#th-spheres-divinite", "Tab")
    wait_saved(app, "d.characters[0].spheres.divinite === 3")
    app.fill("#th-new-skill", "Escalade")
    app.click("#th-add-skill")
    wait_saved(app, "d.characters[0].skills.length === 1")
    app.fill("#th-skills-0-level", "2")
    app.press("#th-skills-0-level", "Tab")
    wait_saved(app, "d.characters[0].skills[0].level === 2")
    app.fill("#th-realite", "20")
    app.press("#th-realite", "Tab")
    wait_saved(app, "d.characters[0].realite === 20")
    expect(app.locator("[data-testid=th-ka-start]")).to_contain_text("3")
    no_horizontal_scroll(app)
    assert axe_serious(app) == []

    # The table: the starting hand of 3 arcana (Divinité), face down until its player looks.
    app.click("#th-to-table")
    expect(app.locator("[data-testid=th-odds]")).to_be_visible()
    expect(app.locator("#th-draw-hand")).to_be_enabled()
    app.click("#th-draw-hand")
    expect(app.locator("[data-testid=th-hand-back]")).to_have_count(3)
    wait_saved(app, "Object.values(d.systems.theorem.arcana)[0].piles.hand.cards.length === 3")
    expect(app.locator("[data-testid=th-hand-card]")).to_have_count(0)
    app.click("#th-look-hand")
    expect(app.locator("[data-testid=th-hand-card]")).to_have_count(3)
    hand = saved_document(app)["systems"]["theorem"]["arcana"][character(app)["id"]]["piles"]["hand"]["cards"]
    shown = [app.locator("[data-testid=th-hand-card]").nth(i).get_attribute("data-card-id") for i in range(3)]
    assert shown == hand
    app.click("#th-hide-hand")
    expect(app.locator("[data-testid=th-hand-card]")).to_have_count(0)
    expect(app.locator("[data-testid=th-hand-back]")).to_have_count(3)

    # A simple action: odds from the full deck first; a figure comes, set aside, then a 7.
    force_top(app, "coupe-reine", "baton-07")
    app.select_option("#th-skill", "Escalade")
    odds = app.locator("[data-testid=th-odds]")
    expect(odds).to_have_attribute("data-base", "6")
    expect(odds).to_have_attribute("data-remaining", "56")
    expect(app.locator("[data-testid=th-level-odds] li")).to_have_count(4)
    open_more(app)
    app.select_option("#th-exploit", "2")
    expect(odds).to_have_attribute("data-base", "8")
    app.select_option("#th-exploit", "0")
    expect(odds).to_have_attribute("data-base", "6")
    no_horizontal_scroll(app)
    app.click("#th-draw")
    expect(app.locator("[data-testid=th-decide]")).to_be_visible()
    expect(app.locator("[data-testid=th-awaiting-card]")).to_have_attribute("data-card-id", "coupe-reine")
    app.click("#th-figure-aside")
    expect(app.locator("[data-testid=th-aside-card]")).to_have_attribute("data-card-id", "coupe-reine")
    # The odds now come from the 55 cards left, the set-aside queen out of them.
    expect(odds).to_have_attribute("data-remaining", "55")
    app.click("#th-draw")
    result = app.locator("[data-testid=th-result]")
    expect(result).to_have_attribute("data-score", "13")
    expect(result).to_have_attribute("data-level", "normale")
    wait_saved(app, "d.log.some(e => e.kind === 'theorem.draw' && e.request.deck && e.request.seed >= 0)")

    # An arcane instead of a draw: 10, paid 5 réalité (20 → 15).
    app.click("#th-look-hand")
    expect(app.locator("[data-testid=th-arcane-value]")).to_have_count(3)
    app.locator("[data-testid=th-arcane-value]").first.click()
    expect(result).to_have_attribute("data-value", "10")
    expect(result).to_have_attribute("data-score", "16")
    wait_saved(app, "d.characters[0].realite === 15")
    expect(app.locator("[data-testid=th-stats]")).to_have_attribute("data-realite", "15")
    expect(app.locator("[data-testid=th-turn-used]")).to_be_visible()
    app.click("#th-hide-hand")
    assert axe_serious(app) == []

    # A chase of three rounds with the deck forced: a tie, the dog, then Joshua.
    app.goto(base + "#/theorem/chase")
    force_top(app, "baton-05", "coupe-05", "baton-04", "coupe-06", "baton-09", "coupe-02")
    app.fill("#th-a-name", "Joshua")
    app.fill("#th-b-name", "Chien")
    app.check("input[name=th-target][value='5']")
    app.click("#th-chase-start")
    expect(app.locator("[data-testid=th-chase]")).to_be_visible()
    for n in (1, 2, 3):
        app.click("#th-chase-round")
        expect(app.locator("[data-testid=th-round]")).to_have_count(n)
    totals = app.locator("[data-testid=th-chase-totals]")
    expect(totals).to_have_attribute("data-a", "1")
    expect(totals).to_have_attribute("data-b", "1")
    wait_saved(app, "d.systems.theorem.chase.rounds.length === 3 && d.log.filter(e => e.kind === 'theorem.chase').length === 3")
    no_horizontal_scroll(app)
    assert axe_serious(app) == []

    # Reload: every pile as it was, and shown the same.
    before = saved_document(app)["systems"]["theorem"]
    app.reload()
    wait_engine(app)
    expect(app.locator("[data-testid=th-round]")).to_have_count(3)
    assert saved_document(app)["systems"]["theorem"] == before
    app.goto(base + f"#/theorem/test/{character(app)['id']}")
    draw_count = len(before["deck"]["piles"]["draw"]["cards"])
    expect(app.locator("[data-testid=pile-draw]")).to_have_attribute("data-count", str(draw_count))
    expect(app.locator("[data-testid=th-aside-card]")).to_have_count(1)
    expect(app.locator("[data-testid=th-hand-back]")).to_have_count(2)
    expect(app.locator("[data-testid=th-hand-card]")).to_have_count(0)


def test_mk_hand_and_another_players_table_never_show_a_hidden_hand(app):
    base = app.url.split("#")[0]
    app.goto(base + "#/theorem")
    for name in ("Ana", "Bob"):
        app.fill("#th-new-name", name)
        app.click("#th-create")
        expect(app.locator("#th-name")).to_have_value(name)
        app.goto(base + "#/theorem")
    wait_saved(app, "d.systems.theorem && d.characters.length === 2")
    ana, bob = saved_document(app)["characters"]
    app.goto(base + f"#/theorem/test/{ana['id']}")
    app.click("#th-draw-hand")
    wait_saved(app, "d.systems.theorem.arcana[a] && d.systems.theorem.arcana[a].piles.hand.cards.length === 2", ana["id"])
    app.goto(base + "#/theorem/mk")
    app.select_option("#th-mk-size", "4")
    app.click("#th-mk-draw")
    wait_saved(app, "d.systems.theorem.arcana['@mk'] && d.systems.theorem.arcana['@mk'].piles.hand.cards.length === 4")
    expect(app.locator("[data-testid=th-mk-cards]")).to_have_count(0)
    no_horizontal_scroll(app)
    app.click("#th-mk-look")
    expect(app.locator("[data-testid=th-mk-cards] li")).to_have_count(4)
    app.click("#th-mk-hide")
    assert axe_serious(app) == []
    # Bob's table: Ana's hand and the MK's are nowhere on the page.
    app.goto(base + f"#/theorem/test/{bob['id']}")
    expect(app.locator("#th-draw-hand")).to_be_visible()
    doc = saved_document(app)["systems"]["theorem"]
    hidden = doc["arcana"][ana["id"]]["piles"]["hand"]["cards"] + doc["arcana"]["@mk"]["piles"]["hand"]["cards"]
    assert app.locator("[data-card-id^=arcane]").count() == 0
    page_text = app.content()
    assert not any(f'data-card-id="{c}"' in page_text for c in hidden)
    # Ana leaves the table: her arcana go with her, and the table still loads after a reload.
    app.goto(base + "#/theorem")
    row = app.locator("[data-testid=th-char]", has_text="Ana")
    row.get_by_role("button", name="Supprimer").click()
    app.click("[data-testid=th-confirm-delete]")
    wait_saved(app, "d.characters.length === 1 && !d.systems.theorem.arcana[a]", ana["id"])
    app.reload()
    wait_engine(app)
    expect(app.locator("[data-testid=th-char]")).to_have_count(1)
    # The engine answers in order: once the MK's hand shows, the saved table was checked too.
    app.goto(base + "#/theorem/mk")
    app.click("#th-mk-look")
    expect(app.locator("[data-testid=th-mk-cards] li")).to_have_count(4)
    expect(app.locator(".notice.error")).to_have_count(0)
    assert "@mk" in saved_document(app)["systems"]["theorem"]["arcana"]
