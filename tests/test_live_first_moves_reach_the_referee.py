"""A phone's first moves on a fresh live table, through the live layer (static/js/live/) and the
real referee (py/tablee/referee.py): run in Node by tests/live/session_harness.mjs, whose MJ
device answers ``live.move`` with ``api.handle`` in Python (tests/live/referee_bridge.py).

The MJ's table holds only characters, one of Léa's in each of the five systems, and no system
state: each first test or draw her phone sends is accepted, logged on the MJ's device under her
name, and her phone's table then holds the MJ's public view (the system states begun)."""

from __future__ import annotations

import sys

import pytest

from api_calls import versality_character
from live_world import phone_table, state
from node_harness import NODE
from tablee.api import handle

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")


def ok(request):
    answer = handle(request)
    assert "error" not in answer, answer
    return answer


def fresh_table() -> dict:
    doc = ok({"op": "store.new", "name": "Première soirée", "language": "fr"})["document"]
    mira = ok({"op": "pointzero.character.new", "id": "pz", "name": "Mira"})["character"]
    mira["skills"] = [{"name": "Mécanique", "level": 6}]
    sam = ok({"op": "systmj.character.new", "id": "sj", "name": "Sam"})["character"]
    sam["skills"] = {**sam["skills"], "lire_ecrire": 30}
    vic = ok({"op": "versality.character.finish", "character": {**versality_character(), "id": "vs"}})["character"]
    doc["characters"] = [
        mira, ok({"op": "theorem.character.new", "id": "th", "name": "Tia"})["character"],
        sam, vic,
        ok({"op": "unicreon.character.new", "id": "uc", "name": "Solène"})["character"],
    ]
    assert doc["systems"] == {}
    return doc


#: Each system's first move as its page sends it, and the kind of the entry the MJ's log gets.
FIRSTS = [
    ({"op": "pointzero.test.roll", "character_id": "pz",
      "test": {"kind": "skill", "attribute_code": "ADR", "skill_name": "Mécanique", "difficulty": 17,
               "sacrifice": 0, "tension": True}}, "pointzero.test"),
    ({"op": "theorem.hand.draw", "character": {"id": "th"}}, "theorem.hand"),
    ({"op": "versality.deck.build", "character": {"id": "vs"}}, None),
    ({"op": "versality.test.draw", "character": {"id": "vs"}, "characteristic": "mental", "skill": "traquer",
      "difficulty": "epique"}, None),
    ({"op": "systmj.test", "score": 45}, "systmj.test"),
    ({"op": "systmj.learning.roll", "subject": {"character": "sj", "target": "skill", "key": "lire_ecrire"}},
     "systmj.learning"),
    ({"op": "unicreon.test", "character": {"id": "uc"},
      "test": {"characteristic": "agilite", "difficulty": "difficile", "bonus": 0, "malus": 0}}, "unicreon.test"),
]


def test_a_phones_first_move_in_each_system_is_accepted_and_logged_on_the_mjs_device(node):
    world = "first"
    node("world", world=world, mj=fresh_table(), referee=sys.executable)
    node("player", world=world, name="lea", doc=phone_table("lea"), called="Léa")
    node("connect", world=world, name="lea", called="Léa")
    node("claim", world=world, name="lea", characters=["pz", "th", "sj", "vs", "uc"])
    node("settle", world=world)
    try:
        for request, kind in FIRSTS:
            slot = node("call", world=world, name="lea", request=request)
            node("settle", world=world)
            answer = node("answers", world=world, name="lea")[slot]
            assert answer is not None and "error" not in answer, (request["op"], answer)
            if kind:
                s = state(node, world)
                entry = next(e for e in s["mj"]["doc"]["log"] if e["id"] == answer["logged"])
                assert entry["kind"] == kind and entry["member"]["name"] == "Léa", entry
        s = state(node, world)
        assert set(s["mj"]["doc"]["systems"]) == {"pointzero", "theorem", "systmj", "versality"}
        assert s["mj"]["doc"]["systems"]["pointzero"]["threshold"] is None
        assert not [f for f in s["mj"]["feed"] if f["code"]]
        # her table is the MJ's public view: the states begun, the entries logged
        assert s["lea"]["doc"]["systems"] == s["mj"]["projection"]["systems"]
        assert [e["id"] for e in s["lea"]["doc"]["log"]] == [e["id"] for e in s["mj"]["projection"]["log"]]
    finally:
        node("drop", world=world)
