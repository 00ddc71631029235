"""Exact odds of the figure chain against a naive enumeration over the remaining deck.

The implementation (tablee.systems.theorem.rules.chain_distribution) groups cards by suit
and kind and memoizes; the oracle (th_helpers.brute_chain) walks every sequence of
individual cards without replacement. The full deck's oracle is too long to enumerate
card by card at each test run; tools/theorem_full_deck_oracle.py enumerated it once with
individual cards (memoized on the set of remaining figures) into
tests/fixtures/theorem_full_deck_oracle.json.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from th_helpers import CARDS, brute_chain, character

from tablee.api import handle
from tablee.systems.theorem import data as D
from tablee.systems.theorem import rules as R

ALL = [d["id"] for d in D.numbered_definitions()]
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "theorem_full_deck_oracle.json"


def impl(draw, discard=(), prefix=()):
    return R.chain_distribution(
        R.deck_counts([CARDS[c] for c in draw]), R.deck_counts([CARDS[c] for c in discard]), [CARDS[c] for c in prefix]
    )


def _split(seed, n_draw, n_figs):
    """A partly played deck: ``n_draw`` cards left (``n_figs`` of them figures), the rest discarded."""
    rng = random.Random(seed)
    figs = [c for c in ALL if CARDS[c]["kind"] == "figure"]
    nums = [c for c in ALL if CARDS[c]["kind"] == "number"]
    draw = rng.sample(figs, n_figs) + rng.sample(nums, n_draw - n_figs)
    rng.shuffle(draw)
    discard = [c for c in ALL if c not in draw]
    return draw, discard


PARTIAL = [
    pytest.param(*_split(1, 30, 5), id="30-left-5-figures"),
    pytest.param(*_split(2, 12, 6), id="12-left-6-figures"),
    pytest.param(*_split(3, 20, 4), id="20-left-4-figures"),
    pytest.param(*_split(4, 8, 3), id="8-left-3-figures"),
]


@pytest.mark.parametrize(("draw", "discard"), PARTIAL)
def test_partly_played_decks_match_the_naive_enumeration(draw, discard):
    got = impl(draw, discard)
    assert got == brute_chain(draw, discard)
    assert sum(got.values()) == 1


def test_a_chain_that_runs_out_turns_the_discard_over():
    """Only two figures left in the draw pile: the chain goes on into the reshuffled discard."""
    draw = ["coupe-roi", "coupe-valet"]
    discard = ["coupe-reine", "epee-valet", "epee-03", "coupe-05", "baton-10", "denier-01"]
    got = impl(draw, discard)
    assert got == brute_chain(draw, discard)
    # both figures first in either order: −10 −10 then the chain goes on; 10 and 10 same suit.
    assert min(got) < -20


@pytest.mark.parametrize("prefix", [["baton-roi"], ["baton-roi", "baton-valet"], ["denier-reine", "epee-roi"]])
def test_chain_already_on_the_table_matches_the_oracle(prefix):
    draw, discard = _split(5, 18, 4)
    draw = [c for c in draw if c not in prefix]
    discard = [c for c in discard if c not in prefix]
    assert impl(draw, discard, prefix) == brute_chain(draw, discard, prefix)


def test_tiny_decks_by_hand():
    assert impl(["baton-07"]) == {7: 1}
    # valet bâton then 7 bâton (−17) or 7 first (7): half each.
    assert impl(["baton-valet", "baton-07"]) == {-17: Fraction(1, 2), 7: Fraction(1, 2)}
    assert impl(["baton-valet", "coupe-07"]) == {7: Fraction(1, 2), 17: Fraction(1, 2)}


def test_full_deck_matches_the_card_by_card_enumeration():
    oracle = {int(k): Fraction(v) for k, v in json.loads(FIXTURE.read_text())["distribution"].items()}
    got = impl(ALL)
    assert got == oracle
    assert got[5] > Fraction(4, 56) and sum(got.values()) == 1  # four 5s, and chains such as 10 − 10 + 5


def test_odds_op_uses_the_deck_as_it_stands_and_the_levels_follow(api):
    state = api({"op": "theorem.state.new", "seed": 9})["state"]
    draw, discard = _split(6, 10, 3)
    state["deck"]["piles"]["draw"]["cards"] = draw
    state["deck"]["piles"]["discard"]["cards"] = discard
    c = character()
    r = api(
        {
            "op": "theorem.action.odds",
            "state": state,
            "character": c,
            "sphere": "animalite",
            "skill": "Escalade",
            "modifier": -2,
            "exploit": 1,
        }
    )
    oracle = brute_chain(draw, discard)
    assert {row["value"]: Fraction(row["fraction"]) for row in r["value"]} == oracle
    assert r["base"] == 4 + 2 - 2 + 1 and r["remaining"] == 10
    levels = {row["level"]: Fraction(row["fraction"]) for row in r["levels"]}
    want = {lv: Fraction(0) for lv in D.LEVELS}
    for v, p in oracle.items():
        want[R.level_of(5 + v)["level"]] += p
    assert levels == want
    # An arcane played for its value makes the draw a sure 10.
    a = api(
        {
            "op": "theorem.action.odds",
            "state": state,
            "character": c,
            "sphere": "animalite",
            "skill": "Escalade",
            "modifier": 0,
            "arcane": True,
        }
    )
    assert a["value"] == [{"value": 10, "fraction": "1/1", "percent": 100.0}]
    assert {row["level"]: row["fraction"] for row in a["levels"]}["moyenne"] == "1/1"  # 4 + 2 + 10 = 16


def test_odds_follow_a_pending_chain(api):
    """A figure waiting on the table: the odds are those of the chain going on from it."""
    from th_helpers import force_top

    state = force_top(api({"op": "theorem.state.new", "seed": 9})["state"], "epee-roi")
    c = character()
    b = api({"op": "theorem.action.begin", "state": state, "character": c, "sphere": "humanite", "modifier": 0})
    d = api({"op": "theorem.action.draw", "state": b["state"], "character": b["character"], "seed": 1})
    assert d["result"]["awaiting"] == "epee-roi"
    st = d["state"]
    # Leave 8 cards (2 figures) in the draw pile, the rest in the discard.
    piles = st["deck"]["piles"]
    rest = piles["draw"]["cards"] + piles["discard"]["cards"]
    keep = ["epee-valet", "coupe-roi", "epee-04", "coupe-09", "baton-02", "denier-10", "epee-10", "coupe-01"]
    piles["draw"]["cards"] = keep
    piles["discard"]["cards"] = [x for x in rest if x not in keep]
    r = api(
        {"op": "theorem.action.odds", "state": st, "character": b["character"], "sphere": "humanite", "modifier": 0}
    )
    assert r["pending"] is True and r["base"] == 3
    got = {row["value"]: Fraction(row["fraction"]) for row in r["value"]}
    assert got == brute_chain(keep, piles["discard"]["cards"], ["epee-roi"])
    assert got[-14] == Fraction(1, 8)  # roi d'épée then 4 d'épée: −10 − 4


def test_odds_refuse_an_exploit_during_a_retest():
    state = handle({"op": "theorem.state.new", "seed": 1})["state"]
    r = handle(
        {
            "op": "theorem.action.odds",
            "state": state,
            "character": character(),
            "sphere": "animalite",
            "modifier": 0,
            "exploit": 1,
            "retest": True,
        }
    )
    assert r["error"]["code"] == "theorem.exploit.retest"
