"""Théorem oppositions from the phones (systems/theorem/moves.py, refereed by tablee.referee):
either player starts one against the other's character; each side is drawn by its own player,
or by the MK on the MJ's device; a side's base is the MJ's record's sphere and skill, never the
phone's copy; a refusal names what would work.

Source: 003_0f8319d4d007e1fe.txt, "3) Les actions d'opposition"; DESIGN.md principle 8.
"""

from __future__ import annotations

import copy

import pytest
from th_helpers import character, force_top

from tablee import referee
from tablee.api import handle
from tablee.errors import RulesError

NOW = "2026-11-28T10:00:00Z"
LEA = {"id": "m-lea", "name": "Léa", "characters": ["alice"]}
MO = {"id": "m-mo", "name": "Mo", "characters": ["bob"]}


def ok(request):
    answer = handle(request)
    assert "error" not in answer, answer
    return answer


def table():
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    alice = character("alice", humanite=2, skills=[{"name": "Course", "level": 1}])
    bob = character("bob", humanite=4, skills=[{"name": "Pistage", "level": 2}])
    doc["characters"] = [alice, bob]
    doc["systems"]["theorem"] = force_top(ok({"op": "theorem.state.new", "seed": 3})["state"],
                                          "baton-05", "coupe-valet", "epee-02")
    return doc


def move(doc, member, request, seed=11):
    return referee.apply_move(doc, member, request, seed=seed, now=NOW)


def refused(doc, member, request):
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError) as info:
        move(doc, member, request)
    assert doc == before
    return info.value


ALICE = {"name": "Alice", "base": 9, "start": 0, "character_id": "alice", "sphere": "humanite", "skill": "Course"}
BOB = {"name": "Bob", "base": 0, "start": 1, "character_id": "bob", "sphere": "humanite", "skill": "Pistage"}


def test_lea_proposes_an_opposition_against_mos_character_and_each_draws_their_own_side():
    doc = table()
    # Léa's phone proposes: its sheets (a base of 9 typed, a forged Humanité) are never read.
    forged = {**doc["characters"][0], "spheres": {"animalite": 9, "humanite": 9, "divinite": 9}}
    after, answer = move(doc, LEA, {"op": "theorem.opposition.start", "a": ALICE, "b": BOB, "sheets": [forged],
                                    "character_id": "alice"})
    held = after["systems"]["theorem"]["opposition"]
    assert (held["a"]["base"], held["b"]["base"]) == (3, 6)  # 2 + 1 and 4 + 2, from the MJ's records
    assert answer["state"]["opposition"] == held  # public: both phones show it
    # Léa cannot draw Bob's side: its player draws it (the advice says so), nor an unknown one.
    error = refused(after, LEA, {"op": "theorem.opposition.side", "side": "b", "character_id": "alice", "seed": 1})
    assert error.code == "theorem.opposition.not_yours"
    assert refused(after, LEA, {"op": "theorem.opposition.side", "side": "b", "character_id": "bob",
                                "seed": 1}).code == "live.refused.character"
    # Mo draws Bob's side on his phone: 5 de bâton; then Léa hers: valet de coupe then 2 d'épée.
    after, answer = move(after, MO, {"op": "theorem.opposition.side", "side": "b", "character_id": "bob"}, seed=21)
    assert (answer["score"], answer["result"]) == (6 + 1 + 5, None)
    assert after["log"][-1]["kind"] == "theorem.opposition" and after["log"][-1]["member"]["id"] == "m-mo"
    after, answer = move(after, LEA, {"op": "theorem.opposition.side", "side": "a", "character_id": "alice"}, seed=22)
    assert answer["result"]["score_a"] == 3 + 10 + 2 and answer["result"]["winner"] == "a"
    assert after["systems"]["theorem"]["opposition"]["result"]["winner"] == "a"
    assert "deck_used" not in answer and "seed" not in answer
    # The same draws on one device, with the MJ's seeds: the same table.
    state = ok({"op": "theorem.opposition.start", "state": doc["systems"]["theorem"], "a": ALICE, "b": BOB,
                "sheets": doc["characters"]})["state"]
    state = ok({"op": "theorem.opposition.side", "state": state, "side": "b", "seed": 21})["state"]
    state = ok({"op": "theorem.opposition.side", "state": state, "side": "a", "seed": 22})["state"]
    assert after["systems"]["theorem"] == state


def test_either_player_may_start_it_and_only_a_player_of_one_side():
    doc = table()
    after, _ = move(doc, MO, {"op": "theorem.opposition.start", "a": ALICE, "b": BOB, "character_id": "bob"})
    assert after["systems"]["theorem"]["opposition"]["a"]["character_id"] == "alice"
    eve = {"id": "m-eve", "name": "Eve", "characters": []}
    assert refused(doc, eve, {"op": "theorem.opposition.start", "a": ALICE, "b": BOB,
                              "character_id": "alice"}).code == "live.refused.character"
    # Léa names Alice as acting but puts her on neither side.
    npc = {"name": "Garde", "base": 6, "start": 0}
    assert refused(doc, LEA, {"op": "theorem.opposition.start", "a": npc, "b": BOB,
                              "character_id": "alice"}).code == "theorem.opposition.acting"
    # An NPC's side of a waiting opposition is the MK's to draw; calling it off is a side's.
    after, _ = move(doc, LEA, {"op": "theorem.opposition.start", "a": ALICE, "b": npc, "character_id": "alice"})
    assert refused(after, LEA, {"op": "theorem.opposition.side", "side": "b", "character_id": "alice",
                                "seed": 1}).code == "theorem.opposition.mk_side"
    other, _ = move(doc, MO, {"op": "theorem.opposition.start", "a": BOB, "b": npc, "character_id": "bob"})
    assert refused(other, LEA, {"op": "theorem.opposition.cancel",
                                "character_id": "alice"}).code == "theorem.opposition.not_yours"
    cancelled, _ = move(after, LEA, {"op": "theorem.opposition.cancel", "character_id": "alice"})
    assert cancelled["systems"]["theorem"]["opposition"] is None


def test_a_draw_at_once_from_a_phone_takes_the_sheet_base_and_stays_the_players_own():
    doc = table()
    npc = {"name": "Garde", "base": 6, "start": 0}
    after, answer = move(doc, LEA, {"op": "theorem.opposition.draw", "a": ALICE, "b": npc}, seed=5)
    same = ok({"op": "theorem.opposition.draw", "state": doc["systems"]["theorem"], "a": ALICE, "b": npc,
               "sheets": [doc["characters"][0]], "seed": 5})
    assert answer["result"] == same["result"] and answer["result"]["base_a"] == 3
    assert after["systems"]["theorem"] == same["state"]
    # Bob's side drawn by Léa at once: refused (the page proposes the opposition instead).
    assert refused(doc, LEA, {"op": "theorem.opposition.draw", "a": ALICE, "b": BOB}).code == "live.refused.character"


def test_the_moves_are_declared_beside_the_rules_and_listed_for_the_phones():
    names = set(ok({"op": "live.moves"})["moves"])
    assert {"theorem.opposition.start", "theorem.opposition.side", "theorem.opposition.cancel",
            "theorem.opposition.draw", "theorem.hand.draw"} <= names
    assert "theorem.opposition.odds" not in names  # the odds are the phone's own (no hidden state read)
