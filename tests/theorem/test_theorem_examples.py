"""The worked examples of 003_0f8319d4d007e1fe.txt, with the deck forced to the example's cards."""

from __future__ import annotations

from th_helpers import CARDS, character, force_top

from tablee.systems.theorem import rules as R


def _state(api):
    return api({"op": "theorem.state.new", "seed": 7})["state"]


def test_joshua_climb_4_plus_2_plus_card_4_is_just_a_success(api):
    """ "1) Les actions simples": Animalité 4 + Escalade 2 + card 4 = 10, "tout juste suffisant"."""
    state = force_top(_state(api), "baton-04")
    c = character()
    r = api(
        {
            "op": "theorem.action.begin",
            "state": state,
            "character": c,
            "sphere": "animalite",
            "skill": "Escalade",
            "modifier": 0,
        }
    )
    assert r["pending"]["base"] == 6
    d = api({"op": "theorem.action.draw", "state": r["state"], "character": r["character"], "seed": 1})
    res = d["result"]
    assert res["done"] and res["value"] == 4 and res["score"] == 10
    assert (res["level"], res["cases"], res["bonus"]) == ("normale", 1, 1)
    assert d["state"]["deck"]["piles"]["discard"]["cards"] == ["baton-04"]
    assert d["state"]["pending"] == {}
    assert level(9) == "echec"


def level(score):
    return R.level_of(score)["level"]


def test_dog_opposition_15_against_14_both_normale_joshua_wins(api):
    """ "3) Les actions d'opposition": Joshua 4 + 3 − 2 + 10 = 15, the dog 5 + 3 + 6 = 14."""
    state = force_top(_state(api), "coupe-10", "epee-06")
    r = api(
        {
            "op": "theorem.opposition.draw",
            "state": state,
            "seed": 3,
            "a": {"name": "Joshua", "base": 4 + 3, "start": -2},
            "b": {"name": "Chien", "base": 5 + 3, "start": 0},
        }
    )
    res = r["result"]
    assert (res["score_a"], res["score_b"]) == (15, 14)
    assert res["winner"] == "a"
    assert res["raw_a"]["level"] == res["raw_b"]["level"] == "normale"
    assert res["a"]["level"] == "normale"  # 1 case − 1 case, never below a réussite normale
    assert res["b"]["level"] == "echec"
    assert r["deck_used"]["draw"][:2] == ["coupe-10", "epee-06"]


def test_opposition_subtracts_cases_and_ties_are_both_normale():
    """Grande (3 cases) against normale (1 case) leaves the winner a moyenne (2 cases)."""
    assert R.opposition(22, 12)["a"]["level"] == "moyenne"
    assert R.opposition(12, 22)["b"]["level"] == "moyenne"
    assert R.opposition(25, 21)["a"]["level"] == "normale"
    tie = R.opposition(14, 14)
    assert tie["winner"] is None and tie["a"]["level"] == tie["b"]["level"] == "normale"
    assert R.opposition(8, 5)["a"]["level"] == "normale"  # a failing winner still gets a normale


def test_figure_chain_valet_baton_roi_denier_cavalier_denier_7_coupe(api):
    """ "4) Les figures": 10 + 10 − 10 + 7 = 17; Animalité 3 + Attention 3 + 17 = 23, grande réussite."""
    chain = ["baton-valet", "denier-roi", "denier-cavalier", "coupe-07"]
    assert R.chain_terms([CARDS[c] for c in chain]) == [10, 10, -10, 7]
    state = force_top(_state(api), *chain)
    c = character(animalite=3)
    r = api(
        {
            "op": "theorem.action.begin",
            "state": state,
            "character": c,
            "sphere": "animalite",
            "skill": "Attention",
            "modifier": 0,
        }
    )
    st, ch = r["state"], r["character"]
    d = api({"op": "theorem.action.draw", "state": st, "character": ch, "seed": 1})
    assert d["result"]["awaiting"] == "baton-valet"  # play it or set it aside
    st = api({"op": "theorem.action.figure", "state": d["state"], "character": ch, "decision": "play"})["state"]
    for seed in (2, 3):
        d = api({"op": "theorem.action.draw", "state": st, "character": ch, "seed": seed})
        assert d["result"]["done"] is False and d["result"]["forced"] is True
        st = d["state"]
    d = api({"op": "theorem.action.draw", "state": st, "character": ch, "seed": 4})
    res = d["result"]
    assert [x["id"] for x in res["chain"]] == chain
    assert [x["term"] for x in res["chain"]] == [10, 10, -10, 7]
    assert (res["value"], res["score"], res["level"]) == (17, 23, "grande")
    assert d["state"]["deck"]["piles"]["discard"]["cards"] == chain


