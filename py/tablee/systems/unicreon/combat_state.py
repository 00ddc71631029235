"""Unicreon combat tracker's state: its schema, its refusals, an empty tracker, its invariants
beyond the schema, and the combatant acting now (checked). The tracker's moves are in combat.py
(which re-exports these names), the passe d'armes and its odds in passe_darmes.py.

Source: 004_12a5de9999b9d0ad.txt, "Combats" ("Initiative": deux actions par tour), "Gestion de
la santé"; the readings are in combat.py's docstring.
"""

from __future__ import annotations

from typing import Any

from tablee.errors import RulesError, declare
from tablee.schema import array, record

from .character import CHAR_ENUM, ITEM_SCHEMA, PROTECTION_SCHEMA, WEAPON_SCHEMA, nullable
from .data import BESTIARY, CHARACTERISTICS, NPC_TIERS

declare(
    "unicreon.combat.unknown",
    "unicreon.combat.full",
    "unicreon.combat.not_started",
    "unicreon.combat.not_your_turn",
    "unicreon.combat.no_actions",
    "unicreon.combat.down",
    "unicreon.combat.self",
    "unicreon.combat.same_side",
    "unicreon.combat.no_weapon",
    "unicreon.combat.weapon_lost",
    "unicreon.combat.ranged_needs_weapon",
    "unicreon.combat.not_melee",
    "unicreon.combat.not_engaged",
    "unicreon.combat.out_of_range",
    "unicreon.combat.no_protection",
    "unicreon.combat.not_lost",
    "unicreon.combat.blocked",
    "unicreon.combat.already_engaged",
    "unicreon.combat.no_pcs",
    "unicreon.combat.seat_end",
)

MAX_COMBATANTS = 60
CID = {"type": "string", "minLength": 1, "maxLength": 40}

_RECORD_KEYS = {
    "uid": {"type": "string", "minLength": 1, "maxLength": 40},
    "name": {"type": "string", "maxLength": 80},
    "ref": ITEM_SCHEMA["properties"]["ref"],
}
#: A weapon a combatant holds: its inventory uid, name, catalogue ref and weapon stats, flat.
WEAPON_RECORD: dict[str, Any] = {
    "type": "object",
    "properties": {**_RECORD_KEYS, **WEAPON_SCHEMA["properties"]},
    "required": [*_RECORD_KEYS, *WEAPON_SCHEMA["required"]],
    "additionalProperties": False,
}
#: A shield or armour a combatant can defend with (uid, name, ref, characteristic, absorb).
PROTECTION_RECORD: dict[str, Any] = {
    "type": "object",
    "properties": {**_RECORD_KEYS, **PROTECTION_SCHEMA["properties"]},
    "required": [*_RECORD_KEYS, *PROTECTION_SCHEMA["required"]],
    "additionalProperties": False,
}

COMBATANT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "cid": CID,
        "name": {"type": "string", "maxLength": 80},
        "side": {"enum": ["pc", "npc"]},
        "character_id": {"type": ["string", "null"], "maxLength": 64},
        "kind": {"enum": ["character", "tier", "beast"]},
        "ref": {"enum": [None, *NPC_TIERS, *BESTIARY]},
        "characteristics": {
            "type": "object",
            "properties": {c: {"type": "integer", "minimum": 0, "maximum": 99} for c in CHARACTERISTICS},
            "required": list(CHARACTERISTICS),
            "additionalProperties": False,
        },
        "pv": {"type": "integer", "minimum": 0, "maximum": 999},
        "pv_max": {"type": "integer", "minimum": 1, "maximum": 999},
        "natural": nullable(
            {
                "type": "object",
                "properties": {
                    "characteristic": CHAR_ENUM,
                    "damage": {"type": "integer", "minimum": 0, "maximum": 999},
                },
                "required": ["characteristic", "damage"],
                "additionalProperties": False,
            }
        ),
        "weapons": {"type": "array", "items": WEAPON_RECORD, "maxItems": 30},
        "protections": {"type": "array", "items": PROTECTION_RECORD, "maxItems": 10},
        "lost": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 30},
        "actions": {"type": "integer", "minimum": 0, "maximum": 2},
        "initiative": nullable(
            {
                "type": "object",
                "properties": {
                    "dice": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1, "maximum": 6},
                        "minItems": 2,
                        "maxItems": 2,
                    },
                    "raw": {"type": "integer", "minimum": 11, "maximum": 66},
                    "target": {"type": "integer", "minimum": -100, "maximum": 300},
                    "success": {"type": "boolean"},
                },
                "required": ["dice", "raw", "target", "success"],
                "additionalProperties": False,
            }
        ),
        "down": {"enum": [None, "down", "unconscious", "dead"]},
        "engaged": {"type": "array", "items": CID, "maxItems": MAX_COMBATANTS},
        "blocked": {
            "type": "array",
            "maxItems": MAX_COMBATANTS,
            "items": {
                "type": "object",
                "properties": {"cid": CID, "until": {"type": "integer", "minimum": 0, "maximum": 100000}},
                "required": ["cid", "until"],
                "additionalProperties": False,
            },
        },
    },
    "additionalProperties": False,
}
COMBATANT_SCHEMA["required"] = list(COMBATANT_SCHEMA["properties"])

