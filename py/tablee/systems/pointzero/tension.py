"""The Jauge de Tension: the table state under ``document["systems"]["pointzero"]``.

Shape::

    {"threshold": null | 1..10,    # the MJ's secret: never shown to players
     "scenario": 1..9999,          # counts the scenarios (the MJ starts a new one)
     "entries": [{"kind": "dice" | "other", "who": str, "note": str}],   # <= 100
     "tension_rule": "missing_dice" | "difference",   # optional: the table's reading
     "critical": true}             # optional: only in a player's copy (no threshold), see below

The gauge is the number of entries: every Tension point used adds one. ``dice`` is the
point used for +2 dice on a skill test; ``other`` is any other use (the MJ's call,
recorded as free text). Tension critique: a threshold is set and the gauge reached it.

Source: rules/README.md (Point Zéro, "Jauge de Tension", a separate page of the game):
the MJ secretly sets a threshold 1–10 for the scenario; the gauge starts empty; every
Tension point a player uses goes into it; at the threshold it is Tension critique (no
Surpassement, 002_61483667e16cef6b.txt "sURPASSEMENT"); players see the gauge, never the
threshold. Reading (ours): with no threshold set yet there is no Tension critique.

``tension_rule`` is a table setting (public, kept from scenario to scenario): how Tension
dice count when the skill is below the attribute (:data:`resolution.TENSION_RULES`, read
in resolution.py's docstring). Absent means the default, so older tables stay valid.

``critical`` is the public face of Tension critique in a copy without the threshold (a
player's, :mod:`.share`): the issue's reading "Tension critique is public (Surpassement is
refused to everyone once it is reached), its threshold is not". Where a threshold is set it
decides and the marker means nothing; the MJ's table never needs it.
"""

from __future__ import annotations

from typing import Any

from ...errors import Problem, RulesError, declare
from ...schema import compiled, shape_problems
from ...tree import clone
from .data import THRESHOLD_MAX, THRESHOLD_MIN
from .resolution import TENSION_RULES

__all__ = [
    "MAX_ENTRIES",
    "STATE_SCHEMA",
    "mj_view",
    "new_scenario",
    "new_state",
    "player_view",
    "require_state",
    "set_tension_rule",
    "set_threshold",
    "use_point",
    "validate_state",
]

declare("pointzero.state.invalid", "pointzero.tension.full")

MAX_ENTRIES = 100
THRESHOLD: dict[str, Any] = {
    "anyOf": [{"type": "null"}, {"type": "integer", "minimum": THRESHOLD_MIN, "maximum": THRESHOLD_MAX}]
}
ENTRY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "kind": {"enum": ["dice", "other"]},
        "who": {"type": "string", "maxLength": 80},
        "note": {"type": "string", "maxLength": 200},
    },
    "required": ["kind", "who", "note"],
    "additionalProperties": False,
}
STATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "threshold": THRESHOLD,
        "scenario": {"type": "integer", "minimum": 1, "maximum": 9999},
        "entries": {"type": "array", "items": ENTRY_SCHEMA, "maxItems": MAX_ENTRIES},
        "tension_rule": {"enum": list(TENSION_RULES)},
        "critical": {"const": True},
    },
    "required": ["threshold", "scenario", "entries"],
    "additionalProperties": False,
}

#: The very schema every op of the system holds (schema.share): one validator for both.
_shape = compiled(STATE_SCHEMA)


def new_state() -> dict[str, Any]:
    """The first scenario: no threshold yet, an empty gauge."""
    return {"threshold": None, "scenario": 1, "entries": []}


def validate_state(data: Any) -> list[Problem]:
    """Store hook: problems of an untrusted state, never raises."""
    return shape_problems(_shape, data, "pointzero.state.invalid")


def require_state(data: Any) -> dict[str, Any]:
    problems = validate_state(data)
    if problems:
        p = problems[0]
        raise RulesError("pointzero.state.invalid", field=p.field, detail=str(p.params.get("detail", ""))[:200])
    return data


def _critical(state: dict[str, Any]) -> bool:
    """Tension critique: the gauge reached the threshold; in a copy with no threshold (a
    player's), the public marker the MJ's table published."""
    if state["threshold"] is None:
        return state.get("critical") is True
    return len(state["entries"]) >= state["threshold"]


def player_view(state: dict[str, Any]) -> dict[str, Any]:
    """What players may see: the gauge, whether it is Tension critique, the entries.
    Never the threshold (README: "Players see the gauge, never the threshold")."""
    return {
        "gauge": len(state["entries"]),
        "critical": _critical(state),
        "scenario": state["scenario"],
        "entries": clone(state["entries"]),
        "tension_rule": state.get("tension_rule", TENSION_RULES[0]),
    }


def mj_view(state: dict[str, Any]) -> dict[str, Any]:
    """The MJ screen: the player view plus the threshold and the points left before it."""
    view = player_view(state)
    threshold = state["threshold"]
    view["threshold"] = threshold
    view["left"] = None if threshold is None else max(0, threshold - view["gauge"])
    return view


def use_point(state: dict[str, Any], kind: str, who: str = "", note: str = "") -> dict[str, Any]:
    """One Tension point used: one more entry, so the gauge rises by one."""
    if len(state["entries"]) >= MAX_ENTRIES:
        raise RulesError("pointzero.tension.full", max=MAX_ENTRIES)
    new = clone(state)
    new["entries"].append({"kind": kind, "who": who, "note": note})
    return new


def set_threshold(state: dict[str, Any], threshold: int | None) -> dict[str, Any]:
    """The MJ sets (or clears) the scenario's secret threshold; the gauge is kept."""
    new = clone(state)
    new["threshold"] = threshold
    return new


def new_scenario(state: dict[str, Any], threshold: int | None) -> dict[str, Any]:
    """A new scenario: the gauge starts empty again, with the MJ's new threshold."""
    new = {"threshold": threshold, "scenario": min(state["scenario"] + 1, 9999), "entries": []}
    if "tension_rule" in state:
        new["tension_rule"] = state["tension_rule"]
    return new


def set_tension_rule(state: dict[str, Any], rule: str) -> dict[str, Any]:
    """The table's reading of Tension dice below the attribute (a setting, not a secret)."""
    new = clone(state)
    new["tension_rule"] = rule
    return new
