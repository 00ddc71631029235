"""Point Zéro properties (Hypothesis) and the ops around the sheet and the Jauge de Tension."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from tablee.api import handle
from tablee.errors import declared_codes
from tablee.registry import OPS
from tablee.store import load_document, new_document
from tablee.systems.pointzero import resolution as R

PZ_OPS = sorted(name for name in OPS if name.startswith("pointzero."))
LEVELS = st.integers(min_value=1, max_value=10)


@pytest.mark.parametrize("name", PZ_OPS)
def test_every_request_the_schema_allows_answers_or_returns_an_error_code(name):
    codes = declared_codes()

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(from_schema(OPS[name].schema))
    def check(request):
        r = handle(request)
        json.dumps(r)
        if "error" in r:
            assert r["error"]["code"] in codes
            assert r["error"]["code"] not in {"request.internal", "request.invalid"}, (request, r)

    check()


@given(skill=LEVELS, attribute=LEVELS, tension=st.booleans(), critical=st.booleans())
def test_surpassement_choices_are_exactly_what_the_three_conditions_allow(skill, attribute, tension, critical):
    """"sURPASSEMENT": at most half the dice (rounded down), the dice left at least the
    attribute, none in Tension critique; a Tension point's 2 dice count in the pool."""
    dice = skill + (2 if tension else 0)
    expected = [0] + [s for s in range(1, dice + 1) if s <= dice // 2 and dice - s >= attribute and not critical]
    options = R.surpassement_options("skill", dice, attribute, critical=critical)
    assert options["allowed"] == expected
    assert sorted(options["allowed"] + [r["count"] for r in options["refused"]]) == list(range(dice + 1))
    for s in range(dice + 1):
        try:
            plan = R.plan_test("skill", attribute, skill, sacrifice=s, tension=tension, critical=critical)
        except Exception as exc:
            assert s not in expected
            assert exc.code.startswith("pointzero.surpassement.")
        else:
            assert s in expected
            assert plan.surpassement_bonus == 2 * s and plan.dice == dice - s


@given(skill=LEVELS, attribute=LEVELS, seed=st.integers(0, 2**53 - 1), difficulty=st.integers(0, 60))
def test_seeded_rolls_replay_and_add_up(skill, attribute, seed, difficulty):
    request = {"op": "pointzero.test.roll", "seed": seed,
               "test": {"kind": "skill", "skill": skill, "attribute": attribute, "difficulty": difficulty}}
    first = handle(request)
    again = handle(json.loads(json.dumps(request)))
    assert first == again
    res = first["result"]
    kept = [d["value"] for d in res["dice"] if d["kept"]]
    dropped = [d["value"] for d in res["dice"] if not d["kept"]]
    assert len(kept) == min(skill, attribute)
    assert not dropped or min(kept) >= max(dropped)  # the best dice are kept
    assert res["total"] == sum(kept) + res["difference_bonus"] + res["surpassement_bonus"]
    assert res["difference_bonus"] == max(0, attribute - skill)
    assert res["success"] == (res["total"] >= difficulty and not res["all_one"])
    assert res["margin"] == res["total"] - difficulty


@given(seed=st.integers(0, 2**53 - 1))
def test_opposition_rolls_replay(seed):
    req = {"op": "pointzero.opposition.roll", "seed": seed,
           "a": {"kind": "skill", "skill": 3, "attribute": 3}, "b": {"kind": "skill", "skill": 3, "attribute": 3}}
    r = handle(req)
    assert r == handle(dict(req))
    if r["a"]["result"]["total"] == r["b"]["result"]["total"]:
        assert r["winner"] is None and r["reason"] == "perfect_tie"


def test_meticuleux_reroll_with_keep_uses_the_same_dice():
    test = {"kind": "skill", "skill": 6, "attribute": 2, "difficulty": 8, "meticuleux": True}
    first = handle({"op": "pointzero.test.roll", "test": test, "seed": 7})
    again = handle({"op": "pointzero.test.roll", "test": test, "seed": 7, "keep": [0, 1]})
    assert [d["value"] for d in first["result"]["dice"]] == [d["value"] for d in again["result"]["dice"]]
    assert again["result"]["kept"] == [0, 1]


# ------------------------------------------------------------------------------ the sheet

def sheet(**changes) -> dict:
    c = handle({"op": "pointzero.character.new", "id": "mira", "name": "Mira"})["character"]
    c["skills"] = [{"name": "Mécanique", "level": 6}, {"name": "Discrétion", "level": 5}]
    c["atouts"] = ["Méticuleux"]
    c.update(changes)
    return c


def problems(c: dict) -> list[tuple[str, str]]:
    r = handle({"op": "pointzero.character.check", "character": c})
    return [(p["field"], p["code"]) for p in r["problems"]]


def test_a_new_sheet_has_the_four_attributes_of_the_text():
    c = sheet()
    assert [a["code"] for a in c["attributes"]] == ["VIG", "ADR", "PER", "COG"]
    assert problems(c) == []
    assert handle({"op": "pointzero.character.new", "id": "x", "name": "  "})["error"]["code"] == "pointzero.char.name"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"skills": [{"name": "Mécanique", "level": 11}]}, [("skills.0.level", "pointzero.char.level")]),
        ({"skills": [{"name": "Mécanique", "level": -1}]}, [("skills.0.level", "pointzero.char.level")]),
        ({"skills": [{"name": "Mécanique", "level": 2.5}]}, [("skills.0.level", "pointzero.char.level")]),
        ({"skills": [{"name": "Mécanique", "level": "6"}]}, [("skills.0.level", "pointzero.char.level")]),
        ({"skills": [{"name": " ", "level": 2}]}, [("skills.0.name", "pointzero.char.skill_name")]),
        ({"skills": [{"name": "Vigilance", "level": 2}, {"name": "vigilance", "level": 3}]},
         [("skills.1.name", "pointzero.char.skill_duplicate")]),
        ({"attributes": [{"code": "vig", "name": "Vigueur", "level": 3}]},
         [("attributes.0.code", "pointzero.char.code")]),
        ({"attributes": [{"code": "VIG", "name": "Vigueur", "level": 3},
                         {"code": "VIG", "name": "Volonté", "level": 3}]},
         [("attributes.1.code", "pointzero.char.code_duplicate")]),
        ({"attributes": []}, [("attributes", "pointzero.char.no_attribute")]),
        ({"atouts": [""]}, [("atouts.0", "pointzero.char.atout_empty")]),
        ({"name": " "}, [("name", "pointzero.char.name")]),
        ({"extra": 1}, [("", "pointzero.char.invalid")]),
    ],
)
def test_bad_sheet_values_are_named_at_their_field(change, expected):
    assert problems(sheet(**change)) == expected


