"""SYSTMJ entities and table state: one model for PJ, PNJ and Créature, form edits with a
problem at each bad field, the store hooks, the universe's special skills, the phases,
the Chronoste and the review's reading of the roll log."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api_calls import call, err
from tablee.store import load_document, new_document
from tablee.store_records import check_character
from tablee.systems.systmj import data as D


def entity(kind="pj", name="Ana"):
    return call({"op": "systmj.entity.new", "id": "e1", "name": name, "kind": kind})["character"]


def state():
    return call({"op": "systmj.state.new"})["state"]


def test_one_model_for_the_three_kinds_and_a_creature_has_no_language():
    for kind in D.KINDS:
        c = entity(kind)
        assert c["kind"] == kind and set(c["attributes"]) == set(D.ATTRIBUTES) and len(c["skills"]) == 10
        assert check_character(c) == []
    pj = entity("pj")
    assert [p["code"] for p in call({"op": "systmj.entity.check", "character": pj})["problems"]] == [
        "systmj.entity.language_missing"
    ]
    r = call({"op": "systmj.entity.edit", "character": pj, "changes": {"language": "Commun"}})
    assert r["character"]["language"] == "Commun" and not r["problems"]
    beast = call({"op": "systmj.entity.edit", "character": r["character"], "changes": {"kind": "creature"}})[
        "character"
    ]
    assert beast["language"] == ""
    r = call({"op": "systmj.entity.edit", "character": beast, "changes": {"language": "Elfique"}})
    assert r["character"] == beast
    assert [(p["field"], p["code"]) for p in r["problems"]] == [("language", "systmj.entity.creature_language")]
    # the store refuses a créature with a language
    bad = {**beast, "language": "Elfique"}
    assert check_character(bad)[0].code == "systmj.entity.invalid"


def test_bad_values_are_problems_at_their_field_and_change_nothing():
    c = entity()
    changes = {
        "attributes": {"force": "70", "agilite": "abc", "chance": 120},
        "skills": {"nage": "12", "danse": -1, "cuisine": True},
        "special": {"sp-forge": "33", "__proto__": 4},
        "name": "   ",
        "pv_max": "1000",
        "pa_max": "8",
    }
    r = call({"op": "systmj.entity.edit", "character": c, "changes": changes, "special_ids": ["sp-forge"]})
    new = r["character"]
    assert (new["attributes"]["force"], new["skills"]["nage"], new["special"], new["pa_max"]) == (
        70,
        12,
        {"sp-forge": 33},
        8,
    )
    assert new["attributes"]["agilite"] == 0 and new["attributes"]["chance"] == 0 and new["name"] == "Ana"
    problems = {p["field"]: p["code"] for p in r["problems"]}
    assert problems == {
        "attributes.agilite": "systmj.entity.not_integer",
        "attributes.chance": "systmj.entity.range",
        "skills.danse": "systmj.entity.range",
        "skills.cuisine": "systmj.entity.not_integer",
        "special.__proto__": "systmj.entity.unknown_skill",
        "name": "systmj.entity.name_empty",
        "pv_max": "systmj.entity.range",
    }
    # a special skill the table does not list is refused; 0 removes the score
    r = call(
        {
            "op": "systmj.entity.edit",
            "character": new,
            "changes": {"special": {"sp-forge": 0, "sp-x": 5}},
            "special_ids": ["sp-forge"],
        }
    )
    assert r["character"]["special"] == {} and r["problems"][0]["field"] == "special.sp-x"


def test_check_gives_each_score_its_degree_on_the_scale():
    c = entity()
    c["skills"].update(nage=0, danse=20, cuisine=21, acrobatie=51, detection=66, sang_froid=90, parler=99)
    c["language"] = "Commun"
    d = call({"op": "systmj.entity.check", "character": c})["degrees"]["skills"]
    assert (d["nage"], d["danse"], d["cuisine"], d["acrobatie"], d["detection"], d["sang_froid"], d["parler"]) == (
        "inapte",
        "debutant",
        "novice",
        "maitrise",
        "specialiste",
        "virtuose",
        "legendaire",
    )
    assert [D.degree(s) for s in (35, 36, 50, 65, 79, 80, 89, 98)] == [
        "novice",
        "standard",
        "standard",
        "maitrise",
        "specialiste",
        "expert",
        "expert",
        "virtuose",
    ]


def test_the_store_validates_entities_and_state():
    doc = new_document("T", "fr")
    c = entity()
    doc["characters"].append(c)
    doc["systems"]["systmj"] = state()
    assert load_document(doc)[0] == doc
    broken = copy.deepcopy(doc)
    broken["characters"][0]["skills"]["nage"] = 100
    assert err({"op": "store.load", "document": broken}) == "store.invalid"
    broken = copy.deepcopy(doc)
    broken["systems"]["systmj"]["chronoste"]["day"] = 31
    broken["systems"]["systmj"]["chronoste"]["month"] = 2  # 31 Février
    assert err({"op": "store.load", "document": broken}) == "store.invalid"


def test_universe_special_skills():
    s = call({"op": "systmj.universe.set", "state": state(), "name": "Terres d'Orsk"})["state"]
    s = call({"op": "systmj.universe.skill.add", "state": s, "id": "sp-forge", "name": " Forge ", "da": 2})["state"]
    assert s["universe"] == {"name": "Terres d'Orsk", "special_skills": [{"id": "sp-forge", "name": "Forge", "da": 2}]}
    assert (
        err({"op": "systmj.universe.skill.add", "state": s, "id": "sp-b", "name": "forge", "da": 1})
        == "systmj.universe.duplicate"
    )
    assert (
        err({"op": "systmj.universe.skill.add", "state": s, "id": "sp-b", "name": "  ", "da": 1})
        == "systmj.universe.name_empty"
    )
    assert (
        err({"op": "systmj.universe.skill.add", "state": s, "id": "sp-forge", "name": "Chasse", "da": 1})
        == "systmj.universe.id_taken"
    )


def test_phases():
    s = call({"op": "systmj.phase.set", "state": state(), "phase": "action_mouvement"})["state"]
    assert (s["phase"], s["round"]) == ("action_mouvement", 1)
    s = call({"op": "systmj.phase.next_round", "state": s})["state"]
    assert s["round"] == 2
    s = call({"op": "systmj.phase.set", "state": s, "phase": "jeu_libre"})["state"]
    assert (s["phase"], s["round"]) == ("jeu_libre", 0)
    assert err({"op": "systmj.phase.next_round", "state": s}) == "systmj.phase.not_action"


def test_the_page_knows_the_default_calendar_as_the_engine_makes_it():
    """static/js/systems/systmj/common.js shows the default calendar (README, SYSTMJ: the
    Gregorian months) in the interface's language and a table's own names as written: it tells
    them apart by its copy of DEFAULT_MONTHS, which must be the engine's."""
    import json
    import re
    from pathlib import Path

    js = (Path(__file__).resolve().parents[2] / "static/js/systems/systmj/common.js").read_text()
    block = re.search(r"export const DEFAULT_MONTHS = (\[.*?\]);", js, re.S).group(1)
    assert [tuple(m) for m in json.loads(re.sub(r",\s*\]$", "]", block))] == list(D.DEFAULT_MONTHS)
    assert [(m["name"], m["days"]) for m in state()["chronoste"]["months"]] == list(D.DEFAULT_MONTHS)


