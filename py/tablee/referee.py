"""The live table's referee: a player's move, checked and applied on the MJ's whole table.

DESIGN.md, principle 8: "A phone never writes the table directly: it sends moves (the op
requests it already makes), and the MJ's device, which holds the whole table and runs the
engine, checks each move against the identity of the link it came on, applies it, and
publishes what each device may see." This module is that check and that application, as one
pure op (``live.move``) the MJ's device calls with its whole document, the member the link
belongs to (its id, the name it joined with and the characters the MJ assigned to it: never
what the message claims) and the move as the phone sent it.

The referee is the generic door: which op is a move, whose characters it names, the system
state and records it reads from the MJ's table, the seed it draws, the log entry it writes and
who signs it (:mod:`tablee.referee_kernel`), and what of the answer goes back. What a system's
move reads and checks is declared beside that system's ops.

**A system's moves.** A system declares its moves in its :class:`tablee.system.System`
(``moves``: op name -> :class:`tablee.system.Move`: which system state the op reads and writes,
which request fields name an acting character of the member's and how, the fields only the MJ
sets, the answer keys a phone never gets, the log kind, and hooks that fill in what only the
MJ's table knows, or merge what the op answered), written in ``tablee/systems/<id>/moves.py``.
Every op name must start with ``<id>.``. :func:`moves_of` loads the system the first time a
move of it arrives (the phone's list of moves, ``live.moves``, loads them all). An op listed
nowhere is not a move. The kernel's own moves (``roll``, a sheet saved, a note, a label) are
this module's and :mod:`tablee.referee_kernel`'s.

**One pipeline.** A system's move goes through four steps (:func:`_system_move`): validate
(the op's request made from the move: the MJ-only fields dropped, the MJ's state, records and
seed filled in, every actor checked to be the member's as the system declares, then the
system's ``prepare``), apply (the op run; the new state, the acting character and the others
written on the referee's copy of the table), log (the entry the referee writes from its own
run, :func:`tablee.referee_kernel.log_run`) and filter (the answer without what never leaves
the MJ's device, its records and state as a player sees them).

A move is the request a system page already makes on one device, minus the hidden state: the
referee fills the system's table state in from the MJ's table, replaces every character the
move names by the MJ's record of it (a phone's copy is the player view, never the whole
record), draws the move's seed itself (a phone could choose a seed that draws the card it
wants) and drops the fields only the MJ sets (:attr:`Move.mj_fields`).

Anything else is refused with a stable code and the table unchanged: an op that is not a
move (an MJ op, ``live.refused.not_a_move``), a character that is not the member's
(``live.refused.character``), a record the store refuses (``live.refused.invalid``). The
answer for the phone holds the op's answer without the whole state: ``state`` is the system
state as any player sees it (the same filter as the public doc, :mod:`tablee.share`).

Three moves are the kernel's own (:mod:`tablee.referee_kernel`): ``live.character.save`` (a
whole-sheet edit of one of the member's characters; a field the player view hides or blanks
keeps the MJ's value; a new id is a character the player made, added and answered
``created``), ``live.log.label`` (a page's label for the entry the referee logged for that
member's move, matched by member id: a label only, never its result line) and
``live.log.add`` (a roll-log line without a result, dated by the MJ's device and stamped with
the member).

A move carries its own words (:func:`move_words`): the ``label`` its entry is logged under
(the phone's words for it, « lance des dés », or a roll's expression); text only, capped,
taken out of the request before the op runs. With it, how the phone worded it in its language
(``label_words``, ``words_lang``: checked as a table's entry's words are), so every device
reads the entry in its own. Never how it came out: the entry's result line is made by the
referee from its own run (:mod:`tablee.referee_words`); a phone's ``summary`` is ignored.

Who did it comes from the link: every entry the referee writes for a member carries
``member`` (its id and joined name), a Tension point is signed with the member's name
(:func:`tablee.referee_kernel.signature`); a character's name never stands for a member.

The MJ's device rolls: a move whose op takes a seed is logged by the referee from its own run
(:func:`tablee.referee_kernel.log_run`), and a phone's log line carrying a request or a result
is refused (``live.refused.result``). What goes back to a phone is filtered: the answer
without the whole state, the deck a draw used, or (after a hidden state was read) the seed; an
error with only the params of :data:`_SAFE_PARAMS` (:func:`phone_error`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from . import held, referee_words, share
from .errors import RulesError, declare
from .referee_kernel import (
    KERNEL_MOVES,
    Member,
    Run,
    add_entry,
    label_entry,
    log_run,
    move_words,
    own,
    refuse,
    save_character,
)
from .registry import OPS, SEED_SCHEMA, SYSTEM_IDS, from_json, op
from .system import Move
from .systems import load as load_system
from .tree import clone

__all__ = ["LiveAnswer", "Member", "apply_changes", "apply_move", "changes", "is_move", "moves_of", "phone_error",
           "run_op"]

declare(
    "live.refused.not_a_move",
    "live.refused.character",
    "live.refused.invalid",
    "live.refused.no_state",
    "live.refused.no_fight",
    "live.refused.duplicate",
    "live.refused.result",
    "live.refused.malformed",
    "live.refused.sheet",
    "live.refused.keep",
    "live.refused.no_round",
    "live.refused.label",
)

class LiveAnswer(TypedDict, total=False):
    """``live.move``'s answer: whether the move was applied; the refusal's code; the answer for
    the phone (filtered); the new table (``document``) or its ``changes``; the revision the
    worker holds (``rev``); the public view's ``projection``; ``stale`` when the worker holds
    another table than the one named."""

    applied: bool
    refused: str
    answer: dict[str, Any]
    document: dict[str, Any]
    changes: dict[str, Any]
    rev: str
    projection: dict[str, Any]
    stale: bool


#: Keys of an op's answer that never go back to a phone (the whole state; a system adds its own,
#: :attr:`Move.hidden`).
_ANSWER_SECRETS = ("state",)
#: Keys, at any depth of an op's answer, holding a draw pile's order as it stood before a draw
#: (Théorem's ``deck_used``, Versality's ``test.deck_used``: kept for a replay on one device).
#: A phone never gets them: the order of what is left is the MJ's secret (the issue: "no draw
#: orders"); the MJ's feed keeps the seed to replay a draw.
_DRAW_ORDERS = frozenset({"deck_used"})



#: The kernel's moves that run an op: any system's roll of dice, seeded by the MJ's device.
_KERNEL_OPS: dict[str, Move] = {"roll": Move(None)}

def moves_of(system: str) -> Mapping[str, Move]:
    """The moves ``system`` declares (its :class:`tablee.system.System`), the system loaded on
    the first call."""
    if system not in SYSTEM_IDS:
        raise ValueError(f"unknown system {system!r}")
    return load_system(system).moves


def _spec(name: Any) -> Move | None:
    """What the op ``name`` may touch when a player sends it, or None when it is not a move."""
    if not isinstance(name, str):
        return None
    if name in _KERNEL_OPS:
        return _KERNEL_OPS[name]
    system = name.split(".", 1)[0]
    return moves_of(system).get(name) if system in SYSTEM_IDS else None


def all_moves() -> dict[str, Move]:
    """Every op a player may send as a move, every system's loaded (``live.moves``, the tests)."""
    out = dict(_KERNEL_OPS)
    for system in SYSTEM_IDS:
        out.update(moves_of(system))
    return out


