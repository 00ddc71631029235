"""The Versality table state (``document["systems"]["versality"]``): the MJ's side and decks.

Shape::

    {"catastrophe": int,            # MJ only. Source: "L'échelle de catastrophe"
     "tokens": int,                 # MJ's degradation tokens. Source: "Les échecs"
     "power_uses": [{"character_id", "points": 1..5, "note"}],   # MJ only
     "session": int,
     "awarded_session": int | None, # session of the last end-of-scenario award (None: never)
     "decks": {"<character id>": <card state, piles draw/hand/discard>},
     "pending": {"<character id>": {"rule", "count", "score", "characteristic",
                                    "skill", "difficulty", "wounds"}}}

Each deck is a :mod:`tablee.cards` state: ``draw`` (hidden), ``hand`` (public: the cards
of the test being played), ``discard`` (public).
"""

from __future__ import annotations

import random
from typing import Any

from ... import cards
from ...errors import Problem, RulesError, declare
from ...schema import array, compiled, integer, record, shape_problems, text
from ...tree import clone
from . import character as C
from . import rules as R

__all__ = [
    "MJ_FIELDS",
    "PENALTIES_SCHEMA",
    "PUBLIC_SCHEMA",
    "STATE_SCHEMA",
    "build_deck",
    "draw_test",
    "merge_public",
    "new_state",
    "penalties",
    "player_view",
    "public_state",
    "require_state",
    "resolve_test",
    "sync_deck",
    "validate_state",
]

declare(
    "versality.state.invalid",
    "versality.deck.empty",
    "versality.deck.missing",
    "versality.deck.sync_extra",
    "versality.test.pending",
    "versality.test.none_pending",
    "versality.test.choice_required",
    "versality.test.choice_not_drawn",
    "versality.test.choice_forbidden",
    "versality.test.incapacitated",
    "versality.tokens.not_enough",
)

PILES = ("draw", "hand", "discard")
_ID = {"type": "string", "minLength": 1, "maxLength": 64}
PENDING_SCHEMA: dict[str, Any] = record({
    "rule": {"enum": ["choose", "worst"]},
    "count": integer(1, 80),
    "score": integer(-80, 80),
    "characteristic": {"enum": list(R.CHARACTERISTICS)},
    "skill": {"enum": list(R.SKILLS)},
    "difficulty": {"enum": list(R.DIFFICULTIES)},
    "wounds": integer(0, 18),
})
STATE_SCHEMA: dict[str, Any] = record({
    "catastrophe": integer(0, 9999),
    "tokens": integer(0, 9999),
    "session": integer(0, 9999),
    "awarded_session": {"type": ["integer", "null"], "minimum": 0, "maximum": 9999},
    "power_uses": array(record({"character_id": _ID, "points": integer(1, 5), "note": text(200)},
                               required=("character_id", "points")), 500),
    "decks": {
        "type": "object",
        "propertyNames": _ID,
        "additionalProperties": cards.CARD_STATE_SCHEMA,
        "maxProperties": 12,
    },
    "pending": {
        "type": "object",
        "propertyNames": _ID,
        "additionalProperties": PENDING_SCHEMA,
        "maxProperties": 12,
    },
})

#: The MJ's fields of the table state: never in the answer to a player op. Source:
#: "L'échelle de catastrophe" (catastrophe, MJ only), "Les échecs" (the MJ's tokens),
#: "Choisir son pouvoir" (power-use points, never told to the players); ``awarded_session``
#: is the MJ's bookkeeping of the end-of-scenario award (versality.scenario.award, MJ op).
MJ_FIELDS = ("catastrophe", "tokens", "power_uses", "awarded_session")
#: The table state minus :data:`MJ_FIELDS` (``public`` in a player op's answer): session,
#: decks (full order: the store saves it) and pending tests.
PUBLIC_SCHEMA: dict[str, Any] = {
    **STATE_SCHEMA,
    "properties": {k: v for k, v in STATE_SCHEMA["properties"].items() if k not in MJ_FIELDS},
    "required": [k for k in STATE_SCHEMA["required"] if k not in MJ_FIELDS],
}
#: The public consequences of a player op on the MJ's side (``penalties``): each exhausted
#: deck (reshuffle, or a draw past every card) is announced at the table and costs
#: catastrophe +1 and gives the MJ a token; ``mj_tokens_spent`` are the tokens the player
#: asked the MJ to spend (the request's ``tokens``). Never the MJ's counts.
PENALTIES_SCHEMA: dict[str, Any] = record(
    {"catastrophe_added": integer(0, 200), "mj_tokens_added": integer(0, 200), "mj_tokens_spent": integer(0, 3)}
)