def test_chronoste_advances_through_days_months_and_years_with_a_history():
    s = state()  # 1 Janvier, year 1, 08:00
    r = call({"op": "systmj.chronoste.advance", "state": s, "amount": 1, "unit": "days", "note": "Voyage vers Orsk"})
    ch = r["state"]["chronoste"]
    assert (ch["year"], ch["month"], ch["day"], ch["minute"]) == (1, 1, 2, 480)
    assert ch["history"] == [
        {"year": 1, "month": 1, "day": 2, "minute": 480, "advanced": 1440, "note": "Voyage vers Orsk"}
    ]
    r = call({"op": "systmj.chronoste.advance", "state": r["state"], "amount": 17, "unit": "hours"})
    ch = r["state"]["chronoste"]
    assert (ch["day"], ch["minute"], r["clock"]["text"], r["clock"]["period"]) == (3, 60, "01:00", "night")
    r = call({"op": "systmj.chronoste.advance", "state": r["state"], "amount": 365, "unit": "days"})
    ch = r["state"]["chronoste"]
    assert (ch["year"], ch["month"], ch["day"]) == (2, 1, 3)
    r = call({"op": "systmj.chronoste.advance", "state": r["state"], "amount": 29 + 28, "unit": "days"})
    ch = r["state"]["chronoste"]
    assert (ch["month"], ch["day"]) == (3, 1)  # 3 Jan + 57 days = 1 Mars
    assert err({"op": "systmj.chronoste.set", "state": s, "month": 2, "day": 30}) == "systmj.chronoste.date"
    r = call({"op": "systmj.chronoste.set", "state": s, "holder": "Léa", "minute": 21 * 60})
    assert r["state"]["chronoste"]["holder"] == "Léa" and r["clock"]["period"] == "night"


