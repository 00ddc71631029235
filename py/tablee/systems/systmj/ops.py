"""SYSTMJ API ops (registered on import). Source: 000_d267ce9097809d3e.txt, sections 1 to 3.4.

Tests, learning and experience take plain numbers (the scores the page read from the
sheets) and a seed, so the request stored in the roll log replays the roll exactly; the
page writes the returned scores back onto the entity. ``subject`` (who, which skill or
attribute, which session) is echoed and lets the end-of-session review find the skills
used in the session from the log.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from ... import cards
from ...character_ops import ID_SCHEMA, CharacterOp, character_ops
from ...errors import RulesError, declare
from ...registry import SystemOps, rng_from
from ...schema import array, record
from . import data as D
from . import entity as E
from . import learning as L
from . import resolution as R
from . import state as S

__all__ = ["systmj_op"]

declare("systmj.test.modifiers", "systmj.review.duplicate", "systmj.review.unknown_key")


_ID = ID_SCHEMA
_SCORE = {"type": "integer", "minimum": D.SCORE_MIN, "maximum": D.SCORE_MAX}
_CHAR = E.CHARACTER_SCHEMA
_STATE = S.STATE_SCHEMA
#: How SYSTMJ declares its ops (here and in ops_cards): ``systmj.<name>``, ``state=True`` for the
#: table state, ``character=True`` for an entity sheet.
systmj_op = SystemOps("systmj", state=_STATE, character=_CHAR)
_SESSION = {"type": "integer", "minimum": 1, "maximum": 100000}
_KEY = {"type": "string", "minLength": 1, "maxLength": 64}

#: Who is tested on what, echoed by the ops (the review reads it back from the log).
SUBJECT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "character": _ID,
        "target": {"enum": ["skill", "attribute"]},
        "key": _KEY,
        "session": _SESSION,
        # issue 12: the card used for the test (its wear malus is a "wear" modifier); the
        # wear review lists it as used in the session.
        "item": {"type": "string", "pattern": r"^(EQ|RE|SA|PO)-[0-9]{5}$"},
    },
    "required": ["character", "target", "key"],
    "additionalProperties": False,
}

#: One modifier of a test: the MJ's bonus/malus (2.3.2), an attribute used for a missing
#: skill (2.3.1), or another source the table adds (issue 12: the wear malus of an item).
MODIFIER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "source": {"enum": ["mj", "substitute", "wear", "other"]},
        "value": {"type": "integer", "minimum": D.MODIFIER_MIN, "maximum": D.MODIFIER_MAX},
        "label": {"type": "string", "maxLength": 80},
    },
    "required": ["source", "value"],
    "additionalProperties": False,
}

#: The request of a test and of its odds (the roll adds its seed).
_TEST: dict[str, Any] = {
    "takes": {"score": _SCORE},
    "may": {
        "modifiers": {"type": "array", "maxItems": 8, "items": MODIFIER_SCHEMA},
        "automatic": {"type": "boolean"},
        "subject": SUBJECT_SCHEMA,
    },
}

_MENTOR = {
    "type": "object",
    "properties": {"intelligence": _SCORE, "personnalite": _SCORE, "score": _SCORE, "character": _ID},
    "required": ["intelligence", "personnalite", "score"],
    "additionalProperties": False,
}
#: The request of a learning session and of its odds (the roll adds its seed).
_LEARN: dict[str, Any] = {
    "takes": {
        "score": _SCORE,
        "intelligence": _SCORE,
        "personnalite": _SCORE,
        "da": {"type": "integer", "minimum": 1, "maximum": 5},
        "gain": {"enum": list(D.LEARNING_GAINS)},
    },
    "may": {
        "mentor": _MENTOR,
        "subject": SUBJECT_SCHEMA,
        # The character's learning rolls already made ({session, key}): with the subject's skill
        # and session, a second roll for the same skill in the same session is refused (2.4.1).
        "learned": array(record({"session": _SESSION, "key": _KEY}, closed=False), 300),
    },
}


def _p(f: Fraction) -> dict[str, Any]:
    return cards.fraction_json(f)


def _mean(f: Fraction) -> dict[str, Any]:
    """An expected value: exact fraction and a float (not a percent)."""
    return {"fraction": f"{f.numerator}/{f.denominator}", "value": round(float(f), 4)}


def _modifiers(request: dict[str, Any]) -> list[int]:
    mods = [m["value"] for m in request.get("modifiers", [])]
    if not D.MODIFIER_MIN <= sum(mods) <= D.MODIFIER_MAX:
        raise RulesError("systmj.test.modifiers", total=sum(mods), min=D.MODIFIER_MIN, max=D.MODIFIER_MAX)
    return mods


def _echo(request: dict[str, Any]) -> dict[str, Any]:
    return {"subject": request["subject"]} if "subject" in request else {}


@systmj_op("rules",
           summary="The tables as data: attributes, pairs, skills, scale, modifiers, DA, learning quality, dice.")
def _rules(request: dict[str, Any]) -> dict[str, Any]:
    return {
        "attributes": list(D.ATTRIBUTES),
        "pairs": {k: list(v) for k, v in D.PAIRS.items()},
        "skill_groups": {k: list(v) for k, v in D.SKILL_GROUPS.items()},
        "generic_skills": list(D.GENERIC_SKILLS),
        "scale": [{"min": a, "max": b, "degree": n} for a, b, n in D.SKILL_SCALE],
        "modifiers": D.MODIFIERS,
        "da": {str(k): v for k, v in D.DA_TABLE.items()},
        "generic_da": D.GENERIC_DA,
        "learning_quality": [{"min": a, "max": b, "quality": q, "multiplier": m} for a, b, q, m in D.LEARNING_QUALITY],
        "learning_gains": list(D.LEARNING_GAINS),
        "xp_dice": list(D.XP_DICE),
        "mentor_minimum": D.MENTOR_MINIMUM,
        "attribute_gain_max": D.ATTRIBUTE_GAIN_MAX,
        "kinds": list(D.KINDS),
        "phases": list(D.PHASES),
    }


# ------------------------------------------------------------------ entities


@systmj_op("entity.new", takes={"id": _ID},
           may={"name": {"type": "string", "maxLength": 80}, "kind": {"enum": list(D.KINDS)}},
           summary="A new PJ, PNJ or Créature (scores at 0, no language yet).")
def _entity_new(request: dict[str, Any]) -> dict[str, Any]:
    name = request.get("name", "").strip()
    if not name:
        raise RulesError("systmj.entity.name_empty")
    return {"character": E.new_entity(request["id"], name, request.get("kind", "pj"))}


# The list page of every system creates through "<system>.character.new"; same op, same rules.
character_ops(
    systmj_op,
    character=_CHAR,
    new=CharacterOp(_entity_new, "Alias of systmj.entity.new (the shared character list creates through "
                    "<system>.character.new).", {"kind": {"enum": list(D.KINDS)}}),
)


_CHANGES = {
    "type": "object",
    "properties": {
        "name": {},
        "kind": {},
        "language": {},
        "player": {},
        "notes": {},
        "pv_max": {},
        "pa_max": {},
        "attributes": {"type": "object", "maxProperties": 20},
        "skills": {"type": "object", "maxProperties": 20},
        "special": {"type": "object", "maxProperties": 60},
    },
    "additionalProperties": False,
}


@systmj_op(
    "entity.edit", character=True,
    takes={"changes": _CHANGES},
    may={
        "special_ids": {
            "type": "array",
            "maxItems": S.MAX_SPECIAL_SKILLS,
            "items": {"type": "string", "pattern": E.SPECIAL_ID},
        },
    },
    summary="Apply a sheet form's changes (values as typed): each bad value is a problem at its field and changes "
    "nothing.",
)
def _entity_edit(request: dict[str, Any]) -> dict[str, Any]:
    c = E.require_entity(request["character"])
    new, problems = E.edit_entity(c, request["changes"], request.get("special_ids"))
    return {"character": new, "problems": [p.to_json() for p in problems], "changed": new != c}


@systmj_op("entity.check", character=True,
           summary="What the sheet still lacks, and the degree of every score on the skill scale.")
def _entity_check(request: dict[str, Any]) -> dict[str, Any]:
    c = E.require_entity(request["character"])
    problems = E.check_entity(c)
    return {
        "ok": not problems,
        "problems": [p.to_json() for p in problems],
        "degrees": {
            "attributes": {k: D.degree(v) for k, v in c["attributes"].items()},
            "skills": {k: D.degree(v) for k, v in c["skills"].items()},
            "special": {k: D.degree(v) for k, v in c["special"].items()},
        },
    }


# ------------------------------------------------------------------ table state


@systmj_op("state.new",
           summary="A fresh SYSTMJ table state (no special skills, Jeu libre, session 1, Chronoste at 1 Janvier year "
           "1, 08:00).")
def _state_new(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": S.new_state()}


@systmj_op("universe.set", state=True, takes={"name": {"type": "string", "maxLength": 200}},
           summary="Name the table's universe.")
def _universe_set(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    name = request["name"].strip()
    if len(name) > 60:
        raise RulesError("systmj.universe.too_long", max=60)
    new = {**state, "universe": {**state["universe"], "name": name}}
    return {"state": new}


@systmj_op(
    "universe.skill.add", state=True,
    takes={
        "id": {"type": "string", "pattern": E.SPECIAL_ID},
        "name": {"type": "string", "maxLength": 200},
        "da": {"type": "integer", "minimum": 1, "maximum": 5},
    },
    summary="Add a primary special skill (shared by every entity) with its learning difficulty.",
)
def _skill_add(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    return {"state": S.add_special_skill(state, request["id"], request["name"], request["da"])}


@systmj_op("phase.set", state=True, takes={"phase": {"enum": list(D.PHASES)}},
           summary="The table's phase: Jeu libre, or Action & Mouvement (from round 1).")
def _phase_set(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": S.set_phase(S.require_state(request["state"]), request["phase"])}


@systmj_op("phase.next_round", state=True, summary="Next round of Action & Mouvement.")
def _next_round(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": S.next_round(S.require_state(request["state"]))}


@systmj_op("chronoste.advance", state=True,
           takes={"amount": {"type": "integer", "minimum": 1, "maximum": 100000}, "unit": {"enum": list(D.UNITS)}},
           may={"note": {"type": "string", "maxLength": 200}},
           summary="Advance the Chronoste by minutes, hours or days, with a note in its history.")
def _advance(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    new = S.advance(state, request["amount"], request["unit"], request.get("note", ""))
    return {"state": new, "clock": S.clock(new["chronoste"]["minute"])}


@systmj_op(
    "chronoste.set", state=True,
    may={
        "holder": {"type": "string", "maxLength": 80},
        "year": {"type": "integer", "minimum": -S.MAX_YEAR, "maximum": S.MAX_YEAR},
        "month": {"type": "integer", "minimum": 1, "maximum": 24},
        "day": {"type": "integer", "minimum": 1, "maximum": 100},
        "minute": {"type": "integer", "minimum": 0, "maximum": D.MINUTES_PER_DAY - 1},
    },
    summary="Set who holds the Chronoste, or its date and time (the date must exist on the calendar).",
)
def _chronoste_set(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    ch = dict(state["chronoste"])
    for key in ("holder", "year", "month", "day", "minute"):
        if key in request:
            ch[key] = request[key].strip() if key == "holder" else request[key]
    problems = S._date_problems(ch)
    if problems:
        raise RulesError("systmj.chronoste.date", field=problems[0].field, **problems[0].params)
    return {"state": {**state, "chronoste": ch}, "clock": S.clock(ch["minute"])}


@systmj_op("chronoste.months", state=True, takes={"months": _STATE["properties"]["chronoste"]["properties"]["months"]},
           summary="The table's calendar: its months' names and lengths (README: default Gregorian). A current day "
           "past the new month's end moves to its last day.")
def _chronoste_months(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    return {"state": S.set_months(state, request["months"])}


# ------------------------------------------------------------------ tests


def _odds_json(odds: dict[str, Any]) -> dict[str, Any]:
    return {
        "effective": odds["effective"],
        "thirds": list(R.thirds(odds["effective"])),
        "automatic": odds["automatic"],
        "rows": [{"outcome": k, **_p(v)} for k, v in odds["rows"].items()],
        "success": _p(odds["success"]),
    }


@systmj_op("test.odds", **_TEST,
           summary="Exact chance of each outcome of a d100 test before the roll (critical failure, failure, de "
           "justesse, moyenne, notable, critical success).")
def _test_odds(request: dict[str, Any]) -> dict[str, Any]:
    mods = _modifiers(request)
    odds = R.test_odds(request["score"], mods, automatic_success=request.get("automatic", False))
    return {"score": request["score"], **_odds_json(odds), **_echo(request)}


@systmj_op("test", **_TEST, seed=True,
           summary="A d100 skill or attribute test (seeded): dice (tens, units), outcome and degree.")
def _test(request: dict[str, Any]) -> dict[str, Any]:
    mods = _modifiers(request)
    rng = rng_from(request)
    auto = R.automatic(request["score"], automatic_success=request.get("automatic", False))
    dice = None if auto else R.roll_d100(rng)
    result = R.resolve(request["score"], mods, dice=dice, automatic_success=request.get("automatic", False))
    return {"seed": request["seed"], **result, **_echo(request)}


# ------------------------------------------------------------------ learning and experience


def _plan(request: dict[str, Any]) -> dict[str, Any]:
    subject = request.get("subject")
    if subject and "session" in subject and subject.get("target", "skill") == "skill":
        L.check_once_per_session(subject["key"], subject["session"], request.get("learned", []))
    return L.learning_plan(
        score=request["score"],
        intelligence=request["intelligence"],
        personnalite=request["personnalite"],
        da=request["da"],
        mentor=request.get("mentor"),
    )


@systmj_op("learning.odds", **_LEARN,
           summary="A learning session before the roll: who may learn, the cognitive limit, the exact distribution of "
           "the points gained and of the quality.")
def _learning_odds(request: dict[str, Any]) -> dict[str, Any]:
    plan = _plan(request)
    gains = L.gain_distribution(request["score"], plan["limit"], request["gain"])
    quality = L.quality_distribution(plan["limit"])
    return {
        **plan,
        "gain": request["gain"],
        "points": [{"points": k, **_p(v)} for k, v in gains.items()],
        "quality": [{"quality": k, **_p(v)} for k, v in quality.items()],
        "expected": _mean(sum((k * v for k, v in gains.items()), Fraction(0))),
        **_echo(request),
    }


@systmj_op("learning.roll", **_LEARN, seed=True,
           summary="A learning roll (seeded): d100 capped at the cognitive limit, quality, gain × XP multiplier, the "
           "new score.")
def _learning_roll(request: dict[str, Any]) -> dict[str, Any]:
    plan = _plan(request)
    rng = rng_from(request)
    tens, units = R.roll_d100(rng)
    gain_value = L.roll_die(request["gain"], D.LEARNING_GAINS, rng)
    result = L.resolve_learning(request["score"], plan["limit"], 10 * tens + units, gain_value)
    return {"seed": request["seed"], **plan, "gain": request["gain"], "dice": [tens, units], **result, **_echo(request)}


_GRANT = {
    "type": "object",
    "properties": {
        "target": {"enum": ["skill", "attribute"]},
        "key": _KEY,
        "score": _SCORE,
        "die": {"enum": list(D.XP_DICE)},
        "gain": {"type": "integer", "minimum": 1, "maximum": D.ATTRIBUTE_GAIN_MAX},
        "reason": {"type": "string", "maxLength": 200},
    },
    "required": ["target", "key", "score"],
    "additionalProperties": False,
    "if": {"properties": {"target": {"const": "attribute"}}, "required": ["target"]},
    "then": {"required": ["gain", "reason"]},
    "else": {"required": ["die"]},
}


def _known_key(target: str, key: str) -> bool:
    """Whether a grant names a score a SYSTMJ sheet has: one of the seven attributes (2.1), or
    a generic skill (2.2) or a primary special skill id (2.2.1) for a skill. 3.4.2: « Elle
    concerne principalement les Compétences ; de manière exceptionnelle, elle peut aussi
    porter sur les Attributs. »"""
    if target == "attribute":
        return key in D.ATTRIBUTES
    return key in D.GENERIC_SKILLS or re.fullmatch(E.SPECIAL_ID, key) is not None


@systmj_op(
    "review.grant", seed=True,
    takes={
        "character": _ID,
        "session": _SESSION,
        "grants": {"type": "array", "minItems": 1, "maxItems": 80, "items": _GRANT},
    },
    summary="End-of-session experience for one PJ (seeded): +1 or a die per skill, attribute gains with the MJ's "
    "reason; the new scores (never past 99) and the records for the sheet.",
)
def _review_grant(request: dict[str, Any]) -> dict[str, Any]:
    """End-of-session experience (2.4.4, 3.4.2). Every grant names a score the sheet has: an
    unknown attribute or skill (``charisme``, ``__proto__``) is refused with its field named
    (``grants.<i>.key``), and nothing is rolled."""
    for i, g in enumerate(request["grants"]):
        if not _known_key(g["target"], g["key"]):
            raise RulesError("systmj.review.unknown_key", field=f"grants.{i}.key", target=g["target"], key=g["key"])
    seen = set()
    for g in request["grants"]:
        if (g["target"], g["key"]) in seen:
            raise RulesError("systmj.review.duplicate", key=g["key"])
        seen.add((g["target"], g["key"]))
    rng = rng_from(request)
    results = [L.xp_grant(g, rng) for g in request["grants"]]
    records = [
        {
            "session": request["session"],
            "kind": "attribute" if r["target"] == "attribute" else "xp",
            "target": r["target"],
            "key": r["key"],
            "before": r["before"],
            "after": r["after"],
            "note": r.get("reason") or (r["die"] if r["die"] == "1" else f"{r['die']} → {r['rolled']}"),
        }
        for r in results
    ]
    return {
        "seed": request["seed"],
        "character": request["character"],
        "session": request["session"],
        "results": results,
        "records": records,
    }


_LOG_ENTRY = {"type": "object"}


def skills_used(log: list[Any], session: int) -> dict[str, list[str]]:
    """character id -> the skills tested during ``session``, in the order first used, read
    from the roll log's ``systmj.test`` entries (their request's subject). Entries of any
    other shape are skipped: the log is the table's, not ours to trust."""
    used: dict[str, list[str]] = {}
    for entry in log:
        if not isinstance(entry, dict) or entry.get("kind") != "systmj.test":
            continue
        request = entry.get("request")
        subject = request.get("subject") if isinstance(request, dict) else None
        if not isinstance(subject, dict) or subject.get("session") != session or subject.get("target") != "skill":
            continue
        who, key = subject.get("character"), subject.get("key")
        if isinstance(who, str) and isinstance(key, str):
            keys = used.setdefault(who, [])
            if key not in keys:
                keys.append(key)
    return used