def __getattr__(name: str) -> Any:
    # ``referee.MOVES`` (every system's, loaded on first read) and ``referee._KERNEL_MOVES``:
    # the names the i18n check reads (tests/test_i18n_runtime_keys.py).
    if name == "MOVES":
        return all_moves()
    if name == "_KERNEL_MOVES":
        return KERNEL_MOVES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")



#: The params of an error a phone may receive: the names of fields and the bounds of the
#: rules, never a value of the table. Everything else is dropped (an op's error may quote
#: what it read: a card of another's hand, a deck order, the MJ's tokens, a ``detail`` or a
#: ``request.internal`` text quoting the state); a message missing a param says "—".
_SAFE_PARAMS = frozenset({"op", "field", "path", "rule", "extra", "max", "min", "maximum", "system"})


def _safe_value(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)) or (
        isinstance(value, str) and len(value) <= 64) or value is None


def phone_error(error: Any) -> dict[str, Any]:
    """An error as a phone may receive it: its code and message key, and only the params of
    :data:`_SAFE_PARAMS` that are numbers or short strings; a refusal's store problems keep
    their field and code. ``{"error": ...}`` in, ``{"error": ...}`` out."""
    inner = error.get("error") if isinstance(error, dict) else None
    if not isinstance(inner, dict) or not isinstance(inner.get("code"), str):
        return refuse("live.refused.malformed").to_json()
    code = inner["code"][:100]
    raw: dict[str, Any] = inner["params"] if isinstance(inner.get("params"), dict) else {}
    params = {k: v for k, v in raw.items() if k in _SAFE_PARAMS and _safe_value(v)}
    if isinstance(raw.get("problems"), list):
        params["problems"] = [
            {"field": p.get("field") if _safe_value(p.get("field")) else None, "code": p.get("code"), "params": {}}
            for p in raw["problems"][:5] if isinstance(p, dict) and isinstance(p.get("code"), str)]
    return {"error": {"code": code, "message_key": f"error.{code}", "params": params}}


