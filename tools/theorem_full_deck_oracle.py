"""Enumerate the Théorem figure chain over the full 56-card deck, card by card.

Writes tests/fixtures/theorem_full_deck_oracle.json, the oracle of
tests/theorem/test_theorem_odds.py::test_full_deck_matches_the_card_by_card_enumeration.
Independent of the implementation (which groups figures by suit): here each of the 16
figures is its own card, memoized on the bit set of the figures still in the deck and the
suit of the card just drawn (the sign of the next term depends on nothing else), with
integer weights over falling factorials. Takes about a minute on CPython.
Run: .venv/bin/python tools/theorem_full_deck_oracle.py
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from math import perm
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from tablee.systems.theorem import data as D  # noqa: E402

CARDS = D.numbered_definitions()
SUIT = {s: i for i, s in enumerate(D.SUITS)}
FIGS = [SUIT[c["suit"]] for c in CARDS if c["kind"] == "figure"]
NUMS = [(SUIT[c["suit"]], c["value"]) for c in CARDS if c["kind"] == "number"]
N_NUM = len(NUMS)


def main() -> None:
    term_after = {}
    for s in range(4):
        d: dict[int, int] = {}
        for suit, v in NUMS:
            t = -v if suit == s else v
            d[t] = d.get(t, 0) + 1
        term_after[s] = d
    memo: dict[tuple[int, int], dict[int, int]] = {}

    def tail(mask: int, prev: int) -> dict[int, int]:
        """Signed sum of the cards after a figure of suit ``prev`` (not the chain's first),
        as integer weights over (N)_(m+1), N = cards left, m = figures left."""
        key = (mask, prev)
        if key in memo:
            return memo[key]
        m = bin(mask).count("1")
        n = m + N_NUM
        mult = perm(n - 1, m)
        out = {v: c * mult for v, c in term_after[prev].items()}
        for i, s in enumerate(FIGS):
            if mask >> i & 1:
                head = -10 if s == prev else 10
                for v, w in tail(mask & ~(1 << i), s).items():
                    out[v + head] = out.get(v + head, 0) + w
        memo[key] = out
        return out

    n = len(CARDS)
    full = (1 << len(FIGS)) - 1
    res: dict[int, Fraction] = {}
    for _, v in NUMS:
        res[v] = res.get(v, Fraction(0)) + Fraction(1, n)
    for i, s in enumerate(FIGS):
        rest = full & ~(1 << i)
        for suit, v in NUMS:  # the first figure then a numbered card: ±(10 + v)
            t = -(10 + v) if suit == s else 10 + v
            res[t] = res.get(t, Fraction(0)) + Fraction(1, n * (n - 1))
        for j, s2 in enumerate(FIGS):
            if rest >> j & 1:
                sign = -1 if s2 == s else 1
                den = n * (n - 1) * perm(n - 2, len(FIGS) - 1)
                for v, w in tail(rest & ~(1 << j), s2).items():
                    res[20 * sign + v] = res.get(20 * sign + v, Fraction(0)) + Fraction(w, den)
    assert sum(res.values()) == 1
    out = {
        "source": "tools/theorem_full_deck_oracle.py",
        "distribution": {str(k): f"{p.numerator}/{p.denominator}" for k, p in sorted(res.items())},
    }
    path = ROOT / "tests" / "fixtures" / "theorem_full_deck_oracle.json"
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(path, len(res))


if __name__ == "__main__":
    main()