#: The very schema every op of the system holds (schema.share): one validator for both.
_shape = compiled(STATE_SCHEMA)


def new_state() -> dict[str, Any]:
    """An empty Versality table state."""
    return {
        "catastrophe": 0,
        "tokens": 0,
        "session": 0,
        "awarded_session": None,
        "power_uses": [],
        "decks": {},
        "pending": {},
    }


def validate_state(data: Any) -> list[Problem]:
    """Store hook: problems of an untrusted Versality state, never raises."""
    problems = shape_problems(_shape, data, "versality.state.invalid")
    if problems:
        return problems
    for cid, deck in data["decks"].items():
        problems.extend(cards.check_state(deck, field=f"decks.{cid}"))
        if problems:
            continue
        if set(deck["piles"]) != set(PILES):
            problems.append(Problem(f"decks.{cid}.piles", "versality.state.invalid", {"detail": "piles"}))
        elif any(card["kind"] not in R.KINDS for card in deck["cards"].values()):
            problems.append(Problem(f"decks.{cid}.cards", "versality.state.invalid", {"detail": "kind"}))
        elif bool(deck["piles"]["hand"]["cards"]) != (cid in data["pending"]):
            problems.append(Problem(f"decks.{cid}.piles.hand", "versality.state.invalid", {"detail": "hand"}))
    for cid in data["pending"]:
        if cid not in data["decks"]:
            problems.append(Problem(f"pending.{cid}", "versality.state.invalid", {"detail": "deck"}))
    return problems


def require_state(data: Any) -> dict[str, Any]:
    problems = validate_state(data)
    if problems:
        p = problems[0]
        raise RulesError("versality.state.invalid", field=p.field, detail=str(p.params.get("detail", p.code)))
    return data


def player_view(state: dict[str, Any]) -> dict[str, Any]:
    """What the players may see (the phone handed around): no catastrophe value, no MJ
    tokens, no power-use points; deck draw piles show counts, not order.

    Source: "Choisir son pouvoir" ("ils ne peuvent jamais connaître le nombre de points
    exact"); reading: rules/README.md (MJ view only).
    """
    return {
        "session": state["session"],
        "decks": {cid: cards.view(deck) for cid, deck in state["decks"].items()},
        "pending": clone(state["pending"]),
    }


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """The table state without :data:`MJ_FIELDS` (deck order kept: the store saves it).

    A player op answers this (``public``) instead of the whole state; the app's store
    merges it back (:func:`merge_public`). Pages never receive it (table.js strips it).
    """
    return {k: clone(v) for k, v in state.items() if k not in MJ_FIELDS}


def penalties(events: list[dict[str, Any]], spent: int = 0) -> dict[str, int]:
    """The MJ-side consequences of a player op, from its events (:func:`_on_reshuffles`
    adds one ``catastrophe`` event per exhaustion) and the tokens spent: announced values,
    not counts (reading: rules/README.md (Versality), the reshuffle is announced)."""
    n = sum(1 for e in events if e["type"] == "catastrophe")
    return {"catastrophe_added": n, "mj_tokens_added": n, "mj_tokens_spent": spent}


def merge_public(previous: dict[str, Any], public: dict[str, Any], pen: dict[str, int]) -> dict[str, Any]:
    """The new whole table state: ``public`` from a player op, the MJ's fields from
    ``previous`` with the op's ``penalties`` applied and the same caps the ops apply
    (catastrophe and tokens at most 9999; spent tokens first, as
    :func:`resolve_test` does). Spending more tokens than the MJ holds is refused
    (``versality.tokens.not_enough``, without the MJ's count). The result is checked whole.
    """
    prev = require_state(previous)
    if pen["mj_tokens_spent"] > prev["tokens"]:
        raise RulesError("versality.tokens.not_enough", asked=pen["mj_tokens_spent"])
    new = {k: clone(v) for k, v in public.items() if k not in MJ_FIELDS}
    for k in MJ_FIELDS:
        new[k] = clone(prev[k])
    new["catastrophe"] = min(prev["catastrophe"] + pen["catastrophe_added"], 9999)
    new["tokens"] = min(prev["tokens"] - pen["mj_tokens_spent"] + pen["mj_tokens_added"], 9999)
    return require_state(new)


