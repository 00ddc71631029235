"""Unicreon API ops (registered on import). Every handler is pure: JSON in, JSON out.

Source: 004_12a5de9999b9d0ad.txt (see each rules module); readings: rules/README.md (Unicreon).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import fastjsonschema

from tablee.character_ops import CharacterOp, character_ops
from tablee.errors import Problem, RulesError, declare
from tablee.registry import SystemOps, rng_from
from tablee.schema import compile_schema, shape_problems

from ...tree import clone
from . import character as ch
from . import combat as cb
from . import combat_state as cs
from . import health as hl
from . import passe_darmes as pa
from .character import nullable
from .data import (
    BESTIARY,
    CARRIED,
    CATALOGUE,
    CHARACTERISTICS,
    DIFFICULTIES,
    NPC_TIERS,
    SKILL_LEVELS,
    data_tables,
)
from .resolution import (
    difficulty_label,
    difficulty_value,
    opposition_odds,
    resolve_opposition,
    resolve_test,
    roll_d66,
    target,
    test_odds,
)

__all__ = ["SYSTEM_STATE_SCHEMA", "validate_state"]

declare(
    "unicreon.test.no_value",
    "unicreon.test.no_character",
    "unicreon.state.malformed",
    "unicreon.state.invalid",
    "unicreon.combat.npc_kind",
)

S = "unicreon"
#: Requests carry characters as plain objects too; ``_char`` validates them against
#: character.CHARACTER_SCHEMA (same reason as STATE below) and answers unicreon.char.malformed.
CHARACTER: dict[str, Any] = {"type": "object", "maxProperties": 40}
#: Requests carry the combat state as a plain object: the handler validates it against
#: combat.STATE_SCHEMA (published by ``unicreon.schemas``) and answers unicreon.state.malformed.
#: Reading: the full nested schema made schema-driven fuzzing (hypothesis-jsonschema) take ~1 s
#: per request, so the request schema stays light and the check happens in ``_state``.
STATE: dict[str, Any] = {"type": "object", "maxProperties": 20}
UID = {"type": "string", "minLength": 1, "maxLength": 40}
CID = cs.CID
#: How Unicreon declares its ops: ``unicreon.<name>``, ``state=True`` for the combat tracker,
#: ``character=True`` for a character (both checked in the handlers, see above).
unicreon_op = SystemOps(S, state=STATE, character=CHARACTER)
SKILL = {"enum": [None, *SKILL_LEVELS]}
STEPS = {"type": "integer", "minimum": 0, "maximum": 10}

#: A test: characteristic (read from ``character``) or an explicit value; difficulty; stacked
#: bonus/malus steps; a skill level; items of the character that lower the difficulty.
TEST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "characteristic": {"enum": [None, *CHARACTERISTICS]},
        "value": {"type": ["integer", "null"], "minimum": 0, "maximum": 99},
        "difficulty": {"enum": list(DIFFICULTIES)},
        "bonus": STEPS,
        "malus": STEPS,
        "item_steps": STEPS,
        "items": {"type": "array", "items": UID, "maxItems": 20},
        "skill": SKILL,
    },
    "additionalProperties": False,
}

#: document["systems"]["unicreon"]: the combat tracker, the MJ's custom item library and the table
#: setting ``creation_pay`` (optional; absent or false: equipment at creation is chosen, not
#: bought; true: creation purchases cost PO).
SYSTEM_STATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "combat": nullable(cs.STATE_SCHEMA),
        "custom_items": {"type": "array", "items": ch.ITEM_SCHEMA, "maxItems": 200},
        "creation_pay": {"type": "boolean"},
    },
    "additionalProperties": False,
}


@cache
def _validator(which: str) -> Any:
    return compile_schema(SYSTEM_STATE_SCHEMA if which == "system" else cs.STATE_SCHEMA)


def validate_state(state: Any) -> list[Problem]:
    """Store validator for document["systems"]["unicreon"]. Never raises."""
    problems = shape_problems(_validator("system"), state, "unicreon.state.malformed")
    if problems:
        return problems
    try:
        details = cs.state_problems(state["combat"]) if state["combat"] is not None else []
    except Exception as exc:  # pragma: no cover - defensive: untrusted data must never raise
        return [Problem("", "unicreon.state.malformed", {"detail": type(exc).__name__})]
    return [Problem("combat", "unicreon.state.invalid", {"detail": d}) for d in details]


def require_combat(state: Any) -> Any:
    """The fight an op takes (``state``: :data:`STATE`), or the error its rules give it."""
    return _state({"state": state})


def _state(request: dict[str, Any]) -> dict[str, Any]:
    state = request["state"]
    try:
        _validator("combat")(state)
    except fastjsonschema.JsonSchemaException as exc:
        raise RulesError(
            "unicreon.state.malformed",
            detail=f"{getattr(exc, 'name', '') or ''}: {getattr(exc, 'message', exc)}"[:200]
        ) from None
    details = cs.state_problems(state)
    if details:
        raise RulesError("unicreon.state.invalid", detail=details[0])
    return state



def _refuse(problems: list[Problem], key: str) -> None:
    if problems:
        p = problems[0]
        raise RulesError(p.code, field=f"{key}.{p.field}".rstrip("."), **p.params)


def _char(request: dict[str, Any], key: str = "character", *, rules: str = "play") -> dict[str, Any]:
    """The request's character, refused (first problem, with its field) unless it has the
    stored shape and, for ``rules`` "play", keeps every rule ``unicreon.character.check`` checks
    apart from the creation-only ones (character.play_problems: characteristics, encumbrance,
    one armour / one shield); "repair" leaves the inventory rules out (ops that put an inventory
    right); "shape" checks the shape only (check and finish report the rules themselves)."""
    _refuse(ch.validate_character(request[key]), key)
    if rules != "shape":
        _refuse(ch.play_problems(request[key], inventory=rules == "play"), key)
    return ch.ensure_character(request[key])


def _char_out(character: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"character": character, "encumbrance": ch.encumbrance(character), **extra}


def _test_target(spec: dict[str, Any], character: dict[str, Any] | None) -> dict[str, Any]:
    """Target of a test spec. Source: "Tests et résolutions", "Bonus/Malus", "Objets usuels"
    (each item once: character.item_bonus)."""
    value = spec.get("value")
    characteristic = spec.get("characteristic")
    if value is None:
        if character is None or characteristic is None:
            raise RulesError("unicreon.test.no_value")
        value = character["characteristics"][characteristic]
    item_steps = spec.get("item_steps", 0)
    counted: list[str] = []
    if spec.get("items"):
        if character is None:
            raise RulesError("unicreon.test.no_character")
        steps, counted = ch.item_bonus(character, spec["items"])
        item_steps += steps
    diff = difficulty_value(
        spec.get("difficulty", "moyen"),
        bonus=spec.get("bonus", 0),
        malus=spec.get("malus", 0),
        items=item_steps,
    )
    skill = spec.get("skill")
    return {
        "value": value,
        "difficulty_value": diff,
        "difficulty": difficulty_label(diff),
        "skill": skill,
        "skill_value": SKILL_LEVELS[skill] if skill else 0,
        "target": target(value, diff, skill),
        "items_counted": counted,
    }


def _opt_char(request: dict[str, Any], key: str) -> dict[str, Any] | None:
    return _char(request, key) if request.get(key) is not None else None


@unicreon_op("schemas", summary="JSON Schemas of the character, the combat state and the table state.")
def _schemas(request: dict[str, Any]) -> dict[str, Any]:
    return clone(
        {
            "character": ch.CHARACTER_SCHEMA,
            "combat_state": cs.STATE_SCHEMA,
            "system_state": SYSTEM_STATE_SCHEMA,
        }
    )


# --- data and characters -------------------------------------------------------------------


@unicreon_op("data", summary="Every Unicreon data table (characteristics, difficulties, prices, NPCs).")
def _data(request: dict[str, Any]) -> dict[str, Any]:
    return data_tables()


def _character_new(request: dict[str, Any]) -> dict[str, Any]:
    return _char_out(ch.new_character(cid=request["id"], name=request.get("name", "")))


#: The table setting "creation purchases cost PO" (document["systems"]["unicreon"]["creation_pay"]),
#: sent by the page with the requests it changes. Reading: rules/README.md, Unicreon.
CREATION_PAY = {"type": "boolean"}


def _character_check(request: dict[str, Any]) -> dict[str, Any]:
    c = request["character"]
    shape = [p for p in ch.validate_character(c) if p.code == "unicreon.char.malformed"]
    if shape:
        raise RulesError(shape[0].code, field=f"character.{shape[0].field}".rstrip("."), **shape[0].params)
    problems = [p.to_json() for p in ch.check_creation(c, creation_pay=request.get("creation_pay", False))]
    return {"ok": not problems, "problems": problems, "encumbrance": ch.encumbrance(c)}


def _character_finish(request: dict[str, Any]) -> dict[str, Any]:
    """Source: "Création de personnages"; see character.finish_creation."""
    return _char_out(
        ch.finish_creation(_char(request, rules="shape"), creation_pay=request.get("creation_pay", False))
    )


character_ops(
    unicreon_op,
    character=CHARACTER,
    new=CharacterOp(_character_new, "A blank character sheet with the starting values (12 PV, 40 PO)."),
    check=CharacterOp(_character_check, "Every rule the sheet breaks, as field-level problems (the creation-only "
                      "rules while created is false).", {"creation_pay": CREATION_PAY}),
    finish=CharacterOp(_character_finish, "Finish the creation (refused while character.check has problems, or "
                       "when already created): sets created, after which only the rules of play apply.",
                       {"creation_pay": CREATION_PAY}),
)


@unicreon_op("shop.buy", character=True, takes={"ref": {"enum": list(CATALOGUE)}},
             may={"carried": {"enum": list(CARRIED)}, "creation_pay": CREATION_PAY},
             summary="Buy a catalogue item: PO deducted (during the creation the item is chosen, free, unless "
             "creation_pay); refused when PO are short or the bags are full.")
def _shop_buy(request: dict[str, Any]) -> dict[str, Any]:
    c = _char(request)
    out = ch.buy(c, request["ref"], carried=request.get("carried"), creation_pay=request.get("creation_pay", False))
    return _char_out(out, uid=out["inventory"][-1]["uid"])


@unicreon_op("shop.sell", character=True, takes={"uid": UID},
             may={"price": {"type": "integer", "minimum": 0, "maximum": 1000000}, "creation_pay": CREATION_PAY},
             summary="Sell (or give back) an item for what it was paid, or for the price the MJ sets (an item got "
             "free, chosen at creation or given, sells for nothing).")
def _shop_sell(request: dict[str, Any]) -> dict[str, Any]:
    c = _char(request, rules="repair")
    item = ch.find_item(c, request["uid"])
    paying = ch.pays(c, creation_pay=request.get("creation_pay", False))
    price = request.get("price", ch.sale_price(item) if paying else 0)
    out = ch.remove_item(c, request["uid"], refund=0)
    out["po"] = min(10000000, out["po"] + price)
    return _char_out(out)


@unicreon_op("inventory.custom", character=True, takes={"item": ch.CUSTOM_ITEM_SCHEMA},
             may={"pay": {"type": "boolean"}, "creation_pay": CREATION_PAY},
             summary="Give a custom item defined by the MJ (paid only when pay is true, and during the creation only "
             "with creation_pay).")
def _inventory_custom(request: dict[str, Any]) -> dict[str, Any]:
    item = ch.custom_item(request["item"])
    c = _char(request)
    pay = request.get("pay", False) and ch.pays(c, creation_pay=request.get("creation_pay", False))
    out = ch.add_item(c, item, pay=pay)
    return _char_out(out, uid=out["inventory"][-1]["uid"])


@unicreon_op("inventory.remove", character=True, takes={"uid": UID}, summary="Drop an item (no PO back).")
def _inventory_remove(request: dict[str, Any]) -> dict[str, Any]:
    return _char_out(ch.remove_item(_char(request, rules="repair"), request["uid"]))


@unicreon_op("inventory.carry", character=True, takes={"uid": UID, "carried": {"enum": list(CARRIED)}},
             summary="Move an item to a bag, a hand, worn or following; refused when the bags overflow.")
def _inventory_carry(request: dict[str, Any]) -> dict[str, Any]:
    return _char_out(ch.set_carried(_char(request, rules="repair"), request["uid"], request["carried"]))


@unicreon_op("item.use", character=True, takes={"uid": UID},
             may={"target": CHARACTER, "condition": {"type": "integer", "minimum": 0, "maximum": 19}},
             summary="Use an item: one use spent; care items heal (refused at full PV) or, given a condition, dress an "
             "infected wound (it ends); antidotes cure a diagnosed condition; a poison afflicts the target (required).")
def _item_use(request: dict[str, Any]) -> dict[str, Any]:
    res = hl.use_item(
        _char(request),
        request["uid"],
        target=_opt_char(request, "target"),
        condition=request.get("condition"),
    )
    return _char_out(res["character"], target=res["target"])


# --- tests ---------------------------------------------------------------------------------


def _test_response(spec_target: dict[str, Any], res: dict[str, Any]) -> dict[str, Any]:
    return {**spec_target, **res}


@unicreon_op("test", seed=True, takes={"test": TEST_SCHEMA}, may={"character": CHARACTER},
             summary="Roll a test (d66 ≥ characteristic + difficulty − skill): both dice, raw, real, band.")
def _test(request: dict[str, Any]) -> dict[str, Any]:
    t = _test_target(request["test"], _opt_char(request, "character"))
    dice = roll_d66(rng_from(request))
    return {"seed": request["seed"], **_test_response(t, resolve_test(dice[0], dice[1], t["target"]))}


@unicreon_op("test.odds", takes={"test": TEST_SCHEMA}, may={"character": CHARACTER},
             summary="Exact odds of a test: success and each résultat réel band over the 36 d66.")
def _test_odds(request: dict[str, Any]) -> dict[str, Any]:
    t = _test_target(request["test"], _opt_char(request, "character"))
    return {**t, **test_odds(t["target"])}


#: The request of an opposition and of its odds (the roll adds its seed).
OPPOSITION: dict[str, Any] = {
    "takes": {"a": TEST_SCHEMA, "b": TEST_SCHEMA},
    "may": {
        "character_a": CHARACTER,
        "character_b": CHARACTER,
        "mode": {"enum": ["auto", "plain", "modified"]},
        "initiator": {"enum": [None, "a", "b"]},
    },
}


def _opp_setup(request: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """Mode "auto": the plain form when both sides test at Moyen with no skill, else the modified
    form. Source: "Tests en opposition"."""
    ta = _test_target(request["a"], _opt_char(request, "character_a"))
    tb = _test_target(request["b"], _opt_char(request, "character_b"))
    mode = request.get("mode", "auto")
    if mode == "auto":
        modified = any(t["difficulty_value"] != 0 or t["skill"] for t in (ta, tb))
    else:
        modified = mode == "modified"
    return ta, tb, modified


@unicreon_op("opposition", **OPPOSITION, seed=True,
             summary="Roll an opposition (plain: higher raw wins; modified: both must succeed first).")
def _opposition(request: dict[str, Any]) -> dict[str, Any]:
    ta, tb, modified = _opp_setup(request)
    rng = rng_from(request)
    da, db = roll_d66(rng), roll_d66(rng)
    ra = _test_response(ta, resolve_test(da[0], da[1], ta["target"]))
    rb = _test_response(tb, resolve_test(db[0], db[1], tb["target"]))
    res = resolve_opposition(ra, rb, modified=modified, initiator=request.get("initiator"))
    return {"seed": request["seed"], "modified": modified, "a": ra, "b": rb, **res}


@unicreon_op("opposition.odds", **OPPOSITION, summary="Exact odds of an opposition over the 1296 pairs of d66.")
def _opposition_odds(request: dict[str, Any]) -> dict[str, Any]:
    ta, tb, modified = _opp_setup(request)
    odds = opposition_odds(ta["target"], tb["target"], modified=modified, initiator=request.get("initiator"))
    return {"modified": modified, "a": ta, "b": tb, **odds}


# --- health --------------------------------------------------------------------------------

AMOUNT = {"type": "integer", "minimum": 0, "maximum": 999}


@unicreon_op("health.damage", character=True, takes={"amount": AMOUNT},
             summary="Lose PV (0 PV: down until the MJ decides).")
def _damage(request: dict[str, Any]) -> dict[str, Any]:
    return _char_out(hl.apply_damage(_char(request), request["amount"]))


@unicreon_op("health.heal", character=True, takes={"amount": AMOUNT}, summary="Regain PV, never above the max.")
def _heal(request: dict[str, Any]) -> dict[str, Any]:
    return _char_out(hl.apply_heal(_char(request), request["amount"]))


@unicreon_op("health.down", character=True, takes={"state": {"enum": [None, "down", "unconscious", "dead"]}},
             summary="The MJ's choice at 0 PV: unconscious or dead.")
def _down(request: dict[str, Any]) -> dict[str, Any]:
    return _char_out(hl.set_down(_char(request), request["state"]))


@unicreon_op("health.rest", character=True, takes={"kind": {"enum": ["short", "full"]}},
             summary="Rest: short = 1 PV; full day and night = half the PV lost.")
def _rest(request: dict[str, Any]) -> dict[str, Any]:
    return _char_out(hl.rest(_char(request), request["kind"]))


@unicreon_op("health.new_adventure", character=True, summary="Full health at the start of an adventure.")
def _new_adventure(request: dict[str, Any]) -> dict[str, Any]:
    return _char_out(hl.new_adventure(_char(request)))


@unicreon_op("health.afflict", character=True, takes={"kind": {"enum": ["poison", "disease", "infection"]}},
             may={"name": {"type": "string", "maxLength": 80}, "diagnosed": {"type": "boolean"}},
             summary="Add a poison, disease or infected wound (1d6 PV per day).")
def _afflict(request: dict[str, Any]) -> dict[str, Any]:
    return _char_out(
        hl.afflict(
            _char(request),
            request["kind"],
            request.get("name", ""),
            diagnosed=request.get("diagnosed", False),
        )
    )


@unicreon_op("health.cure", character=True, takes={"condition": {"type": "integer", "minimum": 0, "maximum": 19}},
             summary="End a condition (healed): it leaves the sheet.")
def _cure(request: dict[str, Any]) -> dict[str, Any]:
    """See health.cure."""
    return _char_out(hl.cure(_char(request), request["condition"]))


#: The request of a diagnosis and of its odds (the roll adds its seed).
DIAGNOSIS: dict[str, Any] = {
    "character": True,
    "takes": {
        "condition": {"type": "integer", "minimum": 0, "maximum": 19},
        "perception": {"type": "integer", "minimum": 0, "maximum": 99},
    },
    "may": {"skill": SKILL},
}


def _diag_target(request: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Diagnosis: the healer's Perception test at Moyen (0). Source: "Soins"."""
    c = _char(request)
    if not 0 <= request["condition"] < len(c["conditions"]):
        raise RulesError("unicreon.health.unknown_condition", index=request["condition"])
    return c, target(request["perception"], 0, request.get("skill"))


