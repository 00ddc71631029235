"""SYSTMJ Action & Mouvement rounds: hidden choices revealed together, one action or one
movement per entity per round, the MJ's order and who has acted, fighters' PV and PA.

Source: 000_d267ce9097809d3e.txt, 3 and 3.2 (before each round every PJ lays a hidden
Action or Mouvement card; the cards are revealed together at the start of the round and
cannot change during it; actions and movements are played in the round's order, at the MJ's
discretion, NPCs and créatures included; one Action or one Mouvement per round). README
reading (SYSTMJ): the MJ's choice for NPCs and créatures is hidden too until the round
starts. Readings (ours): the round cannot start until every entity in it has chosen; the
fighters' current PV and PA live in the round (set from the sheet's maxima and, for PA, the
PA bonus of the armour cards worn, README: armour PA = the sum of the PA bonus of the armours
worn; the sheet's ``pa_max`` when the entity wears none).

Shape of ``state["rounds"]``::

    {"round": int, "revealed": bool,
     "entities": [{"id", "choice": "" | "action" | "mouvement", "acted": bool, "pv": int, "pa": int,
                   "defence"?: "none" | "esquive" | "parade" | "encaissement", "defence_card"?: number}]}

``defence`` (and the card it uses, ``defence_card``) is the defence an entity declared for
this round (:func:`defend`), taken by an exchange whose request gives none: 3.3.2 « S’il
réussit son attaque en revanche, son adversaire peut tenter une Défense ». It is the
defender's to declare, not the attacker's (at a live table the attacker's phone sends its
side only: py/tablee/referee.py). Like the choices it is hidden from players (never in
:func:`view`, nor in a player's share) and it ends with the round.

A list rather than a map keyed by id, so no untrusted id is ever an object key.
"""

from __future__ import annotations

from typing import Any

from ...errors import RulesError, declare
from ...schema import ID_SCHEMA, integer
from ...tree import clone

__all__ = ["DEFENCES", "ROUNDS_SCHEMA", "acted", "choose", "defend", "next_round", "reveal", "set_vitals", "start",
           "view"]

declare(
    "systmj.round.none",
    "systmj.round.locked",
    "systmj.round.not_revealed",
    "systmj.round.missing_choices",
    "systmj.round.already_acted",
    "systmj.round.unknown_entity",
    "systmj.round.duplicate_entity",
    "systmj.round.bad_order",
    "systmj.round.not_action",
)

CHOICES = ("action", "mouvement")
#: The defences of 3.3.3 (the same list as combat.DEFENCES, which this module cannot import).
DEFENCES = ("none", "esquive", "parade", "encaissement")
#: A card's registry number (library.NUMBER_PATTERN).
_CARD_NUMBER = {"type": "string", "pattern": "^(EQ|RE|SA|PO)-[0-9]{5}$"}
MAX_ENTITIES = 60
_ID = ID_SCHEMA
_POOL = integer(0, 999)

