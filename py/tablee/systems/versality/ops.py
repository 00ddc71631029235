"""Versality API ops (registered on import). Source: 001_28decc945b538010.txt."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ... import cards
from ...character_ops import ID_SCHEMA, CharacterOp, character_ops
from ...errors import RulesError, declare
from ...registry import SystemOps, rng_from
from ...tree import clone
from . import character as C
from . import rules as R
from . import state as S

__all__: list[str] = []

declare(
    "versality.char.not_valid",
    "versality.power.unknown_character",
    "versality.scenario.already_awarded",
    "versality.scenario.unknown_character",
    "versality.characters.duplicate",
)

_CHAR = C.CHARACTER_SCHEMA
_STATE = S.STATE_SCHEMA
#: How Versality declares its ops (here and in replay): ``versality.<name>``, ``state=True`` for the
#: table state, ``character=True`` for a sheet.
versality_op = SystemOps("versality", state=_STATE, character=_CHAR)
_ID = ID_SCHEMA
_TEST_PROPS = {
    "characteristic": {"enum": list(R.CHARACTERISTICS)},
    "skill": {"enum": list(R.SKILLS)},
    "difficulty": {"enum": list(R.DIFFICULTIES)},
}
_MODS = {
    "force": {"type": "boolean"},
    "faiblesse": {"type": "boolean"},
    "tokens": {"type": "integer", "minimum": 0, "maximum": 3},
}

#: Player-facing ops (deck build/sync, test draw/resolve) never answer the MJ's data
#: (issue 8, Versality point 2; source: "Choisir son pouvoir", "L'échelle de catastrophe";
#: reading: rules/README.md, MJ view only). They answer ``view`` (the player projection,
#: versality.view.player), ``public`` (the new table state minus :data:`state.MJ_FIELDS`,
#: for the store), ``penalties`` (the announced catastrophe/MJ-token consequences) and their
#: own fields. The store (table.js ``playerCall``) rebuilds the whole state with
#: versality.state.merge and hands the page the answer without ``public``/``penalties``.
_PLAYER_ANSWER = (
    " Answer: view (the player projection, the only state a player page reads), public (the new"
    " table state without the MJ's fields, for the store) and penalties (catastrophe/MJ tokens added,"
    " MJ tokens spent); never the catastrophe, tokens or power uses (versality.state.merge rebuilds the state)."
)


def _player_answer(new: dict[str, Any], events: list[dict[str, Any]], spent: int = 0) -> dict[str, Any]:
    """The state part of a player op's answer: no MJ field anywhere (see ``_PLAYER_ANSWER``)."""
    return {"view": S.player_view(new), "public": S.public_state(new), "penalties": S.penalties(events, spent)}




def _dist(dist: dict[str, Fraction]) -> list[dict[str, Any]]:
    """Best outcome first, every outcome listed (zero odds as "0/1")."""
    return [{"outcome": k, **cards.fraction_json(dist.get(k, Fraction(0)))} for k in reversed(R.OUTCOMES)]


def _no_duplicates(characters: list[dict[str, Any]]) -> None:
    """A character listed twice would count twice (tokens, points): refused."""
    seen: set[str] = set()
    for c in characters:
        if c["id"] in seen:
            raise RulesError("versality.characters.duplicate", character=c["id"])
        seen.add(c["id"])


def _char(c: dict[str, Any]) -> dict[str, Any]:
    problems = C.validate_character(c)
    if problems:
        raise RulesError("versality.char.not_valid", field=problems[0].field)
    return c


@versality_op("rules", summary="The rules as data: ladder, prices, difficulties, bands.")
def _rules(request: dict[str, Any]) -> dict[str, Any]:
    return {
        "outcomes": list(reversed(R.OUTCOMES)),
        "success_prices": R.SUCCESS_PRICES,
        "failure_values": R.FAILURE_VALUES,
        "base_deck": list(R.BASE_DECK),
        "creation": {**R.CREATION, "traits": list(R.CREATION["traits"])},
        "characteristics": list(R.CHARACTERISTICS),
        "skills": list(R.SKILLS),
        "difficulties": R.DIFFICULTIES,
        "token_steps": {str(k): v for k, v in R.TOKEN_STEPS.items() if k},
        "catastrophe_bands": list(R.CATASTROPHE_BANDS),
        "power_price": R.POWER_PRICE,
    }


