"""Théorem characters: spheres, skills, réalité, dés de Ka, the Ka card, notes.

Source: 003_0f8319d4d007e1fe.txt ("1) Les actions simples": sphère + compétence;
"5) Les arcanes": points de réalité, carte de Ka, dés de Ka; "6) Accomplir un Exploit").
Readings (README, Théorem): the spheres are Animalité, Humanité, Divinité; dés de Ka =
lowest sphere + 1 at the start (the game's character page). The text gives no bounds
for the scores: ours are 0..10 for spheres and skills, 0..999 réalité, 0..20 dés de Ka.
"""

from __future__ import annotations

from typing import Any

from ...errors import Problem, declare
from ...schema import character_head, compiled, fixed_object, integer, named_levels, shape_problems
from . import data as D

__all__ = [
    "CHARACTER_SCHEMA",
    "LIMITS",
    "RESERVED_PREFIX",
    "check_character",
    "new_character",
    "starting_des_ka",
    "validate_character",
]

declare(
    "theorem.char.invalid",
    "theorem.char.range",
    "theorem.char.integer",
    "theorem.char.skill_name",
    "theorem.char.skill_duplicate",
    "theorem.char.name",
    "theorem.char.ka_card",
    "theorem.char.reserved_id",
)

#: Owners the app keeps for itself start with this (the MK's arcana deck is ``"@mk"``,
#: state.MK); the kernel refuses such character ids too (store_records.RESERVED_ID_PREFIX).
RESERVED_PREFIX = "@"

LIMITS = {
    "sphere": (0, 10),
    "skill": (0, 10),
    "realite": (0, 999),
    "des_ka": (0, 20),
}
MAX_SKILLS = 40

CHARACTER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        **character_head("theorem", name_min=1),
        "spheres": fixed_object(D.SPHERES, integer(0, 10)),
        "skills": named_levels(MAX_SKILLS, integer(0, 10)),
        "realite": integer(0, 999),
        "des_ka": integer(0, 20),
        "ka_card": {"type": ["integer", "null"], "minimum": 0, "maximum": len(D.ARCANA) - 1},
        "notes": {"type": "string", "maxLength": 4000},
    },
    "required": ["id", "system", "name", "spheres", "skills", "realite", "des_ka", "ka_card", "notes"],
    "additionalProperties": False,
}

#: The very schema every Théorem op's request holds (schema.share): one validator for both (the
#: "$schema" the copy named chose the same fastjsonschema draft as none does).
_shape = compiled(CHARACTER_SCHEMA)


def starting_des_ka(spheres: dict[str, int]) -> int:
    """Dés de Ka at creation: the lowest sphere + 1 (README, Théorem)."""
    return min(spheres[s] for s in D.SPHERES) + 1


def new_character(cid: str, name: str) -> dict[str, Any]:
    """A fresh character: spheres 2, no skill, 10 réalité (ours: the text gives no start)."""
    spheres = {s: 2 for s in D.SPHERES}
    return {
        "id": cid,
        "system": "theorem",
        "name": name.strip()[:80] or "?",
        "spheres": spheres,
        "skills": [],
        "realite": 10,
        "des_ka": starting_des_ka(spheres),
        "ka_card": None,
        "notes": "",
    }


def _int_problem(value: Any, field: str, lo: int, hi: int) -> Problem | None:
    if not isinstance(value, int) or isinstance(value, bool):
        return Problem(field, "theorem.char.integer", {"min": lo, "max": hi})
    if not lo <= value <= hi:
        return Problem(field, "theorem.char.range", {"min": lo, "max": hi, "value": value})
    return None


def check_character(c: Any) -> list[Problem]:
    """Every problem of a (possibly edited) character, each at its field, French by key.

    The specific checks run first so a player typing 12 in a sphere reads "entre 0 et 10"
    at that field; the JSON Schema then catches anything else (``theorem.char.invalid``).
    """
    if not isinstance(c, dict):
        return [Problem("", "theorem.char.invalid", {"detail": "object"})]
    problems: list[Problem] = []
    cid = c.get("id")
    if isinstance(cid, str) and cid.startswith(RESERVED_PREFIX):
        # A character "@mk" would play the MK's hand and see it ("Attention :" the MK's
        # hand is his own; "A) Au commencement": hands lie face down, unseen by others).
        problems.append(Problem("id", "theorem.char.reserved_id", {"id": cid[:64]}))
    name = c.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        problems.append(Problem("name", "theorem.char.name", {"max": 80}))
    spheres = c.get("spheres")
    if isinstance(spheres, dict):
        for s in D.SPHERES:
            p = _int_problem(spheres.get(s), f"spheres.{s}", *LIMITS["sphere"])
            if p:
                problems.append(p)
    skills = c.get("skills")
    if isinstance(skills, list):
        seen: set[str] = set()
        for i, sk in enumerate(skills[:MAX_SKILLS]):
            if not isinstance(sk, dict):
                continue
            nm = sk.get("name")
            if not isinstance(nm, str) or not nm.strip() or len(nm) > 60:
                problems.append(Problem(f"skills.{i}.name", "theorem.char.skill_name", {"max": 60}))
            elif nm.strip().casefold() in seen:
                problems.append(Problem(f"skills.{i}.name", "theorem.char.skill_duplicate", {"skill": nm.strip()}))
            else:
                seen.add(nm.strip().casefold())
            p = _int_problem(sk.get("level"), f"skills.{i}.level", *LIMITS["skill"])
            if p:
                problems.append(p)
    for key in ("realite", "des_ka"):
        if key in c:
            p = _int_problem(c[key], key, *LIMITS[key])
            if p:
                problems.append(p)
    ka = c.get("ka_card")
    if ka is not None and (not isinstance(ka, int) or isinstance(ka, bool) or not 0 <= ka < len(D.ARCANA)):
        problems.append(Problem("ka_card", "theorem.char.ka_card"))
    if not problems:
        problems = shape_problems(_shape, c, "theorem.char.invalid")
    return problems


def validate_character(c: dict[str, Any]) -> list[Problem]:
    """Store hook (:class:`tablee.system.StoreHooks`)."""
    return check_character(c)
