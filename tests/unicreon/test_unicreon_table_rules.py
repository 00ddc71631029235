"""Unicreon: rules that played wrong at the table, each against the text and the
adopted reading (rules/README.md, Unicreon).

Source: 004_12a5de9999b9d0ad.txt ("Tests en opposition", "Passer d'armes", "Attaque par surprise",
"Initiative", "Richesse", "Équipement", "Combat au contact", "Objets usuels", "Blessures", "Soins").
"""

from __future__ import annotations

from fractions import Fraction

from api_calls import call
from tablee.systems.unicreon import combat as cb
from tablee.systems.unicreon.character import new_character


def duel(defender_agilite: int = 40) -> tuple[dict, str, str]:
    """Ana (Agilité 40, couteau long [Agilité 2 PV]) engaged with Béa (unprotected, Agilité
    ``defender_agilite``), Ana's turn."""
    ana = new_character(cid="ana", name="Ana")
    ana["po"] = 50
    ana = call({"op": "unicreon.shop.buy", "character": ana, "ref": "couteau_long"})["character"]
    bea = new_character(cid="bea", name="Béa")
    bea["characteristics"] = {"puissance": 50, "agilite": defender_agilite, "perception": 30, "volonte": 30}
    assert sum(bea["characteristics"].values()) == 150
    state = cb.add_character(cb.add_character(cb.new_state(), ana), bea, side="npc")
    a, d = (c["cid"] for c in state["combatants"])
    state = cb.initiative_from_dice(state, {a: [6, 6]}, [1, 1])
    state = cb.engage(state, a, d)
    return state, a, d


# --- 1. passe d'armes: a defender who fails his test cannot win --------------------------------


def test_a_defender_who_fails_his_harder_test_loses_even_with_the_higher_roll():
    """Surprise in melee: Béa defends at Difficile (Agilité 40 + 10 = 50). Ana rolls 45 (≥ 40, a
    success); Béa rolls 46 (< 50, a failure): Ana hits although 45 < 46. At Moyen Béa's 46 would
    succeed and win."""
    state, a, d = duel()
    req = {"attacker": a, "defender": d, "weapon": "i1", "surprise": True}
    ex = cb.attack(state, req, [4, 5], [4, 6])["exchange"]
    assert (ex["defender"]["target"], ex["defender"]["success"]) == (50, False)
    assert ex["hit"] and ex["winner"] == "attacker" and ex["pv_lost"] == 2
    ex = cb.attack(state, {**req, "surprise": False}, [4, 5], [4, 6])["exchange"]
    assert not ex["hit"] and ex["winner"] == "defender"


def test_when_both_succeed_the_attacker_needs_a_raw_at_least_the_defenders():
    state, a, d = duel()
    req = {"attacker": a, "defender": d, "weapon": "i1", "surprise": True}
    assert not cb.attack(state, req, [4, 5], [5, 2])["exchange"]["hit"]  # 45 vs 52 (≥ 50)
    assert cb.attack(state, req, [5, 2], [5, 2])["exchange"]["hit"]  # tie: the attacker
    assert not cb.attack(state, req, [3, 6], [1, 1])["exchange"]["hit"]  # the attacker failed


def test_the_odds_show_what_the_defenders_penalty_changes():
    """Ana (target 40) vs Béa: at Moyen (target 40) 495 of the 1296 pairs hit, 55/144; surprised
    (Difficile, target 50) 510 pairs, 85/216; the 15 pairs between are the rolls of 41-49 by Béa
    above Ana's successful roll. Two extra steps (target 60): 561 pairs, 187/432."""
    state, a, d = duel()
    base = {"op": "unicreon.combat.attack.odds", "state": state, "attacker": a, "defender": d, "weapon": "i1"}
    plain = call(base)
    assert plain["hit"]["p"] == "55/144" and plain["defender_penalty"] is None
    surprised = call({**base, "surprise": True})
    assert surprised["setup"]["defence"]["target"] == 50
    assert surprised["hit"]["p"] == "85/216" and surprised["miss"]["p"] == "131/216"
    assert surprised["defender_penalty"] == {
        "steps": 1,
        "hit_at_moyen": {"p": "55/144", "percent": 38.19},
        "hit_difference": {"p": "5/432", "percent": 1.16},
    }
    malus = call({**base, "surprise": True, "defender_malus": 1})
    assert malus["hit"]["p"] == "187/432" and malus["defender_penalty"]["steps"] == 2
    difference = Fraction(malus["defender_penalty"]["hit_difference"]["p"])
    assert Fraction(malus["hit"]["p"]) - Fraction("55/144") == difference


