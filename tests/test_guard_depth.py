"""The page's pre-save guard (static/js/guard.js, run in Node) knows the store's depth rule and
the systems' state schemas: a change that nests too deep or breaks a system state's schema is
refused before it is written, and the records too deep for a request are set apart in the page
exactly where store.open sets them apart (the store is the oracle)."""

from __future__ import annotations

import copy
import json
import subprocess

import pytest

from guard_checks import LIMITS, guard
from node_harness import NODE, ROOT
from tablee import store
from tablee.api import handle
from tablee.store import new_document, open_document
from tablee.systems.unicreon.character import new_character as unicreon_character

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _nest(levels: int):
    value = 1
    for _ in range(levels):
        value = [value]
    return value


def test_the_depth_rule_is_the_stores():
    """tooDeep(value, MAX_DEPTH, at) agrees with the store on every depth around the limit."""
    cases, expected = [], []
    for at in (1, 2, 3):
        for levels in range(25, 36):
            cases.append({"op": "deep", "value": {"x": _nest(levels)}, "max": store.MAX_DEPTH, "at": at})
            try:
                store._within_depth({"x": _nest(levels)}, "", at)
                expected.append(False)
            except store._Invalid:
                expected.append(True)
    assert guard(*cases) == expected


def test_a_change_nesting_too_deep_or_breaking_a_state_schema_is_refused():
    base = new_document("T", "fr")
    base["systems"]["pointzero"] = handle({"op": "pointzero.state.new"})["state"]
    deep = copy.deepcopy(base)
    deep["settings"] = {"x": _nest(40)}
    broken = copy.deepcopy(base)
    broken["systems"]["pointzero"]["threshold"] = "beaucoup"
    fine = copy.deepcopy(base)
    fine["name"] = "Autre"
    unknown = copy.deepcopy(base)
    unknown["systems"]["pointzero"]["surprise"] = 1
    out = guard(
        {"op": "check", "next": deep, "base": base},
        {"op": "check", "next": broken, "base": base},
        {"op": "check", "next": fine, "base": base},
        {"op": "check", "next": unknown, "base": base},
    )
    assert out[0]["reason"] == "too_deep"
    assert out[1]["path"] == "systems.pointzero.threshold" and out[1]["reason"] == "type"
    assert out[2] is None
    assert out[3]["path"] == "systems.pointzero.surprise" and out[3]["reason"] == "unknown_key"
    # the store agrees that the refused ones are not valid tables
    for doc in (deep, broken, unknown):
        assert open_document(doc)[2] >= 1


@pytest.mark.parametrize("levels", [31, 45, 70, 120])
def test_the_page_sets_apart_what_store_open_sets_apart(levels):
    d = new_document("T", "fr")
    good = unicreon_character(cid="u1", name="Ada")
    d["characters"] = [good, {**unicreon_character(cid="u2", name="Bob"), "story": _nest(levels)}]
    d["log"] = [{"id": "l1", "at": "x", "kind": "roll", "system": None, "label": "", "request": {},
                 "result": {"d": _nest(levels)}}]
    d["systems"] = {"versality": {"d": _nest(levels)}}
    d["settings"] = {"d": _nest(levels)}
    [apart] = guard({"op": "apart", "doc": d})
    assert apart["parked"] == 4
    in_page = apart["doc"]
    assert store._json_size(in_page, "", limit=10**9, depth_limit=10**6) > 0  # plain JSON
    # the engine then finds nothing more to set apart, and keeps what the page set apart
    opened, _, parked = open_document(in_page)
    assert parked == 0 and opened["characters"] == [good]
    direct, _, _ = open_document(d)
    def kept(doc):
        return [(q["path"], q["data"]) for q in doc["quarantine"]]

    assert kept(opened) == kept(direct)


def test_a_change_sharing_the_records_it_kept_is_checked_as_a_copy_would_be():
    """A shallow change (the live table's: the referee's changes, a phone's published table) keeps
    the records it does not replace as the same objects; the guard skips those, and keeps each
    record's size and depth: every answer is the one a whole copy gets, size and depth included,
    whatever the change (a new entry, an edited character, a state nesting too deep, a table
    over the size limit, a record JSON leaves out)."""
    import random

    rng = random.Random(22)
    base = new_document("T", "fr")
    base["characters"] = [unicreon_character(cid=f"u{n}", name=f"P{n}") for n in range(6)]
    base["log"] = [{"id": f"l{n}", "at": "2026-11-27T08:00:00Z", "kind": "roll", "system": None, "label": "",
                    "request": {"op": "roll", "expr": "1d6"}, "result": {"total": n}} for n in range(30)]
    base["systems"]["pointzero"] = handle({"op": "pointzero.state.new"})["state"]
    limits = {**LIMITS, "document_size": len(json.dumps(base, separators=(",", ":"), ensure_ascii=False)) + 600}
    cases = []
    for _ in range(60):
        case = {"op": "shared", "base": base, "top": {}}
        pick = rng.randrange(6)
        if pick == 0:
            entry = {"id": f"new{rng.randrange(10**6)}", "at": "2026-11-27T09:00:00Z", "kind": "roll", "system": None,
                     "label": "é" * rng.randrange(0, 300), "request": {"op": "roll"}, "result": {"total": 1}}
            case["log"] = {"drop": rng.randrange(0, 3), "add": [entry]}
        elif pick == 1:
            i = rng.randrange(6)
            case["characters"] = {i: {**base["characters"][i], "name": rng.choice(["Ana", "", "x" * 90])}}
        elif pick == 2:
            case["systems"] = {"pointzero": {**base["systems"]["pointzero"], "x": _nest(rng.choice([3, 40]))}}
        elif pick == 3:
            case["top"] = {"name": rng.choice(["Autre", ""]), "settings": {"deep": _nest(rng.choice([2, 35]))}}
        elif pick == 4:
            case["log"] = {"drop": 0, "add": [{**base["log"][0], "id": "big", "label": "", "result": {"t": "y" * 700}}]}
        else:
            case["characters"] = {0: base["characters"][1]}  # an id twice
        cases.append(case)
    out = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/guard_checks.mjs"],
        cwd=ROOT, input=json.dumps({"limits": limits, "cases": cases}), capture_output=True, text=True,
        timeout=60, check=True,
    )
    answers = json.loads(out.stdout)
    reasons = set()
    for answer in answers:
        assert answer["shared"] == answer["again"] == answer["copied"]
        assert answer["size"][0] == answer["size"][1]
        assert answer["deep"][0] == answer["deep"][1]
        reasons.add(answer["copied"]["reason"] if answer["copied"] else None)
    assert {None, "too_deep", "too_large", "duplicate", "empty"} <= reasons
