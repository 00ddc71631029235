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
from functools import cache
from typing import Any

from . import answers, registry
from .errors import RulesError
from .registry import OPS, SYSTEM_IDS, op

__all__ = ["MAX_REQUEST_DEPTH", "ROUTES", "handle", "handle_json", "load_all"]

#: The deepest nesting a request may have; static/js/engine.js enforces the same bound.
MAX_REQUEST_DEPTH = 64


#: An op's whole name, else the first segment of its name -> the module that registers the op
#: (kernel modules here, each system's package below). A static table, so finding an op
#: imports nothing else.
ROUTES: dict[str, str] = {
    "describe": __name__,
    "store.share": "tablee.share",
    "roll": "tablee.dice_ops",
    "odds": "tablee.dice_ops",
    "store": "tablee.store",
    "cards": "tablee.cards",
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
    import fastjsonschema  # on the first validated request, not at the worker's start

    return fastjsonschema.compile(OPS[name].schema)


def _validate(name: str, request: dict[str, Any]) -> None:
    """Check ``request`` against its op's schema (``request.invalid`` when it does not fit)."""
    import fastjsonschema

    try:
        _validator(name)(request)
    except fastjsonschema.JsonSchemaException as exc:
        raise RulesError("request.invalid", op=name, detail=str(exc.message), path=str(exc.name or "")) from None


def handle(request: Any) -> dict[str, Any]:
    """Answer one request. Never raises: errors are JSON too."""
    try:
        if not isinstance(request, dict):
            raise RulesError("request.not_object")
        name = request.get("op")
        if not isinstance(name, str) or not _find(name):
            raise RulesError("request.unknown_op", op=name if isinstance(name, str) else None)
        _validate(name, request)
        return OPS[name].handler(request)
    except RulesError as exc:
        return exc.to_json()
    except Exception as exc:  # a bug in the engine: report it as JSON, never as a traceback
        return RulesError("request.internal", kind=type(exc).__name__, detail=str(exc)[:200]).to_json()


def handle_json(text: str) -> str:
    """String in, string out: what the worker exposes to the page."""
    try:
        request = json.loads(text)
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
    return json.dumps(handle(request), ensure_ascii=False)


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

