"""Unicreon's passe d'armes: an attack's checks and targets, the exchange from given dice, the
attack played on the tracker, and its exact odds. Pure state in → state out, like combat.py (which
re-exports these names).

Source: 004_12a5de9999b9d0ad.txt, "Combats": "Règles de combat" ("Passer d'armes", "Description
des armes", "Combat au contact", "Armures et boucliers", "Combat à distance"), "Combat avancé"
("Attaque par surprise", "Combat à plusieurs").

Readings (beyond rules/README.md, Unicreon):
- Range: beyond the ideal range and up to halfway to the maximum the attack is one step harder
  (Difficile), beyond that up to the maximum two steps (Très difficile); beyond the maximum the
  shot is refused. Aiming costs one action and lowers the attack difficulty one step.
- "avec malus" weapons make their wielder's attack test one step harder.
- A melee attack needs the two to be engaged (engaging costs one action).
- The multi-attacker malus counts the distinct melee attackers of the defender this round.
- An NPC without weapon uses its profile's damage with its attack characteristic (tiers:
  Puissance; beasts: see data.BESTIARY).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tablee.errors import RulesError

from ...tree import clone
from .combat_state import _actor, get
from .resolution import D66, frac, resolve_test, target


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
