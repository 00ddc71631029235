"""The worked examples of the Unicreon text, with dice forced to the example's values.

Source: /work/shared/rules/004_12a5de9999b9d0ad.txt; each test names its section.
"""

from __future__ import annotations

import copy

import pytest

from tablee.api import handle
from tablee.systems.unicreon import combat as cb
from tablee.systems.unicreon import combat_state as cs
from tablee.systems.unicreon import passe_darmes as pa
from tablee.systems.unicreon.character import custom_item, new_character
from tablee.systems.unicreon.data import DIFFICULTIES
from tablee.systems.unicreon.passe_darmes import resolve_exchange
from tablee.systems.unicreon.resolution import (
    difficulty_label,
    difficulty_value,
    resolve_opposition,
    resolve_test,
    target,
)


def pc(cid: str, name: str, **chars: int) -> dict:
    c = new_character(cid=cid, name=name)
    c["characteristics"].update(chars)
    return c


def give(c: dict, **spec) -> str:
    item = custom_item(spec)
    item["uid"] = f"i{len(c['inventory']) + 1}"
    c["inventory"].append(item)
    return item["uid"]


def weapon(characteristic: str, kind: str, value: int | None, **extra) -> dict:
    w = {
        "characteristic": characteristic,
        "damage": {"kind": kind, "value": value},
        "ranged": False,
        "thrown": False,
        "melee_ok": True,
        "range": None,
        "malus_steps": 0,
    }
    w.update(extra)
    return w


def shield(characteristic: str, kind: str, value: int) -> dict:
    return {"characteristic": characteristic, "absorb": {"kind": kind, "value": value}}


# --- "Résolution des actions", "Tests et résolutions" ---------------------------------------------


def test_alice_door_puissance_30_difficile_needs_40():
    """Alice défonce une porte renforcée: Puissance Bonne (30) + Difficile (+10) → 40 ou plus."""
    tgt = target(30, DIFFICULTIES["difficile"])
    assert tgt == 40
    assert resolve_test(3, 6, tgt)["success"] is False  # 36
    assert resolve_test(4, 1, tgt)["success"] is True  # 41


def test_bob_watch_perception_20_moyen_needs_20():
    """Bob surveille les alentours: Perception Forte (20), Moyen (0) → 20 ou plus."""
    tgt = target(20, DIFFICULTIES["moyen"])
    assert tgt == 20
    assert resolve_test(1, 6, tgt)["success"] is False
    assert resolve_test(2, 1, tgt)["success"] is True


def test_intro_alice_41_perception_30():
    """ "Initiation": Alice fait 41, Expérimentée (30) en Perception, difficulté Moyenne: réussi."""
    assert resolve_test(4, 1, target(30, 0))["success"] is True


def test_climbing_bonus_malus_stack():
    """ "Bonus/Malus": brouillard → Difficile; équipement annule → Moyen; brouillard + bourrasques
    (cumulés) → Improbable (+30): Bob, Fort (20) en Agilité, doit faire 50."""
    assert difficulty_label(difficulty_value("moyen", malus=1)) == "difficile"
    assert difficulty_label(difficulty_value("moyen", malus=1, bonus=1)) == "moyen"
    assert target(20, difficulty_value("moyen", malus=3)) == 50


# --- "Tests avancés" ---------------------------------------------------------------------------


def test_alice_tracks_bob_51_real_5_top():
    """ "Interprétation des résultats": Alice (Perception 30, Moyen) fait 51 → résultat réel 5.
    Reading (rules/README.md via the brief): the table gives 5-6 = "Top !" (the text says "Bien")."""
    res = resolve_test(5, 1, target(30, 0))
    assert res == {"dice": [5, 1], "raw": 51, "real": 5, "target": 30, "success": True, "band": "top"}


def test_bob_follows_alice_plain_opposition():
    """ "Tests en opposition": Bob fait 45, Alice 61 → Alice le remarque (plain comparison)."""
    bob = resolve_test(4, 5, target(30))
    alice = resolve_test(6, 1, target(20))
    assert resolve_opposition(bob, alice, modified=False, initiator="a")["winner"] == "b"


def test_arm_wrestling_both_35_camille_wins():
    """ "Tests en opposition": bras de fer, Camille (30, Moyen) et Daniel (30, Difficile, blessé)
    font tous les deux 35: Camille réussit, Daniel rate; Camille gagne."""
    camille = resolve_test(3, 5, target(30, 0))
    daniel = resolve_test(3, 5, target(30, 10))
    assert camille["target"] == 30 and daniel["target"] == 40
    res = resolve_opposition(camille, daniel, modified=True)
    assert res["winner"] == "a" and res["reason"] == "only_a_succeeded"
    # the same tie in the plain form goes to the initiator, or to the MJ's choice
    assert resolve_opposition(camille, daniel, modified=False, initiator="b")["winner"] == "b"
    assert resolve_opposition(camille, daniel, modified=False)["mj_choice"] is True


