"""Unicreon's moves logged as its pages log them (:mod:`tablee.referee_log`)."""

from __future__ import annotations

from typing import Any

from ...referee_log import dice_term, side_name, verify_record, without
from ...system import Recipe

__all__ = ["RECIPES"]


# Unicreon (004_12a5de9999b9d0ad.txt, "Les tests": d66 ≥ characteristic + difficulty − skill):
# unicreon/test.js logs the test without the character (its value and its items' steps), the
# raw result, one d66 term and VERIFY_KEYS.
_UC_KEYS = ("dice", "raw", "real", "target", "success", "band")


def _uc_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    asked = request.get("test") if isinstance(request.get("test"), dict) else {}
    test: dict[str, Any] = {"value": answer.get("value"), "difficulty": asked.get("difficulty"),
                            "bonus": asked.get("bonus"), "malus": asked.get("malus")}
    character = ctx.get("character") or {}
    inventory = [i for i in character.get("inventory", []) if isinstance(i, dict)]
    steps = sum(next((i.get("bonus_steps", 0) or 0 for i in inventory if i.get("uid") == uid), 0)
                for uid in answer.get("items_counted") or [])
    if steps:
        test["item_steps"] = steps
    if asked.get("skill"):
        test["skill"] = asked["skill"]
    return {"op": "unicreon.test", "test": test, "seed": ctx["seed"]}


def _uc_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return {"total": answer.get("raw"), "terms": [dice_term("d66", "d66", answer.get("dice"))],
            "verify": verify_record(answer, _UC_KEYS)}


# Unicreon's passe d'armes ("Le combat"): unicreon/combat.js logs the PV lost and each side's
# d66, named by its fighter (no verify record: it replays only with the fight's state).
def _uc_attack_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return without(request, "state", "seed")


def _uc_attack_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    exchange = answer.get("exchange") if isinstance(answer.get("exchange"), dict) else {}
    fighters = (ctx.get("state") or {}).get("combatants", [])
    name = {f.get("cid"): f.get("name") for f in fighters if isinstance(f, dict)}
    terms = [dice_term("d66", str(name.get(request.get(side)) or "d66")[:80], (exchange.get(side) or {}).get("dice"))
             for side in ("attacker", "defender")]
    return {"total": exchange.get("pv_lost"), "terms": terms}



def _uc_opposition_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return {"terms": [dice_term("d66", side_name(request, k, "d66"), (answer.get(k) or {}).get("dice"))
                      for k in ("a", "b")]}


#: op name -> how the referee logs it as its page does (module docstring). An op listed nowhere


#: op name -> how the referee logs it as the page does.
RECIPES: dict[str, Recipe] = {
    "unicreon.test": Recipe(_uc_request, _uc_result),
    "unicreon.combat.attack": Recipe(_uc_attack_request, _uc_attack_result),
    "unicreon.opposition": Recipe(None, _uc_opposition_result),
}
