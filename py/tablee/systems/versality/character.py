"""Versality characters: JSON shape, guided creation checks, wounds, healing, progression.

Source: 001_28decc945b538010.txt ("Présentation du système" to "Améliorer ses
caractéristiques & compétence."); readings: rules/README.md (Versality).
"""

from __future__ import annotations

from typing import Any

from ...errors import Problem, RulesError, declare
from ...schema import array, character_head, compiled, fixed_object, record, shape_problems
from ...tree import clone
from . import rules as R

__all__ = [
    "CHARACTER_SCHEMA",
    "add_wound",
    "check_creation",
    "check_deck",
    "finish_creation",
    "heal",
    "improve",
    "improvement_points",
    "new_character",
    "remove_wound",
    "require_playable",
    "validate_character",
    "wound_status",
]

declare(
    "versality.char.invalid",
    "versality.char.power_missing",
    "versality.char.power_unapproved",
    "versality.char.traits_count",
    "versality.char.traits_unapproved",
    "versality.char.characteristic_points",
    "versality.char.skill_points",
    "versality.char.skill_max",
    "versality.deck.base_missing",
    "versality.deck.creation_points",
    "versality.deck.compensation_due",
    "versality.deck.failure_invalid",
    "versality.deck.improvement_before_creation",
    "versality.deck.not_created",
    "versality.char.not_finished",
    "versality.char.already_created",
    "versality.wound.incapacitated",
    "versality.wound.none",
    "versality.heal.self",
    "versality.heal.used",
    "versality.heal.no_wound",
    "versality.heal.incapacitated",
    "versality.improve.points",
    "versality.improve.failure_not_needed",
    "versality.improve.compensation_due",
    "versality.improve.compensation_success_only",
    "versality.improve.leaves_due",
    "versality.improve.maximum",
    "versality.improve.power_blank",
)

_TEXT = {"type": "string", "maxLength": 500}
_SCORE = {"type": "integer", "minimum": 0, "maximum": 20}




#: A Versality character (the table document's ``characters[i]``).
#:
#: ``created`` is false during guided creation and true once the creation was validated
#: (:func:`finish_creation`): from then on the cards bought at creation are permanent
#: (Source: "Créer son deck de résolution", N.B. "une carte ne peut plus être modifiée ni
#: retirée du deck"). The field is required: no character data was released before it
#: existed, so there is no migration of older documents (they are simply rejected).
CHARACTER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        # the name at the store's own limit (store_shape.MAX_NAME): a longer one would save, then be refused at load
        **character_head("versality"),
        "created": {"type": "boolean"},
        "powers": array(record({"text": _TEXT, "approved": {"type": "boolean"}}), 12),
        "forces": {"type": "array", "items": {"type": "string", "maxLength": 200}, "maxItems": 6},
        "faiblesses": {"type": "array", "items": {"type": "string", "maxLength": 200}, "maxItems": 6},
        "traits_approved": {"type": "boolean"},
        "characteristics": fixed_object(R.CHARACTERISTICS, _SCORE),
        "skills": fixed_object(R.SKILLS, _SCORE),
        "deck": {
            "type": "array",
            "maxItems": 60,
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"enum": list(R.KINDS)},
                    "origin": {"enum": ["base", "creation", "improvement"]},
                },
                "required": ["kind", "origin"],
                "additionalProperties": False,
            },
        },
        "wounds": fixed_object(R.CHARACTERISTICS, {"type": "integer", "minimum": 0, "maximum": 6}),
        "incapacitated": {"type": "boolean"},
        "heal_used": {"type": "boolean"},
        "improvement_points": {"type": "integer", "minimum": 0, "maximum": 999},
        "notes": {"type": "string", "maxLength": 4000},
    },
    "required": [
        "id",
        "system",
        "name",
        "created",
        "powers",
        "forces",
        "faiblesses",
        "traits_approved",
        "characteristics",
        "skills",
        "deck",
        "wounds",
        "incapacitated",
        "heal_used",
        "improvement_points",
    ],
    "additionalProperties": False,
}

