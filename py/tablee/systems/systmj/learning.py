"""SYSTMJ learning (2.4) and experience (2.4.4): cognitive limit, DA, learning roll and its
quality, the gain and its XP multiplier, the end-of-session experience.

Source: 000_d267ce9097809d3e.txt, 2.4.1 (the gain the MJ chooses: 1 point, 1D4, 1D10,
1D20), 2.4.2 (1D100 capped at the cognitive limit), 2.4.3 (limits by mentorat and by
self-study, the DA table, the mentor's Maîtrise, "un mentor peut initier un PJ Inapte",
the quality table), 2.4.4 (+1 or 1D2, 1D4, 1D6… per skill at the end of a session;
attributes only by the MJ's decision, justified by the story) and 3.4.2.
Readings (shared/rules/README.md, SYSTMJ): the gain is multiplied by the table's XP
multiplier (×1 from 1 to 59), a 0 gives nothing; scores never exceed 99.
Readings (ours): the limits are rounded down (as every SYSTMJ score, README); the mentor's
limit is ⌊(INT + PER + INT_m + PER_m) / 4⌋, which is the text's formula computed exactly
before rounding; a skill already at 99 cannot be studied (``systmj.learning.at_max``).
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

from ...errors import RulesError, declare
from . import data as D

__all__ = [
    "apply_gain",
    "cognitive_limit",
    "gain_distribution",
    "learning_plan",
    "resolve_learning",
    "roll_die",
    "xp_grant",
]

declare(
    "systmj.learning.da_refused",
    "systmj.learning.mentor_level",
    "systmj.learning.at_max",
    "systmj.learning.once_per_session",
    "systmj.xp.reason_missing",
)


def check_once_per_session(key: str, session: int, learned: list[dict[str, Any]]) -> None:
    """One learning roll per skill per session; raises ``systmj.learning.once_per_session``.

    Source: 000_d267ce9097809d3e.txt, 2.4.1: « Le test d’apprentissage nécessite, par principe,
    une période et un cadre dédiés à l’étude ou à l’entraînement » and « Le MJ pourra alors
    lui accorder, par exemple, un jet d’apprentissage quotidien » (one roll for one period of
    study). Reading (ours, issue 24): the period is the game session, so a skill gets one
    learning roll per session; ``learned`` lists the character's learning rolls already made
    ({session, key}, the sheet's ``progress`` entries of kind "learning").

    A Pouvoir card is a special skill learned the same way (4.4: « les PJ auront plus
    fréquemment la possibilité de les intégrer à travers un processus d'Apprentissage (voir
    2.4. …) »): the same limit applies to it, with the card's number as ``key`` and the
    learner's progress entries of target "pouvoir" as ``learned`` (ops_cards, checked by the
    engine from the learner's sheet in the request).
    """
    for entry in learned:
        if entry.get("session") == session and entry.get("key") == key:
            raise RulesError("systmj.learning.once_per_session", key=key, session=session)


def cognitive_limit(intelligence: int, personnalite: int, mentor: tuple[int, int] | None = None) -> int:
    """Self-study: ⌊(INT + PER) / 2⌋; with a mentor: ⌊((INT + PER)/2 + (INT_m + PER_m)/2) / 2⌋."""
    if mentor is None:
        return (intelligence + personnalite) // 2
    return (intelligence + personnalite + mentor[0] + mentor[1]) // 4


def learning_plan(
    *,
    score: int,
    intelligence: int,
    personnalite: int,
    da: int,
    mentor: dict[str, int] | None = None,
) -> dict[str, Any]:
    """Who may learn and with which limit; raises the rule's refusal.

    Self-study needs the skill at the DA's minimum (a Débutant cannot train alone); a mentor
    needs the skill at Maîtrise (51+) and lifts the DA condition, even for an Inapte student.
    """
    if score >= D.SCORE_MAX:
        raise RulesError("systmj.learning.at_max", score=score)
    if mentor is None:
        minimum = D.DA_TABLE[da]["minimum"]
        if score < minimum:
            raise RulesError(
                "systmj.learning.da_refused", da=da, minimum=minimum, score=score, degree=D.DA_TABLE[da]["degree"]
            )
        limit = cognitive_limit(intelligence, personnalite)
    else:
        if mentor["score"] < D.MENTOR_MINIMUM:
            raise RulesError("systmj.learning.mentor_level", score=mentor["score"], minimum=D.MENTOR_MINIMUM)
        limit = cognitive_limit(intelligence, personnalite, (mentor["intelligence"], mentor["personnalite"]))
    return {"mode": "mentor" if mentor else "self", "limit": limit, "da": da}


def apply_gain(score: int, points: int) -> int:
    """The new score: never past 99 (README)."""
    return min(D.SCORE_MAX, score + points)


def resolve_learning(score: int, limit: int, roll: int, gain_value: int) -> dict[str, Any]:
    """A learning roll (0..99) lowered to the limit, its quality and the points gained."""
    capped = min(roll, limit)
    quality, multiplier = D.learning_quality(capped)
    points = gain_value * multiplier
    after = apply_gain(score, points)
    return {
        "roll": roll,
        "capped": capped,
        "lowered": capped < roll,
        "quality": quality,
        "multiplier": multiplier,
        "gain_value": gain_value,
        "points": points,
        "before": score,
        "after": after,
        "gained": after - score,
    }


def roll_die(die: str, table: dict[str, int], rng: random.Random) -> int:
    """A gain die ("1" is a fixed point, "1dN" one die)."""
    sides = table[die]
    return 1 if die == "1" else rng.randrange(sides) + 1


def gain_distribution(score: int, limit: int, gain: str) -> dict[int, Fraction]:
    """Exact distribution of the points actually added (after the cap at 99), enumerated
    over the 100 learning rolls × the faces of the gain die."""
    sides = D.LEARNING_GAINS[gain]
    faces = [1] if gain == "1" else list(range(1, sides + 1))
    counts: Counter[int] = Counter()
    for roll in range(100):
        _, mult = D.learning_quality(min(roll, limit))
        for face in faces:
            counts[apply_gain(score, face * mult) - score] += 1
    total = 100 * len(faces)
    return {k: Fraction(v, total) for k, v in sorted(counts.items())}


def quality_distribution(limit: int) -> dict[str, Fraction]:
    """Chance of each learning quality for a limit (100 rolls, capped)."""
    counts: Counter[str] = Counter(D.learning_quality(min(r, limit))[0] for r in range(100))
    return {q: Fraction(counts.get(q, 0), 100) for _, _, q, _ in D.LEARNING_QUALITY}


def xp_grant(grant: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One end-of-session grant (2.4.4, 3.4.2).

    A skill: +1, or the die the MJ chose, rolled. An attribute: a gain the MJ decides, with
    the reason recorded (``systmj.xp.reason_missing`` without one); no die. Never past 99.
    """
    before = grant["score"]
    if grant["target"] == "attribute":
        reason = grant.get("reason", "").strip()
        if not reason:
            raise RulesError("systmj.xp.reason_missing", key=grant["key"])
        points = grant["gain"]
        rolled = None
    else:
        die = grant["die"]
        points = roll_die(die, D.XP_DICE, rng)
        rolled = None if die == "1" else points
    after = apply_gain(before, points)
    out = {
        "target": grant["target"],
        "key": grant["key"],
        "die": grant.get("die"),
        "rolled": rolled,
        "points": points,
        "before": before,
        "after": after,
        "gained": after - before,
    }
    if grant["target"] == "attribute":
        out["reason"] = grant["reason"].strip()
    return out
