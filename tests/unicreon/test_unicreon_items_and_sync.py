"""QA fixes: care items at full PV, the poison as an item, the antidote's PV, the last passe
d'armes kept in the combat state, and the sheet↔tracker PV model (combat.sync_character).

Source: 004_12a5de9999b9d0ad.txt, "Soins", "Poisons et maladies", "Liste d'équipement",
"Passer d'armes"; readings in health.use_item and combat.sync_character docstrings.
"""

from __future__ import annotations

from api_calls import call
from api_calls import error as err
from tablee.store_records import STATE_VALIDATORS
from tablee.systems.unicreon import combat as cb
from tablee.systems.unicreon import combat_state as cs
from tablee.systems.unicreon import passe_darmes as pa
from tablee.systems.unicreon.character import new_character


def rich(cid: str = "ana", *refs: str) -> dict:
    c = new_character(cid=cid, name=cid.title())
    c["po"] = 1000
    for ref in ("sac_a_dos", *refs):
        c = call({"op": "unicreon.shop.buy", "character": c, "ref": ref})["character"]
    return c


def test_bandage_at_full_pv_is_refused_and_no_use_is_spent():
    c = rich("ana", "bandage")
    uid = c["inventory"][1]["uid"]
    e = err({"op": "unicreon.item.use", "character": c, "uid": uid})
    assert e["code"] == "unicreon.item.full_pv" and e["params"]["pv"] == 12 and e["params"]["pv_max"] == 12
    # Same for another character at full PV.
    assert err({"op": "unicreon.item.use", "character": c, "uid": uid, "target": rich("bea")})["code"] == (
        "unicreon.item.full_pv"
    )
    c["pv"] = 11
    out = call({"op": "unicreon.item.use", "character": c, "uid": uid})["character"]
    assert out["pv"] == 12 and out["inventory"][1]["uses"] == 1


def test_poison_afflicts_its_target_with_an_undiagnosed_poison():
    """Liste d'équipement: "Poison Perte de 1d6 PV par jour"; Poisons et maladies: 1d6 PV a day."""
    c = rich("ana", "poison")
    uid = c["inventory"][1]["uid"]
    assert err({"op": "unicreon.item.use", "character": c, "uid": uid})["code"] == "unicreon.item.needs_target"
    victim = rich("bea")
    out = call({"op": "unicreon.item.use", "character": c, "uid": uid, "target": victim})
    assert [i["ref"] for i in out["character"]["inventory"]] == ["sac_a_dos"]  # one dose, spent
    assert out["target"]["conditions"] == [{"kind": "poison", "name": "", "diagnosed": False}]
    assert out["target"]["pv"] == 12
    day = call({"op": "unicreon.health.day", "character": out["target"], "seed": 3})
    assert len(day["dice"]) == 1 and day["character"]["pv"] == 12 - day["dice"][0]


def test_catalogue_antidote_cures_without_pv_and_the_mj_medicament_gives_its_fixed_pv():
    """Soins: an antidote or médicament "fera regagner un nombre fixe de PV"; the price list gives
    no number for the antidote (0 PV); the MJ's custom item carries it ("médicament [3 PV]")."""
    c = rich("ana", "antidote")
    c["pv"] = 5
    c["conditions"] = [{"kind": "poison", "name": "", "diagnosed": True}] * 2
    out = call({"op": "unicreon.item.use", "character": c, "uid": c["inventory"][1]["uid"], "condition": 0})
    assert out["character"]["pv"] == 5 and len(out["character"]["conditions"]) == 1
    med = {"name": "Médicament", "category": "care", "uses": 1, "heal": 3, "cures": True}
    c = call({"op": "unicreon.inventory.custom", "character": out["character"], "item": med})["character"]
    out = call({"op": "unicreon.item.use", "character": c, "uid": c["inventory"][-1]["uid"], "condition": 0})
    assert out["character"]["pv"] == 8 and out["character"]["conditions"] == []
    # A cure is not refused at full PV: it cures.
    c = rich("eve", "antidote")
    c["conditions"] = [{"kind": "disease", "name": "", "diagnosed": True}]
    out = call({"op": "unicreon.item.use", "character": c, "uid": c["inventory"][1]["uid"], "condition": 0})
    assert out["character"]["conditions"] == [] and out["character"]["pv"] == 12


def _fight() -> tuple[dict, str, str, dict]:
    bea = new_character(cid="bea", name="Béa")
    state = cb.add_character(cs.new_state(), bea)
    state = cb.add_npcs(state, beast="canides")
    pc, wolf = (c["cid"] for c in state["combatants"])
    state = cb.initiative_from_dice(state, {pc: [6, 6]}, [1, 1])
    state = cb.engage(state, pc, wolf)
    return state, pc, wolf, bea


def test_last_exchange_is_kept_in_the_state_until_the_turn_ends():
    state, pc, wolf, _ = _fight()
    assert state["last"] is None
    out = pa.attack(state, {"attacker": pc, "defender": wolf}, [6, 6], [1, 1])
    last = out["state"]["last"]
    assert last["attacker"] == pc and last["defender"] == wolf
    assert last["exchange"] == out["exchange"] and last["defender_pv"] == 5  # unarmed: 1 PV
    assert STATE_VALIDATORS["unicreon"]({"combat": out["state"], "custom_items": []}) == []
    assert cb.next_turn(out["state"])["last"] is None
    assert cb.remove(out["state"], wolf)["last"] is None
    broken = {**out["state"], "last": {**last, "defender": "c99"}}
    assert STATE_VALIDATORS["unicreon"]({"combat": broken, "custom_items": []})
    assert err({"op": "unicreon.combat.next", "state": broken})["code"] == "unicreon.state.invalid"


def test_sheet_pv_change_during_a_fight_reaches_the_combatant_and_survives_the_end():
    """combat.sync_character: the combatant holds the current PV during the fight; a care item
    used on the sheet is copied onto it, so ending the fight writes back the right PV."""
    state, pc, wolf, bea = _fight()
    state = call({"op": "unicreon.combat.adjust", "state": state, "cid": pc, "pv_delta": -4})["state"]
    assert cs.get(state, pc)["pv"] == 8
    # The sheet works on the combat PV (8) and heals 2 with a kit.
    bea = {**rich("bea", "trousse_basique"), "pv": 8}
    healed = call({"op": "unicreon.item.use", "character": bea, "uid": bea["inventory"][1]["uid"]})["character"]
    state = call({"op": "unicreon.combat.sync", "state": state, "character": healed})["state"]
    assert cs.get(state, pc)["pv"] == 10 and cs.get(state, wolf)["pv"] == 6
    back = call({"op": "unicreon.combat.end", "state": state})["characters"]
    assert back == [{"character_id": "bea", "pv": 10, "down": None}]
    # A character outside the fight leaves the state as it was; down is copied and stops actions.
    assert call({"op": "unicreon.combat.sync", "state": state, "character": new_character(cid="x")})["state"] == state
    out = cb.sync_character(state, {**healed, "pv": 0, "down": "unconscious"})
    assert cs.get(out, pc)["down"] == "unconscious" and cs.get(out, pc)["actions"] == 0
