"""Point Zéro characters: attributes, skills (each with a level), atouts, notes.

Source: 002_61483667e16cef6b.txt, "test de Compétence" (a character has Compétences and
Attributs, each with a level; the text names the attributes Vigueur, Adresse, Perception,
Cognition and skills such as Acrobaties, Mécanique, Discrétion, Vigilance, Informatique,
Aéronefs; the atout Méticuleux). The page has no creation chapter, so the sheet is free:
the table may add attributes (each with a three-letter code, as in "Acrobaties/ADR[15]")
and any skill. Levels are whole numbers 0..10 (the app's bound). A skill at 0 is allowed
on the sheet; it cannot be rolled as a skill test (README reading: the attribute test is
offered instead).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ...errors import Problem, declare
from ...schema import array, character_head, compiled, integer, named_levels, record, shape_problems, text
from .data import ATOUT_METICULEUX, ATTRIBUTES, LEVEL_MAX

__all__ = [
    "CHARACTER_SCHEMA",
    "has_meticuleux",
    "new_character",
    "validate_character",
]

declare(
    "pointzero.char.invalid",
    "pointzero.char.name",
    "pointzero.char.level",
    "pointzero.char.code",
    "pointzero.char.code_duplicate",
    "pointzero.char.attribute_name",
    "pointzero.char.skill_name",
    "pointzero.char.skill_duplicate",
    "pointzero.char.atout_empty",
    "pointzero.char.no_attribute",
)

MAX_ATTRIBUTES = 12
MAX_SKILLS = 60
MAX_ATOUTS = 20
CODE_PATTERN = "^[A-Z]{3}$"
_CODE = re.compile(CODE_PATTERN)
_LEVEL = integer(0, LEVEL_MAX)

CHARACTER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        **character_head("pointzero", name_min=1),
        "attributes": array(
            record({"code": {"type": "string", "pattern": CODE_PATTERN}, "name": text(40, 1), "level": _LEVEL}),
            MAX_ATTRIBUTES,
            min_items=1,
        ),
        "skills": named_levels(MAX_SKILLS, _LEVEL),
        "atouts": array(text(80, 1), MAX_ATOUTS),
        "notes": text(4000),
    },
    "required": ["id", "system", "name", "attributes", "skills", "atouts", "notes"],
    "additionalProperties": False,
}

_shape = compiled({"$schema": "https://json-schema.org/draft/2020-12/schema", **CHARACTER_SCHEMA})


def new_character(character_id: str, name: str) -> dict[str, Any]:
    """A fresh sheet: the four attributes the text names at level 2, no skill, no atout."""
    return {
        "id": character_id,
        "system": "pointzero",
        "name": name,
        "attributes": [{"code": code, "name": label, "level": 2} for code, label in ATTRIBUTES],
        "skills": [],
        "atouts": [],
        "notes": "",
    }


def _fold(text: str) -> str:
    """Case- and accent-insensitive form of a name (Méticuleux == meticuleux)."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def has_meticuleux(character: dict[str, Any]) -> bool:
    """Whether the character holds the atout Méticuleux (accents and case ignored)."""
    return any(_fold(a) == _fold(ATOUT_METICULEUX) for a in character.get("atouts", []))


def _is_level(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= LEVEL_MAX


def _entries(data: dict[str, Any], key: str, limit: int) -> list[tuple[int, dict[str, Any]]]:
    items = data.get(key)
    if not isinstance(items, list):
        return []
    return [(i, item) for i, item in enumerate(items[:limit]) if isinstance(item, dict)]


def validate_character(data: Any) -> list[Problem]:
    """Store hook: every problem of an untrusted sheet, each at its field; never raises.

    Field rules first (each with its own message): the name is not blank, every level is a
    whole number 0..10, attribute codes are three capital letters and unique, attribute and
    skill names are not blank, skill names are unique (case and accents ignored), atouts are
    not blank, at least one attribute. Then the whole shape (``pointzero.char.invalid``).
    """
    if not isinstance(data, dict):
        return shape_problems(_shape, data, "pointzero.char.invalid")
    problems: list[Problem] = []
    level_params = {"min": 0, "max": LEVEL_MAX}
    if isinstance(data.get("name"), str) and not data["name"].strip():
        problems.append(Problem("name", "pointzero.char.name"))
    if isinstance(data.get("attributes"), list) and not data["attributes"]:
        problems.append(Problem("attributes", "pointzero.char.no_attribute"))
    codes: set[str] = set()
    for i, attr in _entries(data, "attributes", MAX_ATTRIBUTES):
        code = attr.get("code")
        if isinstance(code, str):
            if not _CODE.match(code):
                problems.append(Problem(f"attributes.{i}.code", "pointzero.char.code", {"code": code[:10]}))
            elif code in codes:
                problems.append(Problem(f"attributes.{i}.code", "pointzero.char.code_duplicate", {"code": code}))
            codes.add(code)
        name = attr.get("name")
        if isinstance(name, str) and not name.strip():
            problems.append(Problem(f"attributes.{i}.name", "pointzero.char.attribute_name"))
        if "level" in attr and not _is_level(attr["level"]):
            problems.append(Problem(f"attributes.{i}.level", "pointzero.char.level", level_params))
    names: set[str] = set()
    for i, skill in _entries(data, "skills", MAX_SKILLS):
        name = skill.get("name")
        if isinstance(name, str):
            if not name.strip():
                problems.append(Problem(f"skills.{i}.name", "pointzero.char.skill_name"))
            elif _fold(name) in names:
                problems.append(Problem(f"skills.{i}.name", "pointzero.char.skill_duplicate", {"name": name[:60]}))
            names.add(_fold(name))
        if "level" in skill and not _is_level(skill["level"]):
            problems.append(Problem(f"skills.{i}.level", "pointzero.char.level", level_params))
    atouts = data.get("atouts")
    if isinstance(atouts, list):
        for i, atout in enumerate(atouts[:MAX_ATOUTS]):
            if isinstance(atout, str) and not atout.strip():
                problems.append(Problem(f"atouts.{i}", "pointzero.char.atout_empty"))
    if problems:
        return problems
    return shape_problems(_shape, data, "pointzero.char.invalid")
