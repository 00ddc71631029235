"""SYSTMJ (000_d267ce9097809d3e.txt), part 1: entities, d100 tests, learning and
experience, the end-of-session review, phases of play and the Chronoste.

Modules: data (tables), entity (PJ, PNJ, Créature), state (universe, phase, session,
Chronoste), resolution (d100 tests and exact odds), learning (learning sessions and XP),
ops (API; importing this package registers the ``systmj.*`` ops and the store validators).
"""

from . import (
    ops,  # noqa: F401  (registers the systmj.* ops and the store validators)
    ops_cards,  # noqa: F401  (issue 12: cards, wear, rounds, combat)
    share,  # noqa: F401  (registers the player share filter)
)

PLAYABLE = True

__all__ = ["PLAYABLE"]
