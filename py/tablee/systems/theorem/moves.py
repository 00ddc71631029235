"""Théorem's moves at a live table (003_0f8319d4d007e1fe.txt): what a player may send from their
phone to the MJ's device, and what the referee (:mod:`tablee.referee`) reads from the MJ's
table to run it. Declared as :data:`MOVES` (op name -> :class:`tablee.referee.Move`), the
referee's registration API: the referee imports this module the first time a ``theorem.…``
move arrives.

A player acts for their own characters: their hand, their actions (draws, figures, arcana),
their re-tests, their side of a chase. Oppositions ("3) Les actions d'opposition") are the
case where a move names another player's character:

- ``theorem.opposition.draw`` draws both sides at once: every side naming a character must be
  one of the member's (the other side is an NPC's or the member's other character), and one
  side at least must (``live.refused.character``, as before: the page never sends it then, it
  offers the opposition side by side instead);
- ``theorem.opposition.start`` proposes an opposition drawn side by side: one side is the
  member's (``character_id``), the other may be any character of the table (another player's)
  or an NPC; ``theorem.opposition.side`` then draws one side, only by that side's own player
  (or, on the MJ's device, by the MK, who calls the op directly); ``theorem.opposition.cancel``
  by a player whose character is one of its sides.

A side played by a character takes its base from the sheet (its sphere and skill): the sheets
the op reads are the MJ's records, never the phone's copies. A refusal says what would work
(``theorem.opposition.not_yours``: propose the opposition, its player draws that side).
"""

from __future__ import annotations

from typing import Any

from ...errors import declare
from ...referee_kernel import refuse
from ...system import ID, REC, Move

__all__ = ["MOVES"]

declare("theorem.opposition.not_yours", "theorem.opposition.mk_side", "theorem.opposition.acting")

#: The acting character of an opposition move: one of the member's, named by ``character_id``.
_ACTING = (("character_id", "id"),)


def _record(document: dict[str, Any], cid: Any) -> dict[str, Any] | None:
    return next((c for c in document["characters"] if isinstance(c, dict) and c.get("id") == cid
                 and c.get("system") == "theorem"), None)


def _sides_from_sheets(request: dict[str, Any], ctx: dict[str, Any], *, others_allowed: bool) -> dict[str, Any]:
    """The opposition's sides checked against the member, and the MJ's records of the characters
    who play them as ``sheets`` (their sphere and skill give the base: oppositions.sheet_side).

    The acting character (``character_id``, checked by the referee as the member's) must play a
    side (``theorem.opposition.acting``). A side naming another character must be the member's
    too when both sides are drawn at once (``others_allowed`` False:
    ``theorem.opposition.not_yours``, whose message advises proposing the opposition instead);
    when it is proposed, that side may be any character of the table's (another player's)."""
    acting = request.pop("character_id", None)
    request.pop("sheets", None)  # the phone's copies: never read
    mine = set(ctx["member"]["characters"])
    sheets = []
    named = []
    for key in ("a", "b"):
        side = request.get(key)
        if not isinstance(side, dict):
            raise refuse("live.refused.invalid", field=key)
        cid = side.get("character_id")
        if cid is None:
            continue
        record = _record(ctx["document"], cid)
        if record is None:
            raise refuse("live.refused.character", character=cid if isinstance(cid, str) else None)
        if cid not in mine and not others_allowed:
            raise refuse("theorem.opposition.not_yours", side=key)
        named.append(cid)
        if record not in sheets:
            sheets.append(record)
    if acting not in named:
        raise refuse("theorem.opposition.acting")
    if sheets:
        request["sheets"] = sheets
    return request


def _draw(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Both sides at once: the referee checked each side naming a character is the member's
    (actors ``side?``); one must name one (an opposition of two NPCs is the MK's)."""
    named = [request[k]["character_id"] for k in ("a", "b") if "character_id" in request[k]]
    if not named:
        raise refuse("live.refused.character", character=None)
    request.setdefault("character_id", named[0])
    return _sides_from_sheets(request, ctx, others_allowed=False)


def _start(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return _sides_from_sheets(request, ctx, others_allowed=True)


def _open(ctx: dict[str, Any]) -> dict[str, Any] | None:
    held = ctx["state"].get("opposition")
    return held if isinstance(held, dict) and held.get("result") is None else None


def _side(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """One side of the waiting opposition, drawn by its own player: the side must be played by
    the acting character (``theorem.opposition.not_yours``: its player draws it, or the MK);
    an NPC's side is the MK's (``theorem.opposition.mk_side``). With no opposition waiting, the
    op says so (``theorem.opposition.none``)."""
    acting = request.pop("character_id", None)
    held = _open(ctx)
    side = held.get(request.get("side")) if held is not None and request.get("side") in ("a", "b") else None
    if isinstance(side, dict):
        if "character_id" not in side:
            raise refuse("theorem.opposition.mk_side", side=request["side"])
        if side["character_id"] != acting:
            raise refuse("theorem.opposition.not_yours", side=request["side"])
    return request


def _cancel(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """A player calls off the waiting opposition only when their character plays one side."""
    acting = request.pop("character_id", None)
    held = _open(ctx)
    if held is not None and acting not in (held["a"].get("character_id"), held["b"].get("character_id")):
        raise refuse("theorem.opposition.not_yours", side=None)
    return request


MOVES: dict[str, Move] = {
    # A player's hand, draws, figures, arcana, re-tests: their own characters only.
    # (each logged under the kind its page logs it with: theorem/table.js, chase.js)
    "theorem.hand.draw": Move("theorem", REC, kind="theorem.hand"),
    "theorem.action.begin": Move("theorem", REC),
    "theorem.action.draw": Move("theorem", REC, kind="theorem.draw"),
    "theorem.action.figure": Move("theorem", REC),
    "theorem.action.cancel": Move("theorem", REC),
    "theorem.action.aside": Move("theorem", ID),
    "theorem.arcane.play": Move("theorem", REC, kind="theorem.arcane"),
    "theorem.retest.clear": Move("theorem", ID),
    # A character's side of a chase round, announced as its action (theorem.chase.begin checks
    # that the side is the character's; an NPC side names no character: the MK draws it).
    "theorem.chase.begin": Move("theorem", REC),
    # Oppositions (module docstring): both sides at once (the member's characters or NPCs), or
    # side by side (one side the member's, the other anyone's), each side by its own player.
    # Both sides' scores and chains are public in the answer and the log, as on one device.
    "theorem.opposition.draw": Move("theorem", (("a", "side?"), ("b", "side?")), prepare=_draw,
                                    kind="theorem.opposition"),
    "theorem.opposition.start": Move("theorem", _ACTING, prepare=_start),
    "theorem.opposition.side": Move("theorem", _ACTING, prepare=_side, kind="theorem.opposition"),
    "theorem.opposition.cancel": Move("theorem", _ACTING, prepare=_cancel),
}
