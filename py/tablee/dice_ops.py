"""The generic dice ops: ``roll`` (seeded, replayable) and ``odds`` (exact fractions).

``roll`` request: ``{"op": "roll", "expr": str, "seed": int}``; response: the roll JSON of
:meth:`tablee.dice.RollResult.to_json` plus ``"seed"``. Same expr + seed => same result.
``odds`` request: ``{"op": "odds", "expr": str, "at_least"?: int}``; response:
:func:`tablee.odds.odds_json`. Grammar, readings and bounds: :mod:`tablee.dice`, :mod:`tablee.odds`.
"""

from __future__ import annotations

from typing import Any

from .dice import MAX_LENGTH, parse, roll
from .odds import odds_json
from .registry import SEED_SCHEMA, op, rng_from

__all__: list[str] = []

_EXPR_SCHEMA: dict[str, Any] = {"type": "string", "maxLength": MAX_LENGTH}
#: Totals can never leave ±(100000 × 20 + 100 × 1000); a wider bound still keeps the fuzzer honest.
_AT_LEAST_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": -10_000_000, "maximum": 10_000_000}


@op(
    "roll",
    properties={"expr": _EXPR_SCHEMA, "seed": SEED_SCHEMA},
    required=("expr", "seed"),
    summary="Roll a dice expression (NdS, khK/klK/dhK/dlK, d66, d100) with a seed; every die is returned.",
)
def _roll(request: dict[str, Any]) -> dict[str, Any]:
    expression = parse(request["expr"])
    result = roll(expression, rng_from(request)).to_json()
    result["seed"] = request["seed"]
    return result


@op(
    "odds",
    properties={"expr": _EXPR_SCHEMA, "at_least": _AT_LEAST_SCHEMA},
    required=("expr",),
    summary="Exact distribution of a dice expression (fractions), with P(total >= at_least) on request.",
)
def _odds(request: dict[str, Any]) -> dict[str, Any]:
    return odds_json(parse(request["expr"]), at_least=request.get("at_least"))
