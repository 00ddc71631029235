"""The Théorem table state (``document["systems"]["theorem"]``): the tarot table and actions.

Source: 003_0f8319d4d007e1fe.txt, "A) Au commencement", "1) Les actions simples",
"2) Le re-test", "4) Les figures", "5) Les arcanes", "6) Accomplir un Exploit";
readings: shared/rules/README.md (Théorem). Shape::

    {"deck": <card state: piles draw (hidden), discard, play, aside (public)>,
     "aside": {"<character id>": ["<card id>", ...]},      # figures set aside, by player
     "arcana": {"<owner>": <card state: piles draw (hidden), hand (owner only), discard, ka>},
     "hand_size": {"<owner>": int},     # the starting hand size, redrawn when the hand is empty
     "success_table": [{"level", "min", "cases", "bonus"} x3],   # MK-editable
     "effects": ["<free text>" x22],    # each arcane's effect, editable by the table
     "turn": int, "arcane_turn": {"<character id>": int},
     "fails": {"<character id>": {"skill": str, "count": int}},
     "pending": {"<character id>": <action in progress>},
     "chase": null | <chase tracker>,
     "opposition": null | <an opposition drawn side by side>}   # optional (oppositions.py)

The MK's arcana deck is the owner :data:`MK` (``"@mk"``; character ids come from the app
and never start with ``@``). Cards are conserved: every numbered card is in exactly one
pile of ``deck``; the ``play`` pile holds exactly the chains of the pending actions; the
``aside`` pile exactly the figures listed in ``aside``.
"""

from __future__ import annotations

import random
from typing import Any

from ... import cards
from ...errors import Problem, RulesError, declare
from ...schema import compiled, shape_problems
from ...tree import clone
from . import announce as A
from . import data as D
from . import rules as R
from .oppositions import chase_side_done
from .schemas import MAX_PLAYERS, STATE_SCHEMA

__all__ = [
    "MK",
    "arcane_play",
    "begin_action",
    "card_name",
    "draw_action",
    "draw_hand",
    "figure_choice",
    "new_state",
    "play_aside",
    "player_view",
    "require_state",
    "retest_status",
    "validate_state",
]

declare(
    "theorem.state.invalid",
    "theorem.action.pending",
    "theorem.action.none",
    "theorem.action.awaiting",
    "theorem.action.not_awaiting",
    "theorem.action.already_drawn",
    "theorem.action.cancel_drawn",
    "theorem.action.aside_full",
    "theorem.action.not_aside",
    "theorem.action.unknown_skill",
    "theorem.exploit.too_many",
    "theorem.exploit.retest",
    "theorem.realite.not_enough",
    "theorem.arcane.per_turn",
    "theorem.arcane.not_in_hand",
    "theorem.arcane.value_after_draw",
    "theorem.hand.not_empty",
    "theorem.hand.no_deck",
    "theorem.chase.none",
    "theorem.chase.over",
    "theorem.chase.running",
    "theorem.chase.side_drawn",
    "theorem.chase.side_character",
    "theorem.chase.side_action",
    "theorem.opposition.sheet",
    "theorem.opposition.pending",
    "theorem.opposition.none",
    "theorem.opposition.side_drawn",
    "theorem.opposition.same",
    "theorem.table.bad",
    "theorem.deck.exhausted",
)

MK = "@mk"
DECK_PILES = ("draw", "discard", "play", "aside")
ARCANA_PILES = ("draw", "hand", "discard", "ka")

#: The very schema every Théorem op's request holds (schema.share): one validator for both (the
#: "$schema" the copy named chose the same fastjsonschema draft as none does).
_shape = compiled(STATE_SCHEMA)
_ARCANA = {d["id"]: d for d in D.arcana_definitions()}


# --------------------------------------------------------------------------- building
def new_state(rng: random.Random) -> dict[str, Any]:
    """A fresh table: the MK's 56 numbered cards shuffled at the centre, nothing else yet."""
    deck = cards.new_state(D.numbered_definitions(), rng=rng)
    deck = cards.ensure_pile(deck, "play", visibility="public")
    deck = cards.ensure_pile(deck, "aside", visibility="public")
    return {
        "deck": deck,
        "aside": {},
        "arcana": {},
        "hand_size": {},
        "success_table": [dict(r) for r in D.SUCCESS_TABLE],
        "effects": [""] * len(D.ARCANA),
        "turn": 0,
        "arcane_turn": {},
        "fails": {},
        "pending": {},
        "chase": None,
    }


