"""SYSTMJ entities: PJ, PNJ and Créatures on one model (section 2).

Source: 000_d267ce9097809d3e.txt, 2 (entities: one model, attributes and skills; a
créature has no intelligible language, every character has one), 2.1 (seven attributes on
100, in three actif/passif pairs plus Chance), 2.2 (the skill scale 0..99), 2.2.1 (ten
generic skills; the primary special skills of the universe are on every sheet).
Readings (shared/rules/README.md, SYSTMJ): ENDURANCE = RÉSISTANCE (``resistance``); PV and PA
maxima are sheet values the table sets.

Shape of a ``characters[i]`` with ``system: "systmj"``::

    {"id", "system": "systmj", "name", "kind": "pj" | "pnj" | "creature",
     "language": str,                 # "" for a créature (required empty), the language spoken otherwise
     "player": str,                   # who plays a PJ ("" for the MJ's entities)
     "attributes": {<7 attributes>: 0..99},
     "skills": {<10 generic skills>: 0..99},
     "special": {"sp-…": 0..99},      # scores in the table's primary special skills (state.universe)
     "pv_max": 0..999, "pa_max": 0..999,
     "cards": ["…"],                  # cards held (registry numbers), filled by issue 12
     "progress": [{"session", "kind": "learning" | "xp" | "attribute", "target": "skill" | "attribute" | "pouvoir",
                   "key", "before", "after", "note"}],   # "pouvoir": key is the card's number (PO-…)
     "notes": str}

A special-skill score missing from ``special`` is 0 (Inapte); a key the table no longer
lists is ignored by the pages. Special-skill ids match ``^sp-[a-z0-9]{1,32}$`` so no
untrusted id can be ``__proto__`` or another object key of JavaScript.
"""

from __future__ import annotations

import re
from typing import Any

from ...errors import Problem, RulesError, declare
from ...schema import character_head, compiled, fixed_object, shape_problems
from ...tree import clone
from . import data as D

__all__ = [
    "CHARACTER_SCHEMA",
    "SPECIAL_ID",
    "check_entity",
    "edit_entity",
    "new_entity",
    "require_entity",
    "validate_entity",
]

declare(
    "systmj.entity.invalid",
    "systmj.entity.not_valid",
    "systmj.entity.not_integer",
    "systmj.entity.range",
    "systmj.entity.name_empty",
    "systmj.entity.too_long",
    "systmj.entity.kind",
    "systmj.entity.creature_language",
    "systmj.entity.language_missing",
    "systmj.entity.unknown_skill",
)

SPECIAL_ID = r"^sp-[a-z0-9]{1,32}$"
_SPECIAL_RE = re.compile(SPECIAL_ID)
_SCORE = {"type": "integer", "minimum": D.SCORE_MIN, "maximum": D.SCORE_MAX}
_POOL = {"type": "integer", "minimum": 0, "maximum": 999}
MAX_PROGRESS = 300
MAX_SPECIAL = 60
TEXT_LIMITS = {"name": 80, "language": 60, "player": 80, "notes": 4000}
POOL_FIELDS = ("pv_max", "pa_max")




PROGRESS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "session": {"type": "integer", "minimum": 0, "maximum": 100000},
        "kind": {"enum": ["learning", "xp", "attribute"]},
        "target": {"enum": ["skill", "attribute", "pouvoir"]},
        "key": {"type": "string", "minLength": 1, "maxLength": 64},
        "before": _SCORE,
        "after": _SCORE,
        "note": {"type": "string", "maxLength": 200},
    },
    "required": ["session", "kind", "target", "key", "before", "after", "note"],
    "additionalProperties": False,
}

CHARACTER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        **character_head("systmj", name_max=TEXT_LIMITS["name"], name_min=1),
        "kind": {"enum": list(D.KINDS)},
        "language": {"type": "string", "maxLength": TEXT_LIMITS["language"]},
        "player": {"type": "string", "maxLength": TEXT_LIMITS["player"]},
        "attributes": fixed_object(D.ATTRIBUTES, _SCORE),
        "skills": fixed_object(D.GENERIC_SKILLS, _SCORE),
        "special": {
            "type": "object",
            "maxProperties": MAX_SPECIAL,
            "propertyNames": {"pattern": SPECIAL_ID},
            "additionalProperties": _SCORE,
        },
        "pv_max": _POOL,
        "pa_max": _POOL,
        "cards": {"type": "array", "maxItems": 200, "items": {"type": "string", "minLength": 1, "maxLength": 64}},
        "progress": {"type": "array", "maxItems": MAX_PROGRESS, "items": PROGRESS_SCHEMA},
        "notes": {"type": "string", "maxLength": TEXT_LIMITS["notes"]},
    },
    "required": [
        "id",
        "system",
        "name",
        "kind",
        "language",
        "player",
        "attributes",
        "skills",
        "special",
        "pv_max",
        "pa_max",
        "cards",
        "progress",
        "notes",
    ],
    "additionalProperties": False,
    # A créature has no language (section 2): its language is empty.
    "if": {"properties": {"kind": {"const": "creature"}}, "required": ["kind"]},
    "then": {"properties": {"language": {"maxLength": 0}}},
}

