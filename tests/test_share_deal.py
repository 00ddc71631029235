"""A player's copy of a table deals its hidden piles again at import (store.open_share).

A player's share sorts every hidden pile (its order is the MJ's secret): imported as it was, a
Théorem deck dealt 1, 2, 3… de bâton. ``store.open_share`` shuffles each hidden pile of every
system's card states from the request's seed; the MJ's copy keeps its order; a link with no
audience mark only has its piles still in the canonical order dealt again.
"""

from __future__ import annotations

import copy
import random

from tablee.api import handle
from tablee.systems.versality import state as versality_state


def ok(request: dict) -> dict:
    response = handle(request)
    assert "error" not in response, response
    return response


def versality_character(cid: str) -> dict:
    """A created character: base deck + oui-et + oui (5 points) + two non-mais (6 = ⌈12/2⌉)."""
    deck = [{"kind": k, "origin": "base"} for k in ("oui-et", "oui", "oui-mais", "oui-mais")]
    deck += [{"kind": k, "origin": "creation"} for k in ("oui-et", "oui", "non-mais", "non-mais")]
    return {
        "id": cid, "system": "versality", "name": cid, "created": True,
        "powers": [{"text": "Télékinésie", "approved": True}],
        "forces": ["Agile", "Têtue"], "faiblesses": ["Naïve"], "traits_approved": True,
        "characteristics": {"physique": 2, "mental": 0, "personnalite": 1},
        "skills": {"traquer": 3, "survivre": 1, "terroriser": 0, "combattre": 1, "soulager": 0,
                   "comprendre": 0, "fureter": 0, "resister": 0},
        "deck": deck, "wounds": {"physique": 0, "mental": 0, "personnalite": 0},
        "incapacitated": False, "heal_used": False, "improvement_points": 0,
    }


def mj_table() -> dict:
    doc = ok({"op": "store.new", "name": "Soirée", "language": "fr"})["document"]
    vs = versality_character("vs-ana")
    vstate = versality_state.build_deck(ok({"op": "versality.state.new"})["state"], vs, random.Random(11))
    doc["characters"] = [vs]
    doc["systems"] = {"theorem": ok({"op": "theorem.state.new", "seed": 3})["state"], "versality": vstate}
    return ok({"op": "store.open", "document": doc})["document"]


def draw_piles(doc: dict) -> dict[str, list[str]]:
    th = doc["systems"]["theorem"]
    out = {"theorem.deck": th["deck"]["piles"]["draw"]["cards"]}
    for owner, arc in th["arcana"].items():
        out[f"theorem.arcana.{owner}"] = arc["piles"]["draw"]["cards"]
    for cid, deck in doc["systems"]["versality"]["decks"].items():
        for name, pile in deck["piles"].items():
            if pile["visibility"] == "hidden":
                out[f"versality.{cid}.{name}"] = pile["cards"]
    return out


def players_copy() -> dict:
    return ok({"op": "store.share", "kind": "table", "data": mj_table(), "audience": "player"})["data"]


def test_a_players_copy_is_sorted_then_dealt_again_at_import_and_keeps_its_cards():
    shared = players_copy()
    piles = draw_piles(shared)
    assert piles["theorem.deck"][:6] == [f"baton-0{i}" for i in range(1, 7)]  # what made 1..6 de bâton
    assert any(k.startswith("versality.") for k in piles)
    answer = ok({"op": "store.open_share", "document": shared, "audience": "player", "seed": 7})
    dealt = draw_piles(answer["document"])
    assert answer["shuffled"] == len([p for p in piles.values() if len(p) > 1])
    for key, cards in piles.items():
        assert sorted(dealt[key]) == sorted(cards), key  # the same cards
        if len(cards) > 1:
            assert dealt[key] != cards, key  # not in the order that tells nothing but 1, 2, 3…
    assert dealt["theorem.deck"][:6] != [f"baton-0{i}" for i in range(1, 7)]
    # The seed decides the deal: the same seed deals the same, another seed another.
    again = ok({"op": "store.open_share", "document": shared, "audience": "player", "seed": 7})
    assert draw_piles(again["document"]) == dealt
    other = ok({"op": "store.open_share", "document": shared, "audience": "player", "seed": 8})
    assert draw_piles(other["document"])["theorem.deck"] != dealt["theorem.deck"]
    # Everything but the order of the hidden piles is what the link held.
    opened = ok({"op": "store.open", "document": shared})["document"]
    assert answer["document"]["characters"] == opened["characters"]
    assert answer["document"]["log"] == opened["log"]


def test_the_mjs_copy_keeps_its_order_and_an_unmarked_link_deals_only_sorted_piles():
    doc = mj_table()
    mine = ok({"op": "store.open_share", "document": copy.deepcopy(doc), "audience": "mj", "seed": 7})
    assert mine["shuffled"] == 0 and draw_piles(mine["document"]) == draw_piles(doc)
    # An older link (no audience mark) of the MJ's table: its shuffled piles stay as they are.
    legacy = ok({"op": "store.open_share", "document": copy.deepcopy(doc), "audience": None, "seed": 7})
    assert draw_piles(legacy["document"]) == draw_piles(doc)
    # … of a player's copy: the sorted piles are dealt again.
    shared = players_copy()
    legacy = ok({"op": "store.open_share", "document": shared, "audience": None, "seed": 7})
    assert legacy["shuffled"] > 0
    assert draw_piles(legacy["document"])["theorem.deck"] != draw_piles(shared)["theorem.deck"]


def test_a_bad_table_or_audience_is_refused_and_nothing_is_dealt():
    refused = handle({"op": "store.open_share", "document": {"app": "autre"}, "audience": "player", "seed": 1})
    assert "error" in refused
    wrong = handle({"op": "store.open_share", "document": players_copy(), "audience": "everyone", "seed": 1})
    assert wrong["error"]["code"] == "request.invalid"
