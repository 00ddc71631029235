"""Versality's share filter: what a player's share link may carry (issue 13, "Between devices").

Hidden from players (001_28decc945b538010.txt, "L'échelle de catastrophe", "Les échecs",
"Choisir son pouvoir": "ils ne peuvent jamais connaître le nombre de points exact"; reading:
shared/rules/README.md (Versality), MJ view only): the catastrophe scale, the MJ's tokens,
the power uses and the last award (:data:`state.MJ_FIELDS`), reset to a new table's values;
the order of every draw pile (a shuffled deck), put in a canonical order. A logged test's
request keeps no deck, no MJ field and no seed.

Every Versality op that takes a seed builds or shuffles a deck (``deck.build``/``sync``;
``test.draw``, which builds a character's first deck from the sheet's cards, a public list,
and turns the discard over when the draw pile runs out; ``test.resolve``, whose cards not
played are "remélangées", "Fonctionnement d'un test"). The engine is public and
``random.Random(seed)`` replays anywhere, so those seeds, with a player's view, tell the whole
draw pile. A logged Versality entry reaches a player without any ``seed``, wherever it sits
(the page's test logs the draw's at the top of the request and the resolution's under
``resolve``; the live table's referee keeps the draw's inside ``deck``); the MJ's own copy
keeps them for "Vérifier / rejouer".
"""

from __future__ import annotations

from typing import Any

from ...share import conceal_cards, scrub
from . import state as S

__all__ = ["player_entry", "player_state"]

#: Keys of a logged request or result that may hold a deck or the MJ's side (``deck_used``: a
#: draw's deck as the op answers it, the order of what is left to draw; ``seed``: the order a
#: draw or a resolution shuffled, module doc).
_LOG_SECRETS = frozenset({*S.MJ_FIELDS, "state", "deck", "decks", "deck_used", "public", "seed"})


def player_state(state: dict[str, Any]) -> dict[str, Any]:
    fresh = S.new_state()
    out = {k: (fresh[k] if k in S.MJ_FIELDS else v) for k, v in state.items()}
    out["decks"] = {cid: conceal_cards(deck) for cid, deck in state["decks"].items()}
    return out


def player_entry(entry: dict[str, Any]) -> dict[str, Any]:
    return {**entry, "request": scrub(entry["request"], _LOG_SECRETS), "result": scrub(entry["result"], _LOG_SECRETS)}

