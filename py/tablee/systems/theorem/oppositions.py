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
from . import announce as A
from . import data as D
from . import rules as R

__all__ = [
    "auto_chain",
    "chase_begin",
    "chase_odds",
    "chase_round",
    "chase_side_done",
    "chase_start",
    "opposition_cancel",
    "opposition_draw",
    "opposition_odds",
    "opposition_side",
    "opposition_start",
    "sheet_side",
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
        if A.card(drawn[0])["kind"] == "number":
            break
    deck = cards.move(deck, chain, "play", "discard")
    return deck, chain, events


def chase_start(state: dict[str, Any], a: dict[str, Any], b: dict[str, Any], target: int,
                sheets: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Start a chase: each side's base (sphère + compétence: from the sheet for a side naming its
    sphere, :func:`sheet_side`) and starting bonus/malus; a side played by a character names it
    (``character_id``): its rounds are its own actions, from that base."""
    if state["chase"] is not None and state["chase"]["done"] is None:
        raise RulesError("theorem.chase.running")
    if any(p.get("chase") for p in state["pending"].values()):
        # a side's turn of the last chase is still announced: it must end (or be cancelled)
        # before a new chase, or its draw would count in the new chase's first round
        raise RulesError("theorem.chase.running")
    a, b = sheet_side(a, sheets or {}, "a"), sheet_side(b, sheets or {}, "b")
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
    va = R.chain_value([A.card(c) for c in ca])
    vb = R.chain_value([A.card(c) for c in cb])
    sa = ch["a"]["base"] + ch["a"]["start"] + ch["total_a"] + va
    sb = ch["b"]["base"] + ch["b"]["start"] + ch["total_b"] + vb
    rec = R.chase_round(ch, sa, sb, new["success_table"])
    rec = {"cards_a": ca, "cards_b": cb, "value_a": va, "value_b": vb, **rec}
    if seed is not None:
        rec["seed"] = seed
    c2 = new["chase"]
    c2["rounds"].append(rec)
    c2["total_a"], c2["total_b"], c2["done"] = rec["total_a"], rec["total_b"], rec["done"]
    return new, {**rec, "chain_a": A.chain_json(ca), "chain_b": A.chain_json(cb), "events": events}


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
    out: dict[str, Any] = {"done": True, "chase_side": side, "chain": A.chain_json(chain), "value": value,
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
        value = R.chain_value([A.card(c) for c in chain])
        info = chase_side_done(new, side, chain, value, base + value)
        return new, None, {**info, "events": events}
    if character is None or character["id"] != sd["character_id"]:
        raise RulesError("theorem.chase.side_character", side=side, character=sd["character_id"])
    A.may_announce(state, character, exploit, retest=False)
    new, paid = A.announce(state, character, {
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


# --------------------------------------------------------------------------- oppositions
def sheet_side(side: dict[str, Any], sheets: dict[str, dict[str, Any]], key: str) -> dict[str, Any]:
    """A side as it faces off: a side naming a ``sphere`` is played by its character and takes
    its base from the sheet, the sphere's level plus the skill's (none: 0), as a simple action
    does ("1) Les actions simples": « sphère + compétence »; "3) Les actions d'opposition": each
    side draws « comme pour une action simple »). ``sheets`` maps a character id to its record
    (the MJ's, at a live table). A side with no sphere keeps the base the table typed (an NPC, a
    beast, or a figure the MK sets by hand)."""
    out = dict(side)
    if "sphere" not in side:
        out.pop("skill", None)
        return out
    sheet = sheets.get(side.get("character_id", ""))
    if sheet is None:
        raise RulesError("theorem.opposition.sheet", side=key)
    skill = side.get("skill")
    out["skill"] = skill
    out["base"] = sheet["spheres"][side["sphere"]] + A.skill_level(sheet, skill)
    return out


def _sides(a: dict[str, Any], b: dict[str, Any], sheets: dict[str, dict[str, Any]]) -> tuple[dict, dict]:
    sa, sb = sheet_side(a, sheets, "a"), sheet_side(b, sheets, "b")
    if "character_id" in sa and sa.get("character_id") == sb.get("character_id"):
        raise RulesError("theorem.opposition.same", side="b")
    return sa, sb


def _result(ch_a: list[str], ch_b: list[str], a: dict[str, Any], b: dict[str, Any],
            table: list[dict[str, Any]]) -> dict[str, Any]:
    va = R.chain_value([A.card(x) for x in ch_a])
    vb = R.chain_value([A.card(x) for x in ch_b])
    sa, sb = a["base"] + a["start"] + va, b["base"] + b["start"] + vb
    return {**R.opposition(sa, sb, table), "score_a": sa, "score_b": sb, "value_a": va, "value_b": vb,
            "base_a": a["base"], "base_b": b["base"], "chain_a": A.chain_json(ch_a), "chain_b": A.chain_json(ch_b)}


def opposition_draw(state: dict[str, Any], a: dict[str, Any], b: dict[str, Any], rng: random.Random,
                    sheets: dict[str, dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both sides draw at once from the shared deck, a then b, every figure played, and face
    off (score = base + starting bonus/malus + the chain's value). Source: "3) Les actions
    d'opposition"; a character's base from its sheet (:func:`sheet_side`)."""
    a, b = _sides(a, b, sheets)
    new = clone(state)
    deck, ca, ev_a = auto_chain(new["deck"], rng)
    deck, cb, ev_b = auto_chain(deck, rng)
    new["deck"] = deck
    return new, {**_result(ca, cb, a, b, new["success_table"]), "events": ev_a + ev_b}


def opposition_odds(state: dict[str, Any], a: dict[str, Any], b: dict[str, Any],
                    sheets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Before the draw: each side's base and its exact chance of each success level.

    Side a draws first from the deck as it stands (:func:`rules.chain_distribution`). Side b
    draws the chain that follows; in a shuffled pile the run of cards after the first numbered
    card is distributed as the run before it (the gaps a random order leaves between numbered
    cards are exchangeable, and so are the figures in them), so its chain has the same exact
    law while the draw pile holds both chains; once the pile may run out within them, the
    discard turned over changes b's law a little and b's figures are those of the deck as it
    stands. Who wins is not shown before the draw: the two chains come from one deck, so the
    product of the two laws would not be exact (as for a chase round, :func:`chase_odds`)."""
    a, b = _sides(a, b, sheets)
    deck = state["deck"]
    remaining = R.deck_counts([deck["cards"][x] for x in deck["piles"]["draw"]["cards"]])
    refill = R.deck_counts([deck["cards"][x] for x in deck["piles"]["discard"]["cards"]])
    dist = R.chain_distribution(remaining, refill)
    out = {}
    for key, side in (("a", a), ("b", b)):
        levels = R.score_distribution(dist, side["base"] + side["start"], state["success_table"])
        out[key] = {"base": side["base"], "start": side["start"], "levels": levels}
    return out


def _open_opposition(state: dict[str, Any]) -> dict[str, Any]:
    op = state.get("opposition")
    if op is None or op["result"] is not None:
        raise RulesError("theorem.opposition.none")
    return op


def opposition_start(state: dict[str, Any], a: dict[str, Any], b: dict[str, Any],
                     sheets: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """An opposition drawn side by side: its two sides are set now (a character's base from its
    sheet), and each side draws when its player does (:func:`opposition_side`), or the MK for
    it. This is the opposition between two players' characters at a live table: each hand
    draws its own card ("3) Les actions d'opposition": each side « tire une carte »). One at a
    time: another waiting for a draw is refused (``theorem.opposition.pending``)."""
    held = state.get("opposition")
    if held is not None and held["result"] is None:
        raise RulesError("theorem.opposition.pending", a=held["a"]["name"], b=held["b"]["name"])
    a, b = _sides(a, b, sheets)
    new = clone(state)
    new["opposition"] = {"a": a, "b": b, "current": {}, "result": None}
    return new


def opposition_side(state: dict[str, Any], side: str, rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    """One side of the waiting opposition draws its chain (every figure played); once both have,
    the opposition is settled (:func:`rules.opposition`) and its result kept in the state for
    every device to show until the next one starts."""
    op = _open_opposition(state)
    if side in op["current"]:
        raise RulesError("theorem.opposition.side_drawn", side=side, name=op[side]["name"])
    new = clone(state)
    deck, chain, events = auto_chain(new["deck"], rng)
    new["deck"] = deck
    sd = op[side]
    value = R.chain_value([A.card(c) for c in chain])
    score = sd["base"] + sd["start"] + value
    held = new["opposition"]
    held["current"][side] = {"cards": chain, "value": value, "score": score}
    info: dict[str, Any] = {"side": side, "chain": A.chain_json(chain), "value": value, "score": score,
                            "events": events, "result": None}
    if "a" in held["current"] and "b" in held["current"]:
        res = _result(held["current"]["a"]["cards"], held["current"]["b"]["cards"], held["a"], held["b"],
                      new["success_table"])
        held["result"] = {"winner": res["winner"], "score_a": res["score_a"], "score_b": res["score_b"],
                          "level_a": res["a"]["level"], "level_b": res["b"]["level"]}
        info["result"] = res
    return new, info


def opposition_cancel(state: dict[str, Any]) -> dict[str, Any]:
    """The waiting opposition is called off (a side already drawn keeps its cards in the
    discard: a card drawn is never put back)."""
    _open_opposition(state)
    new = clone(state)
    new["opposition"] = None
    return new