def test_the_texts_formula_for_one_figure():
    """ "-10 - la valeur de la carte suivante si [...] de la même famille [...] ou 10 + la valeur"."""
    assert R.chain_value([CARDS["epee-reine"], CARDS["epee-03"]]) == -13
    assert R.chain_value([CARDS["epee-reine"], CARDS["coupe-03"]]) == 13
    assert R.chain_value([CARDS["epee-roi"], CARDS["epee-valet"], CARDS["baton-02"]]) == -10 - 10 + 2


def test_philipe_refills_a_hand_of_5_from_2_cards_and_the_turned_discard(api):
    """ "A) Au commencement": Divinité 5, hand empty, 2 cards left: take them, turn the discard over,
    take the 3 top cards."""
    c = character("philipe", divinite=5)
    state = _state(api)
    state = api({"op": "theorem.hand.draw", "state": state, "character": c, "seed": 5})["state"]
    arc = state["arcana"]["philipe"]
    assert len(arc["piles"]["hand"]["cards"]) == 5
    # Play the whole hand and most of the deck: 2 cards stay in the draw pile.
    arc["piles"]["discard"]["cards"] += arc["piles"]["hand"]["cards"] + arc["piles"]["draw"]["cards"][2:]
    last_two = arc["piles"]["draw"]["cards"][:2]
    arc["piles"]["hand"]["cards"] = []
    arc["piles"]["draw"]["cards"] = list(last_two)
    r = api({"op": "theorem.hand.draw", "state": state, "character": c, "seed": 6})
    new = r["state"]["arcana"]["philipe"]
    hand = new["piles"]["hand"]["cards"]
    assert len(hand) == 5 and hand[:2] == last_two
    assert [e["type"] for e in r["events"]] == ["reshuffle"]
    assert r["events"][0]["count"] == 20
    assert len(new["piles"]["draw"]["cards"]) == 17 and new["piles"]["discard"]["cards"] == []


def test_chase_run_round_by_round_under_the_reading(api):
    """The text's chase (Joshua +1, the dog −1, target +5) under the README reading: the
    starting bonus stays in every score, only the winner adds its own success bonus."""
    rounds = [("baton-09", "coupe-02"), ("baton-01", "coupe-10"), ("baton-08", "coupe-03"), ("epee-09", "denier-08")]
    # Round 3: the text's dog scores 11 = 5 + 2 + 2 + 2 (modifier −1 + 3): with a 2 drawn.
    rounds[2] = ("baton-08", "epee-02")
    state = _state(api)
    state = api(
        {
            "op": "theorem.chase.start",
            "state": state,
            "target": 5,
            "a": {"name": "Joshua", "base": 6, "start": 1},
            "b": {"name": "Chien", "base": 7, "start": -1},
        }
    )["state"]
    seen = []
    for i, (ja, dog) in enumerate(rounds):
        state = force_top(state, ja, dog)
        r = api({"op": "theorem.chase.round", "state": state, "seed": 40 + i})
        state = r["state"]
        rd = r["round"]
        seen.append((rd["score_a"], rd["score_b"], rd["winner"], rd["gain"], rd["total_a"], rd["total_b"], rd["done"]))
    assert seen == [
        (16, 8, "a", 3, 3, 0, None),  # moyenne: Joshua +3
        (11, 16, "b", 3, 3, 3, None),  # the dog's réussite moyenne: +3, its malus wiped
        (18, 11, "a", 3, 6, 3, None),  # 3 + 3 + 4 + 8 = 18 against 5 + 2 + 2 + 2 = 11
        (22, 17, "a", 5, 11, 3, "a"),  # grande réussite: +11 against +3, Joshua gets away
    ]
    assert len(state["chase"]["rounds"]) == 4 and state["chase"]["done"] == "a"
    err = __import__("tablee.api", fromlist=["handle"]).handle({"op": "theorem.chase.round", "state": state, "seed": 1})
    assert err["error"]["code"] == "theorem.chase.over"
