"""Unicreon characters, shop, inventory, health and the store validator.

Source: 004_12a5de9999b9d0ad.txt, "Création de personnages", "Liste d'équipement", "Armement",
"Gestion de la santé".
"""

from __future__ import annotations

import copy

import pytest

from api_calls import call, err
from tablee.api import handle
from tablee.store_records import CHARACTER_VALIDATORS, STATE_VALIDATORS
from tablee.systems.unicreon.character import new_character


def complete(**chars: int) -> dict:
    c = new_character(cid="x", name="Xavière")
    for f in ("story", "origins", "job", "description", "don", "defaut"):
        c[f] = "…"
    c["characteristics"] = {"puissance": 20, "agilite": 40, "perception": 40, "volonte": 50, **chars}
    return c


def codes(c: dict) -> dict[str, str]:
    return {p["code"]: p["field"] for p in call({"op": "unicreon.character.check", "character": c})["problems"]}


@pytest.mark.parametrize(
    "chars",
    [
        {"puissance": 20, "agilite": 40, "perception": 40, "volonte": 50},  # un combattant
        {"puissance": 50, "agilite": 20, "perception": 30, "volonte": 50},  # un pickpocket
        {"puissance": 40, "agilite": 50, "perception": 40, "volonte": 20},  # un investigateur
        {"puissance": 50, "agilite": 50, "perception": 40, "volonte": 10},  # un érudit mystique
    ],
)
def test_text_examples_are_valid(chars):
    """ "Caractéristiques", Exemples: the four sample characters pass every creation rule."""
    assert call({"op": "unicreon.character.check", "character": complete(**chars)}) == {
        "ok": True,
        "problems": [],
        "encumbrance": {"load": 0, "capacity": 0, "over": False, "ignored": False},
    }


def test_creation_problems_name_their_field():
    c = complete(puissance=0, volonte=35)
    c["name"] = " "
    c["pv"] = c["pv_max"] = 10
    found = codes(c)
    assert found["unicreon.char.zero"] == "characteristics.puissance"
    assert found["unicreon.char.value"] == "characteristics.volonte"
    assert found["unicreon.char.sum"] == "characteristics"
    assert found["unicreon.char.required"] == "name"
    assert found["unicreon.char.pv"] == "pv"
    resp = call({"op": "unicreon.character.check", "character": c})
    sum_problem = next(p for p in resp["problems"] if p["code"] == "unicreon.char.sum")
    assert sum_problem["params"] == {"total": 115, "expected": 150}
    assert sum_problem["message_key"] == "error.unicreon.char.sum"


def test_secret_is_optional_and_po_must_add_up():
    c = complete()
    assert c["secret"] == "" and codes(c) == {}
    c["po"] = 41
    assert "unicreon.char.po_start" in codes(c)
    pay = call({"op": "unicreon.character.check", "character": c, "creation_pay": True})["problems"]
    assert [p["code"] for p in pay] == ["unicreon.char.po"]


def test_new_character_is_in_creation():
    c = call({"op": "unicreon.character.new", "id": "n", "name": "N"})["character"]
    assert c["created"] is False
    assert CHARACTER_VALIDATORS["unicreon"](c) == []


def test_finish_refuses_while_check_has_problems_then_sets_created_once():
    c = complete()
    c["story"] = ""
    c["po"] = 39
    resp = handle({"op": "unicreon.character.finish", "character": c})
    assert resp["error"]["code"] == "unicreon.char.not_finished"
    assert resp["error"]["params"] == {"count": 2, "field": "story"}
    assert resp["error"]["message_key"] == "error.unicreon.char.not_finished"
    c["story"] = "Gardienne de phare."
    c["po"] = 40
    c = call({"op": "unicreon.shop.buy", "character": c, "ref": "sac_a_dos"})["character"]
    assert c["po"] == 40  # chosen at creation, not bought
    done = call({"op": "unicreon.character.finish", "character": c})
    assert done["character"]["created"] is True
    assert done["character"] == {**c, "created": True}
    assert done["encumbrance"] == {"load": 0, "capacity": 15, "over": False, "ignored": False}
    again = handle({"op": "unicreon.character.finish", "character": done["character"]})
    assert again["error"]["code"] == "unicreon.char.already_created"
    assert again["error"]["params"] == {"character": "x"}


