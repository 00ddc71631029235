"""Théorem's moves logged as its pages log them (:mod:`tablee.referee_log`)."""

from __future__ import annotations

from typing import Any

from ...referee_log import hidden_deck, verify_record
from ...system import Recipe

__all__ = ["RECIPES"]


# Théorem (003_0f8319d4d007e1fe.txt, "2) Les actions", "3) Les actions d'opposition"):
# theorem/table.js and opposition.js log the draw with the deck it used and the digest of the
# cards drawn, chain by chain (theorem.draw.replay draws them again).
def _pile(state: Any) -> dict[str, Any]:
    piles = state.get("deck", {}).get("piles", {}) if isinstance(state, dict) else {}
    return {"draw": piles.get("draw", {}).get("cards", []), "discard": piles.get("discard", {}).get("cards", [])}


def _th_action_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    character = request.get("character") if isinstance(request.get("character"), dict) else {}
    return {"op": "theorem.action.draw", "character_id": character.get("id"),
            "deck": hidden_deck(answer.get("deck_used") or _pile(ctx.get("state")), ctx["seed"])}


def _th_action_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    card = (answer.get("result") or {}).get("card") or {}
    return {"verify": verify_record({"drawn": [[card.get("id")]]}, ("drawn",))}


def _th_opposition_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    res = answer.get("result") if isinstance(answer.get("result"), dict) else {}
    sides = {k: {**request[k], "base": res.get(f"base_{k}")} for k in ("a", "b") if isinstance(request.get(k), dict)}
    return {"op": "theorem.opposition.draw", **sides, "deck": hidden_deck(answer.get("deck_used"), ctx["seed"])}


def _th_opposition_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    res = answer.get("result") if isinstance(answer.get("result"), dict) else {}
    chains = [[c.get("id") for c in res.get(f"chain_{k}", []) if isinstance(c, dict)] for k in ("a", "b")]
    return {"verify": verify_record({"drawn": chains}, ("drawn",))}


def _th_side_request(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """The side drawn, the deck, and who plays each side (their character ids and names as the
    opposition held them: what its result line names, so a replay words it the same)."""
    held = ctx["state"].get("opposition") if isinstance(ctx.get("state"), dict) else None
    sides = {k: {f: v[f] for f in ("character_id", "name") if f in v}
             for k, v in (held.items() if isinstance(held, dict) else ()) if k in ("a", "b") and isinstance(v, dict)}
    return {"op": "theorem.opposition.side", "side": request.get("side"),
            "deck": hidden_deck(answer.get("deck_used"), ctx["seed"]), **({"sides": sides} if sides else {})}


def _th_side_result(request: dict[str, Any], answer: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    chain = [c.get("id") for c in answer.get("chain", []) if isinstance(c, dict)]
    return {"verify": verify_record({"drawn": [chain]}, ("drawn",))}


#: op name -> how the referee logs it as the page does.
RECIPES: dict[str, Recipe] = {
    "theorem.action.draw": Recipe(_th_action_request, _th_action_result),
    "theorem.opposition.draw": Recipe(_th_opposition_request, _th_opposition_result),
    "theorem.opposition.side": Recipe(_th_side_request, _th_side_result),
}
