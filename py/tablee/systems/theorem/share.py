"""Théorem's share filter: what a player's share link may carry (issue 13).

Hidden from players (003_0f8319d4d007e1fe.txt, "A) Au commencement": the hand lies face
down "afin d'éviter que les joueurs ne regardent leurs cartes respectives"; the same reading
as :func:`state.player_view`): the order of every draw pile and every arcana hand, the MK's
included. A shared table keeps each deck's cards but its draw pile in a canonical order,
each hand put back into its draw pile; a logged draw keeps no deck (its request carried the
deck it drew from, i.e. the order of what is left) and no seed.

Every Théorem op that takes a seed draws from or shuffles one of those piles (``state.new``,
``action.draw``, ``arcane.play`` refilling the hand, ``hand.draw``, ``mk.hand``,
``opposition.draw``/``side``, ``chase.begin``/``round``: the discard turned over, "A) Au
commencement"; a first hand shuffles the 22 arcana from their known order). The engine is
public and ``random.Random(seed)`` replays anywhere, so a draw's seed with what a player sees
(the public discard in its order, the view before the draw) tells the order: the cards to
come after a reshuffle, another player's or the MK's hand. A logged Théorem entry therefore
reaches a player without any ``seed``, wherever it sits (the MJ's page logs it at the top of
the request, the live table's referee inside ``deck``: tablee/referee_log.py); the MJ's own
copy keeps it for "Vérifier / rejouer", which a player's copy cannot replay.
"""

from __future__ import annotations

from typing import Any

from ...share import conceal_cards, scrub

__all__ = ["player_entry", "player_state"]

#: Keys of a logged request or result that may hold a pile's order or a hand: the deck a draw
#: used (``deck``, as the pages log it, or ``deck_used``, as the ops answer it) tells the order
#: of what is left to draw; the draw's ``seed`` tells the order it shuffled (module doc).
_LOG_SECRETS = frozenset({"deck", "deck_used", "arcana", "state", "hand", "seed"})


def player_state(state: dict[str, Any]) -> dict[str, Any]:
    out = scrub(state, frozenset())
    out["deck"] = conceal_cards(state["deck"])
    out["arcana"] = {owner: conceal_cards(arc, hands_into="draw") for owner, arc in state["arcana"].items()}
    return out


def player_entry(entry: dict[str, Any]) -> dict[str, Any]:
    return {**entry, "request": scrub(entry["request"], _LOG_SECRETS), "result": scrub(entry["result"], _LOG_SECRETS)}