#: The very schema every op of the system holds (schema.share): one validator for both.
_shape = compiled(CHARACTER_SCHEMA)


def new_entity(entity_id: str, name: str, kind: str = "pj") -> dict[str, Any]:
    """A fresh entity: every score 0 (to be filled in), no language yet, no cards."""
    return {
        "id": entity_id,
        "system": "systmj",
        "name": name,
        "kind": kind,
        "language": "",
        "player": "",
        "attributes": dict.fromkeys(D.ATTRIBUTES, 0),
        "skills": dict.fromkeys(D.GENERIC_SKILLS, 0),
        "special": {},
        "pv_max": 0,
        "pa_max": 0,
        "cards": [],
        "progress": [],
        "notes": "",
    }


def validate_entity(data: Any) -> list[Problem]:
    """Store hook: the problems of an untrusted entity (shape and ranges), never raises."""
    return shape_problems(_shape, data, "systmj.entity.invalid")


def require_entity(data: Any) -> dict[str, Any]:
    problems = validate_entity(data)
    if problems:
        raise RulesError("systmj.entity.not_valid", field=problems[0].field)
    return data


def check_entity(c: dict[str, Any]) -> list[Problem]:
    """What a valid sheet still lacks: a PJ or PNJ speaks a language (section 2)."""
    if c["kind"] != "creature" and not c["language"].strip():
        return [Problem("language", "systmj.entity.language_missing")]
    return []


def _integer(value: Any, field: str, low: int, high: int) -> tuple[int | None, Problem | None]:
    """A whole number from a form (an int, or its decimal text), within low..high."""
    if isinstance(value, bool):
        return None, Problem(field, "systmj.entity.not_integer")
    if isinstance(value, str):
        text = value.strip()
        if not re.fullmatch(r"[+-]?[0-9]{1,6}", text):
            return None, Problem(field, "systmj.entity.not_integer")
        value = int(text)
    if not isinstance(value, int):
        return None, Problem(field, "systmj.entity.not_integer")
    if not low <= value <= high:
        return None, Problem(field, "systmj.entity.range", {"min": low, "max": high, "value": value})
    return value, None


def edit_entity(
    c: dict[str, Any], changes: dict[str, Any], special_ids: list[str] | None = None
) -> tuple[dict[str, Any], list[Problem]]:
    """Apply the valid changes of a form; each bad value is a problem at its field and
    changes nothing. ``special_ids`` (the table's list) restricts the special skills.

    Turning an entity into a créature clears its language (a créature has none); giving a
    créature a language is refused (``systmj.entity.creature_language``).
    """
    new = clone(c)
    problems: list[Problem] = []
    if "kind" in changes:
        if changes["kind"] in D.KINDS:
            new["kind"] = changes["kind"]
            if new["kind"] == "creature":
                new["language"] = ""
        else:
            problems.append(Problem("kind", "systmj.entity.kind", {"expected": list(D.KINDS)}))
    for field, limit in TEXT_LIMITS.items():
        if field not in changes:
            continue
        value = changes[field]
        if not isinstance(value, str):
            problems.append(Problem(field, "systmj.entity.too_long", {"max": limit}))
            continue
        text = value.strip() if field != "notes" else value
        if field == "name" and not text:
            problems.append(Problem(field, "systmj.entity.name_empty"))
        elif len(text) > limit:
            problems.append(Problem(field, "systmj.entity.too_long", {"max": limit, "length": len(text)}))
        elif field == "language" and text and new["kind"] == "creature":
            problems.append(Problem(field, "systmj.entity.creature_language"))
        else:
            new[field] = text
    for group, names in (("attributes", D.ATTRIBUTES), ("skills", D.GENERIC_SKILLS)):
        for key, value in (changes.get(group) or {}).items():
            field = f"{group}.{key}"
            if key not in names:
                problems.append(Problem(field, "systmj.entity.unknown_skill", {"key": key}))
                continue
            number, problem = _integer(value, field, D.SCORE_MIN, D.SCORE_MAX)
            if problem:
                problems.append(problem)
            else:
                new[group][key] = number
    for key, value in (changes.get("special") or {}).items():
        field = f"special.{key}"
        known = _SPECIAL_RE.match(key) and (special_ids is None or key in special_ids)
        if not known:
            problems.append(Problem(field, "systmj.entity.unknown_skill", {"key": key[:64]}))
            continue
        number, problem = _integer(value, field, D.SCORE_MIN, D.SCORE_MAX)
        if problem:
            problems.append(problem)
        elif number == 0:
            new["special"].pop(key, None)
        elif len(new["special"]) >= MAX_SPECIAL and key not in new["special"]:
            problems.append(Problem(field, "systmj.entity.range", {"min": 0, "max": 0, "value": number}))
        else:
            new["special"][key] = number
    for field in POOL_FIELDS:
        if field in changes:
            number, problem = _integer(changes[field], field, 0, 999)
            if problem:
                problems.append(problem)
            else:
                new[field] = number
    return new, problems
