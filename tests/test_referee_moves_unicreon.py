"""The live table's referee, Unicreon's moves (py/tablee/systems/unicreon/moves.py): the passe
d'armes, health, escape, engagement and items, each from a player's phone on the MJ's whole table.
Point Zéro's and SYSTMJ's moves are in tests/test_referee_moves.py.

Oracle: the same op run on one device with the MJ's records and the referee's seed. The
helpers and the check that every move is its changes are tests/test_referee.py's.
"""

from __future__ import annotations

import json

import pytest
from th_helpers import character as th_character

from referee_tables import LEA, NOW, SECRET, move, ok, table, uc_fight
from tablee import referee
from tablee.api import handle
from tablee.errors import RulesError

pytestmark = pytest.mark.usefixtures("every_move_is_its_changes")

# --- Unicreon's passe d'armes from a phone --------------------------------------------------------


def test_a_passe_darmes_from_a_phone_keeps_the_defenders_side():
    """The attacker's phone sends its side: the defender's protection is the armour its sheet
    says it wears (the phone asked for none), the MJ's malus on the defender is dropped; the
    MJ's combat is the op on one device with that protection and no malus."""
    a = ok({"op": "unicreon.character.new", "id": "ua", "name": "A"})["character"]
    b = ok({"op": "unicreon.character.new", "id": "ub", "name": "B"})["character"]
    b = ok({"op": "unicreon.shop.buy", "character": b, "ref": "armure_cuir", "carried": "worn"})["character"]
    doc, combat, attacker, defender = uc_fight(a, b)
    fighter_b = next(f for f in combat["combatants"] if f["cid"] == defender)
    assert fighter_b["protections"], fighter_b
    lea = {"id": "m-lea", "name": "Léa", "characters": ["ua"]}
    sent = {"op": "unicreon.combat.attack", "attacker": attacker, "defender": fighter_b["cid"], "defender_malus": 4}
    after, answer = move(doc, lea, sent, seed=9)
    same = ok({"op": "unicreon.combat.attack", "attacker": attacker, "defender": fighter_b["cid"],
               "protection": fighter_b["protections"][0]["uid"], "state": combat, "seed": 9})
    assert after["systems"]["unicreon"]["combat"] == same["state"]
    assert answer["exchange"] == same["exchange"]


def test_a_passe_darmes_skill_is_the_attackers_own_and_the_defenders_is_not_the_attackers_to_say():
    """The attacker's phone may use one of its fighter's own skills (its level on the MJ's
    record), not one it does not have; the defender's skill it names is dropped (the MJ's)."""
    a = ok({"op": "unicreon.character.new", "id": "ua", "name": "A"})["character"]
    a["skills"] = [{"name": "Escrime", "level": "bon"}]
    b = ok({"op": "unicreon.character.new", "id": "ub", "name": "B"})["character"]
    doc, combat, attacker, foe = uc_fight(a, b)
    lea = {"id": "m-lea", "name": "Léa", "characters": ["ua"]}
    for level in ("fort", "faible"):  # Fort +30 or Faible +5: not on A's sheet
        with pytest.raises(RulesError) as refused:
            move(doc, lea, {"op": "unicreon.combat.attack", "attacker": attacker, "defender": foe,
                            "attacker_skill": level}, seed=9)
        assert refused.value.code == "live.refused.sheet" and refused.value.params["field"] == "attacker_skill"
    sent = {"op": "unicreon.combat.attack", "attacker": attacker, "defender": foe, "attacker_skill": "bon",
            "defender_skill": "fort"}
    after, answer = move(doc, lea, sent, seed=9)
    same = ok({"op": "unicreon.combat.attack", "attacker": attacker, "defender": foe, "attacker_skill": "bon",
               "state": combat, "seed": 9})
    assert after["systems"]["unicreon"]["combat"] == same["state"]
    assert answer["exchange"] == same["exchange"]


# --- Unicreon health ("Gestion de la santé") from a phone -----------------------------------------

LEA_UC = {"id": "m-lea", "name": "Léa", "characters": ["ua", "uh"]}