def is_move(name: Any) -> bool:
    """Whether a player may send the op ``name`` as a move."""
    return isinstance(name, str) and (name in KERNEL_MOVES or _spec(name) is not None)


def _character_index(document: dict[str, Any], cid: str) -> int:
    for i, character in enumerate(document["characters"]):
        if isinstance(character, dict) and character.get("id") == cid:
            return i
    return -1


def run_op(request: dict[str, Any]) -> dict[str, Any]:
    """The op ``request`` run by the engine (a hook's own op: a merge, a sync); its error, if
    any, becomes the move's answer (the table unchanged)."""
    from .api import handle

    answer = handle(request)
    if "error" in answer:
        raise _Answered(answer)
    return answer


#: What a system's first table state is made from when a move needs it and the MJ's table has
#: none yet: the op ``<system>.state.new`` (its rules' defaults), seeded for a system whose new
#: table shuffles (Théorem's 56 cards) with this number mixed into the move's seed, so the
#: shuffle and the move's own draw never share one stream.
_FIRST_STATE_SALT = 0x5EED_F1_57


def _first_state(document: dict[str, Any], system: str, seed: int) -> dict[str, Any] | None:
    """A player's first move of ``system`` on a table whose only content is characters: the
    system's table state as its rules begin it, written on ``document`` (the referee's copy), so
    a player plays as soon as their character exists. Nothing the MJ keeps secret is needed to
    begin in any of the five systems: Point Zéro's gauge counts its points before the MJ sets
    the scenario's threshold (rules/README.md, Point Zéro, "Jauge de Tension": "the gauge starts
    empty and every Tension point a player uses goes into it"; Tension critique is only reached
    once a threshold is set, :func:`tablee.systems.pointzero.tension.set_threshold` keeps the
    gauge), Versality's first session begins with no catastrophe and no MJ token, SYSTMJ's in
    Jeu libre, Théorem's with the 56 cards shuffled at the centre. None when the system has no
    ``state.new`` op (the move is refused, ``live.refused.no_state``)."""
    from .api import _find

    name = f"{system}.state.new"
    if not _find(name):
        return None
    request: dict[str, Any] = {"op": name}
    if "seed" in OPS[name].schema["properties"]:
        request["seed"] = (seed ^ _FIRST_STATE_SALT) % 2**53
    state = run_op(request)["state"]
    document["systems"] = {**document["systems"], system: state}
    return state