_TEST_RESULT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "dice": COMBATANT_SCHEMA["properties"]["initiative"]["properties"]["dice"],
        "raw": {"type": "integer", "minimum": 11, "maximum": 66},
        "real": {"type": "integer", "minimum": 1, "maximum": 6},
        "target": {"type": "integer", "minimum": -100, "maximum": 300},
        "success": {"type": "boolean"},
        "band": {"enum": [None, "bof", "bien", "top", "super", "extra"]},
    },
    "required": ["dice", "raw", "real", "target", "success", "band"],
    "additionalProperties": False,
}
_PV = {"type": "integer", "minimum": 0, "maximum": 999}
#: The last passe d'armes of the current turn, kept in the state so the tracker shows it again
#: after a reload (cleared when the turn ends or one of the two leaves the fight).
LAST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "attacker": CID,
        "defender": CID,
        "exchange": {
            "type": "object",
            "properties": {
                "attacker": _TEST_RESULT,
                "defender": _TEST_RESULT,
                "hit": {"type": "boolean"},
                "winner": {"enum": ["attacker", "defender"]},
                "damage": _PV,
                "protection_held": {"type": "boolean"},
                "absorbed": _PV,
                "pv_lost": _PV,
            },
            "required": ["attacker", "defender", "hit", "winner", "damage", "protection_held", "absorbed", "pv_lost"],
            "additionalProperties": False,
        },
        "defender_pv": _PV,
    },
    "required": ["attacker", "defender", "exchange", "defender_pv"],
    "additionalProperties": False,
}

#: The tracker stored under document["systems"]["unicreon"]["combat"] (see ops.STATE_SCHEMA).
STATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "phase": {"enum": ["setup", "surprise", "fight", "over"]},
        "round": {"type": "integer", "minimum": 0, "maximum": 100000},
        "combatants": {"type": "array", "items": COMBATANT_SCHEMA, "maxItems": MAX_COMBATANTS},
        "order": {"type": "array", "items": CID, "maxItems": MAX_COMBATANTS + 1},
        "turn": {"type": "integer", "minimum": 0, "maximum": MAX_COMBATANTS + 1},
        "npc_initiative": COMBATANT_SCHEMA["properties"]["initiative"],
        "melee_attacks": array(record({"defender": CID, "attacker": CID}), 400),
        "next_id": {"type": "integer", "minimum": 1, "maximum": 1000000},
        "last": nullable(LAST_SCHEMA),
        "seating": {"type": "array", "items": CID, "maxItems": MAX_COMBATANTS + 1},
    },
    "required": [
        "phase",
        "round",
        "combatants",
        "order",
        "turn",
        "npc_initiative",
        "melee_attacks",
        "next_id",
        "last",
    ],
    "additionalProperties": False,
}

MJ = "mj"


def new_state() -> dict[str, Any]:
    """An empty tracker."""
    return {
        "phase": "setup",
        "round": 0,
        "combatants": [],
        "order": [],
        "turn": 0,
        "npc_initiative": None,
        "melee_attacks": [],
        "next_id": 1,
        "last": None,
        "seating": [],
    }


def state_problems(state: dict[str, Any]) -> list[str]:
    """Invariants beyond the schema (unique cids, references, PV ≤ max). Returns reason codes
    (``combat.<what>``), each worded by the catalogue's ``reason.<code>`` (never shown raw)."""
    out = []
    cids = [c["cid"] for c in state["combatants"]]
    if len(set(cids)) != len(cids) or MJ in cids:
        out.append("combat.cid_repeated")
    known = set(cids)
    for entry in state["order"]:
        if entry != MJ and entry not in known:
            out.append("combat.order_unknown")
    for c in state["combatants"]:
        if c["pv"] > c["pv_max"]:
            out.append("combat.pv_above_max")
    last = state["last"]
    if last is not None and not {last["attacker"], last["defender"]} <= known:
        out.append("combat.last_unknown")
    seats = state.get("seating", [])
    if len(set(seats)) != len(seats) or not set(seats) <= known | {MJ}:
        out.append("combat.seating_unknown")
    return out


def get(state: dict[str, Any], cid: str) -> dict[str, Any]:
    for c in state["combatants"]:
        if c["cid"] == cid:
            return c
    raise RulesError("unicreon.combat.unknown", cid=cid)


def _actor(state: dict[str, Any], cid: str, actions: int = 1) -> dict[str, Any]:
    """The combatant acting now, checked: fight running, its turn, alive, enough actions left."""
    if state["phase"] not in ("surprise", "fight") or state["turn"] >= len(state["order"]):
        raise RulesError("unicreon.combat.not_started")
    c = get(state, cid)
    entry = state["order"][state["turn"]]
    if not (entry == cid or (entry == MJ and c["side"] == "npc")):
        raise RulesError("unicreon.combat.not_your_turn", cid=cid)
    if c["down"] is not None:
        raise RulesError("unicreon.combat.down", cid=cid)
    if c["actions"] < actions:
        raise RulesError("unicreon.combat.no_actions", cid=cid, needed=actions, left=c["actions"])
    return c
