"""Unicreon's moves at a live table (004_12a5de9999b9d0ad.txt): what a player may send from
their phone to the MJ's device, and what the referee (:mod:`tablee.referee`) reads from the
MJ's table to run it.

Declared as :data:`MOVES` (op name -> :class:`tablee.referee.Move`), the referee's registration
API: the referee imports this module the first time a ``unicreon.…`` move arrives. A fighter
named by its combatant id (an actor ``("attacker", "cid")``) signs the move's log entry with
its own name, as the combat page signs it on one device (the referee's ``_log_run``).
"""

from __future__ import annotations

from typing import Any

from ...referee import run_op
from ...referee_kernel import refuse
from ...system import REC, Move

__all__ = ["MOVES"]


def _uc_defence(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Unicreon, a passe d'armes from the attacker's phone: the defender's protection is not
    the attacker's to choose. It is the one the defender wears or holds on the MJ's record of
    its sheet (inventory ``carried`` "worn" or "hand"; a fighter with no sheet, a generic NPC:
    its first one), as the combat page sets it by default on one device. The defender's
    malus (``defender_malus``, the MJ's) is dropped by :attr:`Move.mj_fields`, and so is the
    defender's skill (``defender_skill``): the skill a defender uses is not the attacker's to
    say (the MJ's combat screen sets it). The attacker's skill (``attacker_skill``, a level) must
    be the level of one of the attacker's skills on the MJ's record of its sheet, as the combat
    page offers them (004_12a5de9999b9d0ad.txt: a character's own skills, Faible +5 to Fort
    +30): a phone cannot give its fighter a skill it does not have (``live.refused.sheet``)."""
    fighters = ctx["state"].get("combatants", [])
    level = request.get("attacker_skill")
    if level is not None:
        fighter = next((f for f in fighters if isinstance(f, dict) and f.get("cid") == request.get("attacker")), {})
        sheet = next((c for c in ctx["document"]["characters"] if isinstance(c, dict)
                      and c.get("id") == fighter.get("character_id")), {})
        if level not in {k.get("level") for k in sheet.get("skills", []) if isinstance(k, dict)}:
            raise refuse("live.refused.sheet", field="attacker_skill")
    defender = next((f for f in fighters if isinstance(f, dict) and f.get("cid") == request.get("defender")), None)
    request.pop("protection", None)
    if defender is None:
        return request  # the op refuses an unknown defender
    protections = [p for p in defender.get("protections", []) if isinstance(p, dict)]
    sheet = next((c for c in ctx["document"]["characters"] if isinstance(c, dict)
                  and c.get("id") == defender.get("character_id")), None) if defender.get("character_id") else None
    if sheet is None:
        chosen = protections[0] if protections else None
    else:
        on = {i.get("uid") for i in sheet.get("inventory", [])
              if isinstance(i, dict) and i.get("carried") in ("hand", "worn")}
        chosen = next((p for p in protections if p.get("uid") in on), None)
    if chosen is not None:
        request["protection"] = chosen["uid"]
    return request



def _uc_fighter(state: dict[str, Any] | None, cid: Any) -> dict[str, Any] | None:
    """The combatant of the character ``cid`` in the table's open Unicreon fight, or None."""
    combat = state.get("combat") if isinstance(state, dict) else None
    if not isinstance(combat, dict) or combat.get("phase") == "over":
        return None
    return next((f for f in combat.get("combatants", []) if isinstance(f, dict) and f.get("character_id") == cid), None)


def _uc_fight_pv(record: dict[str, Any], state: dict[str, Any] | None) -> dict[str, Any]:
    """``record`` with the PV and down state of its combatant while a fight is open (the
    combatant holds the character's current PV: unicreon/combat.py ``sync_character``)."""
    fighter = _uc_fighter(state, record.get("id"))
    if fighter is None or not isinstance(fighter.get("pv"), int):
        return record
    return {**record, "pv": min(fighter["pv"], record["pv_max"]), "down": fighter.get("down")}


def _uc_health(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Unicreon, a health op on one of the player's characters (004_12a5de9999b9d0ad.txt,
    "Gestion de la santé": damage, care, rest, conditions, the adventure day, a diagnosis).

    The op runs on the MJ's record of the sheet (the phone's copy is the player view, never the
    record) with the PV of the open fight while the character fights, as the sheet page does on
    one device (unicreon/combat.py ``sync_character``: while a fight is open the combatant holds
    the character's current PV; :func:`_uc_synced` copies the result back). A diagnosis
    ("Soins": the healer's Perception test at Moyen) reads the healer's Perception from the MJ's
    record of the healer: ``healer`` names one of the member's characters (the patient when
    absent); a skill for it must be one of the healer's sheet's levels (``live.refused.sheet``).
    An affliction is undiagnosed ("Poisons et maladies": a cause unknown until diagnosed; the
    ``diagnosed`` flag is the MJ's, dropped by :attr:`Move.mj_fields`). The state at 0 PV is
    the MJ's to choose ("Gestion de la santé": « il tombe inconscient ou meurt, au choix de la
    MJ »); a phone could always set it through a sheet save, and this move takes it like one."""
    request["character"] = _uc_fight_pv(request["character"], ctx["state"])
    if request["op"] == "unicreon.health.diagnose":
        healer = request.get("healer")
        record = request["character"] if healer is None else next(
            c for c in ctx["document"]["characters"] if isinstance(c, dict) and c.get("id") == healer)
        request["perception"] = record["characteristics"]["perception"]
        skill = request.get("skill")
        if skill is not None and skill not in {k.get("level") for k in record.get("skills", []) if isinstance(k, dict)}:
            raise refuse("live.refused.sheet", field="skill")
    return request


def _uc_synced(answer: dict[str, Any], request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any] | None:
    """The open fight with the new PV and down state of the character the move changed, and of
    its patient or victim (an item's ``target``), on their combatants (the sheet page's
    ``syncedCombat`` on one device, ``unicreon.combat.sync``); None: neither fights."""
    state = ctx["state"]
    combat, synced = (state.get("combat") if isinstance(state, dict) else None), False
    for changed in (answer.get("character"), answer.get("target")):
        if isinstance(changed, dict) and _uc_fighter({"combat": combat}, changed.get("id")) is not None:
            combat = run_op({"op": "unicreon.combat.sync", "state": combat, "character": changed})["state"]
            synced = True
    return {**state, "combat": combat} if synced else None


def _uc_health_move(**extra: Any) -> Move:
    """A Unicreon health op on one's own character (:func:`_uc_health`)."""
    return Move("unicreon", extra.pop("actors", REC), state=False, needs_state=False, prepare=_uc_health,
                record=_uc_synced, **extra)


def _uc_item_use(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Unicreon, an item used by one of the player's characters (004_12a5de9999b9d0ad.txt,
    "Soins": a bandage or a kit on oneself or on a patient; "Poisons et maladies": an antidote
    after a diagnosis; "Liste d'équipement": a poison on its victim). The user and the patient
    or victim are the MJ's records (:attr:`Move.others`: the patient may be anyone's character,
    as a passe d'armes may hit anyone's), each with the PV of the open fight while it fights,
    as the sheet page does on one device (:func:`_uc_health`)."""
    request = _uc_health(request, ctx)
    target = request.get("target")
    if isinstance(target, dict) and target.get("id") == request["character"].get("id"):
        # One's own character named as the patient is a use on oneself: two copies of one
        # record would leave the item's use unspent.
        request.pop("target")
        target = None
    if isinstance(target, dict):
        request["target"] = _uc_fight_pv(target, ctx["state"])
    return request



#: op name -> what that op may touch when a player sends it (tablee.referee.Move).
MOVES: dict[str, Move] = {
    # A passe d'armes by one of the player's fighters.
    "unicreon.combat.attack": Move("unicreon", (("attacker", "cid"),), part="combat",
                                   mj_fields=("defender_malus", "defender_skill"), prepare=_uc_defence,
                                   kind="unicreon.attack"),
    # Health ("Gestion de la santé") of one of the player's characters, on the MJ's record and
    # the open fight's PV (_uc_health): the edits of a sheet (damage, care, rest, the state at 0
    # PV, a new adventure, a condition added or ended) and its two rolls, the adventure day
    # (1d6 PV per condition) and a diagnosis by one of the player's characters.
    "unicreon.health.damage": _uc_health_move(),
    "unicreon.health.heal": _uc_health_move(),
    "unicreon.health.rest": _uc_health_move(),
    "unicreon.health.down": _uc_health_move(),
    "unicreon.health.new_adventure": _uc_health_move(),
    "unicreon.health.afflict": _uc_health_move(mj_fields=("diagnosed",)),
    "unicreon.health.cure": _uc_health_move(),
    "unicreon.health.day": _uc_health_move(kind="unicreon.day"),
    "unicreon.health.diagnose": _uc_health_move(actors=(("character", "record"), ("healer", "id?")),
                                                log_only=("healer",), kind="unicreon.diagnose"),
    # An item used by one of the player's characters, on itself or on a patient or victim of
    # the table's (_uc_item_use): one use spent, the care, cure or poison the op applies.
    "unicreon.item.use": Move("unicreon", REC, state=False, needs_state=False, prepare=_uc_item_use,
                              record=_uc_synced, others=("target",)),
    # Combat ("Combat avancé"): one's own fighter escapes from melee ("Fuite": two actions, or
    # one and an Agilité opposition rolled by the MJ's device), moves into contact with a foe,
    # or picks its thrown weapon back up; the combat page offers them on the player's phone.
    "unicreon.combat.escape": Move("unicreon", (("cid", "cid"),), part="combat", kind="unicreon.escape"),
    "unicreon.combat.engage": Move("unicreon", (("cid", "cid"),), part="combat"),
    "unicreon.combat.pickup": Move("unicreon", (("cid", "cid"),), part="combat"),
    # The test and opposition of the test page: rolled by the MJ's device (a phone's own roll
    # could be rerolled until it suits, and its log entry written to say anything).
    "unicreon.test": Move(None, REC),
    "unicreon.opposition": Move(None),
}
