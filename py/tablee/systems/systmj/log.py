"""SYSTMJ's moves logged as its pages log them (:mod:`tablee.referee_log`)."""

from __future__ import annotations

from typing import Any

from ...referee_log import as_sent, dice_term, verify_record
from ...system import Recipe

__all__ = ["RECIPES"]


# SYSTMJ (000_d267ce9097809d3e.txt, d100 roll-under; 2.3 learning): systmj/test.js logs the
# request as sent, the roll, one d100 term and VERIFY_KEYS; learning.js the capped roll and its term.
_SJ_KEYS = ("dice", "roll", "effective", "outcome", "degree", "success")


def _sj_test_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"terms": [dice_term("d100", "d100", answer["dice"])] if answer.get("dice") else [],
                           "verify": verify_record(answer, _SJ_KEYS)}
    if answer.get("roll") is not None:
        out["total"] = answer["roll"]
    return out


def _sj_learning_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return {"total": answer.get("capped"), "terms": [dice_term("d100", "d100", answer.get("dice"))]}


#: op name -> how the referee logs it as the page does.
RECIPES: dict[str, Recipe] = {
    "systmj.test": Recipe(as_sent, _sj_test_result),
    "systmj.learning.roll": Recipe(as_sent, _sj_learning_result),
}
