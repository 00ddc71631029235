"""The live table's referee, its log part: a player's move logged like the same action made on
the MJ's device.

On one device a system page logs a test or a draw with its request (the seed, and for a draw
the deck as it stood), its result line (the total, the dice as ``terms``) and a ``verify``
record (the digest of the answer's outcome fields, static/js/views/verify.js ``verifyRecord``),
which "Vérifier / rejouer" replays and compares. The referee logs a phone's move from its own
run (:func:`tablee.referee_kernel.log_run`); this module gives that entry the same request and
result fields, op by op (:data:`RECIPES`), from the op's answer. The label (in the phone's
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["RECIPES", "Recipe", "digest", "verify_record"]


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


@dataclass(frozen=True)
class Recipe:
    """How the referee logs one op as the page logs it.

    ``request(request, answer, ctx)``: the logged request (the one "Vérifier / rejouer"
    replays): what the op was sent, without the table state and the records, with the seed at
    the top or, for a hidden pile's draw, inside ``deck`` (None: the referee's own logged
    request, :func:`tablee.referee_kernel.log_run`). ``result(request, answer, ctx)``:
    the result fields the page logs besides its words (``total``, ``terms``, ``verify``).
    ``ctx``: ``seed``, the acting ``character`` as the MJ holds it, the system ``state`` before
    the move."""

    request: Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], dict[str, Any]] | None
    result: Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], dict[str, Any]]


def _dice_term(kind: str, text: str, dice: Any, *, kept: Any = None) -> dict[str, Any]:
    """A logged dice term (static/js/systems/*/common.js ``d100Term``, ``d66Term``, Point
    Zéro's ``diceTerm``)."""
    values = dice if isinstance(dice, list) else []
    if kept is not None:
        return {"kind": kind, "text": text, "sign": 1,
                "dice": [{"value": d.get("value"), "kept": d.get("kept")} for d in values if isinstance(d, dict)]}
    return {"kind": kind, "text": text, "sign": 1, "dice": [{"value": v, "kept": True} for v in values]}


def _without(request: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in request.items() if k not in keys}


def _hidden_deck(deck: Any, seed: int) -> dict[str, Any]:
    """A hidden pile as it stood before a draw, with the draw's seed (module docstring)."""
    deck = deck if isinstance(deck, dict) else {}
    return {"draw": list(deck.get("draw", [])), "discard": list(deck.get("discard", [])), "seed": seed}


def _as_sent(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """A self-contained request (no state, no record), logged as the op ran it, with its seed."""
    return {**_without(request, "state"), "seed": ctx["seed"]}


# Point Zéro (002_61483667e16cef6b.txt, "Règles de base": skill-level d6, attribute-level kept):
# static/js/systems/pointzero/test.js logs the self-contained request and VERIFY_KEYS ["result"].
# The character whose roll it is goes in the result (``character_id``: a Méticuleux choice names
# the entry, tablee/systems/pointzero/moves.py), the request staying the op's own.
def _pz_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    if request.get("op") != "pointzero.test.roll":
        # a Méticuleux choice (pointzero.test.resolve on the dice of the roll it names): no seed
        return _without(request, "state", "character_id")
    return {**_without(request, "state", "character_id"), "seed": ctx["seed"]}


def _pz_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    res = answer.get("result") if isinstance(answer.get("result"), dict) else {}
    plan = answer.get("plan") if isinstance(answer.get("plan"), dict) else {}
    character = ctx.get("character") or {}
    out = {"total": res.get("total"), "character_id": character.get("id"),
           "terms": [_dice_term("dice", f"{plan.get('dice') or len(res.get('dice') or [])}d6", res.get("dice"),
                                kept=True)]}
    if request.get("op") == "pointzero.test.roll":
        out["verify"] = verify_record(answer, ("result",))
    return out


# SYSTMJ (000_d267ce9097809d3e.txt, d100 roll-under; 2.3 learning): systmj/test.js logs the
# request as sent, the roll, one d100 term and VERIFY_KEYS; learning.js the capped roll and its term.
_SJ_KEYS = ("dice", "roll", "effective", "outcome", "degree", "success")


def _sj_test_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"terms": [_dice_term("d100", "d100", answer["dice"])] if answer.get("dice") else [],
                           "verify": verify_record(answer, _SJ_KEYS)}
    if answer.get("roll") is not None:
        out["total"] = answer["roll"]
    return out


def _sj_learning_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return {"total": answer.get("capped"), "terms": [_dice_term("d100", "d100", answer.get("dice"))]}


# Unicreon (004_12a5de9999b9d0ad.txt, "Les tests": d66 ≥ characteristic + difficulty − skill):
# unicreon/test.js logs the test without the character (its value and its items' steps), the
# raw result, one d66 term and VERIFY_KEYS.
_UC_KEYS = ("dice", "raw", "real", "target", "success", "band")


def _uc_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    asked = request.get("test") if isinstance(request.get("test"), dict) else {}
    test: dict[str, Any] = {"value": answer.get("value"), "difficulty": asked.get("difficulty"),
                            "bonus": asked.get("bonus"), "malus": asked.get("malus")}
    character = ctx.get("character") or {}
    inventory = [i for i in character.get("inventory", []) if isinstance(i, dict)]
    steps = sum(next((i.get("bonus_steps", 0) or 0 for i in inventory if i.get("uid") == uid), 0)
                for uid in answer.get("items_counted") or [])
    if steps:
        test["item_steps"] = steps
    if asked.get("skill"):
        test["skill"] = asked["skill"]
    return {"op": "unicreon.test", "test": test, "seed": ctx["seed"]}


def _uc_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return {"total": answer.get("raw"), "terms": [_dice_term("d66", "d66", answer.get("dice"))],
            "verify": verify_record(answer, _UC_KEYS)}


# Unicreon's passe d'armes ("Le combat"): unicreon/combat.js logs the PV lost and each side's
# d66, named by its fighter (no verify record: it replays only with the fight's state).
def _uc_attack_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return _without(request, "state", "seed")


def _uc_attack_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    exchange = answer.get("exchange") if isinstance(answer.get("exchange"), dict) else {}
    fighters = (ctx.get("state") or {}).get("combatants", [])
    name = {f.get("cid"): f.get("name") for f in fighters if isinstance(f, dict)}
    terms = [_dice_term("d66", str(name.get(request.get(side)) or "d66")[:80], (exchange.get(side) or {}).get("dice"))
             for side in ("attacker", "defender")]
    return {"total": exchange.get("pv_lost"), "terms": terms}


# Théorem (003_0f8319d4d007e1fe.txt, "2) Les actions", "3) Les actions d'opposition"):
# theorem/table.js and opposition.js log the draw with the deck it used and the digest of the
# cards drawn, chain by chain (theorem.draw.replay draws them again).
def _pile(state: Any) -> dict[str, Any]:
    piles = state.get("deck", {}).get("piles", {}) if isinstance(state, dict) else {}
    return {"draw": piles.get("draw", {}).get("cards", []), "discard": piles.get("discard", {}).get("cards", [])}


def _th_action_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    character = request.get("character") if isinstance(request.get("character"), dict) else {}
    return {"op": "theorem.action.draw", "character_id": character.get("id"),
            "deck": _hidden_deck(answer.get("deck_used") or _pile(ctx.get("state")), ctx["seed"])}


def _th_action_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    card = (answer.get("result") or {}).get("card") or {}
    return {"verify": verify_record({"drawn": [[card.get("id")]]}, ("drawn",))}


def _th_opposition_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    res = answer.get("result") if isinstance(answer.get("result"), dict) else {}
    sides = {k: {**request[k], "base": res.get(f"base_{k}")} for k in ("a", "b") if isinstance(request.get(k), dict)}
    return {"op": "theorem.opposition.draw", **sides, "deck": _hidden_deck(answer.get("deck_used"), ctx["seed"])}


def _th_opposition_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    res = answer.get("result") if isinstance(answer.get("result"), dict) else {}
    chains = [[c.get("id") for c in res.get(f"chain_{k}", []) if isinstance(c, dict)] for k in ("a", "b")]
    return {"verify": verify_record({"drawn": chains}, ("drawn",))}


def _th_side_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return {"op": "theorem.opposition.side", "side": request.get("side"),
            "deck": _hidden_deck(answer.get("deck_used"), ctx["seed"])}


def _th_side_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    chain = [c.get("id") for c in answer.get("chain", []) if isinstance(c, dict)]
    return {"verify": verify_record({"drawn": [chain]}, ("drawn",))}


# Versality (001_28decc945b538010.txt, "Le tirage": draw, choose or take the worst): versality/
# test.js logs the draw with the deck it used, the count drawn and the digest of the cards drawn
# (versality.draw.replay); the resolution joins that entry (:func:`tablee.referee_kernel.log_run`).
def _vs_draw_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    test = answer.get("test") if isinstance(answer.get("test"), dict) else {}
    character = request.get("character") if isinstance(request.get("character"), dict) else {}
    return {"op": "versality.test.draw", "characteristic": request.get("characteristic"), "skill": request.get("skill"),
            "difficulty": request.get("difficulty"), "character_id": character.get("id"), "count": test.get("count"),
            "deck": _hidden_deck(test.get("deck_used"), ctx["seed"])}


def _vs_draw_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    test = answer.get("test") if isinstance(answer.get("test"), dict) else {}
    drawn = [d.get("id") for d in test.get("drawn", []) if isinstance(d, dict)]
    return {"verify": verify_record({"drawn": [drawn]}, ("drawn",))}


# Oppositions of two tests (Point Zéro, "Les oppositions"; Unicreon, "Les oppositions"): the
# pages log each side's dice as a term named by its side (pointzero/test.js, unicreon/test.js).
def _side_name(request: dict[str, Any], key: str, fallback: str) -> str:
    side = request.get(key)
    name = side.get("name") if isinstance(side, dict) else None
    return name[:80] if isinstance(name, str) and name else fallback


def _pz_opposition_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    if isinstance(answer.get("sides"), list):
        asked = request.get("sides") if isinstance(request.get("sides"), list) else []
        pairs = [(s, asked[i] if i < len(asked) and isinstance(asked[i], dict) else {})
                 for i, s in enumerate(answer["sides"])]
    else:
        pairs = [(answer.get(k), request.get(k) if isinstance(request.get(k), dict) else {}) for k in ("a", "b")]
    terms = []
    for rolled, side in pairs:
        res = rolled.get("result") if isinstance(rolled, dict) and isinstance(rolled.get("result"), dict) else {}
        dice = res.get("dice") if isinstance(res.get("dice"), list) else []
        name = side.get("name") if isinstance(side.get("name"), str) and side.get("name") else f"{len(dice)}d6"
        terms.append(_dice_term("dice", name[:80], dice, kept=True))
    return {"terms": terms}


def _uc_opposition_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return {"terms": [_dice_term("d66", _side_name(request, k, "d66"), (answer.get(k) or {}).get("dice"))
                      for k in ("a", "b")]}


#: op name -> how the referee logs it as its page does (module docstring). An op listed nowhere
#: is logged with its answer's fields and its request without records (and its seed when the
#: op read no hidden state).
RECIPES: dict[str, Recipe] = {
    "pointzero.test.roll": Recipe(_pz_request, _pz_result),
    "systmj.test": Recipe(_as_sent, _sj_test_result),
    "systmj.learning.roll": Recipe(_as_sent, _sj_learning_result),
    "unicreon.test": Recipe(_uc_request, _uc_result),
    "unicreon.combat.attack": Recipe(_uc_attack_request, _uc_attack_result),
    "unicreon.opposition": Recipe(None, _uc_opposition_result),
    "pointzero.opposition.roll": Recipe(None, _pz_opposition_result),
    "theorem.action.draw": Recipe(_th_action_request, _th_action_result),
    "theorem.opposition.draw": Recipe(_th_opposition_request, _th_opposition_result),
    "theorem.opposition.side": Recipe(_th_side_request, _th_side_result),
    "versality.test.draw": Recipe(_vs_draw_request, _vs_draw_result),
}
