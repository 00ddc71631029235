"""Théorem's oppositions and chases on the table state: both sides draw from the MK's shared
deck as for a simple action (figure chains, every figure played unless a character's side plays
its own action), a side played by a character takes its base from the sheet (its sphere and
skill, as a test does), and an opposition between two players' characters is drawn side by
side, each by its own player (or by the MK).

Source: 003_0f8319d4d007e1fe.txt, "1) Les actions simples" (sphère + compétence), "3) Les
actions d'opposition" (oppositions, poursuites), "4) Les figures"; readings:
shared/rules/README.md (Théorem).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ... import cards
from ...errors import RulesError
from ...tree import clone
from . import data as D
from . import rules as R
from .state import _announce, _card, _chain_json, _may_announce

__all__ = [
    "auto_chain",
    "chase_begin",
    "chase_odds",
    "chase_round",
    "chase_side_done",
    "chase_start",
]


# --------------------------------------------------------------------------- chases
def auto_chain(deck: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """Draw a whole chain, every figure played (oppositions drawn at once), then discard it."""
    chain: list[str] = []
    events: list[dict[str, Any]] = []
    while True:
        deck, drawn, ev = cards.draw(deck, 1, rng, source="draw", to="play", refill="discard")
        events.extend(ev)
        if not drawn:
            break
        chain.append(drawn[0])
        if _card(drawn[0])["kind"] == "number":
            break
    deck = cards.move(deck, chain, "play", "discard")
    return deck, chain, events


def chase_start(state: dict[str, Any], a: dict[str, Any], b: dict[str, Any], target: int) -> dict[str, Any]:
    """Start a chase: each side's base (sphère + compétence) and starting bonus/malus; a side
    played by a character names it (``character_id``): its rounds are its own actions."""
    if state["chase"] is not None and state["chase"]["done"] is None:
        raise RulesError("theorem.chase.running")
    if any(p.get("chase") for p in state["pending"].values()):
        # a side's turn of the last chase is still announced: it must end (or be cancelled)
        # before a new chase, or its draw would count in the new chase's first round
        raise RulesError("theorem.chase.running")
    ids = [x["character_id"] for x in (a, b) if "character_id" in x]
    if len(set(ids)) != len(ids):
        raise RulesError("theorem.chase.side_character", side="b", character=ids[0])
    new = clone(state)
    new["chase"] = {
        "a": dict(a),
        "b": dict(b),
        "target": target,
        "total_a": 0,
        "total_b": 0,
        "rounds": [],
        "done": None,
    }
    return new


def chase_round(
    state: dict[str, Any], rng: random.Random, seed: int | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One round: both sides draw (a, then b) as for a simple action, every figure played;
    score = base + starting bonus + chase total + card; :func:`rules.chase_round` decides.
    Source: "3) Les actions d'opposition" (poursuite); reading: README, Théorem."""
    ch = _running_chase(state)
    if ch.get("current") or any("character_id" in ch[k] for k in ("a", "b")):
        # A character's side is an action like any other (chase_begin): never drawn for it.
        raise RulesError("theorem.chase.side_action")
    new = clone(state)
    events: list[dict[str, Any]] = []
    deck, ca, ev = auto_chain(new["deck"], rng)
    events += ev
    deck, cb, ev = auto_chain(deck, rng)
    events += ev
    new["deck"] = deck
    va = R.chain_value([_card(c) for c in ca])
    vb = R.chain_value([_card(c) for c in cb])
    sa = ch["a"]["base"] + ch["a"]["start"] + ch["total_a"] + va
    sb = ch["b"]["base"] + ch["b"]["start"] + ch["total_b"] + vb
    rec = R.chase_round(ch, sa, sb, new["success_table"])
    rec = {"cards_a": ca, "cards_b": cb, "value_a": va, "value_b": vb, **rec}
    if seed is not None:
        rec["seed"] = seed
    c2 = new["chase"]
    c2["rounds"].append(rec)
    c2["total_a"], c2["total_b"], c2["done"] = rec["total_a"], rec["total_b"], rec["done"]
    return new, {**rec, "chain_a": _chain_json(ca), "chain_b": _chain_json(cb), "events": events}


def _running_chase(state: dict[str, Any]) -> dict[str, Any]:
    ch = state["chase"]
    if ch is None:
        raise RulesError("theorem.chase.none")
    if ch["done"] is not None or len(ch["rounds"]) >= 100:
        raise RulesError("theorem.chase.over")
    return ch


def _side_base(ch: dict[str, Any], side: str) -> int:
    """A side's score before its card: base + starting bonus/malus + chase total (README)."""
    return ch[side]["base"] + ch[side]["start"] + ch[f"total_{side}"]


def chase_side_done(state: dict[str, Any], side: str, chain: list[str], value: int, score: int) -> dict[str, Any]:
    """A side's action of the round is over (mutates ``state``): its draw is recorded, and
    when both sides have drawn the round is settled by :func:`rules.chase_round`."""
    out: dict[str, Any] = {"done": True, "chase_side": side, "chain": _chain_json(chain), "value": value,
                           "score": score, "round": None}
    ch = state["chase"]
    if ch is None or ch["done"] is not None:  # the chase was closed meanwhile: the draw stands alone
        return out
    current = ch.setdefault("current", {})
    current[side] = {"cards": chain, "value": value, "score": score}
    if "a" in current and "b" in current:
        a, b = current["a"], current["b"]
        rec = R.chase_round(ch, a["score"], b["score"], state["success_table"])
        rec = {"cards_a": a["cards"], "cards_b": b["cards"], "value_a": a["value"], "value_b": b["value"], **rec}
        ch["rounds"].append(rec)
        ch["total_a"], ch["total_b"], ch["done"] = rec["total_a"], rec["total_b"], rec["done"]
        del ch["current"]
        out["round"] = rec
    return out


