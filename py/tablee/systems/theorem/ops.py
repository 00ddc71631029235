"""Théorem API ops (registered on import). Source: 003_0f8319d4d007e1fe.txt."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ... import cards
from ...character_ops import CharacterOp, character_ops
from ...errors import RulesError, declare
from ...registry import SystemOps, rng_from
from ...tree import clone
from . import announce as A
from . import character as C
from . import data as D
from . import oppositions as P
from . import rules as R
from . import schemas as SC
from . import state as S

__all__: list[str] = []

declare("theorem.char.not_valid")


_CHAR = C.CHARACTER_SCHEMA
_STATE = SC.STATE_SCHEMA
#: How Théorem declares its ops (here and in replay): ``theorem.<name>``, ``state=True`` for the
#: table state, ``character=True`` for a sheet.
theorem_op = SystemOps("theorem", state=_STATE, character=_CHAR)
_ID = {"type": "string", "minLength": 1, "maxLength": 64}
_ACTION = {
    "sphere": {"enum": list(D.SPHERES)},
    "skill": {"type": ["string", "null"], "maxLength": 60},
    "modifier": {"type": "integer", "minimum": -10, "maximum": 5},
    "exploit": {"type": "integer", "minimum": 0, "maximum": 10},
    "retest": {"type": "boolean"},
}


def _char(c: dict[str, Any]) -> dict[str, Any]:
    _owner(c["id"])
    problems = C.validate_character(c)
    if problems:
        raise RulesError("theorem.char.not_valid", field=problems[0].field)
    return c


def _acting(request: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The table state and the character acting in a request, both checked (in that order)."""
    return S.require_state(request["state"]), _char(request["character"])


def _owner(cid: str) -> str:
    """A character id named by a request: never one the app keeps (``@mk``: the MK's deck)."""
    if cid.startswith(C.RESERVED_PREFIX):
        raise RulesError("theorem.char.reserved_id", id=cid)
    return cid


def _frac_rows(dist: dict[Any, Any], key: str) -> list[dict[str, Any]]:
    return [{key: k, **cards.fraction_json(p)} for k, p in dist.items()]


@theorem_op("rules", summary="The rules as data: spheres, suits, figures, arcana, success table, ladder.")
def _rules(request: dict[str, Any]) -> dict[str, Any]:
    return {
        "spheres": list(D.SPHERES),
        "suits": list(D.SUITS),
        "figures": list(D.FIGURES),
        "arcana": list(D.ARCANA),
        "levels": list(D.LEVELS),
        "success_table": [dict(r) for r in D.SUCCESS_TABLE],
        "ladder": [dict(r) for r in D.MODIFIER_LADDER],
        "arcane_cost": D.ARCANE_COST,
        "arcane_cost_cheap": D.ARCANE_COST_CHEAP,
        "retest_malus": D.RETEST_MALUS,
        "mk_hand": list(D.MK_HAND_RANGE),
        "limits": {k: list(v) for k, v in C.LIMITS.items()},
    }


def _char_new(request: dict[str, Any]) -> dict[str, Any]:
    return {"character": C.new_character(request["id"], request.get("name", ""))}


def _char_check(request: dict[str, Any]) -> dict[str, Any]:
    c = request["character"]
    problems = C.check_character(c)
    start = None
    if not any(p.field.startswith("spheres") for p in problems) and isinstance(c.get("spheres"), dict):
        try:
            start = C.starting_des_ka(c["spheres"])
        except (KeyError, TypeError):
            start = None
    return {"valid": not problems, "problems": [p.to_json() for p in problems], "starting_des_ka": start}


character_ops(
    theorem_op,
    character={"type": "object", "maxProperties": 20},
    name_max=100,
    new=CharacterOp(_char_new, "A fresh character (spheres 2, dés de Ka = lowest sphere + 1)."),
    check=CharacterOp(_char_check, "Problems of an edited character, each at its field (French by key), and the "
                      "starting dés de Ka."),
)


@theorem_op("state.new", seed=True, summary="A fresh table: the 56 numbered cards shuffled at the centre.")
def _state_new(request: dict[str, Any]) -> dict[str, Any]:
    return {"seed": request["seed"], "state": S.new_state(rng_from(request))}