@unicreon_op("health.diagnose", **DIAGNOSIS, seed=True,
             summary="Diagnose a condition: the healer's Perception test (Moyen); success marks it diagnosed.")
def _diagnose(request: dict[str, Any]) -> dict[str, Any]:
    c, tgt = _diag_target(request)
    dice = roll_d66(rng_from(request))
    res = resolve_test(dice[0], dice[1], tgt)
    out = hl.diagnosed(c, request["condition"]) if res["success"] else c
    return _char_out(out, seed=request["seed"], test=res)


@unicreon_op("health.diagnose.odds", **DIAGNOSIS, summary="Exact odds of a diagnosis.")
def _diagnose_odds(request: dict[str, Any]) -> dict[str, Any]:
    _, tgt = _diag_target(request)
    return test_odds(tgt)


@unicreon_op("health.day", character=True, seed=True, summary="One adventure day: each condition costs 1d6 PV.")
def _day(request: dict[str, Any]) -> dict[str, Any]:
    c = _char(request)
    dice = hl.roll_condition_dice(c, rng_from(request))
    return _char_out(hl.condition_day(c, dice), seed=request["seed"], dice=dice, pv_lost=sum(dice))


@unicreon_op("health.day.odds", character=True, summary="Exact distribution of the PV lost in one adventure day.")
def _day_odds(request: dict[str, Any]) -> dict[str, Any]:
    return {"pv_lost": hl.condition_day_odds(len(_char(request)["conditions"]))}


