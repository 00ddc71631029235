"""Unicreon health: damage, care items, poisons/diseases/infections, rest, new adventure.

Source: 004_12a5de9999b9d0ad.txt, "Gestion de la santé" ("Blessures", "Poisons et maladies",
"Soins", "Repos"), "Points de vie" and "Objets ayant un effet". PV never go above the max nor
below zero; at 0 PV the character is down, unconscious or dead at the MJ's choice.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from tablee.errors import RulesError, declare

from ...tree import clone
from .character import find_item
from .resolution import frac

__all__ = [
    "afflict",
    "apply_damage",
    "apply_heal",
    "condition_day",
    "condition_day_odds",
    "cure",
    "new_adventure",
    "rest",
    "set_down",
    "use_item",
]

declare(
    "unicreon.item.not_usable",
    "unicreon.item.no_condition",
    "unicreon.health.not_diagnosed",
    "unicreon.health.unknown_condition",
    "unicreon.health.dead",
    "unicreon.item.full_pv",
    "unicreon.item.needs_target",
    "unicreon.item.not_infection",
)


def apply_damage(character: dict[str, Any], amount: int) -> dict[str, Any]:
    """Lose PV (floor 0); at 0 PV the character is "down" until the MJ rules unconscious or dead.

    Source: "Gestion de la santé" (zéro point de vie: inconscient ou mort, au choix de la MJ)."""
    out = clone(character)
    out["pv"] = max(0, out["pv"] - max(0, amount))
    if out["pv"] == 0 and out["down"] is None:
        out["down"] = "down"
    return out


def apply_heal(character: dict[str, Any], amount: int) -> dict[str, Any]:
    """Regain PV, never above the max. A dead character cannot be healed.

    Source: "Points de vie" (sans dépasser leur nombre initial). Reading: PV regained above 0
    wake an unconscious or down character."""
    if character["down"] == "dead":
        raise RulesError("unicreon.health.dead")
    out = clone(character)
    out["pv"] = min(out["pv_max"], out["pv"] + max(0, amount))
    if out["pv"] > 0:
        out["down"] = None
    return out


def set_down(character: dict[str, Any], state: str | None) -> dict[str, Any]:
    """The MJ's choice for a character at 0 PV: "unconscious" or "dead" (or clears it)."""
    out = clone(character)
    out["down"] = state
    return out


def use_item(
    character: dict[str, Any], uid: str, *, target: dict[str, Any] | None = None, condition: int | None = None
) -> dict[str, Any]:
    """Use an item with limited uses: one use is spent (the item is gone at 0).

    - A care item heals its PV. Reading (the text is silent): an item that only heals is REFUSED
      (``unicreon.item.full_pv``) when the patient is already at full PV, so no use is wasted.
    - An antidote cures a diagnosed condition, and gives its ``heal`` PV too. "Soins": "il faut
      utiliser un antidote ou un médicament, qui fera regagner un nombre fixe de PV"; the price
      list gives no number for the antidote (0 PV, see data.GEAR): the MJ's custom care item
      (cures + heal N, like the text's "médicament [3 PV]") carries the number.
    - A care item that heals (bandage, trousses) used with ``condition`` on an infected wound
      dresses it: the infection ends and leaves the sheet, and the PV are regained. "Blessures":
      an infection costs 1d6 PV a day "jusqu'à ce que la blessure soit soignée correctement";
      "Soins": "Pour panser une blessure, il faut utiliser une trousse de premiers soins ou quelque
      chose d'équivalent". Reading: the wound is in sight, so no diagnosis is needed (the
      diagnosis is for poisons and diseases "si la cause n'est pas connue"), and it may be
      dressed at full PV. A poison or a disease needs its cure (antidote, médicament).
    - An item that ``afflicts`` (the Poison: "Perte de 1d6 PV par jour") needs a ``target`` and
      gives it that condition, undiagnosed (reading: the victim does not know the cause, so the
      "Soins" diagnosis applies before an antidote); it then costs 1d6 PV per adventure day.

    Source: "Soins" (bandage 1 PV, trousses 2/4 PV), "Liste d'équipement" (uses), "Poisons et
    maladies" / "Soins" (antidote after a diagnosis). Returns {"character", "target"}: the target
    is the patient or victim (the user when ``target`` is None)."""
    user = clone(character)
    item = find_item(user, uid)
    afflicts = item.get("afflicts")
    if item["uses"] is None and not item["heal"] and not item["cures"] and not afflicts:
        raise RulesError("unicreon.item.not_usable", uid=uid)
    if item["uses"] == 0:
        raise RulesError("unicreon.item.not_usable", uid=uid)
    if afflicts and target is None:
        raise RulesError("unicreon.item.needs_target", uid=uid)
    patient = user if target is None else clone(target)
    if patient["down"] == "dead" and (item["heal"] or item["cures"]):
        raise RulesError("unicreon.health.dead")
    dressing = bool(item["heal"]) and not item["cures"] and not afflicts and condition is not None
    if dressing:
        if not 0 <= condition < len(patient["conditions"]):
            raise RulesError("unicreon.item.no_condition", uid=uid)
        if patient["conditions"][condition]["kind"] != "infection":
            raise RulesError("unicreon.item.not_infection", uid=uid, index=condition)
        del patient["conditions"][condition]
    elif item["heal"] and not item["cures"] and not afflicts and patient["pv"] >= patient["pv_max"]:
        raise RulesError("unicreon.item.full_pv", uid=uid, pv=patient["pv"], pv_max=patient["pv_max"])
    if item["cures"]:
        if condition is None or not 0 <= condition < len(patient["conditions"]):
            raise RulesError("unicreon.item.no_condition", uid=uid)
        if not patient["conditions"][condition]["diagnosed"]:
            raise RulesError("unicreon.health.not_diagnosed", index=condition)
        del patient["conditions"][condition]
    if item["heal"]:
        patient["pv"] = min(patient["pv_max"], patient["pv"] + item["heal"])
        if patient["pv"] > 0 and patient["down"] != "dead":
            patient["down"] = None
    if afflicts:
        patient = afflict(patient, afflicts, item["name"])
    if item["uses"] is not None:
        item["uses"] -= 1
        if item["uses"] == 0:
            user["inventory"].remove(item)
    if target is None:
        return {"character": patient, "target": patient}
    return {"character": user, "target": patient}


