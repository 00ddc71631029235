"""The shared card kernel: decks, piles, draws, visibility and exact draw odds.

Built for every card system of Tablée: Versality (a personal deck of outcome cards,
001_28decc945b538010.txt, "Créer son deck de résolution", "Fonctionnement d'un test"),
Théorem (22 arcana per player and a 56-card shared deck with its own discard,
003_0f8319d4d007e1fe.txt, "A) Au commencement") and SYSTMJ (item/power cards,
000_d267ce9097809d3e.txt, "4. LES CARTES DE JEU").

A **card state** is plain JSON, so it lives in the table document and a reload
restores the exact order::

    {"cards": {"<id>": {"id": "<id>", "kind": "<kind>", ...face fields (scalars)}},
     "piles": {"<pile>": {"cards": ["<id>", ...],      # index 0 is the top
                          "owner": "<owner id>" | null,
                          "visibility": "hidden" | "owner" | "public"}},
     "revealed": ["<id>", ...]}                       # cards turned face up to all

Every card id sits in exactly one pile; every operation conserves the cards. All
operations are pure (state in, new state out) and take an explicit ``rng`` when they
shuffle. A draw that finds its pile empty turns its refill pile (the discard) over,
shuffles it and goes on, reporting a ``{"type": "reshuffle", ...}`` event so the UI can
show it and systems can react (Versality raises the catastrophe scale; Théorem's
"Une fois les cartes du paquet épuisées, on retourne la défausse et l'on recommence").
When both piles are empty the draw stops short and reports ``{"type": "exhausted"}``.

Odds: a shuffled pile is a uniformly random order of its contents, so the odds of a
draw are those of drawing without replacement. :func:`hand_distribution` enumerates
every multiset of kinds exactly (multivariate hypergeometric); :func:`extreme_distribution`
gives the best/worst card of n drawn under an ordering; :func:`refill_extreme_distribution`
adds the mid-draw reshuffle. All return :class:`fractions.Fraction`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from math import comb
from typing import Any

from .errors import Problem, RulesError, declare
from .registry import SEED_SCHEMA, guard_state, op, rng_from
from .tree import clone

__all__ = [
    "CARD_DEF_SCHEMA",
    "CARD_STATE_SCHEMA",
    "DECK_AS_IT_STOOD_SCHEMA",
    "VISIBILITIES",
    "check_state",
    "counts_by_kind",
    "deck_as_it_stood",
    "discard",
    "draw",
    "ensure_pile",
    "expand",
    "extreme_distribution",
    "fraction_json",
    "hand_distribution",
    "move",
    "new_state",
    "refill_extreme_distribution",
    "require_valid",
    "return_to_deck",
    "reveal",
    "set_aside",
    "shuffle",
    "total_cards",
    "view",
]

declare(
    "cards.state.invalid",
    "cards.card.duplicate",
    "cards.card.unknown",
    "cards.card.not_in_pile",
    "cards.card.id_mismatch",
    "cards.pile.unknown",
    "cards.pile.exists",
    "cards.count.negative",
)

VISIBILITIES = ("hidden", "owner", "public")
MAX_CARDS = 200
MAX_PILES = 32

CARD_ID_SCHEMA: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 64}
PILE_NAME_SCHEMA: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": 64}
CARD_DEF_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": CARD_ID_SCHEMA,
        "kind": {"type": "string", "minLength": 1, "maxLength": 40},
    },
    "required": ["id", "kind"],
    "additionalProperties": {"type": ["string", "integer", "boolean", "null"], "maxLength": 200},
    "maxProperties": 16,
}
PILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "cards": {"type": "array", "items": CARD_ID_SCHEMA, "maxItems": MAX_CARDS},
        "owner": {"type": ["string", "null"], "maxLength": 64},
        "visibility": {"enum": list(VISIBILITIES)},
    },
    "required": ["cards", "visibility"],
    "additionalProperties": False,
}
CARD_STATE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "cards": {
            "type": "object",
            "propertyNames": CARD_ID_SCHEMA,
            "additionalProperties": CARD_DEF_SCHEMA,
            "maxProperties": MAX_CARDS,
        },
        "piles": {
            "type": "object",
            "propertyNames": PILE_NAME_SCHEMA,
            "additionalProperties": PILE_SCHEMA,
            "maxProperties": MAX_PILES,
        },
        "revealed": {"type": "array", "items": CARD_ID_SCHEMA, "maxItems": MAX_CARDS},
    },
    "required": ["cards", "piles"],
    "additionalProperties": False,
}

CardState = dict[str, Any]
Event = dict[str, Any]


# --------------------------------------------------------------------------- validity
def check_state(state: Any, *, field: str = "") -> list[Problem]:
    """Problems of an untrusted card state (never raises).

    Checks the shape (see module docstring) and the invariant: every defined card is in
    exactly one pile, every pile holds only defined cards, a definition's id is its key.
    """
    prefix = f"{field}." if field else ""
    problems: list[Problem] = []

    def bad(path: str, code: str = "cards.state.invalid", **params: Any) -> None:
        problems.append(Problem(f"{prefix}{path}".rstrip("."), code, params))

    if not isinstance(state, dict) or set(state) - {"cards", "piles", "revealed"}:
        bad("")
        return problems
    cards, piles = state.get("cards"), state.get("piles")
    if not isinstance(cards, dict) or len(cards) > MAX_CARDS:
        bad("cards")
        return problems
    if not isinstance(piles, dict) or len(piles) > MAX_PILES:
        bad("piles")
        return problems
    for cid, card in cards.items():
        if not isinstance(card, dict) or not isinstance(card.get("kind"), str) or not card["kind"]:
            bad(f"cards.{cid}")
        elif card.get("id") != cid:
            bad(f"cards.{cid}", "cards.card.id_mismatch", card=str(cid))
        elif len(card) > 16 or any(
            not isinstance(v, (str, int, bool, type(None))) or (isinstance(v, str) and len(v) > 200)
            for v in card.values()
        ):
            bad(f"cards.{cid}")
    seen: set[str] = set()
    for name, pile in piles.items():
        if not isinstance(name, str) or not name or len(name) > 64:
            bad("piles")
            continue
        if (
            not isinstance(pile, dict)
            or set(pile) - {"cards", "owner", "visibility"}
            or not isinstance(pile.get("cards"), list)
            or pile.get("visibility") not in VISIBILITIES
            or not isinstance(pile.get("owner"), (str, type(None)))
        ):
            bad(f"piles.{name}")
            continue
        for i, cid in enumerate(pile["cards"]):
            if not isinstance(cid, str):
                bad(f"piles.{name}.cards.{i}")
            elif cid in seen:
                bad(f"piles.{name}.cards.{i}", "cards.card.duplicate", card=cid)
            elif cid not in cards:
                bad(f"piles.{name}.cards.{i}", "cards.card.unknown", card=cid)
            else:
                seen.add(cid)
    missing = [cid for cid in cards if cid not in seen]
    if missing and not problems:
        bad("piles", "cards.card.not_in_pile", card=str(missing[0]))
    revealed = state.get("revealed", [])
    if not isinstance(revealed, list) or any(not isinstance(c, str) or c not in cards for c in revealed):
        bad("revealed")
    return problems


def require_valid(state: Any, *, field: str = "state") -> CardState:
    """Raise the first problem of ``state`` as a :class:`RulesError`; return it otherwise."""
    problems = check_state(state, field=field)
    if problems:
        p = problems[0]
        raise RulesError(p.code, field=p.field, **p.params)
    return state


guard_state(CARD_STATE_SCHEMA, require_valid)


# --------------------------------------------------------------------------- building
def expand(definitions: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Copies of card definitions: ``{"id": "x", "kind": "k", "copies": 3}`` gives x#1..x#3.

    A definition without ``copies`` stays one card with its own id.
    """
    out: list[dict[str, Any]] = []
    for d in definitions:
        n = d.get("copies")
        base = {k: v for k, v in d.items() if k != "copies"}
        if n is None:
            out.append(base)
        else:
            for i in range(1, int(n) + 1):
                out.append({**base, "id": f"{d['id']}#{i}"})
    return out


