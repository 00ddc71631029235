"""Point Zéro's share filter: what a player's share link may carry (issue 13).

Hidden from players: the Jauge de Tension's threshold, which the MJ sets secretly (the
game's "Jauge de Tension" page; reading: shared/rules/README.md (Point Zéro), "Players see
the gauge, never the threshold"). A shared table has no threshold (``None``, as before the
MJ sets one); the gauge's entries stay, and Tension critique, once reached, as the public
``critical`` marker. A logged request or result keeps no threshold.
"""

from __future__ import annotations

from typing import Any

from ...share import scrub
from .tension import player_view

__all__ = ["player_entry", "player_state"]

_LOG_SECRETS = frozenset({"threshold", "left"})


def player_state(state: dict[str, Any]) -> dict[str, Any]:
    """No threshold; Tension critique, which is public (Surpassement is refused to everyone
    once it is reached), as the ``critical`` marker (tension.py) when the gauge reached it."""
    out = {**scrub(state, frozenset()), "threshold": None}
    out.pop("critical", None)
    if player_view(state)["critical"]:
        out["critical"] = True
    return out


def player_entry(entry: dict[str, Any]) -> dict[str, Any]:
    return {**entry, "request": scrub(entry["request"], _LOG_SECRETS), "result": scrub(entry["result"], _LOG_SECRETS)}

