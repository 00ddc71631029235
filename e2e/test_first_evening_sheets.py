"""The first evening, on the sheets (a phone, 360×740): SYSTMJ's sheet shows the play state
(current PV/PA of the running round, the cards held after "Donner") and labels its attributes
with their true range (0 to 99). The table is seeded in storage, built by the engine itself."""

from __future__ import annotations

from playwright.sync_api import expect

from browser_support import goto_route, no_horizontal_scroll, ok, open_table


def table(characters, systems) -> dict:
    doc = ok({"op": "store.new", "name": "Premier soir", "language": "fr"})["document"]
    doc["characters"] = list(characters)
    doc["systems"] = systems
    return ok({"op": "store.open", "document": doc})["document"]




def systmj_table() -> dict:
    """Alice (PV 12, PA 4) holds a long sword given from the library; a round runs where she is
    down to PV 7, PA 1. Bruno holds nothing and is in no round."""
    alice = ok({"op": "systmj.entity.new", "kind": "pj", "name": "Alice", "id": "sj-alice"})["character"]
    alice.update(pv_max=12, pa_max=4)
    bruno = ok({"op": "systmj.entity.new", "kind": "pj", "name": "Bruno", "id": "sj-bruno"})["character"]
    bruno.update(pv_max=9, pa_max=3)
    state = ok({"op": "systmj.state.new"})["state"]
    card = {"family": "equipement", "name": "Épée longue", "types": ["arme"], "categories": ["corps_a_corps"]}
    state = ok({"op": "systmj.card.save", "state": state, "card": card})["state"]
    number = state["library"]["cards"][0]["number"]
    state = ok({"op": "systmj.card.give", "state": state, "character": alice, "number": number})["state"]
    state = ok({"op": "systmj.round.start", "state": state, "characters": [alice]})["state"]
    state = ok({"op": "systmj.round.vitals", "state": state, "entity": "sj-alice", "pv": 7, "pa": 1})["state"]
    return table([alice, bruno], {"systmj": state})


def test_systmj_sheet_shows_current_vitals_held_cards_and_the_true_attribute_range(page, site, guarded):
    open_table(page, site, systmj_table())
    goto_route(page, "systmj/character/sj-alice")
    play = page.get_by_test_id("sj-play-state")
    expect(play.get_by_test_id("sj-vitals")).to_contain_text("PV 7 sur 12 · PA 1 sur 4")
    expect(play.get_by_test_id("sj-vitals")).to_contain_text("tour 1")
    expect(play.get_by_test_id("sj-held-cards")).to_contain_text("EQ-00001 — Épée longue")
    expect(page.get_by_role("heading", name="Attributs (de 0 à 99)")).to_be_visible()
    no_horizontal_scroll(page)
    # Out of any round and holding nothing: the maximum, and where cards come from.
    goto_route(page, "systmj/character/sj-bruno")
    play = page.get_by_test_id("sj-play-state")
    expect(play.get_by_test_id("sj-vitals")).to_contain_text("PV 9 sur 9 · PA 3 sur 3")
    expect(play.get_by_test_id("sj-held-cards-none")).to_contain_text("bibliothèque de cartes")