def build_deck(state: dict[str, Any], character: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """(Re)build a character's deck from the cards on the sheet, shuffled; clears a pending test.

    Refused for a deck that breaks the creation ledger (:func:`character.require_playable`).
    """
    C.require_playable(character)
    kinds = [card["kind"] for card in character["deck"]]
    if not kinds:
        raise RulesError("versality.deck.empty")
    seen: dict[str, int] = {}
    defs = []
    for k in kinds:
        seen[k] = seen.get(k, 0) + 1
        defs.append({"id": f"{k}-{seen[k]}", "kind": k})
    deck = cards.new_state(defs, rng=rng)
    deck = cards.ensure_pile(deck, "hand", visibility="public")
    new = clone(state)
    new["decks"][character["id"]] = deck
    new["pending"].pop(character["id"], None)
    if len(new["decks"]) > 12:
        raise RulesError("versality.state.invalid", field="decks", detail="too_many")
    return new


def sync_deck(
    state: dict[str, Any], character: dict[str, Any], rng: random.Random
) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """Add to the table deck the cards of the sheet it lacks, shuffled into the draw pile.

    Buying a card ("La progression") adds it to the deck; rebuilding the whole deck would
    put the discard back into the draw pile without the exhaustion penalty ("Les échecs":
    catastrophe +1 and a token when the deck runs out). So only the new cards go in: the
    discard and a pending test's hand are untouched, the draw pile (hidden) is shuffled.
    Counts are compared by kind; a table deck holding more cards of a kind than the sheet
    (cards are never removed once bought) is refused: ``versality.deck.sync_extra``.
    With no deck on the table yet, the deck is built (:func:`build_deck`). Returns the
    new state and the cards added (``[{"id", "kind"}]``). Refused for a deck that breaks
    the creation ledger (:func:`character.require_playable`).
    """
    C.require_playable(character)
    cid = character["id"]
    if cid not in state["decks"]:
        new = build_deck(state, character, rng)
        deck = new["decks"][cid]
        return new, [{"id": c, "kind": deck["cards"][c]["kind"]} for c in deck["piles"]["draw"]["cards"]]
    deck = clone(state["decks"][cid])
    table: dict[str, int] = {}
    for card in deck["cards"].values():
        table[card["kind"]] = table.get(card["kind"], 0) + 1
    sheet: dict[str, int] = {}
    for card in character["deck"]:
        sheet[card["kind"]] = sheet.get(card["kind"], 0) + 1
    for kind in R.KINDS:
        if table.get(kind, 0) > sheet.get(kind, 0):
            raise RulesError(
                "versality.deck.sync_extra", kind=kind, table=table.get(kind, 0), sheet=sheet.get(kind, 0)
            )
    added: list[dict[str, str]] = []
    for kind in R.KINDS:
        n = 0
        for _ in range(sheet.get(kind, 0) - table.get(kind, 0)):
            n += 1
            while f"{kind}-{n}" in deck["cards"]:
                n += 1
            card_id = f"{kind}-{n}"
            deck["cards"][card_id] = {"id": card_id, "kind": kind}
            deck["piles"]["draw"]["cards"].append(card_id)
            added.append({"id": card_id, "kind": kind})
    if added:
        deck, _ = cards.shuffle(deck, "draw", rng)
    new = clone(state)
    new["decks"][cid] = deck
    return new, added


def _on_reshuffles(state: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each exhaustion of the deck (a reshuffle, or a draw that ran out of cards):
    catastrophe +1 and one token for the MJ (mutates ``state``).

    Source: "Les échecs" (épuise son deck), "Fonctionnement d'un test"; reading:
    rules/README.md (Versality), "Deck exhausted → reshuffle, catastrophe +1, MJ +1 token";
    :func:`rules.deck_run` (the odds announce the same).
    """
    out = []
    for e in events:
        out.append(e)
        if e["type"] in ("reshuffle", "exhausted"):
            state["catastrophe"] = min(state["catastrophe"] + 1, 9999)
            state["tokens"] = min(state["tokens"] + 1, 9999)
            out.append({"type": "catastrophe", "delta": 1, "mj_tokens": 1})
    return out


def draw_test(
    state: dict[str, Any],
    character: dict[str, Any],
    characteristic: str,
    skill: str,
    difficulty: str,
    rng: random.Random,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Draw the cards of a test into the deck's ``hand`` and remember the rule.

    Source: "Fonctionnement d'un test"; the deck is built first if the table has none
    for this character, and a deck that breaks the creation ledger is refused
    (:func:`character.require_playable`). Reading (ours): an incapacitated character cannot
    be tested; a draw longer than the draw pile takes all of it, reshuffles the discard
    (catastrophe +1, one token) and goes on; a draw longer than all cards takes them all
    and exhausts the deck once more (catastrophe +1, one token): :func:`rules.deck_run`,
    which the odds op shows before the draw.
    """
    cid = character["id"]
    C.require_playable(character)
    if character["incapacitated"]:
        raise RulesError("versality.test.incapacitated", character=cid)
    if cid in state["pending"]:
        raise RulesError("versality.test.pending", character=cid)
    if cid not in state["decks"]:
        state = build_deck(state, character, rng)
    new = clone(state)
    wounds = sum(character["wounds"].values())
    plan = R.test_plan(
        character["characteristics"][characteristic],
        character["skills"][skill],
        R.DIFFICULTIES[difficulty],
        wounds,
    )
    before = new["decks"][cid]["piles"]
    # The deck as it stood, for the roll log: with the seed it replays this draw (replay.py).
    deck_used = {"draw": list(before["draw"]["cards"]), "discard": list(before["discard"]["cards"])}
    deck, drawn, events = cards.draw(new["decks"][cid], plan["count"], rng, source="draw", to="hand")
    if not drawn:
        raise RulesError("versality.deck.empty")
    new["decks"][cid] = deck
    events = _on_reshuffles(new, events)
    new["pending"][cid] = {
        **plan,
        "count": min(plan["count"], 80),
        "characteristic": characteristic,
        "skill": skill,
        "difficulty": difficulty,
        "wounds": min(wounds, 18),
    }
    info = {
        **plan,
        "drawn": [{"id": c, "kind": deck["cards"][c]["kind"]} for c in drawn],
        "events": events,
        "deck_used": deck_used,
    }
    return new, info


def resolve_test(
    state: dict[str, Any],
    character_id: str,
    rng: random.Random,
    *,
    choice: str | None = None,
    force: bool = False,
    faiblesse: bool = False,
    tokens: int = 0,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play the card, apply force/faiblesse/tokens, discard it, shuffle the rest back.

    Source: "Fonctionnement d'un test", "Forces et faiblesses", "Les échecs"; reading:
    rules/README.md. Reading (ours): when the deck is empty after the others go back
    (its last card was played), it is reshuffled at once (catastrophe +1, one token).
    """
    if character_id not in state["pending"]:
        raise RulesError("versality.test.none_pending", character=character_id)
    pending = state["pending"][character_id]
    deck = state["decks"][character_id]
    hand = list(deck["piles"]["hand"]["cards"])
    if not hand:
        raise RulesError("versality.state.invalid", field=f"decks.{character_id}.piles.hand", detail="hand")
    if tokens > state["tokens"]:
        # The players see this message: it never tells how many tokens the MJ holds.
        raise RulesError("versality.tokens.not_enough", asked=tokens)
    kind_of = {c: deck["cards"][c]["kind"] for c in hand}
    if pending["rule"] == "choose":
        if choice is None:
            raise RulesError("versality.test.choice_required")
        if choice not in hand:
            raise RulesError("versality.test.choice_not_drawn", card=choice)
        played = choice
    else:
        played = min(hand, key=lambda c: R.OUTCOMES.index(kind_of[c]))
        if choice is not None:
            if kind_of.get(choice) != kind_of[played]:
                raise RulesError("versality.test.choice_forbidden", card=choice)
            played = choice
    result = R.apply_modifiers(kind_of[played], force=force, faiblesse=faiblesse, tokens=tokens)
    new = clone(state)
    deck = cards.discard(deck, [played], src="hand", dst="discard")
    rest = [c for c in hand if c != played]
    deck, events = cards.return_to_deck(deck, rest, src="hand", dst="draw", rng=rng)
    if not deck["piles"]["draw"]["cards"]:
        back = list(deck["piles"]["discard"]["cards"])
        deck = cards.move(deck, back, "discard", "draw")
        deck, _ = cards.shuffle(deck, "draw", rng)
        events.append({"type": "reshuffle", "pile": "draw", "from": "discard", "count": len(back)})
    new["decks"][character_id] = deck
    new["tokens"] -= tokens
    events = _on_reshuffles(new, events)
    del new["pending"][character_id]
    return new, {
        **result,
        "played": {"id": played, "kind": kind_of[played]},
        "rule": pending["rule"],
        "events": events,
    }
