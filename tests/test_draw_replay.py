"""Draws replayed from the roll log ("Versality and Théorem draws can be verified and
replayed from the log like dice"): the page logs a draw's seed and the deck as it stood
(``deck_used``); ``theorem.draw.replay`` / ``versality.draw.replay`` draw again from that deck
with that seed and must give the very cards the op drew, reshuffles included. A player's share
of such an entry carries no deck."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "theorem"))
sys.path.insert(0, str(Path(__file__).parent / "versality"))

from th_helpers import character
from versality_store import play

from api_calls import versality_character
from tablee.api import handle


def ok(request: dict) -> dict:
    response = handle(request)
    assert "error" not in response, response
    return response


def thin(state: dict, keep: int) -> dict:
    """The Théorem table with only the top ``keep`` cards left in the draw pile, the rest in the
    discard (so a chain soon turns the discard over: the seeded reshuffle)."""
    st_ = copy.deepcopy(state)
    piles = st_["deck"]["piles"]
    piles["discard"]["cards"] += piles["draw"]["cards"][keep:]
    piles["draw"]["cards"] = piles["draw"]["cards"][:keep]
    return st_


SIDES = {"a": {"name": "A", "base": 6, "start": 0}, "b": {"name": "B", "base": 7, "start": 0}}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), table_seed=st.integers(0, 2**20), keep=st.integers(0, 4))
def test_theorem_opposition_and_chase_replay_draw_the_same_chains(seed, table_seed, keep):
    state = thin(ok({"op": "theorem.state.new", "seed": table_seed})["state"], keep)
    r = ok({"op": "theorem.opposition.draw", "state": state, "seed": seed, **SIDES})
    again = ok({"op": "theorem.draw.replay", "kind": "opposition", "deck": r["deck_used"], "seed": seed})
    assert again["drawn"] == [[c["id"] for c in r["result"]["chain_a"]], [c["id"] for c in r["result"]["chain_b"]]]
    assert again["events"] == r["result"]["events"]

    chase = ok({"op": "theorem.chase.start", "state": state, "target": 5, **SIDES})["state"]
    r = ok({"op": "theorem.chase.round", "state": chase, "seed": seed})
    again = ok({"op": "theorem.draw.replay", "kind": "chase", "deck": r["deck_used"], "seed": seed})
    assert again["drawn"] == [r["round"]["cards_a"], r["round"]["cards_b"]]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**40), keep=st.integers(0, 2))
def test_theorem_action_draw_replays_its_card(seed, keep):
    state = thin(ok({"op": "theorem.state.new", "seed": 3})["state"], keep)
    begun = ok({"op": "theorem.action.begin", "state": state, "character": character(), "sphere": "animalite",
                "skill": "Escalade", "modifier": 0})
    d = ok({"op": "theorem.action.draw", "state": begun["state"], "character": begun["character"], "seed": seed})
    again = ok({"op": "theorem.draw.replay", "kind": "action", "deck": d["deck_used"], "seed": seed})
    assert again["drawn"] == [[d["result"]["card"]["id"]]]
    assert (keep == 0) == any(e["type"] == "reshuffle" for e in again["events"])


def test_theorem_replay_with_another_seed_or_deck_differs_after_a_reshuffle():
    """A replay really depends on the seed (not only on the deck): with an empty draw pile the
    chain comes from the shuffled discard."""
    state = thin(ok({"op": "theorem.state.new", "seed": 3})["state"], 0)
    r = ok({"op": "theorem.opposition.draw", "state": state, "seed": 1, **SIDES})
    same = ok({"op": "theorem.draw.replay", "kind": "opposition", "deck": r["deck_used"], "seed": 1})["drawn"]
    other = ok({"op": "theorem.draw.replay", "kind": "opposition", "deck": r["deck_used"], "seed": 2})["drawn"]
    assert same != other


def test_a_forced_deck_replays_its_top_cards_without_any_seed_dependence():
    deck = {"draw": ["coupe-10", "epee-06", "baton-roi", "denier-03"], "discard": []}
    for seed in (1, 99):
        r = ok({"op": "theorem.draw.replay", "kind": "opposition", "deck": deck, "seed": seed})
        assert r["drawn"] == [["coupe-10"], ["epee-06"]]
    deck = {"draw": ["baton-roi", "denier-03", "coupe-01"], "discard": []}
    r = ok({"op": "theorem.draw.replay", "kind": "chase", "deck": deck, "seed": 5})
    assert r["drawn"] == [["baton-roi", "denier-03"], ["coupe-01"]]


@pytest.mark.parametrize(
    ("deck", "code"),
    [
        ({"draw": ["coupe-10", "coupe-10"], "discard": []}, "cards.card.duplicate"),
        ({"draw": ["coupe-10"], "discard": ["coupe-10"]}, "cards.card.duplicate"),
        ({"draw": ["joker"], "discard": []}, "cards.card.unknown"),
    ],
)
def test_theorem_replay_refuses_a_tampered_deck(deck, code):
    r = handle({"op": "theorem.draw.replay", "kind": "action", "deck": deck, "seed": 1})
    assert r["error"]["code"] == code


def _versality_draw(seed: int, discard_all_but: int | None = None):
    c = versality_character(created=True)
    state = play({"op": "versality.state.new"})["state"]
    state = play({"op": "versality.deck.build", "state": state, "character": c, "seed": 11})["state"]
    if discard_all_but is not None:
        deck = state["decks"]["ana"]["piles"]
        deck["discard"]["cards"] += deck["draw"]["cards"][discard_all_but:]
        deck["draw"]["cards"] = deck["draw"]["cards"][:discard_all_but]
    request = {"op": "versality.test.draw", "state": state, "character": c, "characteristic": "mental",
               "skill": "traquer", "difficulty": "epique", "seed": seed}
    return handle(request)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), left=st.one_of(st.none(), st.integers(0, 3)))
def test_versality_test_draw_replays_its_cards(seed, left):
    d = _versality_draw(seed, left)
    assert "error" not in d, d
    test = d["test"]
    assert json.loads(json.dumps(test["deck_used"])) == test["deck_used"]
    again = ok({"op": "versality.draw.replay", "deck": test["deck_used"], "count": test["count"], "seed": seed})
    assert again["drawn"] == [[c["id"] for c in test["drawn"]]]
    assert [e["type"] for e in again["events"]] == [e["type"] for e in test["events"] if e["type"] != "catastrophe"]


def test_versality_replay_refuses_a_card_of_no_kind():
    r = handle({"op": "versality.draw.replay", "deck": {"draw": ["joker-1"], "discard": []}, "count": 1, "seed": 1})
    assert r["error"]["code"] == "versality.replay.bad_card"
    assert r["error"]["params"] == {"card": "joker-1"}


@pytest.mark.parametrize("system", ["theorem", "versality"])
def test_a_players_share_of_a_replayable_entry_carries_no_deck(system):
    deck = {"draw": ["coupe-10", "epee-06"], "discard": ["baton-01"]} if system == "theorem" else {
        "draw": ["oui-1", "non-mais-1"], "discard": ["oui-et-1"]}
    entry = {"id": "log-1", "at": "2026-11-25T12:00:00.000Z", "kind": f"{system}.draw", "system": system, "who": "Ana",
             "label": "Tirage", "request": {"op": f"{system}.x", "seed": 4, "deck": deck, "count": 2},
             "result": {"summary": "ok", "verify": {"keys": ["drawn"], "digest": "0123456789abcdef"}}}
    player = ok({"op": "store.share", "kind": "entry", "data": entry, "audience": "player"})["data"]
    assert "deck" not in player["request"]
    assert "coupe-10" not in json.dumps(player) and "non-mais-1" not in json.dumps(player)
    mj = ok({"op": "store.share", "kind": "entry", "data": entry, "audience": "mj"})["data"]
    assert mj["request"]["deck"] == deck
