"""The SYSTMJ table state (``document["systems"]["systmj"]``): the universe and its primary
special skills, the current phase of play, the session number, and the Chronoste.

Source: 000_d267ce9097809d3e.txt, 1.3 (the Chronoste: a written trace of time, a calendar
for the long term, clocks covering a day and a night for the short term; any player can
hold it), 2.2.1 (primary special skills are shared by every entity of the universe),
3 (Jeu libre, Action & Mouvement by rounds), 3.4 (the review at the end of a session).
Reading (shared/rules/README.md, SYSTMJ): the table names the calendar's months (default
Gregorian). Readings (ours): a year has the listed months (no leap years: the calendar is
the table's); the clock has 24 hours, day from 06:00 to 20:00.

Shape::

    {"universe": {"name": str, "special_skills": [{"id": "sp-…", "name": str, "da": 1..5}]},
     "phase": "jeu_libre" | "action_mouvement", "round": int,
     "session": int (the session being played, from 1),
     "learning_gain": "1" | "1d4" | "1d10" | "1d20" (optional: the session's gain, 2.4.1),
     "reviewed": [int] (sessions whose review is done),
     "chronoste": {"holder": str, "months": [{"name", "days"}],
                   "year": int, "month": 1.., "day": 1.., "minute": 0..1439,
                   "history": [{"year", "month", "day", "minute", "advanced": minutes, "note"}]},
     "counter": {"attacker": id, "defender": id, "round": int} (optional: a counter-attack
                offered and not rolled yet, 3.3.2)}

A failed attack in force (or a failed Discrétion) opens a counter-attack to its target, with no
defence possible (000, 3.3.2 "Attaque et Contre-Attaque au corps-à-corps": « S'il échoue, son
adversaire est alors en capacité de Contre-attaquer »). It is part of the table, like Théorem's
pending figure and Versality's drawn cards, so a reload keeps it: ``counter`` names who may strike
back (``attacker``), at whom (``defender``), in which round (the state's ``round``: offered in that
round only). The combat page writes it with the exchange that opens it and takes it away with
the next exchange.
"""

from __future__ import annotations

from typing import Any

from ...errors import Problem, RulesError, declare
from ...schema import ID_SCHEMA, array, compiled, integer, record, shape_problems, text
from ...tree import clone
from . import data as D
from . import rounds as RD
from .entity import SPECIAL_ID
from .library import LIBRARY_SCHEMA, library_problems
from .rounds import ROUNDS_SCHEMA

__all__ = [
    "STATE_SCHEMA",
    "add_special_skill",
    "advance",
    "clock",
    "new_state",
    "require_state",
    "validate_state",
]

declare(
    "systmj.state.invalid",
    "systmj.state.not_valid",
    "systmj.universe.name_empty",
    "systmj.universe.too_long",
    "systmj.universe.duplicate",
    "systmj.universe.full",
    "systmj.universe.id_taken",
    "systmj.chronoste.date",
    "systmj.chronoste.too_far",
    "systmj.chronoste.month_name",
    "systmj.phase.not_action",
)

MAX_SPECIAL_SKILLS = 40
MAX_HISTORY = 500
MAX_YEAR = 999_999
_NAME = {"type": "string", "maxLength": 60}

STATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "universe": {
            "type": "object",
            "properties": {
                "name": _NAME,
                "special_skills": {
                    "type": "array",
                    "maxItems": MAX_SPECIAL_SKILLS,
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "pattern": SPECIAL_ID},
                            "name": {"type": "string", "minLength": 1, "maxLength": 60},
                            "da": {"type": "integer", "minimum": 1, "maximum": 5},
                        },
                        "required": ["id", "name", "da"],
                        "additionalProperties": False,
                    },
                },
            },
            "required": ["name", "special_skills"],
            "additionalProperties": False,
        },
        "phase": {"enum": list(D.PHASES)},
        "round": {"type": "integer", "minimum": 0, "maximum": 100000},
        "session": {"type": "integer", "minimum": 1, "maximum": 100000},
        # The gain of the session's learning rolls, the MJ's choice (2.4.1; optional: absent, the
        # modest 1 point). What a roll made on a player's phone gains (py/tablee/referee.py).
        "learning_gain": {"enum": list(D.LEARNING_GAINS)},
        "reviewed": {"type": "array", "maxItems": 1000, "items": {"type": "integer", "minimum": 1, "maximum": 100000}},
        "chronoste": {
            "type": "object",
            "properties": {
                "holder": {"type": "string", "maxLength": 80},
                "months": array(record({"name": text(40, 1), "days": integer(1, 100)}), 24, min_items=1),
                "year": {"type": "integer", "minimum": -MAX_YEAR, "maximum": MAX_YEAR},
                "month": {"type": "integer", "minimum": 1, "maximum": 24},
                "day": {"type": "integer", "minimum": 1, "maximum": 100},
                "minute": {"type": "integer", "minimum": 0, "maximum": D.MINUTES_PER_DAY - 1},
                "history": {
                    "type": "array",
                    "maxItems": MAX_HISTORY,
                    "items": {
                        "type": "object",
                        "properties": {
                            "year": {"type": "integer", "minimum": -MAX_YEAR, "maximum": MAX_YEAR},
                            "month": {"type": "integer", "minimum": 1, "maximum": 24},
                            "day": {"type": "integer", "minimum": 1, "maximum": 100},
                            "minute": {"type": "integer", "minimum": 0, "maximum": D.MINUTES_PER_DAY - 1},
                            "advanced": {"type": "integer", "minimum": 0, "maximum": 10**9},
                            "note": {"type": "string", "maxLength": 200},
                        },
                        "required": ["year", "month", "day", "minute", "advanced", "note"],
                        "additionalProperties": False,
                    },
                },
            },
            "required": ["holder", "months", "year", "month", "day", "minute", "history"],
            "additionalProperties": False,
        },
        # issue 12 (optional, so part 1's documents stay valid): the card library and the
        # Action & Mouvement round in progress.
        "library": LIBRARY_SCHEMA,
        "rounds": ROUNDS_SCHEMA,
        # A counter-attack offered and not rolled yet (3.3.2; optional: see the module doc).
        "counter": {
            "type": "object",
            "properties": {"attacker": ID_SCHEMA, "defender": ID_SCHEMA,
                           "round": {"type": "integer", "minimum": 0, "maximum": 100000}},
            "required": ["attacker", "defender", "round"],
            "additionalProperties": False,
        },
    },
    "required": ["universe", "phase", "round", "session", "reviewed", "chronoste"],
    "additionalProperties": False,
}

#: The very schema every op of the system holds (schema.share): one validator for both.
_shape = compiled(STATE_SCHEMA)


def new_state() -> dict[str, Any]:
    return {
        "universe": {"name": "", "special_skills": []},
        "phase": "jeu_libre",
        "round": 0,
        "session": 1,
        "reviewed": [],
        "chronoste": {
            "holder": "",
            "months": [{"name": n, "days": d} for n, d in D.DEFAULT_MONTHS],
            "year": 1,
            "month": 1,
            "day": 1,
            "minute": 8 * 60,
            "history": [],
        },
    }


def _date_problems(ch: dict[str, Any]) -> list[Problem]:
    if ch["month"] > len(ch["months"]):
        return [Problem("chronoste.month", "systmj.chronoste.date", {"months": len(ch["months"])})]
    days = ch["months"][ch["month"] - 1]["days"]
    if ch["day"] > days:
        return [Problem("chronoste.day", "systmj.chronoste.date", {"days": days})]
    return []


def validate_state(data: Any) -> list[Problem]:
    """Store hook: shape, then the date exists on the table's calendar and ids are unique."""
    problems = shape_problems(_shape, data, "systmj.state.invalid")
    if problems:
        return problems
    problems = _date_problems(data["chronoste"])
    ids = [s["id"] for s in data["universe"]["special_skills"]]
    if len(set(ids)) != len(ids):
        problems.append(Problem("universe.special_skills", "systmj.universe.id_taken"))
    if "library" in data:
        problems.extend(library_problems(data["library"]))
    return problems


def require_state(data: Any) -> dict[str, Any]:
    problems = validate_state(data)
    if problems:
        raise RulesError("systmj.state.not_valid", field=problems[0].field)
    return data


def add_special_skill(state: dict[str, Any], skill_id: str, name: str, da: int) -> dict[str, Any]:
    """Add a primary special skill to the universe's list (2.2.1). Names are unique
    (compared without case and surrounding spaces)."""
    text = name.strip()
    skills = state["universe"]["special_skills"]
    if not text:
        raise RulesError("systmj.universe.name_empty")
    if len(text) > 60:
        raise RulesError("systmj.universe.too_long", max=60)
    if any(s["name"].casefold() == text.casefold() for s in skills):
        raise RulesError("systmj.universe.duplicate", name=text)
    if any(s["id"] == skill_id for s in skills):
        raise RulesError("systmj.universe.id_taken")
    if len(skills) >= MAX_SPECIAL_SKILLS:
        raise RulesError("systmj.universe.full", max=MAX_SPECIAL_SKILLS)
    new = clone(state)
    new["universe"]["special_skills"].append({"id": skill_id, "name": text, "da": da})
    return new