# --- 5. an item lowers a test's difficulty once -------------------------------------------------


def climber() -> dict:
    """Camille (Agilité 20) with two climbing ropes, a grappin and a custom rope named like the
    first ("Corde") twice."""
    c = new_character(cid="camille", name="Camille")
    c["characteristics"] = {"puissance": 40, "agilite": 20, "perception": 40, "volonte": 50}
    c["po"] = 100
    for ref in ("sac_a_dos", "corde_escalade", "corde_escalade", "grappin"):
        c = call({"op": "unicreon.shop.buy", "character": c, "ref": ref})["character"]
    for _ in range(2):
        item = {"name": " Corde elfique", "category": "gear", "pe": 1, "bonus_steps": 2}
        c = call({"op": "unicreon.inventory.custom", "character": c, "item": item})["character"]
    return c


def test_the_same_item_listed_twice_or_carried_twice_counts_once():
    """Agilité 20, Improbable (+30) = 50. Rope i2 listed twice, and its twin i3: one step, 40.
    Source: "Objets usuels"; reading rules/README.md, Unicreon."""
    c = climber()
    assert [i["ref"] for i in c["inventory"]][:4] == ["sac_a_dos", "corde_escalade", "corde_escalade", "grappin"]
    spec = {"characteristic": "agilite", "difficulty": "improbable"}
    once = call({"op": "unicreon.test.odds", "character": c, "test": {**spec, "items": ["i2", "i2", "i3"]}})
    assert (once["target"], once["difficulty"], once["items_counted"]) == (40, "tres_difficile", ["i2"])
    assert once["success"]["p"] == "1/2"


def test_different_items_still_add_up_and_custom_twins_count_once():
    """Rope + grappin (two different items): two steps, 30. The two "Corde elfique" (custom, same
    name up to case and spaces, 2 steps each) count once: 50 − 20 = 30."""
    c = climber()
    spec = {"characteristic": "agilite", "difficulty": "improbable"}
    both = call({"op": "unicreon.test.odds", "character": c, "test": {**spec, "items": ["i2", "i4"]}})
    assert (both["target"], both["items_counted"]) == (30, ["i2", "i4"])
    elves = call({"op": "unicreon.test", "character": c, "seed": 3, "test": {**spec, "items": ["i5", "i6"]}})
    assert (elves["target"], elves["items_counted"]) == (30, ["i5"])


# --- 7. every op that takes a character refuses a sheet that breaks the rules ----------------


def sheet() -> dict:
    """A finished character with a bag, a bandage and a torch, 9/12 PV, a diagnosed disease."""
    c = new_character(cid="zoe", name="Zoé")
    for f in ("story", "origins", "job", "description", "don", "defaut"):
        c[f] = "…"
    c["created"] = True
    for ref in ("sac_a_dos", "bandage", "torche"):
        c = call({"op": "unicreon.shop.buy", "character": c, "ref": ref})["character"]
    c = call({"op": "unicreon.health.afflict", "character": c, "kind": "disease", "diagnosed": True})["character"]
    c["pv"] = 9
    return c


