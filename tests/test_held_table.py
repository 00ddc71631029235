"""The MJ's table kept in the worker (py/tablee/held.py): the page names the revision the worker
holds instead of sending its table, and the referee's answer carries the public view's changes.

Oracle: the same move on the whole table sent with the request (the path every move took before),
and the uncached share of the table it made. The worker must never act on another table than
the page's: a request naming any revision but the one held is answered ``stale`` and changes
nothing, whatever came before it.
"""

from __future__ import annotations

import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_tables import LEA, MEMBERS, MOVE, NOW, TOM, table
from tablee import api, held, referee


def worker(request: dict) -> dict:
    """The request as the worker answers it: from JSON text, to JSON text."""
    return json.loads(api.handle_json(json.dumps(request, ensure_ascii=False)))


def whole(doc: dict, member: dict, move: dict, seed: int) -> dict:
    """The oracle: the move on the whole table, outside the worker (nothing held)."""
    return api.handle({"op": "live.move", "document": copy.deepcopy(doc), "member": member, "move": move,
                       "seed": seed, "now": NOW})


def public(doc: dict) -> dict:
    return api.handle({"op": "store.share", "kind": "table", "data": copy.deepcopy(doc), "audience": "player"})["data"]


def text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def view_applied(view: dict, changes: dict) -> dict:
    out = referee.apply_changes(view, changes)
    out.update(changes.get("top", {}))
    return out


def test_a_move_on_the_held_table_is_the_move_on_the_table_sent():
    doc = table()
    first = worker({"op": "store.share", "kind": "table", "data": doc, "audience": "player", "since": None,
                    "hold": True})
    rev = first["rev"]
    request = {"op": "live.move", "member": LEA, "move": {"op": "theorem.hand.draw", "character": {"id": "josh"}},
               "seed": 42, "now": NOW, "changes": True, "view": first["view"]}
    answer = worker({**request, "held": rev})
    oracle = whole(doc, LEA, request["move"], 42)
    assert answer["applied"] and answer["answer"] == oracle["answer"]
    after = referee.apply_changes(doc, answer["changes"])
    assert after == oracle["document"]
    # the public view's changes, answered with the move: no second request for the projection
    assert "changes" in answer["projection"] and answer["projection"]["view"] != first["view"]
    assert text(view_applied(first["data"], answer["projection"]["changes"])) == text(public(after))
    assert answer["rev"] != rev and held.table(answer["rev"]) == after


def test_a_revision_the_worker_no_longer_holds_is_answered_stale_and_changes_nothing():
    """A move on revision N after the worker held N-1 (or anything else) is never run on the table
    the worker holds: the page is told, and sends its table."""
    doc = table()
    rev0 = worker({"op": "store.share", "kind": "table", "data": doc, "audience": "player", "since": None,
                   "hold": True})["rev"]
    roll = {"op": "live.move", "member": LEA, "move": {"op": "roll", "expr": "1d6"}, "seed": 1, "now": NOW,
            "changes": True}
    one = worker({**roll, "held": rev0})
    doc1 = referee.apply_changes(doc, one["changes"])
    held_now = copy.deepcopy(held.table(one["rev"]))
    # The page changed its table meanwhile (the MJ's own edit) and names the revision it had: stale.
    for wrong in (rev0, "0123456789abcdef", one["rev"] + "x"):
        assert worker({**roll, "held": wrong, "seed": 2}) == {"stale": True}
    assert held.table(one["rev"]) == held_now  # nothing ran, nothing held changed
    # The page sends its own table whole: the move is made on that one, which the worker then holds.
    edited = {**doc1, "name": "Autre table"}
    two = worker({**roll, "document": edited, "seed": 2})
    assert referee.apply_changes(edited, two["changes"]) == whole(edited, LEA, roll["move"], 2)["document"]
    assert worker({**roll, "held": one["rev"], "seed": 3}) == {"stale": True}
    assert held.table(two["rev"])["name"] == "Autre table"


