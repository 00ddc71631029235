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
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from tablee import registry
from tablee.api import handle
from tablee.errors import declared_codes

pytestmark = pytest.mark.slow

CODES = declared_codes()
#: Values a mutation puts in place of another (whole floats are left out: another change
#: reads 3.0 as 3 in the API layer).
ODD = [None, True, "x", "", 0.5, -1, 10**30, [], {}, [1], {"owner": 1}, "__proto__"]


def _ok(request: dict[str, Any]) -> dict[str, Any]:
    response = handle(request)
    assert "error" not in response, response
    return response


def _theorem_character(cid: str) -> dict[str, Any]:
    return {
        "id": cid, "system": "theorem", "name": cid.title(),
        "spheres": {"animalite": 4, "humanite": 3, "divinite": 2},
        "skills": [{"name": "Escalade", "level": 2}], "realite": 20, "des_ka": 3, "ka_card": None, "notes": "",
    }


def _states() -> dict[str, list[dict[str, Any]]]:
    """Real states by kind (the system they belong to, ``combat`` for Unicreon's tracker,
    ``cards`` for a bare card state): fresh ones and ones played a little."""
    th = _ok({"op": "theorem.state.new", "seed": 1})["state"]
    th2 = _ok({"op": "theorem.hand.draw", "state": th, "character": _theorem_character("josh"), "seed": 2})["state"]
    th2 = _ok({"op": "theorem.mk.hand", "state": th2, "size": 4, "seed": 3})["state"]
    combat = _ok({"op": "unicreon.combat.new"})["state"]
    uni = _ok({"op": "unicreon.character.new", "id": "uc-fuzz"})["character"]
    combat2 = _ok({"op": "unicreon.combat.add_npc", "state": combat, "tier": "moyen", "count": 2})["state"]
    combat2 = _ok({"op": "unicreon.combat.add_character", "state": combat2, "character": uni})["state"]
    deck = _ok({"op": "cards.deck.new", "seed": 1,
                "definitions": [{"id": f"c{i}", "kind": "number", "value": i} for i in range(6)]})["state"]
    deck2 = _ok({"op": "cards.draw", "state": deck, "count": 2, "to": "discard", "seed": 2})["state"]
    return {
        "theorem": [th, th2],
        "systmj": [_ok({"op": "systmj.state.new"})["state"]],
        "versality": [_ok({"op": "versality.state.new"})["state"]],
        "pointzero": [_ok({"op": "pointzero.state.new"})["state"]],
        "combat": [combat, combat2],
        "cards": [deck, deck2],
    }


STATES = _states()


def _kind(name: str) -> str | None:
    """Which states the op's ``state`` property takes (None: not a state this fuzz knows)."""
    op = registry.OPS[name]
    schema = op.schema["properties"].get("state")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return None
    if name.startswith("cards."):
        return "cards"
    if name.startswith("unicreon.combat."):
        return "combat"
    return op.system if op.system in STATES else None


STATE_OPS = sorted(n for n in registry.OPS if _kind(n))


def _light(schema: dict[str, Any]) -> dict[str, Any]:
    """The op's schema without its state (and its characters: drawing them is slow and nearly
    always refused), which the test supplies."""
    out = copy.deepcopy(schema)
    for key in ("state", "character", "characters"):
        if key in out["properties"]:
            out["properties"][key] = {"type": "null"}
    return out


def _walk(value: Any, rng: random.Random) -> tuple[Any, Any] | None:
    """A (container, key) reached by a random walk from the root, each level's children equally
    likely, stopping at a leaf or, at each step, with probability 1/5: every depth gets its
    share, however wide the deck beside it."""
    spot = None
    item = value
    while isinstance(item, (dict, list)) and len(item):
        key = rng.choice(list(item)) if isinstance(item, dict) else rng.randrange(len(item))
        spot = (item, key)
        item = item[key]
        if rng.random() < 0.2:
            break
    return spot


def mutate(state: dict[str, Any], seed: int) -> dict[str, Any]:
    """``state`` with 1 to 3 seeded mutations (key dropped, value replaced, key renamed)."""
    rng = random.Random(seed)
    out = copy.deepcopy(state)
    for _ in range(rng.randint(1, 3)):
        spot = _walk(out, rng)
        if spot is None:
            break
        container, key = spot
        pick = rng.randrange(3)
        if pick == 0 and isinstance(container, dict):
            del container[key]
        elif pick == 1 and isinstance(container, dict):
            container[rng.choice(["x", "owner", "__proto__", key + "_"])] = container.pop(key)
        else:
            # A copy: the same odd value put in twice, or a later mutation inside it, would
            # otherwise make the state a graph with a cycle (no JSON request ever is one) and
            # change ODD for every later test.
            container[key] = copy.deepcopy(rng.choice(ODD))
    return out


def _characters(name: str) -> dict[str, Any]:
    """Real characters for ops that take some (else the request is refused before the state)."""
    props = registry.OPS[name].schema["properties"]
    system = registry.OPS[name].system
    one = None
    if system == "theorem":
        one = _theorem_character("josh")
    elif system == "unicreon":
        one = _ok({"op": "unicreon.character.new", "id": "uc-fuzz"})["character"]
    out: dict[str, Any] = {}
    if one is not None and "character" in props:
        out["character"] = one
    if one is not None and "characters" in props:
        out["characters"] = [one]
    return out


@pytest.mark.parametrize("name", STATE_OPS)
def test_no_op_crashes_on_a_mutated_state(name):
    kind = _kind(name)
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


def _spots(value: Any) -> list[tuple[Any, ...]]:
    """A path to each distinct place of the tree: every key of every object, the first item of
    every list, and of a map with many keys (a deck's card definitions) its first two keys."""
    out: list[tuple[Any, ...]] = []
    todo: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while todo:
        item, path = todo.pop()
        if isinstance(item, dict):
            keys = list(item)[:2] if len(item) > 12 else list(item)
        elif isinstance(item, list):
            keys = [0] if item else []
        else:
            continue
        for key in keys:
            out.append((*path, key))
            todo.append((item[key], (*path, key)))
    return out


def _structural(state: dict[str, Any]) -> list[dict[str, Any]]:
    """``state`` once with each place dropped (an object's key) or replaced by None, "x" or []."""
    out = []
    for path in _spots(state):
        for how in ("drop", None, "x", []):
            new = copy.deepcopy(state)
            container = new
            for key in path[:-1]:
                container = container[key]
            if how == "drop":
                if not isinstance(container, dict):
                    continue
                del container[path[-1]]
            else:
                container[path[-1]] = copy.deepcopy(how)
            out.append(new)
    return out


#: One op per state kind that reads the whole state: the state check in front of every op is
#: shared, so each place of each state is probed through it once.
PROBES = {
    "theorem": {"op": "theorem.view.player"},
    "systmj": {"op": "systmj.phase.next_round"},
    "versality": {"op": "versality.view.player"},
    "pointzero": {"op": "pointzero.mj.view"},
    "combat": {"op": "unicreon.combat.next"},
    "cards": {"op": "cards.view"},
}


@pytest.mark.parametrize("kind", sorted(PROBES))
def test_every_place_of_every_state_dropped_or_retyped_is_refused_or_answered(kind):
    crashes = []
    for state in STATES[kind]:
        for bad in _structural(state):
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
