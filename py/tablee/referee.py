"""The live table's referee: a player's move, checked and applied on the MJ's whole table.

DESIGN.md, principle 8: "A phone never writes the table directly: it sends moves (the op
requests it already makes), and the MJ's device, which holds the whole table and runs the
engine, checks each move against the identity of the link it came on, applies it, and
publishes what each device may see." This module is that check and that application, as one
pure op (``live.move``) the MJ's device calls with its whole document, the member the link
belongs to (its id, its name and the characters the MJ assigned to it: never what the
message claims) and the move as the phone sent it.

A move is the request a system page already makes on one device, minus the hidden state: the
referee fills the system's table state in from the MJ's table, replaces every character the
move names by the MJ's record of it (a phone's copy is the player view, never the whole
record), draws the move's seed itself (a phone could choose a seed that draws the card it
wants) and drops the fields only the MJ sets (:attr:`Move.mj_fields`). What the move may
touch is data (:data:`MOVES`), not code branches: which system state it reads and writes,
which request fields name an acting character (each must be one of the member's), whether
the answer is merged into the state (Versality's player ops answer the public state only).

Anything else is refused with a stable code and the table unchanged: an op that is not a
move (an MJ op, ``live.refused.not_a_move``), a character that is not the member's
(``live.refused.character``), a record the store refuses (``live.refused.invalid``). The
answer for the phone holds the op's answer without the whole state: ``state`` is the system
state as any player sees it (the same filter as the public doc, :mod:`tablee.share`).

Two moves are the kernel's own: ``live.character.save`` (a whole-sheet edit of one of the
member's characters; a field the player view hides or blanks keeps the MJ's value, so a
blanked secret is never taken for the player's own; a new id is a character the player made,
added and answered ``created``), ``live.log.label`` (a page's words for the entry the referee
logged for the member's move) and ``live.log.add`` (a roll-log entry without a result,
checked like an imported one, dated by the MJ's device and signed by the member: a ``who``
that is neither the member's name nor one of its characters' becomes the member's name).

The MJ's device rolls: a move whose op takes a seed is logged by the referee from its own run
(:func:`_log_run`), and a phone's log line carrying a request or a result is refused
(``live.refused.result``). What goes back to a phone is filtered: the answer without the
whole state, the deck a draw used, or (after a hidden state was read) the seed; an error with
only the params of :data:`_SAFE_PARAMS` (:func:`phone_error`).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from . import share, store
from .errors import RulesError, declare
from .registry import OPS, SEED_SCHEMA, SYSTEM_IDS, op

__all__ = ["MOVES", "Move", "apply_move", "is_move", "phone_error"]

declare(
    "live.refused.not_a_move",
    "live.refused.character",
    "live.refused.invalid",
    "live.refused.no_state",
    "live.refused.duplicate",
    "live.refused.result",
    "live.refused.malformed",
)

#: Keys of an op's answer that never go back to a phone (the whole state, Versality's merge).
_ANSWER_SECRETS = ("state", "public", "penalties")
#: Keys removed at any depth of an answer for a phone: the order of the deck a draw used
#: (Théorem's ``deck_used`` is the whole draw pile, top first: the next cards of everyone).
_DEEP_SECRETS = frozenset({"deck_used"})


@dataclass(frozen=True)
class Move:
    """What a move may touch.

    ``system``: the system whose state the op reads and writes (``None``: no state).
    ``actors``: request fields naming an acting character: ``("character", "record")`` (the
    record, replaced by the MJ's) or ``("character_id", "id")``; each must be the member's.
    ``merge``: the op answers ``public``/``penalties``, merged by ``versality.state.merge``.
    ``mj_fields``: request fields only the MJ sets (dropped from a player's move).
    ``part``: the op's state is this key of the system's state (Unicreon's ``combat``).
    An actor ``("attacker", "cid")`` names a combatant of that state whose ``character_id``
    must be one of the member's.
    """

    system: str | None
    actors: tuple[tuple[str, str], ...] = ()
    merge: bool = False
    mj_fields: tuple[str, ...] = ()
    part: str | None = None


_REC = (("character", "record"),)
_ID = (("character_id", "id"),)

#: op name -> what that op may touch when a player sends it. Every other op is refused.
MOVES: dict[str, Move] = {
    # Théorem (003_0f8319d4d007e1fe.txt): a player's hand, draws, figures, arcana, re-tests.
    "theorem.hand.draw": Move("theorem", _REC),
    "theorem.action.begin": Move("theorem", _REC),
    "theorem.action.draw": Move("theorem", _REC),
    "theorem.action.figure": Move("theorem", _REC),
    "theorem.action.cancel": Move("theorem", _REC),
    "theorem.action.aside": Move("theorem", _ID),
    "theorem.arcane.play": Move("theorem", _REC),
    "theorem.retest.clear": Move("theorem", _ID),
    # Versality: the deck, the draw, the card played; the MJ's tokens are the MJ's to spend.
    "versality.deck.build": Move("versality", _REC, merge=True),
    "versality.deck.sync": Move("versality", _REC, merge=True),
    "versality.test.draw": Move("versality", _REC, merge=True),
    "versality.test.resolve": Move("versality", _ID, merge=True, mj_fields=("tokens",)),
    # SYSTMJ: a secret Action/Mouvement choice for one of the player's characters.
    "systmj.round.choose": Move("systmj", (("entity", "id"),)),
    # Point Zéro: a Tension point (the whole table's gauge; its threshold stays hidden).
    "pointzero.tension.use": Move("pointzero"),
    # Unicreon: a passe d'armes by one of the player's fighters.
    "unicreon.combat.attack": Move("unicreon", (("attacker", "cid"),), part="combat"),
    # Any system: a roll of dice, seeded by the MJ's device.
    "roll": Move(None),
    # The dice tests of the system pages: rolled by the MJ's device too (a phone's own roll
    # could be rerolled until it suits, and its log entry written to say anything).
    "systmj.test": Move(None),
    "pointzero.test.roll": Move(None),
    "unicreon.test": Move(None, _REC),
    "pointzero.opposition.roll": Move(None),
    "unicreon.opposition": Move(None),
}


#: The params of an error a phone may receive: the names of fields and the bounds of the
#: rules, never a value of the table. Everything else is dropped (an op's error may quote
#: what it read: a card of another's hand, a deck order, the MJ's tokens, a ``detail`` or a
#: ``request.internal`` text quoting the state); a message missing a param says "—".
_SAFE_PARAMS = frozenset({"op", "field", "path", "rule", "max", "min", "maximum", "system"})


def _safe_value(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)) or (
        isinstance(value, str) and len(value) <= 64) or value is None


def phone_error(error: Any) -> dict[str, Any]:
    """An error as a phone may receive it: its code and message key, and only the params of
    :data:`_SAFE_PARAMS` that are numbers or short strings; a refusal's store problems keep
    their field and code. ``{"error": ...}`` in, ``{"error": ...}`` out."""
    inner = error.get("error") if isinstance(error, dict) else None
    if not isinstance(inner, dict) or not isinstance(inner.get("code"), str):
        return _refuse("live.refused.malformed").to_json()
    code = inner["code"][:100]
    raw = inner.get("params") if isinstance(inner.get("params"), dict) else {}
    params = {k: v for k, v in raw.items() if k in _SAFE_PARAMS and _safe_value(v)}
    if isinstance(raw.get("problems"), list):
        params["problems"] = [
            {"field": p.get("field") if _safe_value(p.get("field")) else None, "code": p.get("code"), "params": {}}
            for p in raw["problems"][:5] if isinstance(p, dict) and isinstance(p.get("code"), str)]
    return {"error": {"code": code, "message_key": f"error.{code}", "params": params}}


def is_move(name: Any) -> bool:
    """Whether a player may send the op ``name`` as a move."""
    return isinstance(name, str) and (name in MOVES or name in _KERNEL_MOVES)


def _refuse(code: str, **params: Any) -> RulesError:
    return RulesError(code, **params)


def _character_index(document: dict[str, Any], cid: str) -> int:
    for i, character in enumerate(document["characters"]):
        if isinstance(character, dict) and character.get("id") == cid:
            return i
    return -1


def _own(member: dict[str, Any], cid: Any) -> str:
    """``cid`` when it is one of the member's characters, else refused (the id is not echoed
    unless it is a string: the refusal names what the phone sent, nothing of the table)."""
    if not isinstance(cid, str) or cid not in member["characters"]:
        raise _refuse("live.refused.character", character=cid if isinstance(cid, str) else None)
    return cid


def _player_state(system: str, state: dict[str, Any]) -> dict[str, Any]:
    fn = share._filters(system).state
    return fn(copy.deepcopy(state)) if fn else copy.deepcopy(state)


def _run(request: dict[str, Any]) -> dict[str, Any]:
    from .api import handle

    answer = handle(request)
    if "error" in answer:
        raise _Answered(answer)
    return answer


class _Answered(Exception):
    """An op's JSON error, passed on as the move's answer."""

    def __init__(self, answer: dict[str, Any]) -> None:
        super().__init__(answer["error"]["code"])
        self.answer = answer


def _system_move(document: dict[str, Any], member: dict[str, Any], move: dict[str, Any], seed: int,
                 now: str) -> dict[str, Any]:
    name = move["op"]
    spec = MOVES[name]
    from .api import _find

    _find(name)
    props = OPS[name].schema["properties"]
    request = {k: copy.deepcopy(v) for k, v in move.items() if k not in spec.mj_fields}
    request.pop("state", None)
    if "seed" in props:
        request["seed"] = seed
    touched: set[str] = set()
    state = document["systems"].get(spec.system) if spec.system is not None else None
    if spec.system is not None and spec.part is not None:
        state = state.get(spec.part) if isinstance(state, dict) else None
    if spec.system is not None and not isinstance(state, dict):
        raise _refuse("live.refused.no_state", system=spec.system)
    for field, kind in spec.actors:
        value = request.get(field)
        if kind == "cid":
            fighters = state.get("combatants", [])
            fighter = next((f for f in fighters if isinstance(f, dict) and f.get("cid") == value), None)
            _own(member, fighter.get("character_id") if fighter else None)
            continue
        cid = _own(member, value.get("id") if kind == "record" and isinstance(value, dict) else value)
        at = _character_index(document, cid)
        if at < 0 or (spec.system and document["characters"][at].get("system") != spec.system):
            raise _refuse("live.refused.character", character=cid)
        if kind == "record":
            request[field] = copy.deepcopy(document["characters"][at])
        touched.add(cid)
    if spec.system is not None:
        request["state"] = copy.deepcopy(state)
    answer = _run(request)
    out = document
    if spec.system is not None:
        new_state = answer.get("state")
        if spec.merge and "public" in answer:
            merged = _run({"op": "versality.state.merge", "state": request["state"], "public": answer["public"],
                           "penalties": answer.get("penalties", {})})
            new_state = merged["state"]
        if isinstance(new_state, dict) and spec.part is not None:
            out["systems"][spec.system] = {**out["systems"][spec.system], spec.part: new_state}
        elif isinstance(new_state, dict):
            out["systems"][spec.system] = new_state
    changed = answer.get("character")
    if isinstance(changed, dict) and changed.get("id") in touched:
        out["characters"][_character_index(out, changed["id"])] = changed
    reply = share.scrub({k: v for k, v in answer.items() if k not in _ANSWER_SECRETS}, _DEEP_SECRETS)
    if spec.system is not None or touched:
        # The seed of a move that read a hidden state: with the public discard it would let the
        # phone shuffle again and know the new draw order. The MJ's feed keeps it.
        reply.pop("seed", None)
    if "seed" in props:
        reply["logged"] = _log_run(out, member, name, spec, request, reply, seed, now, touched)
    if isinstance(reply.get("character"), dict) and reply["character"].get("id") in touched:
        reply["character"] = share.share("character", reply["character"], "player")
    if spec.system is not None and isinstance(out["systems"].get(spec.system), dict):
        view = _player_state(spec.system, out["systems"][spec.system])
        reply["state"] = view.get(spec.part) if spec.part is not None else view
    return reply


#: The log kind of a move's entry when the system pages log that op under another name (so
#: the pages that read the log, e.g. SYSTMJ's session review, find a phone's tests too).
_LOG_KINDS = {"pointzero.test.roll": "pointzero.test", "versality.test.resolve": "versality.test",
              "unicreon.combat.attack": "unicreon.attack", "pointzero.opposition.roll": "pointzero.opposition"}
#: Answer keys read as the total a log entry shows, in this order.
_TOTALS = ("total", "roll", "raw", "score")


def _log_run(out: dict[str, Any], member: dict[str, Any], name: str, spec: Move, request: dict[str, Any],
             reply: dict[str, Any], seed: int, now: str, touched: set[str]) -> str:
    """Write the log entry of a random move (an op that takes a seed) into the MJ's table, from
    the referee's own run: its request (the MJ's device's seed) and its answer. A phone never
    writes a result into the log (:func:`_add_entry` refuses one): it could log a roll that
    never happened, or roll until the result suits and log only that one.

    The entry keeps the seed (for "Vérifier / rejouer") only when its request is whole: a
    move that read a hidden state or a character's full record is logged with the character
    ids and without its seed, the way a share filter would take its deck out."""
    # A character record in the request (an actor's, or one a phone sent along: Unicreon's
    # opposition) is logged as its id: a full record may hold what only the MJ sees.
    records = {k for k, v in request.items() if isinstance(v, dict) and "id" in v and "system" in v}
    whole = spec.system is None and not touched and not records
    logged = {k: v for k, v in request.items() if k != "state" and (whole or k != "seed")}
    for field in records | {f for f, kind in spec.actors if kind == "record" and isinstance(logged.get(f), dict)}:
        logged[field] = {"id": logged[field].get("id")}
    result = {k: v for k, v in reply.items() if k not in ("seed", "character", "state", "logged")}
    total = next((result[k] for k in _TOTALS
                  if isinstance(result.get(k), int) and not isinstance(result[k], bool)), None)
    if name == "roll":
        result = {"total": reply.get("total"), "terms": reply.get("terms", [])}
    elif total is not None:
        result = {"total": total, **result}
    if len(json.dumps(result)) > store.MAX_ENTRY_SIZE:
        result = {k: v for k, v in result.items() if isinstance(v, (int, str, bool)) or v is None}
    names = {c["id"]: c.get("name") for c in out["characters"] if isinstance(c, dict) and c.get("id") in touched}
    who = next((n for n in names.values() if isinstance(n, str) and n), None) or member.get("name") or member["id"]
    entry = {"id": f"live-{seed:x}", "at": now, "kind": _LOG_KINDS.get(name, name), "system": spec.system,
             "who": who[:store.MAX_NAME], "label": str(request.get("expr", ""))[:200] if name == "roll" else "",
             "request": logged, "result": result}
    if spec.system is None and name.split(".")[0] in SYSTEM_IDS:
        entry["system"] = name.split(".")[0]
    checked = share.share("entry", entry, "mj")
    out["log"] = [e for e in out["log"] if not (isinstance(e, dict) and e.get("id") == checked["id"])]
    out["log"].append(checked)
    if len(out["log"]) > store.MAX_LOG:
        del out["log"][: len(out["log"]) - store.MAX_LOG]
    return checked["id"]


def _overlay(full: Any, view: Any, edited: Any) -> Any:
    """``full`` (the MJ's record) with what the player changed from ``view`` (what they saw)
    to ``edited``: a value the player left as seen keeps the MJ's (a blanked secret stays),
    a key the view hid stays the MJ's, a new key is added, a key removed from the view goes."""
    if not (isinstance(full, dict) and isinstance(view, dict) and isinstance(edited, dict)):
        return copy.deepcopy(edited)
    out = copy.deepcopy(full)
    for key, value in edited.items():
        if key not in view:
            if key not in full:
                out[key] = copy.deepcopy(value)  # a new field (the store's check judges it)
            continue  # a key the player never saw (hidden): the MJ's stays
        if view[key] == value:
            continue  # unchanged from what the player saw: the MJ's value stays
        out[key] = _overlay(full.get(key), view[key], value)
    for key in view:
        if key not in edited:
            out.pop(key, None)
    return out


def _save_character(document: dict[str, Any], member: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    edited = move.get("character")
    if not isinstance(edited, dict):
        raise _refuse("live.refused.invalid", field="character")
    at = _character_index(document, edited.get("id")) if isinstance(edited.get("id"), str) else -1
    if at < 0:
        return _new_character(document, edited)
    _own(member, edited.get("id"))
    full = document["characters"][at]
    view = share.share("character", full, "player")
    record = _overlay(full, view, edited)
    record["id"], record["system"] = full["id"], full["system"]
    problems = store.check_character(record)
    if problems:
        raise _refuse("live.refused.invalid", field="character", problems=[p.to_json() for p in problems[:5]])
    document["characters"][at] = record
    return {"character": share.share("character", record, "player")}


def _new_character(document: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """A character a player made on their phone joins the table (and becomes theirs: the MJ's
    device assigns it, ``created``), once the store accepts it like an imported one."""
    problems = store.check_character(record)
    if problems:
        raise _refuse("live.refused.invalid", field="character", problems=[p.to_json() for p in problems[:5]])
    if len(document["characters"]) >= store.MAX_CHARACTERS:
        raise _refuse("live.refused.invalid", field="characters")
    document["characters"].append(copy.deepcopy(record))
    return {"character": share.share("character", record, "player"), "created": record["id"]}


def _add_entry(document: dict[str, Any], member: dict[str, Any], move: dict[str, Any], now: str) -> dict[str, Any]:
    entry = move.get("entry")
    if not isinstance(entry, dict):
        raise _refuse("live.refused.invalid", field="entry")
    if entry.get("request") != {} or entry.get("result") != {}:
        # A roll or an op's result: written by the referee from its own run (:func:`_log_run`),
        # never taken from a phone. What a player may write is a line without one.
        raise _refuse("live.refused.result")
    entry = {k: v for k, v in entry.items() if k != "to"}  # only the MJ sends a line to someone
    entry["at"] = now
    # Signed by the member: its own name or one of its characters' (never "MJ" or another's).
    names = {member.get("name") or member["id"]} | {
        c.get("name") for c in document["characters"] if isinstance(c, dict) and c.get("id") in member["characters"]}
    if entry.get("who") not in names:
        entry["who"] = member.get("name") or member["id"]
    try:
        checked = share.share("entry", entry, "mj")
    except RulesError as exc:
        raise _refuse("live.refused.invalid", field="entry", problems=exc.params.get("problems", [])) from None
    if any(isinstance(e, dict) and e.get("id") == checked["id"] for e in document["log"]):
        raise _refuse("live.refused.duplicate", id=checked["id"])
    document["log"].append(checked)
    if len(document["log"]) > store.MAX_LOG:
        del document["log"][: len(document["log"]) - store.MAX_LOG]
    return {"entry": share.share("entry", checked, "player")}


def _label_entry(document: dict[str, Any], member: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """The label a phone's page gives the entry the referee logged for that phone's move (the
    page words it: "Force (45)"): text only, on an entry the referee wrote (id ``live-…``)
    signed by the member or one of its characters; its request and result stay the referee's."""
    eid, label = move.get("id"), move.get("label")
    if not isinstance(eid, str) or not eid.startswith("live-") or not isinstance(label, str):
        raise _refuse("live.refused.invalid", field="label")
    names = {member.get("name") or member["id"]} | {
        c.get("name") for c in document["characters"] if isinstance(c, dict) and c.get("id") in member["characters"]}
    at = next((i for i, e in enumerate(document["log"]) if isinstance(e, dict) and e.get("id") == eid), -1)
    if at < 0 or document["log"][at].get("who") not in names:
        raise _refuse("live.refused.character", character=None)
    entry = {**document["log"][at], "label": label[:200]}
    try:
        checked = share.share("entry", entry, "mj")
    except RulesError:
        raise _refuse("live.refused.invalid", field="label") from None
    document["log"][at] = checked
    return {"entry": share.share("entry", checked, "player") if "to" not in checked else {"id": eid}}


_KERNEL_MOVES = ("live.character.save", "live.log.add", "live.log.label")


def apply_move(
    document: dict[str, Any], member: dict[str, Any], move: Any, *, seed: int, now: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(new document, answer for the phone)`` after ``member``'s ``move`` on the MJ's whole
    ``document`` (not changed in place). Raises :class:`RulesError` (the table unchanged)
    when the move is refused, or returns the op's own error as the answer (document unchanged).
    ``member`` is ``{"id", "name", "characters"}`` as the MJ's device knows the link's member."""
    if not isinstance(move, dict) or not is_move(move.get("op")):
        name = move.get("op") if isinstance(move, dict) else None
        raise _refuse("live.refused.not_a_move", op=name[:64] if isinstance(name, str) else None)
    if not (isinstance(document.get("systems"), dict) and isinstance(document.get("characters"), list)
            and isinstance(document.get("log"), list)):
        raise _refuse("live.refused.invalid", field="document")
    out = copy.deepcopy(document)
    try:
        if move["op"] == "live.character.save":
            answer = _save_character(out, member, move)
        elif move["op"] == "live.log.add":
            answer = _add_entry(out, member, move, now)
        elif move["op"] == "live.log.label":
            answer = _label_entry(out, member, move)
        else:
            answer = _system_move(out, member, move, seed, now)
    except _Answered as exc:
        return document, phone_error(exc.answer)
    return out, answer


_MEMBER = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "minLength": 1, "maxLength": 64},
        "name": {"type": "string", "maxLength": 80},
        "characters": {"type": "array", "maxItems": 200, "items": {"type": "string", "maxLength": 64}},
    },
    "required": ["id", "characters"],
    "additionalProperties": False,
}


@op(
    "live.move",
    properties={
        "document": {"type": "object"},
        "member": _MEMBER,
        "move": {},
        "seed": SEED_SCHEMA,
        "now": {"type": "string", "minLength": 1, "maxLength": 40},
    },
    required=("document", "member", "move", "seed", "now"),
    summary="The live table's referee: a player's move checked against the member's identity and "
    "characters, applied on the MJ's whole table; the new document and the player's answer.",
)
def _live_move(request: dict[str, Any]) -> dict[str, Any]:
    try:
        document, answer = apply_move(request["document"], request["member"], request["move"],
                                      seed=request["seed"], now=request["now"])
    except RulesError as exc:
        # A refusal: the phone gets it filtered like any error (:func:`phone_error`).
        return {"applied": False, "refused": exc.code, "answer": phone_error(exc.to_json())}
    if "error" in answer:
        return {"applied": False, "answer": answer}
    return {"applied": True, "document": document, "answer": answer}


@op("live.moves", summary="The ops a player may send to the MJ's device as moves.")
def _live_moves(request: dict[str, Any]) -> dict[str, Any]:
    return {"moves": sorted([*MOVES, *_KERNEL_MOVES])}