def _new_arcana(owner: str, rng: random.Random) -> dict[str, Any]:
    deck = cards.new_state(D.arcana_definitions(), rng=rng)
    deck = cards.ensure_pile(deck, "hand", visibility="owner", owner=owner)
    return cards.ensure_pile(deck, "ka", visibility="public")


# --------------------------------------------------------------------------- validity
def _invalid(field: str, detail: str) -> list[Problem]:
    return [Problem(field, "theorem.state.invalid", {"detail": detail})]


def validate_state(data: Any) -> list[Problem]:
    """Store hook: problems of an untrusted Théorem state (never raises)."""
    problems = shape_problems(_shape, data, "theorem.state.invalid")
    if problems:
        return problems
    deck = data["deck"]
    problems = cards.check_state(deck, field="deck")
    if problems:
        return problems
    if set(deck["piles"]) != set(DECK_PILES) or deck["cards"] != A.NUMBERED:
        return _invalid("deck", "cards")
    if any(
        deck["piles"][p]["visibility"] != v
        for p, v in (("draw", "hidden"), ("discard", "public"), ("play", "public"), ("aside", "public"))
    ):
        return _invalid("deck.piles", "visibility")
    listed = [c for ids in data["aside"].values() for c in ids]
    if sorted(listed) != sorted(deck["piles"]["aside"]["cards"]):
        return _invalid("aside", "aside")
    if any(A.NUMBERED[c]["kind"] != "figure" for c in listed):
        return _invalid("aside", "figure")
    chains = [c for p in data["pending"].values() for c in p["chain"]]
    chains += [p["awaiting"] for p in data["pending"].values() if p["awaiting"]]
    if sorted(chains) != sorted(deck["piles"]["play"]["cards"]):
        return _invalid("pending", "play")
    for owner, arc in data["arcana"].items():
        problems = cards.check_state(arc, field=f"arcana.{owner}")
        if problems:
            return problems
        if set(arc["piles"]) != set(ARCANA_PILES) or arc["cards"] != _ARCANA:
            return _invalid(f"arcana.{owner}", "cards")
        if arc["piles"]["hand"]["visibility"] != "owner" or arc["piles"]["hand"].get("owner") != owner:
            return _invalid(f"arcana.{owner}.piles.hand", "owner")
        if arc["piles"]["draw"]["visibility"] != "hidden":
            return _invalid(f"arcana.{owner}.piles.draw", "visibility")
    if R.validate_success_table(data["success_table"]):
        return _invalid("success_table", "order")
    return []


def require_state(data: Any) -> dict[str, Any]:
    problems = validate_state(data)
    if problems:
        p = problems[0]
        raise RulesError("theorem.state.invalid", field=p.field, detail=str(p.params.get("detail", p.code))[:200])
    return data


def player_view(state: dict[str, Any], viewer: str | None = None) -> dict[str, Any]:
    """What one player (``viewer``, a character id) or the table (None) may see.

    Hidden: the order of every draw pile, every arcana hand but the viewer's own, and the
    MK's hand (viewer ``@mk`` sees it). Source: "A) Au commencement" (the hand lies face
    down "afin d'éviter que les joueurs ne regardent leurs cartes respectives").
    """
    out = {k: clone(v) for k, v in state.items() if k not in ("deck", "arcana")}
    out["deck"] = cards.view(state["deck"], viewer)
    out["arcana"] = {owner: cards.view(arc, viewer) for owner, arc in state["arcana"].items()}
    return out


