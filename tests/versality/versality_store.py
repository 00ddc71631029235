"""What the app's store does around a Versality player op (static/js/systems/versality/table.js,
``playerCall``): the op answers no MJ data (``view``, ``public``, ``penalties``), then the
store's op versality.state.merge rebuilds the whole table state from the previous one."""

from __future__ import annotations

from typing import Any

from tablee.api import handle

#: The ops a player page calls (through playerCall); test.odds answers no state at all.
PLAYER_OPS = ("versality.deck.build", "versality.deck.sync", "versality.test.draw", "versality.test.resolve")


def play(request: dict[str, Any]) -> dict[str, Any]:
    """``handle`` for any op; a player op's answer gains the merged whole ``state`` (the one
    the store saves). An error of the op or of the merge is answered as it is."""
    r = handle(request)
    if request.get("op") not in PLAYER_OPS or "error" in r:
        return r
    assert "state" not in r, "a player op answered a state"
    merged = handle(
        {"op": "versality.state.merge", "state": request["state"], "public": r["public"], "penalties": r["penalties"]}
    )
    if "error" in merged:
        return merged
    return {**r, "state": merged["state"]}