#: The very schema every op of the system holds (schema.share): one validator for both.
_shape = compiled(CHARACTER_SCHEMA)


def new_character(character_id: str, name: str) -> dict[str, Any]:
    """A blank character at the start of guided creation (base deck, nothing spent)."""
    return {
        "id": character_id,
        "system": "versality",
        "name": name,
        "created": False,
        "powers": [],
        "forces": [],
        "faiblesses": [],
        "traits_approved": False,
        "characteristics": dict.fromkeys(R.CHARACTERISTICS, 0),
        "skills": dict.fromkeys(R.SKILLS, 0),
        "deck": [{"kind": k, "origin": "base"} for k in R.BASE_DECK],
        "wounds": dict.fromkeys(R.CHARACTERISTICS, 0),
        "incapacitated": False,
        "heal_used": False,
        "improvement_points": 0,
    }


def validate_character(data: Any) -> list[Problem]:
    """Store hook: problems of an untrusted character (shape and ranges), never raises.

    Every field of :data:`CHARACTER_SCHEMA` is required, ``created`` included (no released
    data predates it, so no migration is needed).
    """
    return shape_problems(_shape, data, "versality.char.invalid")


def check_creation(c: dict[str, Any]) -> list[Problem]:
    """Every creation rule the character breaks, each on its form field.

    Source: "Choisir son pouvoir" (MJ approval → ``approved`` flag), "Créer son deck de
    résolution" (base 4 cards = 7 points, 5 points to spend, cards never removed),
    "Les échecs" (⌈12 / 2⌉ = 6 failure points), "Forces et faiblesses" (2+1 or 3+2),
    "Caractéristiques et compétences" (3 points, 5 points, at most 3 in a skill).
    A character still in creation (``created`` false) cannot hold cards bought with
    improvement points: those are earned at the end of a scenario ("La progression : monter
    de niveau"), after creation.
    ``c`` must already satisfy :data:`CHARACTER_SCHEMA`.
    """
    problems: list[Problem] = []
    if not c["powers"] or not any(p["text"].strip() for p in c["powers"]):
        problems.append(Problem("powers", "versality.char.power_missing"))
    for i, p in enumerate(c["powers"]):
        if p["text"].strip() and not p["approved"]:
            problems.append(Problem(f"powers.{i}.approved", "versality.char.power_unapproved"))
    nf = len([f for f in c["forces"] if f.strip()])
    nw = len([f for f in c["faiblesses"] if f.strip()])
    if {"forces": nf, "faiblesses": nw} not in R.CREATION["traits"]:
        problems.append(Problem("forces", "versality.char.traits_count", {"forces": nf, "faiblesses": nw}))
    elif not c["traits_approved"]:
        problems.append(Problem("traits_approved", "versality.char.traits_unapproved"))
    if not c["created"]:
        problems.extend(_creation_budgets(c))
    problems.extend(check_deck(c))
    if not c["created"]:
        bought = sum(1 for card in c["deck"] if card["origin"] == "improvement")
        if bought:
            problems.append(Problem("deck", "versality.deck.improvement_before_creation", {"count": bought}))
    return problems


def _creation_budgets(c: dict[str, Any]) -> list[Problem]:
    """The point budgets of creation: 3 characteristic points, 5 skill points, at most 3 in
    one skill. Source: "Caractéristiques et compétences". They bind the creation only: once
    ``created``, characteristics and skills grow with improvement points ("La progression")."""
    problems: list[Problem] = []
    for field, budget in (("characteristics", "characteristic_points"), ("skills", "skill_points")):
        total, expected = sum(c[field].values()), R.CREATION[budget]
        if total != expected:
            problems.append(Problem(field, f"versality.char.{budget}", {"total": total, "expected": expected}))
    for s in R.SKILLS:
        if c["skills"][s] > R.CREATION["skill_max"]:
            problems.append(
                Problem(
                    f"skills.{s}",
                    "versality.char.skill_max",
                    {"skill": s, "value": c["skills"][s], "maximum": R.CREATION["skill_max"]},
                )
            )
    return problems