def _uc_health_table(*, fight=False):
    """Léa plays ua (an infection and a poison, 9 PV of 12, a terrible secret) and uh (a healer
    with Perception 3 and a skill "Bon"); Tom plays ub. Without ``fight`` the table holds no
    Unicreon state at all (a fresh Unicreon table)."""
    a = ok({"op": "unicreon.character.new", "id": "ua", "name": "Aya"})["character"]
    a = ok({"op": "unicreon.health.afflict", "character": a, "kind": "infection"})["character"]
    a = ok({"op": "unicreon.health.afflict", "character": a, "kind": "poison", "name": "Ciguë"})["character"]
    a = {**a, "pv": 9, "secret": SECRET}
    h = ok({"op": "unicreon.character.new", "id": "uh", "name": "Hana"})["character"]
    h = {**h, "characteristics": {**h["characteristics"], "perception": 3},
         "skills": [{"name": "Médecine", "level": "bon"}]}
    b = ok({"op": "unicreon.character.new", "id": "ub", "name": "Bob"})["character"]
    if fight:
        doc, combat, _cid, _other = uc_fight(a, b)
        next(f for f in combat["combatants"] if f["character_id"] == "ua")["pv"] = 5
        doc["characters"].append(h)
        return doc
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [a, h, b]
    return doc


def _phone_copy(record, **forged):
    """The phone's copy of a sheet: the player view (the secret blanked), with what it forged."""
    return {**referee.share.share("character", record, "player"), **forged}


def test_an_adventure_day_from_a_phone_is_rolled_on_the_mjs_record():
    """"Poisons et maladies" / "Blessures": one adventure day costs 1d6 PV per condition. Léa's
    phone sends Aya's copy with its conditions gone and full PV: the day is rolled by the MJ's
    device on the MJ's record (two conditions, 9 PV) with its own seed (the phone's is
    ignored): the op on one device; logged once by the referee; the secret and the seed stay
    out of the answer. Tom's character is refused."""
    doc = _uc_health_table()
    record = doc["characters"][0]
    sent = {"op": "unicreon.health.day", "character": _phone_copy(record, conditions=[], pv=12), "seed": 1}
    after, answer = move(doc, LEA_UC, sent, seed=31)
    same = ok({"op": "unicreon.health.day", "character": record, "seed": 31})
    assert after["characters"][0] == same["character"] and after["characters"][1:] == doc["characters"][1:]
    assert answer["dice"] == same["dice"] and len(same["dice"]) == 2 and answer["pv_lost"] == same["pv_lost"]
    assert answer["character"]["pv"] == same["character"]["pv"] == max(0, 9 - sum(same["dice"]))
    assert SECRET not in json.dumps(answer) and "seed" not in answer
    entries = [e for e in after["log"] if e["id"] == answer["logged"]]
    assert len(after["log"]) == 1 and entries[0]["kind"] == "unicreon.day" and entries[0]["who"] == "Aya"
    assert SECRET not in json.dumps(entries) and entries[0]["request"]["character"] == {"id": "ua"}
    with pytest.raises(RulesError) as info:
        move(doc, LEA_UC, {**sent, "character": {"id": "ub"}})
    assert info.value.code == "live.refused.character"
    assert after["systems"] == doc["systems"] == {}


def test_an_adventure_day_during_a_fight_costs_the_fights_pv_and_reaches_the_combatant():
    """While a fight is open its combatant holds the character's current PV (unicreon/combat.py
    ``sync_character``): the day costs them and the combatant gets the result, as the sheet page
    does on one device (``effective`` then ``unicreon.combat.sync``)."""
    doc = _uc_health_table(fight=True)
    record = doc["characters"][0]
    combat = doc["systems"]["unicreon"]["combat"]
    after, answer = move(doc, LEA_UC, {"op": "unicreon.health.day", "character": {"id": "ua"}}, seed=31)
    same = ok({"op": "unicreon.health.day", "character": {**record, "pv": 5}, "seed": 31})
    synced = ok({"op": "unicreon.combat.sync", "state": combat, "character": same["character"]})["state"]
    assert after["characters"][0] == same["character"] and after["systems"]["unicreon"]["combat"] == synced
    assert answer["state"]["combat"] == synced


