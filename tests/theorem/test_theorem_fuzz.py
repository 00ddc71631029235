"""Every Théorem op, fed requests its own schema allows, answers or returns a declared error.

The generic fuzz (tests/test_api_core.py) mostly produces table states the validator refuses;
here the generated request's ``state`` is swapped for real tables (fresh, with hands drawn,
an action waiting on a figure, a chase running), so the rules themselves are exercised.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from th_helpers import character, force_top

from tablee.api import handle
from tablee.errors import declared_codes
from tablee.registry import OPS

pytestmark = pytest.mark.slow

MINE = sorted(n for n in OPS if n.startswith("theorem."))


def _tables() -> list[dict]:
    fresh = handle({"op": "theorem.state.new", "seed": 1})["state"]
    c = character("josh", humanite=1, divinite=3)
    st1 = handle({"op": "theorem.hand.draw", "state": fresh, "character": c, "seed": 2})["state"]
    st1 = handle({"op": "theorem.mk.hand", "state": st1, "size": 4, "seed": 3})["state"]
    st2 = force_top(st1, "epee-roi")
    b = handle({"op": "theorem.action.begin", "state": st2, "character": c, "sphere": "humanite", "modifier": 0})
    st2 = handle({"op": "theorem.action.draw", "state": b["state"], "character": b["character"], "seed": 4})["state"]
    st3 = handle({"op": "theorem.chase.start", "state": st1, "target": 3,
                  "a": {"name": "A", "base": 5, "start": 0}, "b": {"name": "B", "base": 5, "start": 0}})["state"]
    return [fresh, st1, st2, st3]


TABLES = _tables()
CODES = declared_codes()


def _light(schema: dict) -> dict:
    """The op's schema with the table state and the character left to the test (drawing a whole
    card state from its schema takes seconds and the validator refuses nearly all of them)."""
    out = copy.deepcopy(schema)
    for key in ("state", "character"):
        if key in out["properties"]:
            out["properties"][key] = {"type": "null"}
    return out


LIGHT = {name: _light(OPS[name].schema) for name in MINE}
SHEET = {k: v for k, v in OPS["theorem.hand.draw"].schema["properties"]["character"].items()}


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), which=st.integers(0, len(TABLES) - 1), real_char=st.booleans())
def test_theorem_ops_answer_or_refuse_with_a_declared_code(data, which, real_char):
    for name in MINE:
        request = data.draw(from_schema(LIGHT[name]), label=name)
        if "state" in request:
            request["state"] = json.loads(json.dumps(TABLES[which]))
        if "character" in request:
            request["character"] = (
                character("josh", humanite=1, divinite=3) if real_char else data.draw(from_schema(SHEET), label="sheet")
            )
        if "character_id" in request and real_char:
            request["character_id"] = "josh"
        response = handle(request)
        json.dumps(response)
        if "error" in response:
            code = response["error"]["code"]
            assert code in CODES, (name, response)
            assert code not in {"request.internal", "request.invalid"}, (name, request, response)
        elif "state" in response:
            assert handle({"op": "theorem.view.player", "state": response["state"]}).get("view"), name