def new_state(
    definitions: Iterable[Mapping[str, Any]],
    *,
    pile: str = "draw",
    discard_pile: str | None = "discard",
    rng: random.Random | None = None,
) -> CardState:
    """A card state with every defined card in ``pile`` (shuffled when ``rng`` is given).

    ``pile`` is hidden; ``discard_pile`` (if any) is created empty and public.
    """
    listed = [dict(d) for d in definitions]
    defs = {str(d["id"]): d for d in listed}
    if len(defs) != len(listed):
        raise RulesError("cards.card.duplicate", card="")
    state: CardState = {
        "cards": defs,
        "piles": {pile: {"cards": list(defs), "owner": None, "visibility": "hidden"}},
        "revealed": [],
    }
    if discard_pile is not None and discard_pile != pile:
        state["piles"][discard_pile] = {"cards": [], "owner": None, "visibility": "public"}
    if rng is not None:
        state, _ = shuffle(state, pile, rng)
    return state


def ensure_pile(
    state: CardState, name: str, *, visibility: str = "public", owner: str | None = None
) -> CardState:
    """``state`` with pile ``name`` (created empty with this visibility/owner if missing)."""
    if name in state["piles"]:
        return state
    if visibility not in VISIBILITIES:
        raise RulesError("cards.state.invalid", field="visibility")
    new = clone(state)
    new["piles"][name] = {"cards": [], "owner": owner, "visibility": visibility}
    return new


