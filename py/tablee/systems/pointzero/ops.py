"""Point Zéro API ops (registered on import). Every handler is pure: JSON in, JSON out.

Source: 002_61483667e16cef6b.txt (see resolution.py and tension.py for each rule);
readings: rules/README.md (Point Zéro).

Hidden information: the Jauge de Tension's threshold lives in the table state. The ops a
player page reads from (``pointzero.test.*``, ``pointzero.opposition.*``) take only the
public ``critical`` flag; ``pointzero.tension.view`` and ``pointzero.tension.use`` answer
the player view (no threshold; ``tension.use`` also gives the new state to save, which the
page stores without reading it); only ``pointzero.mj.*`` answer the threshold.
"""

from __future__ import annotations

from typing import Any

from ...character_ops import CharacterOp, character_ops
from ...errors import RulesError, declare
from ...registry import SEED_SCHEMA, SystemOps, rng_from
from ...tree import clone
from . import character as C
from . import resolution as R
from . import tension as T
from .data import DIFFICULTIES, LEVEL_MAX, MODIFIERS, data_tables

__all__: list[str] = []

declare(
    "pointzero.test.no_difficulty",
    "pointzero.test.attribute_with_skill",
    "pointzero.opposition.sides",
    "pointzero.opposition.dice_sides",
)

#: The most sides one opposition takes ("Deux personnages (ou plus)").
MAX_SIDES = 8

S = "pointzero"

_ID = {"type": "string", "minLength": 1, "maxLength": 64}
_LEVEL = {"type": "integer", "minimum": 0, "maximum": LEVEL_MAX}
_STATE = T.STATE_SCHEMA
#: How Point Zéro declares its ops: ``pointzero.<name>``, ``state=True`` for the table state.
pointzero_op = SystemOps(S, state=_STATE)
#: A test as declared: skill or attribute test, levels, Tension die option, sacrifice.
_SIDE_PROPS: dict[str, Any] = {
    "kind": {"enum": ["skill", "attribute"]},
    "skill": _LEVEL,
    "attribute": _LEVEL,
    "sacrifice": {"type": "integer", "minimum": 0, "maximum": LEVEL_MAX + 2},
    "tension": {"type": "boolean"},
    "critical": {"type": "boolean"},
    "meticuleux": {"type": "boolean"},
    "skill_name": {"type": "string", "maxLength": 60},
    "attribute_code": {"type": "string", "maxLength": 3},
    "tension_rule": {"enum": list(R.TENSION_RULES)},
}
TEST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        **_SIDE_PROPS,
        "difficulty": {
            "anyOf": [{"enum": list(DIFFICULTIES)}, {"type": "integer", "minimum": 0, "maximum": 99}]
        },
        "modifiers": {"type": "array", "items": {"enum": list(MODIFIERS)}, "maxItems": 10},
    },
    "required": ["kind", "attribute"],
    "additionalProperties": False,
}
SIDE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {**_SIDE_PROPS, "name": {"type": "string", "maxLength": 80}},
    "required": ["kind", "attribute"],
    "additionalProperties": False,
}
_DICE = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}, "maxItems": LEVEL_MAX + 2}
_KEEP = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": LEVEL_MAX + 1},
    "maxItems": LEVEL_MAX + 2,
}


def _plan(spec: dict[str, Any]) -> R.Plan:
    """The plan of a declared test. A contradictory declaration is refused, never trimmed:
    an attribute test ("Test d'Attribut": "le joueur lance autant de dés que le niveau de
    l'Attribut") that also names a skill level or a skill name."""
    if spec["kind"] == "attribute" and ("skill" in spec or "skill_name" in spec):
        raise RulesError("pointzero.test.attribute_with_skill")
    return R.plan_test(
        spec["kind"],
        spec["attribute"],
        spec.get("skill", 0),
        sacrifice=spec.get("sacrifice", 0),
        tension=spec.get("tension", False),
        critical=spec.get("critical", False),
        tension_rule=spec.get("tension_rule", R.TENSION_RULES[0]),
    )


def _difficulty(spec: dict[str, Any]) -> int:
    if "difficulty" not in spec:
        raise RulesError("pointzero.test.no_difficulty")
    return R.difficulty_value(spec["difficulty"], [MODIFIERS[m] for m in spec.get("modifiers", [])])