def test_a_refused_move_keeps_the_revision_and_the_table():
    doc = table()
    sent = worker({"op": "live.move", "document": doc, "member": TOM, "move": {"op": "theorem.hand.draw",
                   "character": {"id": "josh"}}, "seed": 1, "now": NOW, "changes": True})
    assert sent["applied"] is False and sent["answer"]["error"]["code"] == "live.refused.character"
    assert held.table(sent["rev"]) == doc
    again = worker({"op": "live.move", "held": sent["rev"], "member": LEA, "move": {"op": "theorem.turn.next"},
                    "seed": 1, "now": NOW})
    assert again["rev"] == sent["rev"] and again["applied"] is False


def test_a_move_that_names_no_table_is_answered_stale():
    answer = worker({"op": "live.move", "member": LEA, "move": {"op": "roll", "expr": "1d6"}, "seed": 1, "now": NOW})
    assert answer == {"stale": True}


def _mj_edit(doc: dict, rng: random.Random) -> dict:
    """The MJ's own change on their device (a new object, the old one untouched)."""
    doc = copy.deepcopy(doc)
    pick = rng.randrange(3)
    if pick == 0:
        doc["name"] = rng.choice(["Table", "La table du jeudi"])
    elif pick == 1:
        doc["characters"][rng.randrange(len(doc["characters"]))]["notes"] = f"note {rng.randrange(100)}"
    else:
        doc["log"].append({"id": f"mj-{rng.randrange(10**6)}", "at": NOW, "kind": "roll", "system": None, "label": "",
                           "request": {"op": "roll", "expr": "1d6"}, "result": {"total": 3},
                           **({"to": "mj"} if rng.random() < 0.5 else {})})
    return doc


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(st.one_of(st.tuples(st.sampled_from(range(len(MEMBERS))), MOVE), st.just("edit")),
                      min_size=1, max_size=10),
       seed=st.integers(0, 2**32))
def test_the_held_path_is_the_whole_table_path_whatever_the_page_names(steps, seed):
    """A page plays random moves and MJ edits, and names at random the revision it should (the
    one the worker answered for its table), an older one, or none (its table whole). Every
    applied move answers what the move on the page's whole table answers, its changes make
    that table, and the projection answered with it makes the uncached share; a wrong
    revision is answered stale, and the page then sends its table."""
    rng = random.Random(seed)
    doc = table()
    mine: tuple[dict, str] | None = None  # (the page's table the worker holds, its revision)
    revs: list[str] = []
    view = None  # (id, json) of the worker's last view, as the page keeps it
    for n, step in enumerate(steps):
        if step == "edit":
            doc = _mj_edit(doc, rng)
            if rng.random() < 0.5:  # the MJ's projection, holding the table
                answer = worker({"op": "store.share", "kind": "table", "data": doc, "audience": "player",
                                 "since": view[0] if view else None, "hold": True})
                made = view_applied(view[1], answer["changes"]) if "changes" in answer else answer["data"]
                assert text(made) == text(public(doc))
                view = (answer["view"], made) if "view" in answer else None
                mine = (doc, answer["rev"])
                revs.append(answer["rev"])
            continue
        who, move = step
        member = MEMBERS[who]
        request = {"op": "live.move", "member": member, "move": move, "seed": n, "now": NOW, "changes": True,
                   "view": view[0] if view else None}
        pick = rng.random()
        if mine is not None and mine[0] is doc and pick < 0.7:
            answer = worker({**request, "held": mine[1]})
            assert "stale" not in answer
        elif [r for r in revs if mine is None or r != mine[1]] and pick < 0.85:
            # a revision the worker held before (the page's table changed since, or it is simply
            # not the last one): never acted on
            wrong = rng.choice([r for r in revs if mine is None or r != mine[1]])
            assert worker({**request, "held": wrong}) == {"stale": True}
            answer = worker({**request, "document": doc})
        else:
            answer = worker({**request, "document": doc})
        oracle = whole(doc, member, move, n)
        assert answer["applied"] == oracle["applied"] and answer["answer"] == oracle["answer"]
        if answer["applied"]:
            doc = referee.apply_changes(doc, answer["changes"]) if "changes" in answer else answer["document"]
            assert doc == oracle["document"]
            projection = answer["projection"]
            made = view_applied(view[1], projection["changes"]) if "changes" in projection else projection["data"]
            assert text(made) == text(public(doc))
            view = (projection["view"], made) if "view" in projection else None
        mine = (doc, answer["rev"])
        revs.append(answer["rev"])
        assert held.table(answer["rev"]) == doc