def finish_creation(c: dict[str, Any]) -> dict[str, Any]:
    """Validate the creation: the character becomes ``created`` (its cards are permanent).

    Refused while :func:`check_creation` reports a problem (``versality.char.not_finished``,
    with the number of problems and the first one's field), and for a character already
    created (``versality.char.already_created``). Source: "Créer son deck de résolution"
    (N.B. a card bought can never be removed); the validation step itself is the app's.
    """
    if c["created"]:
        raise RulesError("versality.char.already_created", character=c["id"])
    problems = check_creation(c)
    if problems:
        raise RulesError(
            "versality.char.not_finished",
            count=len(problems),
            field=problems[0].field,
        )
    new = clone(c)
    new["created"] = True
    return new


def check_deck(c: dict[str, Any]) -> list[Problem]:
    """Deck problems: base cards, 5 creation points, failure purchases, compensation due."""
    problems: list[Problem] = []
    deck = c["deck"]
    base = sorted(card["kind"] for card in deck if card["origin"] == "base")
    if base != sorted(R.BASE_DECK):
        problems.append(Problem("deck", "versality.deck.base_missing", {"expected": list(R.BASE_DECK)}))
    spent = sum(R.SUCCESS_PRICES.get(card["kind"], 0) for card in deck if card["origin"] == "creation")
    if spent != R.CREATION["success_points"]:
        problems.append(
            Problem(
                "deck",
                "versality.deck.creation_points",
                {"spent": spent, "expected": R.CREATION["success_points"]},
            )
        )
    at_creation = [card["kind"] for card in deck if card["origin"] in ("base", "creation")]
    required = R.ledger(at_creation)["failure_required"]
    failures = [k for k in at_creation if k in R.FAILURE_VALUES]
    if not R.failure_sequence_exists(required, failures):
        problems.append(
            Problem(
                "deck",
                "versality.deck.failure_invalid",
                {"required": required, "value": sum(R.FAILURE_VALUES[k] for k in failures)},
            )
        )
    whole = R.ledger(card["kind"] for card in deck)
    if whole["due"]:
        problems.append(Problem("deck", "versality.deck.compensation_due", {"due": whole["due"]}))
    return problems


def require_playable(c: dict[str, Any]) -> dict[str, Any]:
    """Refuse to build or draw from a deck that breaks the creation ledger.

    Source: "Créer son deck de résolution" (cards bought are never removed), "Les échecs"
    (the failure compensation); issue 8 point 3. A character still in creation has no deck
    to play yet (``versality.deck.not_created``); a created one whose deck breaks a rule of
    :func:`check_deck` (failure cards removed, compensation owed…) is refused with the
    first deck problem's code and params, i.e. the same message as ``character.check``.
    """
    if not c["created"]:
        raise RulesError("versality.deck.not_created", character=c["id"])
    problems = check_deck(c)
    if problems:
        raise RulesError(problems[0].code, **problems[0].params)
    return c


# --------------------------------------------------------------------------- wounds
def wound_status(c: dict[str, Any]) -> str:
    """ "indemne", "blesse", "hors_de_combat" or "incapacite".

    Source: "Blessure, incapacité et mort"; reading: rules/README.md — two wounds on one
    characteristic, or one on each, put the character hors de combat; the next wound
    incapacitates (recorded in ``incapacitated`` by :func:`add_wound`).
    """
    w = c["wounds"]
    if c["incapacitated"]:
        return "incapacite"
    if max(w.values()) >= 2 or min(w.values()) >= 1:
        return "hors_de_combat"
    if sum(w.values()):
        return "blesse"
    return "indemne"


def add_wound(c: dict[str, Any], characteristic: str) -> dict[str, Any]:
    """One more (untreated) wound on a characteristic. Source: "Blessure, incapacité et mort"."""
    new = clone(c)
    was_out = wound_status(c) in ("hors_de_combat", "incapacite")
    new["wounds"][characteristic] = min(new["wounds"][characteristic] + 1, 6)
    if was_out:
        new["incapacitated"] = True
    return new


