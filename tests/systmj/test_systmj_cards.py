"""SYSTMJ cards (4), wear (3.4.1 and the wear scale) and Action & Mouvement rounds (3.2):
every field of the four families round-trips through the document, registry numbers never
collide, hostile imports are refused and change nothing, the wear thresholds, the seeded
wear review, hidden round choices."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api_calls import call, err
from tablee.api import handle
from tablee.systems.systmj import library as LIB
from tablee.systems.systmj import wear as W

FULL = {
    "equipement": {
        "family": "equipement", "name": "Épée longue", "description": "Acier, 1 m.",
        "types": ["arme", "objet_usuel"], "categories": ["corps_a_corps", "outil_instrument"],
        "quality": "bonne", "size": "moyenne", "weight": "1,5 kg", "slot": "Ceinture", "load": "—",
        "att": 10, "def": 8, "er_skills": "Forge", "pu": 80, "damage": [2, 4, 6], "pa_bonus": 0,
        "range": "", "ammunition": "", "charge_duration": "", "effect_duration": "", "worn": False,
    },
    "ressource": {
        "family": "ressource", "name": "Maison", "description": "Au bord du lac.",
        "type": "titre_propriete", "subtype": "batiment", "effect_duration": "", "conservation": "",
        "owner": "Aria", "surface": "120 m²", "location": "Lac-Noir",
    },
    "savoir": {
        "family": "savoir", "name": "Grimoire noir", "description": "Reliure en cuir.",
        "type": "grimoire", "author": "Anonyme", "language": "Ancien", "weight": "2 kg", "pu": 40,
        "requires": "", "skills": ["lire_ecrire", "sp-magie", "PO-00001"],
    },
    "pouvoir": {
        "family": "pouvoir", "name": "Nécromancie", "description": "Parler aux morts.",
        "types": ["magique", "psychique"], "families": ["Magie noire", "Nécromancie"], "da": 4,
        "cost": "2 PV", "score": 27,
    },
}


#: The type a card of these families must state (4.1 and 4.4, field 2).
TYPE = {"equipement": {"types": ["arme"]}, "pouvoir": {"types": ["magique"]}}


def new_state():
    return call({"op": "systmj.state.new"})["state"]


def save(state, card):
    r = call({"op": "systmj.card.save", "state": state, "card": card})
    return r["state"], r["card"]


def character(cid="pj1"):
    return call({"op": "systmj.entity.new", "id": cid, "name": "Aria"})["character"]


@pytest.mark.parametrize("family", sorted(FULL))
def test_every_field_round_trips_through_the_document(family):
    state, card = save(new_state(), FULL[family])
    assert card["number"] == f"{LIB.FAMILIES[family]}-00001"
    assert {k: card[k] for k in FULL[family]} == FULL[family]
    doc = call({"op": "store.new", "name": "T", "language": "fr"})["document"]
    doc["systems"]["systmj"] = state
    back = call({"op": "store.load", "document": json.loads(json.dumps(doc))})["document"]
    assert back["systems"]["systmj"]["library"]["cards"] == [card]


def test_a_new_card_claims_no_type_it_was_not_given():
    """000, 4.1 and 4.4, field 2: an Équipement card states its type (Objets usuels, Armes,
    Armures) and a Pouvoir card its type of skill, several at once. A new card starts with none
    (a weapon was an "Objet usuel" too unless that box was unticked), and a card saved without
    one is refused at that field; the one-choice types keep the value their list shows."""
    rules = call({"op": "systmj.cards.rules"})
    assert rules["defaults"]["equipement"]["types"] == [] and rules["defaults"]["equipement"]["categories"] == []
    assert rules["defaults"]["pouvoir"]["types"] == []
    for family in ("equipement", "pouvoir"):
        r = handle({"op": "systmj.card.save", "state": new_state(), "card": {"family": family, "name": "Épée"}})
        assert r["error"]["code"] == "systmj.card.type_needed" and r["error"]["params"]["field"] == "types"
    state, card = save(new_state(), {"family": "equipement", "name": "Épée", "types": ["arme"],
                                     "categories": ["corps_a_corps"]})
    assert card["types"] == ["arme"] and card["categories"] == ["corps_a_corps"]
    state, card = save(state, {"family": "savoir", "name": "Carnet"})
    assert card["type"] == "livre"


def test_registry_numbers_never_collide_and_edits_keep_them():
    state = new_state()
    numbers = []
    for family in ("equipement", "pouvoir", "equipement", "savoir", "ressource", "equipement"):
        state, card = save(state, {"family": family, "name": "c", **TYPE.get(family, {})})
        numbers.append(card["number"])
    assert numbers == ["EQ-00001", "PO-00001", "EQ-00002", "SA-00001", "RE-00001", "EQ-00003"]
    state, card = save(state, {"family": "equipement", "number": "EQ-00002", "name": "renamed", "pu": 12})
    assert card["number"] == "EQ-00002" and card["pu"] == 12
    assert [c["number"] for c in state["library"]["cards"]] == numbers
    # a forged duplicate number in a document is refused by the store
    bad = copy.deepcopy(state)
    bad["library"]["cards"][2]["number"] = "EQ-00001"
    assert err({"op": "systmj.card.save", "state": bad, "card": {"family": "savoir", "name": "x"}}) == (
        "systmj.state.not_valid"
    )


@pytest.mark.parametrize(
    ("card", "field"),
    [
        ({"family": "equipement", "name": "x", "types": ["arme"], "quality": "divine"}, "quality"),
        ({"family": "equipement", "name": "x", "types": ["arme"], "pu": 100}, "pu"),
        ({"family": "equipement", "name": "x", "types": ["armure"], "categories": ["bouclier"]}, "categories"),
        ({"family": "equipement", "name": "x", "types": ["arme"], "damage": [1, 2]}, "damage"),
        ({"family": "ressource", "name": "x", "type": "munition", "subtype": "poison"}, "subtype"),
        ({"family": "savoir", "name": "x", "skills": ["__proto__"]}, "skills"),
        ({"family": "pouvoir", "name": "x", "types": ["magique"], "da": 6}, "da"),
        ({"family": "pouvoir", "name": "x", "types": ["magique"], "__proto__": 1}, ""),
        ({"family": "constructor", "name": "x"}, "family"),
        ({"family": ["equipement"], "name": "x"}, "family"),
        ({"family": {"__proto__": 1}, "name": "x"}, "family"),
    ],
)
def test_hostile_import_refused_and_changes_nothing(card, field):
    state, _ = save(new_state(), FULL["equipement"])
    before = copy.deepcopy(state)
    resp = handle({"op": "systmj.card.import", "state": state, "card": card})
    assert resp["error"]["code"] in ("systmj.card.not_valid",)
    assert resp["error"]["params"]["field"].startswith(field)
    assert state == before


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["family", "name", "number", "pu", "types", "damage", "__proto__", "holder"]),
                       st.one_of(st.none(), st.integers(-5, 200), st.text(max_size=6), st.lists(st.integers(0, 9)),
                                 st.sampled_from(["equipement", "pouvoir", "EQ-00001"]))))
def test_fuzzed_imports_never_crash_and_keep_state(card):
    """Property: any object imported gives a card with a fresh number, or a declared error;
    the state given is never changed."""
    state, _ = save(new_state(), FULL["equipement"])
    before = copy.deepcopy(state)
    for op in ("systmj.card.import", "systmj.card.save"):
        resp = handle({"op": op, "state": state, "card": card})
        if "error" in resp:
            assert resp["error"]["code"].startswith(("systmj.", "request."))
        else:
            assert resp["card"]["number"] != "EQ-00001" or op == "systmj.card.save"
            assert LIB.library_problems(resp["state"]["library"]) == []
        assert state == before


def test_import_gets_a_fresh_number():
    state, _ = save(new_state(), FULL["pouvoir"])
    r = call({"op": "systmj.card.import", "state": state,
              "card": {**FULL["pouvoir"], "number": "PO-00001", "holder": "someone"}})
    assert r["card"]["number"] == "PO-00002" and r["card"]["holder"] == ""


def test_blank_name_refused():
    assert err({"op": "systmj.card.save", "state": new_state(), "card": {"family": "savoir", "name": "  "}}) == (
        "systmj.card.name_empty"
    )


def test_give_and_take_back():
    state, card = save(new_state(), FULL["equipement"])
    pj, other = character("pj1"), character("pj2")
    r = call({"op": "systmj.card.give", "state": state, "character": pj, "number": card["number"]})
    state, pj = r["state"], r["character"]
    assert pj["cards"] == ["EQ-00001"] and state["library"]["cards"][0]["holder"] == "pj1"
    assert err({"op": "systmj.card.give", "state": state, "character": other, "number": "EQ-00001"}) == (
        "systmj.card.held"
    )
    assert err({"op": "systmj.card.take", "state": state, "character": other, "number": "EQ-00001"}) == (
        "systmj.card.not_held"
    )
    r = call({"op": "systmj.card.take", "state": state, "character": pj, "number": "EQ-00001"})
    assert r["character"]["cards"] == [] and r["state"]["library"]["cards"][0]["holder"] == ""


# ---------------------------------------------------------------- wear


@pytest.mark.parametrize(
    ("pu", "degree", "malus"),
    [(0, "detruit", -30), (1, "epave", -20), (10, "epave", -20), (11, "tres_endommage", -15),
     (25, "tres_endommage", -15), (26, "abime", -10), (45, "abime", -10), (46, "use", -5), (65, "use", -5),
     (66, "correct", 0), (80, "correct", 0), (81, "bon_etat", 0), (98, "excellent", 0), (99, "parfait", 0)],
)
def test_wear_thresholds(pu, degree, malus):
    r = call({"op": "systmj.wear.of", "pu": pu})
    assert (r["degree"], r["malus"]) == (degree, malus)
    assert r["modifier"] == ({"source": "wear", "value": malus} if malus else None)


def test_wear_malus_applies_to_a_test():
    # An item at PU 30 (Abîmé, −10): score 50 becomes 40; a roll of 45 fails.
    w = call({"op": "systmj.wear.of", "pu": 30})
    odds = call({"op": "systmj.test.odds", "score": 50, "modifiers": [w["modifier"]]})
    assert odds["effective"] == 40


def test_wear_review_seeded_and_logged():
    state, _sword = save(new_state(), {**FULL["equipement"], "pu": 5})
    state, _book = save(state, FULL["savoir"])
    log = [
        {"kind": "systmj.test", "request": {"subject": {"character": "pj1", "target": "skill", "key": "parler",
                                                        "session": 1, "item": "SA-00001"}}},
        {"kind": "systmj.combat.exchange", "request": {"subject": {"session": 1, "items": ["EQ-00001"]}}},
        {"kind": "systmj.combat.exchange", "request": {"subject": {"session": 2, "items": ["EQ-00009"]}}},
        {"kind": "other", "request": "junk"},
    ]
    plan = call({"op": "systmj.wear.plan", "state": state, "log": log})
    assert [i["number"] for i in plan["items"]] == ["SA-00001", "EQ-00001"]
    items = [{"number": "EQ-00001", "die": "1d10"}, {"number": "SA-00001", "die": "1d4"}]
    r = call({"op": "systmj.wear.review", "state": state, "items": items, "seed": 11})
    assert r == call({"op": "systmj.wear.review", "state": state, "items": items, "seed": 11})
    import random

    rng = random.Random(11)
    expected = [rng.randint(1, 10), rng.randint(1, 4)]
    assert [x["rolled"] for x in r["results"]] == expected
    cards = {c["number"]: c for c in r["state"]["library"]["cards"]}
    assert cards["EQ-00001"]["pu"] == max(0, 5 - expected[0])
    assert cards["SA-00001"]["pu"] == 40 - expected[1]
    assert err({"op": "systmj.wear.review", "state": state, "items": [items[0], items[0]], "seed": 1}) == (
        "systmj.wear.duplicate"
    )
    state2, _res = save(state, FULL["ressource"])
    assert err({"op": "systmj.wear.review", "state": state2, "items": [{"number": "RE-00001", "die": "1d4"}],
                "seed": 1}) == "systmj.wear.no_pu"


def test_repair_caps_at_99():
    state, _ = save(new_state(), {**FULL["equipement"], "pu": 90})
    r = call({"op": "systmj.wear.repair", "state": state, "number": "EQ-00001", "points": 20})
    assert r["after"]["pu"] == 99 and r["state"]["library"]["cards"][0]["pu"] == 99


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 99), st.sampled_from(sorted(W.WEAR_DICE))), min_size=1, max_size=5),
       st.integers(0, 2**32))
def test_review_property(items, seed):
    """Each item loses between 1 and its die's faces, never below 0; nothing else changes."""
    lib = LIB.new_library()
    for pu, _ in items:
        lib, _c = LIB.save_card(lib, {"family": "equipement", "name": "x", "types": ["arme"], "pu": pu})
    import random

    new, results = W.review(lib, [{"number": c["number"], "die": d} for c, (_, d) in zip(lib["cards"], items,
                                                                                           strict=True)],
                            random.Random(seed), 1)
    for old, card, res, (_, die) in zip(lib["cards"], new["cards"], results, items, strict=True):
        assert 1 <= res["rolled"] <= W.WEAR_DICE[die]
        assert card["pu"] == max(0, old["pu"] - res["rolled"])
        assert {k: v for k, v in card.items() if k != "pu"} == {k: v for k, v in old.items() if k != "pu"}