def _notation(spec: dict[str, Any], difficulty: int | None) -> str | None:
    """The text's notation, or None when the side names no attribute (an NPC given by its
    levels only): never a made-up code."""
    code = spec.get("attribute_code")
    if not code:
        return None
    return R.notation(spec["kind"], code, difficulty, spec.get("skill_name") or None)


def _options(spec: dict[str, Any]) -> dict[str, Any]:
    dice = R.pool_size(spec["kind"], spec.get("skill", 0), spec.get("tension", False))
    return R.surpassement_options(spec["kind"], dice, spec["attribute"], critical=spec.get("critical", False))


def _summary(plan: R.Plan, difficulty: int) -> dict[str, Any]:
    odds = R.test_odds(plan, difficulty)
    return {
        "sacrifice": plan.sacrifice,
        "dice": plan.dice,
        "bonus": plan.bonus,
        **{k: odds[k] for k in ("success", "critical_success", "critical_failure", "mean_total", "mean_total_value")},
    }


@pointzero_op("rules", summary="The rules as data: difficulty ladder, modifiers, attributes, bounds.")
def _rules(request: dict[str, Any]) -> dict[str, Any]:
    return data_tables()


def _char_new(request: dict[str, Any]) -> dict[str, Any]:
    name = request["name"].strip()
    if not name:
        raise RulesError("pointzero.char.name")
    return {"character": C.new_character(request["id"], name)}


def _char_check(request: dict[str, Any]) -> dict[str, Any]:
    problems = C.validate_character(request["character"])
    return {"valid": not problems, "problems": [p.to_json() for p in problems]}


character_ops(
    pointzero_op,
    character={"type": "object", "maxProperties": 20},
    new=CharacterOp(_char_new, "A fresh sheet: Vigueur, Adresse, Perception, Cognition at 2, no skill yet.",
                    required=("name",)),
    check=CharacterOp(_char_check, "Every problem of a sheet, each at its field (French/English messages by key)."),
)


@pointzero_op("test.odds", takes={"test": TEST_SCHEMA},
              summary="Before the roll: the plan, the notation, the Surpassement choices (allowed, refused with "
              "reasons), exact odds (success, each critical, margin) and every allowed sacrifice compared.")
def _test_odds(request: dict[str, Any]) -> dict[str, Any]:
    """A refused sacrifice is not an error here: the answer says why (``sacrifice_refused``)
    and has no odds, so the page can fall back to an allowed choice."""
    spec = request["test"]
    difficulty = _difficulty(spec)
    base = {**spec, "sacrifice": 0}
    _plan(base)  # the test itself must be possible (attribute 0, skill 0, ...)
    options = _options(spec)
    out: dict[str, Any] = {
        "difficulty": difficulty,
        "notation": _notation(spec, difficulty),
        "surpassement": options,
    }
    sacrifice = spec.get("sacrifice", 0)
    if sacrifice not in options["allowed"]:
        refused = next((r for r in options["refused"] if r["count"] == sacrifice), None)
        reason = refused["reasons"][0] if refused else {"code": "pointzero.surpassement.too_many", "params": {}}
        out.update(plan=None, odds=None, sacrifice_refused=reason)
    else:
        plan = _plan(spec)
        out.update(plan=plan.to_json(), odds=R.test_odds(plan, difficulty), sacrifice_refused=None)
    out["comparison"] = [_summary(_plan({**spec, "sacrifice": s}), difficulty) for s in options["allowed"]]
    return out


def _result(spec: dict[str, Any], dice: list[int], keep: list[int] | None) -> dict[str, Any]:
    plan = _plan(spec)
    difficulty = _difficulty(spec)
    result = R.resolve(plan, dice, difficulty, keep=keep, meticuleux=spec.get("meticuleux", False))
    return {"plan": plan.to_json(), "notation": _notation(spec, difficulty), "result": result}


@pointzero_op("test.roll", takes={"test": TEST_SCHEMA, "seed": SEED_SCHEMA}, may={"keep": _KEEP},
              summary="Roll a declared test (seeded): every die (kept and dropped), bonuses, total, success, margin, "
              "criticals. keep: the dice a Méticuleux holder keeps (same seed, same dice).")
def _test_roll(request: dict[str, Any]) -> dict[str, Any]:
    spec = request["test"]
    plan = _plan(spec)
    _difficulty(spec)
    dice = R.roll_dice(plan, rng_from(request))
    return {"seed": request["seed"], **_result(spec, dice, request.get("keep"))}


