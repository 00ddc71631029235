"""Théorem oppositions from the sheet, their odds before the draw, and an opposition drawn side
by side (two players' characters, each drawing its own side).

Source: 003_0f8319d4d007e1fe.txt, "1) Les actions simples" (sphère + compétence), "3) Les
actions d'opposition"; readings: shared/rules/README.md (Théorem).
"""

from __future__ import annotations

from fractions import Fraction

from th_helpers import character, force_top

from tablee.api import handle
from tablee.systems.theorem import rules as R
from tablee.systems.theorem import state as S


def ok(request):
    answer = handle(request)
    assert "error" not in answer, answer
    return answer


def table(seed=1):
    return ok({"op": "theorem.state.new", "seed": seed})["state"]


#: Alice: Humanité 2 and Course 1, so a Humanité + Course side has base 3 (issue: the form left 6).
ALICE = character("alice", animalite=4, humanite=2, divinite=1, skills=[{"name": "Course", "level": 1}])
BOB = character("bob", animalite=3, humanite=4, divinite=2, skills=[{"name": "Pistage", "level": 2}])


def alice_side(**extra):
    return {"name": "Alice", "base": 6, "start": 0, "character_id": "alice", "sphere": "humanite",
            "skill": "Course", **extra}


def test_a_character_side_takes_its_base_from_the_sheet_not_the_typed_six():
    state = force_top(table(), "baton-04", "coupe-07")
    r = ok({"op": "theorem.opposition.draw", "state": state, "a": alice_side(),
            "b": {"name": "Garde", "base": 6, "start": 0}, "sheets": [ALICE], "seed": 1})["result"]
    assert (r["base_a"], r["value_a"], r["score_a"]) == (3, 4, 7)  # 2 + 1, not 6: 4 + 3
    assert (r["base_b"], r["value_b"], r["score_b"]) == (6, 7, 13)
    assert r["winner"] == "b" and r["b"]["level"] == "normale" and r["a"]["level"] == "echec"
    # No skill: the sphere alone (Animalité 4); the starting bonus still adds.
    r = ok({"op": "theorem.opposition.draw", "state": state, "a": alice_side(sphere="animalite", skill=None, start=2),
            "b": {"name": "Garde", "base": 6, "start": 0}, "sheets": [ALICE], "seed": 1})["result"]
    assert (r["base_a"], r["score_a"]) == (4, 10)


def test_a_side_naming_a_sphere_without_its_sheet_or_with_an_unknown_skill_is_refused():
    state = table()
    npc = {"name": "Garde", "base": 6, "start": 0}
    r = handle({"op": "theorem.opposition.draw", "state": state, "a": alice_side(), "b": npc, "seed": 1})
    assert r["error"]["code"] == "theorem.opposition.sheet" and r["error"]["params"]["side"] == "a"
    r = handle({"op": "theorem.opposition.draw", "state": state, "a": alice_side(skill="Vol"), "b": npc,
                "sheets": [ALICE], "seed": 1})
    assert r["error"]["code"] == "theorem.action.unknown_skill"
    r = handle({"op": "theorem.opposition.start", "state": state, "a": alice_side(), "b": alice_side(),
                "sheets": [ALICE]})
    assert r["error"]["code"] == "theorem.opposition.same"


def test_a_chase_carries_the_sheet_base_onto_the_characters_turn():
    state = table()
    state = ok({"op": "theorem.chase.start", "state": state, "a": alice_side(), "target": 5,
                "b": {"name": "Chien", "base": 6, "start": 0}, "sheets": [ALICE]})["state"]
    assert state["chase"]["a"]["base"] == 3
    r = ok({"op": "theorem.chase.begin", "state": state, "side": "a", "character": ALICE, "seed": 2})
    assert r["state"]["pending"]["alice"]["base"] == 3  # what her table page plays from


