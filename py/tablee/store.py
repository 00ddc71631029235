"""The table document: schema, validation, migrations (being written).

Systems plug their own checks in with the two hooks below, so an imported file is
validated down to each character before it can touch saved data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import Problem

__all__ = ["CURRENT_SCHEMA", "register_character_validator", "register_state_validator"]

CURRENT_SCHEMA = 1

#: system id -> fn(character dict) -> problems (empty list when the character is valid)
CHARACTER_VALIDATORS: dict[str, Callable[[dict[str, Any]], list[Problem]]] = {}
#: system id -> fn(state dict under document["systems"][id]) -> problems
STATE_VALIDATORS: dict[str, Callable[[dict[str, Any]], list[Problem]]] = {}


def register_character_validator(system: str, fn: Callable[[dict[str, Any]], list[Problem]]) -> None:
    CHARACTER_VALIDATORS[system] = fn


def register_state_validator(system: str, fn: Callable[[dict[str, Any]], list[Problem]]) -> None:
    STATE_VALIDATORS[system] = fn
