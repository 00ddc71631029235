"""tablee.schema.compile_schema is fastjsonschema.compile with a smaller generated module.

The first Théorem odds of a page took 180 ms in CPython (660 ms in the worker, seconds
under load), most of it compiling validators: every op's request schema holds the whole table
state, and fastjsonschema wrote its ~370 checks out again for each op, each ``raise`` with its
definition spelled out as a literal. compile_schema calls one validator for a shared schema
(``schema.share``: a system's state and character) and keeps each definition as a global. Here
the two compilers must agree: the same requests pass, and each refused one raises the same
exception (message, path, value, rule, definition), for real requests of every system with a
state or character, each value replaced by wrong ones, keys removed and keys added.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest

from tablee.api import _find, handle
from tablee.registry import OPS
from tablee.schema import _SHARED, compile_schema

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from bench_requests import REQUESTS

WRONG = (None, "x", -1, 10**9, 2.5, True, [], {})


def _theorem_pending() -> dict[str, Any]:
    """A Théorem action under way (a pending chain, piles moved), its odds asked."""
    base = copy.deepcopy(next(r["request"] for r in REQUESTS if r["id"] == "theorem.heavy"))
    begun = handle({"op": "theorem.action.begin", **{k: base[k] for k in ("state", "character", "sphere", "modifier")}})
    drawn = handle({"op": "theorem.action.draw", "state": begun["state"], "character": begun["character"], "seed": 3})
    return {**base, "state": drawn["state"], "character": begun["character"]}


def corpus() -> list[dict[str, Any]]:
    requests = [copy.deepcopy(r["request"]) for r in REQUESTS]
    return [r for r in requests if any(k in r for k in ("state", "character", "deck"))] + [_theorem_pending()]


def paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, (*path, i))


def at(request: dict[str, Any], path: tuple) -> tuple[Any, Any]:
    parent = request
    for step in path[:-1]:
        parent = parent[step]
    return parent, path[-1]


def variants(request: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The request itself, then for (every third) path: each wrong value there, the key
    removed, and a key added to the object there."""
    yield request
    for n, path in enumerate(list(paths(request))[1:]):
        if n % 3:
            continue
        for wrong in WRONG:
            bad = copy.deepcopy(request)
            parent, key = at(bad, path)
            parent[key] = copy.deepcopy(wrong)
            yield bad
        bad = copy.deepcopy(request)
        parent, key = at(bad, path)
        if isinstance(parent, dict):
            del parent[key]
            yield bad
        bad = copy.deepcopy(request)
        parent, key = at(bad, path)
        if isinstance(parent[key], dict):
            parent[key]["unexpected"] = 1
            yield bad


def outcome(validate, request: dict[str, Any]) -> tuple:
    try:
        return ("passed", validate(copy.deepcopy(request)))
    except fastjsonschema.JsonSchemaValueException as exc:
        return ("refused", exc.message, exc.name, exc.value, exc.rule, exc.definition)


@pytest.mark.parametrize("request_", corpus(), ids=lambda r: r["op"])
def test_the_smaller_validator_passes_and_refuses_as_fastjsonschema_does(request_):
    assert _find(request_["op"])
    schema = OPS[request_["op"]].schema
    ours, theirs = compile_schema(schema), fastjsonschema.compile(schema)
    refused = 0
    for request in variants(request_):
        mine = outcome(ours, request)
        assert mine == outcome(theirs, request), (request_["op"], mine)
        refused += mine[0] == "refused"
    assert outcome(ours, request_)[0] == "passed" and refused >= 20, refused


def test_a_system_state_is_one_shared_validator_called_by_each_op():
    """Each op holding Théorem's state calls the state's one validator (it was written out in
    every op's module), and the refusal inside it names the path from the request's root."""
    from tablee.systems.theorem import state as S

    assert id(S.STATE_SCHEMA) in _SHARED
    request = copy.deepcopy(_theorem_pending())
    request["state"]["deck"]["piles"]["draw"]["cards"] = "x"
    for op in ("theorem.action.odds", "theorem.action.draw"):
        assert _find(op)
    error = handle({**request, "op": "theorem.action.odds"})["error"]
    assert error["code"] == "request.invalid" and error["params"]["field"] == "state.deck.piles.draw.cards", error
    assert _SHARED[id(S.STATE_SCHEMA)][1] is not None  # compiled once, by the first op that met it
