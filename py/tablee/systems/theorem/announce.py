"""Théorem (003_0f8319d4d007e1fe.txt), an action announced: what a character may announce now,
the action pending at the table, and the cards of a chain by their ids. Used by the simple
actions (:mod:`.state`) and each side of a chase (:mod:`.oppositions`).
"""

from __future__ import annotations

from typing import Any

from ...errors import RulesError
from ...tree import clone
from . import data as D
from . import rules as R
from .schemas import MAX_PLAYERS

__all__ = ["NUMBERED", "announce", "card", "chain_json", "may_announce", "skill_level"]

#: card id -> the numbered card (its rank, suit, kind and value).
NUMBERED = {d["id"]: d for d in D.numbered_definitions()}


def skill_level(character: dict[str, Any], skill: str | None) -> int:
    """The character's level in ``skill`` ("1) Les actions simples": sphère + compétence), 0
    without one; refused for a skill the sheet does not hold."""
    if skill is None:
        return 0
    for sk in character["skills"]:
        if sk["name"] == skill:
            return sk["level"]
    raise RulesError("theorem.action.unknown_skill", skill=skill)


def may_announce(state: dict[str, Any], character: dict[str, Any], exploit: int, retest: bool) -> None:
    """Refuse an action the character may not announce now (a simple action, or its side of a
    chase): one already pending; an exploit during a re-test ("2) Le re-test": no exploit then);
    more exploit points than Divinité or than the réalité left ("6) Accomplir un Exploit": up to
    Divinité points of réalité, +1 each); a table already holding every player's action."""
    cid = character["id"]
    if cid in state["pending"]:
        raise RulesError("theorem.action.pending", character=cid)
    divinite = character["spheres"]["divinite"]
    if retest and exploit:
        raise RulesError("theorem.exploit.retest")
    if exploit > divinite:
        raise RulesError("theorem.exploit.too_many", exploit=exploit, max=divinite)
    if exploit > character["realite"]:
        raise RulesError("theorem.realite.not_enough", cost=exploit, realite=character["realite"])
    if len(state["pending"]) >= MAX_PLAYERS:
        raise RulesError("theorem.state.invalid", field="pending", detail="too_many")


def announce(
    state: dict[str, Any], character: dict[str, Any], action: dict[str, Any], **extra: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The state with the character's announced ``action`` pending (no card drawn yet), and the
    character with the exploit's réalité paid (checked first by :func:`may_announce`)."""
    new = clone(state)
    new["pending"][character["id"]] = {
        **action,
        "chain": [],
        "drawn": False,
        "awaiting": None,
        "must_play": False,
        "effect": None,
        **extra,
    }
    paid = clone(character)
    paid["realite"] -= action["exploit"]
    return new, paid


def card(cid: str) -> dict[str, Any]:
    """The numbered card ``cid`` ("A) Au commencement": the 56 cards of the tarot's suits)."""
    return NUMBERED[cid]


def chain_json(ids: list[str]) -> list[dict[str, Any]]:
    """A chain's cards with the term each adds to its value (:func:`.rules.chain_terms`)."""
    chain = [card(c) for c in ids]
    return [{**c, "term": t} for c, t in zip(chain, R.chain_terms(chain), strict=True)]
