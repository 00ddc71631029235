"""Théorem's pure rules: figure chains, the success table, oppositions, chases, exact odds.

Source: 003_0f8319d4d007e1fe.txt, "1) Les actions simples", "3) Les actions d'opposition",
"4) Les figures", "6) Accomplir un Exploit"; readings: shared/rules/README.md, Théorem.
"""

from __future__ import annotations

import math
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


Figs = tuple[int, int, int, int]
_NO_FIGS: Figs = (0, 0, 0, 0)
_EMPTY: Counts = tuple((0, ()) for _ in D.SUITS)


def _split(counts: Counts) -> tuple[Figs, list[tuple[int, int]]]:
    figs = tuple(f for f, _ in counts)
    nums = [(s, v) for s, (_, values) in enumerate(counts) for v in values]
    return figs, nums  # type: ignore[return-value]


def _forward(
    starts: list[tuple[Figs, int, bool, int]],
    den0: int,
    nums: list[tuple[int, int]],
    rfigs: Figs,
    rnums: list[tuple[int, int]],
    shift: int,
) -> dict[int, Fraction]:
    """The chain going on from ``starts`` — (figures left by suit, suit of the card just
    played, whether that card is the lone first figure still waiting for its sign, weight
    over ``den0``) — drawing without replacement until a numbered card.

    Forward over the number of figures drawn: every state at one depth and phase has drawn
    from piles of the same size, so the weights stay integers over one denominator per depth
    and phase; a state is only the figures left and the suit of the last card (the sum of
    figure terms so far is the distribution it carries). When the draw pile is empty the
    discard is turned over (phase 1, ``rfigs``/``rnums``); with nothing left the chain stops.
    """
    pools = (nums, rnums)
    terms_cache: dict[tuple[int, int, bool], dict[int, int]] = {}

    def terms(phase: int, last: int, first: bool) -> dict[int, int]:
        key = (phase, last, first)
        if key not in terms_cache:
            out: dict[int, int] = {}
            for suit, value in pools[phase]:
                sign = -1 if suit == last else 1
                t = sign * value + (sign * D.FIGURE_VALUE if first else 0)
                out[t] = out.get(t, 0) + 1
            terms_cache[key] = out
        return terms_cache[key]

    # den -> {chain value: weight over den}: integer sums in the loops, one Fraction per
    # (den, value) at the end (Fraction additions dominated the time; issue 14)
    by_den: dict[int, dict[int, int]] = {}
    # frontier[phase]: (figs, last, first) -> {sum of figure terms: weight}, over dens[phase]
    frontier: list[dict[tuple[Figs, int, bool], dict[int, int]]] = [{}, {}]
    dens = [den0, den0]
    for figs, last, first, w in starts:
        frontier[0].setdefault((figs, last, first), {})
        frontier[0][(figs, last, first)][0] = frontier[0][(figs, last, first)].get(0, 0) + w
    while frontier[0] or frontier[1]:
        nxt: list[dict[tuple[Figs, int, bool], dict[int, int]]] = [{}, {}]
        new_dens = list(dens)
        for phase in (0, 1):
            # states whose pile is empty: turn the discard over (phase 0) or stop
            for state in [st for st in frontier[phase] if sum(st[0]) + len(pools[phase]) == 0]:
                figs, last, first = state
                kd = frontier[phase].pop(state)
                if phase == 0 and (sum(rfigs) + len(rnums)):
                    if frontier[1] and dens[1] != dens[0]:
                        raise AssertionError("phases out of step")  # pragma: no cover
                    dens[1] = dens[0]
                    tgt = frontier[1].setdefault((rfigs, last, first), {})
                    for k, w in kd.items():
                        tgt[k] = tgt.get(k, 0) + w
                else:
                    acc = by_den.setdefault(dens[phase], {})
                    for k, w in kd.items():
                        v = k + shift + (D.FIGURE_VALUE if first else 0)
                        acc[v] = acc.get(v, 0) + w
            if not frontier[phase]:
                continue
            n_num = len(pools[phase])
            total = sum(next(iter(frontier[phase]))[0]) + n_num
            den = dens[phase] * total
            ends: dict[tuple[int, bool], dict[int, int]] = {}
            for (figs, last, first), kd in frontier[phase].items():
                if n_num:
                    acc = ends.setdefault((last, first), {})
                    for k, w in kd.items():
                        acc[k] = acc.get(k, 0) + w
                for s in range(4):
                    c = figs[s]
                    if not c:
                        continue
                    sign = -1 if s == last else 1
                    head = sign * D.FIGURE_VALUE * (2 if first else 1)
                    rest = list(figs)
                    rest[s] -= 1
                    tgt = nxt[phase].setdefault((tuple(rest), s, False), {})  # type: ignore[arg-type]
                    for k, w in kd.items():
                        tgt[k + head] = tgt.get(k + head, 0) + w * c
            acc = by_den.setdefault(den, {})
            for (last, first), kd in ends.items():
                tms = terms(phase, last, first)
                for k, w in kd.items():
                    base = k + shift
                    for t, c in tms.items():
                        acc[base + t] = acc.get(base + t, 0) + w * c
            new_dens[phase] = den
        frontier = nxt
        dens = new_dens
    common = math.lcm(*by_den) if by_den else 1
    numerators: dict[int, int] = {}
    for den, weights in by_den.items():
        scale = common // den
        for v, w in weights.items():
            numerators[v] = numerators.get(v, 0) + w * scale
    return {v: Fraction(n, common) for v, n in numerators.items() if n}


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
    key = tuple((c["kind"], c["suit"], int(c["value"])) for c in prefix)
    return dict(_chain_cached(remaining, refill, key))


