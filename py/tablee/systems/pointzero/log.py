"""Point Zéro's moves logged as its page logs them (:mod:`tablee.referee_log`)."""

from __future__ import annotations

from typing import Any

from ...referee_log import dice_term, verify_record, without
from ...system import Recipe

__all__ = ["RECIPES"]


# Point Zéro (002_61483667e16cef6b.txt, "Règles de base": skill-level d6, attribute-level kept):
# static/js/systems/pointzero/test.js logs the self-contained request and VERIFY_KEYS ["result"].
# The character whose roll it is goes in the result (``character_id``: a Méticuleux choice names
# the entry, tablee/systems/pointzero/moves.py), the request staying the op's own.
def _pz_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    if request.get("op") != "pointzero.test.roll":
        # a Méticuleux choice (pointzero.test.resolve on the dice of the roll it names): no seed
        return without(request, "state", "character_id")
    return {**without(request, "state", "character_id"), "seed": ctx["seed"]}


def _pz_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    res = answer.get("result") if isinstance(answer.get("result"), dict) else {}
    plan = answer.get("plan") if isinstance(answer.get("plan"), dict) else {}
    character = ctx.get("character") or {}
    out = {"total": res.get("total"), "character_id": character.get("id"),
           "terms": [dice_term("dice", f"{plan.get('dice') or len(res.get('dice') or [])}d6", res.get("dice"),
                                kept=True)]}
    if request.get("op") == "pointzero.test.roll":
        out["verify"] = verify_record(answer, ("result",))
    return out



# Oppositions of two tests (Point Zéro, "Les oppositions"; Unicreon, "Les oppositions"): the
# pages log each side's dice as a term named by its side (pointzero/test.js, unicreon/test.js).
def side_name(request: dict[str, Any], key: str, fallback: str) -> str:
    side = request.get(key)
    name = side.get("name") if isinstance(side, dict) else None
    return name[:80] if isinstance(name, str) and name else fallback


def _pz_opposition_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    if isinstance(answer.get("sides"), list):
        asked = request.get("sides") if isinstance(request.get("sides"), list) else []
        pairs = [(s, asked[i] if i < len(asked) and isinstance(asked[i], dict) else {})
                 for i, s in enumerate(answer["sides"])]
    else:
        pairs = [(answer.get(k), request.get(k) if isinstance(request.get(k), dict) else {}) for k in ("a", "b")]
    terms = []
    for rolled, side in pairs:
        res = rolled.get("result") if isinstance(rolled, dict) and isinstance(rolled.get("result"), dict) else {}
        dice = res.get("dice") if isinstance(res.get("dice"), list) else []
        name = side.get("name") if isinstance(side.get("name"), str) and side.get("name") else f"{len(dice)}d6"
        terms.append(dice_term("dice", name[:80], dice, kept=True))
    return {"terms": terms}


#: op name -> how the referee logs it as the page does.
RECIPES: dict[str, Recipe] = {
    "pointzero.test.roll": Recipe(_pz_request, _pz_result),
    "pointzero.opposition.roll": Recipe(None, _pz_opposition_result),
}