def requests_taking_a_character(c: dict, other: dict) -> list[dict]:
    """One request per op and per character it takes, each answered when both sheets are sound."""
    state = call({"op": "unicreon.combat.add_character", "state": cb.new_state(), "character": other})["state"]
    test = {"characteristic": "agilite"}
    return [
        {"op": "unicreon.shop.buy", "character": c, "ref": "briquet"},
        {"op": "unicreon.shop.sell", "character": c, "uid": "i3"},
        {"op": "unicreon.inventory.custom", "character": c, "item": {"name": "Pipe", "category": "gear"}},
        {"op": "unicreon.inventory.remove", "character": c, "uid": "i3"},
        {"op": "unicreon.inventory.carry", "character": c, "uid": "i3", "carried": "hand"},
        {"op": "unicreon.item.use", "character": c, "uid": "i2"},
        {"op": "unicreon.item.use", "character": other, "uid": "i2", "target": c},
        {"op": "unicreon.test", "character": c, "test": test, "seed": 1},
        {"op": "unicreon.test.odds", "character": c, "test": test},
        {"op": "unicreon.opposition", "a": test, "b": test, "character_a": c, "character_b": other, "seed": 1},
        {"op": "unicreon.opposition", "a": test, "b": test, "character_a": other, "character_b": c, "seed": 1},
        {"op": "unicreon.opposition.odds", "a": test, "b": test, "character_a": other, "character_b": c},
        {"op": "unicreon.opposition.odds", "a": test, "b": test, "character_a": c, "character_b": other},
        {"op": "unicreon.health.damage", "character": c, "amount": 1},
        {"op": "unicreon.health.heal", "character": c, "amount": 1},
        {"op": "unicreon.health.down", "character": c, "state": "unconscious"},
        {"op": "unicreon.health.rest", "character": c, "kind": "short"},
        {"op": "unicreon.health.new_adventure", "character": c},
        {"op": "unicreon.health.afflict", "character": c, "kind": "poison"},
        {"op": "unicreon.health.cure", "character": c, "condition": 0},
        {"op": "unicreon.health.diagnose", "character": c, "condition": 0, "perception": 30, "seed": 1},
        {"op": "unicreon.health.diagnose.odds", "character": c, "condition": 0, "perception": 30},
        {"op": "unicreon.health.day", "character": c, "seed": 1},
        {"op": "unicreon.health.day.odds", "character": c},
        {"op": "unicreon.combat.add_character", "state": cb.new_state(), "character": c},
        {"op": "unicreon.combat.sync", "state": state, "character": c},
        {"op": "unicreon.combat.apply", "state": state, "character": {**c, "id": other["id"]}},
    ]


def test_every_op_that_takes_a_character_refuses_a_sheet_that_breaks_the_rules():
    """The issue's sheet, characteristics 0/0/99/99: healed, tested, added to a fight... every op
    answers the first rule it breaks, at its field, and changes nothing. The same requests with
    the sound sheet are answered; the list covers every op whose request takes a character."""
    from tablee.api import handle
    from tablee.registry import OPS
    from tablee.systems.unicreon.ops import CHARACTER

    good, other = sheet(), {**sheet(), "id": "yann", "name": "Yann"}
    bad = {**good, "characteristics": {"puissance": 0, "agilite": 0, "perception": 99, "volonte": 99}}
    for req in requests_taking_a_character(good, other):
        call(req)
    covered = set()
    for req in requests_taking_a_character(bad, other):
        key = next(
            k for k, v in req.items() if isinstance(v, dict) and v.get("characteristics") == bad["characteristics"]
        )
        covered.add((req["op"], key))
        resp = handle(req)
        assert resp.get("error", {}).get("code") == "unicreon.char.zero", (req["op"], resp)
        assert resp["error"]["params"] == {"field": f"{key}.characteristics.puissance", "characteristic": "puissance"}
    takes = {
        (name, key)
        for name, o in OPS.items()
        if name.startswith("unicreon.")
        for key, schema in o.schema["properties"].items()
        if schema == CHARACTER
    }
    assert takes - covered == {("unicreon.character.check", "character"), ("unicreon.character.finish", "character")}
    check = call({"op": "unicreon.character.check", "character": bad})
    assert not check["ok"] and [p["code"] for p in check["problems"]] == [
        "unicreon.char.zero",
        "unicreon.char.zero",
        "unicreon.char.value",
        "unicreon.char.value",
        "unicreon.char.sum",
    ]
    assert (
        handle({"op": "unicreon.character.finish", "character": {**bad, "created": False}})["error"]["code"]
        == "unicreon.char.not_finished"
    )