# --------------------------------------------------------------------------- arcana hands
def _settle_ka(
    arc: dict[str, Any], ka_number: int | None, rng: random.Random, events: list[dict[str, Any]]
) -> dict[str, Any]:
    """ "Si jamais le joueur pioche sa carte de Ka. Il la met de côté et pioche une autre carte.\""""
    if ka_number is None:
        return arc
    ka_id = f"arcane-{ka_number:02d}"
    while ka_id in arc["piles"]["hand"]["cards"]:
        arc = cards.move(arc, [ka_id], "hand", "ka")
        events.append({"type": "ka", "card": ka_id})
        arc, _, more = cards.draw(arc, 1, rng, source="draw", to="hand", refill="discard")
        events.extend(more)
    return arc


def draw_hand(
    state: dict[str, Any], owner: str, size: int, rng: random.Random, *, ka_card: int | None = None
) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """Draw a full arcana hand (the starting hand, or again once the hand is empty).

    Source: "A) Au commencement" (Divinité cards face down; "Une fois que sa main est vide,
    il doit piocher à nouveau autant de cartes qu'au départ"; Philipe's example: take what
    is left, turn the discard over, complete the hand — :func:`tablee.cards.draw`). The
    size is fixed at the first draw (``hand_size``). The Ka card drawn goes to ``ka`` and
    is replaced. Refused while cards are still in the hand (``theorem.hand.not_empty``).
    """
    new = clone(state)
    if owner not in new["arcana"]:
        if len(new["arcana"]) > MAX_PLAYERS:
            raise RulesError("theorem.state.invalid", field="arcana", detail="too_many")
        new["arcana"][owner] = _new_arcana(owner, rng)
        new["hand_size"][owner] = size
    arc = new["arcana"][owner]
    if arc["piles"]["hand"]["cards"]:
        raise RulesError("theorem.hand.not_empty", count=len(arc["piles"]["hand"]["cards"]))
    if owner == MK:
        new["hand_size"][owner] = size
    n = new["hand_size"][owner]
    arc, _, events = cards.draw(arc, n, rng, source="draw", to="hand", refill="discard")
    arc = _settle_ka(arc, ka_card, rng, events)
    new["arcana"][owner] = arc
    return new, list(arc["piles"]["hand"]["cards"]), events


# --------------------------------------------------------------------------- re-test
def retest_status(state: dict[str, Any], cid: str) -> dict[str, Any]:
    """ "2) Le re-test": after one failure the next try (from the next action) has −2; after a
    second, not before an hour; after a third, not before the next day."""
    f = state["fails"].get(cid)
    if not f:
        return {"count": 0, "skill": None, "wait": None}
    wait = {1: "next_action", 2: "hour"}.get(f["count"], "day")
    return {"count": f["count"], "skill": f["skill"], "wait": wait}


