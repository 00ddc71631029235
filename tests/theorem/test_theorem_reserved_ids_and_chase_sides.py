"""Théorem: reserved ids refused everywhere a character enters; cancel and "not in hand"/"not
set aside" messages; a character's side of a chase.

Source: 003_0f8319d4d007e1fe.txt, "Attention :" (the MK draws his own hand of arcana,
hidden from the players) and "A) Au commencement" (hands face down « afin d'éviter que les
joueurs ne regardent leurs cartes respectives »): the MK's deck is owned by ``@mk``, so no
character may have that id.
"""

from __future__ import annotations

import pytest
from th_helpers import character, force_top

from tablee.api import handle
from tablee.systems.theorem.data import ARCANA


def _table_with_mk_hand():
    state = handle({"op": "theorem.state.new", "seed": 1})["state"]
    return handle({"op": "theorem.mk.hand", "state": state, "size": 5, "seed": 2})["state"]


def test_a_character_with_the_mks_id_is_refused_by_the_ops():
    """On main ``@mk`` passed ``theorem.character.check`` and played the MK's hand."""
    state = _table_with_mk_hand()
    mk_card = state["arcana"]["@mk"]["piles"]["hand"]["cards"][0]
    mk = character("@mk")
    r = handle({"op": "theorem.character.check", "character": mk})
    assert r["valid"] is False and r["problems"][0]["code"] == "theorem.char.reserved_id"
    assert r["problems"][0]["field"] == "id"
    r = handle({"op": "theorem.arcane.play", "state": state, "character": mk, "card": mk_card, "mode": "effect",
                "seed": 3})
    assert r["error"]["code"] == "theorem.char.reserved_id", r
    r = handle({"op": "theorem.action.begin", "state": state, "character": mk, "sphere": "animalite", "modifier": 0})
    assert r["error"]["code"] == "theorem.char.reserved_id"
    for op in ("theorem.remove", "theorem.retest.clear", "theorem.retest.status"):
        r = handle({"op": op, "state": state, "character_id": "@mk"})
        assert r["error"]["code"] == "theorem.char.reserved_id", (op, r)
    r = handle({"op": "theorem.action.aside", "state": state, "character_id": "@mk", "card": "baton-roi"})
    assert r["error"]["code"] == "theorem.char.reserved_id"


