"""Exact odds: brute-force oracle, literal fractions, bounds, and a seeded chi-square check."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from tablee.api import handle
from tablee.dice import keep_flags, parse, roll
from tablee.errors import RulesError
from tablee.odds import MAX_SPAN, distribution


def brute_force(text: str) -> dict[int, Fraction]:
    """Every face combination of every die, resolved independently of icepool."""
    e = parse(text)
    per_term: list[list[tuple[int, int]]] = []  # (value, weight) per term
    for term in e.terms:
        if term.kind == "const":
            per_term.append([(term.sign * term.constant, 1)])
        elif term.kind == "d66":
            per_term.append([(term.sign * (10 * t + u), 1) for t in range(1, 7) for u in range(1, 7)])
        elif term.kind == "d100":
            per_term.append([(term.sign * (10 * t + u), 1) for t in range(10) for u in range(10)])
        else:
            counts: Counter[int] = Counter()
            for faces in itertools.product(range(1, term.sides + 1), repeat=term.count):
                flags = keep_flags(faces, term.keep)
                counts[term.sign * sum(f for f, k in zip(faces, flags, strict=True) if k)] += 1
            per_term.append(sorted(counts.items()))
    totals: Counter[int] = Counter()
    for combo in itertools.product(*per_term):
        weight = 1
        for _, w in combo:
            weight *= w
        totals[sum(v for v, _ in combo)] += weight
    den = sum(totals.values())
    return {t: Fraction(w, den) for t, w in totals.items()}


SMALL = [
    f"{n}d{s}{mod}"
    for n in range(1, 5)
    for s in (2, 3, 4, 6)
    for mod in ["", *[f"kh{k}" for k in range(1, n + 1)], *[f"kl{k}" for k in range(1, n + 1)],
                *[f"dh{k}" for k in range(n)], *[f"dl{k}" for k in range(n)]]
]


@pytest.mark.parametrize("text", [*SMALL, "d66", "d100", "2d6-d4+3", "d66-d6", "-3d4kl2+10", "d100-d100"])
def test_odds_equal_brute_force(text):
    assert dict(distribution(parse(text))) == brute_force(text)


@pytest.mark.parametrize(
    ("request_", "checks"),
    [
        ({"expr": "2d6"}, {"p7": Fraction(1, 6), "mean": "7/1"}),
        ({"expr": "3d6", "at_least": 15}, {"at_least": Fraction(5, 54)}),
        ({"expr": "d100", "at_least": 50}, {"at_least": Fraction(1, 2)}),
        ({"expr": "4d6kh3"}, {"mean": "15869/1296"}),
        ({"expr": "d66", "at_least": 66}, {"at_least": Fraction(1, 36)}),
        ({"expr": "2d20kh1", "at_least": 20}, {"at_least": Fraction(39, 400)}),
        ({"expr": "d6", "at_least": 7}, {"at_least": Fraction(0)}),
        ({"expr": "d6", "at_least": -5}, {"at_least": Fraction(1)}),
    ],
)
def test_literal_fractions(request_, checks):
    r = handle({"op": "odds", **request_})
    assert "error" not in r, r
    if "p7" in checks:
        p7 = next(o["p"] for o in r["distribution"] if o["total"] == 7)
        assert Fraction(p7) == checks["p7"] and p7 == "1/6"
    if "mean" in checks:
        assert r["mean"] == checks["mean"]
    if "at_least" in checks:
        a = r["at_least"]
        assert a["n"] == request_["at_least"]
        assert Fraction(a["p"]) == checks["at_least"]
        assert a["p"] == f"{checks['at_least'].numerator}/{checks['at_least'].denominator}"
        assert a["percent"] == pytest.approx(float(checks["at_least"]) * 100)


def test_odds_response_shape():
    r = handle({"op": "odds", "expr": "d4+1"})
    assert r == {
        "expr": "d4+1", "min": 2, "max": 5, "mean": "7/2",
        "distribution": [{"total": t, "p": "1/4", "percent": 25.0} for t in range(2, 6)],
    }


@pytest.mark.parametrize("text", ["3d6", "4d6kh3", "d66+d100-7", "10d10dl3", "2d1000", "100d6kh50"])
def test_probabilities_sum_to_one_and_are_sorted(text):
    r = handle({"op": "odds", "expr": text})
    totals = [o["total"] for o in r["distribution"]]
    assert totals == sorted(totals) and len(set(totals)) == len(totals)
    assert sum(Fraction(o["p"]) for o in r["distribution"]) == 1
    assert all(Fraction(o["p"]) > 0 for o in r["distribution"])
    assert totals[0] == r["min"] and totals[-1] == r["max"]
    assert all(Fraction(o["p"]).denominator == int(o["p"].split("/")[1]) for o in r["distribution"])


def test_d66_is_not_a_66_sided_die():
    totals = [t for t, _ in distribution(parse("d66"))]
    assert len(totals) == 36 and 17 not in totals and 20 not in totals and totals[0] == 11


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("3d1000", "dice.odds_too_large"),
        ("100d1000", "dice.odds_too_large"),
        ("2d1000kh1", "dice.odds_keep_too_large"),
        ("100d10dl1", "dice.odds_keep_too_large"),
        ("50d10kh30+50d14kh40", "dice.odds_keep_too_large"),  # each term alone fits
        ("2d", "dice.incomplete"),
    ],
)
def test_odds_bounds(text, code):
    with pytest.raises(RulesError) as info:
        distribution(parse(text))
    assert info.value.code == code
    assert handle({"op": "odds", "expr": text})["error"]["code"] == code


def test_biggest_allowed_are_answered():
    assert parse("2d1000").max - parse("2d1000").min + 1 <= MAX_SPAN
    for text in ("2d1000", "100d6kh50", "100d10kh50"):
        assert "error" not in handle({"op": "odds", "expr": text})
    assert handle({"op": "odds", "expr": "3d6dh0"})["mean"] == "21/2"  # dh0 is a plain sum


# ---------------------------------------------------------------- seeded chi-square
# Critical values of the chi-square distribution at p = 0.001 for df degrees of freedom.
CHI2_CRIT_001 = {
    1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124,
    9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 13: 34.528, 14: 36.123, 15: 37.697,
    16: 39.252, 17: 40.790, 18: 42.312, 19: 43.820, 20: 45.315, 25: 52.620, 30: 59.703,
    35: 66.619, 40: 73.402, 50: 86.661, 60: 99.607, 70: 112.317, 80: 124.839, 99: 148.230,
}


def _crit(df: int) -> float:
    return CHI2_CRIT_001[min(k for k in CHI2_CRIT_001 if k >= df)]  # conservative upper neighbour


def _pooled_bins(dist: list[tuple[int, Fraction]], n: int) -> list[list[int]]:
    """Adjacent totals merged until every bin expects at least 5 rolls."""
    bins: list[list[int]] = []
    acc: list[int] = []
    expected = 0.0
    for total, p in dist:
        acc.append(total)
        expected += float(p) * n
        if expected >= 5:
            bins.append(acc)
            acc, expected = [], 0.0
    if acc:
        bins[-1].extend(acc)
    return bins


def _chi_square(dist: list[tuple[int, Fraction]], observed: Counter[int], n: int) -> tuple[float, int]:
    probs = dict(dist)
    stat = 0.0
    bins = _pooled_bins(dist, n)
    for b in bins:
        exp = sum(float(probs[t]) for t in b) * n
        obs = sum(observed[t] for t in b)
        stat += (obs - exp) ** 2 / exp
    return stat, len(bins) - 1


@pytest.mark.slow
@pytest.mark.parametrize(("text", "seed"), [("3d6", 11), ("4d6kh3", 12), ("d66", 13), ("2d10dl1+d4-2", 14)])
def test_seeded_rolls_match_exact_odds(text, seed):
    n = 20_000
    e = parse(text)
    dist = distribution(e)
    rng = random.Random(seed)
    observed = Counter(roll(e, rng).total for _ in range(n))
    stat, df = _chi_square(dist, observed, n)
    assert df >= 1
    assert stat < _crit(df), (text, stat, df)


def test_chi_square_detects_a_wrong_distribution():
    """The statistic above would catch a biased roller (guards the test itself)."""
    n = 20_000
    dist = distribution(parse("3d6"))
    rng = random.Random(1)
    observed = Counter(sum(rng.randrange(1, 6) for _ in range(3)) + 1 for _ in range(n))  # 3d5+1
    stat, df = _chi_square(dist, observed, n)
    assert stat > _crit(df)