def _pile(state: CardState, name: str) -> list[str]:
    pile = state["piles"].get(name)
    if pile is None:
        raise RulesError("cards.pile.unknown", pile=name)
    return pile["cards"]


# --------------------------------------------------------------------------- operations
def shuffle(state: CardState, pile: str, rng: random.Random) -> tuple[CardState, list[Event]]:
    """Shuffle one pile with ``rng.shuffle``."""
    new = clone(state)
    cards = _pile(new, pile)
    rng.shuffle(cards)
    return new, [{"type": "shuffle", "pile": pile, "count": len(cards)}]


def draw(
    state: CardState,
    n: int,
    rng: random.Random,
    *,
    source: str = "draw",
    to: str = "hand",
    refill: str | None = "discard",
) -> tuple[CardState, list[str], list[Event]]:
    """Draw ``n`` cards from the top of ``source`` into ``to``.

    When ``source`` is empty and more cards are needed, the ``refill`` pile is moved
    into it and shuffled (event ``reshuffle``); the cards already drawn stay drawn
    (Théorem's example: "il les prend puis retourne sa défausse afin de prendre les 3
    cartes du dessus"). If both are empty the draw stops short (event ``exhausted``).
    """
    if n < 0:
        raise RulesError("cards.count.negative", count=n)
    new = clone(state)
    src = _pile(new, source)
    dst = _pile(new, to)
    events: list[Event] = []
    drawn: list[str] = []
    while len(drawn) < n:
        if not src:
            back = _pile(new, refill) if refill is not None and refill != source else []
            if not back:
                events.append({"type": "exhausted", "pile": source, "missing": n - len(drawn)})
                break
            src.extend(back)
            back.clear()
            rng.shuffle(src)
            events.append({"type": "reshuffle", "pile": source, "from": refill, "count": len(src)})
        drawn.append(src.pop(0))
    dst.extend(drawn)
    return new, drawn, events


def move(state: CardState, ids: Sequence[str], src: str, dst: str, *, top: bool = False) -> CardState:
    """Move the given cards from ``src`` to ``dst`` (at its bottom, or its top)."""
    new = clone(state)
    a = _pile(new, src)
    b = _pile(new, dst)
    if len(set(ids)) != len(ids):
        raise RulesError("cards.card.duplicate", card=next(c for c in ids if list(ids).count(c) > 1))
    for cid in ids:
        if cid not in a:
            raise RulesError("cards.card.not_in_pile", card=cid, pile=src)
    if src == dst:
        return new
    for cid in ids:
        a.remove(cid)
    if top:
        b[0:0] = list(ids)
    else:
        b.extend(ids)
    return new


def discard(state: CardState, ids: Sequence[str], *, src: str = "hand", dst: str = "discard") -> CardState:
    """Put cards on the discard pile."""
    return move(state, ids, src, dst)


def set_aside(state: CardState, ids: Sequence[str], *, src: str = "hand", dst: str = "aside") -> CardState:
    """Set cards aside (Théorem's figures, SYSTMJ's cards in play): a public pile by default."""
    return move(ensure_pile(state, dst, visibility="public"), ids, src, dst)


def return_to_deck(
    state: CardState,
    ids: Sequence[str],
    *,
    src: str = "hand",
    dst: str = "draw",
    rng: random.Random | None = None,
) -> tuple[CardState, list[Event]]:
    """Put cards back into the deck; shuffle the deck when ``rng`` is given."""
    new = move(state, ids, src, dst)
    if rng is None:
        return new, []
    return shuffle(new, dst, rng)


