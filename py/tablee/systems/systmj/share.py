"""SYSTMJ's share filter: what a player's share link may carry (issue 13).

Hidden from players until the round starts (000_d267ce9097809d3e.txt, 3.2, every PJ lays a
hidden Action or Mouvement card; reading: shared/rules/README.md (SYSTMJ), the MJ's choices
for NPCs and créatures are hidden too): the round's choices before the reveal, which a shared
table carries empty (who has chosen is not kept either: the same neutral value as a new
round, :func:`rounds.view` being for the live screen). After the reveal nothing is hidden but
the defences the entities declared for the round (rounds.py: the defender's intent, used by
the exchange that hits it), which a player's copy never holds.

The same secret can sit in a roll-log entry: an entry's request or result may hold a copy of
the table state (an op that takes ``state``), so a player's share of a SYSTMJ log entry goes
through :func:`player_entry`, which empties the unrevealed choices of every round tracker the
entry holds, at any depth. The log entry is the table's untrusted data, so the walk checks
every shape and changes nothing else.
"""

from __future__ import annotations

from typing import Any

from ...share import scrub

__all__ = ["player_entry", "player_state"]


def _hide_choices(node: Any) -> None:
    """Empty the choices of every unrevealed round tracker (a ``rounds`` object) under ``node``."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            rounds = item.get("rounds")
            entities = rounds.get("entities") if isinstance(rounds, dict) else None
            for entity in entities if isinstance(entities, list) else []:
                if not isinstance(entity, dict):
                    continue
                if rounds.get("revealed") is not True and "choice" in entity:
                    entity["choice"] = ""
                # a declared defence is the defender's intent (rounds.py): never a player's to read
                entity.pop("defence", None)
                entity.pop("defence_card", None)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def player_state(state: dict[str, Any]) -> dict[str, Any]:
    out = scrub(state, frozenset())
    _hide_choices(out)
    return out


def player_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A SYSTMJ log entry as a player may hold it (see the module doc)."""
    out = scrub(entry, frozenset())
    _hide_choices(out)
    return out