@pointzero_op("test.resolve", takes={"test": TEST_SCHEMA, "dice": _DICE}, may={"keep": _KEEP},
              summary="Resolve a declared test from given dice (a roll at the table, the text's examples).")
def _test_resolve(request: dict[str, Any]) -> dict[str, Any]:
    return _result(request["test"], request["dice"], request.get("keep"))


def _side(spec: dict[str, Any], dice: list[int] | None = None, rng: Any = None) -> dict[str, Any]:
    plan = _plan(spec)
    rolled = dice if dice is not None else R.roll_dice(plan, rng)
    result = R.resolve(plan, rolled, None)
    return {"plan": plan.to_json(), "notation": _notation(spec, None), "result": result}


def _tie_key(spec: dict[str, Any], total: int) -> dict[str, Any]:
    skill = spec.get("skill", 0) if spec["kind"] == "skill" else 0
    return {"total": total, "skill": skill, "attribute": spec["attribute"]}


def _opposition(a_spec: dict[str, Any], b_spec: dict[str, Any], a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    outcome = R.resolve_opposition(_tie_key(a_spec, a["result"]["total"]), _tie_key(b_spec, b["result"]["total"]))
    return {"a": a, "b": b, **outcome}


_SIDES = {"type": "array", "items": SIDE_SCHEMA, "minItems": 2, "maxItems": MAX_SIDES}
#: The request of an opposition and of its odds (the roll adds its seed): two sides as a and b,
#: or a list of sides (see ``_sides``).
_OPPOSITION: dict[str, Any] = {"may": {"a": SIDE_SCHEMA, "b": SIDE_SCHEMA, "sides": _SIDES}}
_OPP_DOC = (
    " Two sides as a and b, or any number (2..8) as sides: \"Deux personnages (ou plus)\"; "
    "with sides, winner is an index."
)


def _sides(request: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The sides of an opposition request: ``sides`` (a list, answered by index), or None
    for the two-side form ``a``/``b``; both or neither is refused."""
    has_pair = "a" in request or "b" in request
    if "sides" in request:
        if has_pair:
            raise RulesError("pointzero.opposition.sides", max=MAX_SIDES)
        return request["sides"]
    if not ("a" in request and "b" in request):
        raise RulesError("pointzero.opposition.sides", max=MAX_SIDES)
    return None


def _many(specs: list[dict[str, Any]], results: list[dict[str, Any]]) -> dict[str, Any]:
    keys = [_tie_key(s, r["result"]["total"]) for s, r in zip(specs, results, strict=True)]
    return {"sides": results, **R.resolve_opposition_many(keys)}


@pointzero_op("opposition.odds", **_OPPOSITION,
              summary="Exact odds of an opposition (each side winning / perfect tie), the tie-breaks included, and "
              "each side's Surpassement choices." + _OPP_DOC)
def _opp_odds(request: dict[str, Any]) -> dict[str, Any]:
    specs = _sides(request)
    if specs is not None:
        plans = [_plan(s) for s in specs]
        odds = R.opposition_odds_many(plans)
        return {
            "sides": [
                {"plan": p.to_json(), "notation": _notation(s, None), "surpassement": _options(s), "wins": w}
                for s, p, w in zip(specs, plans, odds["wins"], strict=True)
            ],
            "perfect_tie": odds["perfect_tie"],
            "eventual": odds["eventual"],
        }
    a, b = request["a"], request["b"]
    pa, pb = _plan(a), _plan(b)
    # The tie-break reads the skill level of a skill test, 0 for an attribute test.
    return {
        "a": {"plan": pa.to_json(), "notation": _notation(a, None), "surpassement": _options(a)},
        "b": {"plan": pb.to_json(), "notation": _notation(b, None), "surpassement": _options(b)},
        **R.opposition_odds(pa, pb),
    }


@pointzero_op("opposition.roll", **_OPPOSITION, seed=True,
              summary="Roll every test of an opposition (seeded; in the sides' order): the higher total wins, "
              "ties go to the higher skill, then the higher attribute, else a perfect tie." + _OPP_DOC)
def _opp_roll(request: dict[str, Any]) -> dict[str, Any]:
    rng = rng_from(request)
    specs = _sides(request)
    if specs is not None:
        for s in specs:
            _plan(s)
        return {"seed": request["seed"], **_many(specs, [_side(s, rng=rng) for s in specs])}
    a, b = request["a"], request["b"]
    _plan(a), _plan(b)
    return {"seed": request["seed"], **_opposition(a, b, _side(a, rng=rng), _side(b, rng=rng))}


@pointzero_op(
    "opposition.resolve",
    may={
        "a": SIDE_SCHEMA,
        "b": SIDE_SCHEMA,
        "dice_a": _DICE,
        "dice_b": _DICE,
        "sides": _SIDES,
        "dice": {"type": "array", "items": _DICE, "minItems": 2, "maxItems": MAX_SIDES},
    },
    summary="Resolve an opposition from given dice (dice_a/dice_b, or dice: one list per side)." + _OPP_DOC,
)
def _opp_resolve(request: dict[str, Any]) -> dict[str, Any]:
    specs = _sides(request)
    if specs is not None:
        dice = request.get("dice")
        if dice is None or len(dice) != len(specs) or "dice_a" in request or "dice_b" in request:
            raise RulesError("pointzero.opposition.dice_sides", sides=len(specs))
        return _many(specs, [_side(s, dice=d) for s, d in zip(specs, dice, strict=True)])
    if "dice_a" not in request or "dice_b" not in request or "dice" in request:
        raise RulesError("pointzero.opposition.dice_sides", sides=2)
    a, b = request["a"], request["b"]
    return _opposition(a, b, _side(a, dice=request["dice_a"]), _side(b, dice=request["dice_b"]))


# --------------------------------------------------------------------------- Jauge de Tension


@pointzero_op("state.new", summary="An empty table state: scenario 1, no threshold, empty gauge.")
def _state_new(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": T.new_state()}


@pointzero_op("tension.view", state=True,
              summary="What players see of the Jauge de Tension: gauge, Tension critique, entries (never the "
              "threshold).")
def _tension_view(request: dict[str, Any]) -> dict[str, Any]:
    return {"view": T.player_view(T.require_state(request["state"]))}


@pointzero_op("tension.use", state=True, takes={"kind": {"enum": ["dice", "other"]}},
              may={"who": {"type": "string", "maxLength": 80}, "note": {"type": "string", "maxLength": 200}},
              summary="A Tension point used (+2 dice on a skill test, or another use as free text): the gauge rises by "
              "one. Answers the new state to save and the player view.")
def _tension_use(request: dict[str, Any]) -> dict[str, Any]:
    state = T.require_state(request["state"])
    new = T.use_point(state, request["kind"], request.get("who", ""), request.get("note", ""))
    return {"state": new, "view": T.player_view(new)}


@pointzero_op("mj.view", state=True,
              summary="MJ: the Jauge de Tension with its secret threshold and the points left before Tension critique.")
def _mj_view(request: dict[str, Any]) -> dict[str, Any]:
    return {"view": T.mj_view(T.require_state(request["state"]))}


@pointzero_op("mj.threshold", state=True, takes={"threshold": T.THRESHOLD},
              summary="MJ: set (or clear with null) the scenario's secret threshold, 1..10.")
def _mj_threshold(request: dict[str, Any]) -> dict[str, Any]:
    new = T.set_threshold(T.require_state(request["state"]), request["threshold"])
    return {"state": new, "view": T.mj_view(new)}


@pointzero_op("mj.new_scenario", state=True, may={"threshold": T.THRESHOLD},
              summary="MJ: a new scenario: the gauge is emptied, with a new secret threshold (or none yet).")
def _mj_new_scenario(request: dict[str, Any]) -> dict[str, Any]:
    new = T.new_scenario(T.require_state(request["state"]), request.get("threshold"))
    return {"state": new, "view": T.mj_view(new)}


@pointzero_op("settings.tension_rule", state=True, takes={"tension_rule": {"enum": list(R.TENSION_RULES)}},
              summary="The table's reading of Tension dice when the skill is below the attribute: missing_dice (they "
              "fill the missing dice, the default) or difference (+1 per point of difference, literal).")
def _settings_tension_rule(request: dict[str, Any]) -> dict[str, Any]:
    """A table setting: see resolution.py, "Dice rolled vs attribute". The test ops take
    the rule in their ``test`` (``tension_rule``), read by the page from this state."""
    new = T.set_tension_rule(T.require_state(request["state"]), request["tension_rule"])
    return {"state": new, "view": T.player_view(new)}


@pointzero_op("schemas", summary="JSON Schemas of the character and the table state.")
def _schemas(request: dict[str, Any]) -> dict[str, Any]:
    return clone({"character": C.CHARACTER_SCHEMA, "state": T.STATE_SCHEMA})
