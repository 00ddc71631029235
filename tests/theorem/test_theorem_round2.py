"""Théorem, second round: reserved ids refused everywhere a character enters; cancel and
"not in hand"/"not set aside" messages.

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
