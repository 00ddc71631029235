"""The table document: round trips, schema-0 migration, rejection codes, hooks, fuzzing."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablee import store, store_records, store_shape
from tablee.api import handle
from tablee.errors import Problem, RulesError
from tablee.store import load_document, new_document
from tablee.store_records import check_character
from tablee.store_shape import CURRENT_SCHEMA

FIXTURES = Path(__file__).parent / "fixtures"


def doc(**changes):
    d = new_document("Table d'essai", "fr")
    d.update(changes)
    return d


def entry(i=0, **changes):
    e = {
        "id": f"e{i}", "at": "2026-01-01T10:00:00.000Z", "kind": "roll", "system": None,
        "label": "3d6", "request": {"op": "roll", "expr": "3d6", "seed": 1}, "result": {"total": 8},
    }
    e.update(changes)
    return e


def load_error(value) -> RulesError:
    before = copy.deepcopy(value)
    with pytest.raises(RulesError) as info:
        load_document(value)
    assert value == before  # never mutated, even on failure
    response = handle({"op": "store.load", "document": value})
    assert response["error"]["code"] == info.value.code
    return info.value


# ---------------------------------------------------------------- round trips
def test_new_document_literal():
    assert handle({"op": "store.new", "name": "Ma table", "language": "en"}) == {
        "document": {
            "schema": 1, "app": "tablee", "name": "Ma table", "language": "en",
            "characters": [], "log": [], "systems": {}, "settings": {},
        }
    }


def test_round_trip_and_idempotence():
    fresh = handle({"op": "store.new", "name": "T", "language": "fr"})["document"]
    once = handle({"op": "store.load", "document": fresh})
    assert once == {"document": fresh, "migrated_from": None}
    twice = handle({"op": "store.load", "document": once["document"]})
    assert twice == once


def test_load_returns_new_objects():
    d = doc(log=[entry()], settings={"theme": {"dark": True}})
    loaded, _ = load_document(d)
    assert loaded == d
    loaded["log"][0]["result"]["total"] = 99
    loaded["settings"]["theme"]["dark"] = False
    assert d["log"][0]["result"]["total"] == 8 and d["settings"]["theme"]["dark"] is True


@pytest.fixture
def kernel_only(monkeypatch):
    """The kernel's checks alone: the system validators (each system tests its own) set aside,
    so a bare {"id", "system", "name"} character exercises the kernel's paths."""
    for key in list(store_records.CHARACTER_VALIDATORS):
        monkeypatch.delitem(store_records.CHARACTER_VALIDATORS, key)


def test_full_valid_document_loads(kernel_only):
    d = doc(
        characters=[{"id": "c1", "system": "systmj", "name": "Ana", "notes": [1, 2]}],
        log=[entry(i, who="Ana") for i in range(3)] + [entry(9, system="unicreon", kind="unicreon.test")],
        settings={"dice_sound": False},
    )
    assert load_document(d) == (d, None)


# ---------------------------------------------------------------- schema 0
def test_schema0_fixture_migrates():
    raw = json.loads((FIXTURES / "table-schema0.json").read_text(encoding="utf-8"))
    before = copy.deepcopy(raw)
    response = handle({"op": "store.load", "document": raw})
    assert raw == before
    assert response == {
        "migrated_from": 0,
        "document": {
            "schema": 1, "app": "tablee", "name": "La Compagnie du Dé", "language": "fr",
            "characters": [], "systems": {}, "settings": {},
            "log": [
                {"id": "v0-0", "at": "2025-11-02T20:14:05.120Z", "kind": "roll", "system": None,
                 "label": "3d6", "request": {"op": "roll", "expr": "3d6"},
                 "result": {"expr": "3d6", "total": 11, "dice": [4, 2, 5]}},
                {"id": "v0-1", "at": "2025-11-02T20:15:41.003Z", "kind": "roll", "system": None,
                 "label": "d66", "request": {"op": "roll", "expr": "d66"},
                 "result": {"expr": "d66", "total": 35, "dice": [3, 5]}},
                {"id": "v0-2", "at": "2025-11-02T20:17:00.000Z", "kind": "roll", "system": None,
                 "label": "2d6+1", "request": {"op": "roll", "expr": "2d6+1"},
                 "result": {"expr": "2d6+1", "total": 8, "dice": [6, 1]}},
            ],
        },
    }
    again = handle({"op": "store.load", "document": response["document"]})
    assert again == {"document": response["document"], "migrated_from": None}


def test_schema0_keeps_last_thousand_rolls():
    rolls = [{"expr": "d6", "total": 1, "dice": [1], "time": str(i)} for i in range(1005)]
    d, frm = load_document({"title": "Vieux", "lang": "en", "rolls": rolls})
    assert frm == 0 and len(d["log"]) == 1000 and d["log"][0]["at"] == "5" and d["log"][-1]["id"] == "v0-1004"


