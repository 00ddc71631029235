"""A saved table is never lost, in CPython: one definition of valid (the limits the
page uses are the store's), the per-record quarantine of store.open, the write/read symmetry
property over sequences of API ops, and the loader fuzz over 10 000 generated documents."""

from __future__ import annotations

import contextlib
import copy
import json
import math
import re
import signal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from store_fuzz import HOSTILE_KEYS, documents
from tablee import store
from tablee.api import handle
from tablee.errors import RulesError
from tablee.store import load_document, new_document, open_document, validate_document
from tablee.systems.unicreon.character import new_character as unicreon_character
from tablee.systems.versality.character import new_character as versality_character

REPO = Path(__file__).resolve().parent.parent
STORAGE_JS = REPO / "static" / "js" / "storage.js"
REFUSALS = {"store.not_object", "store.foreign", "store.newer", "store.invalid", "store.too_large"}


def ok(request: dict[str, Any]) -> dict[str, Any]:
    response = handle(request)
    assert "error" not in response, response
    return response


# ---------------------------------------------------------------- one definition of valid


def test_the_pages_limits_are_the_stores():
    """storage.js LIMITS (used before the engine is up) equals store.limits()."""
    text = STORAGE_JS.read_text(encoding="utf-8")
    block = re.search(r"export const LIMITS = \{(.*?)\};", text, re.S).group(1)
    js = {k: int(v) for k, v in re.findall(r"(\w+): (\d+)", block)}
    live = ok({"op": "store.limits"})
    assert js == {k: v for k, v in live.items() if isinstance(v, int)}
    assert js["name"] == store.MAX_NAME == 80 and js["document_size"] == store.MAX_DOCUMENT_SIZE


def test_no_system_allows_more_than_the_kernel():
    """A system's published character schema never allows a name or id the kernel refuses
    (a Versality name of 90 characters was saved, then refused at load)."""
    limits = ok({"op": "store.limits"})
    assert set(limits["character_schemas"]) == {"unicreon", "versality", "pointzero", "theorem", "systmj"}
    for system, schema in limits["character_schemas"].items():
        props = schema["properties"]
        assert props["name"].get("maxLength", math.inf) <= store.MAX_NAME, system
        assert props["id"].get("maxLength", math.inf) <= store.MAX_ID, system
    assert limits["character_schemas"]["unicreon"]["properties"]["skills"]["maxItems"] == 40


# ---------------------------------------------------------------- quarantine


def _doc_with_bad_records() -> dict[str, Any]:
    doc = new_document("Campagne", "fr")
    good = unicreon_character(cid="good", name="Béa")
    cleared = unicreon_character(cid="cleared", name="")
    numbered = dict(unicreon_character(cid="num", name="x"), name=12345)
    long_name = versality_character("constructor", "N" * 90)
    skills = unicreon_character(cid="skills", name="Cal")
    skills["skills"] = [{"name": f"S{i}", "level": "moyen"} for i in range(41)]
    doc["characters"] = [good, cleared, numbered, long_name, skills, copy.deepcopy(good)]
    doc["log"] = [{"id": "l1"}]
    doc["systems"] = {"unicreon": {"combat": 3}, "zz": {}}
    doc["surprise"] = True
    return doc


def test_open_keeps_every_valid_part_and_sets_the_rest_apart():
    doc = _doc_with_bad_records()
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError):
        load_document(doc)  # the strict loader refuses the whole table...
    opened, migrated, parked = open_document(doc)  # ...open keeps what is valid
    assert doc == before and migrated is None
    assert [c["id"] for c in opened["characters"]] == ["good"]
    q = opened["quarantine"]
    assert parked == len(q) == 9
    assert [(i["kind"], i["path"]) for i in q] == [
        ("character", "characters.1"), ("character", "characters.2"), ("character", "characters.3"),
        ("character", "characters.4"), ("character", "characters.5"), ("log", "log.0"),
        ("system", "systems.unicreon"), ("system", "systems.zz"), ("field", "surprise"),
    ]
    # each keeps its data untouched and says why, with the field's path
    assert q[0]["data"] == before["characters"][1]
    assert q[0]["problems"][0]["params"] == {"path": "characters.1.name", "reason": "empty"}
    assert q[2]["problems"][0]["params"]["reason"] == "too_long"
    assert q[3]["problems"][0]["field"].startswith("characters.4")
    assert q[4]["problems"][0]["params"]["reason"] == "duplicate"
    # the result is valid, and opening it again changes nothing
    assert load_document(opened) == (opened, None)
    assert open_document(opened) == (opened, None, 0)


