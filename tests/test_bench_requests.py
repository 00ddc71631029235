"""tools/bench_requests.py: every request `make bench` times is complete and valid.

The bench (tools/bench.py) times these in the worker; here each must answer without error in
CPython, and the list must hold the heaviest odds request of each system
and one cheap first op per system.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tablee.api import handle
from tablee.registry import SYSTEM_IDS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from bench_requests import REQUESTS

HEAVY_OPS = {
    "theorem.action.odds",
    "pointzero.test.odds",
    "pointzero.opposition.odds",
    "unicreon.combat.attack.odds",
    "versality.test.odds",
    "systmj.combat.odds",
}


@pytest.mark.parametrize("item", REQUESTS, ids=[item["id"] for item in REQUESTS])
def test_each_request_answers_without_error(item):
    request = json.loads(json.dumps(item["request"]))  # what crosses to the worker
    answer = handle(request)
    assert "error" not in answer, answer["error"] if "error" in answer else None
    op = request["op"]
    if item["system"] is not None:
        assert op.startswith(item["system"] + ".")


def test_the_list_covers_every_system():
    ids = [item["id"] for item in REQUESTS]
    assert len(ids) == len(set(ids))
    assert {item["request"]["op"] for item in REQUESTS if item["kind"] == "heavy"} == HEAVY_OPS
    assert sorted(item["system"] for item in REQUESTS if item["kind"] == "first") == sorted(SYSTEM_IDS)
    assert {item["request"]["op"] for item in REQUESTS if item["kind"] == "kernel"} == {"roll", "odds"}


def test_the_heavy_requests_are_the_ones_issue_14_names():
    by = {item["id"]: item["request"] for item in REQUESTS}
    deck = by["theorem.heavy"]["state"]["deck"]["piles"]["draw"]["cards"]
    assert len(deck) == 56  # the full deck, its 16 figures included
    assert len(by["versality.heavy"]["character"]["deck"]) == 20
    odds = handle(by["versality.heavy"])
    assert odds["count"] == 7 and odds["rule"] == "worst"
    pz = handle(by["pointzero.heavy.test"])
    assert pz["plan"]["dice"] == 10 and len(pz["comparison"]) == len(pz["surpassement"]["allowed"]) > 1
    opposition = by["pointzero.heavy.opposition"]
    assert opposition["a"] == opposition["b"]  # equal sides: every tie-break is reached
    assert by["systmj.heavy"]["defence"] == "parade" and by["systmj.heavy"]["weapon"]["damage"] == [2, 4, 6]