def test_schema0_invalid_paths_are_schema0_paths():
    bad = {"title": "T", "lang": "fr", "rolls": [{"expr": "d6", "total": "2", "dice": [2], "time": "x"}]}
    err = load_error(bad)
    assert err.code == "store.invalid" and err.params["path"] == "rolls.0.total"


def test_migrations_chain_reaches_current():
    assert set(store.MIGRATIONS) == set(range(CURRENT_SCHEMA))


# ---------------------------------------------------------------- rejections
@pytest.mark.parametrize("value", [None, 3, "table", [], [doc()], True, 1.5])
def test_not_object(value):
    assert load_error(value).code == "store.not_object"


@pytest.mark.parametrize(
    "value",
    [
        {},
        {"app": "other", "schema": 1},
        {"schema": 1, "name": "x"},  # no "app": not ours
        {"title": "T", "lang": "fr"},  # no rolls: not recognisably schema 0
        {"title": "T", "lang": "fr", "rolls": [], "extra": 1},
        {"type": "FeatureCollection", "features": []},
    ],
)
def test_foreign(value):
    assert load_error(value).code == "store.foreign"


def test_newer():
    err = load_error(doc(schema=CURRENT_SCHEMA + 1, shiny_new_field=True))
    assert err.code == "store.newer"
    assert err.params == {"found": CURRENT_SCHEMA + 1, "supported": CURRENT_SCHEMA}


def test_too_large():
    err = load_error("x" * (2 * 1024 * 1024))
    assert err.code == "store.too_large" and err.params["max"] == store_shape.MAX_DOCUMENT_SIZE
    err = load_error(doc(settings={"blob": "x" * (2 * 1024 * 1024)}))
    assert err.code == "store.too_large"


@pytest.mark.parametrize(
    ("changes", "path", "reason"),
    [
        ({"schema": "1"}, "schema", "type"),
        ({"schema": True}, "schema", "type"),
        ({"schema": 0}, "schema", "enum"),
        ({"name": ""}, "name", "empty"),
        ({"name": "n" * 81}, "name", "too_long"),
        ({"name": 5}, "name", "type"),
        ({"language": "de"}, "language", "enum"),
        ({"characters": {}}, "characters", "type"),
        ({"characters": [[]]}, "characters.0", "type"),
        ({"characters": [{"id": "a", "system": "dnd", "name": "X"}]},
         "characters.0.system", "unknown_system"),
        ({"characters": [{"id": "a", "system": "systmj"}]}, "characters.0.name", "type"),
        ({"characters": [{"id": "a", "system": "systmj", "name": "X"},
                         {"id": "a", "system": "systmj", "name": "Y"}]},
         "characters.1.id", "duplicate"),
        ({"log": [entry(), entry(1, kind=3)]}, "log.1.kind", "type"),
        ({"log": [entry(label="l" * 201)]}, "log.0.label", "too_long"),
        ({"log": [entry(at="x" * 41)]}, "log.0.at", "too_long"),
        ({"log": [entry(system="dnd")]}, "log.0.system", "unknown_system"),
        ({"log": [entry(request=[1])]}, "log.0.request", "type"),
        ({"log": [entry(result={"big": "x" * 30_000})]}, "log.0.result", "too_large"),
        ({"log": [entry(extra=1)]}, "log.0.extra", "unknown_key"),
        ({"log": [{k: v for k, v in entry().items() if k != "label"}]}, "log.0.label", "missing"),
        ({"log": [entry(i) for i in range(1001)]}, "log", "too_many"),
        ({"systems": {"dnd": {}}}, "systems.dnd", "unknown_system"),
        ({"systems": {"systmj": []}}, "systems.systmj", "type"),
        ({"settings": None}, "settings", "type"),
        ({"settings": {"x": float("nan")}}, "settings.x", "not_json"),
        ({"unexpected": 1}, "unexpected", "unknown_key"),
    ],
)
def test_invalid_paths(changes, path, reason, kernel_only):
    err = load_error(doc(**changes))
    assert err.code == "store.invalid"
    assert (err.params["path"], err.params["reason"]) == (path, reason)


def test_missing_top_level_key():
    d = doc()
    del d["log"]
    err = load_error(d)
    assert (err.params["path"], err.params["reason"]) == ("log", "missing")


def _nested(depth: int) -> dict:
    deep: dict = {}
    cur = deep
    for _ in range(depth):
        cur["a"] = {}
        cur = cur["a"]
    return deep


