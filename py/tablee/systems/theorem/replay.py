"""Théorem: a draw replayed from the roll log ("draws can be verified and replayed
from the log like dice").

Every draw from the MK's numbered deck is logged with its seed and the deck as it stood
(``request.deck``: the draw pile top first, and the discard; ``common.logDraw`` on the page,
``deck_used`` in the ops' answers). The cards drawn follow from those two alone: a draw takes
the top of the pile, and when the pile is empty "on retourne la défausse et l'on recommence"
(003_0f8319d4d007e1fe.txt, "A) Au commencement"), the discard shuffled with the request's
rng (:func:`tablee.cards.draw`). So the same seed on the same deck draws the same cards, and
the page compares them with the ones it logged (``result.verify``, views/verify.js).

Kinds of draw: ``action`` (``theorem.action.draw``: the deck's top card for a simple action,
"Piocher"), ``opposition`` (``theorem.opposition.draw``) and ``chase`` (``theorem.chase.round``):
both sides draw a whole chain, side a first, every figure played ("3) Les actions
d'opposition"; :func:`oppositions.auto_chain`, the function those ops use); ``side``
(``theorem.opposition.side``): one side of an opposition drawn side by side, one whole chain.

A player's share of a log entry carries no deck (``share.player_entry`` removes ``deck``), so
that entry cannot be replayed on the player's side: the control says so.
"""

from __future__ import annotations

from typing import Any

from ... import cards
from ...registry import SystemOps, rng_from
from . import data as D
from . import oppositions as P
from .schemas import STATE_SCHEMA

__all__ = ["KINDS", "replay"]

#: The logged draws a replay knows, by kind.
KINDS = ("action", "opposition", "chase", "side")


def replay(kind: str, deck_used: dict[str, Any], rng: Any) -> dict[str, Any]:
    """The chains a logged draw of ``kind`` drew from ``deck_used`` with ``rng`` (one chain for
    an action's draw or an opposition's side, two for an opposition or a chase round), and the
    reshuffle events."""
    deck = cards.deck_as_it_stood(D.numbered_definitions(), deck_used["draw"], deck_used["discard"])
    if kind == "action":
        _, drawn, events = cards.draw(deck, 1, rng, source="draw", to="play", refill="discard")
        return {"drawn": [drawn], "events": events}
    deck, chain_a, ev_a = P.auto_chain(deck, rng)
    if kind == "side":
        return {"drawn": [chain_a], "events": ev_a}
    _, chain_b, ev_b = P.auto_chain(deck, rng)
    return {"drawn": [chain_a, chain_b], "events": ev_a + ev_b}


#: The replay's own op table (the system lists it beside its ops).
replay_op = SystemOps("theorem", state=STATE_SCHEMA)


@replay_op("draw.replay", seed=True, takes={"kind": {"enum": list(KINDS)}, "deck": cards.DECK_AS_IT_STOOD_SCHEMA},
            summary="Replay a logged draw of the numbered deck (an action's card, an opposition, a chase round) from "
            "its seed and the deck as it stood: the cards drawn, chain by chain.")
def _replay(request: dict[str, Any]) -> dict[str, Any]:
    return {"seed": request["seed"], **replay(request["kind"], request["deck"], rng_from(request))}