def test_an_overloaded_sheet_can_still_be_put_right_but_not_played():
    """Encumbrance and the one-armour rule are rules of play too, but the ops that put an
    inventory right (drop, sell, carry elsewhere) must accept the sheet they repair."""
    c = sheet()
    c["inventory"] = [i for i in c["inventory"] if i["ref"] != "sac_a_dos"]  # no bag at all: 2 PE in none
    assert (
        call({"op": "unicreon.character.check", "character": c})["problems"][0]["code"] == "unicreon.char.encumbrance"
    )
    from api_calls import err

    assert err({"op": "unicreon.health.heal", "character": c, "amount": 1}) == "unicreon.char.encumbrance"
    assert (
        err({"op": "unicreon.test.odds", "character": c, "test": {"characteristic": "agilite"}})
        == "unicreon.char.encumbrance"
    )
    lighter = call({"op": "unicreon.inventory.remove", "character": c, "uid": "i2"})["character"]
    assert call({"op": "unicreon.shop.sell", "character": lighter, "uid": "i3"})["character"]["inventory"] == []
    assert (
        call({"op": "unicreon.inventory.carry", "character": lighter, "uid": "i3", "carried": "hand"})["encumbrance"][
            "over"
        ]
        is False
    )


# --- 6. curing ends a condition and removes it from the sheet -----------------------------------


def test_dressing_an_infected_wound_ends_the_infection():
    """ "Blessures": an infected wound costs 1d6 PV a day until it is properly cared for; "Soins": a
    wound is dressed with a first-aid kit. The bandage (1 PV) ends the infection, even at full PV,
    and the next adventure day costs nothing."""
    c = sheet()
    c["conditions"] = []
    c = call({"op": "unicreon.health.afflict", "character": c, "kind": "infection", "name": "Morsure"})["character"]
    c = call({"op": "unicreon.health.afflict", "character": c, "kind": "poison"})["character"]
    assert call({"op": "unicreon.health.day", "character": c, "seed": 5})["pv_lost"] > 0
    out = call({"op": "unicreon.item.use", "character": c, "uid": "i2", "condition": 0})["character"]
    assert out["conditions"] == [{"kind": "poison", "name": "", "diagnosed": False}]
    assert out["pv"] == 10 and out["inventory"][1]["uses"] == 1
    c["pv"] = 12
    full = call({"op": "unicreon.item.use", "character": c, "uid": "i2", "condition": 0})["character"]
    assert [x["kind"] for x in full["conditions"]] == ["poison"] and full["pv"] == 12
    # A bandage does not cure the poison: that takes an antidote after a diagnosis.
    from api_calls import err

    assert (
        err({"op": "unicreon.item.use", "character": c, "uid": "i2", "condition": 1}) == "unicreon.item.not_infection"
    )
    assert err({"op": "unicreon.item.use", "character": c, "uid": "i2", "condition": 5}) == "unicreon.item.no_condition"


def test_a_healed_condition_leaves_the_sheet_and_stops_costing_pv():
    """The MJ ends a condition the app cannot see cured (a poison that ran its course): it leaves
    the sheet, and a day with no condition costs 0 PV (no die rolled)."""
    c = sheet()
    assert [x["kind"] for x in c["conditions"]] == ["disease"]
    out = call({"op": "unicreon.health.cure", "character": c, "condition": 0})
    assert out["character"]["conditions"] == [] and out["character"]["pv"] == 9
    day = call({"op": "unicreon.health.day", "character": out["character"], "seed": 1})
    assert (day["dice"], day["pv_lost"], day["character"]["pv"]) == ([], 0, 9)
    from api_calls import err

    assert err({"op": "unicreon.health.cure", "character": c, "condition": 1}) == "unicreon.health.unknown_condition"


