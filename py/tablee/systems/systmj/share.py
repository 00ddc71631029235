"""SYSTMJ's share filter: what a player's share link may carry (issue 13).

Hidden from players until the round starts (000_d267ce9097809d3e.txt, 3.2, every PJ lays a
hidden Action or Mouvement card; reading: shared/rules/README.md (SYSTMJ), the MJ's choices
for NPCs and créatures are hidden too): the round's choices before the reveal, which a shared
table carries empty (who has chosen is not kept either: the same neutral value as a new
round, :func:`rounds.view` being for the live screen). After the reveal nothing is hidden.
"""

from __future__ import annotations

from typing import Any

from ...share import register_share_filter, scrub

__all__ = ["player_state"]


def player_state(state: dict[str, Any]) -> dict[str, Any]:
    out = scrub(state, frozenset())
    rounds = out.get("rounds")
    if isinstance(rounds, dict) and not rounds.get("revealed", False):
        for entity in rounds.get("entities", []):
            entity["choice"] = ""
    return out


register_share_filter("systmj", state=player_state)
