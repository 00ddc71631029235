"""Point Zéro's and Théorem's opposition forms, in a real browser at 360 px.

Point Zéro: the opposition form offers this character's Tension point and Surpassement (only
the sacrifices the rules allow), an NPC named by its skill and attribute code (never "ATT"),
and the MJ's table setting for Tension dice below the attribute changes the odds shown.
The odds on screen are checked against the rules package itself. Tables are seeded in
storage, not clicked through creation.
"""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import axe_findings, new_table, no_horizontal_scroll, saved_document, wait_saved
from tablee.api import handle


def seed(app_with, characters: list[dict], systems: dict | None = None):
    """The app opened on a table holding these characters and system states (one engine start)."""
    return app_with(new_table(characters, systems))


def go(page, route: str) -> None:
    page.goto(page.url.split("#")[0] + route)


def mira() -> dict:
    c = handle({"op": "pointzero.character.new", "id": "pz-mira", "name": "Mira"})["character"]
    c["attributes"][1]["level"] = 4  # ADR 4
    c["skills"] = [{"name": "Discrétion", "level": 3}]
    return c


def opp_odds(a: dict, b: dict) -> dict:
    r = handle({"op": "pointzero.opposition.odds", "a": a, "b": b})
    assert "error" not in r, r
    return r


def test_point_zero_opposition_offers_tension_surpassement_and_names_the_npc(app_with):
    state = handle({"op": "pointzero.state.new"})["state"]
    app = seed(app_with, [mira()], {"pointzero": state})
    go(app, "#/pointzero/test/pz-mira")
    expect(app.locator("#pz-oppose")).to_be_visible()
    app.select_option("#pz-t-attr", "1")  # Discrétion/ADR

    # The guard: Vigilance 3 / PER 3, named for the notation.
    app.fill("#pz-o-name", "Garde")
    app.press("#pz-o-name", "Tab")
    app.fill("#pz-o-skill-name", "Vigilance")
    app.press("#pz-o-skill-name", "Tab")
    app.select_option("#pz-o-code", "PER")
    a = {"kind": "skill", "skill": 3, "attribute": 4, "attribute_code": "ADR", "skill_name": "Discrétion"}
    b = {"kind": "skill", "skill": 3, "attribute": 3, "attribute_code": "PER", "skill_name": "Vigilance"}
    plain = opp_odds(a, b)
    expect(app.locator("[data-testid=pz-opp-a]")).to_have_attribute("data-p", plain["a_wins"]["p"])
    # Discrétion 3 below ADR 4: no die to sacrifice.
    expect(app.locator("#pz-o-sacrifice")).to_have_attribute("data-allowed", "0")

    # A Tension point: 5 dice, one may be sacrificed (5 − 1 ≥ ADR 4).
    app.check("#pz-o-tension")
    expect(app.locator("#pz-o-sacrifice")).to_have_attribute("data-allowed", "0,1")
    app.select_option("#pz-o-sacrifice", "1")
    with_point = opp_odds({**a, "tension": True, "sacrifice": 1}, b)
    expect(app.locator("[data-testid=pz-opp-a]")).to_have_attribute("data-p", with_point["a_wins"]["p"])
    assert with_point["a_wins"]["p"] != plain["a_wins"]["p"]
    no_horizontal_scroll(app)
    assert axe_findings(app) == []

    app.click("#pz-oppose")
    result = app.locator("[data-testid=pz-opp-result]")
    expect(result).to_be_visible()
    doc = wait_saved(app, "d => d.systems.pointzero.entries.length === 1 && d.log.some(e => e.kind === 'pointzero.opposition')")
    entry = next(e for e in doc["log"] if e["kind"] == "pointzero.opposition")
    assert entry["request"]["a"]["tension"] is True and entry["request"]["a"]["sacrifice"] == 1
    assert doc["systems"]["pointzero"]["entries"][0]["kind"] == "dice"
    expect(app.locator("[data-testid=pz-opp-notation-b]")).to_have_text("Vigilance/PER")
    expect(result).not_to_contain_text("ATT")
    replay = handle(entry["request"])
    assert len(replay["a"]["result"]["dice"]) == 4  # 3 + 2 Tension − 1 sacrificed
    expect(app.locator("[data-testid=pz-opp-total-a]")).to_have_text(str(replay["a"]["result"]["total"]))
    # The Tension point was spent by the roll: unticked again.
    expect(app.locator("#pz-o-tension")).not_to_be_checked()


