"""Unicreon combat tracker: pure state in → state out.

Source: 004_12a5de9999b9d0ad.txt, "Combats": "Règles de combat" ("Initiative", "Passer d'armes",
"Description des armes", "Combat au contact", "Armures et boucliers", "Combat à distance"),
"Combat avancé" ("Fuite", "Attaque par surprise", "Combat à plusieurs"), "Gestion de la santé".

Readings (beyond rules/README.md, Unicreon):
- Initiative (rules/README.md, Unicreon): the tracker keeps the table's seating order
  (``seating``: each PC's cid and one "mj" seat for all the MJ's characters; the MJ can move a
  seat up or down). Among the successes the highest raw result starts (a tie: the earlier seat);
  then play goes clockwise, i.e. on along the seating order and round to its start, successes and
  failures alike. If nobody succeeds, the highest raw result starts (the text is silent). The MJ
  rolls once for all NPCs, against the best (lowest) Agilité among them, and plays them all on
  the "mj" turn.
- Range: beyond the ideal range and up to halfway to the maximum the attack is one step harder
  (Difficile), beyond that up to the maximum two steps (Très difficile); beyond the maximum the
  shot is refused. Aiming costs one action and lowers the attack difficulty one step.
- "avec malus" weapons make their wielder's attack test one step harder.
- A melee attack needs the two to be engaged (engaging costs one action).
- The multi-attacker malus counts the distinct melee attackers of the defender this round.
- An NPC without weapon uses its profile's damage with its attack characteristic (tiers:
  Puissance; beasts: see data.BESTIARY).
- The escape opposition is a plain opposition (both Moyen) of Agilité; the one escaping initiates
  it and wins ties; a foe escaped from cannot re-engage during the next round.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from tablee.errors import RulesError, declare
from tablee.schema import array, record

from ...tree import clone
from .character import CHAR_ENUM, ITEM_SCHEMA, PROTECTION_SCHEMA, WEAPON_SCHEMA, nullable
from .data import BESTIARY, CHARACTERISTICS, NPC_TIERS
from .resolution import D66, frac, resolve_opposition, resolve_test, roll_d66, target

__all__ = [
    "STATE_SCHEMA",
    "add_character",
    "add_npcs",
    "attack",
    "attack_odds",
    "attack_setup",
    "damage_amount",
    "end_combat",
    "engage",
    "escape",
    "initiative",
    "move_seat",
    "new_state",
    "next_turn",
    "pickup",
    "resolve_exchange",
    "seating",
    "sync_character",
]

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


def seating(state: dict[str, Any]) -> list[str]:
    """The table's seating order: every PC's cid and one "mj" seat when the MJ has characters.

    The stored ``seating`` (optional: trackers saved before it existed have none) is kept for the
    entries still in the fight; any entry it lacks takes the next seat, in the order the
    combatants joined (the MJ's seat where her first character joined)."""
    entries = list(dict.fromkeys(MJ if c["side"] == "npc" else c["cid"] for c in state["combatants"]))
    present = set(entries)
    seats = [e for e in dict.fromkeys(state.get("seating", [])) if e in present]
    return seats + [e for e in entries if e not in seats]


def _clockwise(seats: list[str], start: str, members: set[str]) -> list[str]:
    """``members`` in seating order, going round the table from ``start``."""
    i = seats.index(start)
    return [e for e in seats[i:] + seats[:i] if e in members]


def _reseat(state: dict[str, Any]) -> None:
    """Store the normalised seating and, while a fight runs, order its entries clockwise from the
    one who started the round, the entry playing now keeping the turn."""
    state["seating"] = seating(state)
    if state["phase"] != "fight" or not state["order"]:
        return
    current = state["order"][state["turn"]] if state["turn"] < len(state["order"]) else None
    members = set(state["order"]) & set(state["seating"])
    start = next((e for e in state["order"] if e in members), None)
    state["order"] = _clockwise(state["seating"], start, members) if start is not None else []
    if current in state["order"]:
        state["turn"] = state["order"].index(current)
    else:
        state["turn"] = min(state["turn"], max(0, len(state["order"]) - 1))


def move_seat(state: dict[str, Any], entry: str, delta: int) -> dict[str, Any]:
    """Move a seat one place up (``delta`` −1) or down (+1) the seating order; a running fight is
    reordered at once (clockwise from the same starter). Source: "Initiative" (tournez autour de
    la table); reading rules/README.md, Unicreon: the MJ can change the seating order."""
    out = clone(state)
    seats = seating(out)
    if entry not in seats:
        raise RulesError("unicreon.combat.unknown", cid=entry)
    i = seats.index(entry)
    j = i + delta
    if not 0 <= j < len(seats):
        raise RulesError("unicreon.combat.seat_end", cid=entry)
    seats[i], seats[j] = seats[j], seats[i]
    out["seating"] = seats
    _reseat(out)
    return out


def state_problems(state: dict[str, Any]) -> list[str]:
    """Invariants beyond the schema (unique cids, references, PV ≤ max). Returns detail strings."""
    out = []
    cids = [c["cid"] for c in state["combatants"]]
    if len(set(cids)) != len(cids) or MJ in cids:
        out.append("duplicate or reserved cid")
    known = set(cids)
    for entry in state["order"]:
        if entry != MJ and entry not in known:
            out.append(f"order names unknown {entry}")
    for c in state["combatants"]:
        if c["pv"] > c["pv_max"]:
            out.append(f"{c['cid']} pv above max")
    last = state["last"]
    if last is not None and not {last["attacker"], last["defender"]} <= known:
        out.append("last exchange names an unknown combatant")
    seats = state.get("seating", [])
    if len(set(seats)) != len(seats) or not set(seats) <= known | {MJ}:
        out.append("seating names an unknown or repeated seat")
    return out


def _new_cid(state: dict[str, Any]) -> str:
    cid = f"c{state['next_id']}"
    state["next_id"] += 1
    return cid


def _room(state: dict[str, Any], n: int) -> None:
    if len(state["combatants"]) + n > MAX_COMBATANTS or state["next_id"] + n > 1000000:
        raise RulesError("unicreon.combat.full", max=MAX_COMBATANTS)


def _combatant(state: dict[str, Any], **fields: Any) -> dict[str, Any]:
    base = {
        "cid": _new_cid(state),
        "name": "",
        "side": "npc",
        "character_id": None,
        "kind": "tier",
        "ref": None,
        "characteristics": {},
        "pv": 1,
        "pv_max": 1,
        "natural": None,
        "weapons": [],
        "protections": [],
        "lost": [],
        "actions": 0,
        "initiative": None,
        "down": None,
        "engaged": [],
        "blocked": [],
    }
    base.update(fields)
    return base


def add_character(state: dict[str, Any], character: dict[str, Any], *, side: str = "pc") -> dict[str, Any]:
    """Add a PC (or an important NPC, ``side`` "npc") with its weapons, shields and armours.

    Source: "Personnages non-joueurs" (important NPCs are full characters)."""
    out = clone(state)
    _room(out, 1)
    inv = character["inventory"]
    combatant = _combatant(
        out,
        name=character["name"],
        side=side,
        character_id=character["id"],
        kind="character",
        characteristics=dict(character["characteristics"]),
        pv=min(character["pv"], character["pv_max"]),
        pv_max=character["pv_max"],
        weapons=[_record(i, "weapon") for i in inv if i["weapon"] is not None][:30],
        protections=[_record(i, "protection") for i in inv if i["protection"] is not None][:10],
        down=character["down"],
    )
    out["combatants"].append(combatant)
    _join_order(out, combatant)
    return out


def _record(item: dict[str, Any], key: str) -> dict[str, Any]:
    return {"uid": item["uid"], "name": item["name"], "ref": item["ref"], **clone(item[key])}


def add_npcs(
    state: dict[str, Any],
    *,
    tier: str | None = None,
    beast: str | None = None,
    count: int = 1,
    name: str = "",
) -> dict[str, Any]:
    """Add ``count`` generic NPCs of a tier or beasts of the bestiary in one go.

    Source: "PNJ génériques" (characteristics, PV, damage) and "Bestiaire : Animaux"."""
    out = clone(state)
    _room(out, count)
    for n in range(1, count + 1):
        if tier is not None:
            prof = NPC_TIERS[tier]
            chars = {c: prof["value"] for c in CHARACTERISTICS}
            natural = {"characteristic": "puissance", "damage": prof["damage"]}
            kind, ref = "tier", tier
        else:
            assert beast is not None
            prof = BESTIARY[beast]
            chars = dict(prof["characteristics"])
            natural = {"characteristic": prof["attack"], "damage": prof["damage"]}
            kind, ref = "beast", beast
        label = name or ref
        combatant = _combatant(
            out,
            name=f"{label} {n}" if count > 1 else label,
            kind=kind,
            ref=ref,
            characteristics=chars,
            pv=prof["pv"],
            pv_max=prof["pv"],
            natural=natural,
        )
        out["combatants"].append(combatant)
        _join_order(out, combatant)
    return out


def _join_order(state: dict[str, Any], combatant: dict[str, Any]) -> None:
    """A newcomer takes the next seat at the table (the MJ may move it); in a running fight he
    plays at his seat, clockwise from the round's starter (reading: the text is silent)."""
    entry = MJ if combatant["side"] == "npc" else combatant["cid"]
    if state["phase"] == "fight" and entry not in state["order"]:
        state["order"].append(entry)
    _reseat(state)


def remove(state: dict[str, Any], cid: str) -> dict[str, Any]:
    out = clone(state)
    c = get(out, cid)
    out["combatants"].remove(c)
    for other in out["combatants"]:
        other["engaged"] = [e for e in other["engaged"] if e != cid]
    current = out["order"][out["turn"]] if out["turn"] < len(out["order"]) else None
    out["order"] = [e for e in out["order"] if e != cid]
    if MJ in out["order"] and not any(x["side"] == "npc" for x in out["combatants"]):
        out["order"].remove(MJ)
    if current in out["order"]:
        out["turn"] = out["order"].index(current)
    else:
        out["turn"] = min(out["turn"], max(0, len(out["order"]) - 1))
    out["melee_attacks"] = [m for m in out["melee_attacks"] if cid not in (m["attacker"], m["defender"])]
    if out["last"] is not None and cid in (out["last"]["attacker"], out["last"]["defender"]):
        out["last"] = None
    out["seating"] = seating(out)
    return out


def get(state: dict[str, Any], cid: str) -> dict[str, Any]:
    for c in state["combatants"]:
        if c["cid"] == cid:
            return c
    raise RulesError("unicreon.combat.unknown", cid=cid)


def _entry_members(state: dict[str, Any], entry: str) -> list[dict[str, Any]]:
    if entry == MJ:
        return [c for c in state["combatants"] if c["side"] == "npc"]
    return [c for c in state["combatants"] if c["cid"] == entry]


def _start_entry(state: dict[str, Any]) -> None:
    """Everyone on the current entry gets their two actions. Source: "Initiative" (deux actions)."""
    if state["turn"] < len(state["order"]):
        for c in _entry_members(state, state["order"][state["turn"]]):
            c["actions"] = 2 if c["down"] is None else 0


def surprise(state: dict[str, Any], attackers: list[str]) -> dict[str, Any]:
    """A free first round for the surprise attackers, before initiative. Source: "Attaque par
    surprise" (attaque-surprise à distance: un premier tour de jeu gratuit)."""
    out = clone(state)
    for cid in attackers:
        get(out, cid)
    for c in out["combatants"]:
        c["actions"] = 0
    out["phase"] = "surprise"
    out["order"] = list(dict.fromkeys(attackers))
    out["turn"] = 0
    out["round"] = 0
    out["melee_attacks"] = []
    out["last"] = None
    _start_entry(out)
    return out


def initiative_from_dice(
    state: dict[str, Any], pc_dice: dict[str, list[int]], npc_dice: list[int] | None
) -> dict[str, Any]:
    """Order the fight from given initiative dice (Agilité tests, difficulty Moyen).

    Source: "Initiative": each player tests Agilité; the MJ rolls once for all her characters;
    among the successes the highest raw result starts, "par la suite, tournez autour de la table
    dans le sens des aiguilles d'une montre"; the MJ plays all her characters on her turn. The
    order is then kept for every round ("On ne relance pas l'initiative"). Reading
    (rules/README.md, Unicreon): clockwise is the tracker's seating order; a tie between successes
    goes to the earlier seat; if nobody succeeds, the highest raw result starts."""
    out = clone(state)
    pcs = [c for c in out["combatants"] if c["side"] == "pc" and c["down"] is None]
    npcs = [c for c in out["combatants"] if c["side"] == "npc" and c["down"] is None]
    entries: list[tuple[str, dict[str, Any]]] = []
    for c in pcs:
        t, u = pc_dice[c["cid"]]
        res = resolve_test(t, u, target(c["characteristics"]["agilite"]))
        c["initiative"] = {k: res[k] for k in ("dice", "raw", "target", "success")}
        entries.append((c["cid"], c["initiative"]))
    out["npc_initiative"] = None
    if npcs and npc_dice is not None:
        best = min(c["characteristics"]["agilite"] for c in npcs)
        res = resolve_test(npc_dice[0], npc_dice[1], target(best))
        out["npc_initiative"] = {k: res[k] for k in ("dice", "raw", "target", "success")}
        entries.append((MJ, out["npc_initiative"]))
    seats = seating(out)
    out["seating"] = seats
    rolled = dict(entries)
    pool = [e for e in seats if e in rolled and rolled[e]["success"]] or [e for e in seats if e in rolled]
    out["order"] = []
    if pool:
        starter = max(pool, key=lambda e: (rolled[e]["raw"], -seats.index(e)))
        out["order"] = _clockwise(seats, starter, set(rolled))
    out["phase"] = "fight"
    out["round"] = 1
    out["turn"] = 0
    out["melee_attacks"] = []
    for c in out["combatants"]:
        c["actions"] = 0
    _start_entry(out)
    return out


def initiative(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Roll initiative: one d66 per active PC in list order, then one for the MJ's NPCs."""
    pcs = [c["cid"] for c in state["combatants"] if c["side"] == "pc" and c["down"] is None]
    has_npcs = any(c["side"] == "npc" and c["down"] is None for c in state["combatants"])
    if not pcs and not has_npcs:
        raise RulesError("unicreon.combat.no_pcs")
    pc_dice = {cid: roll_d66(rng) for cid in pcs}
    npc_dice = roll_d66(rng) if has_npcs else None
    return initiative_from_dice(state, pc_dice, npc_dice)


def next_turn(state: dict[str, Any]) -> dict[str, Any]:
    """End the current turn. After the last entry a new round starts in the same order (after a
    surprise round, the fight goes back to setup for the initiative roll)."""
    out = clone(state)
    if out["phase"] not in ("surprise", "fight"):
        raise RulesError("unicreon.combat.not_started")
    for c in out["combatants"]:
        c["actions"] = 0
    out["last"] = None
    out["turn"] += 1
    while out["turn"] < len(out["order"]) and not any(
        c["down"] is None for c in _entry_members(out, out["order"][out["turn"]])
    ):
        out["turn"] += 1
    if out["turn"] >= len(out["order"]):
        out["melee_attacks"] = []
        if out["phase"] == "surprise":
            out["phase"] = "setup"
            out["order"] = []
            out["turn"] = 0
            return out
        out["round"] = min(out["round"] + 1, 100000)
        out["turn"] = 0
    _start_entry(out)
    return out


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


def engage(state: dict[str, Any], cid: str, target_cid: str) -> dict[str, Any]:
    """Move into contact (one action). Source: "Combat au contact"; "Fuite" (a foe escaped from
    cannot come back into contact during the next round)."""
    out = clone(state)
    c = _actor(out, cid)
    t = get(out, target_cid)
    if cid == target_cid:
        raise RulesError("unicreon.combat.self")
    if target_cid in c["engaged"]:
        raise RulesError("unicreon.combat.already_engaged", cid=cid, target=target_cid)
    if any(b["cid"] == target_cid and out["round"] <= b["until"] for b in c["blocked"]):
        raise RulesError("unicreon.combat.blocked", cid=cid, target=target_cid)
    c["actions"] -= 1
    c["engaged"].append(target_cid)
    if len(t["engaged"]) < MAX_COMBATANTS:
        t["engaged"].append(cid)
    return out


def pickup(state: dict[str, Any], cid: str, uid: str) -> dict[str, Any]:
    """Pick a thrown weapon back up (one action). Source: "Combat à distance"."""
    out = clone(state)
    c = _actor(out, cid)
    if uid not in c["lost"]:
        raise RulesError("unicreon.combat.not_lost", uid=uid)
    c["lost"].remove(uid)
    c["actions"] -= 1
    return out


def damage_amount(amount: dict[str, Any], real: int) -> int:
    """Damage (or absorption) from an amount spec and a résultat réel: fixed N, "max N" (real,
    capped at N) or ∞ (real, no cap). Source: "Description des armes", "Armures et boucliers"."""
    kind, value = amount["kind"], amount["value"]
    if kind == "fixed":
        return value or 0
    if kind == "max":
        return min(real, value if value is not None else real)
    return real


def resolve_exchange(
    attack_spec: dict[str, Any],
    defence_spec: dict[str, Any],
    attacker_dice: list[int],
    defender_dice: list[int],
) -> dict[str, Any]:
    """A passe d'armes from given dice.

    ``attack_spec``: {"target", "damage": amount}; ``defence_spec``: {"target", "moyen_target",
    "absorb": amount|None}. The attacker hits when his test succeeds and either the defender's
    test failed (against the defender's own difficulty: surprise, extra melee attackers, the MJ's
    malus, his skill) or the attacker's raw result is ≥ the defender's. A defender who fails his
    test cannot win the exchange ("Tests en opposition": with bonus or malus, a side that fails
    cannot win; reading rules/README.md, Unicreon, "Passe d'armes with modifiers"); without any
    modifier both targets are Moyen and this is the text's rule as written. Damage comes from the
    weapon (and the attacker's résultat réel). A protection absorbs only when the defender lost but
    his roll succeeds against a Moyen (0) difficulty, whatever his penalty.
    Source: "Passer d'armes", "Description des armes", "Armures et boucliers"."""
    a = resolve_test(attacker_dice[0], attacker_dice[1], attack_spec["target"])
    d = resolve_test(defender_dice[0], defender_dice[1], defence_spec["target"])
    hit = a["success"] and (not d["success"] or a["raw"] >= d["raw"])
    damage = damage_amount(attack_spec["damage"], a["real"]) if hit else 0
    absorbed = 0
    protection_held = False
    if hit and defence_spec["absorb"] is not None:
        protection_held = d["raw"] >= defence_spec["moyen_target"]
        if protection_held:
            absorbed = min(damage, damage_amount(defence_spec["absorb"], d["real"]))
    return {
        "attacker": a,
        "defender": d,
        "hit": hit,
        "winner": "attacker" if hit else "defender",
        "damage": damage,
        "protection_held": protection_held,
        "absorbed": absorbed,
        "pv_lost": damage - absorbed,
    }


def _find(items: list[dict[str, Any]], uid: str) -> dict[str, Any] | None:
    for i in items:
        if i["uid"] == uid:
            return i
    return None


def attack_setup(state: dict[str, Any], req: dict[str, Any]) -> dict[str, Any]:
    """Check an attack and compute both tests' targets and amounts (no dice, no state change).

    Source: "Passer d'armes" (Moyen by default; unarmed = Puissance, 1 damage; no ranged attack
    without a weapon; no armour or shield = Agilité), "Combat à distance" (ranges, aiming, thrown
    weapons), "Combat au contact" (a ranged weapon is usable au corps-à-corps only when easily
    handled with one hand: the weapon's ``melee_ok``, data.WEAPONS; reading rules/README.md,
    Unicreon), "Attaque par surprise" (melee: defender at Difficile), "Combat à plusieurs" (one
    step harder per additional melee attacker; not for ranged attacks)."""
    attacker = get(state, req["attacker"])
    defender = get(state, req["defender"])
    if attacker["cid"] == defender["cid"]:
        raise RulesError("unicreon.combat.self")
    weapon = None
    if req.get("weapon") is not None:
        weapon = _find(attacker["weapons"], req["weapon"])
        if weapon is None:
            raise RulesError("unicreon.combat.no_weapon", uid=req["weapon"])
        if weapon["uid"] in attacker["lost"]:
            raise RulesError("unicreon.combat.weapon_lost", uid=weapon["uid"])
    wstats = weapon
    ranged = req.get("ranged")
    if ranged is None:
        ranged = bool(wstats and wstats["ranged"])
    aim = bool(req.get("aim", False))
    attack_steps = req.get("attacker_malus", 0)
    defence_steps = req.get("defender_malus", 0)
    range_steps = 0
    if ranged:
        if wstats is None or not wstats["ranged"]:
            raise RulesError("unicreon.combat.ranged_needs_weapon")
        if attacker["engaged"] and not wstats["melee_ok"]:
            # "Combat au contact": ranged weapons cannot be used au corps-à-corps, save those easily
            # handled with one hand. Reading: an attacker in contact with a foe is au corps-à-corps,
            # so he cannot shoot a bow, a crossbow or a sling, at that foe or at another.
            raise RulesError("unicreon.combat.not_melee", uid=weapon["uid"] if weapon else None)
        distance = req.get("distance")
        rng_ = wstats["range"]
        if distance is not None and rng_ is not None:
            ideal, far = rng_["ideal"], rng_["max"]
            if distance > far:
                raise RulesError("unicreon.combat.out_of_range", distance=distance, max=far)
            if distance > ideal:
                range_steps = 1 if 2 * distance <= ideal + far else 2
        if aim:
            attack_steps -= 1
    else:
        if wstats is not None and wstats["ranged"] and not wstats["melee_ok"]:
            raise RulesError("unicreon.combat.not_melee", uid=weapon["uid"] if weapon else None)
        if defender["cid"] not in attacker["engaged"]:
            raise RulesError("unicreon.combat.not_engaged", cid=attacker["cid"], target=defender["cid"])
        aim = False
        others = {m["attacker"] for m in state["melee_attacks"] if m["defender"] == defender["cid"]}
        others.discard(attacker["cid"])
        defence_steps += len(others)
        if req.get("surprise", False):
            defence_steps += 1
    if wstats is not None:
        a_char, dmg = wstats["characteristic"], wstats["damage"]
        attack_steps += wstats["malus_steps"]
    elif attacker["natural"] is not None:
        a_char = attacker["natural"]["characteristic"]
        dmg = {"kind": "fixed", "value": attacker["natural"]["damage"]}
    else:
        a_char, dmg = "puissance", {"kind": "fixed", "value": 1}
    attack_steps += range_steps
    prot = None
    if req.get("protection") is not None:
        prot = _find(defender["protections"], req["protection"])
        if prot is None:
            raise RulesError("unicreon.combat.no_protection", uid=req["protection"])
    d_char = prot["characteristic"] if prot else "agilite"
    a_skill, d_skill = req.get("attacker_skill"), req.get("defender_skill")
    a_val, d_val = attacker["characteristics"][a_char], defender["characteristics"][d_char]
    return {
        "ranged": ranged,
        "aim": aim,
        "weapon": weapon["uid"] if weapon else None,
        "thrown": bool(ranged and wstats and wstats["thrown"]),
        "attack": {
            "characteristic": a_char,
            "steps": attack_steps,
            "range_steps": range_steps,
            "target": target(a_val, 10 * attack_steps, a_skill),
            "damage": dmg,
        },
        "defence": {
            "characteristic": d_char,
            "steps": defence_steps,
            "target": target(d_val, 10 * defence_steps, d_skill),
            "moyen_target": target(d_val, 0, d_skill),
            "absorb": prot["absorb"] if prot else None,
            "protection": prot["uid"] if prot else None,
        },
    }


def attack(
    state: dict[str, Any], req: dict[str, Any], attacker_dice: list[int], defender_dice: list[int]
) -> dict[str, Any]:
    """Play an attack with given dice: spend the actions (two when aiming), resolve the passe
    d'armes, apply the PV lost (0 PV: down), record melee attackers, drop thrown weapons."""
    out = clone(state)
    setup = attack_setup(out, req)
    attacker = _actor(out, req["attacker"], 2 if setup["aim"] else 1)
    defender = get(out, req["defender"])
    if attacker["side"] == defender["side"] and not req.get("allow_same_side", False):
        raise RulesError("unicreon.combat.same_side")
    exchange = resolve_exchange(setup["attack"], setup["defence"], attacker_dice, defender_dice)
    attacker["actions"] -= 2 if setup["aim"] else 1
    if not setup["ranged"]:
        out["melee_attacks"].append({"defender": defender["cid"], "attacker": attacker["cid"]})
        out["melee_attacks"] = out["melee_attacks"][-400:]
    if setup["thrown"] and setup["weapon"] not in attacker["lost"]:
        attacker["lost"].append(setup["weapon"])
    if exchange["pv_lost"]:
        defender["pv"] = max(0, defender["pv"] - exchange["pv_lost"])
        if defender["pv"] == 0 and defender["down"] is None:
            defender["down"] = "down"
    out["last"] = {
        "attacker": attacker["cid"],
        "defender": defender["cid"],
        "exchange": clone(exchange),
        "defender_pv": defender["pv"],
    }
    return {"state": out, "setup": setup, "exchange": exchange, "defender_pv": defender["pv"]}


def _exchange_counts(setup: dict[str, Any]) -> tuple[int, int, dict[int, int]]:
    """Hits, absorptions and PV lost over the 36 × 36 pairs of d66 for one setup."""
    hits = held = 0
    lost: dict[int, int] = {}
    for ad in D66:
        for dd in D66:
            ex = resolve_exchange(setup["attack"], setup["defence"], list(ad), list(dd))
            hits += ex["hit"]
            held += ex["hit"] and ex["protection_held"]
            lost[ex["pv_lost"]] = lost.get(ex["pv_lost"], 0) + 1
    return hits, held, lost


def _p1296(n: int) -> dict[str, Any]:
    f = Fraction(n, 1296)
    return {"p": frac(f), "percent": round(float(f) * 100, 2)}


def attack_odds(state: dict[str, Any], req: dict[str, Any]) -> dict[str, Any]:
    """Exact odds of an attack (36 × 36 pairs of d66): hit, absorption and PV lost.

    ``defender_penalty`` (null when the defender tests at Moyen): his difficulty steps and the hit
    odds the same attack would have against him at Moyen, so the difference his penalty makes
    (surprise, extra melee attackers, the MJ's malus) is shown. Source: "Attaque par surprise",
    "Combat à plusieurs"; reading rules/README.md, Unicreon, "Passe d'armes with modifiers"."""
    setup = attack_setup(state, req)
    hits, held, lost = _exchange_counts(setup)
    penalty = None
    steps = setup["defence"]["steps"]
    if steps != 0:
        at_moyen = clone(setup)
        at_moyen["defence"]["target"] = at_moyen["defence"]["moyen_target"]
        base_hits = _exchange_counts(at_moyen)[0]
        penalty = {"steps": steps, "hit_at_moyen": _p1296(base_hits), "hit_difference": _p1296(hits - base_hits)}
    return {
        "setup": setup,
        "hit": _p1296(hits),
        "miss": _p1296(1296 - hits),
        "absorbed": _p1296(held),
        "pv_lost": {str(k): _p1296(v) for k, v in sorted(lost.items())},
        "defender_penalty": penalty,
    }


def escape(
    state: dict[str, Any], cid: str, from_cid: str, mode: str, dice: tuple[list[int], list[int]] | None = None
) -> dict[str, Any]:
    """Disengage from melee: "two_actions" (the whole turn, cannot be prevented, leaves every foe)
    or "opposition" (one action and an Agilité opposition against ``from_cid``). The foes left
    cannot come back into contact during the next round. Source: "Combat avancé", "Fuite";
    reading: "compétence Agilité" is the characteristic (rules/README.md, Unicreon)."""
    out = clone(state)
    c = _actor(out, cid, 2 if mode == "two_actions" else 1)
    foe = get(out, from_cid)
    if from_cid not in c["engaged"]:
        raise RulesError("unicreon.combat.not_engaged", cid=cid, target=from_cid)
    result: dict[str, Any] = {"mode": mode}
    if mode == "two_actions":
        c["actions"] = 0
        left = list(c["engaged"])
        success = True
    else:
        assert dice is not None
        c["actions"] -= 1
        mine = resolve_test(dice[0][0], dice[0][1], target(c["characteristics"]["agilite"]))
        theirs = resolve_test(dice[1][0], dice[1][1], target(foe["characteristics"]["agilite"]))
        opp = resolve_opposition(mine, theirs, modified=False, initiator="a")
        success = opp["winner"] == "a"
        result.update({"escaper": mine, "foe": theirs})
        left = [from_cid] if success else []
    for other_cid in left:
        other = get(out, other_cid)
        c["engaged"] = [e for e in c["engaged"] if e != other_cid]
        other["engaged"] = [e for e in other["engaged"] if e != cid]
        other["blocked"] = [b for b in other["blocked"] if b["cid"] != cid][: MAX_COMBATANTS - 1]
        other["blocked"].append({"cid": cid, "until": min(out["round"] + 1, 100000)})
    result.update({"success": success, "left": left})
    return {"state": out, "escape": result}


def adjust(
    state: dict[str, Any], cid: str, *, pv_delta: int = 0, down: str | None = "keep"
) -> dict[str, Any]:
    """MJ adjustment of a combatant's PV (never above max nor below 0) and down state."""
    out = clone(state)
    c = get(out, cid)
    c["pv"] = max(0, min(c["pv_max"], c["pv"] + pv_delta))
    if c["pv"] == 0 and c["down"] is None:
        c["down"] = "down"
    elif c["pv"] > 0 and c["down"] in ("down", "unconscious") and pv_delta > 0:
        c["down"] = None
    if down != "keep":
        c["down"] = down
    return out


def sync_character(state: dict[str, Any], character: dict[str, Any]) -> dict[str, Any]:
    """Copy a character's PV and down state onto its combatant (the reverse of the write-back at
    the end of the fight); a state without that character is returned unchanged.

    Model (the text is silent; "Gestion de la santé" only says PV are lost in fights, by
    accidents, poisons...): while a fight is open, the combatant holds the character's current
    PV. The sheet and the list show the combatant's PV ("en combat"), any PV change made on the
    sheet (care item, damage, rest...) is applied to that same value and copied onto the
    combatant with this function, and the end of the fight copies the combatant back. So the
    two never diverge, and ending the fight cannot overwrite a change made on the sheet."""
    out = clone(state)
    for c in out["combatants"]:
        if c["character_id"] == character["id"]:
            c["pv"] = max(0, min(character["pv"], c["pv_max"]))
            c["down"] = character["down"]
            if c["down"] is not None:
                c["actions"] = 0
    return out


def end_combat(state: dict[str, Any]) -> dict[str, Any]:
    """Close the fight; lists the PV and down state to copy back to each character."""
    out = clone(state)
    out["phase"] = "over"
    for c in out["combatants"]:
        c["actions"] = 0
        c["lost"] = []
    back = [
        {"character_id": c["character_id"], "pv": c["pv"], "down": c["down"]}
        for c in out["combatants"]
        if c["character_id"] is not None
    ]
    return {"state": out, "characters": back}