def _char_new(request: dict[str, Any]) -> dict[str, Any]:
    return {"character": C.new_character(request["id"], request.get("name", ""))}


def _char_check(request: dict[str, Any]) -> dict[str, Any]:
    c = _char(request["character"])
    problems = C.check_creation(c)
    return {
        "valid": not problems,
        "problems": [p.to_json() for p in problems],
        "ledger": R.ledger(card["kind"] for card in c["deck"]),
        "status": C.wound_status(c),
        "untreated_wounds": sum(c["wounds"].values()),
    }


def _char_finish(request: dict[str, Any]) -> dict[str, Any]:
    """Source: "Créer son deck de résolution" (N.B. cards are never removed once bought)."""
    return {"character": C.finish_creation(_char(request["character"]))}


character_ops(
    versality_op,
    character=_CHAR,
    new=CharacterOp(_char_new, "A blank character to start guided creation (base deck of 4 cards)."),
    check=CharacterOp(_char_check, "Creation problems (French messages by key), deck ledger and status."),
    finish=CharacterOp(_char_finish, "Validate the creation (refused while character.check has problems): sets "
                       "created, after which the cards bought are permanent."),
)


@versality_op("state.new", summary="An empty Versality table state.")
def _state_new(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": S.new_state()}


@versality_op("view.player", state=True,
              summary="The table state without MJ-only data (catastrophe, tokens, power uses, deck order).")
def _view(request: dict[str, Any]) -> dict[str, Any]:
    return {"view": S.player_view(S.require_state(request["state"]))}


@versality_op("deck.build", state=True, character=True, seed=True,
              summary="(Re)build and shuffle a character's deck from the sheet." + _PLAYER_ANSWER)
def _deck_build(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    c = _char(request["character"])
    new = S.build_deck(state, c, rng_from(request))
    return {"seed": request["seed"], **_player_answer(new, [])}


@versality_op("deck.sync", state=True, character=True, seed=True,
              summary="Add the sheet's new cards to the table deck, shuffled into the draw pile; "
              "discard and hand untouched (builds the deck when the table has none)." + _PLAYER_ANSWER)
def _deck_sync(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    c = _char(request["character"])
    new, added = S.sync_deck(state, c, rng_from(request))
    return {"seed": request["seed"], **_player_answer(new, []), "added": added}


@versality_op("test.odds", properties={"state": _STATE, "character": _CHAR, **_TEST_PROPS, **_MODS},
              required=("character", "characteristic", "skill", "difficulty"),
              summary="Exact odds of each card and final outcome of a test, from the deck as it stands, and what the "
              "draw does to the deck (drawn, reshuffle, exhausted, penalties: catastrophe +1 and a token each).")
def _odds(request: dict[str, Any]) -> dict[str, Any]:
    """Source: "Fonctionnement d'un test", "Les échecs"; the deck's run-out is
    :func:`rules.deck_run`, the same function the draw's events follow."""
    c = _char(request["character"])
    plan = R.test_plan(
        c["characteristics"][request["characteristic"]],
        c["skills"][request["skill"]],
        R.DIFFICULTIES[request["difficulty"]],
        sum(c["wounds"].values()),
    )
    C.require_playable(c)
    state = S.require_state(request["state"]) if "state" in request else None
    deck = state["decks"].get(c["id"]) if state else None
    if deck is None:
        pile = {k: 0 for k in R.KINDS}
        for card in c["deck"]:
            pile[card["kind"]] += 1
        refill: dict[str, int] = {}
    else:
        if c["id"] in state["pending"]:
            raise RulesError("versality.test.pending", character=c["id"])
        pile = cards.counts_by_kind(deck, "draw")
        refill = cards.counts_by_kind(deck, "discard")
    if not sum(pile.values()) + sum(refill.values()):
        raise RulesError("versality.deck.empty")
    card, final = R.outcome_distribution(
        pile,
        refill,
        plan["count"],
        plan["rule"],
        force=request.get("force", False),
        faiblesse=request.get("faiblesse", False),
        tokens=request.get("tokens", 0),
    )
    run = R.deck_run(sum(pile.values()), sum(refill.values()), plan["count"])
    return {
        **plan,
        **run,
        "card": _dist(card),
        "final": _dist(final),
    }


@versality_op("test.draw", state=True, character=True, takes=_TEST_PROPS, seed=True,
              summary="Draw the cards of a test (seeded) into the deck's hand; the rule waits for resolve."
              + _PLAYER_ANSWER)
def _draw(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    c = _char(request["character"])
    new, info = S.draw_test(
        state, c, request["characteristic"], request["skill"], request["difficulty"], rng_from(request)
    )
    return {"seed": request["seed"], **_player_answer(new, info["events"]), "test": info}


@versality_op("test.resolve", state=True, takes={"character_id": _ID},
              may={"choice": {"type": "string", "maxLength": 64}, **_MODS}, seed=True,
              summary="Play the chosen (or worst) card, apply force/faiblesse/MJ tokens, discard it, shuffle back."
              + _PLAYER_ANSWER)
def _resolve(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    new, result = S.resolve_test(
        state,
        request["character_id"],
        rng_from(request),
        choice=request.get("choice"),
        force=request.get("force", False),
        faiblesse=request.get("faiblesse", False),
        tokens=request.get("tokens", 0),
    )
    spent = request.get("tokens", 0)
    return {"seed": request["seed"], **_player_answer(new, result["events"], spent), "result": result}


@versality_op("state.merge", state=True, takes={"public": S.PUBLIC_SCHEMA, "penalties": S.PENALTIES_SCHEMA},
              summary="The store's op, not a player's: the previous whole table state, a player op's public and "
              "penalties give the new whole table state (the MJ's fields kept, penalties applied, capped at 9999).")
def _merge(request: dict[str, Any]) -> dict[str, Any]:
    """The app's store (table.js ``playerCall``) saves what this answers; with the same
    previous state, player op + merge gives exactly the state the op computed
    (:func:`state.merge_public`)."""
    return {"state": S.merge_public(request["state"], request["public"], request["penalties"])}


@versality_op(
    "power.use", state=True,
    takes={
        "character_id": _ID,
        "characters": {"type": "array", "items": _ID, "maxItems": 200},
        "points": {"type": "integer", "minimum": 1, "maximum": 5},
    },
    may={"note": {"type": "string", "maxLength": 200}},
    summary="MJ: a power was used; the catastrophe scale rises 1–5 (hidden from players). characters: the ids of the "
    "table's Versality characters (the user must be one of them).",
)
def _power(request: dict[str, Any]) -> dict[str, Any]:
    """Source: "Choisir son pouvoir". A user who is not one of the table's characters is
    refused (``versality.power.unknown_character``)."""
    if request["character_id"] not in request["characters"]:
        raise RulesError("versality.power.unknown_character", character=request["character_id"])
    state = clone(S.require_state(request["state"]))
    if len(state["power_uses"]) >= 500:
        raise RulesError("versality.state.invalid", field="power_uses", detail="too_many")
    state["power_uses"].append(
        {
            "character_id": request["character_id"],
            "points": request["points"],
            "note": request.get("note", ""),
        }
    )
    state["catastrophe"] = min(state["catastrophe"] + request["points"], 9999)
    return {"state": state, "band": R.catastrophe_band(state["catastrophe"])}


@versality_op(
    "mj.adjust", state=True,
    may={
        "catastrophe": {"type": "integer", "minimum": -100, "maximum": 100},
        "tokens": {"type": "integer", "minimum": -100, "maximum": 100},
    },
    summary="MJ: add to (or take from) the catastrophe scale and the tokens (floor 0).",
)
def _adjust(request: dict[str, Any]) -> dict[str, Any]:
    state = clone(S.require_state(request["state"]))
    state["catastrophe"] = min(max(0, state["catastrophe"] + request.get("catastrophe", 0)), 9999)
    state["tokens"] = min(max(0, state["tokens"] + request.get("tokens", 0)), 9999)
    return {"state": state, "band": R.catastrophe_band(state["catastrophe"])}


@versality_op("mj.band", state=True,
              summary="MJ: the catastrophe value and its band (i18n key versality.catastrophe.<band>).")
def _band(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    return {
        "catastrophe": state["catastrophe"],
        "band": R.catastrophe_band(state["catastrophe"]),
        "tokens": state["tokens"],
    }


@versality_op("session.start", state=True, takes={"characters": {"type": "array", "items": _CHAR, "maxItems": 12}},
              summary="Start a session: MJ gains 1 token per uncompensated failure point; soulager is available again.")
def _session(request: dict[str, Any]) -> dict[str, Any]:
    """Source: "Les échecs" ("Au début de la session, il en gagne 1 par points d'échec non
    compensé"); reading: rules/README.md (Versality), "every owed point (carte d'avance
    aside) gives the MJ a token at each session start": a debt is every point of the gap,
    whether or not a card's worth (an older sheet may owe 3 or more). A character listed
    twice is refused (``versality.characters.duplicate``): it would count twice."""
    state = clone(S.require_state(request["state"]))
    _no_duplicates(request["characters"])
    debts = []
    chars = []
    for c in request["characters"]:
        _char(c)
        debt = max(R.ledger(card["kind"] for card in c["deck"])["gap"], 0)
        debts.append({"character_id": c["id"], "debt": debt})
        chars.append({**clone(c), "heal_used": False})
    gained = sum(d["debt"] for d in debts)
    state["tokens"] = min(state["tokens"] + gained, 9999)
    state["session"] = min(state["session"] + 1, 9999)
    return {"state": state, "characters": chars, "tokens_gained": gained, "debts": debts}


@versality_op("wound", character=True, takes={"characteristic": {"enum": list(R.CHARACTERISTICS)}},
              summary="One more wound; returns the status.")
def _wound(request: dict[str, Any]) -> dict[str, Any]:
    c = _char(request["character"])
    if c["incapacitated"]:
        raise RulesError("versality.wound.incapacitated", character=c["id"])
    new = C.add_wound(c, request["characteristic"])
    return {"character": new, "status": C.wound_status(new), "untreated_wounds": sum(new["wounds"].values())}


@versality_op("wound.remove", character=True, takes={"characteristic": {"enum": list(R.CHARACTERISTICS)}},
              summary="Take back one wound entered by mistake (la MJ's correction); returns the status.")
def _wound_remove(request: dict[str, Any]) -> dict[str, Any]:
    """La MJ's correction of a wound added by mistake: :func:`character.remove_wound`.

    Not a heal: ``heal_used`` is untouched and no test is made. The page writes it to the
    roll log as an MJ correction (who, which characteristic)."""
    c = _char(request["character"])
    new = C.remove_wound(c, request["characteristic"])
    return {"character": new, "status": C.wound_status(new), "untreated_wounds": sum(new["wounds"].values())}


@versality_op(
    "heal",
    takes={
        "healer": _CHAR,
        "target": _CHAR,
        "characteristic": {"enum": list(R.CHARACTERISTICS)},
        "outcome": {"enum": list(R.OUTCOMES)},
    },
    summary="The healer's once-per-game soulager on an ally: a success removes one wound.",
)
def _heal(request: dict[str, Any]) -> dict[str, Any]:
    healer, target = _char(request["healer"]), _char(request["target"])
    out = C.heal(healer, target, request["characteristic"], request["outcome"] in R.SUCCESSES)
    return {**out, "status": C.wound_status(out["target"])}


@versality_op(
    "scenario.end", character=True,
    takes={
        "survived_unhurt": {"type": "boolean"},
        "objective": {"type": "boolean"},
        "catastrophe": {"type": "integer", "minimum": 0, "maximum": 9999},
    },
    summary="Improvement points earned at the end of a scenario, added to the character.",
)
def _end(request: dict[str, Any]) -> dict[str, Any]:
    c = clone(_char(request["character"]))
    pts = C.improvement_points(
        survived_unhurt=request["survived_unhurt"],
        objective=request["objective"],
        catastrophe=request["catastrophe"],
    )
    c["improvement_points"] = min(c["improvement_points"] + pts["total"], 999)
    return {"character": c, "points": pts}


@versality_op("scenario.award", state=True,
              takes={"characters": {"type": "array", "items": _CHAR, "maxItems": 12}, "objective": {"type": "boolean"}},
              may={"unhurt": {"type": "array", "items": _ID, "maxItems": 12}, "again": {"type": "boolean"}},
              summary="End of scenario for the table: improvement points to every character, once per session (a "
              "second award in the same session needs again: true).")
def _award(request: dict[str, Any]) -> dict[str, Any]:
    """Source: "La progression : monter de niveau" (points earned at the end of a scenario).

    Reading (ours): a scenario ends once; the table state records the session of the last
    award (``awarded_session``) and a second award in the same session is refused
    (``versality.scenario.already_awarded``) unless the MJ confirms it (``again``): two
    scenarios ending in one session is possible, a double click is not a second scenario.
    ``unhurt`` lists the ids of the characters who came out alive and unhurt; an id that is
    not one of ``characters`` is refused (``versality.scenario.unknown_character``), and so
    is a character listed twice (``versality.characters.duplicate``).
    """
    state = clone(S.require_state(request["state"]))
    _no_duplicates(request["characters"])
    ids = {c["id"] for c in request["characters"]}
    for cid in request.get("unhurt", []):
        if cid not in ids:
            raise RulesError("versality.scenario.unknown_character", character=cid)
    if state["awarded_session"] == state["session"] and not request.get("again", False):
        raise RulesError("versality.scenario.already_awarded", session=state["session"])
    unhurt = set(request.get("unhurt", []))
    chars, awards = [], []
    for c in request["characters"]:
        new = clone(_char(c))
        pts = C.improvement_points(
            survived_unhurt=new["id"] in unhurt, objective=request["objective"], catastrophe=state["catastrophe"]
        )
        new["improvement_points"] = min(new["improvement_points"] + pts["total"], 999)
        chars.append(new)
        awards.append({"character_id": new["id"], "points": pts})
    state["awarded_session"] = state["session"]
    return {"state": state, "characters": chars, "awards": awards}


_PURCHASE = {
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "type": {"const": "card"},
                "kind": {"enum": list(R.KINDS)},
                "compensation": {"type": "array", "items": {"enum": list(R.FAILURE_VALUES)}, "maxItems": 4},
            },
            "required": ["type", "kind"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"type": {"const": "power"}, "text": {"type": "string", "maxLength": 500}},
            "required": ["type"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"type": {"const": "characteristic"}, "name": {"enum": list(R.CHARACTERISTICS)}},
            "required": ["type", "name"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"type": {"const": "skill"}, "name": {"enum": list(R.SKILLS)}},
            "required": ["type", "name"],
            "additionalProperties": False,
        },
    ]
}


@versality_op("improve", character=True, takes={"purchase": _PURCHASE},
              summary="Spend improvement points: a card (a success card with the failure cards that compensate it, "
              "refused if 3+ points stay owed; failure cards are free), a power (5), a characteristic (1 + points "
              "held), a skill (its score, at least 1).")
def _improve(request: dict[str, Any]) -> dict[str, Any]:
    c = _char(request["character"])
    return C.improve(c, request["purchase"])