def chase_begin(
    state: dict[str, Any],
    side: str,
    character: dict[str, Any] | None,
    rng: random.Random,
    *,
    exploit: int = 0,
) -> tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any]]:
    """One side's turn in the current chase round.

    Source: "3) Les actions d'opposition": a chase round « se traite alors comme un tirage
    d'opposition classique », each side drawing as for a simple action ("1) Les actions
    simples"); "5) Les arcanes": « vous pouvez utiliser vos arcanes à tout moment où vous
    pourriez jouer une carte numérique »; "4) Les figures" (set aside, play a set-aside
    figure); "6) Accomplir un Exploit". So a side played by a character (``character_id``)
    is an action like any other: this announces it (the exploit's réalité is paid, +1
    each) with the side's score before its card as base, and the usual ops play it
    (``theorem.action.draw``/``figure``/``aside``, ``theorem.arcane.play`` for 10 or its
    effect, ``theorem.action.cancel``); when it ends, the round records its draw. A side
    with no character (an NPC, a beast) draws at once, every figure played, as the MK
    draws for it. Returns the state, the character (None for an NPC side) and the info.
    """
    ch = _running_chase(state)
    if side in ch.get("current", {}):
        raise RulesError("theorem.chase.side_drawn", side=side, name=ch[side]["name"])
    sd = ch[side]
    base = _side_base(ch, side)
    if "character_id" not in sd:
        new = clone(state)
        deck, chain, events = auto_chain(new["deck"], rng)
        new["deck"] = deck
        value = R.chain_value([_card(c) for c in chain])
        info = chase_side_done(new, side, chain, value, base + value)
        return new, None, {**info, "events": events}
    if character is None or character["id"] != sd["character_id"]:
        raise RulesError("theorem.chase.side_character", side=side, character=sd["character_id"])
    _may_announce(state, character, exploit, retest=False)
    new, paid = _announce(state, character, {
        "sphere": None,
        "skill": None,
        "sphere_level": 0,
        "skill_level": 0,
        "modifier": 0,
        "exploit": exploit,
        "retest": False,
        "base": base + exploit,
    }, chase=side)
    return new, paid, {"done": False, "chase_side": side, "pending": new["pending"][character["id"]]}


def _side_scores(state: dict[str, Any], side: str) -> dict[int, Fraction]:
    """The exact distribution of a side's score this round: known once it has drawn; else
    from the deck as it stands (its chain so far included, every later figure played)."""
    ch = state["chase"]
    current = ch.get("current", {})
    if side in current:
        return {current[side]["score"]: Fraction(1)}
    deck = state["deck"]
    remaining = R.deck_counts([deck["cards"][x] for x in deck["piles"]["draw"]["cards"]])
    refill = R.deck_counts([deck["cards"][x] for x in deck["piles"]["discard"]["cards"]])
    base = _side_base(ch, side)
    prefix: list[dict[str, Any]] = []
    cid = ch[side].get("character_id")
    p = state["pending"].get(cid) if cid else None
    if p is not None and p.get("chase") == side:
        base = p["base"]
        prefix = [deck["cards"][x] for x in p["chain"]]
        if p["awaiting"]:
            prefix.append(deck["cards"][p["awaiting"]])
    dist = R.chain_distribution(remaining, refill, prefix)
    return {base + v: q for v, q in dist.items()}


def chase_odds(state: dict[str, Any]) -> dict[str, Any]:
    """The odds of the current round, shown before each side draws.

    Each side's exact score distribution (its success levels with the table) from the deck
    as it stands, every figure played ("4) Les figures"; a figure set aside changes them).
    Once one side has drawn, the other side's draw decides the round alone: the exact
    chance of each side winning it (a strict tie changes no total, README). Before either
    side has drawn, both draws come from the same deck one after the other, so the two
    scores are not independent: ``round`` is None then (no product of the two marginals
    is shown as if it were exact)."""
    ch = _running_chase(state)
    table = state["success_table"]
    scores = {k: _side_scores(state, k) for k in ("a", "b")}
    current = ch.get("current", {})
    sides = {}
    for k in ("a", "b"):
        levels: dict[str, Fraction] = {row: Fraction(0) for row in D.LEVELS}
        for score, q in scores[k].items():
            levels[R.level_of(score, table)["level"]] += q
        sides[k] = {"drawn": k in current, "scores": scores[k], "levels": levels}
    rnd = None
    if current:
        a_wins = b_wins = tie = Fraction(0)
        for sa, qa in scores["a"].items():
            for sb, qb in scores["b"].items():
                if sa > sb:
                    a_wins += qa * qb
                elif sb > sa:
                    b_wins += qa * qb
                else:
                    tie += qa * qb
        rnd = {"a": a_wins, "b": b_wins, "tie": tie}
    return {"sides": sides, "round": rnd}
