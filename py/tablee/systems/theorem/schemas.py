"""The Théorem table state's JSON Schemas (``document["systems"]["theorem"]``, its shape in
:mod:`.state`): the numbered deck and arcana decks, the success table, pending actions, chases
and oppositions. Data only; :mod:`.state` checks a state with them and the ops take them.
Source: 003_0f8319d4d007e1fe.txt; readings: shared/rules/README.md (Théorem).
"""

from __future__ import annotations

from typing import Any

from ... import cards
from . import data as D

__all__ = [
    "CHASE_SCHEMA",
    "EFFECTS_SCHEMA",
    "MAX_PLAYERS",
    "OPPOSITION_SCHEMA",
    "PENDING_SCHEMA",
    "ROUND_SCHEMA",
    "ROW_SCHEMA",
    "SIDE_DRAW_SCHEMA",
    "SIDE_SCHEMA",
    "STATE_SCHEMA",
    "SUCCESS_TABLE_SCHEMA",
]

MAX_PLAYERS = 12

_ID = {"type": "string", "minLength": 1, "maxLength": 64}
_CARD_ID = {"type": "string", "minLength": 1, "maxLength": 64}
_SMALL = {"type": "integer", "minimum": -99, "maximum": 99}
ROW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "level": {"enum": list(D.LEVELS[1:])},
        "min": {"type": "integer", "minimum": -50, "maximum": 100},
        "cases": {"type": "integer", "minimum": 1, "maximum": 9},
        "bonus": {"type": "integer", "minimum": 0, "maximum": 20},
    },
    "required": ["level", "min", "cases", "bonus"],
    "additionalProperties": False,
}
SUCCESS_TABLE_SCHEMA: dict[str, Any] = {"type": "array", "items": ROW_SCHEMA, "minItems": 3, "maxItems": 3}
EFFECTS_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {"type": "string", "maxLength": 300},
    "minItems": len(D.ARCANA),
    "maxItems": len(D.ARCANA),
}
PENDING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "sphere": {"enum": [*D.SPHERES, None]},  # None: a chase side (its base is the chase's)
        "skill": {"type": ["string", "null"], "maxLength": 60},
        "sphere_level": {"type": "integer", "minimum": 0, "maximum": 10},
        "skill_level": {"type": "integer", "minimum": 0, "maximum": 10},
        "modifier": {"type": "integer", "minimum": -10, "maximum": 5},
        "exploit": {"type": "integer", "minimum": 0, "maximum": 10},
        "retest": {"type": "boolean"},
        "base": {"type": "integer", "minimum": -999, "maximum": 9999},
        "chain": {"type": "array", "items": _CARD_ID, "maxItems": 56},
        "drawn": {"type": "boolean"},
        "awaiting": {"type": ["string", "null"], "maxLength": 64},
        "must_play": {"type": "boolean"},
        "effect": {"type": ["integer", "null"], "minimum": 0, "maximum": 21},
        "chase": {"enum": ["a", "b"]},  # this action is the character's side of a chase round
    },
    "required": [
        "sphere",
        "skill",
        "sphere_level",
        "skill_level",
        "modifier",
        "exploit",
        "retest",
        "base",
        "chain",
        "drawn",
        "awaiting",
        "must_play",
        "effect",
    ],
    "additionalProperties": False,
}
SIDE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "base": {"type": "integer", "minimum": -20, "maximum": 40},
        "start": {"type": "integer", "minimum": -10, "maximum": 10},
        "character_id": _ID,  # a chase side played by a character: each round is its action
        # A side played by a character takes its base from the sheet, as a test does: the sphere
        # and skill named here (oppositions.sheet_side); the base is then that sum.
        "sphere": {"enum": list(D.SPHERES)},
        "skill": {"type": ["string", "null"], "maxLength": 60},
    },
    "required": ["name", "base", "start"],
    "additionalProperties": False,
}
ROUND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "cards_a": {"type": "array", "items": _CARD_ID, "maxItems": 56},
        "cards_b": {"type": "array", "items": _CARD_ID, "maxItems": 56},
        "value_a": {"type": "integer", "minimum": -999, "maximum": 999},
        "value_b": {"type": "integer", "minimum": -999, "maximum": 999},
        "score_a": {"type": "integer", "minimum": -999, "maximum": 999},
        "score_b": {"type": "integer", "minimum": -999, "maximum": 999},
        "winner": {"enum": ["a", "b", None]},
        "gain": {"type": "integer", "minimum": 0, "maximum": 20},
        "level_a": {"enum": list(D.LEVELS)},
        "level_b": {"enum": list(D.LEVELS)},
        "total_a": {"type": "integer", "minimum": 0, "maximum": 9999},
        "total_b": {"type": "integer", "minimum": 0, "maximum": 9999},
        "done": {"enum": ["a", "b", None]},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**53 - 1},
    },
    "required": [
        "cards_a",
        "cards_b",
        "value_a",
        "value_b",
        "score_a",
        "score_b",
        "winner",
        "gain",
        "level_a",
        "level_b",
        "total_a",
        "total_b",
        "done",
    ],
    "additionalProperties": False,
}
SIDE_DRAW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "cards": {"type": "array", "items": _CARD_ID, "maxItems": 56},
        "value": {"type": "integer", "minimum": -999, "maximum": 999},
        "score": {"type": "integer", "minimum": -9999, "maximum": 99999},
    },
    "required": ["cards", "value", "score"],
    "additionalProperties": False,
}
CHASE_SCHEMA: dict[str, Any] = {
    "type": ["object", "null"],
    "properties": {
        "a": SIDE_SCHEMA,
        "b": SIDE_SCHEMA,
        "target": {"enum": [3, 5]},
        "total_a": {"type": "integer", "minimum": 0, "maximum": 9999},
        "total_b": {"type": "integer", "minimum": 0, "maximum": 9999},
        "rounds": {"type": "array", "items": ROUND_SCHEMA, "maxItems": 100},
        "done": {"enum": ["a", "b", None]},
        # the round in progress: each side's draw once its action is over
        "current": {
            "type": "object",
            "properties": {"a": SIDE_DRAW_SCHEMA, "b": SIDE_DRAW_SCHEMA},
            "additionalProperties": False,
        },
    },
    "required": ["a", "b", "target", "total_a", "total_b", "rounds", "done"],
    "additionalProperties": False,
}
#: An opposition drawn side by side (oppositions.opposition_start): each side draws when its
#: player (or the MK) does; ``result`` once both have.
OPPOSITION_SCHEMA: dict[str, Any] = {
    "type": ["object", "null"],
    "properties": {
        "a": SIDE_SCHEMA,
        "b": SIDE_SCHEMA,
        "current": {
            "type": "object",
            "properties": {"a": SIDE_DRAW_SCHEMA, "b": SIDE_DRAW_SCHEMA},
            "additionalProperties": False,
        },
        "result": {
            "type": ["object", "null"],
            "properties": {
                "winner": {"enum": ["a", "b", None]},
                "score_a": {"type": "integer", "minimum": -9999, "maximum": 99999},
                "score_b": {"type": "integer", "minimum": -9999, "maximum": 99999},
                "level_a": {"enum": list(D.LEVELS)},
                "level_b": {"enum": list(D.LEVELS)},
            },
            "required": ["winner", "score_a", "score_b", "level_a", "level_b"],
            "additionalProperties": False,
        },
    },
    "required": ["a", "b", "current", "result"],
    "additionalProperties": False,
}
STATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "deck": cards.CARD_STATE_SCHEMA,
        "aside": {
            "type": "object",
            "propertyNames": _ID,
            "maxProperties": MAX_PLAYERS,
            "additionalProperties": {"type": "array", "items": _CARD_ID, "maxItems": 16},
        },
        "arcana": {
            "type": "object",
            "propertyNames": _ID,
            "maxProperties": MAX_PLAYERS + 1,
            "additionalProperties": cards.CARD_STATE_SCHEMA,
        },
        "hand_size": {
            "type": "object",
            "propertyNames": _ID,
            "maxProperties": MAX_PLAYERS + 1,
            "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 22},
        },
        "success_table": SUCCESS_TABLE_SCHEMA,
        "effects": EFFECTS_SCHEMA,
        "turn": {"type": "integer", "minimum": 0, "maximum": 999999},
        "arcane_turn": {
            "type": "object",
            "propertyNames": _ID,
            "maxProperties": MAX_PLAYERS,
            "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 999999},
        },
        "fails": {
            "type": "object",
            "propertyNames": _ID,
            "maxProperties": MAX_PLAYERS,
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "skill": {"type": "string", "maxLength": 60},
                    "count": {"type": "integer", "minimum": 1, "maximum": 99},
                },
                "required": ["skill", "count"],
                "additionalProperties": False,
            },
        },
        "pending": {
            "type": "object",
            "propertyNames": _ID,
            "maxProperties": MAX_PLAYERS,
            "additionalProperties": PENDING_SCHEMA,
        },
        "chase": CHASE_SCHEMA,
        "opposition": OPPOSITION_SCHEMA,
    },
    "required": [
        "deck",
        "aside",
        "arcana",
        "hand_size",
        "success_table",
        "effects",
        "turn",
        "arcane_turn",
        "fails",
        "pending",
        "chase",
    ],
    "additionalProperties": False,
}
