"""Undo and redo (static/js/undo.js), run in Node: any sequence of changes then as many undos
gives the starting document, undo then redo gives the same document (Hypothesis); an undo
touches only the paths its change touched and refuses when they changed since; the history
stays bounded; a deletion is kept as the deleted record, not as a copy of the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from node_harness import NODE, NodeHarness

HARNESS = Path(__file__).parent / "js" / "undo_checks.mjs"
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: the undo module is JavaScript")


@pytest.fixture(scope="module")
def node():
    harness = NodeHarness(HARNESS)
    yield harness
    harness.close()


scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["", "a", "é", "b"]))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["x", "y", "z", "id"]), inner, max_size=3),
    ),
    max_leaves=8,
)
character = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["c1", "c2", "c3", "c4", "c5"]),
        "name": st.sampled_from(["Ana", "Bo", "Cé"]),
        "pv": st.integers(0, 9),
    },
    optional={"tags": st.lists(st.sampled_from(["a", "b"]), max_size=3), "more": values},
)


def unique_ids(chars):
    seen, out = set(), []
    for c in chars:
        if c["id"] not in seen:
            seen.add(c["id"])
            out.append(c)
    return out


documents = st.fixed_dictionaries(
    {
        "schema": st.just(1),
        "app": st.just("tablee"),
        "name": st.sampled_from(["Ma table", "Autre"]),
        "characters": st.one_of(st.lists(character, max_size=5).map(unique_ids), st.lists(character, max_size=3)),
        "log": st.lists(st.fixed_dictionaries({"id": st.sampled_from(["l1", "l2", "l3"])}), max_size=2),
        "systems": st.dictionaries(st.sampled_from(["systmj", "versality"]), values, max_size=2),
        "settings": st.dictionaries(st.sampled_from(["mj", "x"]), values, max_size=2),
    },
    optional={"quarantine": st.lists(values, max_size=2)},
)


def without_log(doc):
    return {k: v for k, v in doc.items() if k != "log"}


@settings(max_examples=100, deadline=None)
@given(st.lists(documents, min_size=1, max_size=6))
def test_undo_everything_gives_the_start_and_redo_gives_the_end(node, states):
    answer = node("roundtrip", states=states)
    final = answer["redone"][-1] if answer["redone"] else states[-1]
    start = answer["undone"][-1] if answer["undone"] else states[-1]
    # The log is the table's history, not undone; everything else is back as it was.
    assert without_log(start) == without_log(states[0])
    assert without_log(final) == without_log(states[-1])
    # Each undo goes back one step (steps that changed only the log record nothing).
    distinct = dedupe([without_log(d) for d in states])
    assert [without_log(d) for d in answer["undone"]] == distinct[-2::-1]
    assert all(r == 0 for r in answer["refused"])


def dedupe(docs):
    out = []
    for d in docs:
        if not out or out[-1] != d:
            out.append(d)
    return out


def table(*chars, **more):
    doc = {"schema": 1, "app": "tablee", "name": "T", "characters": list(chars), "log": [], "systems": {}}
    doc["settings"] = {}
    return {**doc, **more}


def test_a_deleted_character_is_kept_as_itself_and_comes_back_in_its_place(node):
    a, b, c = ({"id": f"c{i}", "name": n, "pv": 5} for i, n in enumerate(["Ana", "Bo", "Cé"]))
    big = table(a, b, c, systems={"systmj": {"notes": "x" * 50000}})
    after = table(a, c, systems={"systmj": {"notes": "x" * 50000}})
    changes = node("diff", before=big, after=after)
    assert changes == [{"p": ["characters", {"id": "c1"}], "b": b, "i": 1}]
    assert len(json.dumps(changes)) < 200  # the difference, not the 50 000-character table
    assert node("apply", doc=after, changes=changes, direction="undo") == big


def test_an_undo_touches_only_its_paths_and_refuses_when_they_changed_since(node):
    before = table({"id": "c1", "name": "Ana", "pv": 8}, {"id": "c2", "name": "Bo", "pv": 5})
    damaged = table({"id": "c1", "name": "Ana", "pv": 3}, {"id": "c2", "name": "Bo", "pv": 5})
    changes = node("diff", before=before, after=damaged)
    assert changes == [{"p": ["characters", {"id": "c1"}, "pv"], "b": 8, "a": 3}]
    # Another tab renamed the table and hurt Bo since: the undo still applies, to Ana's pv only.
    since = table({"id": "c1", "name": "Ana", "pv": 3}, {"id": "c2", "name": "Bo", "pv": 1}, name="U")
    assert node("conflicts", doc=since, changes=changes, direction="undo") == 0
    assert node("apply", doc=since, changes=changes, direction="undo") == table(
        {"id": "c1", "name": "Ana", "pv": 8}, {"id": "c2", "name": "Bo", "pv": 1}, name="U"
    )
    # Ana's pv changed since (or Ana was deleted): refused.
    assert node("conflicts", doc=table({"id": "c1", "name": "Ana", "pv": 2}), changes=changes, direction="undo") == 1
    assert node("conflicts", doc=table(), changes=changes, direction="undo") == 1


def test_the_history_stays_bounded(node):
    limits = node("limits")
    assert limits["entries"] >= 20
    changes = [{"p": ["name"], "b": "x" * 20000, "a": "y"}]
    entry = {"id": "e", "at": "", "label": {"key": "other", "params": {}}, "changes": changes}
    history = {"undo": [{**entry, "id": f"e{i}"} for i in range(40)], "redo": []}
    bounded = node("bound", history=history)
    assert len(json.dumps(bounded)) <= limits["chars"]
    assert bounded["undo"][-1]["id"] == "e39"  # the newest kept
    small = {"undo": [{**entry, "id": f"s{i}", "changes": []} for i in range(40)], "redo": []}
    kept = [e["id"] for e in node("bound", history=small)["undo"]]
    assert kept == [f"s{i}" for i in range(40 - limits["entries"], 40)]
    assert node("read", text="not json") == {"undo": [], "redo": []}