def reveal(state: CardState, ids: Sequence[str], *, face_up: bool = True) -> CardState:
    """Turn cards face up to everyone (or back down)."""
    new = clone(state)
    for cid in ids:
        if cid not in new["cards"]:
            raise RulesError("cards.card.unknown", card=cid)
    revealed = [c for c in new.get("revealed", []) if c not in ids]
    if face_up:
        revealed.extend(dict.fromkeys(ids))
    new["revealed"] = revealed
    return new


#: A deck "as it stood" before a draw, as a roll log records it beside the draw's seed: the
#: draw pile (top first) and the discard (the refill a draw turns over when the pile runs out).
DECK_AS_IT_STOOD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "draw": {"type": "array", "items": CARD_ID_SCHEMA, "maxItems": MAX_CARDS},
        "discard": {"type": "array", "items": CARD_ID_SCHEMA, "maxItems": MAX_CARDS},
    },
    "required": ["draw", "discard"],
    "additionalProperties": False,
}


def deck_as_it_stood(
    definitions: Iterable[Mapping[str, Any]],
    draw_pile: Sequence[str],
    discard_pile: Sequence[str],
    *,
    rest: str = "play",
) -> CardState:
    """The card state a logged draw started from, to replay it with the logged seed.

    ``draw_pile`` (top first) and ``discard_pile`` are the two piles a draw reads (:func:`draw`
    takes from the top of the first and, when it runs out, turns the second over and shuffles
    it with the request's rng); every other defined card goes to ``rest``, a public pile no
    draw takes from. A card named twice or not among ``definitions`` is refused
    (``cards.card.duplicate``, ``cards.card.unknown``): the log is untrusted data.
    """
    listed = [dict(d) for d in definitions]
    defs = {str(d["id"]): d for d in listed}
    seen: set[str] = set()
    for cid in [*draw_pile, *discard_pile]:
        if cid not in defs:
            raise RulesError("cards.card.unknown", card=cid)
        if cid in seen:
            raise RulesError("cards.card.duplicate", card=cid)
        seen.add(cid)
    return {
        "cards": defs,
        "piles": {
            "draw": {"cards": list(draw_pile), "owner": None, "visibility": "hidden"},
            "discard": {"cards": list(discard_pile), "owner": None, "visibility": "public"},
            rest: {"cards": [c for c in defs if c not in seen], "owner": None, "visibility": "public"},
        },
        "revealed": [],
    }


def total_cards(state: CardState) -> int:
    """Cards in all piles together (conserved by every operation)."""
    return sum(len(p["cards"]) for p in state["piles"].values())


def counts_by_kind(state: CardState, pile: str) -> dict[str, int]:
    """How many cards of each kind a pile holds."""
    return dict(Counter(state["cards"][c]["kind"] for c in _pile(state, pile)))


def view(state: CardState, viewer: str | None = None) -> CardState:
    """What ``viewer`` may see: hidden cards become ``null`` and lose their definition.

    A card is visible when its pile is public, when its pile's visibility is ``owner``
    and ``viewer`` is that owner, or when it was revealed. Counts always show.
    """
    revealed = set(state.get("revealed", []))
    visible: set[str] = set()
    piles: dict[str, Any] = {}
    for name, pile in state["piles"].items():
        shown = pile["visibility"] == "public" or (
            pile["visibility"] == "owner" and viewer is not None and pile.get("owner") == viewer
        )
        ids = [c if shown or c in revealed else None for c in pile["cards"]]
        visible.update(c for c in ids if c is not None)
        piles[name] = {**pile, "cards": ids, "count": len(ids)}
    return {
        "cards": {c: d for c, d in state["cards"].items() if c in visible},
        "piles": piles,
        "revealed": [c for c in state.get("revealed", []) if c in visible],
    }


# --------------------------------------------------------------------------- exact odds
def fraction_json(p: Fraction) -> dict[str, Any]:
    """``{"fraction": "num/den", "percent": float}`` for the JSON door."""
    return {"fraction": f"{p.numerator}/{p.denominator}", "percent": round(float(p) * 100, 4)}


