"""Unicreon's share filter: what a player's share link may carry (issue 13).

Hidden from the other players: a character's "terrible secret", "inconnu des autres joueurs"
(004_12a5de9999b9d0ad.txt, "Création"); it is optional on the sheet (an empty text), so a player's share
leaves it empty. A share for the MJ (``audience: "mj"``) keeps it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["player_character"]


def player_character(character: dict[str, Any]) -> dict[str, Any]:
    return {**character, "secret": ""} if "secret" in character else dict(character)