class _Answered(Exception):
    """An op's JSON error, passed on as the move's answer."""

    def __init__(self, answer: dict[str, Any]) -> None:
        super().__init__(answer["error"]["code"])
        self.answer = answer


@dataclass
class _Checked:
    """A move as :func:`_validate` leaves it, ready to run: the op's request (the MJ's records
    and seed filled in), the system state part the op works on (None: none), the member's
    characters it acts with (``touched``), the other characters it names (``others``), who
    signs it (the acting character's or fighter's name) and the hooks' ``ctx``."""

    name: str
    spec: Move
    request: dict[str, Any]
    seeded: bool
    state: dict[str, Any] | None
    touched: set[str]
    others: set[str]
    who: str | None
    ctx: dict[str, Any]


def _system_move(document: dict[str, Any], member: Member, move: dict[str, Any], seed: int,
                 now: str, words: dict[str, Any] | None = None) -> dict[str, Any]:
    """A system's move (or a roll) on the referee's copy of the table, in four steps: validate
    (identity and ownership as the system declares them, the MJ's records and seed filled in,
    the system's own checks), apply (the op run, its new state and records written), log (the
    entry the referee writes from its own run) and filter (the answer as the phone may read it)."""
    checked = _validate(document, member, move, seed)
    answer = _apply(document, checked)
    public = _withheld(checked, answer)
    if checked.seeded:
        public["logged"] = log_run(document, Run(
            checked.name, checked.spec, member, checked.request, answer, public, seed, now,
            frozenset(checked.touched), checked.who, checked.ctx, words or {}))
    return _phone_view(document, checked, public)


def _validate(document: dict[str, Any], member: Member, move: dict[str, Any], seed: int) -> _Checked:
    """The move made the op's request, or refused: the fields only the MJ sets dropped, a
    phone's copy of a state never taken, the seed the MJ's device's; the system's state read
    (made when the table holds none yet); every actor the member's as the system declares
    (:class:`tablee.system.Move` ``actors``) and replaced by the MJ's record; then the
    system's own checks (``prepare``)."""
    name = move["op"]
    spec = _spec(name)
    assert spec is not None  # (apply_move let only moves through)
    from .api import _find

    _find(name)
    seeded = "seed" in OPS[name].schema["properties"]
    request = {k: clone(v) for k, v in move.items() if k not in spec.mj_fields}
    if spec.state or isinstance(request.get("state"), dict):
        # A phone's copy of a system state is never taken (the MJ's is filled in below). A
        # ``state`` that is no object is an op's own field (Unicreon's state at 0 PV).
        request.pop("state", None)
    if seeded:
        request["seed"] = seed
    state = _system_state(document, spec, seed)
    touched: set[str] = set()
    acting: dict[str, Any] | None = None
    who: str | None = None
    for field, kind in spec.actors:
        found = _actor(document, member, spec, request, state, field, kind)
        if found is None:
            continue
        cid, at, name_of = found
        if at >= 0:
            touched.add(cid)
            acting = acting or document["characters"][at]
        who = who or name_of
    others: set[str] = set()
    for field in spec.others:
        value = request.get(field)
        if value is None:
            continue
        other = value.get("id") if isinstance(value, dict) else None
        at = _character_index(document, other) if isinstance(other, str) else -1
        if not isinstance(other, str) or at < 0 or document["characters"][at].get("system") != spec.system:
            raise refuse("live.refused.character", character=other if isinstance(other, str) else None)
        request[field] = clone(document["characters"][at])
        others.add(other)
    ctx = {"character": clone(acting) if acting else None, "state": clone(state), "document": document,
           "member": member}
    if spec.prepare is not None:
        request = spec.prepare(request, ctx)
    if spec.system is not None and spec.state:
        request["state"] = clone(state)
    return _Checked(name, spec, request, seeded, state, touched, others, who, ctx)