def hand_distribution(counts: Mapping[Hashable, int], n: int) -> dict[tuple[tuple[Any, int], ...], Fraction]:
    """Exact distribution of the multiset of kinds in ``n`` cards drawn without replacement.

    ``counts`` maps kind -> copies in the pile. Keys of the result are sorted
    ``((kind, k), ...)`` tuples (kinds with k = 0 left out). ``n`` above the pile size
    takes the whole pile.
    """
    kinds = [k for k, c in counts.items() if c > 0]
    total = sum(counts[k] for k in kinds)
    n = max(0, min(n, total))
    denom = comb(total, n)
    out: dict[tuple[tuple[Any, int], ...], Fraction] = {}

    def rec(i: int, left: int, ways: int, acc: list[tuple[Any, int]]) -> None:
        if i == len(kinds):
            if left == 0:
                key = tuple(sorted(acc, key=lambda kv: repr(kv[0])))
                out[key] = out.get(key, Fraction(0)) + Fraction(ways, denom)
            return
        rest = sum(counts[k] for k in kinds[i + 1 :])
        c = counts[kinds[i]]
        for k in range(max(0, left - rest), min(c, left) + 1):
            rec(i + 1, left - k, ways * comb(c, k), [*acc, (kinds[i], k)] if k else acc)

    rec(0, n, 1, [])
    return out


def extreme_distribution(
    counts: Mapping[Hashable, int], n: int, order: Sequence[Hashable], *, worst: bool
) -> dict[Any, Fraction]:
    """Distribution of the worst (or best) kind among ``n`` cards drawn without replacement.

    ``order`` lists the kinds from worst to best. P(worst ≥ r) = C(N≥r, n) / C(N, n),
    P(best ≤ r) = C(N≤r, n) / C(N, n). ``n`` is clipped to the pile size; an empty draw
    gives an empty distribution.
    """
    rank = {k: i for i, k in enumerate(order)}
    for k, c in counts.items():
        if c > 0 and k not in rank:
            raise RulesError("cards.card.unknown", card=str(k))
    total = sum(c for c in counts.values() if c > 0)
    n = min(n, total)
    if n <= 0:
        return {}
    denom = comb(total, n)
    by_rank = [max(0, counts.get(k, 0)) for k in order]
    out: dict[Any, Fraction] = {}
    if worst:
        # at_least[i] = cards of rank >= i
        at_least = [sum(by_rank[i:]) for i in range(len(order))] + [0]
        for i, k in enumerate(order):
            p = Fraction(comb(at_least[i], n) - comb(at_least[i + 1], n), denom)
            if p:
                out[k] = p
    else:
        at_most = [0] + [sum(by_rank[: i + 1]) for i in range(len(order))]
        for i, k in enumerate(order):
            p = Fraction(comb(at_most[i + 1], n) - comb(at_most[i], n), denom)
            if p:
                out[k] = p
    return out


def refill_extreme_distribution(
    pile_counts: Mapping[Hashable, int],
    refill_counts: Mapping[Hashable, int],
    n: int,
    order: Sequence[Hashable],
    *,
    worst: bool,
) -> dict[Any, Fraction]:
    """Like :func:`extreme_distribution` for a :func:`draw` that may reshuffle mid-draw.

    If the pile holds r < n cards, all r are drawn, then n − r come from the shuffled
    refill pile (clipped to its size).
    """
    rank = {k: i for i, k in enumerate(order)}
    for k, c in [*pile_counts.items(), *refill_counts.items()]:
        if c > 0 and k not in rank:
            raise RulesError("cards.card.unknown", card=str(k))
    r = sum(c for c in pile_counts.values() if c > 0)
    if n <= r:
        return extreme_distribution(pile_counts, n, order, worst=worst)
    fixed = [k for k, c in pile_counts.items() if c > 0]
    pick: Callable[..., Any] = min if worst else max
    fixed_extreme = pick(fixed, key=rank.__getitem__) if fixed else None
    rest = extreme_distribution(refill_counts, n - r, order, worst=worst)
    if not rest:
        return {fixed_extreme: Fraction(1)} if fixed_extreme is not None else {}
    if fixed_extreme is None:
        return rest
    out: dict[Any, Fraction] = {}
    for k, p in rest.items():
        e = pick((k, fixed_extreme), key=rank.__getitem__)
        out[e] = out.get(e, Fraction(0)) + p
    return out


# --------------------------------------------------------------------------- API ops
_PILE_REF = {"type": "string", "minLength": 1, "maxLength": 64}


@op(
    "cards.deck.new",
    properties={
        "definitions": {"type": "array", "items": CARD_DEF_SCHEMA, "minItems": 1, "maxItems": 120},
        "pile": _PILE_REF,
        "seed": SEED_SCHEMA,
    },
    required=("definitions", "seed"),
    summary="A card state with every defined card shuffled into one hidden pile, plus an empty discard.",
)
def _op_new(request: dict[str, Any]) -> dict[str, Any]:
    defs = request["definitions"]
    ids = [d["id"] for d in defs]
    if len(set(ids)) != len(ids):
        raise RulesError("cards.card.duplicate", card=next(i for i in ids if ids.count(i) > 1))
    state = new_state(defs, pile=request.get("pile", "draw"), rng=rng_from(request))
    return {"seed": request["seed"], "state": state}


