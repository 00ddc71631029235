"""Unicreon tests: target, d66 resolution from given dice, exact odds, opposition.

Source: 004_12a5de9999b9d0ad.txt, "Résolution des actions" ("Tests et résolutions",
"Bonus/Malus"), "Tests avancés" ("Interprétation des résultats", "Tests en opposition") and
"Utilisation des objets" ("Objets usuels"). Readings: rules/README.md (Unicreon): d66 only,
skills lower the target (success when d66 ≥ characteristic + difficulty − skill).
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product
from typing import Any

from .data import DIFFICULTIES, DIFFICULTY_STEP, RESULT_BANDS, SKILL_LEVELS, band_for

__all__ = [
    "D66",
    "difficulty_value",
    "frac",
    "opposition_odds",
    "resolve_opposition",
    "resolve_test",
    "roll_d66",
    "target",
    "test_odds",
]

#: The 36 equally likely d66 outcomes (tens die, units die).
D66: tuple[tuple[int, int], ...] = tuple(product(range(1, 7), repeat=2))


def frac(f: Fraction) -> str:
    """An exact probability as the JSON string "num/den"."""
    return f"{f.numerator}/{f.denominator}"


def prob(f: Fraction) -> dict[str, Any]:
    return {"p": frac(f), "percent": round(float(f) * 100, 2)}


def roll_d66(rng: random.Random) -> list[int]:
    """Roll a d66: tens die then units die. Source: "Tests et résolutions"."""
    return [rng.randrange(6) + 1, rng.randrange(6) + 1]


def difficulty_value(difficulty: str = "moyen", *, bonus: int = 0, malus: int = 0, items: int = 0) -> int:
    """Difficulty after stacking steps. Source: "Bonus/Malus" (they add up) and "Objets usuels"
    (items lower the difficulty, e.g. Très difficile → Difficile with a cookbook).

    Not clamped: a ladder row beyond Impossible simply cannot be reached on a d66."""
    return DIFFICULTIES[difficulty] + DIFFICULTY_STEP * (malus - bonus - items)


def difficulty_label(value: int) -> str | None:
    """The ladder row with that value, if any."""
    for key, v in DIFFICULTIES.items():
        if v == value:
            return key
    return None


def target(value: int, difficulty: int = 0, skill: str | None = None) -> int:
    """Minimum d66 to succeed: characteristic + difficulty − skill.

    Source: "Tests et résolutions" (jet de d66 ≥ Caractéristique + difficulté); reading: skills lower
    the target (rules/README.md, Unicreon)."""
    return value + difficulty - (SKILL_LEVELS[skill] if skill else 0)


def resolve_test(tens: int, units: int, tgt: int) -> dict[str, Any]:
    """Resolve a test from the two dice: raw = d66, real = tens; success when raw ≥ target.

    The interpretation (Bof…Top) applies to a success. Source: "Interprétation des résultats";
    reading: 51 gives real 5, "Top !" (the table; the text's "Bien" contradicts it)."""
    raw = 10 * tens + units
    success = raw >= tgt
    return {
        "dice": [tens, units],
        "raw": raw,
        "real": tens,
        "target": tgt,
        "success": success,
        "band": band_for(tens) if success else None,
    }


def test_odds(tgt: int) -> dict[str, Any]:
    """Exact odds of a test by enumerating the 36 d66 outcomes."""
    counts = {band: 0 for band, _, _ in RESULT_BANDS}
    success = 0
    for t, u in D66:
        if 10 * t + u >= tgt:
            success += 1
            counts[band_for(t)] += 1
    return {
        "target": tgt,
        "success": prob(Fraction(success, 36)),
        "failure": prob(Fraction(36 - success, 36)),
        "bands": {band: prob(Fraction(n, 36)) for band, n in counts.items()},
    }


def resolve_opposition(
    a: dict[str, Any], b: dict[str, Any], *, modified: bool, initiator: str | None = None
) -> dict[str, Any]:
    """Resolve an opposition from two resolved tests (``resolve_test`` results).

    Source: "Tests en opposition". Plain form (same conditions, no bonus/malus): the higher raw
    result wins. Modified form: a side that fails its test cannot win; if both fail, the MJ
    chooses (draw or reroll); if both succeed the higher raw wins. Ties: the initiator wins,
    otherwise the MJ chooses. ``winner`` is "a", "b" or None with ``mj_choice`` True."""
    if modified:
        if a["success"] and not b["success"]:
            return {"winner": "a", "mj_choice": False, "reason": "only_a_succeeded"}
        if b["success"] and not a["success"]:
            return {"winner": "b", "mj_choice": False, "reason": "only_b_succeeded"}
        if not a["success"] and not b["success"]:
            return {"winner": None, "mj_choice": True, "reason": "both_failed"}
    if a["raw"] > b["raw"]:
        return {"winner": "a", "mj_choice": False, "reason": "higher_raw"}
    if b["raw"] > a["raw"]:
        return {"winner": "b", "mj_choice": False, "reason": "higher_raw"}
    if initiator in ("a", "b"):
        return {"winner": initiator, "mj_choice": False, "reason": "tie_initiator"}
    return {"winner": None, "mj_choice": True, "reason": "tie"}


def opposition_odds(
    target_a: int, target_b: int, *, modified: bool, initiator: str | None = None
) -> dict[str, Any]:
    """Exact odds of an opposition over the 36 × 36 pairs of d66."""
    counts = {"a": 0, "b": 0, "mj_choice": 0}
    for ta, ua in D66:
        ra = resolve_test(ta, ua, target_a)
        for tb, ub in D66:
            res = resolve_opposition(
                ra, resolve_test(tb, ub, target_b), modified=modified, initiator=initiator
            )
            counts[res["winner"] or "mj_choice"] += 1
    return {
        "a_wins": prob(Fraction(counts["a"], 1296)),
        "b_wins": prob(Fraction(counts["b"], 1296)),
        "mj_choice": prob(Fraction(counts["mj_choice"], 1296)),
    }