def remove_wound(c: dict[str, Any], characteristic: str) -> dict[str, Any]:
    """Take back one wound entered by mistake (a correction by la MJ, not a heal).

    Source: "Blessure, incapacité et mort" (the states a wound leads to); the correction
    itself is ours (issue 13: "a wound added by mistake can be taken back"). It is the
    inverse of :func:`add_wound`: the wound goes, and so does incapacité. Reading: no wound
    can be added to an incapacitated character (``versality.wound.incapacitated``), so the
    wound that incapacitated is always the last one added; taking a wound back from an
    incapacitated character leaves them hors de combat (or better, by :func:`wound_status`)
    as before that wound. No wound on that characteristic: ``versality.wound.none``,
    nothing changes.
    """
    if c["wounds"][characteristic] <= 0:
        raise RulesError("versality.wound.none", characteristic=characteristic)
    new = clone(c)
    new["wounds"][characteristic] -= 1
    new["incapacitated"] = False
    return new


def heal(
    healer: dict[str, Any], target: dict[str, Any], characteristic: str, success: bool
) -> dict[str, Any]:
    """A "soulager" test on an ally: once per game, never oneself.

    Source: "Blessure, incapacité et mort". Readings (ours): the once-per-game limit is the
    healer's (``heal_used``, reset by the session start); the attempt uses it even if the
    test fails; a success removes one wound of that characteristic; incapacité is lifted
    only when the character is no longer hors de combat after the heal. An incapacitated
    healer cannot make the test (``versality.heal.incapacitated``), as an incapacitated
    character cannot make any test (:func:`state.draw_test`).
    """
    if healer["id"] == target["id"]:
        raise RulesError("versality.heal.self")
    if healer["incapacitated"]:
        raise RulesError("versality.heal.incapacitated", healer=healer["id"])
    if healer["heal_used"]:
        raise RulesError("versality.heal.used", healer=healer["id"])
    if target["wounds"][characteristic] <= 0:
        raise RulesError("versality.heal.no_wound", characteristic=characteristic)
    h, t = clone(healer), clone(target)
    h["heal_used"] = True
    if success:
        t["wounds"][characteristic] -= 1
        if t["incapacitated"]:
            t["incapacitated"] = False
            t["incapacitated"] = wound_status(t) == "hors_de_combat"
    return {"healer": h, "target": t, "healed": success}


# --------------------------------------------------------------------------- progression
def improvement_points(*, survived_unhurt: bool, objective: bool, catastrophe: int) -> dict[str, int]:
    """Points earned at the end of a scenario.

    Source: "La progression : monter de niveau": 1 for coming out alive and unhurt, 1 for
    the objective, 1 more for not going past 10 on the catastrophe scale "pour se faire".
    Reading: rules/README.md (Versality), "The third progression point (catastrophe ≤ 10)
    is earned only with the objective": it rewards reaching the objective discreetly.
    """
    pts = {
        "survived_unhurt": int(survived_unhurt),
        "objective": int(objective),
        "discretion": int(objective and catastrophe <= 10),
    }
    pts["total"] = sum(pts.values())
    return pts


def purchase_cost(c: dict[str, Any], purchase: dict[str, Any]) -> int:
    """Price in improvement points. Source: "La progression" and its subsections;
    reading: rules/README.md (skill: current score, at least 1; characteristic: 1 + all
    characteristic points held). Failure cards cost nothing: they are compensation."""
    kind = purchase["type"]
    if kind == "card":
        return R.SUCCESS_PRICES.get(purchase["kind"], 0)
    if kind == "power":
        return R.POWER_PRICE
    if kind == "characteristic":
        return 1 + sum(c["characteristics"].values())
    if kind == "skill":
        return max(1, c["skills"][purchase["name"]])
    return 0


