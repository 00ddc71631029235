"""Théorem's pure rules: figure chains, the success table, oppositions, chases, exact odds.

Source: 003_0f8319d4d007e1fe.txt, "1) Les actions simples", "3) Les actions d'opposition",
"4) Les figures", "6) Accomplir un Exploit"; readings: shared/rules/README.md, Théorem.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from math import lcm
from typing import Any

from . import data as D

__all__ = [
    "chain_distribution",
    "chain_terms",
    "chain_value",
    "chase_round",
    "deck_counts",
    "level_of",
    "opposition",
    "score_distribution",
    "validate_success_table",
]

Card = Mapping[str, Any]


def chain_terms(chain: Sequence[Card]) -> list[int]:
    """The signed term of every card of a chain (figures first, a numbered card last).

    Source: "4) Les figures"; reading (README, Théorem): every card after the first is
    compared with the card just before it, same suit → negative, other suit → positive;
    the first card takes the sign of the first comparison. A chain of one card is its
    value. Example of the text: valet bâton, roi denier, cavalier denier, 7 coupe →
    [10, 10, −10, 7] = 17.
    """
    if not chain:
        return []
    terms = [int(chain[0]["value"])]
    for prev, card in pairwise(chain):
        sign = -1 if card["suit"] == prev["suit"] else 1
        terms.append(sign * int(card["value"]))
    if len(chain) > 1 and terms[1] < 0:
        terms[0] = -terms[0]
    return terms


def chain_value(chain: Sequence[Card]) -> int:
    """The value drawn: the sum of :func:`chain_terms`."""
    return sum(chain_terms(chain))


def validate_success_table(table: Sequence[Mapping[str, Any]]) -> str | None:
    """Why an edited success table is unusable (None when fine): the rows must be the three
    success levels in order with strictly increasing minima and non-decreasing cases."""
    if [r.get("level") for r in table] != list(D.LEVELS[1:]):
        return "levels"
    mins = [r["min"] for r in table]
    if any(b <= a for a, b in pairwise(mins)):
        return "order"
    cases = [r["cases"] for r in table]
    if any(b < a for a, b in pairwise(cases)):
        return "cases"
    return None


def level_of(score: int, table: Sequence[Mapping[str, Any]] = D.SUCCESS_TABLE) -> dict[str, Any]:
    """The success-table row of a score: ``{"level", "cases", "bonus"}``; failure below the
    first row (README reading: < 10 failure; 10–15 normale; 16–20 moyenne; 21+ grande)."""
    row: Mapping[str, Any] = {"level": "echec", "cases": 0, "bonus": 0}
    for r in table:
        if score >= r["min"]:
            row = r
    return {"level": row["level"], "cases": row["cases"], "bonus": row["bonus"]}


def _row_by_cases(cases: int, table: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The best row whose cases do not exceed ``cases`` (at least the first success row)."""
    best = table[0]
    for r in table:
        if r["cases"] <= cases:
            best = r
    return {"level": best["level"], "cases": best["cases"], "bonus": best["bonus"]}


def opposition(score_a: int, score_b: int, table: Sequence[Mapping[str, Any]] = D.SUCCESS_TABLE) -> dict[str, Any]:
    """Two scores face off. Source: "3) Les actions d'opposition".

    The higher score wins; the loser's cases are subtracted from the winner's, who never
    gets less than a réussite normale; a strict tie makes both a réussite normale (in a
    fight the defender is hit, softened). Returns ``{"winner": "a"|"b"|None, "a": row,
    "b": row, "raw_a", "raw_b"}`` where each row is the side's outcome and ``raw_*`` its
    own success-table row.
    """
    raw_a, raw_b = level_of(score_a, table), level_of(score_b, table)
    normal = _row_by_cases(0, table)
    fail = {"level": "echec", "cases": 0, "bonus": 0}
    if score_a == score_b:
        return {"winner": None, "a": normal, "b": dict(normal), "raw_a": raw_a, "raw_b": raw_b}
    winner = "a" if score_a > score_b else "b"
    win_raw, lose_raw = (raw_a, raw_b) if winner == "a" else (raw_b, raw_a)
    won = _row_by_cases(max(1, win_raw["cases"] - lose_raw["cases"]), table)
    out = {"winner": winner, "raw_a": raw_a, "raw_b": raw_b}
    out["a"], out["b"] = (won, fail) if winner == "a" else (fail, won)
    return out


