"""Point Zéro: oppositions of any number of sides, the table's
reading of Tension dice below the attribute, contradictory declarations, NPC notation.

Source: 002_61483667e16cef6b.txt, "Test en opposition" («Deux personnages (ou plus) [...]
le vainqueur est celui qui obtient le résultat le plus élevé»), "test de Compétence"
(«chaque point d'écart octroie un bonus de +1 sur le total du jet de dé»).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from tablee.api import handle
from tablee.systems.pointzero import resolution as R


def _skill(skill: int, attribute: int, **extra) -> dict:
    return {"kind": "skill", "skill": skill, "attribute": attribute, **extra}


def _attr(attribute: int, **extra) -> dict:
    return {"kind": "attribute", "attribute": attribute, **extra}


def _oracle(sides: list[dict]) -> tuple[list[Fraction], Fraction]:
    """Every ordered outcome of every side's dice, each resolved by the rules themselves
    (``resolve`` for the totals, ``resolve_opposition_many`` for the winner)."""
    plans = [R.plan_test(s["kind"], s["attribute"], s.get("skill", 0)) for s in sides]
    per_side = []
    for p in plans:
        totals: dict[int, int] = {}
        for dice in product(range(1, 7), repeat=p.dice):
            t = R.resolve(p, list(dice), None)["total"]
            totals[t] = totals.get(t, 0) + 1
        per_side.append([(t, Fraction(n, 6**p.dice)) for t, n in totals.items()])
    wins = [Fraction(0)] * len(sides)
    tie = Fraction(0)
    for combo in product(*per_side):
        weight = Fraction(1)
        keys = []
        for p, (t, q) in zip(plans, combo, strict=True):
            weight *= q
            keys.append({"total": t, "skill": p.skill, "attribute": p.attribute})
        out = R.resolve_opposition_many(keys)
        if out["winner"] is None:
            tie += weight
        else:
            wins[out["winner"]] += weight
    return wins, tie


@pytest.mark.parametrize(
    "sides",
    [
        [_skill(3, 2), _attr(2), _skill(2, 3)],
        [_skill(2, 2), _skill(2, 2), _skill(2, 2)],  # all alike: perfect ties possible
        [_skill(2, 1), _attr(1), _skill(1, 2), _skill(3, 1)],
        [_attr(2), _attr(2), _skill(1, 2)],  # skill 1 wins every tie on the total
    ],
)
def test_n_way_odds_match_brute_force(sides):
    """Exact odds of each side winning, three and four sides, against enumerating every die."""
    r = handle({"op": "pointzero.opposition.odds", "sides": sides})
    assert "error" not in r, r
    wins, tie = _oracle(sides)
    assert [Fraction(s["wins"]["p"]) for s in r["sides"]] == wins
    assert Fraction(r["perfect_tie"]["p"]) == tie
    assert sum(wins) + tie == 1


def test_three_identical_sides_share_the_odds_literally():
    """Three sides of 1d6 keep 1 (skill 1, attribute 1): each wins with 1/6·Σ_t ((t−1)/6)² = 55/216;
    a perfect tie is the rest, 1 − 165/216 = 17/72."""
    r = handle({"op": "pointzero.opposition.odds", "sides": [_skill(1, 1)] * 3})
    assert [s["wins"]["p"] for s in r["sides"]] == ["55/216"] * 3
    assert r["perfect_tie"]["p"] == "17/72"
    assert [e["p"] for e in r["eventual"]] == ["1/3"] * 3


def test_two_sides_as_a_list_agree_with_a_and_b():
    a, b = _skill(5, 4, attribute_code="ADR"), _skill(3, 3, attribute_code="PER")
    pair = handle({"op": "pointzero.opposition.odds", "a": a, "b": b})
    many = handle({"op": "pointzero.opposition.odds", "sides": [a, b]})
    assert [s["wins"]["p"] for s in many["sides"]] == [pair["a_wins"]["p"], pair["b_wins"]["p"]]
    assert many["perfect_tie"]["p"] == pair["perfect_tie"]["p"]


def test_three_way_resolve_from_given_dice_and_tie_breaks():
    """Totals 7, 7, 5: the two sevens are split by skill (3 beats 2)."""
    sides = [_skill(2, 2), _skill(3, 2), _attr(1)]
    r = handle({"op": "pointzero.opposition.resolve", "sides": sides, "dice": [[3, 4], [4, 3, 1], [5]]})
    assert [s["result"]["total"] for s in r["sides"]] == [7, 7, 5]
    assert (r["winner"], r["reason"], r["margin"]) == (1, "skill", 0)
    # Same levels and totals on the top two: a perfect tie between them, the third out.
    r = handle({"op": "pointzero.opposition.resolve", "sides": [_skill(2, 2), _skill(2, 2), _attr(1)],
                "dice": [[3, 4], [4, 3], [6]]})
    assert (r["winner"], r["reason"], r["tied"]) == (None, "perfect_tie", [0, 1])


def test_n_way_roll_is_seeded_and_in_order():
    sides = [_skill(2, 2), _skill(3, 2), _attr(2), _skill(1, 1)]
    r1 = handle({"op": "pointzero.opposition.roll", "sides": sides, "seed": 11})
    r2 = handle({"op": "pointzero.opposition.roll", "sides": sides, "seed": 11})
    assert r1 == r2 and len(r1["sides"]) == 4
    dice = [[d["value"] for d in s["result"]["dice"]] for s in r1["sides"]]
    again = handle({"op": "pointzero.opposition.resolve", "sides": sides, "dice": dice})
    assert again["winner"] == r1["winner"]


def test_sides_and_pair_together_or_missing_are_refused():
    side = _skill(2, 2)
    for req in ({"sides": [side, side], "a": side}, {"a": side}, {}):
        r = handle({"op": "pointzero.opposition.odds", **req})
        assert r["error"]["code"] == "pointzero.opposition.sides", r
    r = handle({"op": "pointzero.opposition.resolve", "sides": [side, side, side], "dice": [[1, 2], [3, 4]]})
    assert r["error"]["code"] == "pointzero.opposition.dice_sides"


def test_tension_below_attribute_is_a_table_setting():
    """Acrobaties 2 / ADR 4 with a Tension point: 4 dice, all kept. ``missing_dice`` (the
    default): the Tension dice fill the missing dice, +0; ``difference`` (the literal «+1 par
    point de différence»): +2. With no Tension die both give the text's rule (+2 on 2 dice)."""
    test = {**_skill(2, 4), "tension": True, "difficulty": 10}
    default = handle({"op": "pointzero.test.odds", "test": test})["plan"]
    literal = handle({"op": "pointzero.test.odds", "test": {**test, "tension_rule": "difference"}})["plan"]
    assert (default["dice"], default["keep"], default["bonus"]) == (4, 4, 0)
    assert (literal["dice"], literal["keep"], literal["bonus"]) == (4, 4, 2)
    r = handle({"op": "pointzero.test.resolve", "test": {**test, "tension_rule": "difference"}, "dice": [1, 2, 3, 3]})
    assert r["result"]["total"] == 11 and r["result"]["success"] is True
    plain = {**_skill(2, 4), "difficulty": 10}
    for rule in R.TENSION_RULES:
        p = handle({"op": "pointzero.test.odds", "test": {**plain, "tension_rule": rule}})["plan"]
        assert (p["dice"], p["bonus"]) == (2, 2)


