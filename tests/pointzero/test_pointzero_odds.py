"""Exact odds (icepool) against brute-force enumeration, for every pool up to 8 dice.

The oracle enumerates every outcome of the dice rolled and applies the rule itself
(``resolution.resolve``, checked on the text's worked examples), so the odds are checked
against the rules, not against a second formula. Pools up to 5 dice enumerate the 6^n
ordered outcomes; 6 to 8 dice enumerate the sorted outcomes, each weighted by its number
of orderings (the same 6^n outcomes, grouped), which a test checks against the ordered
enumeration.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import factorial

import pytest

from tablee.api import handle
from tablee.systems.pointzero import resolution as R


def _orderings(outcome: tuple[int, ...]) -> int:
    n = factorial(len(outcome))
    for count in Counter(outcome).values():
        n //= factorial(count)
    return n


@cache
def outcomes(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every outcome of n d6 with its weight (ordered for n <= 5, grouped above)."""
    if n <= 5:
        return tuple((o, 1) for o in product(range(1, 7), repeat=n))
    return tuple((o, _orderings(o)) for o in combinations_with_replacement(range(1, 7), n))


def test_grouped_enumeration_is_the_ordered_one():
    for n in (3, 5, 6):
        grouped = Counter()
        for o, w in ((o, _orderings(o)) for o in combinations_with_replacement(range(1, 7), n)):
            grouped[o] += w
        ordered = Counter(tuple(sorted(o)) for o in product(range(1, 7), repeat=n))
        assert grouped == ordered


def brute_test(plan: R.Plan, difficulty: int) -> dict:
    den = 6**plan.dice
    success = crit_s = crit_f = 0
    totals: Counter = Counter()
    for dice, w in outcomes(plan.dice):
        r = R.resolve(plan, list(dice), difficulty)
        totals[r["total"]] += w
        success += w * r["success"]
        crit_s += w * (r["critical"] == "success")
        crit_f += w * (r["critical"] == "failure")
    return {
        "success": Fraction(success, den),
        "critical_success": Fraction(crit_s, den),
        "critical_failure": Fraction(crit_f, den),
        "margin": {t - difficulty: Fraction(c, den) for t, c in totals.items()},
    }


def plans_up_to_8_dice():
    """Every skill test whose pool is at most 8 dice: skill 1..8, attribute 1..8, with and
    without a Tension point, every allowed sacrifice; and every attribute test 1..8."""
    for attribute in range(1, 9):
        yield R.plan_test("attribute", attribute)
        for skill in range(1, 9):
            for tension in (False, True):
                dice = R.pool_size("skill", skill, tension)
                if dice > 8:
                    continue
                for s in R.surpassement_options("skill", dice, attribute)["allowed"]:
                    yield R.plan_test("skill", attribute, skill, sacrifice=s, tension=tension)


PLANS = list(plans_up_to_8_dice())


def test_the_grid_covers_differences_sacrifices_and_tension():
    assert any(p.difference_bonus for p in PLANS)
    assert any(p.sacrifice == 4 for p in PLANS)
    assert any(p.tension and p.sacrifice for p in PLANS)
    assert max(p.dice for p in PLANS) == 8
    assert len(PLANS) > 150


def _plan_id(p: R.Plan) -> str:
    return f"{p.kind}-s{p.skill}-a{p.attribute}-t{int(p.tension)}-x{p.sacrifice}"