def test_only_an_unreadable_table_is_refused_whole():
    for value, code in (([], "store.not_object"), ({"app": "x"}, "store.foreign"),
                        ({"app": "tablee", "schema": 9}, "store.newer"),
                        ({"app": "tablee", "schema": "1"}, "store.invalid")):
        assert handle({"op": "store.open", "document": value})["error"]["code"] == code
    # a wrong name or language is repaired with the original kept apart
    d = new_document("T", "fr")
    d.update(name="", language="de")
    opened, _, parked = open_document(d)
    assert (opened["name"], opened["language"], parked) == ("Table", "fr", 2)
    assert [i["data"] for i in opened["quarantine"]] == ["", "de"]


def _nest(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("levels", [31, 40, 60, 150])
def test_one_record_too_deep_is_set_apart_and_the_rest_opens(levels):
    """Depth is a fault of the record that holds it: the character, log entry, system state,
    setting, unknown field or quarantined item nested past MAX_DEPTH goes "à réparer" (kept
    whole as its JSON text, so the table stays within MAX_DEPTH), every other record opens."""
    d = new_document("Ma table", "fr")
    good = unicreon_character(cid="u1", name="Ada")
    fine = {"id": "l1", "at": "2026-11-25T10:00:00Z", "kind": "roll", "system": None, "label": "1d6",
            "request": {"op": "roll"}, "result": {"total": 3}}
    deep = {
        "characters.1": {**unicreon_character(cid="u2", name="Bob"), "story": _nest(levels)},
        "log.1": {**fine, "id": "l2", "result": {"deep": _nest(levels)}},
        "systems.versality": {"deep": _nest(levels)},
        "settings": {"theme": _nest(levels)},
        "extra": _nest(levels),
        "quarantine.0": {"kind": "log", "path": "log.9", "problems": [{"code": "store.invalid"}],
                         "data": _nest(levels)},
    }
    d["characters"] = [good, deep["characters.1"]]
    d["log"] = [fine, deep["log.1"]]
    d["systems"] = {"versality": deep["systems.versality"]}
    d["settings"] = deep["settings"]
    d["extra"] = deep["extra"]
    d["quarantine"] = [deep["quarantine.0"]]
    opened, _, parked = open_document(d)
    assert (opened["characters"], opened["log"], opened["systems"], opened["settings"]) == ([good], [fine], {}, {})
    assert parked == 6
    assert load_document(opened) == (opened, None)  # valid: within MAX_DEPTH
    assert open_document(opened) == (opened, None, 0)  # a fixed point
    for item in opened["quarantine"]:
        assert item["path"] in deep
        assert isinstance(item["data"], str), item["path"]
        assert json.loads(item["data"]) == deep[item["path"]]  # kept whole
        if item["path"] != "extra":  # an unknown field is set apart for being unknown
            assert item["problems"][0]["params"]["reason"] == "too_deep"
            assert item["problems"][0]["params"]["max"] == store.MAX_DEPTH
    assert ok({"op": "store.open", "document": d})["quarantined"] == 6
    # strict loading (store.load) still refuses it, naming the record
    with pytest.raises(RulesError) as caught:
        load_document(d)
    assert caught.value.params["reason"] == "too_deep"


def test_only_a_value_past_the_read_bound_is_refused_whole_for_depth():
    d = new_document("T", "fr")
    d["settings"] = {"x": _nest(store.MAX_READ_DEPTH + 5)}
    with pytest.raises(RulesError) as caught:
        open_document(d)
    assert caught.value.params["reason"] == "too_deep"


def test_store_open_op_reports_what_it_set_apart():
    r = ok({"op": "store.open", "document": _doc_with_bad_records()})
    assert r["quarantined"] == 9 and r["migrated_from"] is None


def test_hostile_ids_are_ordinary_ids():
    doc = new_document("T", "fr")
    doc["characters"] = [versality_character(cid, f"P{i}") for i, cid in enumerate(HOSTILE_KEYS[:6])]
    assert load_document(doc)[0] == doc


@pytest.mark.slow
def test_the_size_limit_is_measured_like_the_browser():
    """A document whose compact JSON fits is accepted even when the cheap estimate is above
    (many small numbers), and one just above is refused."""
    d = new_document("T", "fr")
    d["settings"] = {"n": [7] * 600_000}  # "7," is 2 characters: 1.2 MB of JSON
    assert load_document(d)[0] == d
    room = store.MAX_DOCUMENT_SIZE - len(json.dumps(d, separators=(",", ":")))
    d["settings"]["pad"] = "x" * (room - len(',"pad":""'))
    size = len(json.dumps(d, ensure_ascii=False, separators=(",", ":")))
    assert size == store.MAX_DOCUMENT_SIZE
    assert load_document(d)[0] == d
    d["settings"]["pad"] += "x"
    assert handle({"op": "store.load", "document": d})["error"]["code"] == "store.too_large"


# ---------------------------------------------------------------- write/read symmetry

NAME = st.text(min_size=1, max_size=80).filter(lambda s: s.strip())
STEP = st.one_of(
    st.tuples(st.just("new_unicreon"), NAME),
    st.tuples(st.just("new_versality"), NAME),
    st.tuples(st.just("rename_table"), NAME),
    st.tuples(st.just("roll"), st.sampled_from(["d6", "3d6", "4d6kh3", "d66", "d100", "100d6", "2d6+3"])),
    st.tuples(st.just("damage"), st.integers(0, 30)),
    st.tuples(st.just("heal"), st.integers(0, 30)),
    st.tuples(st.just("buy"), st.sampled_from(["couteau_long", "corde", "sac_a_dos", "nope"])),
    st.tuples(st.just("wound"), st.sampled_from(["physique", "mental", "personnalite"])),
    st.tuples(st.just("deck"), st.integers(0, 2**32)),
    st.tuples(st.just("delete"), st.integers(0, 10)),
)


def _apply(doc: dict[str, Any], step: tuple[str, Any], n: int) -> None:
    """One change as the page makes it: an op's answer put into the document."""
    kind, arg = step
    unicreon = [c for c in doc["characters"] if c["system"] == "unicreon"]
    versality = [c for c in doc["characters"] if c["system"] == "versality"]

    def replace(c: dict[str, Any]) -> None:
        doc["characters"] = [c if x["id"] == c["id"] else x for x in doc["characters"]]

    if kind in ("new_unicreon", "new_versality") and len(doc["characters"]) < store.MAX_CHARACTERS:
        system = kind.removeprefix("new_")
        r = handle({"op": f"{system}.character.new", "id": f"{system}-{n}", "name": arg})
        if "error" not in r:
            doc["characters"].append(r["character"])
    elif kind == "rename_table":
        doc["name"] = arg
    elif kind == "roll":
        request = {"op": "roll", "expr": arg, "seed": n}
        result = ok(request)
        doc["log"].append({"id": f"log-{n}", "at": "2026-01-01T10:00:00.000Z", "kind": "roll", "system": None,
                           "label": arg, "request": request, "result": result})
        doc["log"] = doc["log"][-store.MAX_LOG:]
    elif kind in ("damage", "heal") and unicreon:
        r = handle({"op": f"unicreon.health.{kind}", "character": unicreon[0], "amount": arg})
        if "error" not in r:
            replace(r["character"])
    elif kind == "buy" and unicreon:
        r = handle({"op": "unicreon.shop.buy", "character": unicreon[-1], "ref": arg})
        if "error" not in r:
            replace(r["character"])
    elif kind == "wound" and versality:
        r = handle({"op": "versality.wound", "character": versality[0], "characteristic": arg})
        if "error" not in r:
            replace(r["character"])
    elif kind == "deck" and versality:
        state = doc["systems"].get("versality") or ok({"op": "versality.state.new"})["state"]
        r = handle({"op": "versality.deck.build", "state": state, "character": versality[-1], "seed": arg})
        if "error" not in r:  # a player op answers no MJ data: the store merges its public part
            assert "state" not in r
            doc["systems"]["versality"] = ok(
                {"op": "versality.state.merge", "state": state, "public": r["public"], "penalties": r["penalties"]}
            )["state"]
    elif kind == "delete" and doc["characters"]:
        gone = doc["characters"].pop(arg % len(doc["characters"]))
        deck_state = doc["systems"].get("versality")
        if deck_state:
            deck_state["decks"].pop(gone["id"], None)
            deck_state["pending"].pop(gone["id"], None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, max_size=12))
