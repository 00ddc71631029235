"""The one door between the browser and the rules: ``handle(request) -> response``.

Requests and responses are JSON objects. Every request names its ``op``; the request
is validated against that op's JSON Schema before the handler sees it. Failures come
back as ``{"error": {"code", "message_key", "params"}}``, never as an exception.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import fastjsonschema

from . import registry
from .errors import RulesError
from .registry import OPS, op

__all__ = ["MAX_REQUEST_DEPTH", "handle", "handle_json"]

#: The deepest nesting a request may have; static/js/engine.js enforces the same bound.
MAX_REQUEST_DEPTH = 64


def _load_ops() -> None:
    """Import every module that registers ops (kernel first, then the systems)."""
    from . import (  # noqa: F401
        dice_ops,
        share,
        store,
        systems,
    )


@cache
def _validator(name: str):
    return fastjsonschema.compile(OPS[name].schema)


def handle(request: Any) -> dict[str, Any]:
    """Answer one request. Never raises: errors are JSON too."""
    try:
        if not isinstance(request, dict):
            raise RulesError("request.not_object")
        name = request.get("op")
        if not isinstance(name, str) or name not in OPS:
            raise RulesError("request.unknown_op", op=name if isinstance(name, str) else None)
        try:
            _validator(name)(request)
        except fastjsonschema.JsonSchemaException as exc:
            raise RulesError("request.invalid", op=name, detail=str(exc.message), path=str(exc.name or "")) from None
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
    return json.dumps(handle(request), ensure_ascii=False)


@op("describe", summary="The systems and every op with the JSON Schema of its request.")
def _describe(request: dict[str, Any]) -> dict[str, Any]:
    from .systems import SYSTEMS

    return {
        "systems": [SYSTEMS[sid] for sid in registry.SYSTEM_IDS],
        "ops": [
            {"op": o.name, "system": o.system, "summary": o.summary, "schema": o.schema}
            for o in sorted(OPS.values(), key=lambda o: o.name)
        ],
    }


_load_ops()
