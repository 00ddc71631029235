"""Versality rules as data and pure functions: ladder, tests, odds, deck compensation.

Source: 001_28decc945b538010.txt; adopted readings: rules/README.md (Versality).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache
from math import ceil
from typing import Any

from ... import cards
from ...errors import RulesError, declare

__all__ = [
    "BASE_DECK",
    "CATASTROPHE_BANDS",
    "CHARACTERISTICS",
    "CREATION",
    "DIFFICULTIES",
    "FAILURE_VALUES",
    "KINDS",
    "OUTCOMES",
    "SKILLS",
    "SUCCESS_PRICES",
    "TOKEN_STEPS",
    "apply_modifiers",
    "catastrophe_band",
    "deck_run",
    "failure_purchase_allowed",
    "failure_sequence_exists",
    "ledger",
    "outcome_distribution",
    "test_plan",
]

declare("versality.test.tokens", "versality.test.card_unknown")

#: The outcome ladder, worst to best (README: "oui-et, oui, oui-mais, non-mais, non-et,
#: échec critique"). Source: "Les réussites", "Les échecs".
OUTCOMES: tuple[str, ...] = ("echec-critique", "non-et", "non-mais", "oui-mais", "oui", "oui-et")
SUCCESSES = frozenset({"oui-mais", "oui", "oui-et"})
#: Success cards and their price in points. Source: "Les réussites".
SUCCESS_PRICES: dict[str, int] = {"oui-et": 3, "oui": 2, "oui-mais": 1}
#: Failure cards and the points they compensate. Source: "Les échecs" (no échec critique card).
FAILURE_VALUES: dict[str, int] = {"non-mais": 3, "non-et": 5}
#: Kinds of card a deck may hold.
KINDS: tuple[str, ...] = ("non-et", "non-mais", "oui-mais", "oui", "oui-et")
#: The deck every character starts with: 7 points. Source: "Les réussites".
BASE_DECK: tuple[str, ...] = ("oui-et", "oui", "oui-mais", "oui-mais")
#: Creation budgets. Source: "Les réussites", "Forces et faiblesses", "Caractéristiques et compétences".
CREATION: dict[str, Any] = {
    "success_points": 5,
    "characteristic_points": 3,
    "skill_points": 5,
    "skill_max": 3,
    "traits": ({"forces": 2, "faiblesses": 1}, {"forces": 3, "faiblesses": 2}),
}
CHARACTERISTICS: tuple[str, ...] = ("physique", "mental", "personnalite")
#: Source: "Caractéristiques et compétences" (the eight skills, in the text's order).
SKILLS: tuple[str, ...] = (
    "traquer",
    "survivre",
    "terroriser",
    "combattre",
    "soulager",
    "comprendre",
    "fureter",
    "resister",
)
#: Difficulty subtracted from characteristic + skill. Source: "Fonctionnement d'un test".
DIFFICULTIES: dict[str, int] = {
    "facile": 1,
    "conventionnelle": 2,
    "inhabituelle": 3,
    "complexe": 4,
    "epique": 5,
}
#: Degradation tokens spent on one test -> steps lost. Source: "Les échecs" (pions de dégradation).
TOKEN_STEPS: dict[int, int] = {0: 0, 1: 1, 2: 3, 3: 5}
#: The catastrophe scale. Source: "L'échelle de catastrophe". ``max`` None = no upper bound.
CATASTROPHE_BANDS: tuple[dict[str, Any], ...] = (
    {"id": "sous_radars", "min": 0, "max": 5},
    {"id": "gene_legere", "min": 6, "max": 10},
    {"id": "gene_pregnante", "min": 11, "max": 15},
    {"id": "tous_moyens", "min": 16, "max": None},
)
#: Improvement prices. Source: "La progression : monter de niveau".
POWER_PRICE = 5


def catastrophe_band(value: int) -> str:
    """The band id of a catastrophe value. Source: "L'échelle de catastrophe"."""
    for band in CATASTROPHE_BANDS:
        if value >= band["min"] and (band["max"] is None or value <= band["max"]):
            return band["id"]
    return CATASTROPHE_BANDS[0]["id"]


def test_plan(characteristic: int, skill: int, difficulty: int, wounds: int = 0) -> dict[str, Any]:
    """How many cards a test draws and which rule applies.

    Source: "Fonctionnement d'un test"; "Blessure, incapacité et mort" (+1 difficulty per
    untreated wound); reading: rules/README.md (Versality): score = characteristic + skill
    − difficulty − untreated wounds; score > 0: draw ``score``, the player chooses;
    score ≤ 0: draw 2 + |score|, the worst applies.
    """
    score = characteristic + skill - difficulty - wounds
    if score > 0:
        return {"score": score, "count": score, "rule": "choose"}
    return {"score": score, "count": 2 - score, "rule": "worst"}


def apply_modifiers(
    kind: str, *, force: bool = False, faiblesse: bool = False, tokens: int = 0
) -> dict[str, Any]:
    """The final outcome of a played card, step by step.

    Source: "Forces et faiblesses", "Les échecs" (pions); reading: rules/README.md
    (Versality), "A force and a faiblesse on one test: the force applies first (a success
    rises one step, capped at oui-et), then the faiblesse lowers one step; so oui-et stays
    oui-et then falls to oui". A force applies when the card played is a success and lifts
    it one step (oui-et stays oui-et); then a faiblesse lowers one step; then the MJ's tokens
    lower 1/3/5 steps; the floor is échec critique. Whether a force/faiblesse "can apply"
    is agreed at the table before the draw: the caller passes booleans. ``steps`` lists
    only the modifiers that moved the outcome (a force on oui-et, a faiblesse or tokens
    at échec critique change nothing and are not listed).
    """
    if tokens not in TOKEN_STEPS:
        raise RulesError("versality.test.tokens", tokens=tokens, maximum=3)
    if kind not in OUTCOMES:
        raise RulesError("versality.test.card_unknown", kind=kind)
    i = OUTCOMES.index(kind)
    steps: list[dict[str, Any]] = []

    def step(by: str, new: int, **extra: Any) -> int:
        # A step that changes nothing (force on oui-et, faiblesse or tokens at the floor)
        # is not a step: the result lists only what moved the outcome.
        if new != i:
            steps.append({"by": by, **extra, "from": OUTCOMES[i], "to": OUTCOMES[new]})
        return new

    if force and kind in SUCCESSES:
        i = step("force", min(i + 1, len(OUTCOMES) - 1))
    if faiblesse:
        i = step("faiblesse", max(i - 1, 0))
    if tokens:
        i = step("tokens", max(i - TOKEN_STEPS[tokens], 0), spent=tokens)
    return {"card": kind, "final": OUTCOMES[i], "steps": steps}


def deck_run(pile: int, discard: int, count: int) -> dict[str, Any]:
    """What a draw of ``count`` cards does to a deck with ``pile`` cards to draw and
    ``discard`` in the discard: the one answer shared by the odds and the draw.

    Source: "Les échecs" ("Chaque fois qu'un joueur épuise son deck de réussite [...] il le
    remélange. L'échelle de catastrophe augmente cependant d'un point [...] et le ou la MJ
    gagne 1 pion de dégradation"); reading: rules/README.md (Versality), "Deck exhausted →
    reshuffle, catastrophe +1, MJ +1 token". Reading (ours, issue 8 point 4): the deck is
    exhausted each time the draw pile runs out while cards are still to be drawn: once when
    the discard is reshuffled into it (``reshuffle``), once more when even the reshuffled
    cards do not suffice (``exhausted``: every card is drawn, the draw stops short). Each
    exhaustion costs catastrophe +1 and gives the MJ a token (``penalties``); ``drawn`` is
    how many cards the test actually shows. The draw (:func:`state.draw_test`, through
    :func:`cards.draw`'s ``reshuffle``/``exhausted`` events) does exactly this: a property
    test (tests/versality/test_versality_play_checks.py) holds them together.
    """
    reshuffle = count > pile and discard > 0
    exhausted = count > pile + discard
    return {
        "drawn": min(count, pile + discard),
        "reshuffle": reshuffle,
        "exhausted": exhausted,
        "penalties": int(reshuffle) + int(exhausted),
    }


def outcome_distribution(
    pile_counts: Mapping[str, int],
    refill_counts: Mapping[str, int],
    count: int,
    rule: str,
    *,
    force: bool = False,
    faiblesse: bool = False,
    tokens: int = 0,
) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """Exact (card played, final outcome) distributions of one test.

    The pile is shuffled so every order is equally likely; a draw longer than the pile
    takes all of it then reshuffles the discard (cards.refill_extreme_distribution).
    Reading (ours): under the "choose" rule the odds assume the player keeps the best
    card (the text allows any; modifiers keep the order, so best card = best result).
    """
    card = cards.refill_extreme_distribution(
        pile_counts, refill_counts, count, OUTCOMES, worst=(rule == "worst")
    )
    final: dict[str, Fraction] = {}
    for kind, p in card.items():
        f = apply_modifiers(kind, force=force, faiblesse=faiblesse, tokens=tokens)["final"]
        final[f] = final.get(f, Fraction(0)) + p
    return card, final


# --------------------------------------------------------------------------- deck points
def ledger(kinds: Iterable[str]) -> dict[str, int]:
    """Success points, required compensation and balance of a deck.

    Source: "Les échecs", "Améliorer son deck de réussite"; reading: rules/README.md —
    cumulative: failure cards must reach ⌈success points / 2⌉. ``gap`` = required −
    failure value; ``due`` (gap ≥ 3, a card must still be bought), ``debt`` (gap 1–2,
    uncompensated points: one MJ token each at the start of every session), ``credit``
    (gap < 0: a carte d'avance already covers future obligations).
    """
    kinds = list(kinds)
    success = sum(SUCCESS_PRICES.get(k, 0) for k in kinds)
    failure = sum(FAILURE_VALUES.get(k, 0) for k in kinds)
    required = ceil(success / 2)
    gap = required - failure
    cheapest = min(FAILURE_VALUES.values())
    return {
        "success_points": success,
        "failure_required": required,
        "failure_value": failure,
        "gap": gap,
        "due": gap if gap >= cheapest else 0,
        "debt": gap if 0 < gap < cheapest else 0,
        "credit": -gap if gap < 0 else 0,
    }


def failure_purchase_allowed(gap: int, kind: str) -> bool:
    """May a failure card be bought while ``gap`` points remain to compensate?

    Source: "Les échecs": one must keep buying while the pool can pay a card; with less
    than a card's worth left (gap 1–2) one may buy a carte d'avance (any failure card).
    Reading (ours): a card worth more than the remaining gap is only allowed as that
    carte d'avance, i.e. when no card is affordable.
    """
    value = FAILURE_VALUES[kind]
    cheapest = min(FAILURE_VALUES.values())
    return gap > 0 and (value <= gap or gap < cheapest)


@cache
def _sequence(gap: int, remaining: tuple[int, ...]) -> bool:
    if not remaining:
        return gap < min(FAILURE_VALUES.values())
    for v in set(remaining):
        kind = next(k for k, val in FAILURE_VALUES.items() if val == v)
        if failure_purchase_allowed(gap, kind):
            rest = list(remaining)
            rest.remove(v)
            if _sequence(gap - v, tuple(sorted(rest))):
                return True
    return False


def failure_sequence_exists(required: int, failure_kinds: Iterable[str]) -> bool:
    """Could these failure cards have been bought, one at a time, against ``required`` points?

    Each purchase must follow :func:`failure_purchase_allowed` and, at the end, less than
    a card's worth may stay uncompensated. Source: "Les échecs".
    """
    values = tuple(sorted(FAILURE_VALUES[k] for k in failure_kinds))
    if len(values) > 40:
        return False
    return _sequence(required, values)
