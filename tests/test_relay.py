"""The ops the MJ's engine answers for a phone whose engine is not ready (tablee.relay)."""

from __future__ import annotations

import pytest

from tablee import api, referee
from tablee.registry import OPS
from tablee.relay import STATELESS, TABLE_FIELDS


@pytest.fixture(scope="module", autouse=True)
def every_op():
    api.load_all()


@pytest.mark.parametrize("name", sorted(STATELESS))
def test_each_listed_op_needs_nothing_of_the_table(name):
    assert name in OPS, f"{name} is listed but no such op is registered"
    fields = set(OPS[name].schema["properties"])
    assert not fields & TABLE_FIELDS, f"{name} takes {sorted(fields & TABLE_FIELDS)}"
    assert not referee.is_move(name), f"{name} is a move: it goes to the referee"


def test_a_listed_op_is_answered_as_the_engine_answers_it():
    request = {"op": "odds", "expr": "2d6", "at_least": 8}
    assert api.handle({"op": "live.relay", "request": request}) == {"answer": api.handle(request)}
    # (an op's own refusal is its answer, not the relay's)
    bad = api.handle({"op": "live.relay", "request": {"op": "unicreon.test.odds"}})
    assert bad["answer"]["error"]["code"] == "request.invalid"


@pytest.mark.parametrize("request_", [
    {"op": "roll", "expr": "1d6", "seed": 3},  # a move: refereed, never answered aside
    {"op": "unicreon.test", "character": {}, "test": {}, "seed": 1},
    {"op": "store.open", "document": {}},  # a whole table
    {"op": "theorem.chase.odds", "state": {}},  # the table's state
    {"op": "live.relay", "request": {"op": "odds", "expr": "1d6"}},  # itself
    {"op": "no.such.op"},
])
def test_any_other_op_is_refused_and_never_run(request_):
    answer = api.handle({"op": "live.relay", "request": request_})
    assert answer["error"]["code"] == "live.refused.stateful"
    assert answer["error"]["params"] == {"op": request_["op"]}