# ---------------------------------------------------------------- Action & Mouvement


def test_round_hidden_choices_revealed_together_and_locked():
    state, armour = save(new_state(), {"family": "equipement", "name": "Cotte", "types": ["armure"],
                                       "pa_bonus": 4, "worn": True})
    pj = character("pj1")
    pj["pv_max"], pj["pa_max"] = 20, 9
    state = call({"op": "systmj.card.give", "state": state, "character": pj, "number": armour["number"]})["state"]
    npc = character("pnj1")
    npc["pv_max"], npc["pa_max"] = 12, 2
    state = call({"op": "systmj.round.start", "state": state, "characters": [pj, npc]})["state"]
    assert state["phase"] == "action_mouvement"
    assert [(e["pv"], e["pa"]) for e in state["rounds"]["entities"]] == [(20, 4), (12, 2)]  # worn armour PA
    r = call({"op": "systmj.round.choose", "state": state, "entity": "pnj1", "choice": "mouvement"})
    assert "mouvement" not in json.dumps(r["view"])  # the MJ's choice is not in the shared view
    assert r["view"]["entities"][1]["chosen"] is True
    assert err({"op": "systmj.round.reveal", "state": r["state"]}) == "systmj.round.missing_choices"
    state = call({"op": "systmj.round.choose", "state": r["state"], "entity": "pj1", "choice": "action"})["state"]
    assert err({"op": "systmj.round.acted", "state": state, "entity": "pj1"}) == "systmj.round.not_revealed"
    r = call({"op": "systmj.round.reveal", "state": state})
    assert [e["choice"] for e in r["view"]["entities"]] == ["action", "mouvement"]
    state = r["state"]
    assert err({"op": "systmj.round.choose", "state": state, "entity": "pj1", "choice": "mouvement"}) == (
        "systmj.round.locked"
    )
    state = call({"op": "systmj.round.acted", "state": state, "entity": "pj1"})["state"]
    assert err({"op": "systmj.round.acted", "state": state, "entity": "pj1"}) == "systmj.round.already_acted"
    state = call({"op": "systmj.round.order", "state": state, "order": ["pnj1", "pj1"]})["state"]
    assert [e["id"] for e in state["rounds"]["entities"]] == ["pnj1", "pj1"]
    state = call({"op": "systmj.round.next", "state": state})["state"]
    assert state["round"] == 2 and state["rounds"]["revealed"] is False
    assert all(e["choice"] == "" and not e["acted"] for e in state["rounds"]["entities"])
    state = call({"op": "systmj.round.end", "state": state})["state"]
    assert state["phase"] == "jeu_libre" and "rounds" not in state