def test_arm_wrestling_auto_mode_via_api():
    """The op picks the modified form because Daniel's difficulty is Difficile."""
    resp = handle(
        {"op": "unicreon.opposition.odds", "a": {"value": 30}, "b": {"value": 30, "difficulty": "difficile"}}
    )
    assert resp["modified"] is True and resp["b"]["target"] == 40


# --- "Utilisation des objets", "Objets usuels" -------------------------------------------------


def _odds(character: dict, difficulty: str, items: list[str]) -> dict:
    resp = handle(
        {
            "op": "unicreon.test.odds",
            "character": character,
            "test": {"characteristic": "volonte", "difficulty": difficulty, "items": items},
        }
    )
    assert "error" not in resp, resp
    return resp


def test_cookbook_and_spices():
    """Bob: repas gastronomique Très difficile (+20); livre de recettes → Difficile (+10);
    herbes et épices rares → Moyen (0)."""
    bob = pc("bob", "Bob")
    book = give(bob, name="Livre de recettes", bonus_steps=1)
    herbs = give(bob, name="Herbes et épices rares", bonus_steps=1)
    assert _odds(bob, "tres_difficile", [book])["difficulty"] == "difficile"
    assert _odds(bob, "tres_difficile", [book, herbs])["difficulty"] == "moyen"


def test_map_and_compass():
    """Alice se repère (Difficile +10) avec carte et boussole → Moyen (0). Catalogue item."""
    resp = handle(
        {
            "op": "unicreon.shop.buy",
            "character": pc("alice", "Alice"),
            "ref": "boussole_carte",
            "carried": "worn",
        }
    )
    alice = resp["character"]
    assert alice["po"] == 40  # in creation: chosen, not bought (rules/README.md, Unicreon)
    assert _odds(alice, "difficile", [resp["uid"]])["difficulty_value"] == 0


def test_musical_instrument():
    """Daniel chante une sérénade: Improbable (+30); l'instrument → Très difficile (+20)."""
    daniel = pc("daniel", "Daniel")
    daniel["ignore_encumbrance"] = True
    resp = handle({"op": "unicreon.shop.buy", "character": daniel, "ref": "instrument"})
    assert _odds(resp["character"], "improbable", [resp["uid"]])["difficulty"] == "tres_difficile"


def test_sophisticated_spyglass():
    """Daniel scrute l'horizon: Impossible (+40); longue-vue particulièrement sophistiquée →
    Très difficile (+20): a custom item that lowers two steps."""
    daniel = pc("daniel", "Daniel")
    lv = give(daniel, name="Longue-vue sophistiquée", bonus_steps=2)
    assert _odds(daniel, "impossible", [lv])["difficulty"] == "tres_difficile"


# --- "Combats" ---------------------------------------------------------------------------------


def two_fighters(a: dict, b: dict) -> tuple[dict, str, str]:
    """A fight with a as PC and b as important NPC, engaged, a's turn with two actions."""
    state = cb.add_character(cs.new_state(), a)
    state = cb.add_character(state, b, side="npc")
    ca, cbid = state["combatants"][0]["cid"], state["combatants"][1]["cid"]
    state = cb.initiative_from_dice(state, {ca: [6, 6]}, [1, 1])
    state["combatants"][0]["engaged"] = [cbid]
    state["combatants"][1]["engaged"] = [ca]
    return state, ca, cbid


def test_estelle_foil_vs_daniel():
    """ "Combat au contact": Estelle, fleuret [Agilité 2 PV] (custom: the list says 5 PV), Forte (20)
    en Agilité, fait 51 contre 26: Daniel perd 2 PV."""
    estelle = pc("estelle", "Estelle", agilite=20, puissance=50)
    foil = give(
        estelle, name="Fleuret", category="weapon", carried="hand", weapon=weapon("agilite", "fixed", 2)
    )
    daniel = pc("daniel", "Daniel")
    state, e, d = two_fighters(estelle, daniel)
    res = pa.attack(state, {"attacker": e, "defender": d, "weapon": foil}, [5, 1], [2, 6])
    ex = res["exchange"]
    assert ex["hit"] and ex["damage"] == 2 and ex["pv_lost"] == 2
    assert res["defender_pv"] == 10


def test_daniel_two_handed_axe_real_6_max_5():
    """Daniel réplique, hache à deux mains [Puissance max 5 PV]: 64 → réel 6 → 5 dégâts (Estelle's
    defence roll is not given; any lower roll, here 33)."""
    ex = resolve_exchange(
        {"target": target(40), "damage": {"kind": "max", "value": 5}},
        {"target": target(20), "moyen_target": target(20), "absorb": None},
        [6, 4],
        [3, 3],
    )
    assert ex["attacker"]["real"] == 6 and ex["damage"] == 5 and ex["pv_lost"] == 5


