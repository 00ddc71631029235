"""The MJ's device projects its table for the phones from changes, not whole (static/js/live/hub.js
applyChanges / applyViewChanges, run in Node by tests/live/session_harness.mjs): the referee's
table made from the changes of a move, the next player view made from the changes the worker
answers, and the table the MJ's page sends as changes of the one the worker holds. Each is
compared with the same table made whole."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from node_harness import NODE

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")


def test_the_mjs_device_makes_the_referees_table_from_the_changes_of_a_move(node):
    """The referee answers the MJ's device a move's changes (py/tablee/referee.py ``changes``),
    not the whole table: session.js ``applyChanges`` on the table the move was made on gives the
    referee's new table, for a new log entry, a full log (the oldest goes), a page's label (an
    entry replaced in place), a sheet save (a character replaced) and a hand drawn (a state)."""
    from referee_tables import LEA, NOW, table
    from tablee.api import handle

    doc = table()
    moves = [{"op": "roll", "expr": "1d6"}, {"op": "theorem.hand.draw", "character": {"id": "josh"}}]
    for i, move in enumerate([*moves, moves[0], moves[0]]):
        request = {"op": "live.move", "document": doc, "member": LEA, "move": move, "seed": 40 + i, "now": NOW}
        whole = handle(request)
        asked = handle({**request, "changes": True})
        assert whole["applied"] and "changes" in asked, asked
        assert node("pure", fn="applyChanges", args=[doc, asked["changes"]]) == whole["document"]
        doc = whole["document"]
        request["document"] = doc
        if i == 0:
            label = {"op": "live.log.label", "id": asked["answer"]["logged"], "label": "Mon jet"}
            labelled = handle({**request, "move": label, "changes": True})
            assert labelled["changes"]["log"]["set"], labelled
            assert node("pure", fn="applyChanges", args=[doc, labelled["changes"]]) == handle(
                {**request, "move": label})["document"]
            josh = next(c for c in doc["characters"] if c["id"] == "josh")
            save = handle({**request, "move": {"op": "live.character.save", "character": {**josh, "name": "Josh 2"}},
                           "changes": True})
            assert "set" in save["changes"]["characters"], save
            assert node("pure", fn="applyChanges", args=[doc, save["changes"]])["characters"][0]["name"] == "Josh 2"
    doc["log"] = [{**doc["log"][-1], "id": f"e{i:04d}"} for i in range(1000)]
    request = {"op": "live.move", "document": doc, "member": LEA, "move": moves[0], "seed": 99, "now": NOW}
    asked = handle({**request, "changes": True})
    assert asked["changes"]["log"]["drop"] == 1
    assert node("pure", fn="applyChanges", args=[doc, asked["changes"]]) == handle(request)["document"]


def test_the_mjs_device_makes_the_next_view_from_the_changes_the_worker_answers(node):
    """The projection asks the worker for the changes since its last view (store.share
    ``since``): session.js ``applyViewChanges`` on that view gives the uncached share of the new
    table, through moves (a new entry, a full log, a state, a sheet) and an MJ's rename."""
    from referee_tables import LEA, NOW, table
    from tablee.api import handle, handle_json

    def share(doc, since):
        request = {"op": "store.share", "kind": "table", "data": doc, "audience": "player", "since": since}
        return json.loads(handle_json(json.dumps(request, ensure_ascii=False)))

    doc = table()
    first = share(doc, None)
    view, since = first["data"], first["view"]
    steps = [{"op": "roll", "expr": "1d6"}, {"op": "theorem.hand.draw", "character": {"id": "josh"}}, "rename",
             "full", {"op": "roll", "expr": "2d6"}]
    for i, step in enumerate(steps):
        if step == "rename":
            doc = {**doc, "name": "Table renommée"}
        elif step == "full":
            doc = {**doc, "log": [{**doc["log"][-1], "id": f"e{k:04d}"} for k in range(1000)]}
        else:
            doc = handle({"op": "live.move", "document": doc, "member": LEA, "move": step, "seed": 60 + i,
                          "now": NOW})["document"]
        answer = share(doc, since)
        assert "changes" in answer or step == "full", answer
        if "changes" in answer:
            view = node("pure", fn="applyViewChanges", args=[view, answer["changes"]])
        else:
            view = answer["data"]
        since = answer["view"]
        expected = handle({"op": "store.share", "kind": "table", "data": doc, "audience": "player"})["data"]
        assert view == expected


# ---------------------------------------------------------------- the MJ's edits as changes

def _record(n: int, extra: str = "") -> dict:
    return {"id": f"r{n}", "v": n, "text": extra}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_changes_the_mjs_page_sends_make_its_table_from_the_held_one(node, data):
    """The MJ's page sends the worker what an edit changed (session.js `tableChanges`), which the
    worker applies to the table it holds (py/tablee/share.py `apply_changes`): over random
    edits (records replaced, added, dropped from the front, deleted or reordered; a system state
    changed or added; the name changed), the worker's table is the page's, and a change it
    cannot say (a key gone) sends the table whole."""
    from tablee.share import apply_changes

    n_chars, n_log = data.draw(st.integers(0, 6)), data.draw(st.integers(0, 30))
    before = {"schema": 1, "app": "tablee", "name": "T", "settings": {},
              "characters": [_record(i) for i in range(n_chars)], "log": [_record(100 + i) for i in range(n_log)],
              "systems": {"theorem": {"turn": 0}}}
    after = json.loads(json.dumps(before))  # a deep copy, as the app's change makes (no record shared)
    for _ in range(data.draw(st.integers(0, 4))):
        kind = data.draw(st.sampled_from(["set", "add", "drop", "delete", "swap", "system", "new_system", "name",
                                          "gone"]))
        key = data.draw(st.sampled_from(["characters", "log"]))
        items = after[key]
        if kind == "set" and items:
            i = data.draw(st.integers(0, len(items) - 1))
            items[i] = {**items[i], "text": data.draw(st.text(max_size=5))}
        elif kind == "add":
            items.append(_record(1000 + len(items), "new"))
        elif kind == "drop" and items:
            del items[:data.draw(st.integers(1, len(items)))]
        elif kind == "delete" and items:
            del items[data.draw(st.integers(0, len(items) - 1))]
        elif kind == "swap" and len(items) > 1:
            items[0], items[-1] = items[-1], items[0]
        elif kind == "system":
            after["systems"]["theorem"] = {"turn": data.draw(st.integers(0, 3))}
        elif kind == "new_system":
            after["systems"]["versality"] = {"tokens": 1}
        elif kind == "name":
            after["name"] = data.draw(st.text(max_size=5))
        elif kind == "gone":
            after.pop("settings", None)
    changes = node("pure", fn="tableChanges", args=[before, after])
    if "settings" not in after:
        assert changes is None
        return
    assert changes is not None
    assert apply_changes(before, changes) == after