def test_a_diagnosis_from_a_phone_reads_the_healers_perception_from_the_mjs_record():
    """"Soins": a diagnosis is the healer's Perception test at Moyen. Léa's healer Hana
    diagnoses Aya's poison: the phone's Perception 0 is ignored (Hana's is 3 on the MJ's
    record), the skill must be one Hana has; the op on one device with the MJ's seed. A healer
    of another player's is refused; so is a skill the healer's sheet does not hold."""
    doc = _uc_health_table()
    record = doc["characters"][0]
    sent = {"op": "unicreon.health.diagnose", "character": _phone_copy(record), "condition": 1, "perception": 0,
            "healer": "uh", "skill": "bon", "seed": 2}
    after, answer = move(doc, LEA_UC, sent, seed=13)
    same = ok({"op": "unicreon.health.diagnose", "character": record, "condition": 1, "perception": 3,
               "skill": "bon", "seed": 13})
    assert answer["test"] == same["test"] and after["characters"][0] == same["character"]
    assert answer["character"]["conditions"] == same["character"]["conditions"]
    assert SECRET not in json.dumps(answer) and "seed" not in answer
    entry = next(e for e in after["log"] if e["id"] == answer["logged"])
    assert entry["kind"] == "unicreon.diagnose" and entry["request"]["healer"] == "uh"
    assert entry["request"]["perception"] == 3
    alone, answer = move(doc, LEA_UC, {**sent, "healer": None, "skill": None}, seed=13)
    same = ok({"op": "unicreon.health.diagnose", "character": record, "condition": 1,
               "perception": record["characteristics"]["perception"], "skill": None, "seed": 13})
    assert answer["test"] == same["test"] and alone["characters"][0] == same["character"]
    for request, code in (({**sent, "healer": "ub"}, "live.refused.character"),
                          ({**sent, "skill": "fort"}, "live.refused.sheet")):
        with pytest.raises(RulesError) as info:
            move(doc, LEA_UC, request)
        assert info.value.code == code, request


@pytest.mark.parametrize("fields", [
    {"op": "unicreon.health.damage", "amount": 4},
    {"op": "unicreon.health.heal", "amount": 2},
    {"op": "unicreon.health.rest", "kind": "full"},
    {"op": "unicreon.health.down", "state": "unconscious"},
    {"op": "unicreon.health.new_adventure"},
    {"op": "unicreon.health.afflict", "kind": "disease", "name": "Fièvre", "diagnosed": True},
    {"op": "unicreon.health.cure", "condition": 0},
])
def test_a_health_edit_from_a_phone_is_the_op_on_the_mjs_record_of_ones_own_character(fields):
    """"Gestion de la santé": a sheet's health edits from a phone run on the MJ's record (the
    phone's copy, with its forged PV maximum and blanked secret, is ignored) and give the op on
    one device; an affliction is added undiagnosed (the ``diagnosed`` flag is the MJ's). The
    secret stays out of the answer; Tom's character is refused, the table unchanged."""
    doc = _uc_health_table()
    record = doc["characters"][0]
    after, answer = move(doc, LEA_UC, {**fields, "character": _phone_copy(record, pv_max=99, pv=99)})
    same = ok({**{k: v for k, v in fields.items() if k != "diagnosed"}, "character": record})
    assert after["characters"][0] == same["character"] and after["characters"][1:] == doc["characters"][1:]
    assert answer["character"] == referee.share.share("character", same["character"], "player")
    assert SECRET not in json.dumps(answer) and after["log"] == doc["log"]
    assert after["characters"][0]["secret"] == SECRET
    with pytest.raises(RulesError) as info:
        move(doc, LEA_UC, {**fields, "character": {"id": "ub"}})
    assert info.value.code == "live.refused.character"


