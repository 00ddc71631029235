"""Unicreon combat tracker through the API: initiative, turns, ranged, thrown, surprise, escape.

Source: 004_12a5de9999b9d0ad.txt, "Combats" and "Combat avancé".
"""

from __future__ import annotations

import pytest

from api_calls import call, err
from tablee.api import handle
from tablee.systems.unicreon import combat as cb
from tablee.systems.unicreon import combat_state as cs
from tablee.systems.unicreon import passe_darmes as pa
from tablee.systems.unicreon.character import new_character


def archer() -> dict:
    c = new_character(cid="robin", name="Robin")
    c["po"] = 500
    for ref in ("arc", "couteau_lancer", "armure_cuir"):
        c = call({"op": "unicreon.shop.buy", "character": c, "ref": ref})["character"]
    return c


def fight(seed: int = 1) -> tuple[dict, str, str]:
    state = call({"op": "unicreon.combat.new"})["state"]
    resp = call({"op": "unicreon.combat.add_character", "state": state, "character": archer()})
    state, robin = resp["state"], resp["cid"]
    resp = call({"op": "unicreon.combat.add_npc", "state": state, "beast": "canides", "count": 3})
    state, wolves = resp["state"], resp["cids"]
    assert len(wolves) == 3 and cs.get(state, wolves[0])["natural"] == {
        "characteristic": "puissance",
        "damage": 3,
    }
    return state, robin, wolves[0]


def robin_turn(state: dict, robin: str) -> dict:
    """Initiative with dice forced so Robin acts first."""
    return cb.initiative_from_dice(state, {robin: [6, 6]}, [1, 1])


def test_npcs_added_in_one_request_per_tier():
    state = call({"op": "unicreon.combat.new"})["state"]
    state = call({"op": "unicreon.combat.add_npc", "state": state, "tier": "mortel", "count": 2})["state"]
    assert [
        (c["pv"], c["characteristics"]["agilite"], c["natural"]["damage"]) for c in state["combatants"]
    ] == [
        (25, 20, 9),
        (25, 20, 9),
    ]


def test_initiative_highest_success_starts_then_clockwise():
    """ "Initiative": the highest raw result among the successes starts, then clockwise in the
    seating order (rules/README.md, Unicreon); one MJ roll for all NPCs, against the best
    Agilité among them (reading)."""
    state = cs.new_state()
    a, b, c = (new_character(cid=x, name=x) for x in "abc")
    for ch in (a, b, c):
        state = cb.add_character(state, ch)
    state = cb.add_npcs(state, tier="faible")  # Agilité 50
    ids = [x["cid"] for x in state["combatants"][:3]]
    out = cb.initiative_from_dice(state, {ids[0]: [3, 9 - 7], ids[1]: [6, 1], ids[2]: [4, 5]}, [5, 5])
    # a: 32 < 40 fails; b: 61; c: 45; MJ: 55 ≥ 50 succeeds. Seats a, b, c, MJ: b, c, MJ, a.
    assert out["order"] == [ids[1], ids[2], "mj", ids[0]]
    assert out["npc_initiative"]["success"] is True and out["round"] == 1
    assert cs.get(out, ids[1])["actions"] == 2 and cs.get(out, ids[2])["actions"] == 0


def test_initiative_seeded_replay_and_odds():
    state, robin, _ = fight()
    one = call({"op": "unicreon.combat.initiative", "state": state, "seed": 99})
    two = call({"op": "unicreon.combat.initiative", "state": state, "seed": 99})
    assert one == two and set(one["order"]) == {robin, "mj"}
    odds = call({"op": "unicreon.combat.initiative.odds", "state": state})["entries"]
    assert odds[robin]["success"]["p"] == "1/2"  # Agilité 40: tens 4-6
    assert odds["mj"]["success"]["p"] == "2/3"  # wolves' Agilité 30


def test_turns_and_two_actions():
    state, robin, wolf = fight()
    state = robin_turn(state, robin)
    state = cb.engage(state, robin, wolf)
    resp = handle(
        {"op": "unicreon.combat.attack", "state": state, "attacker": robin, "defender": wolf, "seed": 1}
    )
    state = resp["state"]
    assert cs.get(state, robin)["actions"] == 0
    assert err(
        {"op": "unicreon.combat.attack", "state": state, "attacker": robin, "defender": wolf, "seed": 2}
    ) == ("unicreon.combat.no_actions")
    assert err({"op": "unicreon.combat.engage", "state": state, "cid": wolf, "target": robin}) == (
        "unicreon.combat.not_your_turn"
    )
    state = call({"op": "unicreon.combat.next", "state": state})["state"]
    assert state["order"][state["turn"]] == "mj" and all(
        c["actions"] == 2 for c in state["combatants"] if c["side"] == "npc"
    )
    state = call({"op": "unicreon.combat.next", "state": state})["state"]
    assert state["round"] == 2 and state["turn"] == 0 and cs.get(state, robin)["actions"] == 2


