"""One exception base for every rule broken, plus field-level problems.

Errors cross the JSON boundary as ``{"error": {"code", "message_key", "params"}}``.
Every code is declared once with :func:`declare`; the message shown to the user is
``static/i18n/<lang>/<namespace>.json`` at key ``error.<code>`` (a unit test checks that
every declared code has a French and an English message).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any

__all__ = ["Problem", "RulesError", "declare", "declared_codes"]

_CODES: set[str] = set()


def declare(*codes: str) -> None:
    """Declare error/problem codes (``namespace.name``) so they can be raised."""
    for code in codes:
        if "." not in code:
            raise ValueError(f"error code {code!r} needs a namespace prefix")
        _CODES.add(code)


def declared_codes() -> frozenset[str]:
    return frozenset(_CODES)


def _check(code: str) -> None:
    if code not in _CODES:
        raise LookupError(f"undeclared error code {code!r}: call tablee.errors.declare first")


class RulesError(ValueError):
    """A request broke a rule or was malformed. ``code`` is stable; params are JSON."""

    def __init__(self, code: str, /, **params: Any) -> None:
        _check(code)
        self.code = code
        self.params = params
        super().__init__(f"{code} {params}" if params else code)

    @property
    def message_key(self) -> str:
        return f"error.{self.code}"

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message_key": self.message_key, "params": self.params}}


@dataclass(frozen=True)
class Problem:
    """One rule a choice breaks, attached to the form field that breaks it.

    ``field`` is a dotted path into the submitted data (``characteristics.puissance``),
    or ``""`` for the whole form.
    """

    field: str
    code: str
    params: dict[str, Any] = _field(default_factory=dict)

    def __post_init__(self) -> None:
        _check(self.code)

    def to_json(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "code": self.code,
            "message_key": f"error.{self.code}",
            "params": dict(self.params),
        }


declare(
    "request.not_object",
    "request.unknown_op",
    "request.invalid",
    "request.internal",
    "request.not_json",
    "request.too_deep",
    "request.state_invalid",
)