@lru_cache(maxsize=64)
def _chain_cached(
    remaining: Counts, refill: Counts, prefix_key: tuple[tuple[str, str, int], ...]
) -> tuple[tuple[int, Fraction], ...]:
    """:func:`chain_distribution`, memoized on the multisets of the draw pile and the discard
    (by suit and kind) and the chain on the table: the odds of one deck are computed once,
    whatever the sphere, skill, modifiers or exploit asked about."""
    prefix = [{"kind": k, "suit": s, "value": v} for k, s, v in prefix_key]
    if prefix and prefix[-1]["kind"] != "figure":
        return ((chain_value(prefix), Fraction(1)),)
    figs, nums = _split(remaining)
    rfigs, rnums = _split(refill)
    if prefix:
        last = D.SUITS.index(prefix[-1]["suit"])
        first = len(prefix) == 1
        shift = 0 if first else chain_value(prefix)
        return tuple(sorted(_forward([(figs, last, first, 1)], 1, nums, rfigs, rnums, shift).items()))
    # The first card: a numbered card is the value; a figure starts a chain.
    if not nums and not sum(figs):
        figs, nums, rfigs, rnums = rfigs, rnums, _NO_FIGS, []
    total = len(nums) + sum(figs)
    if total == 0:
        return ()
    out: dict[int, Fraction] = {}
    for _, v in nums:
        out[v] = out.get(v, Fraction(0)) + Fraction(1, total)
    starts = []
    for s in range(4):
        if figs[s]:
            rest = list(figs)
            rest[s] -= 1
            starts.append((tuple(rest), s, True, figs[s]))
    for v, p in _forward(starts, total, nums, rfigs, rnums, 0).items():  # type: ignore[arg-type]
        out[v] = out.get(v, Fraction(0)) + p
    return tuple(sorted(out.items()))


def score_distribution(
    value_dist: Mapping[int, Fraction], base: int, table: Sequence[Mapping[str, Any]] = D.SUCCESS_TABLE
) -> dict[str, Fraction]:
    """Chance of each success level for ``base + value`` (every level listed, worst first)."""
    out = {lv: Fraction(0) for lv in D.LEVELS}
    for v, p in value_dist.items():
        out[level_of(base + v, table)["level"]] += p
    return out