def test_an_escape_from_melee_from_a_phone_is_rolled_by_the_mjs_device():
    """"Fuite": one's own fighter escapes from melee with an Agilité opposition; the phone's
    seed is ignored, the combat is the op's on one device with the MJ's seed, logged once as
    the page logs it (``unicreon.escape``). Another player's fighter (here the MJ's side) is
    refused."""
    a = ok({"op": "unicreon.character.new", "id": "ua", "name": "A"})["character"]
    b = ok({"op": "unicreon.character.new", "id": "ub", "name": "B"})["character"]
    doc, combat, attacker, defender = uc_fight(a, b)
    lea = {"id": "m-lea", "name": "Léa", "characters": ["ua"]}
    request = {"op": "unicreon.combat.escape", "cid": attacker, "from": defender, "mode": "opposition", "seed": 1}
    after, answer = move(doc, lea, request, seed=23)
    same = ok({**request, "state": combat, "seed": 23})
    assert after["systems"]["unicreon"]["combat"] == same["state"] and answer["escape"] == same["escape"]
    assert answer["state"] == same["state"] and "seed" not in answer
    [entry] = after["log"]
    assert entry["kind"] == "unicreon.escape" and entry["id"] == answer["logged"]
    with pytest.raises(RulesError) as info:
        move(doc, lea, {**request, "cid": defender, "from": attacker})
    assert info.value.code == "live.refused.character"


def test_engaging_a_foe_and_picking_a_weapon_up_are_ones_own_fighters_moves():
    """"Combat au contact" (moving into contact, one action) and "Combat à distance" (picking a
    thrown weapon back up): the op on one device, for one's own fighter only."""
    a = ok({"op": "unicreon.character.new", "id": "ua", "name": "A"})["character"]
    b = ok({"op": "unicreon.character.new", "id": "ub", "name": "B"})["character"]
    doc, combat, attacker, defender = uc_fight(a, b)
    for f in combat["combatants"]:
        f["engaged"] = []
    lea = {"id": "m-lea", "name": "Léa", "characters": ["ua"]}
    engage = {"op": "unicreon.combat.engage", "cid": attacker, "target": defender}
    after, answer = move(doc, lea, engage)
    assert after["systems"]["unicreon"]["combat"] == ok({**engage, "state": combat})["state"] == answer["state"]
    pickup = {"op": "unicreon.combat.pickup", "cid": attacker, "uid": "w-none"}
    unchanged, answer = move(doc, lea, pickup)
    assert unchanged == doc and answer["error"]["code"] == handle({**pickup, "state": combat})["error"]["code"]
    for request in (engage, pickup):
        with pytest.raises(RulesError) as info:
            move(doc, lea, {**request, "cid": defender, "target": attacker} if "target" in request
                 else {**request, "cid": defender})
        assert info.value.code == "live.refused.character"


def test_a_move_answers_its_changes_when_asked_not_the_whole_table():
    doc = table()
    base = {"op": "live.move", "document": doc, "member": LEA, "move": {"op": "roll", "expr": "1d6"}, "seed": 5,
            "now": NOW}
    whole = ok(base)
    asked = ok({**base, "changes": True})
    assert "document" not in asked and asked["answer"] == whole["answer"]
    assert asked["changes"] == {"log": {"add": [whole["document"]["log"][-1]]}}
    assert referee.apply_changes(doc, asked["changes"]) == whole["document"]
    # a full log: the oldest entry goes as the new one comes
    doc["log"] = [{**whole["document"]["log"][-1], "id": f"e{i}"} for i in range(1000)]
    asked = ok({**base, "document": doc, "changes": True})
    assert asked["changes"]["log"]["drop"] == 1 and len(asked["changes"]["log"]["add"]) == 1
    assert referee.apply_changes(doc, asked["changes"]) == ok({**base, "document": doc})["document"]


def _uc_with(character, *refs):
    """``character`` with the catalogue items ``refs`` (bought, its bags ignored, PO enough)."""
    character = {**character, "ignore_encumbrance": True, "po": 200}
    for ref in refs:
        character = ok({"op": "unicreon.shop.buy", "character": character, "ref": ref})["character"]
    return character


