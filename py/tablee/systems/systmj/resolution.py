"""SYSTMJ d100 tests: effective score, outcome and degree from the dice, exact odds.

Source: 000_d267ce9097809d3e.txt, 2.3 (a test is always on 100, 00 to 99), 2.3.1 (an
attribute in place of a missing skill, with the MJ's malus: Brutor), 2.3.2 (bonus/malus),
2.3.3 (1D100 or 2D10 tens and units; 00 critical failure; the exact score a critical
success whatever the modifiers; the test at 74). Readings (shared/rules/README.md, SYSTMJ):

* success when the roll is ≤ the effective score (score + every modifier);
* a roll equal to the **raw** score is a critical success, even above the effective score;
* 00 is a critical failure (checked first: a raw score of 0 cannot reach it, see below);
* the degree of a success splits the effective score in thirds: 01..⌊S/3⌋ de justesse,
  up to ⌊2S/3⌋ moyenne, above notable;
* "Extrêmement simple" is an automatic success and a score of 0 (Inapte) an automatic
  failure: no roll. Reading (ours): Inapte wins over "Extrêmement simple" (there is no
  competence at all to make it simple), and a raw 0 fails automatically for an attribute
  too (00 would be both the critical failure and the exact score).

Modifiers are a list so that a test can carry several (the MJ's bonus/malus, and later a
wear malus of the item used, issue 12): the effective score is the raw score plus their sum.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

__all__ = [
    "DEGREES",
    "OUTCOMES",
    "effective_score",
    "outcome_counts",
    "resolve",
    "roll_d100",
    "test_odds",
    "thirds",
]

#: Outcomes of a rolled test, worst first; a success also has a degree.
OUTCOMES = ("critical_failure", "failure", "success", "critical_success")
DEGREES = ("justesse", "moyenne", "notable")
#: The rows of an odds table, worst first.
ROWS = ("critical_failure", "failure", "justesse", "moyenne", "notable", "critical_success")


def effective_score(score: int, modifiers: list[int] | tuple[int, ...] = ()) -> int:
    """Score + bonus − malus (2.3.2); not clamped: above 99 every roll but 00 succeeds."""
    return score + sum(modifiers)


def thirds(effective: int) -> tuple[int, int]:
    """Upper bounds of "de justesse" and "moyenne" for an effective score (README reading)."""
    return effective // 3, (2 * effective) // 3


def roll_d100(rng: random.Random) -> tuple[int, int]:
    """2D10: tens then units, each 0..9; read together 00..99 (2.3.3)."""
    return rng.randrange(10), rng.randrange(10)


def automatic(score: int, *, automatic_success: bool = False) -> str | None:
    """``"automatic_failure"`` for a raw 0 (Inapte), ``"automatic_success"`` for
    "Extrêmement simple", else None (the dice decide)."""
    if score == 0:
        return "automatic_failure"
    if automatic_success:
        return "automatic_success"
    return None


def classify(roll: int, score: int, effective: int) -> tuple[str, str | None]:
    """(outcome, degree) of a roll 0..99 against a raw score ≥ 1 and its effective score."""
    if roll == 0:
        return "critical_failure", None
    if roll == score:
        return "critical_success", None
    if roll > effective:
        return "failure", None
    low, mid = thirds(effective)
    if roll <= low:
        return "success", "justesse"
    if roll <= mid:
        return "success", "moyenne"
    return "success", "notable"


def resolve(
    score: int,
    modifiers: list[int] | tuple[int, ...] = (),
    *,
    dice: tuple[int, int] | None = None,
    automatic_success: bool = False,
) -> dict[str, Any]:
    """A test from its dice (tens, units). Without a roll (automatic), ``dice`` is ignored."""
    eff = effective_score(score, modifiers)
    auto = automatic(score, automatic_success=automatic_success)
    base: dict[str, Any] = {"score": score, "effective": eff, "thirds": list(thirds(eff))}
    if auto:
        return {
            **base,
            "rolled": False,
            "dice": None,
            "roll": None,
            "outcome": auto,
            "degree": None,
            "success": auto == "automatic_success",
        }
    assert dice is not None
    tens, units = dice
    roll = 10 * tens + units
    outcome, deg = classify(roll, score, eff)
    return {
        **base,
        "rolled": True,
        "dice": [tens, units],
        "roll": roll,
        "outcome": outcome,
        "degree": deg,
        "success": outcome in ("success", "critical_success"),
    }


def outcome_counts(score: int, effective: int) -> dict[str, int]:
    """How many of the 100 rolls give each row (:data:`ROWS`), for a raw score ≥ 1.

    Counted from the rule's intervals (not by walking the rolls): 00 is the critical
    failure, the raw score the critical success, the other rolls 1..min(eff, 99) succeed
    and fall in the thirds. The tests check it against the 100-roll enumeration.
    """
    top = min(effective, 99)
    low, mid = thirds(effective)

    def span(a: int, b: int) -> int:
        """Rolls in a..b (within 1..top), the raw score excluded."""
        a, b = max(a, 1), min(b, top)
        if b < a:
            return 0
        return b - a + 1 - (1 if a <= score <= b else 0)

    counts = {
        "critical_failure": 1,
        "critical_success": 1,
        "justesse": span(1, low),
        "moyenne": span(low + 1, mid),
        "notable": span(mid + 1, top),
    }
    counts["failure"] = 100 - sum(counts.values())
    return {k: counts[k] for k in ROWS}


def test_odds(
    score: int, modifiers: list[int] | tuple[int, ...] = (), *, automatic_success: bool = False
) -> dict[str, Any]:
    """Exact chance of each outcome before the roll: {row: Fraction}, plus success overall."""
    eff = effective_score(score, modifiers)
    auto = automatic(score, automatic_success=automatic_success)
    if auto:
        rows = {k: Fraction(0) for k in ROWS}
        return {
            "effective": eff,
            "automatic": auto,
            "rows": rows,
            "success": Fraction(int(auto == "automatic_success")),
        }
    counts = outcome_counts(score, eff)
    rows = {k: Fraction(n, 100) for k, n in counts.items()}
    success = rows["justesse"] + rows["moyenne"] + rows["notable"] + rows["critical_success"]
    return {"effective": eff, "automatic": None, "rows": rows, "success": success}