def test_creation_only_rules_skipped_once_created():
    """12 PV, 40 PO minus purchases and the texts bind creation; in play PV and PO move."""
    c = complete()
    c["story"] = ""
    c["po"] = 7
    c["pv"] = 5
    c["pv_max"] = 14
    assert codes(c) == {"unicreon.char.required": "story", "unicreon.char.po_start": "po", "unicreon.char.pv": "pv"}
    c["created"] = True
    assert codes(c) == {}


def test_rules_of_play_still_checked_once_created():
    """Characteristics never change in Unicreon: their value and sum stay checked; so do the
    bags, the one armour / one shield rule and PV ≤ PV max."""
    c = complete()
    c["created"] = True
    c = call({"op": "unicreon.shop.buy", "character": c, "ref": "torche", "carried": "hand"})["character"]
    c["characteristics"].update(puissance=0, volonte=35)
    c["inventory"][0]["carried"] = "bag"  # 1 PE in no bag at all
    c["pv"] = 13
    found = codes(c)
    assert found == {
        "unicreon.char.pv_above_max": "pv",
        "unicreon.char.zero": "characteristics.puissance",
        "unicreon.char.value": "characteristics.volonte",
        "unicreon.char.sum": "characteristics",
        "unicreon.char.encumbrance": "inventory",
    }


def test_buy_deducts_po_and_refuses_when_short():
    """In play (or at creation with the table's "pay at creation" setting) buying costs PO."""
    for c, extra in ((complete(), {"creation_pay": True}), ({**complete(), "created": True}, {})):
        resp = call({"op": "unicreon.shop.buy", "character": c, "ref": "sac_a_dos", **extra})
        c = resp["character"]
        assert c["po"] == 20 and resp["encumbrance"]["capacity"] == 15
        c = call({"op": "unicreon.shop.buy", "character": c, "ref": "trousse_basique", **extra})["character"]
        assert c["po"] == 10 and c["inventory"][-1]["uses"] == 4 and c["inventory"][-1]["heal"] == 2
        assert err({"op": "unicreon.shop.buy", "character": c, "ref": "trousse_avancee", **extra}) == "unicreon.shop.po"
        assert call({"op": "unicreon.character.check", "character": c, **extra})["ok"]


@pytest.mark.parametrize(("ref", "slot"), [("armure_cuir", "worn"), ("bouclier_bois", "hand")])
def test_a_second_armour_or_shield_goes_in_a_bag_not_on_the_body(ref, slot):
    """One armour worn and one shield in hand ("Armures et boucliers"): choosing a second one at
    creation (free since equipment is chosen) puts it in a bag, so the sheet stays valid. Found by
    the Hypothesis property once creation equipment stopped costing PO."""
    c = complete()
    for _ in range(2):
        c = call({"op": "unicreon.shop.buy", "character": c, "ref": ref})["character"]
    assert [i["carried"] for i in c["inventory"]] == [slot, "bag"]
    assert call({"op": "unicreon.character.check", "character": c})["ok"]


def test_weapons_cost_more_than_starting_po_when_creation_purchases_cost_po():
    """Every weapon costs ≥ 50 PO: with the "pay at creation" setting a new character (40 PO)
    cannot buy one; by default it is chosen, not bought (see test_unicreon_table_rules)."""
    resp = handle({"op": "unicreon.shop.buy", "character": complete(), "ref": "couteau_long", "creation_pay": True})
    assert resp["error"]["params"] == {"cost": 50, "po": 40}


