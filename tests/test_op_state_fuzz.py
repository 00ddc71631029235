"""Every op that takes a state, fed a state it did not make, answers or refuses: never
``request.internal``.

A live peer or a hand-edited file can send any state; the engine checks the state of every
request against the state's schema and its system's rules before the op uses it (one check in
``api.handle``, see :data:`tablee.registry.STATE_GUARDS`). Here each op gets requests drawn
from its own schema, with a real state (fresh, or played a little) mutated 1 to 3 times: a key
dropped, a value's type changed, a key renamed.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from op_state_probes import PROBES, STATES, mutate, ok, state_kind, structural_probes, theorem_character
from tablee import registry
from tablee.api import handle
from tablee.errors import declared_codes

pytestmark = pytest.mark.slow

CODES = declared_codes()


STATE_OPS = sorted(n for n in registry.OPS if state_kind(n))


def _light(schema: dict[str, Any]) -> dict[str, Any]:
    """The op's schema without its state (and its characters: drawing them is slow and nearly
    always refused), which the test supplies."""
    out = copy.deepcopy(schema)
    for key in ("state", "character", "characters"):
        if key in out["properties"]:
            out["properties"][key] = {"type": "null"}
    return out


def _characters(name: str) -> dict[str, Any]:
    """Real characters for ops that take some (else the request is refused before the state)."""
    props = registry.OPS[name].schema["properties"]
    system = registry.OPS[name].system
    one = None
    if system == "theorem":
        one = theorem_character("josh")
    elif system == "unicreon":
        one = ok({"op": "unicreon.character.new", "id": "uc-fuzz"})["character"]
    out: dict[str, Any] = {}
    if one is not None and "character" in props:
        out["character"] = one
    if one is not None and "characters" in props:
        out["characters"] = [one]
    return out


@pytest.mark.parametrize("name", STATE_OPS)
def test_no_op_crashes_on_a_mutated_state(name):
    kind = state_kind(name)
    light = _light(registry.OPS[name].schema)
    extra = _characters(name)

    # Drawing a request from a big schema is the slow part (about 0.5 s for a SYSTMJ combat
    # request): each request drawn carries three mutated states, 12 states for 4 requests.
    @settings(max_examples=4, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data(), which=st.integers(0, 1), seed=st.integers(0, 2**32))
    def check(data, which, seed):
        drawn = data.draw(from_schema(light), label=name)
        for key in ("character", "characters"):
            drawn.pop(key, None)
        drawn.update(extra)
        pool = STATES[kind]
        for n in range(3):
            request = copy.deepcopy(drawn)
            request["state"] = mutate(pool[(which + n) % len(pool)], seed + n)
            response = handle(request)
            json.dumps(response)
            if "error" in response:
                err = response["error"]
                assert err["code"] in CODES, err
                assert err["code"] != "request.internal", (seed + n, err)

    check()


@pytest.mark.parametrize("kind", sorted(PROBES))
def test_every_place_of_every_state_dropped_or_retyped_is_refused_or_answered(kind):
    crashes = []
    for state in STATES[kind]:
        for bad in structural_probes(state):
            response = handle({**PROBES[kind], "state": bad})
            if response.get("error", {}).get("code") == "request.internal":
                crashes.append(response["error"]["params"])
    assert not crashes, (len(crashes), crashes[:5])


def test_a_hand_without_owner_is_refused_not_a_crash():
    """The probe that found it: a Théorem hand pile lacking ``owner`` (a peer can send one)."""
    state = copy.deepcopy(STATES["theorem"][1])
    del state["arcana"]["josh"]["piles"]["hand"]["owner"]
    for request in ({"op": "theorem.view.player", "state": state},
                    {"op": "theorem.retest.status", "state": state, "character_id": "josh"},
                    {"op": "theorem.retest.clear", "state": state, "character_id": "josh"},
                    {"op": "theorem.turn.next", "state": state}):
        err = handle(request)["error"]
        assert err["code"] != "request.internal", err
        assert err["params"].get("field", "").startswith("arcana.josh"), err
