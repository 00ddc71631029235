"""One way for every system to declare its character ops.

The shared character list creates through ``<system>.character.new`` (``id`` and ``name``),
the sheets check through ``<system>.character.check`` and finish a creation through
``<system>.character.finish`` (both take the ``character``). Each system gives its handlers
and summaries to :func:`character_ops`, which declares the ops in the system's table with the request schemas every
system shares (the id and name bounds, the character under its system's schema) and adds only
what a system declares besides (:class:`CharacterOp` ``properties`` / ``required``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .registry import SystemOps
from .schema import ID_SCHEMA

__all__ = ["ID_SCHEMA", "CharacterOp", "character_ops"]

Handler = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class CharacterOp:
    """A system's handler of one character op, its summary, and the request fields it takes
    besides the shared ones (``id``/``name`` for ``new``, ``character`` for the others)."""

    handler: Handler
    summary: str
    properties: dict[str, Any] = field(default_factory=dict)
    required: tuple[str, ...] = ()


def character_ops(
    system_op: SystemOps,
    *,
    character: dict[str, Any],
    name_max: int = 80,
    new: CharacterOp | None = None,
    check: CharacterOp | None = None,
    finish: CharacterOp | None = None,
) -> None:
    """Declare ``<system>.character.new`` / ``.check`` / ``.finish`` (those given) in the
    system's ops table ``system_op``.

    ``character`` is the schema the request's character is validated against (a loose
    ``{"type": "object"}`` where the handler reports the problems at their fields itself)."""
    if new is not None:
        props = {"id": ID_SCHEMA, "name": {"type": "string", "maxLength": name_max}, **new.properties}
        system_op("character.new", properties=props, required=("id", *new.required),
                  summary=new.summary)(new.handler)
    for verb, spec in (("check", check), ("finish", finish)):
        if spec is not None:
            system_op(f"character.{verb}", properties={"character": character, **spec.properties},
                      required=("character", *spec.required), summary=spec.summary)(spec.handler)
