"""Shared helpers of the Théorem tests: characters, forced decks, the naive odds oracle."""

from __future__ import annotations

import copy
from fractions import Fraction
from functools import cache

from tablee.systems.theorem import data as D
from tablee.systems.theorem import rules as R

CARDS = {d["id"]: d for d in D.numbered_definitions()}


def character(cid="josh", *, animalite=4, humanite=3, divinite=2, skills=None, realite=20, ka=None, des_ka=None):
    spheres = {"animalite": animalite, "humanite": humanite, "divinite": divinite}
    return {
        "id": cid,
        "system": "theorem",
        "name": cid.title(),
        "spheres": spheres,
        "skills": skills
        if skills is not None
        else [{"name": "Escalade", "level": 2}, {"name": "Discrétion", "level": 3}, {"name": "Attention", "level": 3}],
        "realite": realite,
        "des_ka": des_ka if des_ka is not None else min(spheres.values()) + 1,
        "ka_card": ka,
        "notes": "",
    }


def force_top(state, *ids):
    """The table state with the given cards on top of the numbered draw pile, in this order."""
    st = copy.deepcopy(state)
    piles = st["deck"]["piles"]
    for cid in ids:
        for name in ("draw", "discard"):
            if cid in piles[name]["cards"]:
                piles[name]["cards"].remove(cid)
    piles["draw"]["cards"][0:0] = list(ids)
    return st


def brute_chain(draw_ids, discard_ids, prefix=()):
    """Naive oracle: every sequence of individual cards drawn without replacement until the
    first numbered card (the discard turned over when the draw pile runs out), each step
    1/len(remaining), the value by chain_value on the whole chain. No grouping, no memo."""
    out: dict[int, Fraction] = {}

    def rec(remaining, refill, chain, p):
        if chain and CARDS[chain[-1]]["kind"] == "number":
            v = R.chain_value([CARDS[c] for c in chain])
            out[v] = out.get(v, Fraction(0)) + p
            return
        if not remaining:
            if not refill:
                v = R.chain_value([CARDS[c] for c in chain])
                out[v] = out.get(v, Fraction(0)) + p
                return
            remaining, refill = refill, []
        n = len(remaining)
        for i, c in enumerate(remaining):
            rec(remaining[:i] + remaining[i + 1 :], refill, [*chain, c], p / n)

    rec(list(draw_ids), list(discard_ids), list(prefix), Fraction(1))
    return dict(sorted(out.items()))


def memo_brute_chain(draw_ids):
    """Oracle for a whole deck: individual cards, memoized on the frozen set of remaining card
    ids and the previous card (no reshuffle: the draw pile alone). Independent of the
    implementation's grouping by suit and kind."""
    numbered = [c for c in draw_ids if CARDS[c]["kind"] == "number"]

    @cache
    def tail(figs: frozenset, prev: str, first: bool):
        # distribution of the signed sum of the cards after `prev`; when `first`, prev is the
        # chain's first figure and takes the sign of the first comparison.
        out: dict[int, Fraction] = {}
        n = len(figs) + len(numbered)
        pv = CARDS[prev]
        for c in numbered:
            sign = -1 if CARDS[c]["suit"] == pv["suit"] else 1
            v = sign * CARDS[c]["value"] + (sign * pv["value"] if first else 0)
            out[v] = out.get(v, Fraction(0)) + Fraction(1, n)
        for f in figs:
            sign = -1 if CARDS[f]["suit"] == pv["suit"] else 1
            head = sign * 10 + (sign * pv["value"] if first else 0)
            for v, q in tail(figs - {f}, f, False).items():
                out[head + v] = out.get(head + v, Fraction(0)) + q / n
        return out

    figs = frozenset(c for c in draw_ids if CARDS[c]["kind"] == "figure")
    n = len(draw_ids)
    out: dict[int, Fraction] = {}
    for c in numbered:
        out[CARDS[c]["value"]] = out.get(CARDS[c]["value"], Fraction(0)) + Fraction(1, n)
    for f in figs:
        for v, q in tail(figs - {f}, f, True).items():
            out[v] = out.get(v, Fraction(0)) + q / n
    return dict(sorted(out.items()))
