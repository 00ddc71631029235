"""Unicreon combat tracker: pure state in → state out. Its state (schema, refusals, invariants)
is in combat_state.py, the passe d'armes and its odds in passe_darmes.py; this module re-exports
their names, so ``combat.<name>`` keeps working for ops.py and the tests.

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
- The passe d'armes (range, aiming, "avec malus", engagement, several attackers, NPCs without
  weapon) and its odds: passe_darmes.py, whose names this module re-exports.
- The escape opposition is a plain opposition (both Moyen) of Agilité; the one escaping initiates
  it and wins ties; a foe escaped from cannot re-engage during the next round.
"""

from __future__ import annotations

import random
from typing import Any

from tablee.errors import RulesError

from ...tree import clone
from .combat_state import (
    MAX_COMBATANTS,
    MJ,
    _actor,
    get,
)
from .data import BESTIARY, CHARACTERISTICS, NPC_TIERS
from .resolution import resolve_opposition, resolve_test, roll_d66, target

__all__ = [
    "add_character",
    "add_npcs",
    "end_combat",
    "engage",
    "escape",
    "initiative",
    "move_seat",
    "next_turn",
    "pickup",
    "seating",
    "sync_character",
]


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
