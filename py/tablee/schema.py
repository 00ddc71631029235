"""Checking untrusted data against a compiled JSON Schema, as field problems.

Every store hook (a system's character or table-state validator) starts the same way:
run the schema, and turn the first violation into a :class:`~tablee.errors.Problem`
whose field is the dotted path of the offending value. Untrusted data must never make
a validator raise, so any other exception becomes a problem too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import fastjsonschema

from .errors import Problem

__all__ = ["shape_problems"]


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
