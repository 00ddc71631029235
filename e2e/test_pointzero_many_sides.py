"""Point Zéro oppositions of three sides or more, in a real browser at 360 px.

Source: 002, "Test en opposition": « Deux personnages (ou plus) [...] le vainqueur est celui
qui obtient le résultat le plus élevé ». The opposition form adds sides (characters or NPCs)
up to 8 and removes them; each side's exact odds of winning and the perfect-tie share are
shown before the roll and equal the rules package's; a roll with a forced seed names the
winner the rules package names for that seed. The table is seeded in storage.
"""

from __future__ import annotations

from fractions import Fraction

from playwright.sync_api import expect

from browser_support import force_next_seed, new_table, no_horizontal_scroll, wait_saved
from tablee.api import handle


def mira() -> dict:
    c = handle({"op": "pointzero.character.new", "id": "pz-mira", "name": "Mira"})["character"]
    c["attributes"][1]["level"] = 4  # ADR 4
    c["skills"] = [{"name": "Discrétion", "level": 3}]
    return c


def npc(name: str, skill: int, attribute: int) -> dict:
    return {"kind": "skill", "skill": skill, "attribute": attribute, "name": name, "attribute_code": "ADR"}


#: Mira's Discrétion 3 / ADR 4, the default NPC (skill 3, attribute 3), and a sentinel (2 / 5).
SIDES = [npc("Mira", 3, 4), npc("PNJ", 3, 3), npc("Sentinelle", 2, 5)]


def winning_seed(index: int) -> int:
    """A seed for which side ``index`` wins, found with the rules package itself."""
    for seed in range(500):
        r = handle({"op": "pointzero.opposition.roll", "sides": SIDES, "seed": seed})
        if r["winner"] == index:
            return seed
    raise AssertionError("no seed")


def test_three_sides_show_the_engines_odds_and_the_forced_roll_names_its_winner(app_with):
    state = handle({"op": "pointzero.state.new"})["state"]
    app = app_with(new_table([mira()], {"pointzero": state}), route="pointzero/test/pz-mira")
    expect(app.locator("#pz-oppose")).to_be_visible()
    app.select_option("#pz-t-attr", "1")  # Discrétion/ADR
    expect(app.locator("[data-testid=pz-opp-a]")).to_be_visible()  # two sides: the a/b form

    # Add sides up to 8 (then no more), and remove them back to three.
    for _ in range(6):
        app.click("#pz-o-add")
    expect(app.locator("[data-testid=pz-opp-count]")).to_contain_text("8 camps")
    expect(app.locator("#pz-o-add")).to_be_disabled()
    for n in range(8, 3, -1):
        app.click(f"#pz-o-remove-{n}")
    expect(app.locator("[data-testid=pz-opp-count]")).to_contain_text("3 camps")
    expect(app.locator("#pz-o-add")).to_be_enabled()

    # The third side: an NPC, Sentinelle, skill 2 and attribute 5.
    app.fill("#pz-o-name-3", "Sentinelle")
    app.press("#pz-o-name-3", "Tab")
    app.fill("#pz-o-skill-level-3", "2")
    app.press("#pz-o-skill-level-3", "Tab")
    app.fill("#pz-o-attr-level-3", "5")
    app.press("#pz-o-attr-level-3", "Tab")

    odds = handle({"op": "pointzero.opposition.odds", "sides": SIDES})
    wins = [s["wins"]["p"] for s in odds["sides"]]
    assert sum(Fraction(p) for p in wins) + Fraction(odds["perfect_tie"]["p"]) == 1
    for i, p in enumerate(wins):
        expect(app.locator(f"[data-testid=pz-opp-side-{i}]")).to_have_attribute("data-p", p)
    expect(app.locator("[data-testid=pz-opp-tie]")).to_have_attribute("data-p", odds["perfect_tie"]["p"])
    expect(app.locator("[data-testid=pz-opp-a]")).to_have_count(0)
    no_horizontal_scroll(app)

    seed = winning_seed(2)
    force_next_seed(app, seed)
    app.click("#pz-oppose")
    result = app.locator("[data-testid=pz-opp-result]")
    expect(result).to_have_attribute("data-winner", "2")
    expect(app.locator("[data-testid=pz-opp-verdict]")).to_contain_text("Sentinelle l'emporte")
    doc = wait_saved(app, "d => d.log.some(e => e.kind === 'pointzero.opposition')")
    entry = next(e for e in doc["log"] if e["kind"] == "pointzero.opposition")
    assert entry["request"]["seed"] == seed and len(entry["request"]["sides"]) == 3
    replay = handle(entry["request"])
    assert replay["winner"] == 2
    for i, side in enumerate(replay["sides"]):
        expect(app.locator(f"[data-testid=pz-opp-total-{i}]")).to_have_text(str(side["result"]["total"]))