def test_encumbrance_against_bags():
    """ "Équipement": without a bag a torch does not fit; in hand it does; the MJ may ignore PE."""
    c = complete()
    assert err({"op": "unicreon.shop.buy", "character": c, "ref": "torche"}) == "unicreon.shop.encumbrance"
    assert (
        call({"op": "unicreon.shop.buy", "character": c, "ref": "torche", "carried": "hand"})["character"]["po"] == 40
    )
    c["ignore_encumbrance"] = True
    assert call({"op": "unicreon.shop.buy", "character": c, "ref": "torche"})["encumbrance"]["load"] == 1
    c = complete()
    c = call({"op": "unicreon.shop.buy", "character": c, "ref": "bourse"})["character"]  # 2 PE
    c = call({"op": "unicreon.shop.buy", "character": c, "ref": "ration"})["character"]  # 2 PE
    assert err({"op": "unicreon.shop.buy", "character": c, "ref": "briquet"}) == "unicreon.shop.encumbrance"


def test_sell_gives_back_cost_or_mj_price():
    c = call({"op": "unicreon.shop.buy", "character": {**complete(), "created": True}, "ref": "sacoche"})["character"]
    assert c["po"] == 30
    uid = c["inventory"][0]["uid"]
    assert call({"op": "unicreon.shop.sell", "character": c, "uid": uid})["character"]["po"] == 40
    assert call({"op": "unicreon.shop.sell", "character": c, "uid": uid, "price": 3})["character"]["po"] == 33
    assert err({"op": "unicreon.shop.sell", "character": c, "uid": "nope"}) == "unicreon.item.unknown"


def test_bandage_counts_down_and_heals_one():
    """ "Soins": bandage 1 PV, 2 utilisations; the item is gone after its last use."""
    c = complete()
    c["ignore_encumbrance"] = True
    c = call({"op": "unicreon.shop.buy", "character": c, "ref": "bandage"})["character"]
    c["pv"] = 9
    uid = c["inventory"][0]["uid"]
    c = call({"op": "unicreon.item.use", "character": c, "uid": uid})["character"]
    assert c["pv"] == 10 and c["inventory"][0]["uses"] == 1
    c = call({"op": "unicreon.item.use", "character": c, "uid": uid})["character"]
    assert c["pv"] == 11 and c["inventory"] == []


def test_advanced_kit_on_another_character_never_above_max():
    healer = complete()
    healer["ignore_encumbrance"] = True
    healer["po"] = 100
    healer = call({"op": "unicreon.shop.buy", "character": healer, "ref": "trousse_avancee"})["character"]
    patient = complete()
    patient["pv"] = 10
    resp = call({"op": "unicreon.item.use", "character": healer, "uid": "i1", "target": patient})
    assert resp["target"]["pv"] == 12 and resp["character"]["inventory"][0]["uses"] == 3


def test_poison_diagnosis_antidote_and_days():
    """ "Poisons et maladies", "Soins": 1d6 PV per day; antidote only after a diagnosis."""
    c = complete()
    c["ignore_encumbrance"] = True
    c = call({"op": "unicreon.shop.buy", "character": c, "ref": "antidote"})["character"]
    c = call({"op": "unicreon.health.afflict", "character": c, "kind": "poison", "name": "Ciguë"})["character"]
    day = call({"op": "unicreon.health.day", "character": c, "seed": 7})
    assert len(day["dice"]) == 1 and 1 <= day["dice"][0] <= 6
    assert day["character"]["pv"] == 12 - day["dice"][0]
    odds = call({"op": "unicreon.health.day.odds", "character": c})["pv_lost"]
    assert odds == {str(k): {"p": "1/6", "percent": 16.67} for k in range(1, 7)}
    assert err({"op": "unicreon.item.use", "character": c, "uid": "i1", "condition": 0}) == (
        "unicreon.health.not_diagnosed"
    )
    diag = call({"op": "unicreon.health.diagnose.odds", "character": c, "condition": 0, "perception": 30})
    assert diag["target"] == 30 and diag["success"]["p"] == "2/3"  # d66 ≥ 30: tens 3-6, 24 of 36
    for seed in range(50):
        r = call({"op": "unicreon.health.diagnose", "character": c, "condition": 0, "perception": 30, "seed": seed})
        if r["test"]["success"]:
            break
    assert r["character"]["conditions"][0]["diagnosed"] is True
    cured = call({"op": "unicreon.item.use", "character": r["character"], "uid": "i1", "condition": 0})
    assert cured["character"]["conditions"] == [] and cured["character"]["inventory"] == []