def test_too_deep():
    err = load_error(doc(settings=_nested(200)))
    assert err.code == "store.invalid" and err.params["reason"] == "too_deep"
    assert err.params["path"] == "settings" + ".a" * 31
    with pytest.raises(RulesError) as info:  # far deeper than Python's recursion limit
        load_document(doc(settings=_nested(50_000)))
    assert info.value.params["reason"] == "too_deep"


# ---------------------------------------------------------------- system hooks
def _reject_bad(character):
    return [Problem("name", "store.char.name", {"max": 80})] if character["name"] == "Bad" else []


def test_character_hook_rejects_at_character_path(monkeypatch):
    monkeypatch.setitem(store_records.CHARACTER_VALIDATORS, "systmj", _reject_bad)
    good = {"id": "a", "system": "systmj", "name": "Good"}
    bad = {"id": "b", "system": "systmj", "name": "Bad"}
    assert load_document(doc(characters=[good]))[0]["characters"] == [good]
    err = load_error(doc(characters=[good, bad]))
    assert err.code == "store.invalid"
    assert err.params["path"] == "characters.1.name"
    assert err.params["reason"] == "store.char.name"
    assert err.params["problem"]["code"] == "store.char.name"
    r = handle({"op": "store.check_character", "character": bad})
    assert r == {"ok": False, "problems": [Problem("name", "store.char.name", {"max": 80}).to_json()]}
    assert handle({"op": "store.check_character", "character": good}) == {"ok": True, "problems": []}


def test_state_hook_rejects_at_state_path(monkeypatch):
    def no_tokens(state):
        return [Problem("tokens", "store.char.rejected", {"kind": "test"})] if "tokens" in state else []

    monkeypatch.setitem(store_records.STATE_VALIDATORS, "theorem", no_tokens)
    assert load_document(doc(systems={"theorem": {"round": 1}}))[1] is None
    err = load_error(doc(systems={"theorem": {"tokens": 3}}))
    assert (err.params["path"], err.params["reason"]) == ("systems.theorem.tokens", "store.char.rejected")


def test_crashing_hook_rejects_instead_of_raising(monkeypatch):
    def crash(character):
        return character["missing"]

    monkeypatch.setitem(store_records.CHARACTER_VALIDATORS, "pointzero", crash)
    err = load_error(doc(characters=[{"id": "a", "system": "pointzero", "name": "P"}]))
    assert err.params["path"] == "characters.0" and err.params["problem"]["params"] == {"kind": "KeyError"}


def test_hook_cannot_mutate_the_document(monkeypatch):
    def vandal(character):
        character["name"] = "changed"
        return []

    monkeypatch.setitem(store_records.CHARACTER_VALIDATORS, "systmj", vandal)
    d = doc(characters=[{"id": "a", "system": "systmj", "name": "Keep"}])
    assert load_document(d)[0]["characters"][0]["name"] == "Keep"


@pytest.mark.parametrize(
    ("character", "codes"),
    [
        ([], ["store.char.not_object"]),
        ({}, ["store.char.id", "store.char.system", "store.char.name"]),
        ({"id": "x" * 65, "system": "systmj", "name": "N"}, ["store.char.id"]),
        ({"id": "a", "system": "gurps", "name": ""}, ["store.char.system", "store.char.name"]),
    ],
)
def test_check_character_base(character, codes):
    assert [p.code for p in check_character(character)] == codes


# ---------------------------------------------------------------- fuzzing
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)
NEAR_DOC = st.fixed_dictionaries(
    {
        "schema": st.sampled_from([0, 1, 2, "1"]) | JSON,
        "app": st.just("tablee") | JSON,
        "name": st.text(max_size=90) | JSON,
        "language": st.sampled_from(["fr", "en", "de"]),
        "characters": st.lists(
            st.fixed_dictionaries(
                {"id": st.text(max_size=5),
                 "system": st.sampled_from(["systmj", "unicreon", "versality", "x"]),
                 "name": st.text(max_size=5)}
            ) | JSON,
            max_size=3,
        ),
        "log": st.lists(st.builds(entry, st.integers(0, 5)) | JSON, max_size=3),
        "systems": st.dictionaries(
            st.sampled_from(["systmj", "unicreon", "versality", "zz"]), JSON, max_size=2
        ),
        "settings": JSON,
    }
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON | NEAR_DOC)
def test_any_json_loads_or_fails_cleanly(value):
    before = copy.deepcopy(value)
    response = handle({"op": "store.load", "document": value})
    assert value == before
    if "error" in response:
        assert response["error"]["code"] in {
            "store.not_object", "store.foreign", "store.newer", "store.invalid", "store.too_large",
        }, response
    else:
        assert response["document"]["schema"] == CURRENT_SCHEMA
        assert load_document(response["document"]) == (response["document"], None)