@op(
    "cards.shuffle",
    properties={"state": CARD_STATE_SCHEMA, "pile": _PILE_REF, "seed": SEED_SCHEMA},
    required=("state", "pile", "seed"),
    summary="Shuffle one pile.",
)
def _op_shuffle(request: dict[str, Any]) -> dict[str, Any]:
    state = require_valid(request["state"])
    new, events = shuffle(state, request["pile"], rng_from(request))
    return {"seed": request["seed"], "state": new, "events": events}


@op(
    "cards.draw",
    properties={
        "state": CARD_STATE_SCHEMA,
        "count": {"type": "integer", "minimum": 0, "maximum": MAX_CARDS},
        "source": _PILE_REF,
        "to": _PILE_REF,
        "refill": {"type": ["string", "null"], "minLength": 1, "maxLength": 64},
        "seed": SEED_SCHEMA,
    },
    required=("state", "count", "seed"),
    summary="Draw cards from a pile's top into another; an empty pile reshuffles its refill pile (event).",
)
def _op_draw(request: dict[str, Any]) -> dict[str, Any]:
    state = require_valid(request["state"])
    new, drawn, events = draw(
        state,
        request["count"],
        rng_from(request),
        source=request.get("source", "draw"),
        to=request.get("to", "hand"),
        refill=request.get("refill", "discard"),
    )
    return {"seed": request["seed"], "state": new, "drawn": drawn, "events": events}


@op(
    "cards.move",
    properties={
        "state": CARD_STATE_SCHEMA,
        "cards": {"type": "array", "items": CARD_ID_SCHEMA, "maxItems": MAX_CARDS},
        "from": _PILE_REF,
        "to": _PILE_REF,
        "top": {"type": "boolean"},
        "create": {"enum": list(VISIBILITIES)},
        "owner": {"type": ["string", "null"], "maxLength": 64},
    },
    required=("state", "cards", "from", "to"),
    summary="Move cards between piles (discard, set aside, return); 'create' makes the target pile.",
)
def _op_move(request: dict[str, Any]) -> dict[str, Any]:
    state = require_valid(request["state"])
    if "create" in request:
        if request["to"] in state["piles"]:
            raise RulesError("cards.pile.exists", pile=request["to"])
        state = ensure_pile(state, request["to"], visibility=request["create"], owner=request.get("owner"))
    new = move(state, request["cards"], request["from"], request["to"], top=request.get("top", False))
    return {"state": new}


@op(
    "cards.view",
    properties={"state": CARD_STATE_SCHEMA, "viewer": {"type": ["string", "null"], "maxLength": 64}},
    required=("state",),
    summary="The state as one viewer sees it: hidden cards are null, counts stay.",
)
def _op_view(request: dict[str, Any]) -> dict[str, Any]:
    state = require_valid(request["state"])
    return {"view": view(state, request.get("viewer"))}


@op(
    "cards.odds.extreme",
    properties={
        "state": CARD_STATE_SCHEMA,
        "pile": _PILE_REF,
        "refill": {"type": ["string", "null"], "minLength": 1, "maxLength": 64},
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_CARDS},
        "order": {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": 40},
            "minItems": 1,
            "maxItems": 64,
            "uniqueItems": True,
        },
        "worst": {"type": "boolean"},
    },
    required=("state", "count", "order", "worst"),
    summary="Exact distribution of the worst/best kind (order: worst to best) among count cards drawn.",
)
def _op_odds_extreme(request: dict[str, Any]) -> dict[str, Any]:
    state = require_valid(request["state"])
    pile = request.get("pile", "draw")
    refill = request.get("refill", "discard")
    pile_counts = counts_by_kind(state, pile)
    refill_counts = counts_by_kind(state, refill) if refill is not None and refill in state["piles"] else {}
    if refill == pile:
        refill_counts = {}
    dist = refill_extreme_distribution(
        pile_counts, refill_counts, request["count"], request["order"], worst=request["worst"]
    )
    return {
        "distribution": [{"kind": k, **fraction_json(dist[k])} for k in request["order"] if k in dist],
    }