@systmj_op("review.plan", state=True, takes={"log": {"type": "array", "maxItems": 1000, "items": _LOG_ENTRY}},
           summary="The end-of-session review's starting point: the session and, per character, the skills used in it "
           "(from the roll log).")
def _review_plan(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    session = state["session"]
    return {"session": session, "reviewed": session in state["reviewed"], "used": skills_used(request["log"], session)}


@systmj_op("session.gain", state=True, takes={"gain": {"enum": list(D.LEARNING_GAINS)}},
           summary="The MJ's gain for the session's learning rolls (1 point, 1D4, 1D10, 1D20): the one a roll "
           "made on a player's phone gains.")
def _session_gain(request: dict[str, Any]) -> dict[str, Any]:
    """000_d267ce9097809d3e.txt, 2.4.1: the MJ chooses what a period of study may bring (the
    gain: « 1 point, 1D4, 1D10 ou 1D20 »); rules/README.md (SYSTMJ): "the MJ chooses the gain of
    the session". Kept in the table state so that a roll made on a player's phone, which the
    MJ's device runs, gains what the MJ chose (referee.py ``_sj_gain``)."""
    state = S.require_state(request["state"])
    return {"state": {**state, "learning_gain": request["gain"]}}


@systmj_op("session.close", state=True,
           summary="The review is done: the session is marked reviewed and the next one begins.")
def _session_close(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    reviewed = sorted(set(state["reviewed"]) | {state["session"]})[-1000:]
    return {"state": {**state, "reviewed": reviewed, "session": min(state["session"] + 1, 100000)}}
