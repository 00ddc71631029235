"""Point Zéro data tables: difficulties, modifiers, the attributes the text names, bounds.

Source: 002_61483667e16cef6b.txt, "test de Compétence" (Table des difficultés, shown on the
page only as an image), "Modificateurs de difficulté", "sURPASSEMENT". Reading
(rules/README.md, Point Zéro): the difficulty table is the earlier public edition's
Facile 5, Moyen 10, Difficile 15, Très difficile 20, Héroïque 25; the first example's
"Moyenne (15)" is Difficile. The Jauge de Tension comes from a separate page of the game
(README): threshold 1..10, +2 dice per Tension point on a skill test.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ATOUT_METICULEUX",
    "ATTRIBUTES",
    "DIFFICULTIES",
    "LEVEL_MAX",
    "MODIFIERS",
    "SURPASSEMENT_BONUS",
    "TENSION_DICE",
    "THRESHOLD_MAX",
    "THRESHOLD_MIN",
    "data_tables",
]

#: Difficulty ladder (README reading of the missing image), easiest first.
DIFFICULTIES: dict[str, int] = {
    "facile": 5,
    "moyen": 10,
    "difficile": 15,
    "tres_difficile": 20,
    "heroique": 25,
}

#: Contextual modifiers of the difficulty ("Modificateurs de difficulté"): a slightly
#: (un)favourable condition ∓2, a strongly (un)favourable one ∓5; they stack.
#: Keys are the steps a table picks; values are what they add to the difficulty.
MODIFIERS: dict[str, int] = {
    "legere_favorable": -2,
    "legere_defavorable": 2,
    "forte_favorable": -5,
    "forte_defavorable": 5,
}

#: The attributes the text names ("test de Compétence", the examples): code -> name.
#: A table may add others, each with its own three-letter code.
ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("VIG", "Vigueur"),
    ("ADR", "Adresse"),
    ("PER", "Perception"),
    ("COG", "Cognition"),
)

#: Levels of skills and attributes (the app's bound: a whole number 0..10).
LEVEL_MAX = 10
#: +2 on the result per die sacrificed ("sURPASSEMENT").
SURPASSEMENT_BONUS = 2
#: A Tension point used on a skill test gives +2 dice (Jauge de Tension, README).
TENSION_DICE = 2
#: The MJ's secret threshold of the Jauge de Tension (README).
THRESHOLD_MIN = 1
THRESHOLD_MAX = 10
#: The atout that lets its holder choose the dice kept ("test de Compétence").
ATOUT_METICULEUX = "Méticuleux"


def data_tables() -> dict[str, Any]:
    """Every table as JSON (the ``pointzero.rules`` op)."""
    return {
        "difficulties": dict(DIFFICULTIES),
        "modifiers": dict(MODIFIERS),
        "attributes": [{"code": c, "name": n} for c, n in ATTRIBUTES],
        "level_max": LEVEL_MAX,
        "surpassement_bonus": SURPASSEMENT_BONUS,
        "tension_dice": TENSION_DICE,
        "threshold": {"min": THRESHOLD_MIN, "max": THRESHOLD_MAX},
        "atout_meticuleux": ATOUT_METICULEUX,
    }