@pytest.mark.parametrize(("distance", "steps"), [(0, 0), (30, 0), (31, 1), (55, 1), (56, 2), (80, 2)])
def test_bow_range_steps(distance, steps):
    """ "Combat à distance": arc, portée idéale 30 m, maximale 80 m: harder beyond the ideal range."""
    state, robin, wolf = fight()
    state = robin_turn(state, robin)
    bow = cs.get(state, robin)["weapons"][0]["uid"]
    odds = call(
        {
            "op": "unicreon.combat.attack.odds",
            "state": state,
            "attacker": robin,
            "defender": wolf,
            "weapon": bow,
            "distance": distance,
        }
    )
    assert odds["setup"]["attack"]["range_steps"] == steps
    assert odds["setup"]["attack"]["target"] == 40 + 10 * steps


def test_bow_out_of_range_aim_and_no_melee():
    state, robin, wolf = fight()
    state = robin_turn(state, robin)
    bow = cs.get(state, robin)["weapons"][0]["uid"]
    base = {"state": state, "attacker": robin, "defender": wolf, "weapon": bow}
    assert (
        err({"op": "unicreon.combat.attack.odds", **base, "distance": 81}) == "unicreon.combat.out_of_range"
    )
    aimed = call({"op": "unicreon.combat.attack", **base, "distance": 60, "aim": True, "seed": 3})
    assert aimed["setup"]["attack"]["steps"] == 1 and cs.get(aimed["state"], robin)["actions"] == 0
    assert err({"op": "unicreon.combat.attack.odds", **base, "ranged": False}) == "unicreon.combat.not_melee"
    assert err({"op": "unicreon.combat.attack.odds", **base, "weapon": None, "ranged": True}) == (
        "unicreon.combat.ranged_needs_weapon"
    )


def test_thrown_knife_is_lost_until_picked_up():
    state, robin, wolf = fight()
    state = robin_turn(state, robin)
    knife = cs.get(state, robin)["weapons"][1]["uid"]
    req = {
        "op": "unicreon.combat.attack",
        "attacker": robin,
        "defender": wolf,
        "weapon": knife,
        "distance": 3,
    }
    state = call({**req, "state": state, "seed": 5})["state"]
    assert cs.get(state, robin)["lost"] == [knife]
    assert err({**req, "state": state, "seed": 6}) == "unicreon.combat.weapon_lost"
    state = call({"op": "unicreon.combat.pickup", "state": state, "cid": robin, "uid": knife})["state"]
    assert cs.get(state, robin)["lost"] == [] and cs.get(state, robin)["actions"] == 0


def test_melee_needs_contact_and_surprise_makes_defence_harder():
    state, robin, wolf = fight()
    state = robin_turn(state, robin)
    knife = cs.get(state, robin)["weapons"][1]["uid"]
    base = {"attacker": robin, "defender": wolf, "weapon": knife, "ranged": False}
    assert err({"op": "unicreon.combat.attack.odds", "state": state, **base}) == "unicreon.combat.not_engaged"
    state = call({"op": "unicreon.combat.engage", "state": state, "cid": robin, "target": wolf})["state"]
    plain = call({"op": "unicreon.combat.attack.odds", "state": state, **base})
    sneaky = call({"op": "unicreon.combat.attack.odds", "state": state, **base, "surprise": True})
    assert plain["setup"]["defence"]["target"] == 30 and sneaky["setup"]["defence"]["target"] == 40


def test_surprise_round_then_initiative():
    """ "Attaque par surprise": a free round for the attackers, then initiative as usual."""
    state, robin, wolf = fight()
    state = call({"op": "unicreon.combat.surprise", "state": state, "attackers": [robin]})["state"]
    assert state["phase"] == "surprise" and state["order"] == [robin]
    bow = cs.get(state, robin)["weapons"][0]["uid"]
    state = call(
        {
            "op": "unicreon.combat.attack",
            "state": state,
            "attacker": robin,
            "defender": wolf,
            "weapon": bow,
            "seed": 4,
        }
    )["state"]
    state = call({"op": "unicreon.combat.next", "state": state})["state"]
    assert state["phase"] == "setup"
    state = call({"op": "unicreon.combat.initiative", "state": state, "seed": 4})["state"]
    assert state["phase"] == "fight" and state["round"] == 1


