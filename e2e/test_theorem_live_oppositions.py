"""A Théorem opposition between two players' characters, from their phones (three browser
contexts joined through the pages, e2e/test_live_moves.py's helpers): Léa proposes Alice
against Mo's Bob on her phone (a draw of both sides is not offered: it would be refused), Mo's
table page points him to his side and he draws it on his phone, Léa draws hers; the MJ's table
is the same ops on one device with the MJ's seeds, each side's base the MJ's record's sphere and
skill. Then Mo proposes one and the MK draws Alice's side on the MJ's device, as the MJ may
choose to.

Source: 003_0f8319d4d007e1fe.txt "3) Les actions d'opposition"; DESIGN.md principle 8.
"""

from __future__ import annotations

import sys

import pytest
from playwright.sync_api import expect

from browser_support import ROOT, wait_saved

sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "e2e"))

from live_support import feed_seeds, h, live_table, open_page, valid

pytestmark = pytest.mark.slow


def character(cid: str, name: str, spheres: dict, skills: list) -> dict:
    c = h({"op": "theorem.character.new", "id": cid, "name": name})["character"]
    return {**c, "spheres": spheres, "skills": skills, "des_ka": min(spheres.values()) + 1}


def test_two_players_draw_their_own_sides_of_an_opposition(devices, site):
    alice = character("alice", "Alice", {"animalite": 1, "humanite": 2, "divinite": 1}, [{"name": "Course", "level": 1}])
    bob = character("bob", "Bob", {"animalite": 3, "humanite": 4, "divinite": 2}, [{"name": "Pistage", "level": 2}])
    state = h({"op": "theorem.state.new", "seed": 5})["state"]
    piles = state["deck"]["piles"]
    top = ["baton-05", "coupe-valet", "epee-02"]
    for cid in top:
        piles["draw"]["cards"].remove(cid)
    piles["draw"]["cards"][0:0] = top
    doc = valid({"schema": 1, "app": "tablee", "name": "Soirée Théorem", "language": "fr",
                 "characters": [alice, bob], "log": [], "systems": {"theorem": state}, "settings": {}})
    mj, (lea, mo) = live_table(devices, site, doc, [("Léa", ["alice"]), ("Mo", ["bob"])])

    open_page(lea, site, "theorem/chase")
    lea.select_option("#th-a-who", "alice")
    lea.select_option("#th-b-who", "bob")
    expect(lea.get_by_test_id("th-a-base-sheet")).to_have_attribute("data-base", "3")
    expect(lea.locator("#th-opp-draw")).to_have_count(0)
    lea.click("#th-opp-start")
    table = wait_saved(mj, "d => d.systems.theorem.opposition && d.systems.theorem.opposition.result === null")
    held = table["systems"]["theorem"]["opposition"]
    assert (held["a"]["base"], held["b"]["base"]) == (3, 6)  # the MJ's records: 2 + 1, 4 + 2

    # Mo's table page says his side waits; on the chase page he may draw his side only.
    open_page(mo, site, "theorem/test/bob")
    mo.get_by_test_id("th-opp-waiting-here").get_by_role("link").click()
    box = mo.get_by_test_id("th-opp-waiting")
    expect(box.locator("#th-opp-side-a")).to_have_count(0)
    box.locator("#th-opp-side-b").click()
    wait_saved(mj, "d => d.systems.theorem.opposition.current.b !== undefined")
    # Léa draws Alice's side: valet de coupe then 2 d'épée (+10 + 2): 15 against Bob's 6 + 5.
    lea.get_by_test_id("th-opp-waiting").locator("#th-opp-side-a").click()
    table = wait_saved(mj, "d => d.systems.theorem.opposition.result !== null")
    assert table["systems"]["theorem"]["opposition"]["result"] == {
        "winner": "a", "score_a": 15, "score_b": 11, "level_a": "normale", "level_b": "echec"}
    for phone in (lea, mo):
        expect(phone.get_by_test_id("th-opp-waiting")).to_have_attribute("data-winner", "a")
    # The MJ's table is the same ops on one device with the MJ's seeds.
    seeds = feed_seeds(mj, "theorem.opposition.side")
    assert len(seeds) == 2
    same = h({"op": "theorem.opposition.start", "state": state, "a": held["a"], "b": held["b"],
              "sheets": table["characters"]})["state"]
    same = h({"op": "theorem.opposition.side", "state": same, "side": "b", "seed": seeds[0]})["state"]
    same = h({"op": "theorem.opposition.side", "state": same, "side": "a", "seed": seeds[1]})["state"]
    assert table["systems"]["theorem"] == same
    entries = [e for e in table["log"] if e.get("kind") == "theorem.opposition"]
    assert [e["member"]["name"] for e in entries] == ["Mo", "Léa"]

    # Mo proposes Bob against Alice; the MK chooses to draw Alice's side on the MJ's device.
    open_page(mo, site, "theorem/chase")
    mo.select_option("#th-a-who", "bob")
    mo.select_option("#th-b-who", "alice")
    mo.click("#th-opp-start")
    wait_saved(mj, "d => d.systems.theorem.opposition.result === null")
    open_page(mj, site, "theorem/chase")
    mj_box = mj.get_by_test_id("th-opp-waiting")
    expect(mj_box.locator("#th-opp-side-b")).to_have_text("Piocher pour Alice (MK)")
    mj_box.locator("#th-opp-side-b").click()
    wait_saved(mj, "d => d.systems.theorem.opposition.current.b !== undefined")
    expect(lea.get_by_test_id("th-opp-side-b")).to_have_attribute("data-drawn", "true")
    expect(lea.get_by_test_id("th-opp-waiting").locator("#th-opp-side-b")).to_have_count(0)