# --- combat --------------------------------------------------------------------------------


@unicreon_op("combat.new", summary="An empty combat tracker.")
def _combat_new(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": cs.new_state()}


@unicreon_op("combat.add_character", state=True, character=True, may={"side": {"enum": ["pc", "npc"]}},
             summary="Add a PC (or an important NPC) to the fight.")
def _combat_add_character(request: dict[str, Any]) -> dict[str, Any]:
    out = cb.add_character(_state(request), _char(request), side=request.get("side", "pc"))
    return {"state": out, "cid": out["combatants"][-1]["cid"]}


@unicreon_op(
    "combat.add_npc", state=True,
    may={
        "tier": {"enum": list(NPC_TIERS)},
        "beast": {"enum": list(BESTIARY)},
        "count": {"type": "integer", "minimum": 1, "maximum": 20},
        "name": {"type": "string", "maxLength": 60},
    },
    summary="Add generic NPCs of a tier, or beasts, in one request (give tier or beast).",
)
def _combat_add_npc(request: dict[str, Any]) -> dict[str, Any]:
    tier, beast = request.get("tier"), request.get("beast")
    if (tier is None) == (beast is None):
        raise RulesError("unicreon.combat.npc_kind")
    count = request.get("count", 1)
    out = cb.add_npcs(_state(request), tier=tier, beast=beast, count=count, name=request.get("name", ""))
    return {"state": out, "cids": [c["cid"] for c in out["combatants"][-count:]]}


@unicreon_op("combat.remove", state=True, takes={"cid": CID}, summary="Take a combatant out of the fight.")
def _combat_remove(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": cb.remove(_state(request), request["cid"])}


@unicreon_op("combat.surprise", state=True,
             takes={"attackers": {"type": "array", "items": CID, "minItems": 1, "maxItems": 60}},
             summary="A free surprise round for the attackers, before initiative.")
def _combat_surprise(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": cb.surprise(_state(request), request["attackers"])}


@unicreon_op("combat.seat", state=True, takes={"entry": CID, "move": {"enum": ["up", "down"]}},
             summary="Move a seat (a PC's cid, or mj) one place up or down the table's seating order; initiative goes "
             "clockwise in that order.")
def _combat_seat(request: dict[str, Any]) -> dict[str, Any]:
    """See combat.move_seat."""
    out = cb.move_seat(_state(request), request["entry"], -1 if request["move"] == "up" else 1)
    return {"state": out, "seating": out["seating"]}


@unicreon_op("combat.initiative", state=True, seed=True,
             summary="Roll initiative (Agilité; one MJ roll for all NPCs) and start round 1.")
def _combat_initiative(request: dict[str, Any]) -> dict[str, Any]:
    out = cb.initiative(_state(request), rng_from(request))
    return {"state": out, "seed": request["seed"], "order": out["order"]}


@unicreon_op("combat.initiative.odds", state=True, summary="Each PC's (and the MJ's) chance to succeed at initiative.")
def _combat_initiative_odds(request: dict[str, Any]) -> dict[str, Any]:
    state = _state(request)
    entries = {
        c["cid"]: test_odds(target(c["characteristics"]["agilite"]))
        for c in state["combatants"]
        if c["side"] == "pc" and c["down"] is None
    }
    npcs = [c for c in state["combatants"] if c["side"] == "npc" and c["down"] is None]
    if npcs:
        entries[cs.MJ] = test_odds(target(min(c["characteristics"]["agilite"] for c in npcs)))
    return {"entries": entries}


@unicreon_op("combat.next", state=True, summary="End the current turn (a new round after the last).")
def _combat_next(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": cb.next_turn(_state(request))}


@unicreon_op("combat.engage", state=True, takes={"cid": CID, "target": CID},
             summary="Move into contact with a foe (one action).")
def _combat_engage(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": cb.engage(_state(request), request["cid"], request["target"])}


@unicreon_op("combat.pickup", state=True, takes={"cid": CID, "uid": UID},
             summary="Pick a thrown weapon back up (one action).")
def _combat_pickup(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": cb.pickup(_state(request), request["cid"], request["uid"])}


#: The request of a passe d'armes and of its odds (the roll adds its seed).
ATTACK: dict[str, Any] = {
    "state": True,
    "takes": {"attacker": CID, "defender": CID},
    "may": {
        "weapon": nullable(UID),
        "protection": nullable(UID),
        "ranged": {"type": "boolean"},
        "distance": {"type": "integer", "minimum": 0, "maximum": 100000},
        "aim": {"type": "boolean"},
        "surprise": {"type": "boolean"},
        "attacker_skill": SKILL,
        "defender_skill": SKILL,
        "attacker_malus": {"type": "integer", "minimum": -4, "maximum": 4},
        "defender_malus": {"type": "integer", "minimum": -4, "maximum": 4},
        "allow_same_side": {"type": "boolean"},
    },
}


@unicreon_op("combat.attack", **ATTACK, seed=True,
             summary="A passe d'armes: attack vs defence, damage, absorption, PV lost.")
def _combat_attack(request: dict[str, Any]) -> dict[str, Any]:
    state = _state(request)
    rng = rng_from(request)
    a_dice, d_dice = roll_d66(rng), roll_d66(rng)
    return {"seed": request["seed"], **pa.attack(state, request, a_dice, d_dice)}


@unicreon_op("combat.attack.odds", **ATTACK, summary="Exact odds of a passe d'armes (hit, absorption, PV lost).")
def _combat_attack_odds(request: dict[str, Any]) -> dict[str, Any]:
    return pa.attack_odds(_state(request), request)


#: The request of an escape and of its odds (the roll adds its seed).
ESCAPE: dict[str, Any] = {
    "state": True,
    "takes": {"cid": CID, "from": CID, "mode": {"enum": ["two_actions", "opposition"]}},
}


@unicreon_op("combat.escape", **ESCAPE, seed=True,
             summary="Escape from melee: two actions, or one action and an Agilité opposition.")
def _combat_escape(request: dict[str, Any]) -> dict[str, Any]:
    rng = rng_from(request)
    dice = (roll_d66(rng), roll_d66(rng)) if request["mode"] == "opposition" else None
    res = cb.escape(_state(request), request["cid"], request["from"], request["mode"], dice)
    return {"seed": request["seed"], **res}


@unicreon_op("combat.escape.odds", **ESCAPE, summary="Exact odds of an escape.")
def _combat_escape_odds(request: dict[str, Any]) -> dict[str, Any]:
    state = _state(request)
    c, foe = cs.get(state, request["cid"]), cs.get(state, request["from"])
    if request["mode"] == "two_actions":
        return {"success": {"p": "1/1", "percent": 100.0}}
    odds = opposition_odds(
        target(c["characteristics"]["agilite"]),
        target(foe["characteristics"]["agilite"]),
        modified=False,
        initiator="a",
    )
    return {"success": odds["a_wins"], "failure": odds["b_wins"]}


@unicreon_op(
    "combat.adjust", state=True,
    takes={"cid": CID},
    may={
        "pv_delta": {"type": "integer", "minimum": -999, "maximum": 999},
        "down": {"enum": ["keep", None, "down", "unconscious", "dead"]},
    },
    summary="MJ: change a combatant's PV (0..max) or down state.",
)
def _combat_adjust(request: dict[str, Any]) -> dict[str, Any]:
    return {
        "state": cb.adjust(
            _state(request),
            request["cid"],
            pv_delta=request.get("pv_delta", 0),
            down=request.get("down", "keep"),
        )
    }


@unicreon_op("combat.end", state=True, summary="End the fight; returns the PV to copy back to each character.")
def _combat_end(request: dict[str, Any]) -> dict[str, Any]:
    return cb.end_combat(_state(request))


@unicreon_op("combat.sync", state=True, character=True,
             summary="Copy a character's PV and down state onto its combatant (a change made on the sheet during a "
             "fight); unchanged when the character is not in the fight.")
def _combat_sync(request: dict[str, Any]) -> dict[str, Any]:
    """See combat.sync_character (the sheet/tracker PV model)."""
    return {"state": cb.sync_character(_state(request), _char(request))}


@unicreon_op("combat.apply", state=True, character=True,
             summary="Copy a combatant's PV and down state back onto its character.")
def _combat_apply(request: dict[str, Any]) -> dict[str, Any]:
    state, c = _state(request), _char(request)
    for x in state["combatants"]:
        if x["character_id"] == c["id"]:
            out = clone(c)
            out["pv"] = min(x["pv"], out["pv_max"])
            out["down"] = x["down"]
            return _char_out(out)
    raise RulesError("unicreon.combat.unknown", cid=c["id"])