def chase_round(
    chase: Mapping[str, Any], score_a: int, score_b: int, table: Sequence[Mapping[str, Any]] = D.SUCCESS_TABLE
) -> dict[str, Any]:
    """One round of a chase: an opposition whose winner adds its success bonus.

    Source: "3) Les actions d'opposition" (poursuite); reading (README, Théorem): only the
    round's winner adds its success bonus (+1/+3/+5) to its chase total, that bonus being
    the winner's own success level (the text's example gives the dog +3 for its réussite
    moyenne in round 2 and Joshua +5 for his grande réussite in round 4, not the level left
    after subtracting the loser's cases), at least the bonus of a réussite normale; a strict
    tie changes no total; the first whose total exceeds the other's by the target wins.
    ``chase`` holds ``total_a``, ``total_b``, ``target``. Returns the round record.
    """
    opp = opposition(score_a, score_b, table)
    total_a, total_b = chase["total_a"], chase["total_b"]
    gain = 0
    if opp["winner"] is not None:
        raw = opp["raw_a"] if opp["winner"] == "a" else opp["raw_b"]
        gain = max(raw["bonus"], table[0]["bonus"])
        if opp["winner"] == "a":
            total_a += gain
        else:
            total_b += gain
    done = None
    if total_a - total_b >= chase["target"]:
        done = "a"
    elif total_b - total_a >= chase["target"]:
        done = "b"
    return {
        "score_a": score_a,
        "score_b": score_b,
        "winner": opp["winner"],
        "gain": gain,
        "level_a": opp["raw_a"]["level"],
        "level_b": opp["raw_b"]["level"],
        "total_a": total_a,
        "total_b": total_b,
        "done": done,
    }


# --------------------------------------------------------------------------- exact odds
#: A deck as the odds see it: for each suit, (figures left, numbered values left as a sorted tuple).
Counts = tuple[tuple[int, tuple[int, ...]], ...]


def deck_counts(cards: Sequence[Card]) -> Counts:
    """The multiset of a pile by suit and kind (figures are interchangeable within a suit)."""
    out = []
    for suit in D.SUITS:
        figs = sum(1 for c in cards if c["suit"] == suit and c["kind"] == "figure")
        nums = tuple(sorted(int(c["value"]) for c in cards if c["suit"] == suit and c["kind"] == "number"))
        out.append((figs, nums))
    return tuple(out)


def _size(counts: Counts) -> int:
    return sum(f + len(n) for f, n in counts)


Figs = tuple[int, int, int, int]
#: ((end key, integer weight), ...), common denominator. An end key packs (sum of the figure
#: terms on the way, suit of the card before the numbered card, phase): phase 0 ends on a
#: numbered card of the draw pile, 1 on one of the turned-over discard, 2 stops (no card left).
Paths = tuple[tuple[tuple[int, int], ...], int]
_NO_FIGS: Figs = (0, 0, 0, 0)
_EMPTY: Counts = tuple((0, ()) for _ in D.SUITS)
_OFFSET = 1000  # figure sums stay within ±10 × 32 cards


def _key(k: int, e: int, ph: int) -> int:
    return ((k + _OFFSET) * 4 + e) * 4 + ph


def _unkey(key: int) -> tuple[int, int, int]:
    rest, ph = divmod(key, 4)
    k, e = divmod(rest, 4)
    return k - _OFFSET, e, ph