# --- 2. initiative: the highest success starts, then clockwise in the seating order -------------


def table() -> tuple[dict, list[str]]:
    """Around the table: Ana, Béa, Chloé (Agilité 40 each), then the MJ (a PNJ faible, Agilité 50)."""
    state = cb.new_state()
    for x in ("ana", "bea", "chloe"):
        state = cb.add_character(state, new_character(cid=x, name=x))
    state = cb.add_npcs(state, tier="faible", count=2)
    return state, [c["cid"] for c in state["combatants"][:3]]


def test_the_highest_success_starts_then_play_goes_clockwise_round_the_table():
    """Ana 32 (fails), Béa 45, Chloé 61, MJ 55 (≥ 50): Chloé starts, then the MJ, then round the
    table to Ana and Béa, failures included. Sorting by raw result would give Chloé, MJ, Béa, Ana."""
    state, (a, b, c) = table()
    assert cb.seating(state) == [a, b, c, "mj"] == state["seating"]
    out = cb.initiative_from_dice(state, {a: [3, 2], b: [4, 5], c: [6, 1]}, [5, 5])
    assert out["order"] == [c, "mj", a, b]
    assert out["npc_initiative"]["success"] and not cb.get(out, a)["initiative"]["success"]


def test_a_tie_between_successes_goes_to_the_earlier_seat_and_nobody_succeeding_still_starts():
    state, (a, b, c) = table()
    assert cb.initiative_from_dice(state, {a: [3, 2], b: [5, 5], c: [5, 5]}, [1, 1])["order"] == [b, c, "mj", a]
    # Nobody succeeds (all below 40, the MJ below 50): the highest raw result, Béa's 36, starts.
    assert cb.initiative_from_dice(state, {a: [3, 2], b: [3, 6], c: [1, 1]}, [1, 1])["order"] == [
        b,
        c,
        "mj",
        a,
    ]


def test_the_mj_moves_seats_and_a_running_fight_follows_the_table():
    """The MJ moves her seat up twice (Ana, MJ, Béa, Chloé): the same dice give Chloé, Ana, MJ,
    Béa. During the fight, moving Béa up keeps the starter and whoever is playing."""
    state, (a, b, c) = table()
    state = call({"op": "unicreon.combat.seat", "state": state, "entry": "mj", "move": "up"})["state"]
    state = call({"op": "unicreon.combat.seat", "state": state, "entry": "mj", "move": "up"})["state"]
    assert state["seating"] == [a, "mj", b, c]
    from api_calls import err

    assert err({"op": "unicreon.combat.seat", "state": state, "entry": a, "move": "up"}) == "unicreon.combat.seat_end"
    assert (
        err({"op": "unicreon.combat.seat", "state": state, "entry": "c99", "move": "down"}) == "unicreon.combat.unknown"
    )
    out = cb.initiative_from_dice(state, {a: [3, 2], b: [4, 5], c: [6, 1]}, [5, 5])
    assert out["order"] == [c, a, "mj", b]
    out = cb.next_turn(out)  # Ana plays
    moved = call({"op": "unicreon.combat.seat", "state": out, "entry": b, "move": "up"})["state"]
    assert moved["seating"] == [a, b, "mj", c]
    assert moved["order"] == [c, a, b, "mj"] and moved["order"][moved["turn"]] == a
    # A newcomer takes the next seat and plays at it; leaving frees the seat.
    dan = cb.add_character(moved, new_character(cid="dan", name="Dan"))
    d = dan["combatants"][-1]["cid"]
    assert dan["seating"] == [a, b, "mj", c, d] and dan["order"] == [c, d, a, b, "mj"]
    assert cb.remove(dan, b)["seating"] == [a, "mj", c, d]


def test_a_tracker_saved_before_the_seating_existed_still_loads_and_gets_one():
    from tablee.systems.unicreon.ops import validate_state

    state, (a, b, c) = table()
    del state["seating"]
    assert validate_state({"combat": state, "custom_items": []}) == []
    out = call({"op": "unicreon.combat.seat", "state": state, "entry": c, "move": "down"})["state"]
    assert out["seating"] == [a, b, "mj", c]
    state["seating"] = [a, a]
    assert validate_state({"combat": state, "custom_items": []})[0].code == "unicreon.state.invalid"


