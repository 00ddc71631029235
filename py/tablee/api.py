"""The one door between the browser and the rules: ``handle(request) -> response``.

Requests and responses are JSON objects. Every request names its ``op``; the request
is validated against that op's JSON Schema before the handler sees it. Failures come
back as ``{"error": {"code", "message_key", "params"}}``, never as an exception.

Lazy loading (issue 14): importing this module imports the errors, the registry and the
answers, nothing else: not the store nor the dice ops, no system package, not icepool, not
fastjsonschema (imported by the first request that is validated). The first request of an
op imports the module that registers it, found from the op name's prefix in :data:`ROUTES`
(``unicreon.test`` -> ``tablee.systems.unicreon``, ``store.open`` -> ``tablee.store``);
icepool is imported by the odds functions themselves. In the worker the engine's readiness
probe (``store.limits``, answered from the archive) thus costs no import of the kernel: the
first real request pays for what it uses (``make bench`` times each first answer).
``describe`` and ``store.limits`` do not depend on their request: their answers are
computed at set-up time (tools/vendor.py, :mod:`tablee.answers`) and read from the package
archive (``handle_json`` sends the file's text as is), so the worker's
first answer imports no system either.
"""

from __future__ import annotations

import importlib
import json
import sys
from functools import cache
from typing import Any

from . import answers, registry
from .errors import RulesError
from .registry import OPS, SYSTEM_IDS, op

__all__ = ["MAX_REQUEST_DEPTH", "ROUTES", "handle", "handle_json", "live_answers", "load_all", "whole_numbers"]

#: The deepest nesting a request may have; static/js/engine.js enforces the same bound.
MAX_REQUEST_DEPTH = 64


#: An op's whole name, else the first segment of its name -> the module that registers the op
#: (kernel modules here, each system's package below). A static table, so finding an op
#: imports nothing else.
ROUTES: dict[str, str] = {
    "describe": __name__,
    "store.share": "tablee.share",
    "store.share_link": "tablee.share",
    "store.open_share": "tablee.share",
    "roll": "tablee.dice_ops",
    "odds": "tablee.dice_ops",
    "store": "tablee.store",
    "cards": "tablee.cards",
    "live.relay": "tablee.relay",
    "live": "tablee.referee",
    **{sid: f"tablee.systems.{sid}" for sid in SYSTEM_IDS},
}


def load_all() -> None:
    """Import every module that registers ops (the live ``describe``, the set-up, the tests)."""
    for module in dict.fromkeys(ROUTES.values()):
        importlib.import_module(module)


def _find(name: str) -> bool:
    """Register ``name``'s op if its module is not imported yet; whether the op exists."""
    if name not in OPS:
        module = ROUTES.get(name) or ROUTES.get(name.split(".", 1)[0])
        if module is None:
            load_all()  # an op of a module missing from ROUTES still answers (slowly, once)
        else:
            importlib.import_module(module)
    return name in OPS


@cache
def _validator(name: str):
    from .schema import compile_schema  # fastjsonschema on the first validated request

    return compile_schema(OPS[name].schema)


def _validate(name: str, request: dict[str, Any]) -> None:
    """Check ``request`` against its op's schema (``request.invalid`` when it does not fit)."""
    import fastjsonschema

    try:
        _validator(name)(request)
    except fastjsonschema.JsonSchemaException as exc:
        from .schema import schema_params

        params = schema_params(exc)
        raise RulesError("request.invalid", op=name, path=str(exc.name or ""), **params) from None


def _is_whole(value: Any) -> bool:
    return isinstance(value, float) and value.is_integer()


def whole_numbers(request: Any) -> Any:
    """``request`` with every whole float (``3.0``) made an ``int``, everything else as is.

    JSON has one number type: ``3.0`` is a valid JSON Schema integer (fastjsonschema
    accepts it), and JavaScript cannot tell ``3`` from ``3.0``. The handlers use integers
    as indices, counts and dice, so every request is normalised once here, before its
    schema is checked: any op of any system sees ``3`` and answers as it does to ``3``.
    A fractional float stays a float, which an ``integer`` field then refuses
    (``request.invalid``). Iterative (no untrusted nesting can blow the stack); the input
    is never modified (a request holding a whole float is copied).
    """
    stack: list[Any] = [request]
    while stack:  # most requests hold no float at all: leave them untouched
        item = stack.pop()
        if _is_whole(item):
            break
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    else:
        return request

    def copy_of(item: Any) -> Any:
        if _is_whole(item):
            return int(item)
        if isinstance(item, dict):
            out: Any = {}
        elif isinstance(item, list):
            out = []
        else:
            return item
        pending.append((item, out))
        return out

    pending: list[tuple[Any, Any]] = []
    root = copy_of(request)
    while pending:
        item, out = pending.pop()
        if isinstance(item, dict):
            out.update((k, copy_of(v)) for k, v in item.items())
        else:
            out.extend(copy_of(v) for v in item)
    return root


def _state_guards(name: str) -> tuple[tuple[str, Any], ...]:
    """``(property, require)`` for each property of ``name``'s request that is a state (declared
    with the very schema object of one of :data:`tablee.registry.STATE_GUARDS`), computed once
    per op."""
    found = _GUARDS.get(name)
    if found is None:
        props = OPS[name].schema["properties"]
        found = tuple(
            (key, require)
            for key, schema in props.items()
            for state_schema, require in registry.STATE_GUARDS
            if schema is state_schema
        )
        _GUARDS[name] = found
    return found