def improve(c: dict[str, Any], purchase: dict[str, Any]) -> dict[str, Any]:
    """Spend improvement points on one purchase; returns the new character and the cost.

    Source: "La progression", "Améliorer son deck de réussite" ("les ajouts doivent
    toujours être compensés par les cartes échec"), "Les échecs" ("Tant qu'il reste
    suffisamment de points d'échec dans une pool pour « acheter » au moins une carte échec,
    son ou sa propriétaire doit continuer"); reading: rules/README.md (Versality),
    "Improvements are compensated like creation: while 3 or more failure points are owed,
    a failure card must be bought".

    A success card is bought with its compensation (``purchase["compensation"]``: the
    failure cards bought with it, in order, each following
    :func:`rules.failure_purchase_allowed`); an improvement that would leave 3 or more
    failure points owed is refused (``versality.improve.leaves_due``, with the points owed
    and the cheapest failure kind to buy with it), so no character finishes a purchase
    owing a card's worth; a success card is refused while such a debt is already owed
    (``versality.improve.compensation_due``, older sheets). Less than a card's worth (1–2 points) may stay owed: the
    MJ's tokens at each session start (``versality.session.start``). A failure card alone
    is allowed only while compensation is owed (a carte d'avance included). A power needs
    a text (``versality.improve.power_blank`` for a missing, empty or blank one): the MJ
    approves a described power ("Choisir son pouvoir"), not an empty line.
    """
    if purchase["type"] == "power" and not purchase.get("text", "").strip():
        # 5 points for a power with no text buys nothing the MJ could approve.
        raise RulesError("versality.improve.power_blank")
    cost = purchase_cost(c, purchase)
    if cost > c["improvement_points"]:
        raise RulesError("versality.improve.points", cost=cost, available=c["improvement_points"])
    compensation = list(purchase.get("compensation", []))
    full = {
        "card": len(c["deck"]) + 1 + len(compensation) > 60,
        "power": len(c["powers"]) >= 12,
        "characteristic": c["characteristics"].get(purchase.get("name", ""), 0) >= 20,
        "skill": c["skills"].get(purchase.get("name", ""), 0) >= 20,
    }
    if full.get(purchase["type"], False):
        raise RulesError("versality.improve.maximum", type=purchase["type"])
    new = clone(c)
    new["improvement_points"] -= cost
    gap = R.ledger(card["kind"] for card in c["deck"])["gap"]
    kind = purchase["type"]
    if kind == "card":
        k = purchase["kind"]
        if k in R.FAILURE_VALUES:
            if compensation:
                raise RulesError("versality.improve.compensation_success_only", kind=k)
            if not R.failure_purchase_allowed(gap, k):
                raise RulesError("versality.improve.failure_not_needed", gap=gap, kind=k)
            new["deck"].append({"kind": k, "origin": "improvement"})
        else:
            if gap >= min(R.FAILURE_VALUES.values()):
                raise RulesError("versality.improve.compensation_due", due=gap)
            new["deck"].append({"kind": k, "origin": "improvement"})
            for f in compensation:
                gap = R.ledger(card["kind"] for card in new["deck"])["gap"]
                if not R.failure_purchase_allowed(gap, f):
                    raise RulesError("versality.improve.failure_not_needed", gap=gap, kind=f)
                new["deck"].append({"kind": f, "origin": "improvement"})
            after = R.ledger(card["kind"] for card in new["deck"])
            if after["due"]:
                kind_next = _failure_options(after["due"])[0]
                raise RulesError("versality.improve.leaves_due", due=after["due"], kind=kind_next)
    elif kind == "power":
        new["powers"].append({"text": purchase.get("text", ""), "approved": False})
    elif kind == "characteristic":
        new["characteristics"][purchase["name"]] += 1
    elif kind == "skill":
        new["skills"][purchase["name"]] += 1
    return {"character": new, "cost": cost, "ledger": R.ledger(card["kind"] for card in new["deck"])}


def _failure_options(gap: int) -> list[str]:
    """The failure kinds that may be bought next against ``gap`` points, cheapest first."""
    return [k for k, _ in sorted(R.FAILURE_VALUES.items(), key=lambda kv: kv[1]) if R.failure_purchase_allowed(gap, k)]