# ---------------------------------------------------------------- the MJ's own edits

def projected(answer: dict, view: dict | None) -> dict:
    """The public view a projection answered: its changes on ``view``, or its data."""
    return view_applied(view, answer["changes"]) if "changes" in answer else answer["data"]


def test_an_mjs_edit_sent_as_changes_to_the_held_table_projects_as_the_table_sent_whole():
    """The MJ's page names the table the worker holds and sends what its edit changed (a sheet,
    a new log entry, the table's name, a system state): the view is the one of the table sent
    whole, and the worker then holds the edited table."""
    doc = table()
    share = {"op": "store.share", "kind": "table", "audience": "player", "hold": True}
    first = worker({**share, "data": doc, "since": None})
    view, rev = first["data"], first["rev"]
    edits = [
        {"characters": {"set": {"0": {**doc["characters"][0], "name": "Renommée"}}}},
        {"log": {"add": [{"id": "e-new", "at": NOW, "system": None, "kind": "roll", "label": "1d6",
                          "request": {"op": "roll", "expr": "1d6", "seed": 1}, "result": {"total": 4}}]}},
        {"top": {"name": "Nouvelle table"}},
        {"systems": {"theorem": {**doc["systems"]["theorem"], "turn": 1}}},
    ]
    for changes in edits:
        edited = view_applied(doc, changes)
        answer = worker({**share, "held": rev, "changes": changes, "since": first["view"]})
        assert "error" not in answer and "view" in answer, answer
        assert projected(answer, view) == public(edited)
        # the table the worker now holds is the edited one: the next edit names its revision
        assert held.table(answer["rev"]) == edited
        doc, view, rev, first = edited, projected(answer, view), answer["rev"], answer


def test_an_edit_named_against_another_revision_is_answered_stale_and_a_bad_one_refused():
    doc = table()
    share = {"op": "store.share", "kind": "table", "audience": "player", "since": None, "hold": True}
    rev = worker({**share, "data": doc})["rev"]
    assert worker({**share, "held": "not-" + rev, "changes": {"top": {"name": "X"}}}) == {"stale": True}
    assert held.table(rev) == doc  # nothing changed
    past_end = {"characters": {"set": {str(len(doc["characters"])): doc["characters"][0]}}}
    assert worker({**share, "held": rev, "changes": past_end})["error"]["code"] == "share.changes_mismatch"
    no_since = {k: v for k, v in share.items() if k != "since"}
    assert worker({**no_since, "held": rev, "changes": {}})["error"]["code"] == "share.no_table"
    assert worker({k: v for k, v in share.items()})["error"]["code"] == "share.no_table"  # no data, no table
    # a change that makes the table invalid is answered as the table sent whole would be
    for bad in ({"top": {"name": 7}}, {"characters": {"add": [{"id": 3}]}}, {"systems": {"theorem": []}}):
        rev = worker({**share, "data": doc})["rev"]
        by_changes = worker({**share, "held": rev, "changes": bad})
        sent_whole = worker({**share, "data": view_applied(doc, bad)})
        assert {k: v for k, v in by_changes.items() if k not in ("view", "rev")} == \
            {k: v for k, v in sent_whole.items() if k not in ("view", "rev")}, bad
