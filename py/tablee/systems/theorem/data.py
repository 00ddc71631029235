"""Théorem's tables as data: suits, figures, the 22 arcana, the success table, the modifier ladder.

Source: 003_0f8319d4d007e1fe.txt, "A) Au commencement" (the 56 numbered cards, the 22
arcana per player), "4) Les figures", "5) Les arcanes", "7) Modificateurs et réussites".
Readings: shared/rules/README.md, Théorem (the success table is not in the text; it is
read from the examples and kept as data the MK can edit; the arcana are the tarot's
major arcana, their effects free text per arcane).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ARCANA",
    "ARCANE_COST",
    "ARCANE_COST_CHEAP",
    "ARCANE_VALUE",
    "FIGURES",
    "FIGURE_VALUE",
    "LEVELS",
    "MK_HAND_RANGE",
    "MODIFIER_LADDER",
    "NUMBERS",
    "RETEST_MALUS",
    "SPHERES",
    "SUCCESS_TABLE",
    "SUITS",
    "arcana_definitions",
    "numbered_definitions",
]

#: The three spheres (README: Théorem).
SPHERES = ("animalite", "humanite", "divinite")
#: "quatre familles": bâton, coupe, denier, épée (README: Théorem).
SUITS = ("baton", "coupe", "denier", "epee")
NUMBERS = tuple(range(1, 11))
#: "figures (valet, cavalier, reine, roi)", each worth 10 ("4) Les figures").
FIGURES = ("valet", "cavalier", "reine", "roi")
FIGURE_VALUE = 10
#: "chaque arcane équivaut à la carte numérique 10" ("5) Les arcanes").
ARCANE_VALUE = 10
#: "payer 5 points de réalité. [...] ne payer que 1" (carte de Ka, situation mortelle).
ARCANE_COST = 5
ARCANE_COST_CHEAP = 1
#: Re-test: "un malus de -2 dû à la frustration du premier échec" ("2) Le re-test").
RETEST_MALUS = 2
#: "[le MK] déterminera sa valeur, fixée entre 3 et 10" ("Attention :").
MK_HAND_RANGE = (3, 10)

#: The 22 major arcana, numbered 0 (Le Mat) to 21 (Le Monde), as the tarot names them.
ARCANA = (
    "Le Mat",
    "Le Bateleur",
    "La Papesse",
    "L'Impératrice",
    "L'Empereur",
    "Le Pape",
    "L'Amoureux",
    "Le Chariot",
    "La Justice",
    "L'Ermite",
    "La Roue de Fortune",
    "La Force",
    "Le Pendu",
    "L'Arcane sans nom",
    "Tempérance",
    "Le Diable",
    "La Maison Dieu",
    "L'Étoile",
    "La Lune",
    "Le Soleil",
    "Le Jugement",
    "Le Monde",
)

#: Success levels, worst first (ids used in JSON and i18n keys ``theorem.level.<id>``).
LEVELS = ("echec", "normale", "moyenne", "grande")

#: "tableau des réussites" (README reading): rows from the lowest total up; a total below
#: the first row's ``min`` is a failure (0 cases, no chase bonus). The MK may edit it
#: (``theorem.table.set``): mins strictly increasing, levels in order.
SUCCESS_TABLE: tuple[dict[str, Any], ...] = (
    {"level": "normale", "min": 10, "cases": 1, "bonus": 1},
    {"level": "moyenne", "min": 16, "cases": 2, "bonus": 3},
    {"level": "grande", "min": 21, "cases": 3, "bonus": 5},
)

#: "7) Modificateurs et réussites": the MK's ladder (−6 to −10 for extreme situations).
MODIFIER_LADDER: tuple[dict[str, Any], ...] = (
    {"id": "trivial", "value": 5},
    {"id": "facile", "value": 3},
    {"id": "normal", "value": 0},
    {"id": "complique", "value": -2},
    {"id": "tres_complique", "value": -3},
    {"id": "franchement_complique", "value": -5},
    {"id": "extreme_6", "value": -6},
    {"id": "extreme_7", "value": -7},
    {"id": "extreme_8", "value": -8},
    {"id": "extreme_9", "value": -9},
    {"id": "extreme_10", "value": -10},
)


def numbered_definitions() -> list[dict[str, Any]]:
    """The MK's 56 numbered cards: ids ``<suit>-<rank>`` ("baton-07", "denier-roi").

    ``kind`` is ``number`` or ``figure``; ``value`` is the card's value (figures 10).
    """
    out: list[dict[str, Any]] = []
    for suit in SUITS:
        for n in NUMBERS:
            out.append({"id": f"{suit}-{n:02d}", "kind": "number", "suit": suit, "rank": str(n), "value": n})
        for f in FIGURES:
            out.append({"id": f"{suit}-{f}", "kind": "figure", "suit": suit, "rank": f, "value": FIGURE_VALUE})
    return out


def arcana_definitions() -> list[dict[str, Any]]:
    """The 22 arcana of one player's deck: ids ``arcane-00`` .. ``arcane-21``."""
    return [{"id": f"arcane-{i:02d}", "kind": "arcane", "number": i} for i in range(len(ARCANA))]
