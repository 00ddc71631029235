"""Every kind of refusal every op's JSON Schema can give, as the engine sends it.

:func:`refusals` walks each op's request schema: it builds the smallest request the schema
accepts, then, for every value the schema describes (optional properties and list items
included), breaks each keyword that bounds it (a wrong type, one below the minimum, one above
the maximum, a text one character too long, a missing key, an unknown key, a value outside an
enum…) and asks the op's validator. Each refusal is the ``request.invalid`` error
:func:`tablee.api.handle` would send: the field's path, the keyword (``rule``) and its ``limit``
(:func:`tablee.schema.schema_params`). tests/test_i18n_schema_refusals.py words them all.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import fastjsonschema

from tablee.api import _validator, load_all
from tablee.errors import RulesError
from tablee.registry import OPS
from tablee.schema import schema_params

_WRONG_TYPE = {"integer": "x", "number": "x", "string": 7, "boolean": 7, "object": 7, "array": 7, "null": 7}


def _types(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type")
    return kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []


def minimal(schema: Any) -> Any:
    """The smallest value ``schema`` describes (its required keys only; ``None`` when unsure)."""
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return copy.deepcopy(schema["const"])
    if schema.get("enum"):
        return copy.deepcopy(schema["enum"][0])
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return minimal(schema[key][0])
    types = _types(schema)
    kind = types[0] if types else ("object" if "properties" in schema else None)
    if kind == "object":
        props = schema.get("properties") or {}
        out = {name: minimal(props.get(name, {})) for name in schema.get("required") or []}
        for part in schema.get("allOf") or []:
            extra = minimal(part)
            if isinstance(extra, dict):
                out.update({k: v for k, v in extra.items() if k not in out})
        return out
    if kind == "array":
        return [minimal(schema.get("items", {})) for _ in range(schema.get("minItems", 0))]
    if kind in ("integer", "number"):
        low = schema.get("minimum", 0)
        return max(low, 0) if schema.get("maximum", 0) >= 0 else low
    if kind == "string":
        return "a" * schema.get("minLength", 0)
    if kind == "boolean":
        return False
    return None


def _breaks(schema: dict[str, Any], value: Any) -> Iterator[Any]:
    """Values that break one keyword of ``schema`` each (``value`` is a valid one)."""
    for kind in _types(schema)[:1]:
        if "null" not in _types(schema) or kind != "null":
            yield _WRONG_TYPE.get(kind, 7)
    if "minimum" in schema:
        yield schema["minimum"] - 1
    if "maximum" in schema:
        yield schema["maximum"] + 1
    if "minLength" in schema and schema["minLength"] > 0:
        yield ""
    if "maxLength" in schema:
        yield "a" * (schema["maxLength"] + 1)
    if "enum" in schema or "const" in schema:
        yield "zz-unknown"
    if "pattern" in schema:
        yield "#?"
    if "maxItems" in schema and isinstance(value, list):
        yield [minimal(schema.get("items", {}))] * (schema["maxItems"] + 1)
    if schema.get("minItems", 0) > 0:
        yield []
    if isinstance(value, dict):
        if schema.get("additionalProperties") is False:
            yield {**value, "zzunknown": 1}
        for name in schema.get("required") or []:
            yield {k: v for k, v in value.items() if k != name}
        if "maxProperties" in schema:
            item = minimal(schema.get("additionalProperties") or {})
            yield {**value, **{f"k{i}": item for i in range(schema["maxProperties"] + 1)}}


def _places(schema: Any, value: Any, path: tuple = ()) -> Iterator[tuple[tuple, dict[str, Any], Any]]:
    """``(path, schema, valid value)`` for every value the schema describes below ``value``."""
    if not isinstance(schema, dict):
        return
    yield path, schema, value
    if isinstance(value, dict):
        for name, sub in (schema.get("properties") or {}).items():
            yield from _places(sub, value[name] if name in value else minimal(sub), (*path, name))
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and not schema.get("properties"):
            yield from _places(extra, minimal(extra), (*path, "k"))
    elif isinstance(value, list) and isinstance(schema.get("items"), dict) and schema.get("maxItems", 1) > 0:
        yield from _places(schema["items"], value[0] if value else minimal(schema["items"]), (*path, 0))


def _put(root: Any, path: tuple, value: Any) -> Any:
    root = copy.deepcopy(root)
    if not path:
        return value
    parent = root
    for step in path[:-1]:
        if isinstance(parent, dict):
            parent = parent.setdefault(step, {})
        else:
            while len(parent) <= step:
                parent.append(None)
            parent = parent[step]
    if isinstance(parent, list):
        while len(parent) <= path[-1]:
            parent.append(None)
    parent[path[-1]] = value
    return root


def broken(schema: dict[str, Any], base: Any = None) -> Iterator[Any]:
    """``base`` (else the smallest value ``schema`` accepts) with one keyword broken, for every
    value the schema describes and every keyword bounding it."""
    base = minimal(schema) if base is None else base
    for path, sub, value in _places(schema, base):
        if path[:1] == ("op",):
            continue
        for wrong in _breaks(sub, value):
            try:
                yield _put(base, path, wrong)
            except (TypeError, IndexError, KeyError):  # a value the walk could not build
                continue


def refusals_of(name: str) -> Iterator[dict[str, Any]]:
    """The distinct refusals (field, rule, limit) of op ``name``'s schema, as engine errors."""
    validate = _validator(name)
    seen = set()
    for request in broken(OPS[name].schema, {**minimal(OPS[name].schema), "op": name}):
        try:
            validate(request)
        except fastjsonschema.JsonSchemaException as exc:
            params = schema_params(exc)
            key = (params["field"], params.get("rule"), repr(params.get("limit")))
            if key not in seen:
                seen.add(key)
                yield RulesError("request.invalid", op=name, path=str(exc.name or ""), **params).to_json()["error"]


