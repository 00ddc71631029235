"""Versality's moves logged as its page logs them (:mod:`tablee.referee_log`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ... import store_shape
from ...referee_kernel import is_members, outcome_into, worded
from ...referee_log import hidden_deck, verify_record
from ...system import Recipe

__all__ = ["RECIPES"]


# Versality (001_28decc945b538010.txt, "Le tirage": draw, choose or take the worst): versality/
# test.js logs the draw with the deck it used, the count drawn and the digest of the cards drawn
# (versality.draw.replay); the resolution joins that entry (:func:`tablee.referee_kernel.log_run`).
def _vs_draw_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    test = answer.get("test") if isinstance(answer.get("test"), dict) else {}
    character = request.get("character") if isinstance(request.get("character"), dict) else {}
    return {"op": "versality.test.draw", "characteristic": request.get("characteristic"), "skill": request.get("skill"),
            "difficulty": request.get("difficulty"), "character_id": character.get("id"), "count": test.get("count"),
            "deck": hidden_deck(test.get("deck_used"), ctx["seed"])}


def _vs_draw_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    test = answer.get("test") if isinstance(answer.get("test"), dict) else {}
    drawn = [d.get("id") for d in test.get("drawn", []) if isinstance(d, dict)]
    return {"verify": verify_record({"drawn": [drawn]}, ("drawn",))}


def _no_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    return {}


def join_draw(log: list[Any], member: Mapping[str, Any], entry: dict[str, Any], answer: Any,
              words: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """A resolution (001_28decc945b538010.txt, "Le tirage": the card played) logged as the page
    logs a test: one entry, the draw's (its request with the deck, the count and the seed that
    replay it, its ``verify``), the resolution's request under ``resolve`` and its outcome in
    the result (static/js/systems/versality/test.js). The entry completed is the member's last
    draw of that character not resolved yet; None when there is none (the resolution is then
    logged alone). The resolution's seed is not logged: it reshuffles the hidden deck. The
    resolution's own label, when it carries one, names the test, with its words; its result
    line is the referee's (:func:`tablee.referee_kernel.outcome_into`)."""
    logged, result, now = entry["request"], entry["result"], entry["at"]
    label = words.get("label")
    cid = logged.get("character_id")
    at = next((i for i in range(len(log) - 1, -1, -1)
               if isinstance(log[i], dict) and is_members(log[i])
               and log[i]["member"].get("id") == member["id"]
               and isinstance(log[i].get("request"), dict)
               and log[i]["request"].get("op") == "versality.test.draw"
               and log[i]["request"].get("character_id") == cid
               and "resolve" not in log[i]["request"]), -1)
    if at < 0:
        return None
    draw = log[at]
    resolve = {k: v for k, v in logged.items() if k != "seed"}
    merged = {**draw, "at": now, "kind": "versality.test", "request": {**draw["request"], "resolve": resolve},
              **({"label": label[:200]} if label else {}),
              "result": {**result, **({"verify": draw["result"]["verify"]} if isinstance(draw.get("result"), dict)
                                      and "verify" in draw["result"] else {})}}
    if len(json.dumps(merged["result"])) > store_shape.MAX_ENTRY_SIZE:
        merged["result"] = {k: v for k, v in merged["result"].items()
                            if isinstance(v, (int, str, bool)) or v is None or k == "verify"}
    return at, outcome_into(worded(merged, words) if label else merged, "versality.test.resolve", logged, answer)


#: op name -> how the referee logs it as the page does.
RECIPES: dict[str, Recipe] = {
    "versality.test.draw": Recipe(_vs_draw_request, _vs_draw_result),
    "versality.test.resolve": Recipe(None, _no_result, join=join_draw),
}
