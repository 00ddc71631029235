"""The live table's projection (``store.share`` of a table for a player, read from JSON text as
the worker reads it) keeps each record's view from one call to the next: it must answer exactly
what the uncached share answers (``share.share``), byte for byte, whatever the table and
whatever changed since the last call.

Hypothesis builds tables with every system's secrets set (tests/test_share_filters.py) or the
loader fuzz's tables (tests/store_fuzz.py), then edits them step by step the way a live table
does (a log entry added and the oldest dropped, a character's field, a system state, characters
reordered or duplicated) or hostilely (store_fuzz.mutate: anything the loader must set apart or
refuse); after each step the JSON answer of ``api.handle_json`` (the kept views) is compared,
as text, with the uncached answer for the same request.
"""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import store_fuzz
from share_tables import TABLES, build_table
from tablee import api, referee, share, store


def _answers(doc: object) -> tuple[str, str]:
    text = json.dumps({"op": "store.share", "kind": "table", "data": doc, "audience": "player"},
                      ensure_ascii=False)
    kept = api.handle_json(text)
    uncached = json.dumps(api.handle(json.loads(text)), ensure_ascii=False)
    return kept, uncached


def _edit(doc: dict, rng: random.Random) -> dict:
    """One change as a live table makes them (most steps), or a hostile one."""
    doc = copy.deepcopy(doc)
    pick = rng.randrange(8)
    log, characters = doc.get("log"), doc.get("characters")
    if pick == 0 and isinstance(log, list):
        n = len(log)
        log.append({"id": f"live-{rng.randrange(10**6):06d}", "at": "2026-11-27T08:00:00.000Z", "kind": "roll",
                    "system": None, "who": "Banc", "label": "1d6",
                    "request": {"op": "roll", "expr": "1d6"}, "result": {"total": rng.randrange(1, 7)}})
        if rng.random() < 0.5 and n:
            del log[0]
        if rng.random() < 0.2:
            log[-1]["to"] = rng.choice(["mj", "member-1"])
    elif pick == 1 and isinstance(characters, list) and characters and isinstance(characters[0], dict):
        c = rng.choice([c for c in characters if isinstance(c, dict)])
        c["name"] = rng.choice(["Ana", "", "x" * 81, "Éloïse"])
    elif pick == 2 and isinstance(doc.get("systems"), dict) and doc["systems"]:
        sid = rng.choice(list(doc["systems"]))
        state = doc["systems"][sid]
        if isinstance(state, dict) and state:
            key = rng.choice(list(state))
            state[key] = rng.choice([copy.deepcopy(state[key]), None, 3, "x", []])
    elif pick == 3 and isinstance(characters, list):
        rng.shuffle(characters)
    elif pick == 4 and isinstance(characters, list) and characters:
        characters.append(copy.deepcopy(rng.choice(characters)))  # an id twice: set apart
    elif pick == 5:
        doc["name"] = rng.choice(["Table", "", "y" * 81])
    elif pick == 6:
        doc = store_fuzz.mutate(doc, rng)
    return doc


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES, st.integers(0, 2**32), st.integers(1, 6))
def test_kept_views_answer_what_the_uncached_share_answers(doc, seed, steps):
    rng = random.Random(seed)
    kept, uncached = _answers(doc)
    assert kept == uncached
    assert share._fast_view(json.loads(json.dumps(doc))) is not None  # a valid table: the kept path
    for _ in range(steps):
        doc = _edit(doc, rng)
        kept, uncached = _answers(doc)
        assert kept == uncached


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(1, 5))
def test_kept_views_answer_what_the_uncached_share_answers_on_fuzzed_tables(seed, steps):
    rng = random.Random(seed)
    doc = store_fuzz.base_document(rng)
    for _ in range(steps):
        kept, uncached = _answers(doc)
        assert kept == uncached
        doc = _edit(doc, rng) if isinstance(doc, dict) else doc


def test_a_table_over_the_limits_takes_the_uncached_path():
    rng = random.Random(3)
    doc = store_fuzz.base_document(rng)
    doc["log"] = [{"id": f"e{i}", "at": "2026-01-01T10:00:00.000Z", "kind": "roll", "system": None,
                   "label": "", "request": {}, "result": {}} for i in range(store.MAX_LOG + 1)]
    assert share._fast_view(json.loads(json.dumps(doc))) is None  # the oldest entry goes: the loader's
    kept, uncached = _answers(doc)
    assert kept == uncached


def test_only_a_request_read_from_json_text_uses_the_kept_views(monkeypatch):
    """A Python caller may hold a tuple or a number key (the same JSON text as a list or a string
    key) and may change the answer in place: ``api.handle`` never takes the kept views."""
    doc = store_fuzz.base_document(random.Random(5))
    request = {"op": "store.share", "kind": "table", "data": doc, "audience": "player"}
    expected = api.handle(request)

    def never(document):
        raise AssertionError("the kept views were used")

    monkeypatch.setattr(share, "_fast_view", never)
    assert api.handle(request) == expected
    doc["characters"].append({"id": (1,), "name": "t", "system": "unicreon"})
    assert "error" in api.handle(request)  # a tuple is no JSON: the uncached share refuses the table


def _apply_view_changes(view: dict, found: dict) -> dict:
    """The page's twin (static/js/live/session.js ``applyViewChanges``)."""
    out = referee.apply_changes(view, found)
    out.update(found.get("top", {}))
    return out


def _text_of(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)  # (true is not 1)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES, st.integers(0, 2**32), st.integers(1, 8))
def test_the_changes_since_the_last_view_make_the_uncached_share(doc, seed, steps):
    """The live table's projection asks for the changes since its last view (``since``): applied
    to that view they make the uncached share of the new table, step after step; a ``since``
    that is not the worker's last view, or a table off the kept path, gets the whole view."""
    rng = random.Random(seed)
    view, since = None, None
    for step in range(steps + 1):
        if step:
            doc = _edit(doc, rng) if rng.random() < 0.8 else doc
        request = {"op": "store.share", "kind": "table", "data": doc, "audience": "player",
                   "since": since if rng.random() < 0.9 else "not-the-last"}
        answer = json.loads(api.handle_json(json.dumps(request, ensure_ascii=False)))
        uncached = api.handle({k: v for k, v in json.loads(json.dumps(request)).items() if k != "since"})
        if "error" in uncached:
            assert answer == uncached
            view, since = None, None
            continue
        if "changes" in answer:
            assert view is not None and request["since"] == since
            view = _apply_view_changes(view, answer["changes"])
        else:
            view = answer["data"]
        assert _text_of(view) == _text_of(uncached["data"])
        since = answer.get("view")


def test_a_new_log_entry_is_one_record_of_changes():
    doc = json.loads(json.dumps(build_table(7, 12, 3, 4, 6, 5, "action", False)))
    first = json.loads(api.handle_json(json.dumps({"op": "store.share", "kind": "table", "data": doc,
                                                   "audience": "player", "since": None})))
    entry = {"id": "live-0001", "at": "2026-11-27T08:00:00.000Z", "kind": "roll", "system": None, "who": "Banc",
             "label": "1d6", "request": {"op": "roll", "expr": "1d6"}, "result": {"total": 3}}
    doc["log"].append(entry)
    second = json.loads(api.handle_json(json.dumps({"op": "store.share", "kind": "table", "data": doc,
                                                    "audience": "player", "since": first["view"]})))
    assert second["changes"] == {"log": {"add": [entry]}}
    assert "data" not in second and second["view"] != first["view"]