@pytest.mark.slow
@pytest.mark.parametrize("plan", PLANS, ids=_plan_id)
def test_odds_match_enumeration(plan):
    # A difficulty in the middle of the range, and the two ends (criticals at the edges).
    for difficulty in {(plan.min_total + plan.max_total) // 2, plan.min_total, plan.max_total}:
        exact = R.test_odds(plan, difficulty)
        brute = brute_test(plan, difficulty)
        for key in ("success", "critical_success", "critical_failure"):
            assert Fraction(exact[key]["p"]) == brute[key], (key, difficulty)
        assert {m["margin"]: Fraction(m["p"]) for m in exact["margin"]} == brute["margin"]
        assert Fraction(exact["success"]["p"]) + Fraction(exact["failure"]["p"]) == 1


def test_lock_odds_are_literal():
    """Mécanique 6 / Adresse 4 [17], one die sacrificed: keep 4 of 5d6, + 2, need 15+."""
    r = handle({"op": "pointzero.test.odds", "test": {"kind": "skill", "skill": 6, "attribute": 4,
                                                     "difficulty": 17, "sacrifice": 1}})
    plan = R.plan_test("skill", 4, 6, sacrifice=1)
    assert Fraction(r["odds"]["success"]["p"]) == brute_test(plan, 17)["success"]
    assert r["odds"]["critical_failure"]["p"] == "1/7776"
    assert r["odds"]["critical_success"]["p"] == "1/7776"
    assert [c["sacrifice"] for c in r["comparison"]] == [0, 1, 2]


def brute_totals(plan: R.Plan) -> Counter:
    totals: Counter = Counter()
    for dice, w in outcomes(plan.dice):
        totals[R.resolve(plan, list(dice), None)["total"]] += w
    return totals


SIDES = [
    R.plan_test("skill", 4, 5),
    R.plan_test("skill", 3, 3),
    R.plan_test("skill", 4, 3),  # difference bonus
    R.plan_test("skill", 3, 6, sacrifice=2),
    R.plan_test("skill", 4, 6, tension=True),  # 8 dice
    R.plan_test("attribute", 3),
    R.plan_test("attribute", 4),
    R.plan_test("skill", 3, 8),
]


@pytest.mark.slow
@pytest.mark.parametrize("ia", range(len(SIDES)))
def test_opposition_odds_match_enumeration_of_both_pools(ia):
    a = SIDES[ia]
    ta = brute_totals(a)
    for b in SIDES:
        tb = brute_totals(b)
        wins = {"a": 0, "b": 0, None: 0}
        for x, wx in ta.items():
            for y, wy in tb.items():
                key_a = {"total": x, "skill": a.skill, "attribute": a.attribute}
                key_b = {"total": y, "skill": b.skill, "attribute": b.attribute}
                wins[R.resolve_opposition(key_a, key_b)["winner"]] += wx * wy
        den = 6**a.dice * 6**b.dice
        exact = R.opposition_odds(a, b)
        assert Fraction(exact["a_wins"]["p"]) == Fraction(wins["a"], den)
        assert Fraction(exact["b_wins"]["p"]) == Fraction(wins["b"], den)
        assert Fraction(exact["perfect_tie"]["p"]) == Fraction(wins[None], den)


def test_tie_breaks_skill_then_attribute_then_perfect_tie():
    """"Test en opposition": ties go to the higher skill, then the higher attribute."""
    k = lambda t, s, a: {"total": t, "skill": s, "attribute": a}  # noqa: E731
    assert R.resolve_opposition(k(12, 3, 3), k(12, 4, 2)) == {"winner": "b", "reason": "skill", "margin": 0}
    assert R.resolve_opposition(k(12, 4, 3), k(12, 4, 2)) == {"winner": "a", "reason": "attribute", "margin": 0}
    assert R.resolve_opposition(k(12, 4, 3), k(12, 4, 3))["winner"] is None
    # Equal levels: the tie on totals stays a perfect tie; re-rolling names a winner.
    same = R.opposition_odds(R.plan_test("skill", 3, 3), R.plan_test("skill", 3, 3))
    assert same["a_wins"] == same["b_wins"]
    assert same["perfect_tie"] == same["tie_on_total"] and same["tie_goes_to"] is None
    assert same["eventual"]["a_wins"]["p"] == "1/2"
    # Unequal skill: the tie on totals goes to the higher skill.
    higher = R.opposition_odds(R.plan_test("skill", 3, 4), R.plan_test("skill", 3, 3))
    assert higher["tie_goes_to"] == "a" and higher["perfect_tie"]["p"] == "0/1"
    assert Fraction(higher["a_wins"]["p"]) + Fraction(higher["b_wins"]["p"]) == 1


def test_seeded_roller_matches_the_exact_odds():
    """Chi-square of 12 000 seeded rolls (keep 3 of 5d6) against the exact distribution;
    outcomes expected fewer than 5 times are pooled. 99.9 % quantile of chi²(df) bounds it."""
    import random

    plan = R.plan_test("skill", 3, 5)
    rng = random.Random(20261122)
    n = 12_000
    counts = Counter(R.resolve(plan, R.roll_dice(plan, rng), None)["total"] for _ in range(n))
    exact = [(m["total"], Fraction(m["p"])) for m in R.test_odds(plan, 0)["margin"]]
    bins: list[tuple[float, int]] = []
    pooled_e, pooled_o = 0.0, 0
    for total, p in exact:
        pooled_e += n * float(p)
        pooled_o += counts[total]
        if pooled_e >= 5:
            bins.append((pooled_e, pooled_o))
            pooled_e, pooled_o = 0.0, 0
    if pooled_e:
        e, o = bins.pop()
        bins.append((e + pooled_e, o + pooled_o))
    chi2 = sum((o - e) ** 2 / e for e, o in bins)
    quantile_999 = {12: 32.91, 13: 34.53, 14: 36.12, 15: 37.70, 16: 39.25}[len(bins) - 1]
    assert sum(counts.values()) == n and chi2 < quantile_999