def test_tension_rule_is_kept_in_the_table_state_and_shown_to_players():
    state = handle({"op": "pointzero.state.new"})["state"]
    assert handle({"op": "pointzero.tension.view", "state": state})["view"]["tension_rule"] == "missing_dice"
    r = handle({"op": "pointzero.settings.tension_rule", "state": state, "tension_rule": "difference"})
    assert r["view"]["tension_rule"] == "difference" and "threshold" not in r["view"]
    state = r["state"]
    after = handle({"op": "pointzero.mj.new_scenario", "state": state, "threshold": 4})["state"]
    assert after["tension_rule"] == "difference" and after["entries"] == []
    bad = handle({"op": "pointzero.settings.tension_rule", "state": state, "tension_rule": "both"})
    assert bad["error"]["code"] == "request.invalid"


@pytest.mark.parametrize("extra", [{"skill": 3}, {"skill_name": "Discrétion"}, {"skill": 0}])
def test_attribute_test_naming_a_skill_is_refused_not_trimmed(extra):
    test = {**_attr(3), "difficulty": 10, **extra}
    for request in (
        {"op": "pointzero.test.odds", "test": test},
        {"op": "pointzero.test.resolve", "test": test, "dice": [1, 2, 3]},
        {"op": "pointzero.opposition.odds", "a": {**_attr(3), **extra}, "b": _attr(2)},
    ):
        r = handle(request)
        assert r["error"]["code"] == "pointzero.test.attribute_with_skill", r


def test_npc_side_without_an_attribute_code_has_no_made_up_notation():
    r = handle({"op": "pointzero.opposition.odds", "a": _skill(3, 3, attribute_code="ADR", skill_name="Discrétion"),
                "b": _skill(3, 3, name="Garde")})
    assert r["a"]["notation"] == "Discrétion/ADR"
    assert r["b"]["notation"] is None
    r = handle({"op": "pointzero.opposition.odds", "a": _skill(3, 3), "b": _attr(2, attribute_code="PER")})
    assert r["b"]["notation"] == "PER"