_GUARDS: dict[str, tuple[tuple[str, Any], ...]] = {}


def _check_states(name: str, request: dict[str, Any]) -> None:
    """Refuse a request whose state breaks its schema or its system's rules, whatever the op:
    with the state's own error code, or ``request.state_invalid`` when the check itself could
    not read the state (it must never reach the op as ``request.internal``)."""
    for key, require in _state_guards(name):
        if key not in request:
            continue
        try:
            require(request[key])
        except RulesError:
            raise
        except Exception as exc:
            raise RulesError("request.state_invalid", op=name, field=key, kind=type(exc).__name__) from None


def handle(request: Any) -> dict[str, Any]:
    """Answer one request. Never raises: errors are JSON too.

    Whole floats are integers (:func:`whole_numbers`) before the request is validated."""
    token = registry.READ_FROM_JSON.set(False)
    try:
        return _answer(request, whole=False)
    finally:
        registry.READ_FROM_JSON.reset(token)


def _answer(request: Any, *, whole: bool) -> dict[str, Any]:
    """:func:`handle`; ``whole``: the request's whole floats are integers already (read by
    :func:`handle_json`, which makes them so as it parses), so it is not walked again (the
    live table's requests hold the whole table: the walk cost as much as the op)."""
    try:
        if not isinstance(request, dict):
            raise RulesError("request.not_object")
        name = request.get("op")
        if not isinstance(name, str) or not _find(name):
            raise RulesError("request.unknown_op", op=name if isinstance(name, str) else None)
        if not whole:
            request = whole_numbers(request)
        _validate(name, request)
        _check_states(name, request)
        return OPS[name].handler(request)
    except RulesError as exc:
        return _with_violation(exc).to_json()
    except Exception as exc:  # a bug in the engine: report it as JSON, never as a traceback
        return RulesError("request.internal", kind=type(exc).__name__, detail=str(exc)[:200]).to_json()


def _with_violation(exc: RulesError) -> RulesError:
    """``exc`` with the schema violation it was raised for, as data the page words (field, rule,
    limit: :func:`tablee.schema.schema_params`), when a check raised it while handling one and
    passed on only fastjsonschema's English sentence (a system's state checked by its own
    validator, before its rules): every schema refusal reads in the page's language."""
    schema_error = sys.modules.get("fastjsonschema")
    if schema_error is None or "rule" in exc.params:
        return exc
    cause = exc.__cause__ or exc.__context__
    for _ in range(3):
        if cause is None or isinstance(cause, schema_error.JsonSchemaValueException):
            break
        cause = cause.__cause__ or cause.__context__
    if isinstance(cause, schema_error.JsonSchemaValueException):
        from .schema import schema_params

        found = schema_params(cause)
        exc.params = {**found, **{k: v for k, v in exc.params.items() if k != "detail"}}
    return exc


def _whole_float(text: str) -> float | int:
    """A JSON number with a fraction or an exponent, as :func:`whole_numbers` would leave it:
    an ``int`` when it is whole (``3.0``, ``1e3``), else the float."""
    value = float(text)
    return int(value) if value.is_integer() else value


def handle_json(text: str) -> str:
    """String in, string out: what the worker exposes to the page."""
    try:
        request = json.loads(text, parse_float=_whole_float)
    except RecursionError:
        # The page refuses such requests first (static/js/engine.js): in Pyodide the wasm
        # stack may overflow before Python's recursion limit is reached.
        return json.dumps(RulesError("request.too_deep", max=MAX_REQUEST_DEPTH).to_json())
    except ValueError:
        return json.dumps(RulesError("request.not_json").to_json())
    if isinstance(request, dict) and len(request) == 1 and request.get("op") in answers.OPS:
        ready = answers.text(request["op"])  # the set-up's answer, already JSON text
        if ready is not None:
            return ready
    token = registry.READ_FROM_JSON.set(True)
    try:
        return json.dumps(_answer(request, whole=True), ensure_ascii=False)
    finally:
        registry.READ_FROM_JSON.reset(token)


@op("describe", summary="The systems and every op with the JSON Schema of its request.")
def _describe(request: dict[str, Any]) -> dict[str, Any]:
    """The set-up's answer when the package carries one (the worker), else the live one."""
    return answers.precomputed("describe") or describe_live()


def describe_live() -> dict[str, Any]:
    """``describe`` computed now: imports every system (tests/test_answers.py compares)."""
    from .systems import SYSTEMS

    load_all()
    return {
        "systems": [SYSTEMS[sid] for sid in registry.SYSTEM_IDS],
        "ops": [
            {"op": o.name, "system": o.system, "summary": o.summary, "schema": o.schema}
            for o in sorted(OPS.values(), key=lambda o: o.name)
        ],
    }



def live_answers() -> dict[str, dict[str, Any]]:
    """Every answer of :data:`answers.OPS` computed now, every system imported: op -> answer
    (tools/vendor.py writes them into the package archive; tests/test_site.py compares)."""
    from . import store

    load_all()
    return {"describe": describe_live(), "store.limits": store.limits_live()}