# --- 3. equipment at creation is chosen, not bought ----------------------------------------------


def recruit() -> dict:
    """A character still in creation, every text filled, 40 PO."""
    c = new_character(cid="rui", name="Rui")
    for f in ("story", "origins", "job", "description", "don", "defaut"):
        c[f] = "…"
    return c


def test_a_new_character_chooses_a_weapon_and_an_armour_and_keeps_his_40_po():
    """ "Richesse": 40 PO "qui peut être utilisée en cours de jeu"; "Équipement": "Choisissez des
    équipements". An épée courte (50 PO), an armure de cuir (50 PO), a sac à dos: PO still 40,
    the sheet is in order and can be finished; in play the 40 PO buy things."""
    c = recruit()
    for ref in ("epee_courte", "armure_cuir", "sac_a_dos", "torche"):
        c = call({"op": "unicreon.shop.buy", "character": c, "ref": ref})["character"]
    assert c["po"] == 40 and [i["ref"] for i in c["inventory"]] == ["epee_courte", "armure_cuir", "sac_a_dos", "torche"]
    assert call({"op": "unicreon.character.check", "character": c}) == {
        "ok": True,
        "problems": [],
        "encumbrance": {"load": 1, "capacity": 15, "over": False, "ignored": False},
    }
    done = call({"op": "unicreon.character.finish", "character": c})["character"]
    played = call({"op": "unicreon.shop.buy", "character": done, "ref": "corde_escalade"})["character"]
    assert played["po"] == 30
    # Un-choosing during the creation gives nothing back; an item chosen free sells for nothing
    # in play either (the text has no resale rule: it cannot turn into PO on top of the 40 PO);
    # an item bought in play sells for what it cost; the MJ may still set a price.
    assert call({"op": "unicreon.shop.sell", "character": c, "uid": "i1"})["character"]["po"] == 40
    assert call({"op": "unicreon.shop.sell", "character": done, "uid": "i1"})["character"]["po"] == 40
    rope = played["inventory"][-1]["uid"]
    assert call({"op": "unicreon.shop.sell", "character": played, "uid": rope})["character"]["po"] == 40
    assert call({"op": "unicreon.shop.sell", "character": done, "uid": "i1", "price": 25})["character"]["po"] == 65


def test_a_custom_ranged_weapon_shoots():
    """ "Combat à distance": a weapon « qui peut être lancée … ou qui peut lancer des
    projectiles », with « une portée idéale et une portée maximale »; the MJ's custom item
    carries them and is used at range (and, not one-handed, not in melee)."""
    c = call({"op": "unicreon.character.finish", "character": recruit()})["character"]
    sling = {"name": "Fronde de berger", "category": "weapon", "carried": "hand",
             "weapon": {"characteristic": "perception", "damage": {"kind": "fixed", "value": 2}, "ranged": True,
                        "thrown": False, "melee_ok": False, "range": {"ideal": 10, "max": 40}, "malus_steps": 0}}
    out = call({"op": "unicreon.inventory.custom", "character": c, "item": sling})["character"]
    item = out["inventory"][-1]
    assert item["weapon"]["ranged"] is True and item["weapon"]["range"] == {"ideal": 10, "max": 40}
    assert item["free"] is True
    assert call({"op": "unicreon.shop.sell", "character": out, "uid": item["uid"]})["character"]["po"] == out["po"]


def test_the_choice_stays_within_encumbrance_and_the_po_stay_at_40():
    from api_calls import err

    c = recruit()
    c = call({"op": "unicreon.shop.buy", "character": c, "ref": "bourse"})["character"]  # 2 PE
    c = call({"op": "unicreon.shop.buy", "character": c, "ref": "ration"})["character"]  # 2 PE
    assert err({"op": "unicreon.shop.buy", "character": c, "ref": "torche"}) == "unicreon.shop.encumbrance"
    c["po"] = 0
    problems = call({"op": "unicreon.character.check", "character": c})["problems"]
    assert problems == [
        {
            "field": "po",
            "code": "unicreon.char.po_start",
            "message_key": "error.unicreon.char.po_start",
            "params": {"po": 0, "expected": 40},
        }
    ]