# --------------------------------------------------------------------------- actions
def begin_action(
    state: dict[str, Any],
    character: dict[str, Any],
    *,
    sphere: str,
    skill: str | None,
    modifier: int,
    exploit: int,
    retest: bool,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Announce a simple action: sphère + compétence + modificateurs (+ exploit, − re-test).

    Source: "1) Les actions simples", "2) Le re-test" (−2, no exploit during a re-test),
    "6) Accomplir un Exploit" (up to Divinité points of réalité, +1 each). The exploit's
    réalité is paid now. Returns the new state and the new character.
    """
    A.may_announce(state, character, exploit, retest)
    sphere_level = character["spheres"][sphere]
    skill_level = A.skill_level(character, skill)
    base = sphere_level + skill_level + modifier + exploit - (D.RETEST_MALUS if retest else 0)
    return A.announce(state, character, {
        "sphere": sphere,
        "skill": skill,
        "sphere_level": sphere_level,
        "skill_level": skill_level,
        "modifier": modifier,
        "exploit": exploit,
        "retest": retest,
        "base": base,
    })


def _pending(state: dict[str, Any], cid: str) -> dict[str, Any]:
    if cid not in state["pending"]:
        raise RulesError("theorem.action.none", character=cid)
    return state["pending"][cid]


_SUIT_NAMES = {"baton": "bâton", "coupe": "coupe", "denier": "denier", "epee": "épée"}


def card_name(cid: str) -> str:
    """A card as players name it, for messages: « Valet de bâton », « 7 de coupe », « Le Mat »
    (game terms keep their French names in both languages); an unknown id as is."""
    if cid in A.NUMBERED:
        c = A.NUMBERED[cid]
        return f"{c['rank'].capitalize()} de {_SUIT_NAMES[c['suit']]}"
    if cid in _ARCANA:
        return D.ARCANA[_ARCANA[cid]["number"]]
    return cid[:64]





def _resolve(state: dict[str, Any], cid: str, *, value: int | None = None) -> dict[str, Any]:
    """End an action (mutates ``state``): value, score, level; the chain goes to the discard;
    the re-test record follows the outcome."""
    p = state["pending"].pop(cid)
    chain = list(p["chain"])
    if value is None:
        value = R.chain_value([A.card(c) for c in chain])
    score = p["base"] + value
    row = R.level_of(score, state["success_table"])
    if chain:
        state["deck"] = cards.move(state["deck"], chain, "play", "discard")
    if p.get("chase"):
        return chase_side_done(state, p["chase"], chain, value, score)
    if row["level"] == "echec":
        prev = state["fails"].get(cid)
        count = prev["count"] + 1 if prev and p["retest"] else 1
        state["fails"][cid] = {"skill": (p["skill"] or "")[:60], "count": min(count, 99)}
    else:
        state["fails"].pop(cid, None)
    return {
        "done": True,
        "chain": A.chain_json(chain),
        "value": value,
        "base": p["base"],
        "score": score,
        **row,
        "action": {
            k: p[k]
            for k in ("sphere", "skill", "sphere_level", "skill_level", "modifier", "exploit", "retest", "effect")
        },
        "retest": retest_status(state, cid),
    }


def play_aside(state: dict[str, Any], cid: str, card: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play a set-aside figure before drawing ("4) Les figures", Attention: "Avant de tirer une
    carte, vous devez annoncer [...] Une fois que vous avez tiré une carte de la pioche, vous
    ne pouvez plus utiliser les figures mises de côté")."""
    p = _pending(state, cid)
    if p["awaiting"]:
        raise RulesError("theorem.action.awaiting", card=p["awaiting"])
    if p["drawn"]:
        raise RulesError("theorem.action.already_drawn")
    if card not in state["aside"].get(cid, []):
        raise RulesError("theorem.action.not_aside", card=card, card_name=card_name(card))
    new = clone(state)
    new["deck"] = cards.move(new["deck"], [card], "aside", "play")
    new["aside"][cid].remove(card)
    if not new["aside"][cid]:
        del new["aside"][cid]
    new["pending"][cid]["chain"].append(card)
    return new, {"done": False, "card": A.card(card), "chain": A.chain_json(new["pending"][cid]["chain"])}


def draw_action(
    state: dict[str, Any], character: dict[str, Any], rng: random.Random
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Draw the top card of the numbered deck for the pending action.

    Source: "A) Au commencement" (top card; the discard turned over when the deck runs out),
    "4) Les figures". Reading (ours, from the text's order): a figure drawn as the first card
    of the chain may be played or set aside (``awaiting``: :func:`figure_choice`), unless the
    player already holds Humanité figures aside or just set one aside ("S'il s'agit encore
    d'une figure vous serez par contre obligé de la jouer"); a figure drawn inside a chain
    is played ("tant que la carte tirée est une figure"). A numbered card ends the chain.
    """
    cid = character["id"]
    p = _pending(state, cid)
    if p["awaiting"]:
        raise RulesError("theorem.action.awaiting", card=p["awaiting"])
    new = clone(state)
    deck, drawn, events = cards.draw(new["deck"], 1, rng, source="draw", to="play", refill="discard")
    if not drawn:
        raise RulesError("theorem.deck.exhausted")
    new["deck"] = deck
    card = drawn[0]
    pn = new["pending"][cid]
    pn["drawn"] = True
    info: dict[str, Any] = {"card": A.card(card), "events": events}
    if A.card(card)["kind"] == "number":
        pn["chain"].append(card)
        return new, {**info, **_resolve(new, cid)}
    held = len(new["aside"].get(cid, []))
    if not pn["chain"] and not pn["must_play"] and held < character["spheres"]["humanite"]:
        pn["awaiting"] = card
        return new, {**info, "done": False, "awaiting": card, "chain": A.chain_json(pn["chain"])}
    pn["chain"].append(card)
    pn["must_play"] = False
    return new, {**info, "done": False, "forced": True, "chain": A.chain_json(pn["chain"])}


def figure_choice(
    state: dict[str, Any], character: dict[str, Any], decision: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play the figure just drawn, or set it aside ("4) Les figures"): at most Humanité
    figures aside; after setting one aside the next card must be drawn, and a figure then
    must be played."""
    cid = character["id"]
    p = _pending(state, cid)
    card = p["awaiting"]
    if not card:
        raise RulesError("theorem.action.not_awaiting")
    new = clone(state)
    pn = new["pending"][cid]
    pn["awaiting"] = None
    if decision == "aside":
        held = len(new["aside"].get(cid, []))
        if held >= character["spheres"]["humanite"]:
            raise RulesError("theorem.action.aside_full", max=character["spheres"]["humanite"])
        if cid not in new["aside"] and len(new["aside"]) >= MAX_PLAYERS:
            raise RulesError("theorem.state.invalid", field="aside", detail="too_many")
        new["deck"] = cards.move(new["deck"], [card], "play", "aside")
        new["aside"].setdefault(cid, []).append(card)
        pn["must_play"] = True
    else:
        pn["chain"].append(card)
    return new, {"done": False, "decision": decision, "card": A.card(card), "chain": A.chain_json(pn["chain"])}


def arcane_play(
    state: dict[str, Any],
    character: dict[str, Any],
    card: str,
    mode: str,
    rng: random.Random,
    *,
    mortal: bool = False,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Play an arcane from the hand (or the Ka card set aside), paying réalité.

    Source: "5) Les arcanes": instead of a draw it counts 10 (``value``: the action ends)
    or its effect (``effect``: free text; the action, if any, goes on with a draw), not
    both; at most one arcane per turn; 5 réalité, 1 for the Ka card or in a mortal
    situation (one dé de Ka left and immediate danger: the ``mortal`` toggle, which needs
    ``des_ka`` = 1). "Une fois que sa main est vide, il doit piocher à nouveau": an
    emptied hand is redrawn at once (:func:`draw_hand`). Returns state, character, info.
    """
    cid = character["id"]
    arc = state["arcana"].get(cid)
    if arc is None:
        raise RulesError("theorem.hand.no_deck")
    if card in arc["piles"]["hand"]["cards"]:
        src = "hand"
    elif card in arc["piles"]["ka"]["cards"]:
        src = "ka"
    else:
        raise RulesError("theorem.arcane.not_in_hand", card=card, card_name=card_name(card))
    if state["arcane_turn"].get(cid) == state["turn"]:
        raise RulesError("theorem.arcane.per_turn", turn=state["turn"])
    number = _ARCANA[card]["number"]
    is_ka = character["ka_card"] == number
    cheap = is_ka or (mortal and character["des_ka"] == 1)
    cost = D.ARCANE_COST_CHEAP if cheap else D.ARCANE_COST
    if cost > character["realite"]:
        raise RulesError("theorem.realite.not_enough", cost=cost, realite=character["realite"])
    pending = state["pending"].get(cid)
    if mode == "value":
        if pending is None:
            raise RulesError("theorem.action.none", character=cid)
        if pending["drawn"] or pending["chain"] or pending["awaiting"]:
            raise RulesError("theorem.arcane.value_after_draw")
    new = clone(state)
    arc = cards.move(new["arcana"][cid], [card], src, "discard")
    new["arcana"][cid] = arc
    new["arcane_turn"][cid] = new["turn"]
    ch = clone(character)
    ch["realite"] -= cost
    events: list[dict[str, Any]] = []
    info: dict[str, Any] = {"arcane": number, "cost": cost, "mode": mode, "effect": new["effects"][number]}
    if not arc["piles"]["hand"]["cards"] and src == "hand":
        new, drawn, events = draw_hand(new, cid, new["hand_size"][cid], rng, ka_card=character["ka_card"])
        info["refilled"] = len(drawn)
    info["events"] = events
    if mode == "value":
        info.update(_resolve(new, cid, value=D.ARCANE_VALUE))
    elif pending is not None:
        new["pending"][cid]["effect"] = number
        info["done"] = False
    return new, ch, info