def test_any_sequence_of_api_ops_keeps_the_table_loadable(steps):
    """Write/read symmetry: what the API gives back and the page stores is accepted again."""
    doc = new_document("Table", "fr")
    for n, step in enumerate(steps):
        _apply(doc, step, n)
        validate_document(doc)
        assert open_document(doc) == (doc, None, 0)
        assert json.loads(json.dumps(doc)) == doc


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_every_refusal_names_a_field_path(seed):
    """Any document the store refuses is refused with a field path (store.invalid), or as a
    whole for a reason that has no path (not an object, foreign, newer, too large)."""
    for value in documents(seed, 3):
        r = handle({"op": "store.load", "document": value})
        if "error" in r:
            assert r["error"]["code"] in REFUSALS
            if r["error"]["code"] == "store.invalid":
                assert isinstance(r["error"]["params"]["path"], str)
                assert r["error"]["params"]["reason"]


# ---------------------------------------------------------------- loader fuzz

FUZZ_COUNT = 10_000


class Hung(Exception):
    pass


@contextlib.contextmanager
def hang_guard(seconds: float):
    """Fail what runs inside if it has not returned after ``seconds`` of wall time (SIGALRM): a
    guard against a document that never finishes opening, set far above any normal time so a
    loaded machine never trips it (it is no benchmark: `make bench` measures)."""
    def hung(_signum, _frame):
        raise Hung(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_the_hang_guard_stops_what_never_returns():
    with pytest.raises(Hung), hang_guard(0.05):
        while True:
            pass


@pytest.mark.slow
def test_loader_fuzz_ten_thousand_documents():
    """store.open over 10 000 generated and mutated documents: no crash (only store.* codes),
    none that never finishes (each has 60 s: a hang guard, not a benchmark), and every accepted
    document is valid, a fixed point of open, with each set-apart record's problems naming
    their path."""
    accepted = refused = parked = 0
    for value in documents(7, FUZZ_COUNT):
        with hang_guard(60):
            r = handle({"op": "store.open", "document": value})
        if "error" in r:
            assert r["error"]["code"] in REFUSALS, r
            refused += 1
            continue
        accepted += 1
        doc = r["document"]
        parked += r["quarantined"]
        assert load_document(doc) == (doc, None)
        assert open_document(doc)[2] == 0
        for item in doc.get("quarantine", []):
            assert item["problems"] and all(isinstance(p["field"], str) for p in item["problems"])
    # the generator reaches both sides and the quarantine often
    assert accepted > FUZZ_COUNT // 2 and refused > 50 and parked > FUZZ_COUNT // 4, (accepted, refused, parked)
