"""The log entry's ``member`` (the live member the referee wrote it for, py/tablee/referee_kernel.py):
the store (py/tablee/store.py) and the page's pre-save guard (static/js/guard.js, run in Node)
accept the referee's entries and set apart or refuse the same malformed ones, so an MJ's device
never refuses the table its own referee made, and a forged ``member`` never opens."""

from __future__ import annotations

import copy

import pytest

from guard_checks import guard
from node_harness import NODE
from tablee import referee
from tablee.store import new_document, open_document

NOW = "2026-11-28T20:00:00Z"
LEA = {"id": "m-lea", "name": "Léa", "characters": []}

BAD = [
    ({"id": "m-lea"}, "log.0.member.name"),  # the name missing
    ({"id": "", "name": "Léa"}, "log.0.member.id"),  # an empty id
    ({"id": "m-lea", "name": "x" * 81}, "log.0.member.name"),  # a name past 80
    ({"id": "m-lea", "name": "Léa", "admin": True}, "log.0.member.admin"),  # a key of its own
    ("m-lea", "log.0.member"),  # not an object
]


def _referees_table():
    doc, _answer = referee.apply_move(new_document("T", "fr"), LEA, {"op": "roll", "expr": "2d6"}, seed=4, now=NOW)
    assert doc["log"][0]["member"] == {"id": "m-lea", "name": "Léa"}
    return doc


def test_the_store_opens_the_referees_entries_and_sets_a_malformed_member_apart():
    doc = _referees_table()
    opened, _, apart = open_document(doc)
    assert apart == 0 and opened["log"] == doc["log"]
    for member, _path in BAD:
        bad = copy.deepcopy(doc)
        bad["log"][0]["member"] = member
        opened, _, apart = open_document(bad)
        assert apart == 1 and opened["log"] == [], member


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_pages_guard_agrees_with_the_store_on_member():
    base = new_document("T", "fr")
    doc = _referees_table()
    cases = [{"op": "check", "next": doc, "base": base}]
    for member, _path in BAD:
        bad = copy.deepcopy(doc)
        bad["log"][0]["member"] = member
        cases.append({"op": "check", "next": bad, "base": base})
    out = guard(*cases)
    assert out[0] is None  # the referee's table is saved on the MJ's device
    assert [p["path"] for p in out[1:]] == [path for _member, path in BAD]