def test_point_zero_tension_rule_is_a_table_setting(app_with):
    c = mira()
    c["skills"] = [{"name": "Discrétion", "level": 2}]  # Discrétion 2 / ADR 4
    state = handle({"op": "pointzero.state.new"})["state"]
    app = seed(app_with, [c], {"pointzero": state})

    go(app, "#/pointzero/mj")
    rule = app.locator("#pz-mj-tension-rule")
    expect(rule).to_have_attribute("data-rule", "missing_dice")
    rule.select_option("difference")
    wait_saved(app, "d => d.systems.pointzero.tension_rule === 'difference'")
    expect(rule).to_have_attribute("data-rule", "difference")
    no_horizontal_scroll(app)
    assert axe_findings(app) == []

    go(app, "#/pointzero/test/pz-mira")
    expect(app.locator("#pz-oppose")).to_be_visible()
    app.select_option("#pz-t-attr", "1")  # Discrétion/ADR
    app.check("#pz-o-tension")
    a = {"kind": "skill", "skill": 2, "attribute": 4, "attribute_code": "ADR", "skill_name": "Discrétion",
         "tension": True}
    b = {"kind": "skill", "skill": 3, "attribute": 3, "attribute_code": "ADR", "name": "PNJ"}
    literal = opp_odds({**a, "tension_rule": "difference"}, b)
    default = opp_odds(a, b)
    assert literal["a"]["plan"]["bonus"] == 2 and default["a"]["plan"]["bonus"] == 0
    expect(app.locator("[data-testid=pz-opp-a]")).to_have_attribute("data-p", literal["a_wins"]["p"])
    assert saved_document(app)["systems"]["pointzero"]["tension_rule"] == "difference"


# --------------------------------------------------------------------------- Théorem chase
def force_top(state: dict, *ids: str) -> dict:
    """The Théorem table with these cards on top of the numbered draw pile, in this order."""
    piles = state["deck"]["piles"]
    for cid in ids:
        for name in ("draw", "discard"):
            if cid in piles[name]["cards"]:
                piles[name]["cards"].remove(cid)
    piles["draw"]["cards"][0:0] = list(ids)
    return state


def test_theorem_chase_side_is_an_action_with_odds_before_each_draw(app_with):
    """Joshua (6, +1) against the dog (an NPC: 6, −1), target +5. The dog draws 4 de denier (9);
    the round's exact odds then show; Joshua announces his turn, sets the reine d'épée aside
    on his table page and draws 5 de coupe: 12, he wins the round (+1)."""
    josh = handle({"op": "theorem.character.new", "id": "th-josh", "name": "Joshua"})["character"]
    state = handle({"op": "theorem.state.new", "seed": 5})["state"]
    state = handle({"op": "theorem.chase.start", "state": state, "target": 5,
                    "a": {"name": "Joshua", "base": 6, "start": 1, "character_id": "th-josh"},
                    "b": {"name": "Le chien", "base": 6, "start": -1}})["state"]
    state = force_top(state, "denier-04", "epee-reine", "coupe-05")
    app = seed(app_with, [josh], {"theorem": state})
    go(app, "#/theorem/chase")
    expect(app.locator("[data-testid=th-round-panel]")).to_be_visible()
    # Before anyone draws: each side's own odds, no round odds yet (one deck, two draws).
    expect(app.locator("[data-testid=th-round-levels-a] li")).to_have_count(4)
    expect(app.locator("[data-testid=th-round-odds]")).to_have_count(0)
    expect(app.locator("#th-chase-round")).to_have_count(0)  # never both drawn in one go
    no_horizontal_scroll(app)
    assert axe_findings(app) == []

    app.click("#th-begin-b")
    doc = wait_saved(app, "d => d.systems.theorem.chase.current && d.systems.theorem.chase.current.b")
    assert doc["systems"]["theorem"]["chase"]["current"]["b"]["score"] == 9
    expected = handle({"op": "theorem.chase.odds", "state": doc["systems"]["theorem"]})["round"]
    odds = app.locator("[data-testid=th-round-odds]")
    expect(odds).to_have_attribute("data-a", expected["a"]["fraction"])
    expect(odds).to_have_attribute("data-tie", expected["tie"]["fraction"])

    app.click("#th-begin-a")
    wait_saved(app, "d => d.systems.theorem.pending['th-josh'] && d.systems.theorem.pending['th-josh'].chase === 'a'")
    expect(app.locator("[data-testid=th-pending]")).to_contain_text("Joshua")
    app.click("#th-draw")
    expect(app.locator("#th-figure-aside")).to_be_visible()
    app.click("#th-figure-aside")
    wait_saved(app, "d => (d.systems.theorem.aside['th-josh'] || []).includes('epee-reine')")
    app.click("#th-draw")
    result = app.locator("[data-testid=th-result]")
    expect(result).to_have_attribute("data-chase-side", "a")
    expect(result).to_have_attribute("data-score", "12")
    expect(result).to_have_attribute("data-round", "a")
    doc = wait_saved(app, "d => d.systems.theorem.chase.rounds.length === 1")
    rnd = doc["systems"]["theorem"]["chase"]["rounds"][0]
    assert (rnd["score_a"], rnd["score_b"], rnd["winner"], rnd["gain"]) == (12, 9, "a", 1)
    no_horizontal_scroll(app)