def test_an_item_used_from_a_phone_on_another_players_character_is_the_op_on_both_mjs_records():
    """"Soins": Aya (Léa's) dresses Bob (Tom's) with an advanced kit. The phone's copies (Bob
    sent with 1 PV of 99, Aya with no kit use spent) are ignored: the op runs on the MJ's
    records, both written to the table; the answer's patient is Bob's player view (his secret
    stays out). One's own character named as the patient is a use on oneself (the use is
    spent once)."""
    doc = _uc_health_table()
    doc["characters"][0] = _uc_with(doc["characters"][0], "trousse_avancee")
    doc["characters"][2] = {**doc["characters"][2], "pv": 6, "secret": SECRET}
    aya, bob = doc["characters"][0], doc["characters"][2]
    uid = aya["inventory"][0]["uid"]
    sent = {"op": "unicreon.item.use", "character": _phone_copy(aya), "uid": uid,
            "target": _phone_copy(bob, pv=1, pv_max=99)}
    after, answer = move(doc, LEA_UC, sent)
    same = ok({"op": "unicreon.item.use", "character": aya, "uid": uid, "target": bob})
    assert same["target"]["pv"] == 10 and same["character"]["inventory"][0]["uses"] == 3
    assert after["characters"][0] == same["character"] and after["characters"][2] == same["target"]
    assert after["characters"][1] == doc["characters"][1]
    assert answer["target"] == referee.share.share("character", same["target"], "player")
    assert SECRET not in json.dumps(answer) and after["characters"][2]["secret"] == SECRET
    again, answer = move(after, LEA_UC, {**sent, "target": _phone_copy(after["characters"][0])})
    assert again["characters"][0]["inventory"][0]["uses"] == 2
    assert again["characters"][0]["pv"] == min(12, after["characters"][0]["pv"] + 4)


def test_a_poison_from_a_phone_reaches_its_victim_and_nothing_else():
    """"Liste d'équipement": a poison used on its victim gives it the condition, undiagnosed;
    the victim may be an NPC of the MJ's (no member's): its record stays the MJ's, its secret
    out of the answer. A victim that is not on the table, or of another system, is refused and
    the table unchanged; so is a poison of another player's character."""
    doc = _uc_health_table()
    doc["characters"][0] = _uc_with(doc["characters"][0], "poison")
    npc = {**ok({"op": "unicreon.character.new", "id": "npc", "name": "Garde"})["character"], "secret": SECRET}
    doc["characters"].append(npc)
    uid = doc["characters"][0]["inventory"][0]["uid"]
    sent = {"op": "unicreon.item.use", "character": {"id": "ua"}, "uid": uid, "target": {"id": "npc"}}
    after, answer = move(doc, LEA_UC, sent)
    same = ok({"op": "unicreon.item.use", "character": doc["characters"][0], "uid": uid, "target": npc})
    assert after["characters"][3] == same["target"] and same["target"]["conditions"][0]["kind"] == "poison"
    assert after["characters"][0]["inventory"] == [] == same["character"]["inventory"]
    assert SECRET not in json.dumps(answer) and after["characters"][3]["secret"] == SECRET
    theorem = th_character("tx")
    doc["characters"].append(theorem)
    for target in ({"id": "nobody"}, {"id": "tx"}, "npc"):
        with pytest.raises(RulesError) as info:
            move(doc, LEA_UC, {**sent, "target": target})
        assert info.value.code == "live.refused.character", target
    with pytest.raises(RulesError) as info:
        move(doc, LEA_UC, {**sent, "character": {"id": "ub"}})
    assert info.value.code == "live.refused.character"


def test_an_item_used_on_a_fighter_reaches_its_combatant():
    """While a fight is open a combatant holds its character's current PV: a kit used by Aya
    on herself during the fight heals from the fight's PV (5, not the sheet's 9) and the
    combatant gets the result, as the sheet page does on one device."""
    doc = _uc_health_table(fight=True)
    doc["characters"][0] = _uc_with(doc["characters"][0], "trousse_avancee")
    record = doc["characters"][0]
    combat = doc["systems"]["unicreon"]["combat"]
    uid = record["inventory"][0]["uid"]
    after, answer = move(doc, LEA_UC, {"op": "unicreon.item.use", "character": {"id": "ua"}, "uid": uid})
    same = ok({"op": "unicreon.item.use", "character": {**record, "pv": 5}, "uid": uid})
    synced = ok({"op": "unicreon.combat.sync", "state": combat, "character": same["character"]})["state"]
    assert after["characters"][0] == same["character"] and same["character"]["pv"] == 9
    assert after["systems"]["unicreon"]["combat"] == synced == answer["state"]["combat"]
