"""Versality's moves at a live table (001_28decc945b538010.txt): what a player may send from
their phone to the MJ's device.

:data:`MOVES` (op name -> :class:`tablee.system.Move`), declared by :mod:`tablee.systems.versality`.
Each op answers the public state and the penalties, merged into the MJ's table by ``versality.state.merge``
(:func:`merge`) and never sent to the phone (:attr:`tablee.system.Move.hidden`).
"""

from __future__ import annotations

from typing import Any

from ...referee import run_op
from ...system import ID, REC, Move

__all__ = ["MOVES", "merge"]


def merge(state: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any] | None:
    """The MJ's whole state with the public part and the penalties a move answered merged in,
    as the page's store does (``versality.state.merge``: the MJ's fields kept, the penalties
    applied); None when the op answered none."""
    if "public" not in answer:
        return None
    merged = run_op({"op": "versality.state.merge", "state": state, "public": answer["public"],
                     "penalties": answer.get("penalties", {})})
    return merged["state"]


#: What the phone never gets back of a Versality answer (the merge's inputs, the whole state).
_HIDDEN = ("public", "penalties")

#: op name -> what that op may touch when a player sends it (tablee.referee.Move).
MOVES: dict[str, Move] = {
    # The deck, the draw, the card played; the MJ's tokens are the MJ's to spend.
    "versality.deck.build": Move("versality", REC, merge=merge, hidden=_HIDDEN),
    "versality.deck.sync": Move("versality", REC, merge=merge, hidden=_HIDDEN),
    "versality.test.draw": Move("versality", REC, merge=merge, hidden=_HIDDEN),
    "versality.test.resolve": Move("versality", ID, merge=merge, mj_fields=("tokens",), hidden=_HIDDEN,
                                   kind="versality.test"),
}