def test_the_pay_at_creation_setting_keeps_the_variant():
    """With creation_pay, creation purchases cost PO and "PO left + cost = 40" is checked."""
    from api_calls import err

    c = recruit()
    assert err({"op": "unicreon.shop.buy", "character": c, "ref": "epee_courte", "creation_pay": True}) == (
        "unicreon.shop.po"
    )
    c = call({"op": "unicreon.shop.buy", "character": c, "ref": "sac_a_dos", "creation_pay": True})["character"]
    assert c["po"] == 20
    assert call({"op": "unicreon.character.check", "character": c, "creation_pay": True})["ok"]
    assert call({"op": "unicreon.character.check", "character": c})["problems"][0]["code"] == "unicreon.char.po_start"
    item = {"name": "Médaillon", "category": "gear", "cost": 10}
    free = call({"op": "unicreon.inventory.custom", "character": c, "item": item, "pay": True})["character"]
    paid = call({"op": "unicreon.inventory.custom", "character": c, "item": item, "pay": True, "creation_pay": True})[
        "character"
    ]
    assert (free["po"], paid["po"]) == (20, 10)


# --- 4. ranged weapons au corps-à-corps: only the easily one-handed ones -------------------------


def test_only_one_handed_ranged_weapons_are_usable_in_melee():
    """ "Combat au contact": a ranged weapon is usable au corps-à-corps only when easily handled
    with one hand (throwing knives, shuriken), never bows, crossbows or slings. The rule is data
    (``melee_ok``) on every ranged weapon."""
    from api_calls import err
    from tablee.systems.unicreon.data import WEAPONS

    assert {k: w["weapon"]["melee_ok"] for k, w in WEAPONS.items() if w["weapon"]["ranged"]} == {
        "fronde": False,
        "couteau_lancer": True,
        "arc": False,
        "arbalete_une_main": False,
        "arc_long": False,
        "arbalete": False,
    }
    robin = new_character(cid="robin", name="Robin")
    robin["po"] = 1000
    robin["created"] = True
    for ref in ("arc", "fronde", "arbalete_une_main", "couteau_lancer"):
        robin = call({"op": "unicreon.shop.buy", "character": robin, "ref": ref})["character"]
    state = cb.add_npcs(cb.add_character(cb.new_state(), robin), beast="canides", count=2)
    me, wolf, other = (c["cid"] for c in state["combatants"])
    state = cb.initiative_from_dice(state, {me: [6, 6]}, [1, 1])
    base = {"op": "unicreon.combat.attack.odds", "state": state, "attacker": me, "defender": wolf}
    # Not in contact: every ranged weapon shoots.
    for uid in ("i1", "i2", "i3", "i4"):
        assert call({**base, "weapon": uid, "distance": 3})["setup"]["ranged"] is True
    state = cb.engage(state, me, wolf)
    base["state"] = state
    for uid in ("i1", "i2", "i3"):  # bow, sling, one-hand crossbow: neither in hand nor shot in melee
        assert err({**base, "weapon": uid}) == "unicreon.combat.not_melee"
        assert err({**base, "weapon": uid, "ranged": False}) == "unicreon.combat.not_melee"
        assert err({**base, "defender": other, "weapon": uid, "distance": 3}) == "unicreon.combat.not_melee"
    knife = call({**base, "weapon": "i4", "ranged": False})["setup"]
    assert (knife["ranged"], knife["thrown"], knife["attack"]["characteristic"]) == (False, False, "agilite")
    thrown = call({**base, "defender": other, "weapon": "i4", "distance": 3})["setup"]
    assert (thrown["ranged"], thrown["thrown"]) == (True, True)