def refusals() -> dict[str, list[dict[str, Any]]]:
    """op -> its refusals, for every op of every system."""
    load_all()
    return {name: list(refusals_of(name)) for name in sorted(OPS)}


# --------------------------------------------------------------------------- the rules' refusals
#: Mutated requests drawn per op (each from a real request: a real state and sheet when the op
#: takes them), beside each state of each kind broken at every place it has.
RULE_TRIES = 40


def _real_inputs() -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Real states by kind (fresh, and Versality's played: a deck built, a test drawn) and real
    sheets by system (new, and Versality's created), as the fuzz of the rules starts from."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "versality"))
    from versality_store import play

    from api_calls import versality_character
    from op_state_probes import STATES
    from tablee.api import handle

    def ok(request: dict[str, Any]) -> dict[str, Any]:
        response = play(request)
        assert "error" not in response, response
        return response

    states = copy.deepcopy(STATES)
    created = versality_character(created=True)
    fresh = ok({"op": "versality.state.new"})["state"]
    built = ok({"op": "versality.deck.build", "state": fresh, "character": created, "seed": 5})["state"]
    drawn = ok({"op": "versality.test.draw", "state": built, "character": created, "characteristic": "mental",
                "skill": "traquer", "difficulty": "facile", "seed": 3})["state"]
    states["versality"] = [fresh, built, drawn]
    sheets = {s: [ok({"op": f"{s}.character.new", "id": f"{s}-fuzz", "name": "Fuzz"})["character"]]
              for s in ("pointzero", "theorem", "unicreon", "versality", "systmj")}
    sheets["versality"].append(created)
    assert handle({"op": "versality.view.player", "state": drawn}).get("view") is not None
    return states, sheets


def rule_refusals() -> list[dict[str, Any]]:
    """Every distinct refusal the rules raise (not the schemas': ``request.invalid``) that a fuzz
    reaches: each op fed its real request mutated :data:`RULE_TRIES` times (a key dropped, a
    value retyped, a key renamed), each state's every place dropped or retyped through an op
    that reads it whole, and Versality's merge fed mutated public views. Distinct by code and
    the params a sentence words (``field``, ``detail``, ``reason``, ``kind``, ``pile``)."""
    import json

    from op_state_probes import PROBES, mutate, state_kind, structural_probes
    from tablee.api import handle

    load_all()
    states, sheets = _real_inputs()
    found: dict[tuple[str, str], dict[str, Any]] = {}

    def keep(response: dict[str, Any]) -> None:
        error = response.get("error")
        if error and error["code"] != "request.invalid":
            shown = {k: v for k, v in error["params"].items() if k in ("field", "detail", "reason", "kind", "pile")}
            found.setdefault((error["code"], json.dumps(shown, sort_keys=True, default=str)), error)

    for name in sorted(OPS):
        op = OPS[name]
        props = op.schema.get("properties", {})
        kind, mine = state_kind(name), sheets.get(op.system or "", [])
        for i in range(RULE_TRIES):
            request = {**minimal(op.schema), "op": name}
            if kind:
                request["state"] = copy.deepcopy(states[kind][i % len(states[kind])])
            if mine and "character" in props:
                request["character"] = copy.deepcopy(mine[i % len(mine)])
            if mine and "characters" in props:
                request["characters"] = [copy.deepcopy(mine[i % len(mine)])]
            if mine and "character_id" in props:
                request["character_id"] = mine[i % len(mine)]["id"]
            if i >= 3:  # the first few as they are: the rules' own refusals of a real request
                request = {**mutate(request, i), "op": name}
            keep(handle(request))
    for kind, probe in PROBES.items():
        for state in states[kind]:
            for bad in structural_probes(state):
                keep(handle({**probe, "state": bad}))
    for i in range(200):
        state = states["versality"][i % 3]
        view = handle({"op": "versality.view.player", "state": state})["view"]
        keep(handle({"op": "versality.state.merge", "state": state, "public": mutate(view, i), "penalties": {}}))
    return list(found.values())