def _system_state(document: dict[str, Any], spec: Move, seed: int) -> dict[str, Any] | None:
    """The part of the MJ's system state the move works on (the whole state, or its ``part``),
    the system's first state written on the table when it holds none and the move needs one;
    refused when the move needs a state the table does not hold. None: the move reads none."""
    if spec.system is None:
        return None
    state = document["systems"].get(spec.system)
    if spec.needs_state and not isinstance(state, dict):
        state = _first_state(document, spec.system, seed)
    if spec.part is not None:
        state = state.get(spec.part) if isinstance(state, dict) else None
    if not isinstance(state, dict):
        if spec.needs_state:
            # (a part the MJ opens: Unicreon's fight; a whole state no op makes: none yet)
            raise refuse("live.refused.no_fight" if spec.part is not None else "live.refused.no_state",
                         system=spec.system)
        return None
    return state


def _actor(document: dict[str, Any], member: Member, spec: Move, request: dict[str, Any],
           state: dict[str, Any] | None, field: str, kind: str) -> tuple[str, int, str | None] | None:
    """One actor of the move checked (``(field, kind)`` of :attr:`tablee.system.Move.actors`):
    ``(character id, its index on the table, the name the entry is signed with)``, the
    request's record replaced by the MJ's for a ``record`` actor; None for an actor the
    request may leave out and did (``id?``, an NPC ``side?``). A combatant (``cid``) is the
    member's through its ``character_id`` and signs with the fighter's name when the table
    holds no such character (index -1). Refused when it is not the member's."""
    value = request.get(field)
    if kind == "id?":
        if value is None:
            return None  # not named: the prepare hook reads the acting character instead
        kind = "id"
    if kind == "subject":
        value = value.get("character") if isinstance(value, dict) else None
    if kind == "cid":
        fighters = state.get("combatants", []) if isinstance(state, dict) else []
        fighter = next((f for f in fighters if isinstance(f, dict) and f.get("cid") == value), None)
        if fighter is None:
            raise refuse("live.refused.character", character=None)
        cid = own(member, fighter.get("character_id"))
        # signed with the fighter's name, as the combat page signs it on one device
        at = _character_index(document, cid)
        return cid, -1, (document["characters"][at].get("name") if at >= 0 else fighter.get("name"))
    if kind in ("side", "side?"):
        if not isinstance(value, dict):
            raise refuse("live.refused.invalid", field=field)
        if kind == "side?" and "character_id" not in value:
            return None  # an NPC side: the numbers the table declared
        value = value.get("character_id")
    if kind == "fighter":
        value = value.get("id") if isinstance(value, dict) else None
    cid = own(member, value.get("id") if kind == "record" and isinstance(value, dict) else value)
    at = _character_index(document, cid)
    if at < 0 or (spec.system and document["characters"][at].get("system") != spec.system):
        raise refuse("live.refused.character", character=cid)
    if kind == "record":
        request[field] = clone(document["characters"][at])
    return cid, at, document["characters"][at].get("name")


def _apply(out: dict[str, Any], checked: _Checked) -> dict[str, Any]:
    """Run the op and write what the move leaves on the referee's copy of the table: the
    system's new state (the op's, a ``record`` hook's, a ``merge`` hook's; a ``part`` of the
    whole), the acting character's record (the op's, or a ``sheet`` hook's) and the other
    characters the op answers. The op's whole answer (its error: the move's answer)."""
    spec, request, ctx = checked.spec, checked.request, checked.ctx
    answer = run_op({k: v for k, v in request.items() if k not in spec.log_only})
    if spec.sheet is not None:
        sheet = spec.sheet(answer, request, ctx)
        if sheet is not None:
            answer = {**answer, "character": sheet}
    if spec.system is not None:
        new_state = answer.get("state") if spec.state else None
        if spec.record is not None and checked.state is not None:
            new_state = spec.record(answer, request, ctx) or new_state
        if spec.merge is not None:
            new_state = spec.merge(request["state"], answer) or new_state
        if isinstance(new_state, dict) and spec.part is not None:
            out["systems"][spec.system] = {**out["systems"][spec.system], spec.part: new_state}
        elif isinstance(new_state, dict):
            out["systems"][spec.system] = new_state
    changed = answer.get("character")
    if isinstance(changed, dict) and changed.get("id") in checked.touched:
        out["characters"][_character_index(out, changed["id"])] = changed
    for field in spec.others:
        other = answer.get(field)
        if isinstance(other, dict) and other.get("id") in checked.others | checked.touched and other is not changed:
            out["characters"][_character_index(out, other["id"])] = other
    return answer