# ------------------------------------------------------------------ the Chronoste


def clock(minute: int) -> dict[str, Any]:
    """The hour on the day-and-night clock (1.3)."""
    hour = minute // 60
    return {
        "hour": hour,
        "minute": minute % 60,
        "text": f"{hour:02d}:{minute % 60:02d}",
        "period": "day" if D.DAWN_HOUR <= hour < D.DUSK_HOUR else "night",
    }


def advance(state: dict[str, Any], amount: int, unit: str, note: str) -> dict[str, Any]:
    """Move the Chronoste forward by minutes, hours or days, and write it in the history
    (the time reached, how much passed, the note). Day overflow walks the table's months
    and years. The history keeps the last :data:`MAX_HISTORY` entries."""
    ch = state["chronoste"]
    problems = _date_problems(ch)
    if problems:
        raise RulesError("systmj.chronoste.date", field=problems[0].field)
    minutes = amount * D.UNITS[unit]
    total = ch["minute"] + minutes
    days, minute = divmod(total, D.MINUTES_PER_DAY)
    year, month, day = ch["year"], ch["month"], ch["day"]
    months = ch["months"]
    year_days = sum(m["days"] for m in months)
    # whole years first, then month by month
    # (days from the first of the current month)
    days += day - 1
    for m in range(month - 1):
        days += months[m]["days"]
    month = 1
    years, days = divmod(days, year_days)
    year += years
    while days >= months[month - 1]["days"]:
        days -= months[month - 1]["days"]
        month += 1
    day = days + 1
    if abs(year) > MAX_YEAR:
        raise RulesError("systmj.chronoste.too_far", max=MAX_YEAR)
    new = clone(state)
    nch = new["chronoste"]
    nch.update(year=year, month=month, day=day, minute=minute)
    nch["history"].append(
        {"year": year, "month": month, "day": day, "minute": minute, "advanced": minutes, "note": note.strip()[:200]}
    )
    del nch["history"][:-MAX_HISTORY]
    return new


def set_months(state: dict[str, Any], months: list[dict[str, Any]]) -> dict[str, Any]:
    """Rename or resize the calendar's months (names trimmed, none empty). The current date
    stays, moved to the last existing month or day when the new calendar is shorter."""
    clean = [{"name": m["name"].strip(), "days": m["days"]} for m in months]
    for i, m in enumerate(clean):
        if not m["name"]:
            raise RulesError("systmj.chronoste.month_name", index=i + 1)
    new = clone(state)
    ch = new["chronoste"]
    ch["months"] = clean
    ch["month"] = min(ch["month"], len(clean))
    ch["day"] = min(ch["day"], clean[ch["month"] - 1]["days"])
    return new


def set_phase(state: dict[str, Any], phase: str) -> dict[str, Any]:
    """Jeu libre, or Action & Mouvement starting at round 1 (3, 3.2).

    One round, one counter: « Chacune de ces deux options doit être décidée avant chaque
    tour » (3.2), so the round tracker (``rounds``) belongs to one Action & Mouvement phase.
    Going back to Jeu libre closes it; entering Action & Mouvement from Jeu libre starts
    without one (``systmj.round.start`` opens it); setting the phase it already has changes
    nothing (the round in progress keeps its number and its choices)."""
    if phase == state["phase"] and phase == "action_mouvement":
        return clone(state)
    new = {k: clone(v) for k, v in state.items() if k != "rounds"}
    new["phase"] = phase
    new["round"] = 1 if phase == "action_mouvement" else 0
    return new


def next_round(state: dict[str, Any]) -> dict[str, Any]:
    """The next round of Action & Mouvement (3.2: « Chacune de ces deux options doit être
    décidée avant chaque tour »): the table's counter and the round tracker move together,
    and the tracker asks every entity for a new hidden choice (nobody has acted yet)."""
    if state["phase"] != "action_mouvement":
        raise RulesError("systmj.phase.not_action")
    new = clone(state)
    if "rounds" in new:
        new["rounds"] = RD.next_round(new["rounds"])
        new["round"] = new["rounds"]["round"]
    else:
        new["round"] = min(new["round"] + 1, 100000)
    return new
