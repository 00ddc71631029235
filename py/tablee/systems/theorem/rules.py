"""Théorem's pure rules: figure chains, the success table, oppositions, chases, exact odds.

Source: 003_0f8319d4d007e1fe.txt, "1) Les actions simples", "3) Les actions d'opposition",
"4) Les figures", "6) Accomplir un Exploit"; readings: shared/rules/README.md, Théorem.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
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


@lru_cache(maxsize=4096)
def _continuation(remaining: Counts, refill: Counts, last: int) -> tuple[tuple[int, Fraction], ...]:
    """Distribution of the signed sum of the cards still to come after a card of suit ``last``.

    Draws without replacement from ``remaining``; when it is empty the ``refill`` pile (the
    discard) is turned over (``cards.draw``), and the chain goes on until a numbered card.
    Memoized on the multiset of remaining cards by suit and kind.
    """
    if _size(remaining) == 0:
        if _size(refill) == 0:
            return ((0, Fraction(1)),)  # nothing left to draw: the chain stops
        remaining, refill = refill, tuple((0, ()) for _ in D.SUITS)
    total = _size(remaining)
    out: dict[int, Fraction] = {}
    for s, (figs, nums) in enumerate(remaining):
        sign = -1 if s == last else 1
        for v in nums:
            out[sign * v] = out.get(sign * v, Fraction(0)) + Fraction(1, total)
        if figs:
            p = Fraction(figs, total)
            rest = list(remaining)
            rest[s] = (figs - 1, nums)
            for tail, q in _continuation(tuple(rest), refill, s):
                key = sign * D.FIGURE_VALUE + tail
                out[key] = out.get(key, Fraction(0)) + p * q
    return tuple(sorted(out.items()))


def chain_distribution(
    remaining: Counts, refill: Counts | None = None, prefix: Sequence[Card] = ()
) -> dict[int, Fraction]:
    """Exact distribution of the value of the figure chain drawn from ``remaining``.

    Every figure is played (none set aside). ``prefix`` is the part of the chain already on
    the table (set-aside figures played first, or figures already drawn): the chain goes on
    from it. With an empty prefix the first card drawn is the first term.
    """
    empty: Counts = tuple((0, ()) for _ in D.SUITS)
    refill = refill if refill is not None else empty
    prefix = list(prefix)
    out: dict[int, Fraction] = {}
    if prefix and prefix[-1]["kind"] != "figure":
        return {chain_value(prefix): Fraction(1)}
    if len(prefix) >= 2:
        base = chain_value(prefix)
        last = D.SUITS.index(prefix[-1]["suit"])
        return {base + v: p for v, p in _continuation(remaining, refill, last)}
    if len(prefix) == 1:
        # The first figure's sign is the first comparison's: enumerate the next card.
        return _after_first_figure(remaining, refill, D.SUITS.index(prefix[0]["suit"]))
    rem, ref = remaining, refill
    if _size(rem) == 0:
        rem, ref = ref, empty
    total = _size(rem)
    if total == 0:
        return {}
    for s, (figs, nums) in enumerate(rem):
        for v in nums:
            out[v] = out.get(v, Fraction(0)) + Fraction(1, total)
        if figs:
            rest = list(rem)
            rest[s] = (figs - 1, nums)
            for v, q in _after_first_figure(tuple(rest), ref, s).items():
                out[v] = out.get(v, Fraction(0)) + Fraction(figs, total) * q
    return dict(sorted(out.items()))


def _after_first_figure(remaining: Counts, refill: Counts, first: int) -> dict[int, Fraction]:
    empty: Counts = tuple((0, ()) for _ in D.SUITS)
    if _size(remaining) == 0:
        if _size(refill) == 0:
            return {D.FIGURE_VALUE: Fraction(1)}
        remaining, refill = refill, empty
    total = _size(remaining)
    out: dict[int, Fraction] = {}
    for s, (figs, nums) in enumerate(remaining):
        sign = -1 if s == first else 1
        for v in nums:
            key = sign * (D.FIGURE_VALUE + v)
            out[key] = out.get(key, Fraction(0)) + Fraction(1, total)
        if figs:
            rest = list(remaining)
            rest[s] = (figs - 1, nums)
            for tail, q in _continuation(tuple(rest), refill, s):
                key = sign * 2 * D.FIGURE_VALUE + tail
                out[key] = out.get(key, Fraction(0)) + Fraction(figs, total) * q
    return dict(sorted(out.items()))


def score_distribution(
    value_dist: Mapping[int, Fraction], base: int, table: Sequence[Mapping[str, Any]] = D.SUCCESS_TABLE
) -> dict[str, Fraction]:
    """Chance of each success level for ``base + value`` (every level listed, worst first)."""
    out = {lv: Fraction(0) for lv in D.LEVELS}
    for v, p in value_dist.items():
        out[level_of(base + v, table)["level"]] += p
    return out