def _withheld(checked: _Checked, answer: dict[str, Any]) -> dict[str, Any]:
    """The op's answer without what never leaves the MJ's device: the whole state and the keys
    the move hides, every draw order, and the seed of a move that read a hidden state (with
    the public discard it would let the phone shuffle again and know the new draw order)."""
    hidden = (*_ANSWER_SECRETS, *checked.spec.hidden)
    reply = share.scrub({k: v for k, v in answer.items() if k not in hidden}, _DRAW_ORDERS)
    if checked.spec.system is not None or checked.touched:
        reply.pop("seed", None)
    return reply


def _phone_view(document: dict[str, Any], checked: _Checked, reply: dict[str, Any]) -> dict[str, Any]:
    """The answer as the phone gets it: every character it holds as a player sees it, and the
    system state the move left, as any player sees it (the public doc's filter)."""
    spec = checked.spec
    if isinstance(reply.get("character"), dict) and reply["character"].get("id") in checked.touched:
        reply["character"] = share.share("character", reply["character"], "player")
    for field in spec.others:
        if isinstance(reply.get(field), dict):
            reply[field] = share.share("character", reply[field], "player")
    if spec.system is not None and isinstance(document["systems"].get(spec.system), dict):
        view = share.state_view(spec.system, document["systems"][spec.system])
        reply["state"] = view.get(spec.part) if spec.part is not None else view
    return reply