ROUNDS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "round": integer(1, 100000),
        "revealed": {"type": "boolean"},
        "entities": {
            "type": "array",
            "maxItems": MAX_ENTITIES,
            "items": {
                "type": "object",
                "properties": {
                    "id": _ID,
                    "choice": {"enum": ["", *CHOICES]},
                    "acted": {"type": "boolean"},
                    "pv": _POOL,
                    "pa": _POOL,
                    "defence": {"enum": list(DEFENCES)},
                    "defence_card": _CARD_NUMBER,
                },
                "required": ["id", "choice", "acted", "pv", "pa"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["round", "revealed", "entities"],
    "additionalProperties": False,
}


def _entry(rounds: dict[str, Any], entity: str) -> dict[str, Any]:
    for e in rounds["entities"]:
        if e["id"] == entity:
            return e
    raise RulesError("systmj.round.unknown_entity", entity=entity)


def start(fighters: list[dict[str, Any]]) -> dict[str, Any]:
    """Round 1 with the given entities (in the MJ's order) and their PV and PA."""
    ids = [f["id"] for f in fighters]
    if len(set(ids)) != len(ids):
        raise RulesError("systmj.round.duplicate_entity")
    return {
        "round": 1,
        "revealed": False,
        "entities": [{"id": f["id"], "choice": "", "acted": False, "pv": f["pv"], "pa": f["pa"]} for f in fighters],
    }


def choose(rounds: dict[str, Any], entity: str, choice: str) -> dict[str, Any]:
    """An entity's hidden choice for the coming round; locked once revealed (3.2)."""
    if rounds["revealed"]:
        raise RulesError("systmj.round.locked")
    new = clone(rounds)
    _entry(new, entity)["choice"] = choice
    return new


def defend(rounds: dict[str, Any], entity: str, defence: str, card: str | None = None) -> dict[str, Any]:
    """The defence ``entity`` will try this round when an attack on it succeeds (3.3.2, 3.3.3),
    with the card it uses (a weapon for a parade, a shield for an encaissement; the caller
    checks that the entity holds it). Declared again, it replaces the last one."""
    new = clone(rounds)
    e = _entry(new, entity)
    e["defence"] = defence
    e.pop("defence_card", None)
    if card:
        e["defence_card"] = card
    return new


def reveal(rounds: dict[str, Any]) -> dict[str, Any]:
    """The round starts: every card is turned over together (3.2)."""
    if rounds["revealed"]:
        raise RulesError("systmj.round.locked")
    missing = [e["id"] for e in rounds["entities"] if not e["choice"]]
    if missing:
        raise RulesError("systmj.round.missing_choices", entities=missing, count=len(missing))
    new = clone(rounds)
    new["revealed"] = True
    return new


def acted(rounds: dict[str, Any], entity: str) -> dict[str, Any]:
    """An entity has played its one Action or Mouvement of the round (3.2)."""
    if not rounds["revealed"]:
        raise RulesError("systmj.round.not_revealed")
    new = clone(rounds)
    e = _entry(new, entity)
    if e["acted"]:
        raise RulesError("systmj.round.already_acted", entity=entity)
    e["acted"] = True
    return new


def reorder(rounds: dict[str, Any], order: list[str]) -> dict[str, Any]:
    """The MJ sets the round's order (3.2): a permutation of the entities."""
    ids = [e["id"] for e in rounds["entities"]]
    if sorted(order) != sorted(ids):
        raise RulesError("systmj.round.bad_order")
    new = clone(rounds)
    by_id = {e["id"]: e for e in new["entities"]}
    new["entities"] = [by_id[i] for i in order]
    return new


def set_vitals(rounds: dict[str, Any], entity: str, pv: int, pa: int) -> dict[str, Any]:
    new = clone(rounds)
    e = _entry(new, entity)
    e["pv"], e["pa"] = pv, pa
    return new


def next_round(rounds: dict[str, Any]) -> dict[str, Any]:
    """The next round: new hidden choices, nobody has acted yet."""
    new = clone(rounds)
    new["round"] = min(new["round"] + 1, 100000)
    new["revealed"] = False
    for e in new["entities"]:
        e["choice"], e["acted"] = "", False
        e.pop("defence", None)
        e.pop("defence_card", None)
    return new


def view(rounds: dict[str, Any]) -> dict[str, Any]:
    """What the table's shared screen may show: before the reveal, only whether each entity
    has chosen, never what (README reading: the MJ's NPC choices and every PJ's are hidden)."""
    if rounds["revealed"]:
        return {**clone(rounds), "entities": [
            {k: v for k, v in e.items() if k not in ("defence", "defence_card")} for e in rounds["entities"]]}
    return {
        "round": rounds["round"],
        "revealed": False,
        "entities": [
            {"id": e["id"], "chosen": bool(e["choice"]), "acted": e["acted"], "pv": e["pv"], "pa": e["pa"]}
            for e in rounds["entities"]
        ],
    }