@given(st.lists(st.tuples(st.integers(1, 5000), st.sampled_from(["minutes", "hours", "days"])), min_size=1, max_size=6))
def test_chronoste_total_minutes_add_up(steps):
    s = state()

    def absolute(ch):
        year_days = sum(m["days"] for m in ch["months"])
        days = (ch["year"] - 1) * year_days + sum(m["days"] for m in ch["months"][: ch["month"] - 1]) + ch["day"] - 1
        return days * 1440 + ch["minute"]

    start = absolute(s["chronoste"])
    total = 0
    for amount, unit in steps:
        s = call({"op": "systmj.chronoste.advance", "state": s, "amount": amount, "unit": unit})["state"]
        total += amount * D.UNITS[unit]
    assert absolute(s["chronoste"]) - start == total
    assert [h["advanced"] for h in s["chronoste"]["history"]] == [a * D.UNITS[u] for a, u in steps]


def test_review_reads_the_skills_used_in_the_session_from_the_log():
    s = state()

    def entry(subject, kind="systmj.test"):
        return {
            "id": "x",
            "at": "t",
            "kind": kind,
            "system": "systmj",
            "label": "",
            "request": {"op": "systmj.test", "score": 40, "seed": 1, "subject": subject},
            "result": {},
        }

    log = [
        entry({"character": "a", "target": "skill", "key": "nage", "session": 1}),
        entry({"character": "a", "target": "skill", "key": "sp-forge", "session": 1}),
        entry({"character": "a", "target": "skill", "key": "nage", "session": 1}),
        entry({"character": "a", "target": "attribute", "key": "force", "session": 1}),
        entry({"character": "b", "target": "skill", "key": "danse", "session": 0 + 2}),
        entry({"character": "b", "target": "skill", "key": "cuisine", "session": 1}, kind="roll"),
        {"kind": "systmj.test", "request": "not an object"},
    ]
    r = call({"op": "systmj.review.plan", "state": s, "log": log})
    assert r == {"session": 1, "reviewed": False, "used": {"a": ["nage", "sp-forge"]}}
    s2 = call({"op": "systmj.session.close", "state": s})["state"]
    assert (s2["session"], s2["reviewed"]) == (2, [1])
    assert call({"op": "systmj.review.plan", "state": s2, "log": log})["used"] == {"b": ["danse"]}


@pytest.mark.parametrize("op", ["systmj.test", "systmj.test.odds"])
def test_subject_is_echoed(op):
    subject = {"character": "a", "target": "skill", "key": "nage", "session": 3}
    extra = {"seed": 2} if op == "systmj.test" else {}
    assert call({"op": op, "score": 40, "subject": subject, **extra})["subject"] == subject


def test_the_table_names_its_months():
    s = call({"op": "systmj.chronoste.set", "state": state(), "month": 12, "day": 31})["state"]
    months = [{"name": "Germinal", "days": 30}, {"name": " Floréal ", "days": 20}]
    ch = call({"op": "systmj.chronoste.months", "state": s, "months": months})["state"]["chronoste"]
    assert ch["months"][1]["name"] == "Floréal" and (ch["month"], ch["day"]) == (2, 20)
    assert (
        err({"op": "systmj.chronoste.months", "state": s, "months": [{"name": "  ", "days": 3}]})
        == "systmj.chronoste.month_name"
    )
