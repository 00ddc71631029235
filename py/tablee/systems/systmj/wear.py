"""SYSTMJ wear: points d'usure (PU), the wear scale, the end-of-session review, repairs.

Source: 000_d267ce9097809d3e.txt, 3.4.1 (every item used during the session is reviewed on
the MJ's word; E&R counters wear), "L'échelle d'usure SYSTMJ" (PU 0..99, the nine degrees,
a malus from 1 to 65 taken off the skill used with the item; the global review removes 1D4
to 1D10 PU per item used, "selon l'intensité de l'utilisation"), 4.1 field 10 and 4.3 field 5
(Équipement and Savoir cards carry PU and their wear malus). Readings: the README (SYSTMJ)
says the wear malus of the item used applies to a combat score like any test; ours: 0
(Détruit) carries the table's −30 as printed (the text's "entre 1 et 65" names the range of
the usable items with a malus; a destroyed item can still be tried, at −30), the review's
die is one of 1D4, 1D6, 1D8, 1D10 per item, and PU never go below 0 or above 99.
"""

from __future__ import annotations

import random
from typing import Any

from ...errors import RulesError, declare
from ...tree import clone
from . import library as LIB

__all__ = ["WEAR_DICE", "WEAR_SCALE", "repair", "review", "wear_of"]

declare("systmj.wear.no_pu", "systmj.wear.duplicate")

#: The wear scale: (lowest PU, highest PU, degree, malus).
WEAR_SCALE: tuple[tuple[int, int, str, int], ...] = (
    (0, 0, "detruit", -30),
    (1, 10, "epave", -20),
    (11, 25, "tres_endommage", -15),
    (26, 45, "abime", -10),
    (46, 65, "use", -5),
    (66, 80, "correct", 0),
    (81, 90, "bon_etat", 0),
    (91, 98, "excellent", 0),
    (99, 99, "parfait", 0),
)

#: The review's dice, 1D4 to 1D10 (the MJ picks one per item).
WEAR_DICE: dict[str, int] = {"1d4": 4, "1d6": 6, "1d8": 8, "1d10": 10}


def wear_of(pu: int) -> dict[str, Any]:
    """Degree and malus of an item with ``pu`` points of wear (the wear scale)."""
    for low, high, name, malus in WEAR_SCALE:
        if low <= pu <= high:
            return {"pu": pu, "degree": name, "malus": malus}
    raise ValueError(f"PU {pu} outside 0..99")


def _worn_card(library: dict[str, Any], number: str) -> dict[str, Any]:
    card = LIB.find(library, number)
    if "pu" not in card:
        raise RulesError("systmj.wear.no_pu", number=number)
    return card


def review(
    library: dict[str, Any], items: list[dict[str, Any]], rng: random.Random, session: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The end-of-session wear review (3.4.1): each listed item loses the die the MJ chose
    for it (1D4..1D10), rolled in the listed order; the result is the log line of each item.
    Unknown items or items without PU raise and change nothing."""
    new = clone(library)
    seen: set[str] = set()
    results = []
    for item in items:
        number = item["number"]
        if number in seen:
            raise RulesError("systmj.wear.duplicate", number=number)
        seen.add(number)
        card = _worn_card(new, number)
        rolled = rng.randint(1, WEAR_DICE[item["die"]])
        before = card["pu"]
        card["pu"] = max(0, before - rolled)
        results.append(
            {
                "number": number,
                "name": card["name"],
                "session": session,
                "die": item["die"],
                "rolled": rolled,
                "before": wear_of(before),
                "after": wear_of(card["pu"]),
            }
        )
    return new, results


def repair(library: dict[str, Any], number: str, points: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Entretien & Réparation (3.4.1): the item regains ``points`` PU, never past 99."""
    new = clone(library)
    card = _worn_card(new, number)
    before = card["pu"]
    card["pu"] = min(99, before + points)
    return new, {"number": number, "before": wear_of(before), "after": wear_of(card["pu"])}