def test_the_odds_before_an_opposition_are_each_sides_exact_levels():
    state = force_top(table(), "baton-04")
    odds = ok({"op": "theorem.opposition.odds", "state": state, "a": alice_side(),
               "b": {"name": "Garde", "base": 6, "start": 1}, "sheets": [ALICE]})
    assert (odds["a"]["base"], odds["b"]["base"], odds["b"]["start"]) == (3, 6, 1)
    deck = state["deck"]
    dist = R.chain_distribution(R.deck_counts([deck["cards"][x] for x in deck["piles"]["draw"]["cards"]]))
    for key, base in (("a", 3), ("b", 7)):
        want = R.score_distribution(dist, base)
        got = {row["level"]: Fraction(row["fraction"]) for row in odds[key]["levels"]}
        assert got == want and sum(got.values()) == 1
    # The sheet's base (3), not the form's 6: Alice fails more often than the guard.
    fail = {k: Fraction(next(r for r in odds[k]["levels"] if r["level"] == "echec")["fraction"]) for k in "ab"}
    assert fail["a"] > fail["b"]


def test_an_opposition_drawn_side_by_side_is_the_same_as_drawn_at_once():
    state = force_top(table(), "coupe-valet", "coupe-03", "epee-09")
    b = {"name": "Bob", "base": 0, "start": 0, "character_id": "bob", "sphere": "humanite", "skill": "Pistage"}
    started = ok({"op": "theorem.opposition.start", "state": state, "a": alice_side(), "b": b,
                  "sheets": [ALICE, BOB]})["state"]
    assert started["opposition"]["b"]["base"] == 6 and started["opposition"]["result"] is None
    again = handle({"op": "theorem.opposition.start", "state": started, "a": alice_side(), "b": b,
                    "sheets": [ALICE, BOB]})
    assert again["error"]["code"] == "theorem.opposition.pending"
    # Bob draws first on his phone: valet de coupe then 3 de coupe (−10 − 3), then Alice: 9.
    first = ok({"op": "theorem.opposition.side", "state": started, "side": "b", "seed": 5})
    assert (first["score"], first["result"]) == (6 - 13, None)
    twice = handle({"op": "theorem.opposition.side", "state": first["state"], "side": "b", "seed": 5})
    assert twice["error"]["code"] == "theorem.opposition.side_drawn"
    second = ok({"op": "theorem.opposition.side", "state": first["state"], "side": "a", "seed": 6})
    res = second["result"]
    assert (res["score_a"], res["score_b"], res["winner"]) == (12, -7, "a")
    assert second["state"]["opposition"]["result"] == {"winner": "a", "score_a": 12, "score_b": -7,
                                                      "level_a": "normale", "level_b": "echec"}
    assert sorted(second["state"]["deck"]["piles"]["discard"]["cards"]) == ["coupe-03", "coupe-valet", "epee-09"]
    # Settled: a new one may start; nothing waits for a draw any more.
    none = handle({"op": "theorem.opposition.side", "state": second["state"], "side": "a", "seed": 6})
    assert none["error"]["code"] == "theorem.opposition.none"
    assert ok({"op": "theorem.opposition.start", "state": second["state"], "a": alice_side(), "b": b,
               "sheets": [ALICE, BOB]})["state"]["opposition"]["current"] == {}


def test_a_waiting_opposition_can_be_called_off_and_the_state_is_checked():
    state = table()
    started = ok({"op": "theorem.opposition.start", "state": state, "a": alice_side(),
                  "b": {"name": "Garde", "base": 6, "start": 0}, "sheets": [ALICE]})["state"]
    assert S.validate_state(started) == []
    cancelled = ok({"op": "theorem.opposition.cancel", "state": started})["state"]
    assert cancelled["opposition"] is None
    bad = dict(started, opposition={**started["opposition"], "current": {"c": {}}})
    r = handle({"op": "theorem.opposition.side", "state": bad, "side": "a", "seed": 1})
    assert r["error"]["code"] == "request.invalid"  # the state schema: no side "c"


def test_a_sides_draw_replays_from_its_seed_and_the_deck_it_used():
    """The log's "Vérifier / rejouer" of one side's draw (theorem.draw.replay, kind ``side``)."""
    state = force_top(table(), "denier-roi", "denier-06", "epee-09")
    started = ok({"op": "theorem.opposition.start", "state": state, "a": alice_side(),
                  "b": {"name": "Garde", "base": 6, "start": 0}, "sheets": [ALICE]})["state"]
    drawn = ok({"op": "theorem.opposition.side", "state": started, "side": "a", "seed": 9})
    again = ok({"op": "theorem.draw.replay", "kind": "side", "deck": drawn["deck_used"], "seed": 9})
    assert again["drawn"] == [["denier-roi", "denier-06"]] == [[c["id"] for c in drawn["chain"]]]
    assert drawn["score"] == 3 - 10 - 6
