"""Card kernel: conservation, reshuffle events, visibility, exact odds vs brute force."""

import json
import random
from fractions import Fraction
from itertools import combinations, permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablee import cards
from tablee.api import handle

ORDER = ("a", "b", "c", "d")


def _state(kinds, discard_kinds=()):
    defs = [{"id": f"x{i}", "kind": k} for i, k in enumerate(kinds)]
    defs += [{"id": f"y{i}", "kind": k} for i, k in enumerate(discard_kinds)]
    s = cards.new_state(defs)
    s["piles"]["draw"]["cards"] = [f"x{i}" for i in range(len(kinds))]
    s["piles"]["discard"]["cards"] = [f"y{i}" for i in range(len(discard_kinds))]
    return cards.ensure_pile(s, "hand", visibility="owner", owner="p1")


def test_draw_reshuffles_discard_and_reports_it():
    s = _state(["a", "b"], ["c", "d", "d"])
    new, drawn, events = cards.draw(s, 4, random.Random(1))
    assert drawn[:2] == ["x0", "x1"]
    assert [e["type"] for e in events] == ["reshuffle"]
    assert events[0]["count"] == 3
    assert len(new["piles"]["draw"]["cards"]) == 1 and new["piles"]["discard"]["cards"] == []
    assert cards.total_cards(new) == 5
    assert s["piles"]["draw"]["cards"] == ["x0", "x1"]  # input untouched (pure)


def test_draw_stops_short_when_everything_is_drawn():
    s = _state(["a"], ["b"])
    _, drawn, events = cards.draw(s, 5, random.Random(0))
    assert len(drawn) == 2 and events[-1] == {"type": "exhausted", "pile": "draw", "missing": 3}


def test_view_hides_draw_pile_and_other_hands():
    s = _state(["a", "b", "c"])
    s, _, _ = cards.draw(s, 1, random.Random(0))
    mine = cards.view(s, "p1")
    other = cards.view(s, "p2")
    assert mine["piles"]["hand"]["cards"] == ["x0"] and "x0" in mine["cards"]
    assert other["piles"]["hand"]["cards"] == [None] and "x0" not in other["cards"]
    assert other["piles"]["draw"]["cards"] == [None, None] and other["piles"]["draw"]["count"] == 2
    revealed = cards.view(cards.reveal(s, ["x1"]), "p2")
    assert revealed["piles"]["draw"]["cards"] == ["x1", None]


def test_check_state_rejects_malformed():
    assert cards.check_state({"cards": {}, "piles": {}}) == []
    assert cards.check_state([]) != []
    s = _state(["a", "b"])
    s["piles"]["discard"]["cards"].append("x0")
    assert [p.code for p in cards.check_state(s)] == ["cards.card.duplicate"]
    s = _state(["a"])
    s["piles"]["draw"]["cards"] = []
    assert [p.code for p in cards.check_state(s)] == ["cards.card.not_in_pile"]


ops_strategy = st.lists(
    st.tuples(st.sampled_from(["draw", "shuffle", "discard", "return", "aside", "move"]), st.integers(0, 6)),
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(ORDER), min_size=1, max_size=10), ops_strategy, st.integers(0, 2**32))
def test_every_operation_conserves_cards_and_json_round_trips(kinds, steps, seed):
    rng = random.Random(seed)
    s = _state(kinds)
    n = cards.total_cards(s)
    for name, k in steps:
        hand = s["piles"]["hand"]["cards"]
        if name == "draw":
            s, _, _ = cards.draw(s, k, rng)
        elif name == "shuffle":
            s, _ = cards.shuffle(s, "draw", rng)
        elif name == "discard":
            s = cards.discard(s, hand[:k])
        elif name == "return":
            s, _ = cards.return_to_deck(s, hand[:k], rng=rng)
        elif name == "aside":
            s = cards.set_aside(s, hand[:k])
        else:
            s = cards.move(s, s["piles"]["discard"]["cards"][:k], "discard", "hand", top=True)
        assert cards.total_cards(s) == n
        assert cards.check_state(s) == []
        s = json.loads(json.dumps(s))


def _brute_extreme(pile, n, worst):
    out = {}
    perms = list(permutations(range(len(pile))))
    for p in perms:
        hand = [pile[i] for i in p[:n]]
        e = (min if worst else max)(hand, key=ORDER.index)
        out[e] = out.get(e, 0) + Fraction(1, len(perms))
    return out


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(ORDER), min_size=1, max_size=6), st.integers(1, 6), st.booleans())
def test_extreme_distribution_matches_permutations(pile, n, worst):
    n = min(n, len(pile))
    counts = {k: pile.count(k) for k in set(pile)}
    assert cards.extreme_distribution(counts, n, ORDER, worst=worst) == _brute_extreme(pile, n, worst)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(ORDER), max_size=3),
    st.lists(st.sampled_from(ORDER), min_size=1, max_size=5),
    st.integers(1, 8),
    st.booleans(),
)
def test_refill_distribution_matches_brute_force(pile, refill, n, worst):
    pick = min if worst else max
    expected = {}
    if n <= len(pile):
        expected = _brute_extreme(pile, n, worst) if pile else {}
    else:
        m = min(n - len(pile), len(refill))
        combos = list(combinations(range(len(refill)), m))
        for c in combos:
            hand = pile + [refill[i] for i in c]
            e = pick(hand, key=ORDER.index)
            expected[e] = expected.get(e, 0) + Fraction(1, len(combos))
    got = cards.refill_extreme_distribution(
        {k: pile.count(k) for k in set(pile)},
        {k: refill.count(k) for k in set(refill)},
        n,
        ORDER,
        worst=worst,
    )
    assert got == expected


def test_hand_distribution_is_exact():
    d = cards.hand_distribution({"a": 2, "b": 1}, 2)
    assert d == {(("a", 2),): Fraction(1, 3), (("a", 1), ("b", 1)): Fraction(2, 3)}
    assert sum(cards.hand_distribution({"a": 3, "b": 4, "c": 2}, 4).values()) == 1


def test_ops_roundtrip(api):
    defs = [{"id": f"c{i}", "kind": "n", "value": i} for i in range(5)]
    r = api({"op": "cards.deck.new", "definitions": defs, "seed": 7})
    assert r == api({"op": "cards.deck.new", "definitions": defs, "seed": 7})
    s = cards.ensure_pile(r["state"], "hand", visibility="public")
    d = api({"op": "cards.draw", "state": s, "count": 2, "seed": 3})
    assert d["seed"] == 3 and d["drawn"] == s["piles"]["draw"]["cards"][:2]
    odds = api({"op": "cards.odds.extreme", "state": s, "count": 2, "order": ["n"], "worst": True})
    assert odds["distribution"] == [{"kind": "n", "fraction": "1/1", "percent": 100.0}]
    bad = handle({"op": "cards.draw", "state": {"cards": {}, "piles": {}}, "count": 1, "seed": 1})
    assert bad["error"]["code"] == "cards.pile.unknown"