def _merge(entries: list[tuple[int, int]], children: list[tuple[int, int, Paths]], total: int) -> Paths:
    """One draw from ``total`` cards: the entries that end here (key, weight) and the figures
    drawn (term, how many, what follows), as integers over a common denominator."""
    common = 1
    for _, _, (_, den) in children:
        common = lcm(common, den)
    out: dict[int, int] = {}
    for key, w in entries:
        out[key] = out.get(key, 0) + w * common
    for head, mult, (items, den) in children:
        scale = mult * (common // den)
        shift = head * 16  # a figure term moves k, which sits above e and ph in the key
        for key, w in items:
            nk = key + shift
            out[nk] = out.get(nk, 0) + w * scale
    return tuple(out.items()), total * common


@lru_cache(maxsize=65536)
def _paths(figs: Figs, n_num: int, rfigs: Figs, rnum: int, last: int, phase: int) -> Paths:
    """Every way the chain goes on after a card of suit ``last``, up to the numbered card.

    Only the figures matter on the way (numbered cards end the chain), so this is memoized on
    the figures left by suit and the number of numbered cards, in the draw pile (``figs``,
    ``n_num``) and in the discard turned over when the pile runs out (``rfigs``, ``rnum``).
    Exact integer weights over a common denominator.
    """
    total = sum(figs) + n_num
    if total == 0:
        if sum(rfigs) + rnum == 0:
            return ((_key(0, last, 2), 1),), 1
        return _paths(rfigs, rnum, _NO_FIGS, 0, last, phase + 1)
    children: list[tuple[int, int, Paths]] = []
    for s in range(4):
        if figs[s]:
            rest = list(figs)
            rest[s] -= 1
            head = -D.FIGURE_VALUE if s == last else D.FIGURE_VALUE
            children.append((head, figs[s], _paths(tuple(rest), n_num, rfigs, rnum, s, phase)))  # type: ignore[arg-type]
    entries = [(_key(0, last, phase), n_num)] if n_num else []
    return _merge(entries, children, total)


def _after_first(figs: Figs, n_num: int, rfigs: Figs, rnum: int, first: int) -> tuple[Paths, Paths]:
    """After the chain's first figure (suit ``first``), whose sign waits for the next card:
    the paths where that next card is a numbered card (its sign applies twice: to the figure
    and to itself) apart from those where it is a figure (both terms signed at once)."""
    total = sum(figs) + n_num
    if total == 0:
        if sum(rfigs) + rnum == 0:
            return (((_key(0, first, 2), 1),), 1), ((), 1)
        return _after_first(rfigs, rnum, _NO_FIGS, 0, first)
    children: list[tuple[int, int, Paths]] = []
    for s in range(4):
        if figs[s]:
            rest = list(figs)
            rest[s] -= 1
            head = -2 * D.FIGURE_VALUE if s == first else 2 * D.FIGURE_VALUE
            children.append((head, figs[s], _paths(tuple(rest), n_num, rfigs, rnum, s, 0)))  # type: ignore[arg-type]
    ends = ((_key(0, first, 0), n_num),) if n_num else ()
    return (ends, total), _merge([], children, total)


def _split(counts: Counts) -> tuple[Figs, list[tuple[int, int]]]:
    figs = tuple(f for f, _ in counts)
    nums = [(s, v) for s, (_, values) in enumerate(counts) for v in values]
    return figs, nums  # type: ignore[return-value]


def _finish(paths: Paths, nums: list[tuple[int, int]], rnums: list[tuple[int, int]], shift: int,
            *, first: bool = False) -> dict[int, Fraction]:
    """Turn the end keys into values: the numbered card's term is signed against the card
    before it (and, with ``first``, gives the waiting first figure the same sign)."""
    items, den = paths
    out: dict[int, Fraction] = {}
    by_suit: dict[tuple[int, int], dict[int, int]] = {}
    for key, w in items:
        k, e, ph = _unkey(key)
        if ph == 2:
            v = k + (D.FIGURE_VALUE if first else 0) + shift
            out[v] = out.get(v, Fraction(0)) + Fraction(w, den)
            continue
        pool = nums if ph == 0 else rnums
        terms = by_suit.get((e, ph))
        if terms is None:
            terms = {}
            for suit, value in pool:
                sign = -1 if suit == e else 1
                t = sign * value + (sign * D.FIGURE_VALUE if first else 0)
                terms[t] = terms.get(t, 0) + 1
            by_suit[(e, ph)] = terms
        for t, c in terms.items():
            v = k + shift + t
            out[v] = out.get(v, Fraction(0)) + Fraction(w * c, den * len(pool))
    return out


def _add(into: dict[int, Fraction], more: dict[int, Fraction], weight: Fraction = Fraction(1)) -> None:
    for v, p in more.items():
        into[v] = into.get(v, Fraction(0)) + p * weight


def chain_distribution(
    remaining: Counts, refill: Counts | None = None, prefix: Sequence[Card] = ()
) -> dict[int, Fraction]:
    """Exact distribution of the value of the figure chain drawn from ``remaining``.

    Every figure is played (none set aside). ``prefix`` is the part of the chain already on
    the table (set-aside figures played first, or figures already drawn): the chain goes on
    from it. With an empty prefix the first card drawn is the first term. When the draw pile
    runs out the discard (``refill``) is turned over, as :func:`tablee.cards.draw` does.
    """
    refill = refill if refill is not None else _EMPTY
    prefix = list(prefix)
    if prefix and prefix[-1]["kind"] != "figure":
        return {chain_value(prefix): Fraction(1)}
    figs, nums = _split(remaining)
    rfigs, rnums = _split(refill)
    out: dict[int, Fraction] = {}
    if len(prefix) >= 2:
        last = D.SUITS.index(prefix[-1]["suit"])
        paths = _paths(figs, len(nums), rfigs, len(rnums), last, 0)
        return dict(sorted(_finish(paths, nums, rnums, chain_value(prefix)).items()))
    if len(prefix) == 1:
        _first_figure(out, figs, nums, rfigs, rnums, D.SUITS.index(prefix[0]["suit"]), Fraction(1))
        return dict(sorted(out.items()))
    # The first card: a numbered card is the value; a figure starts a chain.
    if not nums and not sum(figs):
        figs, nums, rfigs, rnums = rfigs, rnums, _NO_FIGS, []
    total = len(nums) + sum(figs)
    if total == 0:
        return {}
    for _, v in nums:
        out[v] = out.get(v, Fraction(0)) + Fraction(1, total)
    for s in range(4):
        if figs[s]:
            rest = list(figs)
            rest[s] -= 1
            _first_figure(out, tuple(rest), nums, rfigs, rnums, s, Fraction(figs[s], total))  # type: ignore[arg-type]
    return dict(sorted(out.items()))


def _first_figure(out: dict[int, Fraction], figs: Figs, nums: list[tuple[int, int]], rfigs: Figs,
                  rnums: list[tuple[int, int]], suit: int, weight: Fraction) -> None:
    if not sum(figs) and not nums and (sum(rfigs) or rnums):
        figs, nums, rfigs, rnums = rfigs, rnums, _NO_FIGS, []
    ends, chains = _after_first(figs, len(nums), rfigs, len(rnums), suit)
    _add(out, _finish(ends, nums, rnums, 0, first=True), weight)
    _add(out, _finish(chains, nums, rnums, 0), weight)


def score_distribution(
    value_dist: Mapping[int, Fraction], base: int, table: Sequence[Mapping[str, Any]] = D.SUCCESS_TABLE
) -> dict[str, Fraction]:
    """Chance of each success level for ``base + value`` (every level listed, worst first)."""
    out = {lv: Fraction(0) for lv in D.LEVELS}
    for v, p in value_dist.items():
        out[level_of(base + v, table)["level"]] += p
    return out
