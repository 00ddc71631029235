"""A phone whose engine is not ready plays through the MJ's (static/js/live/remote-engine.js,
py/tablee/relay.py): run in Node by tests/live/session_harness.mjs, whose MJ device answers with
``api.handle`` in Python (tests/live/referee_bridge.py). The phone's own stand-in engine answers
``odds`` with a marker, so each test tells which engine answered."""

from __future__ import annotations

import itertools
import sys

import pytest

from live_world import HARNESS, harness, phone_table
from node_harness import NODE
from tablee.api import handle

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")

ODDS = {"op": "odds", "expr": "2d6", "at_least": 8}
HERE = {"engine": "this device's"}
_NAMES = itertools.count()


def solene() -> dict:
    return handle({"op": "unicreon.character.new", "id": "uc", "name": "Solène"})["character"]


def mj_table() -> dict:
    """The MJ's table: Solène (Unicreon), no system state yet."""
    doc = handle({"op": "store.new", "name": "Soirée", "language": "fr"})["document"]
    return {**doc, "characters": [solene()]}


@pytest.fixture(scope="module")
def node():
    with harness(HARNESS) as running:
        yield running


@pytest.fixture
def world(node):
    """Léa's phone, joined and playing Solène (Unicreon), its engine still loading."""
    name = f"relay{next(_NAMES)}"
    node("world", world=name, mj=mj_table(), referee=sys.executable)
    node("player", world=name, name="lea", doc=phone_table("lea"), called="Léa")
    node("connect", world=name, name="lea", called="Léa")
    node("claim", world=name, name="lea", characters=["uc"])
    node("settle", world=name)
    try:
        yield name
    finally:
        node("drop", world=name)


def ask(node, world, request):
    slot = node("call", world=world, name="lea", request=request)
    node("settle", world=world)
    return node("answers", world=world, name="lea")[slot]


def test_until_its_engine_is_ready_a_phone_gets_the_mjs_answers_and_then_its_own(node, world):
    assert node("engine", world=world, name="lea", state="loading") == {"relayed": True}
    # what needs no table: the MJ's engine answers it, exactly as an engine does
    assert ask(node, world, ODDS) == handle(ODDS)
    check = ask(node, world, {"op": "unicreon.character.check", "character": solene()})
    assert "problems" in check, check
    # a move still goes to the referee, which rolls and logs it on the MJ's device
    roll = ask(node, world, {"op": "unicreon.test", "character": {"id": "uc"},
                             "test": {"characteristic": "agilite", "difficulty": "difficile", "bonus": 0, "malus": 0}})
    assert "error" not in roll, roll
    s = node("state", world=world)
    assert [a["move"]["op"] for a in s["mj"]["accepted"]] == ["unicreon.test"]
    assert s["mj"]["doc"]["log"][-1]["kind"] == "unicreon.test" and s["mj"]["doc"]["log"][-1]["who"] == "Solène"
    # its engine is ready: the same request runs on the phone, without a reload
    assert node("engine", world=world, name="lea", state="ready") == {"relayed": False}
    assert ask(node, world, ODDS) == HERE
    assert not any(line["code"] for line in node("feed", world=world))


def test_the_mj_refuses_a_request_that_needs_the_table_and_the_phone_runs_it_itself(node, world):
    node("engine", world=world, name="lea", state="loading")
    before = node("state", world=world)["mj"]["doc"]
    # (an op on the table's state, a whole table, a roll outside the referee: each refused)
    for request in ({"op": "theorem.chase.odds", "state": {}}, {"op": "store.open", "document": before},
                    {"op": "live.engine", "request": ODDS}):
        answer = ask(node, world, request)
        assert answer == {"error": {"code": "unknown"}}, answer  # (the phone's own stand-in engine's)
    roll = {"op": "roll", "expr": "1d6", "seed": 1}
    node("hostile", world=world, name="lea", kind="move", value={"op": "live.engine", "request": roll})
    node("settle", world=world)
    s = node("state", world=world)
    received = "".join(s["lea"]["received"])
    assert received.count('"code":"live.refused.stateful"') == 4
    assert '"op":"roll"' in received and '"op":"theorem.chase.odds"' in received
    # nothing ran on the MJ's table, nothing was logged; the MJ's feed is not filled with them
    assert s["mj"]["accepted"] == [] and s["mj"]["doc"] == before
    assert not any(line["code"] for line in s["mj"]["feed"])
    # a request refused once is not asked of the MJ's engine again
    assert ask(node, world, {"op": "theorem.chase.odds", "state": {"x": 1}}) == {"error": {"code": "unknown"}}
    assert "".join(node("state", world=world)["lea"]["received"]).count('"code":"live.refused.stateful"') == 4


def test_the_mjs_engine_answers_a_phone_at_its_own_pace_without_slowing_its_moves(node, world):
    node("relayRate", world=world, perMinute=60, burst=2)
    node("rate", world=world, perMinute=60, burst=1)
    node("engine", world=world, name="lea", state="loading")
    slots = [node("call", world=world, name="lea", request={**ODDS, "at_least": n}) for n in (5, 6, 7)]
    node("settle", world=world)
    answers = node("answers", world=world, name="lea")
    assert [answers[i] for i in slots[:2]] == [handle({**ODDS, "at_least": n}) for n in (5, 6)]
    assert answers[slots[2]] is None  # (refused for the pace: asked again once the wait is over)
    feed = node("feed", world=world)
    assert [line["kinds"] for line in feed if line["code"]] == [{"live.refused.rate": 1}]
    # the member's moves have a bucket of their own: its roll goes at once
    roll = ask(node, world, {"op": "roll", "expr": "1d6"})
    assert "error" not in roll, roll
    node("sleep", ms=1100)
    node("settle", world=world)
    assert node("answers", world=world, name="lea")[slots[2]] == handle({**ODDS, "at_least": 7})


def test_a_request_made_while_the_link_is_down_waits_for_it_then_the_mjs_engine_answers(node, world):
    node("engine", world=world, name="lea", state="loading")
    node("disconnect", world=world, name="lea")
    slot = node("call", world=world, name="lea", request=ODDS)
    node("settle", world=world)
    assert node("answers", world=world, name="lea")[slot] is None  # (neither engine can answer yet)
    node("connect", world=world, name="lea", called="Léa")
    node("settle", world=world)
    assert node("answers", world=world, name="lea")[slot] == handle(ODDS)