def afflict(
    character: dict[str, Any], kind: str, name: str = "", *, diagnosed: bool = False
) -> dict[str, Any]:
    """Add a poison, disease or infected wound. Source: "Blessures", "Poisons et maladies"."""
    out = clone(character)
    if len(out["conditions"]) >= 20:
        raise RulesError("unicreon.health.unknown_condition", index=len(out["conditions"]))
    out["conditions"].append({"kind": kind, "name": name, "diagnosed": diagnosed})
    return out


def cure(character: dict[str, Any], index: int) -> dict[str, Any]:
    """End a condition: it leaves the sheet (no PV change). For the cures the app cannot see: an
    infected wound "soignée correctement" by other means, a poison or disease that ran its course
    ("pendant une certaine durée") or that a remedy the MJ allows has cured. Source: "Blessures",
    "Poisons et maladies"; the MJ's ruling ("Principes de simplicité")."""
    if not 0 <= index < len(character["conditions"]):
        raise RulesError("unicreon.health.unknown_condition", index=index)
    out = clone(character)
    del out["conditions"][index]
    return out


def diagnosed(character: dict[str, Any], index: int) -> dict[str, Any]:
    """Mark a condition as diagnosed (after a successful Perception test, difficulty Moyen)."""
    if not 0 <= index < len(character["conditions"]):
        raise RulesError("unicreon.health.unknown_condition", index=index)
    out = clone(character)
    out["conditions"][index]["diagnosed"] = True
    return out


def condition_day(character: dict[str, Any], dice: list[int]) -> dict[str, Any]:
    """One adventure day: each condition costs 1d6 PV (``dice``, one per condition, in order).

    Source: "Poisons et maladies" (1d6 PV par journée d'aventure by default) and "Blessures"
    (an infection is handled like a disease)."""
    return apply_damage(character, sum(dice)) if dice else clone(character)


def condition_day_odds(n: int) -> dict[str, Any]:
    """Exact distribution of the PV lost in a day with ``n`` conditions (sum of n d6)."""
    dist = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for total, w in dist.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + w
        dist = nxt
    den = 6**n
    return {
        str(k): {"p": frac(Fraction(w, den)), "percent": round(100 * w / den, 2)}
        for k, w in sorted(dist.items())
    }


def roll_condition_dice(character: dict[str, Any], rng: random.Random) -> list[int]:
    return [rng.randrange(6) + 1 for _ in character["conditions"]]


def rest(character: dict[str, Any], kind: str) -> dict[str, Any]:
    """Rest: "short" (several hours) gives 1 PV; "full" (a day and a night in good comfort) gives
    half the PV lost, rounded down. Source: "Repos"."""
    lost = character["pv_max"] - character["pv"]
    gain = 1 if kind == "short" else lost // 2
    return apply_heal(character, gain)


def new_adventure(character: dict[str, Any]) -> dict[str, Any]:
    """Back to full health at the start of an adventure. Source: "Points de vie" (La santé revient
    à son maximum au début de chaque aventure). Reading: conditions are cured with it; the dead
    stay dead."""
    if character["down"] == "dead":
        raise RulesError("unicreon.health.dead")
    out = clone(character)
    out["pv"] = out["pv_max"]
    out["down"] = None
    out["conditions"] = []
    return out