def test_alice_vs_camille_shield_absorbs_2():
    """ "Armures et boucliers": Alice 51 vs Camille 45; arme 3 dégâts; Camille Bonne (30) en Agilité
    réussit son test: le bouclier [Agilité 2 PV] absorbe 2 (she loses 1)."""
    alice = pc("alice", "Alice", agilite=30, volonte=40)
    sword = give(
        alice, name="Arme d'Alice", category="weapon", carried="hand", weapon=weapon("agilite", "fixed", 3)
    )
    camille = pc("camille", "Camille", agilite=30, volonte=40)
    sh = give(
        camille, name="Bouclier", category="shield", carried="hand", protection=shield("agilite", "fixed", 2)
    )
    state, a, c = two_fighters(alice, camille)
    res = pa.attack(state, {"attacker": a, "defender": c, "weapon": sword, "protection": sh}, [5, 1], [4, 5])
    ex = res["exchange"]
    assert (ex["hit"], ex["damage"], ex["protection_held"], ex["absorbed"], ex["pv_lost"]) == (
        True,
        3,
        True,
        2,
        1,
    )
    assert res["defender_pv"] == 11


def test_camille_vs_alice_antique_shield_fails():
    """Camille 45 vs Alice 21; arme 4 dégâts; Alice Moyenne (40) en Puissance rate son test: le
    bouclier antique [Puissance max 3 PV] ne bloque rien, elle perd 4 PV."""
    camille = pc("camille", "Camille", agilite=30, volonte=40)
    blade = give(
        camille,
        name="Arme de Camille",
        category="weapon",
        carried="hand",
        weapon=weapon("agilite", "fixed", 4),
    )
    alice = pc("alice", "Alice", puissance=40)
    antique = give(
        alice,
        name="Bouclier antique",
        category="shield",
        carried="hand",
        protection=shield("puissance", "max", 3),
    )
    state, c, a = two_fighters(camille, alice)
    res = pa.attack(
        state, {"attacker": c, "defender": a, "weapon": blade, "protection": antique}, [4, 5], [2, 1]
    )
    ex = res["exchange"]
    assert ex["hit"] and not ex["protection_held"] and ex["absorbed"] == 0 and ex["pv_lost"] == 4
    assert res["defender_pv"] == 8


def test_three_attackers_on_alice():
    """ "Combat à plusieurs": Bob attacks Alice twice (Moyen), Camille twice (Difficile), Daniel
    engages then attacks (Très difficile). Next round Alice hits Camille then Daniel: Moyen each."""
    state = cb.add_character(cs.new_state(), pc("alice", "Alice"))
    for who in ("bob", "camille", "daniel"):
        state = cb.add_character(state, pc(who, who.title()), side="npc")
    alice, bob, camille, daniel = (c["cid"] for c in state["combatants"])
    state = cb.initiative_from_dice(state, {alice: [6, 6]}, [5, 5])
    assert state["order"] == [alice, "mj"]
    for x, y in ((alice, bob), (alice, camille)):
        cs.get(state, x)["engaged"].append(y)
        cs.get(state, y)["engaged"].append(x)
    state = cb.next_turn(state)  # Alice waits; the MJ plays Bob, Camille, Daniel
    seen = []
    for attacker in (bob, bob, camille, camille, None, daniel):
        if attacker is None:
            state = cb.engage(state, daniel, alice)
            continue
        res = pa.attack(state, {"attacker": attacker, "defender": alice}, [1, 1], [6, 6])
        state = res["state"]
        seen.append(res["setup"]["defence"]["steps"])
    assert seen == [0, 0, 1, 1, 2]
    state = cb.next_turn(state)
    assert state["round"] == 2 and state["order"][state["turn"]] == alice
    steps = []
    for foe in (camille, daniel):
        res = pa.attack(state, {"attacker": alice, "defender": foe}, [1, 1], [6, 6])
        state = res["state"]
        steps.append(res["setup"]["defence"]["steps"])
    assert steps == [0, 0]


def test_trebuchet_infinite_damage():
    """ "Description des armes": trébuchet [Volonté ∞]: as much damage as the résultat réel."""
    ex = resolve_exchange(
        {"target": 10, "damage": {"kind": "infinite", "value": None}},
        {"target": 50, "moyen_target": 50, "absorb": None},
        [6, 2],
        [1, 1],
    )
    assert ex["damage"] == 6


@pytest.mark.parametrize(("dice", "damage"), [([2, 5], 2), ([4, 1], 4), ([6, 6], 4)])
def test_heavy_sword_max_4(dice, damage):
    """Une épée lourde [Puissance max 4 PV]: the résultat réel, at most 4."""
    ex = resolve_exchange(
        {"target": 11, "damage": {"kind": "max", "value": 4}},
        {"target": 50, "moyen_target": 50, "absorb": None},
        dice,
        [1, 1],
    )
    assert ex["damage"] == damage


def test_unarmed_attack_is_puissance_one_damage():
    """ "Passer d'armes": à mains nues → Puissance, 1 dégât; defender without protection → Agilité."""
    a, b = pc("a", "A", puissance=20, volonte=50), pc("b", "B")
    state, ca, cbid = two_fighters(a, b)
    res = pa.attack(copy.deepcopy(state), {"attacker": ca, "defender": cbid}, [6, 6], [1, 1])
    assert res["setup"]["attack"]["characteristic"] == "puissance"
    assert res["setup"]["defence"]["characteristic"] == "agilite"
    assert res["exchange"]["pv_lost"] == 1
