"""Dice expressions: parse, roll with an explicit RNG, resolve from given die values.

Grammar (case-insensitive; spaces allowed between terms and signs, not inside a term)::

    expression := [sign] term (sign term)*          sign := "+" | "-"
    term       := constant | dice | special
    constant   := digits                            (|value| <= 100000)
    dice       := [count] "d" sides [keep]          (count 1..100, sides 2..1000)
    keep       := ("kh" | "kl" | "dh" | "dl" | "k") n
    special    := ["1"] "d66" | ["1"] "d100" | ["1"] "d%"

Readings chosen where the brief leaves room (they are the contract of the ``roll`` op):

* ``k3`` means ``kh3`` (keep the 3 highest). ``khK``/``klK`` need 1 <= K <= count;
  ``dhK``/``dlK`` need 0 <= K <= count - 1 (``dh0`` drops nothing; at least one die stays).
  The modifier is kept as written in the canonical text (``6d6dl2`` stays ``6d6dl2``).
* Ties: among dice showing the same value, the EARLIER die is kept first (so ``2d6kh1``
  on ``[4, 4]`` keeps the first 4 and marks the second one not kept).
* ``d66`` is not a 66-sided die: a tens d6 and a units d6, read 11..66 (Unicreon,
  004_12a5de9999b9d0ad.txt). ``d100``/``d%`` is two d10 read 00..99, tens then units
  (SYSTMJ, 000_d267ce9097809d3e.txt; reading: rules/README.md "00 is a critical failure").
  So a plain die with 66 or 100 faces cannot be written. ``2d66``/``3d100`` are refused
  with ``dice.special_count`` (write ``d66+d66``), a keep/drop after them with
  ``dice.special_keep``.
* Each d66 / d100 counts as TWO physical dice against the 100-dice bound.
* Canonical text: no spaces, lower case, a count of 1 is omitted (``d6``), ``d%`` becomes
  ``d100``, ``k`` becomes ``kh``, constants lose leading zeros; a leading ``+`` is dropped.

Bounds (so no page freezes): 200 characters, 20 terms, 100 dice, constants <= 100000.
Every malformed expression raises :class:`RulesError` with a ``dice.*`` code, nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RulesError, declare

__all__ = [
    "MAX_CONSTANT",
    "MAX_COUNT",
    "MAX_DICE",
    "MAX_LENGTH",
    "MAX_SIDES",
    "MAX_TERMS",
    "MIN_SIDES",
    "DieResult",
    "Expression",
    "Keep",
    "RollResult",
    "Term",
    "TermResult",
    "keep_flags",
    "parse",
    "resolve",
    "roll",
    "roll_values",
]

MAX_LENGTH = 200
MAX_TERMS = 20
MAX_DICE = 100
MAX_COUNT = 100
MIN_SIDES = 2
MAX_SIDES = 1000
MAX_CONSTANT = 100_000

declare(
    "dice.empty",
    "dice.too_long",
    "dice.syntax",
    "dice.incomplete",
    "dice.bad_count",
    "dice.bad_sides",
    "dice.bad_keep",
    "dice.special_count",
    "dice.special_keep",
    "dice.too_many_dice",
    "dice.too_many_terms",
    "dice.constant_too_large",
)

KEEP_MODES = ("kh", "kl", "dh", "dl")


@dataclass(frozen=True)
class Keep:
    """A keep/drop modifier: ``mode`` in kh, kl, dh, dl and its count ``n``."""

    mode: str
    n: int

    def kept(self, count: int) -> int:
        """How many of ``count`` dice stay."""
        return self.n if self.mode in ("kh", "kl") else count - self.n

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "n": self.n}


@dataclass(frozen=True)
class Term:
    """One signed term. ``kind`` is ``const``, ``dice``, ``d66`` or ``d100``.

    For ``const`` the magnitude is ``constant``; for ``dice`` ``count`` dice of ``sides``
    faces with an optional ``keep``; ``d66``/``d100`` need no other field.
    """

    kind: str
    sign: int = 1
    constant: int = 0
    count: int = 0
    sides: int = 0
    keep: Keep | None = None

    @property
    def text(self) -> str:
        if self.kind == "const":
            return str(self.constant)
        if self.kind in ("d66", "d100"):
            return self.kind
        head = f"{self.count}d{self.sides}" if self.count != 1 else f"d{self.sides}"
        return head + (f"{self.keep.mode}{self.keep.n}" if self.keep else "")

    @property
    def physical_dice(self) -> int:
        """Dice thrown for this term (d66 and d100 throw two)."""
        return {"const": 0, "d66": 2, "d100": 2}.get(self.kind, self.count)

    @property
    def kept(self) -> int:
        """Number of dice of this term that count (dice kind only)."""
        return self.keep.kept(self.count) if self.keep else self.count

    def _unsigned_range(self) -> tuple[int, int]:
        if self.kind == "const":
            return self.constant, self.constant
        if self.kind == "d66":
            return 11, 66
        if self.kind == "d100":
            return 0, 99
        return self.kept, self.kept * self.sides

    @property
    def min(self) -> int:
        low, high = self._unsigned_range()
        return low if self.sign > 0 else -high

    @property
    def max(self) -> int:
        low, high = self._unsigned_range()
        return high if self.sign > 0 else -low

    @property
    def faces(self) -> int:
        """Faces of each physical die of this term (0 for a constant)."""
        return {"const": 0, "d66": 6, "d100": 10}.get(self.kind, self.sides)

    @property
    def lowest_face(self) -> int:
        return 0 if self.kind == "d100" else 1


@dataclass(frozen=True)
class Expression:
    """A parsed, bounded dice expression."""

    terms: tuple[Term, ...]

    @property
    def canonical(self) -> str:
        out = []
        for i, term in enumerate(self.terms):
            if term.sign < 0:
                out.append("-")
            elif i:
                out.append("+")
            out.append(term.text)
        return "".join(out)

    @property
    def min(self) -> int:
        return sum(t.min for t in self.terms)

    @property
    def max(self) -> int:
        return sum(t.max for t in self.terms)

    @property
    def dice_count(self) -> int:
        return sum(t.physical_dice for t in self.terms)

    def __str__(self) -> str:
        return self.canonical


# ---------------------------------------------------------------- parsing


class _Scanner:
    def __init__(self, text: str) -> None:
        # ASCII-only lower-casing keeps positions aligned with the original text
        self.text = "".join(c.lower() if c.isascii() else c for c in text)
        self.pos = 0

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_spaces(self) -> None:
        while self.peek() and self.peek().isspace():
            self.pos += 1

    def error(self) -> RulesError:
        """The first character that does not fit, counted from 1 as a reader counts;
        ``dice.incomplete`` when the expression stops where more was expected."""
        if self.pos >= len(self.text):
            return RulesError("dice.incomplete", position=self.pos + 1)
        return RulesError("dice.syntax", position=self.pos + 1, found=self.peek())

    def digits(self) -> int | None:
        start = self.pos
        while self.peek() in "0123456789" and self.peek():
            self.pos += 1
        return int(self.text[start : self.pos]) if self.pos > start else None

    def startswith(self, word: str) -> bool:
        return self.text.startswith(word, self.pos)


def _parse_term(sc: _Scanner, sign: int) -> Term:
    count = sc.digits()
    if sc.peek() != "d":
        if count is None:
            raise sc.error()
        if count > MAX_CONSTANT:
            raise RulesError("dice.constant_too_large", value=count, max=MAX_CONSTANT)
        return Term("const", sign, constant=count)
    sc.pos += 1  # the "d"
    if sc.peek() == "%":
        sc.pos += 1
        sides = 100
    else:
        sides_or_none = sc.digits()
        if sides_or_none is None:
            raise sc.error()
        sides = sides_or_none
    keep = _parse_keep(sc)
    if sides in (66, 100):
        kind = f"d{sides}"
        if count is not None and count != 1:
            raise RulesError("dice.special_count", die=kind, count=count)
        if keep is not None:
            raise RulesError("dice.special_keep", die=kind)
        return Term(kind, sign)
    n = 1 if count is None else count
    if not 1 <= n <= MAX_COUNT:
        raise RulesError("dice.bad_count", count=n, min=1, max=MAX_COUNT)
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise RulesError("dice.bad_sides", sides=sides, min=MIN_SIDES, max=MAX_SIDES)
    if keep is not None:
        low, high = (1, n) if keep.mode in ("kh", "kl") else (0, n - 1)
        if not low <= keep.n <= high:
            raise RulesError("dice.bad_keep", mode=keep.mode, n=keep.n, min=low, max=high)
    return Term("dice", sign, count=n, sides=sides, keep=keep)


def _parse_keep(sc: _Scanner) -> Keep | None:
    for word in (*KEEP_MODES, "k"):
        if sc.startswith(word):
            sc.pos += len(word)
            n = sc.digits()
            if n is None:
                raise sc.error()
            return Keep("kh" if word == "k" else word, n)
    return None


def parse(expr: str) -> Expression:
    """Parse ``expr`` into an :class:`Expression`, or raise :class:`RulesError` (``dice.*``)."""
    if not isinstance(expr, str):
        raise RulesError("dice.syntax", position=1, found="")
    if len(expr) > MAX_LENGTH:
        raise RulesError("dice.too_long", length=len(expr), max=MAX_LENGTH)
    if not expr.strip():
        raise RulesError("dice.empty")
    sc = _Scanner(expr)
    terms: list[Term] = []
    sc.skip_spaces()
    sign = 1
    if sc.peek() in ("+", "-") and sc.peek():
        sign = -1 if sc.peek() == "-" else 1
        sc.pos += 1
        sc.skip_spaces()
    while True:
        terms.append(_parse_term(sc, sign))
        if len(terms) > MAX_TERMS:
            raise RulesError("dice.too_many_terms", count=len(terms), max=MAX_TERMS)
        sc.skip_spaces()
        nxt = sc.peek()
        if nxt == "":
            break
        if nxt not in "+-":
            raise sc.error()
        sign = -1 if nxt == "-" else 1
        sc.pos += 1
        sc.skip_spaces()
    expression = Expression(tuple(terms))
    if expression.dice_count > MAX_DICE:
        raise RulesError("dice.too_many_dice", count=expression.dice_count, max=MAX_DICE)
    return expression


# ---------------------------------------------------------------- resolving


@dataclass(frozen=True)
class DieResult:
    value: int
    kept: bool

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "kept": self.kept}


@dataclass(frozen=True)
class TermResult:
    term: Term
    dice: tuple[DieResult, ...]
    value: int  # signed subtotal

    def to_json(self) -> dict[str, Any]:
        t = self.term
        out: dict[str, Any] = {
            "kind": t.kind,
            "sign": t.sign,
            "text": t.text,
            "count": t.physical_dice,
            "sides": t.faces if t.kind != "const" else None,
            "keep": t.keep.to_json() if t.keep else None,
            "dice": [d.to_json() for d in self.dice],
            "value": self.value,
        }
        if t.kind == "d66":
            out["display"] = str(abs(self.value))
        elif t.kind == "d100":
            out["display"] = f"{abs(self.value):02d}"
        return out


@dataclass(frozen=True)
class RollResult:
    expression: Expression
    terms: tuple[TermResult, ...]

    @property
    def total(self) -> int:
        return sum(t.value for t in self.terms)

    @property
    def values(self) -> tuple[tuple[int, ...], ...]:
        """The raw die values per term, as :func:`resolve` takes them."""
        return tuple(tuple(d.value for d in t.dice) for t in self.terms)

    def to_json(self) -> dict[str, Any]:
        e = self.expression
        return {
            "expr": e.canonical,
            "total": self.total,
            "min": e.min,
            "max": e.max,
            "terms": [t.to_json() for t in self.terms],
        }


def keep_flags(values: Sequence[int], keep: Keep | None) -> list[bool]:
    """Which dice count under ``keep``; among equal values the earlier die is kept first."""
    n = len(values)
    if keep is None:
        return [True] * n
    kept = keep.kept(n)
    highest_first = keep.mode in ("kh", "dl")
    order = sorted(range(n), key=lambda i: (-values[i] if highest_first else values[i], i))
    chosen = set(order[:kept])
    return [i in chosen for i in range(n)]


def resolve(expression: Expression, values: Sequence[Sequence[int]]) -> RollResult:
    """The result of ``expression`` when its dice show ``values`` (one sequence per term).

    Constants take an empty sequence; d66 takes ``(tens, units)`` in 1..6; d100 takes
    ``(tens, units)`` in 0..9. Wrong shapes are a programming error (``ValueError``).
    """
    if len(values) != len(expression.terms):
        raise ValueError("one value sequence per term is needed")
    results = []
    for term, vals in zip(expression.terms, values, strict=True):
        vals = tuple(vals)
        if len(vals) != term.physical_dice:
            raise ValueError(f"{term.text} needs {term.physical_dice} dice, got {len(vals)}")
        low, high = term.lowest_face, term.lowest_face + term.faces - 1
        if any(not isinstance(v, int) or not low <= v <= high for v in vals):
            raise ValueError(f"die value out of {low}..{high} for {term.text}")
        if term.kind == "const":
            dice: tuple[DieResult, ...] = ()
            magnitude = term.constant
        elif term.kind in ("d66", "d100"):
            dice = tuple(DieResult(v, True) for v in vals)
            magnitude = 10 * vals[0] + vals[1]
        else:
            flags = keep_flags(vals, term.keep)
            dice = tuple(DieResult(v, f) for v, f in zip(vals, flags, strict=True))
            magnitude = sum(v for v, f in zip(vals, flags, strict=True) if f)
        results.append(TermResult(term, dice, term.sign * magnitude))
    return RollResult(expression, tuple(results))


def roll_values(expression: Expression, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Throw every die of ``expression`` in order (terms left to right) with ``rng``."""
    out = []
    for term in expression.terms:
        base = term.lowest_face
        out.append(tuple(base + rng.randrange(term.faces) for _ in range(term.physical_dice)))
    return tuple(out)


def roll(expression: Expression, rng: random.Random) -> RollResult:
    """Roll ``expression`` with ``rng``: :func:`roll_values` then :func:`resolve`."""
    return resolve(expression, roll_values(expression, rng))