def test_rest_and_new_adventure():
    """ "Repos": 1 PV per rest of several hours; a full day and night: half the PV lost, rounded
    down. "Points de vie": full health at the start of each adventure."""
    c = complete()
    c["pv"] = 3
    assert call({"op": "unicreon.health.rest", "character": c, "kind": "short"})["character"]["pv"] == 4
    assert call({"op": "unicreon.health.rest", "character": c, "kind": "full"})["character"]["pv"] == 7  # 3 + 9//2
    c["pv"] = 12
    assert call({"op": "unicreon.health.rest", "character": c, "kind": "short"})["character"]["pv"] == 12
    c["pv"] = 0
    c["down"] = "unconscious"
    fresh = call({"op": "unicreon.health.new_adventure", "character": c})["character"]
    assert fresh["pv"] == 12 and fresh["down"] is None


def test_zero_pv_is_down_until_mj_decides():
    c = call({"op": "unicreon.health.damage", "character": complete(), "amount": 30})["character"]
    assert c["pv"] == 0 and c["down"] == "down"
    dead = call({"op": "unicreon.health.down", "character": c, "state": "dead"})["character"]
    assert err({"op": "unicreon.health.heal", "character": dead, "amount": 3}) == "unicreon.health.dead"


def test_custom_item_free_or_paid():
    c = {**complete(), "created": True}
    spec = {"name": "Médicament", "category": "care", "heal": 3, "uses": 1, "cost": 15, "carried": "worn"}
    free = call({"op": "unicreon.inventory.custom", "character": c, "item": spec})["character"]
    assert free["po"] == 40 and free["inventory"][0]["ref"] is None
    paid = call({"op": "unicreon.inventory.custom", "character": c, "item": spec, "pay": True})["character"]
    assert paid["po"] == 25


def test_store_validator_rejects_bad_data_without_raising():
    validate = CHARACTER_VALIDATORS["unicreon"]
    good = complete()
    assert validate(good) == []
    for bad in (
        None,
        [],
        "x",
        {**good, "pv": "12"},
        {**good, "extra": 1},
        {**good, "system": "versality"},
        {**good, "characteristics": {"puissance": 10}},
        {**good, "pv": 13},
        {**good, "pv": True},
        {k: v for k, v in good.items() if k != "created"},
        {**good, "created": 1},
        {**good, "created": None},
        {**good, "created": "true"},
    ):
        problems = validate(bad)
        assert problems and all(p.code.startswith("unicreon.char.") for p in problems)
    dup = copy.deepcopy(good)
    dup["ignore_encumbrance"] = True
    dup = call({"op": "unicreon.shop.buy", "character": dup, "ref": "torche"})["character"]
    dup["inventory"].append(copy.deepcopy(dup["inventory"][0]))
    assert [p.code for p in validate(dup)] == ["unicreon.char.uid_duplicate"]
    state_validate = STATE_VALIDATORS["unicreon"]
    assert state_validate({"combat": None, "custom_items": []}) == []
    assert state_validate({"combat": {"phase": "nope"}})
    assert state_validate(42)


def test_data_tables():
    data = call({"op": "unicreon.data"})
    assert data["characteristic_sum"] == 150 and data["start_pv"] == 12 and data["start_po"] == 40
    assert [d["value"] for d in data["difficulties"]] == [-10, 0, 10, 20, 30, 40]
    assert data["weapons"]["hache"]["weapon"]["damage"] == {"kind": "max", "value": 7}
    assert data["armours"]["bouclier_bois_ferre"]["protection"]["characteristic"] == "agilite"
    assert data["npc_tiers"]["mortel"] == {
        "value": 20,
        "pv": 25,
        "damage": 9,
        "skills": ["fort", "fort", "fort"],
    }
    assert data["bestiary"]["grands_felins"]["pv"] == 8
    assert data["ranges"]["arc"] == {"ideal": 30, "max": 80}
