"""Issue 8, Unicreon: rules that played wrong at the table, each against the text and the
adopted reading (rules/README.md, Unicreon).

Source: 004_12a5de9999b9d0ad.txt ("Tests en opposition", "Passer d'armes", "Attaque par surprise",
"Initiative", "Richesse", "Équipement", "Combat au contact", "Objets usuels", "Blessures", "Soins").
"""

from __future__ import annotations

from fractions import Fraction

from uc_api import call

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
