"""The live table's referee, its log part: a player's move logged like the same action made on
the MJ's device.

On one device a system page logs a test or a draw with its request (the seed, and for a draw
the deck as it stood), its result line (the total, the dice as ``terms``) and a ``verify``
record (the digest of the answer's outcome fields, static/js/views/verify.js ``verifyRecord``),
which "Vérifier / rejouer" replays and compares. The referee logs a phone's move from its own
run (:func:`tablee.referee_kernel.log_run`); this module gives that entry the same request and
result fields, op by op, from the op's answer: each system declares how its ops are logged
(:class:`tablee.system.Recipe`, in ``tablee/systems/<id>/log.py``) with the tools here. The label (in the phone's
language) comes with the move itself (:func:`tablee.referee.move_words`: the words it waits
under, a roll's expression) or with ``live.log.label``; the result line is the referee's own
(:mod:`tablee.referee_words`).

The digest is the page's, byte for byte (:func:`digest`: canonical JSON, keys sorted, then
FNV-1a twice over the UTF-16 code units), so a replay on the MJ's device compares an entry
the referee wrote exactly as one the page wrote.

**Hidden piles.** A draw from a pile whose order is the MJ's secret (Théorem's numbered deck,
Versality's decks: 003_0f8319d4d007e1fe.txt "A) Au commencement", 001_28decc945b538010.txt
"Le tirage") replays only from that deck, and its seed would let a phone that knows the
public discard shuffle again and know the next cards. So such an entry keeps its seed inside
its ``deck`` (``request.deck.seed``), which every player filter of those systems takes out
(tablee/systems/theorem/share.py, tablee/systems/versality/share.py: ``deck`` at any depth):
the MJ's log replays it, no phone ever sees the seed nor the order.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["as_sent", "dice_term", "digest", "hidden_deck", "side_name", "verify_record", "without"]


def _canonical(value: Any) -> str:
    """static/js/views/verify.js ``canonical``: JSON with object keys sorted (by UTF-16 code
    units, as JavaScript sorts them), strings as ``JSON.stringify`` writes them."""
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: str(k).encode("utf-16-be"))
        return "{" + ",".join(f"{json.dumps(str(k), ensure_ascii=False)}:{_canonical(value[k])}" for k in keys) + "}"
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))  # (JavaScript writes 3.0 as 3)
    return json.dumps(value, ensure_ascii=False)


def _digest_text(text: str) -> str:
    """static/js/views/verify.js ``digestText``: FNV-1a over the UTF-16 code units, twice with
    different offsets and multipliers; 16 hex digits."""
    units = text.encode("utf-16-le")
    a = 0x811C9DC5
    b = 0x01000193 ^ (len(units) // 2)
    mask = 0xFFFFFFFF
    for i in range(0, len(units), 2):
        c = units[i] | (units[i + 1] << 8)
        a = ((a ^ c) * 0x01000193) & mask
        b = ((b ^ c) * 0x5BD1E995) & mask
        b ^= b >> 15
    return f"{a:08x}{b:08x}"


def digest(answer: Any, keys: list[str] | tuple[str, ...]) -> str:
    """The digest of the outcome fields ``keys`` of an op's answer (verify.js ``outcomeDigest``:
    a key the answer lacks counts as null)."""
    picked = {k: (answer.get(k) if isinstance(answer, dict) and k in answer else None) for k in keys}
    return _digest_text(_canonical(picked))


def verify_record(answer: Any, keys: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """What a log entry's result keeps to verify a replay (verify.js ``verifyRecord``)."""
    return {"keys": list(keys), "digest": digest(answer, keys)}


def dice_term(kind: str, text: str, dice: Any, *, kept: Any = None) -> dict[str, Any]:
    """A logged dice term (static/js/systems/*/common.js ``d100Term``, ``d66Term``, Point
    Zéro's ``diceTerm``)."""
    values = dice if isinstance(dice, list) else []
    if kept is not None:
        return {"kind": kind, "text": text, "sign": 1,
                "dice": [{"value": d.get("value"), "kept": d.get("kept")} for d in values if isinstance(d, dict)]}
    return {"kind": kind, "text": text, "sign": 1, "dice": [{"value": v, "kept": True} for v in values]}


def without(request: dict[str, Any], *keys: str) -> dict[str, Any]:
    """``request`` without ``keys``."""
    return {k: v for k, v in request.items() if k not in keys}


def hidden_deck(deck: Any, seed: int) -> dict[str, Any]:
    """A hidden pile as it stood before a draw, with the draw's seed (module docstring)."""
    deck = deck if isinstance(deck, dict) else {}
    return {"draw": list(deck.get("draw", [])), "discard": list(deck.get("discard", [])), "seed": seed}


def as_sent(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """A self-contained request (no state, no record), logged as the op ran it, with its seed."""
    return {**without(request, "state"), "seed": ctx["seed"]}


# Oppositions of two tests (Point Zéro, "Les oppositions"; Unicreon, "Les oppositions"): the
# pages log each side's dice as a term named by its side (pointzero/test.js, unicreon/test.js).
def side_name(request: dict[str, Any], key: str, fallback: str) -> str:
    side = request.get(key)
    name = side.get("name") if isinstance(side, dict) else None
    return name[:80] if isinstance(name, str) and name else fallback

