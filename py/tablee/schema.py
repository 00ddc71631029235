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

__all__ = ["compiled", "fixed_object", "shape_problems"]


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


def shape_problems(validate: Callable[[Any], Any], data: Any, code: str) -> list[Problem]:
    """``[]`` when ``validate(data)`` passes, else one Problem with ``code`` at the failing path."""
    try:
        validate(data)
    except fastjsonschema.JsonSchemaException as exc:
        path = str(exc.name or "").removeprefix("data").lstrip(".")
        return [Problem(path, code, {"detail": str(exc.message)[:200]})]
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
