"""Versality: a test's draw replayed from the roll log ("draws can be verified and
replayed from the log like dice").

A test draws its cards from the character's personal deck ("Fonctionnement d'un test",
001_28decc945b538010.txt: "le joueur pioche un nombre de cartes"): the top of the shuffled
draw pile, and when it runs out the discard is reshuffled and the draw goes on (reading:
shared/rules/README.md (Versality), "Deck exhausted → reshuffle"; :func:`state.draw_test`).
``versality.test.draw`` answers the deck as it stood (``test.deck_used``: the draw pile top
first, and the discard) and the page logs it with the seed and the number of cards drawn, so
the same seed on the same deck draws the same cards: the page compares them with the ones it
logged (``result.verify``, views/verify.js).

A card's id is ``<kind>-<n>`` (:func:`state.build_deck`), so the deck's definitions come from
the ids themselves; an id of another shape is refused (``versality.replay.bad_card``).
A player's share of a log entry carries no deck (``share.player_entry`` removes ``deck``).
"""

from __future__ import annotations

import re
from typing import Any

from ... import cards
from ...errors import RulesError, declare
from ...registry import SystemOps, rng_from
from . import rules as R
from .state import STATE_SCHEMA

__all__ = ["replay"]

declare("versality.replay.bad_card")

_ID = re.compile(r"^([a-z-]+)-([1-9][0-9]{0,3})$")


def _definitions(ids: list[str]) -> list[dict[str, str]]:
    defs = []
    for cid in ids:
        m = _ID.match(cid)
        if m is None or m.group(1) not in R.KINDS:
            raise RulesError("versality.replay.bad_card", card=cid)
        defs.append({"id": cid, "kind": m.group(1)})
    return defs


def replay(deck_used: dict[str, Any], count: int, rng: Any) -> dict[str, Any]:
    """The cards a test's draw of ``count`` took from ``deck_used`` with ``rng``, and its events
    (``reshuffle`` when the draw pile ran out, ``exhausted`` when every card was drawn)."""
    ids = [*deck_used["draw"], *deck_used["discard"]]
    deck = cards.deck_as_it_stood(
        _definitions(list(dict.fromkeys(ids))), deck_used["draw"], deck_used["discard"], rest="hand"
    )
    _, drawn, events = cards.draw(deck, count, rng, source="draw", to="hand")
    return {"drawn": [drawn], "events": events}


#: The replay's own op table (the system lists it beside its ops).
replay_op = SystemOps("versality", state=STATE_SCHEMA)


@replay_op(
    "draw.replay", seed=True,
    takes={
        "deck": cards.DECK_AS_IT_STOOD_SCHEMA,
        "count": {"type": "integer", "minimum": 1, "maximum": cards.MAX_CARDS},
    },
    summary="Replay a logged test draw from its seed and the deck as it stood: the cards drawn.",
)
def _replay(request: dict[str, Any]) -> dict[str, Any]:
    return {"seed": request["seed"], **replay(request["deck"], request["count"], rng_from(request))}
