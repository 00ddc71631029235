"""Checking untrusted data against a compiled JSON Schema, as field problems.

Every store hook (a system's character or table-state validator) starts the same way:
run the schema, and turn the first violation into a :class:`~tablee.errors.Problem`
whose field is the dotted path of the offending value. Untrusted data must never make
a validator raise, so any other exception becomes a problem too.

:func:`compiled` defers fastjsonschema's code generation to a validator's first use: the
systems declare their schemas at import, and compiling them all there cost most of a
system's import time (issue 14: a system's first answer should be quick).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import fastjsonschema

from .errors import Problem

__all__ = ["compiled", "fixed_object", "schema_params", "shape_problems"]


class _Compiled:
    """``fastjsonschema.compile(schema)``, done on the first call."""

    __slots__ = ("_schema", "_validate")

    def __init__(self, schema: dict[str, Any]) -> None:
        self._schema = schema
        self._validate: Callable[[Any], Any] | None = None

    def __call__(self, data: Any) -> Any:
        if self._validate is None:
            self._validate = fastjsonschema.compile(self._schema)
        return self._validate(data)


def compiled(schema: dict[str, Any]) -> Callable[[Any], Any]:
    """A validator of ``schema`` (raises ``fastjsonschema.JsonSchemaException``), compiled lazily."""
    return _Compiled(schema)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def schema_params(exc: fastjsonschema.JsonSchemaException) -> dict[str, Any]:
    """What a schema violation says, as data the page words in its own language.

    ``detail`` is fastjsonschema's English sentence (kept for logs and tests); ``field`` the
    dotted path of the offending value without the validator's "data" root; ``rule`` the JSON
    Schema keyword that failed ("type", "minimum", "maxLength", "enum", "additionalProperties"…)
    and ``limit`` that keyword's value when it is plain data (a number, a type name, a short
    list): the page turns ``rule`` into a French sentence (``schema.rule.<rule>``) naming the
    field by its label, never showing "must be integer".
    """
    field = str(exc.name or "").removeprefix("data").lstrip(".")
    params: dict[str, Any] = {"detail": str(exc.message)[:200], "field": field}
    rule = getattr(exc, "rule", None)
    if isinstance(rule, str):
        params["rule"] = rule
        limit = getattr(exc, "rule_definition", None)
        if _scalar(limit) or (isinstance(limit, list) and len(limit) <= 12 and all(_scalar(x) for x in limit)):
            params["limit"] = limit
    return params


def shape_problems(validate: Callable[[Any], Any], data: Any, code: str) -> list[Problem]:
    """``[]`` when ``validate(data)`` passes, else one Problem with ``code`` at the failing path
    (its params: :func:`schema_params`, without the path, which is the Problem's field)."""
    try:
        validate(data)
    except fastjsonschema.JsonSchemaException as exc:
        params = schema_params(exc)
        path = params.pop("field")
        return [Problem(path, code, params)]
    except Exception as exc:  # untrusted data must never make a validator raise
        return [Problem("", code, {"detail": type(exc).__name__})]
    return []


def fixed_object(names: tuple[str, ...], item: dict[str, Any]) -> dict[str, Any]:
    """The schema of an object with exactly the keys ``names``, each value an ``item`` (a
    sheet's attributes or skills, every one of them present and no other)."""
    return {
        "type": "object",
        "properties": {n: item for n in names},
        "required": list(names),
        "additionalProperties": False,
    }