@theorem_op("view.player", state=True, may={"viewer": {"type": ["string", "null"], "maxLength": 64}},
            summary="The table as one player (or nobody) sees it: deck order and other hands hidden.")
def _view(request: dict[str, Any]) -> dict[str, Any]:
    return {"view": S.player_view(S.require_state(request["state"]), request.get("viewer"))}


@theorem_op("hand.draw", state=True, character=True, seed=True,
            summary="Draw a player's arcana hand (Divinité cards; again once empty); the Ka card is set aside and "
            "replaced.")
def _hand_draw(request: dict[str, Any]) -> dict[str, Any]:
    state, c = _acting(request)
    new, hand, events = S.draw_hand(state, c["id"], c["spheres"]["divinite"], rng_from(request), ka_card=c["ka_card"])
    return {"seed": request["seed"], "state": new, "count": len(hand), "events": events}


@theorem_op("mk.hand", state=True, seed=True,
            takes={"size": {"type": "integer", "minimum": D.MK_HAND_RANGE[0], "maximum": D.MK_HAND_RANGE[1]}},
            summary="The MK's arcana hand for the session (3..10 cards, hidden from players).")
def _mk_hand(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    new, hand, events = S.draw_hand(state, S.MK, request["size"], rng_from(request))
    return {"seed": request["seed"], "state": new, "count": len(hand), "events": events}


@theorem_op("mk.discard", state=True, takes={"card": _ID},
            summary="The MK plays (discards) one arcane of the MK's hand.")
def _mk_discard(request: dict[str, Any]) -> dict[str, Any]:
    state = clone(S.require_state(request["state"]))
    arc = state["arcana"].get(S.MK)
    if arc is None:
        raise RulesError("theorem.hand.no_deck")
    if request["card"] not in arc["piles"]["hand"]["cards"]:
        raise RulesError("theorem.arcane.not_in_hand", card=request["card"], card_name=S.card_name(request["card"]))
    state["arcana"][S.MK] = cards.move(arc, [request["card"]], "hand", "discard")
    return {"state": state}


@theorem_op("action.begin", properties={"state": _STATE, "character": _CHAR, **_ACTION},
            required=("state", "character", "sphere", "modifier"),
            summary="Announce a simple action (sphère + compétence + modifier + exploit − re-test); the exploit's "
            "réalité is paid.")
def _begin(request: dict[str, Any]) -> dict[str, Any]:
    state, c = _acting(request)
    new, ch = S.begin_action(
        state,
        c,
        sphere=request["sphere"],
        skill=request.get("skill"),
        modifier=request["modifier"],
        exploit=request.get("exploit", 0),
        retest=request.get("retest", False),
    )
    return {"state": new, "character": ch, "pending": new["pending"][c["id"]]}


@theorem_op("action.draw", state=True, character=True, seed=True,
            summary="Draw the deck's top card for the pending action (figure chains; a first figure waits for "
            "play/aside).")
def _draw(request: dict[str, Any]) -> dict[str, Any]:
    state, c = _acting(request)
    used = {
        "draw": list(state["deck"]["piles"]["draw"]["cards"]),
        "discard": list(state["deck"]["piles"]["discard"]["cards"]),
    }
    new, info = S.draw_action(state, c, rng_from(request))
    return {"seed": request["seed"], "state": new, "result": info, "deck_used": used}


@theorem_op("action.figure", state=True, character=True, takes={"decision": {"enum": ["play", "aside"]}},
            summary="Play the figure just drawn, or set it aside (at most Humanité figures).")
def _figure(request: dict[str, Any]) -> dict[str, Any]:
    state, c = _acting(request)
    new, info = S.figure_choice(state, c, request["decision"])
    return {"state": new, "result": info}


@theorem_op("action.aside", state=True, takes={"character_id": _ID, "card": _ID},
            summary="Play a set-aside figure into the pending action's chain (before any draw).")
def _aside(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    new, info = S.play_aside(state, _owner(request["character_id"]), request["card"])
    return {"state": new, "result": info}


@theorem_op("action.cancel", state=True, character=True,
            summary="Withdraw an announced action before any card is on the table (the exploit's réalité comes back).")
def _cancel(request: dict[str, Any]) -> dict[str, Any]:
    state, c = _acting(request)
    p = state["pending"].get(c["id"])
    if p is None:
        raise RulesError("theorem.action.none", character=c["id"])
    if p["drawn"] or p["chain"] or p["awaiting"] or p["effect"] is not None:
        raise RulesError("theorem.action.cancel_drawn")
    new = clone(state)
    del new["pending"][c["id"]]
    ch = clone(c)
    ch["realite"] = min(ch["realite"] + p["exploit"], 999)
    return {"state": new, "character": ch}


@theorem_op("arcane.play", state=True, character=True, seed=True,
            takes={"card": _ID, "mode": {"enum": ["value", "effect"]}}, may={"mortal": {"type": "boolean"}},
            summary="Play an arcane (5 réalité; 1 for the Ka card or in a mortal situation): value 10 instead of a "
            "draw, or its effect.")
def _arcane(request: dict[str, Any]) -> dict[str, Any]:
    state, c = _acting(request)
    new, ch, info = S.arcane_play(
        state, c, request["card"], request["mode"], rng_from(request), mortal=request.get("mortal", False)
    )
    return {"seed": request["seed"], "state": new, "character": ch, "result": info}


@theorem_op("action.odds", properties={"state": _STATE, "character": _CHAR, **_ACTION, "arcane": {"type": "boolean"}},
            required=("state", "character", "sphere", "modifier"),
            summary="Exact odds of the drawn value (figure chains, every figure played) and of each success level, "
            "from the deck as it stands; a pending action's chain is taken into account.")
def _odds(request: dict[str, Any]) -> dict[str, Any]:
    """Source: "4) Les figures" (chains), "A) Au commencement" (the discard turned over)."""
    state, c = _acting(request)
    pending = state["pending"].get(c["id"])
    deck = state["deck"]
    remaining = R.deck_counts([deck["cards"][x] for x in deck["piles"]["draw"]["cards"]])
    refill = R.deck_counts([deck["cards"][x] for x in deck["piles"]["discard"]["cards"]])
    if pending is not None:
        base = pending["base"]
        prefix = [deck["cards"][x] for x in pending["chain"]]
        if pending["awaiting"]:
            prefix.append(deck["cards"][pending["awaiting"]])
        dist = R.chain_distribution(remaining, refill, prefix)
    else:
        if request.get("retest") and request.get("exploit"):
            raise RulesError("theorem.exploit.retest")
        exploit = request.get("exploit", 0)
        if exploit > c["spheres"]["divinite"]:
            raise RulesError("theorem.exploit.too_many", exploit=exploit, max=c["spheres"]["divinite"])
        base = (
            c["spheres"][request["sphere"]]
            + A.skill_level(c, request.get("skill"))
            + request["modifier"]
            + exploit
            - (D.RETEST_MALUS if request.get("retest") else 0)
        )
        if request.get("arcane"):
            dist = {D.ARCANE_VALUE: Fraction(1)}
        else:
            dist = R.chain_distribution(remaining, refill)
    levels = R.score_distribution(dist, base, state["success_table"])
    return {
        "base": base,
        "pending": pending is not None,
        "remaining": len(deck["piles"]["draw"]["cards"]),
        "value": _frac_rows(dist, "value"),
        "levels": _frac_rows(levels, "level"),
    }


@theorem_op(
    "opposition",
    takes={
        "score_a": {"type": "integer", "minimum": -999, "maximum": 999},
        "score_b": {"type": "integer", "minimum": -999, "maximum": 999},
    },
    may={"success_table": SC.SUCCESS_TABLE_SCHEMA},
    summary="Two scores face off: the winner keeps its cases minus the loser's (at least a réussite normale).",
)
def _opposition(request: dict[str, Any]) -> dict[str, Any]:
    table = request.get("success_table", D.SUCCESS_TABLE)
    if R.validate_success_table(table):
        raise RulesError("theorem.table.bad", reason=R.validate_success_table(table))
    return R.opposition(request["score_a"], request["score_b"], table)


#: The sheets of the characters who play a side (their sphere and skill give its base): on one
#: device the page's; at a live table the referee puts the MJ's records here
#: (systems/theorem/moves.py).
_SHEETS = {"sheets": {"type": "array", "items": _CHAR, "maxItems": 2}}
_SIDES = {"a": SC.SIDE_SCHEMA, "b": SC.SIDE_SCHEMA}


def _sheets(request: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: _char(c) for c in request.get("sheets", [])}


@theorem_op("opposition.draw", state=True, seed=True, takes=_SIDES, may=_SHEETS,
            summary="Both sides draw from the shared deck (every figure played) and face off; a side naming its "
            "sphere (and skill) is played by its character, its base read from the sheet.")
def _opp_draw(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    used = {
        "draw": list(state["deck"]["piles"]["draw"]["cards"]),
        "discard": list(state["deck"]["piles"]["discard"]["cards"]),
    }
    new, result = P.opposition_draw(state, request["a"], request["b"], rng_from(request), _sheets(request))
    return {"seed": request["seed"], "state": new, "deck_used": used, "result": result}


@theorem_op("opposition.odds", state=True, takes=_SIDES, may=_SHEETS,
            summary="Before an opposition's draw: each side's base (from the sheet for a character's side) and its "
            "exact chance of each success level from the deck as it stands.")
def _opp_odds(request: dict[str, Any]) -> dict[str, Any]:
    odds = P.opposition_odds(S.require_state(request["state"]), request["a"], request["b"], _sheets(request))
    return {k: {"base": v["base"], "start": v["start"], "levels": _frac_rows(v["levels"], "level")}
            for k, v in odds.items()}


@theorem_op("opposition.start", state=True, takes=_SIDES, may=_SHEETS,
            summary="An opposition drawn side by side (two players' characters): its sides are set, each draws "
            "when its player (or the MK) does with theorem.opposition.side.")
def _opp_start(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    return {"state": P.opposition_start(state, request["a"], request["b"], _sheets(request))}


@theorem_op("opposition.side", state=True, seed=True, takes={"side": {"enum": ["a", "b"]}},
            summary="One side of the waiting opposition draws (every figure played); the second settles it.")
def _opp_side(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    used = {
        "draw": list(state["deck"]["piles"]["draw"]["cards"]),
        "discard": list(state["deck"]["piles"]["discard"]["cards"]),
    }
    new, info = P.opposition_side(state, request["side"], rng_from(request))
    return {"seed": request["seed"], "state": new, "deck_used": used, **info}


@theorem_op("opposition.cancel", state=True, summary="Call off the opposition waiting for a side's draw.")
def _opp_cancel(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": P.opposition_cancel(S.require_state(request["state"]))}


@theorem_op("chase.start", state=True, takes={**_SIDES, "target": {"enum": [3, 5]}}, may=_SHEETS,
            summary="Start a chase: each side's base and starting bonus/malus, the lead needed to win (+3 or +5); a "
            "side played by a character names it (character_id) and its sphere (its base from the sheet): its "
            "rounds are its own actions.")
def _chase_start(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    for side in (request["a"], request["b"]):
        if "character_id" in side:
            _owner(side["character_id"])
    return {"state": P.chase_start(state, request["a"], request["b"], request["target"], _sheets(request))}


@theorem_op("chase.begin", state=True, seed=True, takes={"side": {"enum": ["a", "b"]}},
            may={"character": _CHAR, "exploit": {"type": "integer", "minimum": 0, "maximum": 10}},
            summary="One side's turn in the chase round. A character's side is announced as an action (exploit paid) "
            "and played with theorem.action.draw/figure/aside and theorem.arcane.play; an NPC side draws at once "
            "(every figure played). The round is settled when both sides have drawn.")
def _chase_begin(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    c = _char(request["character"]) if "character" in request else None
    used = {
        "draw": list(state["deck"]["piles"]["draw"]["cards"]),
        "discard": list(state["deck"]["piles"]["discard"]["cards"]),
    }
    new, ch, info = P.chase_begin(state, request["side"], c, rng_from(request), exploit=request.get("exploit", 0))
    out = {"seed": request["seed"], "state": new, "result": info, "deck_used": used}
    if ch is not None:
        out["character"] = ch
    return out


@theorem_op("chase.odds", state=True,
            summary="Before each side draws: each side's exact score and success-level odds this round; once one side "
            "has drawn, the exact odds of each side winning the round (a, b, tie).")
def _chase_odds(request: dict[str, Any]) -> dict[str, Any]:
    odds = P.chase_odds(S.require_state(request["state"]))
    sides = {
        k: {
            "drawn": v["drawn"],
            "scores": _frac_rows(dict(sorted(v["scores"].items())), "score"),
            "levels": _frac_rows(v["levels"], "level"),
        }
        for k, v in odds["sides"].items()
    }
    rnd = odds["round"]
    return {"sides": sides, "round": None if rnd is None else {k: cards.fraction_json(p) for k, p in rnd.items()}}


@theorem_op("chase.round", state=True, seed=True,
            summary="One chase round between two NPC sides: both draw (every figure played), the round's winner adds "
            "its success bonus. A side played by a character takes its turn with theorem.chase.begin.")
def _chase_round(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    used = {
        "draw": list(state["deck"]["piles"]["draw"]["cards"]),
        "discard": list(state["deck"]["piles"]["discard"]["cards"]),
    }
    new, rec = P.chase_round(state, rng_from(request), request["seed"])
    return {"seed": request["seed"], "state": new, "round": rec, "deck_used": used}


@theorem_op("chase.end", state=True, summary="Close the chase tracker.")
def _chase_end(request: dict[str, Any]) -> dict[str, Any]:
    state = clone(S.require_state(request["state"]))
    if state["chase"] is None:
        raise RulesError("theorem.chase.none")
    state["chase"] = None
    return {"state": state}


@theorem_op("table.set", state=True, may={"success_table": SC.SUCCESS_TABLE_SCHEMA, "effects": SC.EFFECTS_SCHEMA},
            summary="MK: edit the success table (levels in order, minima increasing) and the arcana's effects.")
def _table_set(request: dict[str, Any]) -> dict[str, Any]:
    state = clone(S.require_state(request["state"]))
    if "success_table" in request:
        reason = R.validate_success_table(request["success_table"])
        if reason:
            raise RulesError("theorem.table.bad", reason=reason)
        state["success_table"] = [dict(r) for r in request["success_table"]]
    if "effects" in request:
        state["effects"] = list(request["effects"])
    return {"state": state}


@theorem_op("turn.next", state=True, summary="Next turn: every player may play one arcane again.")
def _turn(request: dict[str, Any]) -> dict[str, Any]:
    state = clone(S.require_state(request["state"]))
    state["turn"] = min(state["turn"] + 1, 999999)
    return {"state": state}


@theorem_op("retest.clear", state=True, takes={"character_id": _ID},
            summary="Forget a character's failed attempts (a new situation, or the wait is over).")
def _retest_clear(request: dict[str, Any]) -> dict[str, Any]:
    state = clone(S.require_state(request["state"]))
    state["fails"].pop(_owner(request["character_id"]), None)
    return {"state": state}


@theorem_op("retest.status", state=True, takes={"character_id": _ID},
            summary="Failed attempts of a character and when a new try is allowed (next_action, hour, day).")
def _retest_status(request: dict[str, Any]) -> dict[str, Any]:
    return S.retest_status(S.require_state(request["state"]), _owner(request["character_id"]))


@theorem_op("remove", state=True, takes={"character_id": _ID},
            summary="A character leaves the table: its arcana deck goes, its set-aside figures and pending chain go to "
            "the discard.")
def _remove(request: dict[str, Any]) -> dict[str, Any]:
    state = clone(S.require_state(request["state"]))
    cid = _owner(request["character_id"])
    aside = state["aside"].pop(cid, [])
    if aside:
        state["deck"] = cards.move(state["deck"], aside, "aside", "discard")
    p = state["pending"].pop(cid, None)
    if p:
        back = list(p["chain"]) + ([p["awaiting"]] if p["awaiting"] else [])
        if back:
            state["deck"] = cards.move(state["deck"], back, "play", "discard")
    for key in ("arcana", "hand_size", "arcane_turn", "fails"):
        state[key].pop(cid, None)
    return {"state": state}