def test_the_store_refuses_a_bad_sheet_and_accepts_a_good_one():
    doc = new_document("Table", "fr")
    doc["characters"].append(sheet())
    load_document(doc)
    doc["characters"][0]["skills"][0]["level"] = 12
    bad = handle({"op": "store.load", "document": doc})
    assert bad["error"]["params"]["path"] == "characters.0.skills.0.level"
    assert bad["error"]["params"]["reason"] == "pointzero.char.level"


# ------------------------------------------------------------------------ Jauge de Tension

def test_tension_gauge_threshold_and_critique(api):
    state = api({"op": "pointzero.state.new"})["state"]
    state = api({"op": "pointzero.mj.threshold", "state": state, "threshold": 2})["state"]
    r = api({"op": "pointzero.tension.use", "state": state, "kind": "dice", "who": "Mira"})
    assert r["view"] == {"gauge": 1, "critical": False, "scenario": 1, "tension_rule": "missing_dice",
                         "entries": [{"kind": "dice", "who": "Mira", "note": ""}]}
    r = api({"op": "pointzero.tension.use", "state": r["state"], "kind": "other", "who": "Mira", "note": "un indice"})
    assert r["view"]["gauge"] == 2 and r["view"]["critical"] is True
    mj = api({"op": "pointzero.mj.view", "state": r["state"]})["view"]
    assert mj["threshold"] == 2 and mj["left"] == 0
    fresh = api({"op": "pointzero.mj.new_scenario", "state": r["state"], "threshold": 5})
    assert fresh["view"] == {"gauge": 0, "critical": False, "scenario": 2, "entries": [], "threshold": 5, "left": 5,
                             "tension_rule": "missing_dice"}


@given(threshold=st.integers(1, 10), uses=st.integers(0, 12))
def test_players_never_receive_the_threshold(threshold, uses):
    """README: players see the gauge, never the threshold: no player answer holds it."""
    state = handle({"op": "pointzero.mj.threshold", "state": handle({"op": "pointzero.state.new"})["state"],
                    "threshold": threshold})["state"]
    for _ in range(uses):
        r = handle({"op": "pointzero.tension.use", "state": state, "kind": "dice"})
        assert "threshold" not in r["view"]
        state = r["state"]
    view = handle({"op": "pointzero.tension.view", "state": state})["view"]
    assert set(view) == {"gauge", "critical", "scenario", "entries", "tension_rule"}  # a public setting
    assert view["critical"] == (uses >= threshold)


def test_no_threshold_no_critique_and_a_bad_state_is_refused():
    state = handle({"op": "pointzero.state.new"})["state"]
    for _ in range(12):
        state = handle({"op": "pointzero.tension.use", "state": state, "kind": "dice"})["state"]
    assert handle({"op": "pointzero.tension.view", "state": state})["view"]["critical"] is False
    doc = new_document("Table", "fr")
    doc["systems"]["pointzero"] = {"threshold": 11, "scenario": 1, "entries": []}
    bad = handle({"op": "store.load", "document": doc})
    assert bad["error"]["params"]["reason"] == "pointzero.state.invalid"
