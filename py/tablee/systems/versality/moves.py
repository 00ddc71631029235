"""Versality's moves at a live table (001_28decc945b538010.txt): what a player may send from
their phone to the MJ's device.

Declared as :data:`MOVES` (op name -> :class:`tablee.referee.Move`), the referee's registration
API: the referee imports this module the first time a ``versality.…`` move arrives. Each op
answers the public state and the penalties (``merge``: merged by ``versality.state.merge`` on
the MJ's table, never sent to the phone: :attr:`tablee.referee.Move.hidden`).
"""

from __future__ import annotations

from ...referee import ID, REC, Move

__all__ = ["MOVES"]

#: What the phone never gets back of a Versality answer (the merge's inputs, the whole state).
_HIDDEN = ("public", "penalties")

#: op name -> what that op may touch when a player sends it (tablee.referee.Move).
MOVES: dict[str, Move] = {
    # The deck, the draw, the card played; the MJ's tokens are the MJ's to spend.
    "versality.deck.build": Move("versality", REC, merge=True, hidden=_HIDDEN),
    "versality.deck.sync": Move("versality", REC, merge=True, hidden=_HIDDEN),
    "versality.test.draw": Move("versality", REC, merge=True, hidden=_HIDDEN),
    "versality.test.resolve": Move("versality", ID, merge=True, mj_fields=("tokens",), hidden=_HIDDEN,
                                   kind="versality.test"),
}