@pytest.mark.parametrize("system", ["theorem", "pointzero", "systmj", "versality", "unicreon"])
def test_reserved_ids_are_refused_by_the_store_for_every_system(system):
    """``store.check_character`` (import of a character, a share link) and a whole table
    (``store.load``: import, live table) refuse ``@…`` ids with a specific reason."""
    new = handle({"op": f"{system}.character.new", "id": "x1", "name": "Mira"})
    base = new.get("character") or {"id": "x1", "system": system, "name": "Mira"}
    bad = {**base, "id": "@mk"}
    r = handle({"op": "store.check_character", "character": bad})
    assert r["ok"] is False
    assert r["problems"][0]["code"] == "store.char.reserved_id" and r["problems"][0]["field"] == "id"
    doc = handle({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [bad]
    loaded = handle({"op": "store.load", "document": doc})
    assert "error" in loaded or loaded["document"]["characters"] == [], loaded
    text = str(loaded)
    assert "reserved_id" in text


def test_cancel_after_a_draw_says_the_action_cannot_be_cancelled():
    """Was ``theorem.action.already_drawn`` (« les figures mises de côté ne peuvent plus servir »)."""
    state = force_top(handle({"op": "theorem.state.new", "seed": 1})["state"], "coupe-valet")
    josh = character()
    r = handle({"op": "theorem.action.begin", "state": state, "character": josh, "sphere": "animalite", "modifier": 0})
    state, josh = r["state"], r["character"]
    r = handle({"op": "theorem.action.draw", "state": state, "character": josh, "seed": 1})
    assert r["result"]["awaiting"] == "coupe-valet"
    r = handle({"op": "theorem.action.cancel", "state": r["state"], "character": josh})
    assert r["error"]["code"] == "theorem.action.cancel_drawn"


def test_not_aside_and_not_in_hand_name_the_card():
    state = handle({"op": "theorem.state.new", "seed": 1})["state"]
    josh = character()
    r = handle({"op": "theorem.action.begin", "state": state, "character": josh, "sphere": "animalite", "modifier": 0})
    r = handle({"op": "theorem.action.aside", "state": r["state"], "character_id": "josh", "card": "baton-valet"})
    assert r["error"]["params"]["card_name"] == "Valet de bâton"
    state = handle({"op": "theorem.hand.draw", "state": state, "character": josh, "seed": 4})["state"]
    hand = state["arcana"]["josh"]["piles"]["hand"]["cards"]
    missing = next(f"arcane-{i:02d}" for i in range(22) if f"arcane-{i:02d}" not in hand)
    r = handle({"op": "theorem.arcane.play", "state": state, "character": josh, "card": missing, "mode": "effect",
                "seed": 5})
    assert r["error"]["code"] == "theorem.arcane.not_in_hand"
    assert r["error"]["params"]["card_name"] == ARCANA[int(missing[-2:])]
    r = handle({"op": "theorem.mk.discard", "state": _table_with_mk_hand(), "card": "arcane-99"})
    assert r["error"]["params"]["card_name"] == "arcane-99"


# --------------------------------------------------------------------------- chase rounds as actions
def _chase(state, *, a_char="josh", target=5):
    a = {"name": "Joshua", "base": 6, "start": 1}
    if a_char:
        a["character_id"] = a_char
    r = handle({"op": "theorem.chase.start", "state": state, "target": target,
                "a": a, "b": {"name": "Le chien", "base": 6, "start": -1}})
    assert "error" not in r, r
    return r["state"]


def test_a_characters_chase_side_is_an_action_set_aside_then_play_it_next_round():
    """« se traite alors comme un tirage d'opposition classique »: on main a chase round drew
    every figure for both sides. Round 1: Joshua (6 + 1) sets the reine d'épée aside, then
    draws 4 de denier: 11; the dog (6 − 1, an NPC) draws 2 de coupe: 7; Joshua wins, +1
    (réussite normale). Round 2: Joshua plays the reine he set aside, then draws 5 de coupe
    (another suit: 10 + 5): 7 + 1 + 15 = 23 against 5 + 3 = 8; +5 (grande réussite)."""
    josh = character()
    state = handle({"op": "theorem.state.new", "seed": 1})["state"]
    state = handle({"op": "theorem.hand.draw", "state": state, "character": josh, "seed": 2})["state"]
    arcane = state["arcana"]["josh"]["piles"]["hand"]["cards"][0]
    state = force_top(_chase(state), "epee-reine", "denier-04")
    # Odds before Joshua draws: his exact score distribution; no round odds yet.
    odds = handle({"op": "theorem.chase.odds", "state": state})
    assert odds["round"] is None and odds["sides"]["a"]["drawn"] is False

    r = handle({"op": "theorem.chase.begin", "state": state, "side": "a", "character": josh, "seed": 3})
    assert r["result"]["pending"]["base"] == 7 and r["result"]["pending"]["chase"] == "a"
    state = r["state"]
    r = handle({"op": "theorem.action.draw", "state": state, "character": josh, "seed": 4})
    assert r["result"]["awaiting"] == "epee-reine"
    r = handle({"op": "theorem.action.figure", "state": r["state"], "character": josh, "decision": "aside"})
    state = r["state"]
    assert state["aside"]["josh"] == ["epee-reine"]
    # The rule on set-aside figures still holds: after a draw no arcane for 10 either.
    r = handle({"op": "theorem.arcane.play", "state": state, "character": josh, "card": arcane, "mode": "value",
                "seed": 5})
    assert r["error"]["code"] == "theorem.arcane.value_after_draw"
    r = handle({"op": "theorem.action.draw", "state": state, "character": josh, "seed": 6})
    assert r["result"]["done"] is True and r["result"]["chase_side"] == "a"
    assert r["result"]["score"] == 7 + 4 and r["result"]["round"] is None
    state = r["state"]
    assert state["chase"]["current"]["a"]["score"] == 11

    # Before the dog draws, the round's odds are exact: the dog needs more than 11 − 5 = 6 to win.
    odds = handle({"op": "theorem.chase.odds", "state": state})
    deck = state["deck"]
    values = [deck["cards"][c] for c in deck["piles"]["draw"]["cards"]]
    assert odds["round"] is not None
    from fractions import Fraction

    from tablee.systems.theorem import rules as R

    dist = R.chain_distribution(R.deck_counts(values), R.deck_counts(
        [deck["cards"][c] for c in deck["piles"]["discard"]["cards"]]))
    b_wins = sum((q for v, q in dist.items() if 5 + v > 11), Fraction(0))
    tie = sum((q for v, q in dist.items() if 5 + v == 11), Fraction(0))
    assert Fraction(odds["round"]["b"]["fraction"]) == b_wins
    assert Fraction(odds["round"]["tie"]["fraction"]) == tie
    assert Fraction(odds["round"]["a"]["fraction"]) == 1 - b_wins - tie

    state = force_top(state, "coupe-02")
    r = handle({"op": "theorem.chase.begin", "state": state, "side": "b", "seed": 7})
    rnd = r["result"]["round"]
    assert (rnd["score_a"], rnd["score_b"], rnd["winner"], rnd["gain"]) == (11, 7, "a", 1)
    state = r["state"]
    assert state["chase"]["total_a"] == 1 and "current" not in state["chase"]

    state = force_top(state, "coupe-05", "baton-03")
    r = handle({"op": "theorem.chase.begin", "state": state, "side": "a", "character": josh, "seed": 8})
    assert r["result"]["pending"]["base"] == 8
    r = handle({"op": "theorem.action.aside", "state": r["state"], "character_id": "josh", "card": "epee-reine"})
    assert "error" not in r, r
    r = handle({"op": "theorem.action.draw", "state": r["state"], "character": josh, "seed": 9})
    assert r["result"]["value"] == 15 and r["result"]["score"] == 23
    r = handle({"op": "theorem.chase.begin", "state": r["state"], "side": "b", "seed": 10})
    rnd = r["result"]["round"]
    assert (rnd["score_a"], rnd["score_b"], rnd["gain"], rnd["total_a"]) == (23, 8, 5, 6)
    assert r["state"]["chase"]["done"] == "a"  # 6 − 0 ≥ 5


def test_chase_side_with_an_exploit_and_an_arcane_for_10():
    """« vous pouvez utiliser vos arcanes à tout moment où vous pourriez jouer une carte
    numérique »: the dog draws first (5 + 4 = 9); Joshua spends 1 réalité on an exploit
    (+1) and plays an arcane for 10 instead of a draw: 7 + 1 + 10 = 18 (moyenne, +3)."""
    josh = character()
    state = handle({"op": "theorem.state.new", "seed": 1})["state"]
    state = handle({"op": "theorem.hand.draw", "state": state, "character": josh, "seed": 2})["state"]
    arcane = state["arcana"]["josh"]["piles"]["hand"]["cards"][0]
    state = force_top(_chase(state), "denier-04")
    r = handle({"op": "theorem.chase.begin", "state": state, "side": "b", "seed": 3})
    assert r["result"]["score"] == 5 + 4 and r["result"]["round"] is None
    state = r["state"]
    r = handle({"op": "theorem.chase.begin", "state": state, "side": "a", "character": josh, "exploit": 1, "seed": 4})
    assert r["character"]["realite"] == josh["realite"] - 1 and r["result"]["pending"]["base"] == 8
    state, josh2 = r["state"], r["character"]
    r = handle({"op": "theorem.arcane.play", "state": state, "character": josh2, "card": arcane, "mode": "value",
                "seed": 5})
    assert "error" not in r, r
    rnd = r["result"]["round"]
    assert (rnd["score_a"], rnd["score_b"], rnd["winner"]) == (18, 9, "a")
    assert rnd["gain"] == 3  # 18: réussite moyenne
    assert r["character"]["realite"] == josh["realite"] - 1 - 5


def test_chase_side_rules_are_enforced():
    josh = character()
    state = _chase(handle({"op": "theorem.state.new", "seed": 1})["state"])
    # Joshua's side is his action: never drawn for him in one go.
    r = handle({"op": "theorem.chase.round", "state": state, "seed": 1})
    assert r["error"]["code"] == "theorem.chase.side_action"
    r = handle({"op": "theorem.chase.begin", "state": state, "side": "a", "seed": 1})
    assert r["error"]["code"] == "theorem.chase.side_character"
    r = handle({"op": "theorem.chase.begin", "state": state, "side": "a", "character": character("zoe"), "seed": 1})
    assert r["error"]["code"] == "theorem.chase.side_character"
    r = handle({"op": "theorem.chase.begin", "state": state, "side": "b", "seed": 1})
    r = handle({"op": "theorem.chase.begin", "state": r["state"], "side": "b", "seed": 2})
    assert r["error"]["code"] == "theorem.chase.side_drawn"
    r = handle({"op": "theorem.chase.start", "state": handle({"op": "theorem.state.new", "seed": 1})["state"],
                "target": 3, "a": {"name": "A", "base": 1, "start": 0, "character_id": "@mk"},
                "b": {"name": "B", "base": 1, "start": 0}})
    assert r["error"]["code"] == "theorem.char.reserved_id"
    # Cancelling the announced side before any card gives the exploit back.
    r = handle({"op": "theorem.chase.begin", "state": state, "side": "a", "character": josh, "exploit": 2, "seed": 1})
    r = handle({"op": "theorem.action.cancel", "state": r["state"], "character": r["character"]})
    assert r["character"]["realite"] == josh["realite"] and r["state"]["pending"] == {}


def test_a_new_chase_waits_for_the_last_chase_turn_to_end():
    josh = character()
    state = _chase(handle({"op": "theorem.state.new", "seed": 1})["state"])
    r = handle({"op": "theorem.chase.begin", "state": state, "side": "a", "character": josh, "seed": 1})
    state = handle({"op": "theorem.chase.end", "state": r["state"]})["state"]
    r = handle({"op": "theorem.chase.start", "state": state, "target": 3,
                "a": {"name": "A", "base": 1, "start": 0}, "b": {"name": "B", "base": 1, "start": 0}})
    assert r["error"]["code"] == "theorem.chase.running"
    # Played after the chase was closed, the turn is an ordinary draw that goes nowhere.
    state = force_top(state, "coupe-03")
    r = handle({"op": "theorem.action.draw", "state": state, "character": josh, "seed": 2})
    assert r["result"]["score"] == 7 + 3 and r["result"]["round"] is None and r["state"]["chase"] is None