def apply_move(
    document: dict[str, Any], member: Member, move: Any, *, seed: int, now: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(new document, answer for the phone)`` after ``member``'s ``move`` on the MJ's whole
    ``document`` (not changed in place). Raises :class:`RulesError` (the table unchanged)
    when the move is refused, or returns the op's own error as the answer (document unchanged).
    ``member`` is ``{"id", "name", "characters"}`` as the MJ's device knows the link's member."""
    if not isinstance(move, dict) or not is_move(move.get("op")):
        name = move.get("op") if isinstance(move, dict) else None
        raise refuse("live.refused.not_a_move", op=name[:64] if isinstance(name, str) else None)
    if not (isinstance(document.get("systems"), dict) and isinstance(document.get("characters"), list)
            and isinstance(document.get("log"), list)):
        raise refuse("live.refused.invalid", field="document")
    # What a move changes it replaces: a system's state, a character, the log (a new list).
    # Nothing below changes a record in place, so the table is copied down to those three
    # containers only: a deep copy of a 50-character, 1,000-entry table cost as much as the op.
    out = {**document, "systems": dict(document["systems"]), "characters": list(document["characters"]),
           "log": list(document["log"])}
    try:
        if move["op"] == "live.character.save":
            answer = save_character(out, member, move)
        elif move["op"] == "live.log.add":
            answer = add_entry(out, member, move, now)
        elif move["op"] == "live.log.label":
            answer = label_entry(out, member, move)
        else:
            # (the move's words are its entry's, never the op's: taken out before it runs)
            bare, words = move_words(move)
            answer = _system_move(out, member, bare, seed, now, words)
    except _Answered as exc:
        return document, phone_error(exc.answer)
    return out, answer


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """What a move changed, ``after`` from ``before`` (:func:`apply_move`'s document and its
    answer, which shares every record it did not replace): the system states replaced
    (``systems``), and for ``characters`` and ``log`` the records dropped from the front,
    replaced in place and appended (:func:`tablee.share.list_changes`). ``None`` when the change is not of
    that shape (the caller sends the whole document). :func:`apply_changes` makes ``after``
    again; so does the MJ's device (static/js/live/session.js ``applyChanges``), which then
    receives a few records instead of the whole table."""
    containers = ("systems", "characters", "log")
    if set(before) != set(after) or any(after[k] is not before[k] for k in after if k not in containers):
        return None
    found = share.container_changes(before, after)
    if found is not None and "all" in found.get("log", {}):
        shorter = _cut_changes(before["log"], after["log"])
        if shorter is not None:
            found["log"] = shorter
    return found


#: Past this many records set one place earlier, a log cut in the middle goes whole (a tenth of
#: a full log: the records sent stay far fewer than the log's).
_MAX_CUT_SET = 100


def _cut_changes(before: list[Any], after: list[Any]) -> dict[str, Any] | None:
    """The log ``after`` made from a full ``before`` by a member's entry appended and one older
    entry ``k`` cut out (:func:`tablee.referee_kernel.append`: the oldest entry, or past half
    the log the oldest member entry), in the changes' own shape: the first record dropped, the ``k``
    records before the cut set one place earlier, the new entry added. :func:`changes` finds
    the first record kept and compares from there, which makes such a cut every record after
    it: the whole log (1,000 entries) at every move of a full log. ``None`` when ``after`` is
    not that, or the cut is more than :data:`_MAX_CUT_SET` records in (the log goes whole)."""
    n = len(before)
    if n < 2 or len(after) != n:
        return None
    k = next((i for i in range(n - 1) if after[i] is not before[i]), n - 1)
    if k > _MAX_CUT_SET or any(after[i] is not before[i + 1] for i in range(k, n - 1)):
        return None
    out: dict[str, Any] = {"drop": 1, "add": [after[-1]]}
    if k:
        out["set"] = {str(i): after[i] for i in range(k)}
    return out


#: ``document`` (a copy) with the :func:`changes` of a move made on it (one function for the
#: referee's changes and the projection's, :func:`tablee.share.apply_changes`).
apply_changes = share.apply_changes


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
        "held": {"type": "string", "minLength": 1, "maxLength": 64},
        "member": _MEMBER,
        "move": {},
        "seed": SEED_SCHEMA,
        "now": {"type": "string", "minLength": 1, "maxLength": 40},
        "changes": {"type": "boolean"},
        "view": {"type": ["string", "null"], "maxLength": 64},
    },
    required=("member", "move", "seed", "now"),
    summary="The live table's referee: a player's move checked against the member's identity and "
    "characters, applied on the MJ's whole table (sent, or the one the worker holds); the new document "
    "(or, asked for, its changes), the player's answer and, asked for, the public view's changes.",
)
def _live_move(request: dict[str, Any]) -> dict[str, Any]:
    return {**_referee_answer(request)}


def _referee_answer(request: dict[str, Any]) -> LiveAnswer:
    """The MJ's table is ``document``, or ``held``: the revision of the table the worker holds
    (:mod:`tablee.held`); another revision than the one held (or none) is answered
    ``{"stale": true}``, and the page sends its table. Read from JSON text, the worker then holds the table the move
    left and answers its revision (``rev``).

    With ``changes``: the answer holds :func:`changes` instead of the whole ``document``
    when the move's changes have that shape (a new entry in a 1,000-entry log is one record to
    send back, not the table). With ``view`` (the live table's projection: null, or the id of
    the worker's last view) an applied move also answers ``projection``, the public view of the
    new table as ``store.share`` with ``since`` answers it (:func:`tablee.share.project`), or
    its error: the page publishes the move without asking again."""
    source = request["document"] if "document" in request else held.table(request.get("held"))
    if source is None:
        return {"stale": True}  # (no table named, or not the one held: the page sends it)
    keep = from_json()
    try:
        document, answer = apply_move(source, request["member"], request["move"],
                                      seed=request["seed"], now=request["now"])
    except RulesError as exc:
        # A refusal: the phone gets it filtered like any error (:func:`phone_error`).
        out: LiveAnswer = {"applied": False, "refused": exc.code, "answer": phone_error(exc.to_json())}
        return {**out, "rev": _held_rev(request, source)} if keep else out
    if "error" in answer:
        out = {"applied": False, "answer": answer}
        return {**out, "rev": _held_rev(request, source)} if keep else out
    found = changes(source, document) if request.get("changes") else None
    out = {"applied": True, "changes": found} if found is not None else {"applied": True, "document": document}
    out["answer"] = answer
    if keep:
        out["rev"] = held.hold(document)
        if "view" in request:
            try:
                out["projection"] = _projection(document, request["view"])
            except RulesError as exc:
                out["projection"] = exc.to_json()
    return out


def _projection(document: dict[str, Any], since: Any) -> dict[str, Any]:
    """``share.project`` of the table a move left, its log's change made a cut (:func:`_cut_changes`)
    when the move cut a player's entry out of a full log: the public view's log is then the
    view before with that one entry out and the new one in, which the projection's generic diff
    sends whole (every view record is shared by identity between two views of the kept path)."""
    before = share.kept_view(since)
    found = share.project(document, since)
    log = found.get("changes", {}).get("log") if isinstance(found.get("changes"), dict) else None
    after = share.kept_view(found.get("view"))
    if isinstance(log, dict) and "all" in log and isinstance(before, dict) and isinstance(after, dict):
        shorter = _cut_changes(before.get("log", []), after.get("log", []))
        if shorter is not None:
            found["changes"]["log"] = shorter
    return found


def _held_rev(request: dict[str, Any], source: dict[str, Any]) -> str:
    """The revision of ``source`` (a move that changed nothing): the one named, or ``source``
    held now."""
    return request["held"] if "held" in request else held.hold(source)


@op("live.moves", summary="The ops a player may send to the MJ's device as moves.")
def _live_moves(request: dict[str, Any]) -> dict[str, Any]:
    return {"moves": sorted([*all_moves(), *KERNEL_MOVES])}


@op(
    "live.private_log",
    properties={"entries": {"type": "array", "maxItems": 1000}},
    required=("entries",),
    summary="The entries the MJ sent to one player, as that player's private doc holds them: each "
    "checked and filtered like a public entry (null for one the store refuses or a secret roll).",
)
def _live_private_log(request: dict[str, Any]) -> dict[str, Any]:
    """:func:`tablee.share.addressed_view` of each entry, in order (static/js/live/hub.js
    ``writePrivate``): no entry leaves the MJ's device unfiltered, whatever path it takes."""
    return {"entries": [share.addressed_view(e) for e in request["entries"]]}


@op(
    "live.outcome_words",
    properties={"name": {"type": "string", "maxLength": 100}, "request": {"type": "object"},
                "answer": {"type": "object"}, "lang": {"type": "string", "maxLength": 8},
                "names": {"type": "object", "maxProperties": 500,
                          "additionalProperties": {"type": "string", "maxLength": 200}}},
    required=("name", "answer"),
    summary="The result line and its words an op's answer gives a log entry (the referee's, and "
    "what « Vérifier / rejouer » compares an entry's with).",
)
def _outcome_words(request: dict[str, Any]) -> dict[str, Any]:
    """``{"summary", "words", "lang", "known"}`` of an op's answer (:func:`tablee.referee_words.outcome`);
    ``summary`` None when the op has no outcome words, ``known`` false when the rules give its
    line no words here (not judged). ``names``: the table's characters' names by id (the MJ's
    records), for a line that names a side as the referee named it."""
    name = request["name"]
    found = referee_words.outcome(name, request.get("request", {}), request["answer"], request.get("lang", "fr"),
                                  {"names": request.get("names") or {}})
    if found is None:
        return {"summary": None, "words": None, "lang": None, "known": name in referee_words.OUTCOMES or name == "roll"}
    text, words, lang = found
    return {"summary": text, "words": words, "lang": lang, "known": True}