def test_escape_two_actions_and_no_return_next_round():
    """ "Fuite": two actions always work; the foe cannot come back into contact next round."""
    state, robin, wolf = fight()
    state = robin_turn(state, robin)
    state = cb.engage(state, robin, wolf)
    assert (
        err(
            {
                "op": "unicreon.combat.escape",
                "state": state,
                "cid": robin,
                "from": wolf,
                "mode": "two_actions",
                "seed": 1,
            }
        )
        == "unicreon.combat.no_actions"
    )
    state = call({"op": "unicreon.combat.next", "state": state})["state"]
    state = call({"op": "unicreon.combat.next", "state": state})["state"]  # round 2, Robin again
    resp = call(
        {
            "op": "unicreon.combat.escape",
            "state": state,
            "cid": robin,
            "from": wolf,
            "mode": "two_actions",
            "seed": 1,
        }
    )
    state = resp["state"]
    assert (
        resp["escape"]["success"] and cs.get(state, robin)["engaged"] == [] == cs.get(state, wolf)["engaged"]
    )
    state = call({"op": "unicreon.combat.next", "state": state})["state"]  # MJ, round 2
    state = call({"op": "unicreon.combat.next", "state": state})["state"]  # Robin, round 3
    state = call({"op": "unicreon.combat.next", "state": state})["state"]  # MJ, round 3
    assert (
        err({"op": "unicreon.combat.engage", "state": state, "cid": wolf, "target": robin})
        == "unicreon.combat.blocked"
    )
    state = call({"op": "unicreon.combat.next", "state": state})["state"]
    state = call({"op": "unicreon.combat.next", "state": state})["state"]  # MJ, round 4
    call({"op": "unicreon.combat.engage", "state": state, "cid": wolf, "target": robin})


def test_escape_by_opposition_forced_dice_and_odds():
    """One action plus a plain Agilité opposition; the one escaping initiates and wins ties."""
    state, robin, wolf = fight()
    state = robin_turn(state, robin)
    state = cb.engage(state, robin, wolf)
    tie = cb.escape(state, robin, wolf, "opposition", ([3, 3], [3, 3]))
    assert tie["escape"]["success"] and cs.get(tie["state"], robin)["actions"] == 0
    lose = cb.escape(state, robin, wolf, "opposition", ([3, 3], [3, 4]))
    assert not lose["escape"]["success"] and wolf in cs.get(lose["state"], robin)["engaged"]
    odds = call(
        {
            "op": "unicreon.combat.escape.odds",
            "state": state,
            "cid": robin,
            "from": wolf,
            "mode": "opposition",
        }
    )
    assert odds["success"]["p"] == "37/72"  # P(a ≥ b) over 36 × 36 = (1296 + 36) / 2592


def test_down_at_zero_and_end_copies_pv_back():
    state, robin, _wolf = fight()
    state = call({"op": "unicreon.combat.adjust", "state": state, "cid": robin, "pv_delta": -20})["state"]
    assert cs.get(state, robin)["pv"] == 0 and cs.get(state, robin)["down"] == "down"
    state = call({"op": "unicreon.combat.adjust", "state": state, "cid": robin, "down": "unconscious"})[
        "state"
    ]
    end = call({"op": "unicreon.combat.end", "state": state})
    assert end["characters"] == [{"character_id": "robin", "pv": 0, "down": "unconscious"}]
    back = call({"op": "unicreon.combat.apply", "state": end["state"], "character": archer()})["character"]
    assert back["pv"] == 0 and back["down"] == "unconscious"


def test_damage_can_drop_defender_to_zero():
    state, robin, wolf = fight()
    state = robin_turn(state, robin)
    state = cb.engage(state, robin, wolf)
    res = pa.attack(state, {"attacker": robin, "defender": wolf, "weapon": None}, [6, 6], [1, 1])
    assert res["defender_pv"] == 5 and res["exchange"]["pv_lost"] == 1
    cs.get(res["state"], wolf)["pv"] = 1
    cs.get(res["state"], robin)["actions"] = 1
    res = pa.attack(res["state"], {"attacker": robin, "defender": wolf}, [6, 6], [1, 1])
    assert res["defender_pv"] == 0 and cs.get(res["state"], wolf)["down"] == "down"
