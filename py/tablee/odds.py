"""Exact odds of a dice expression, computed with icepool.

Each term becomes an icepool ``Die``: ``NdS`` is the sum of a pool of N dS, with
``pool.highest(K)`` / ``pool.lowest(K)`` for keep/drop; ``d66`` is a die over the 36
values 11..16, 21..26, ..., 61..66, each 1/36 (Unicreon, 004_12a5de9999b9d0ad.txt);
``d100`` is uniform over 0..99 (SYSTMJ, 000_d267ce9097809d3e.txt). Terms are added.

Bounds (measured on CPython 3.11; the browser's Pyodide is a few times slower). An
expression that parses may still be refused here:

* ``dice.odds_too_large`` when the totals span more than :data:`MAX_SPAN` values
  (``100d20`` spans 1901 and takes about 1 s; ``2d1000`` spans 1999);
* ``dice.odds_keep_too_large`` when a keep/drop term has more than
  :data:`MAX_KEEP_SIDES` faces (icepool evaluates a pool face by face, recursively:
  ``2d1000kh1`` overflows the stack), or when the keep/drop terms together cost more than
  :data:`MAX_KEEP_COST`, cost = count × kept × sides² (measured: ``100d10kh50`` costs
  500 000 and takes 0.7 s, ``100d10kh90`` costs 900 000 and takes 4 s). A drop of 0
  (``dh0``) is a plain sum and costs nothing.

Probabilities leave as exact reduced fraction strings ``"num/den"`` plus a float percent.

icepool is imported inside the functions that build dice, not at module level: importing
this module (for :func:`fraction_text`, :func:`percent`, :func:`check_bounds`) costs nothing,
and the engine imports icepool on its first odds request (issue 14).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from .dice import Expression, Term
from .errors import RulesError, declare

if TYPE_CHECKING:
    import icepool

__all__ = [
    "MAX_KEEP_COST",
    "MAX_KEEP_SIDES",
    "MAX_SPAN",
    "check_bounds",
    "distribution",
    "fraction_text",
    "odds_json",
    "percent",
    "probability_at_least",
    "term_die",
]

MAX_SPAN = 2000
MAX_KEEP_SIDES = 100
MAX_KEEP_COST = 500_000

declare("dice.odds_too_large", "dice.odds_keep_too_large")



@cache
def _special_die(kind: str) -> icepool.Die:
    """The d66 and d100 dice, built once."""
    import icepool

    if kind == "d66":
        return icepool.Die([10 * tens + units for tens in range(1, 7) for units in range(1, 7)])
    return icepool.Die(list(range(100)))


def fraction_text(p: Fraction) -> str:
    """``Fraction(5, 54)`` -> ``"5/54"`` (always with a denominator, ``"0/1"``, ``"1/1"``)."""
    return f"{p.numerator}/{p.denominator}"


def percent(p: Fraction) -> float:
    """A display value: the probability in percent, 6 decimals."""
    return round(float(p * 100), 6)


def check_bounds(expression: Expression) -> None:
    """Raise the ``dice.odds_*`` error when computing ``expression`` would be too slow."""
    span = expression.max - expression.min + 1
    if span > MAX_SPAN:
        raise RulesError("dice.odds_too_large", span=span, max=MAX_SPAN)
    cost = 0
    for term in expression.terms:
        if not _is_keep(term):
            continue
        cost += term.count * term.kept * term.sides**2
        if term.sides > MAX_KEEP_SIDES or cost > MAX_KEEP_COST:
            raise RulesError(
                "dice.odds_keep_too_large",
                text=term.text,
                sides=term.sides,
                max_sides=MAX_KEEP_SIDES,
                cost=cost,
                max_cost=MAX_KEEP_COST,
            )


def _is_keep(term: Term) -> bool:
    """A dice term whose modifier really leaves some dice out."""
    return term.kind == "dice" and term.keep is not None and term.kept < term.count


def term_die(term: Term) -> icepool.Die:
    """The icepool die of one signed term."""
    import icepool

    if term.kind == "const":
        die = icepool.Die([term.constant])
    elif term.kind in ("d66", "d100"):
        die = _special_die(term.kind)
    elif not _is_keep(term) or term.keep is None:
        die = term.count @ icepool.d(term.sides)
    else:
        pool = icepool.d(term.sides).pool(term.count)
        keep = term.keep
        if keep.mode == "kh":
            die = pool.highest(keep.n).sum()
        elif keep.mode == "kl":
            die = pool.lowest(keep.n).sum()
        elif keep.mode == "dh":
            die = pool.lowest(term.count - keep.n).sum()
        else:  # "dl"
            die = pool.highest(term.count - keep.n).sum()
    return -die if term.sign < 0 else die


def distribution(expression: Expression) -> list[tuple[int, Fraction]]:
    """``[(total, probability), ...]`` sorted by total, non-zero outcomes only."""
    import icepool

    check_bounds(expression)
    total = icepool.Die([0])
    for term in expression.terms:
        total = total + term_die(term)
    den = total.denominator()
    return [(int(outcome), Fraction(q, den)) for outcome, q in sorted(total.items()) if q]


def probability_at_least(dist: list[tuple[int, Fraction]], n: int) -> Fraction:
    return sum((p for total, p in dist if total >= n), Fraction(0))


def odds_json(expression: Expression, *, at_least: int | None = None) -> dict[str, Any]:
    """The ``odds`` op's response for ``expression``."""
    dist = distribution(expression)
    mean = sum((total * p for total, p in dist), Fraction(0))
    out: dict[str, Any] = {
        "expr": expression.canonical,
        "min": expression.min,
        "max": expression.max,
        "mean": fraction_text(mean),
        "distribution": [
            {"total": total, "p": fraction_text(p), "percent": percent(p)} for total, p in dist
        ],
    }
    if at_least is not None:
        p = probability_at_least(dist, at_least)
        out["at_least"] = {"n": at_least, "p": fraction_text(p), "percent": percent(p)}
    return out
