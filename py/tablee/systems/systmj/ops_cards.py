"""SYSTMJ API ops of issue 12: the card library, wear, Action & Mouvement rounds, combat.

Source: 000_d267ce9097809d3e.txt, 3.2, 3.3, 3.4.1, 4 and the wear scale; see the modules
:mod:`.library`, :mod:`.wear`, :mod:`.rounds` and :mod:`.combat` for each rule's section and
the readings adopted. Ops that change the table take ``state`` (the whole SYSTMJ table
state) and return the new one; rolls take a seed so the logged request replays exactly.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ... import cards
from ...errors import RulesError, declare
from ...registry import SEED_SCHEMA, SystemOps, rng_from
from ...tree import clone
from . import combat as C
from . import data as D
from . import entity as E
from . import learning as L
from . import library as LIB
from . import resolution as R
from . import rounds as RD
from . import state as S
from . import wear as W

__all__ = ["items_used"]

declare("systmj.card.not_pouvoir")

_ID = {"type": "string", "minLength": 1, "maxLength": 64}
_STATE = S.STATE_SCHEMA
_CHAR = E.CHARACTER_SCHEMA
#: The card ops' own table (the system lists it beside its other ops).
cards_op = SystemOps("systmj", state=_STATE, character=_CHAR)
_NUMBER = {"type": "string", "pattern": LIB.NUMBER_PATTERN}
_SCORE = {"type": "integer", "minimum": D.SCORE_MIN, "maximum": D.SCORE_MAX}
_POOL = {"type": "integer", "minimum": 0, "maximum": 999}
_SESSION = {"type": "integer", "minimum": 1, "maximum": 100000}


def _p(f: Fraction) -> dict[str, Any]:
    return cards.fraction_json(f)


def _library(state: dict[str, Any]) -> dict[str, Any]:
    return state.get("library") or LIB.new_library()


def _with(state: dict[str, Any], **parts: Any) -> dict[str, Any]:
    return {**state, **parts}


@cards_op("cards.rules", summary="The card families' closed lists, the wear scale and dice, the combat formulas.")
def _cards_rules(request: dict[str, Any]) -> dict[str, Any]:
    return {
        "families": LIB.FAMILIES,
        "eq_types": list(LIB.EQ_TYPES),
        "eq_categories": {k: list(v) for k, v in LIB.EQ_CATEGORIES.items()},
        "qualities": list(LIB.QUALITIES),
        "sizes": list(LIB.SIZES),
        "re_types": {k: list(v) for k, v in LIB.RE_TYPES.items()},
        "sa_types": list(LIB.SA_TYPES),
        "po_types": list(LIB.PO_TYPES),
        "defaults": LIB.DEFAULTS,
        "wear_scale": [{"min": a, "max": b, "degree": n, "malus": m} for a, b, n, m in W.WEAR_SCALE],
        "wear_dice": list(W.WEAR_DICE),
        "formulas": {k: {"terms": [list(t) for t in v[0]], "adds": v[1]} for k, v in C.FORMULAS.items()},
        "defences": list(C.DEFENCES),
        "ranged": list(C.RANGED),
    }


# ------------------------------------------------------------------ the card library (4)


def _library_op(name: str, summary: str, change: Any, answer: str, **fields: Any) -> None:
    """Register ``systmj.<name>`` (its request: the table state and ``fields``, as
    :class:`~tablee.registry.SystemOps` takes them), an op that changes the table's card library:
    ``change(library, request)`` gives the new library and what the answer holds as ``answer``."""

    @cards_op(name, state=True, summary=summary, **fields)
    def _handler(request: dict[str, Any]) -> dict[str, Any]:
        state = S.require_state(request["state"])
        library, out = change(_library(state), request)
        return {"state": _with(state, library=library), answer: out}


_library_op("card.save", "Create a card (no number: the app gives the next registry number of its family) or "
            "replace one (its number); a bad field is refused at that field and changes nothing.",
            lambda lib, q: LIB.save_card(lib, q["card"]), "card",
            takes={"card": {"type": "object", "maxProperties": 40}})
_library_op("card.import", "Import a card from outside (untrusted): checked whole, stored in the library under a "
            "fresh number of this table.",
            lambda lib, q: LIB.import_card(lib, q["card"]), "card", takes={"card": {}})
_library_op("card.give", "A card of the library goes to a character.",
            lambda lib, q: LIB.give(lib, E.require_entity(q["character"]), q["number"]), "character",
            character=True, takes={"number": _NUMBER})
_library_op("card.take", "A character's card goes back to the table's library.",
            lambda lib, q: LIB.take_back(lib, E.require_entity(q["character"]), q["number"]), "character",
            character=True, takes={"number": _NUMBER})


@cards_op("card.delete", state=True, takes={"number": _NUMBER},
           summary="Delete a card of the table's library (a held card must be taken back first); its number is never "
           "given again, and Savoir cards stop naming a deleted Pouvoir card.")
def _card_delete(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    return {"state": _with(state, library=LIB.delete(_library(state), request["number"]))}


#: The request of a Pouvoir card's learning and of its odds (the roll adds its seed).
_LEARN_CARD: dict[str, Any] = {
    "state": True,
    "character": True,
    "takes": {"number": _NUMBER, "gain": {"enum": list(D.LEARNING_GAINS)}},
    "may": {
        "mentor": {
            "type": "object",
            "properties": {"intelligence": _SCORE, "personnalite": _SCORE, "score": _SCORE, "character": _ID},
            "required": ["intelligence", "personnalite", "score"],
            "additionalProperties": False,
        },
    },
}


def _pouvoir_rolls(who: dict[str, Any]) -> list[dict[str, Any]]:
    """The learner's Pouvoir learning rolls already made ({session, key}: the card's number),
    read from its sheet's ``progress`` (entries of kind "learning", target "pouvoir")."""
    return [
        {"session": p["session"], "key": p["key"]}
        for p in who["progress"]
        if p["kind"] == "learning" and p["target"] == "pouvoir"
    ]


def _pouvoir_plan(request: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The Pouvoir card a character learns and the learning plan for it (4.4: « les PJ auront
    plus fréquemment la possibilité de les intégrer à travers un processus d'Apprentissage
    (voir 2.4 …) »; field 4, « La Difficulté d'Apprentissage (DA), entre 1 et 5 »). The card's
    ``score`` is the skill being learned and its ``da`` the DA; the learner's INT and PER give
    the cognitive limit (2.4.2). Reading (ours): the learner holds the card (the MJ gives it
    when the learning begins, at score 0 for a new power)."""
    state = S.require_state(request["state"])
    who = E.require_entity(request["character"])
    card = LIB.find(_library(state), request["number"])
    if card["family"] != "pouvoir":
        raise RulesError("systmj.card.not_pouvoir", number=request["number"])
    if card["holder"] != who["id"]:
        raise RulesError("systmj.card.not_held", number=request["number"])
    L.check_once_per_session(card["number"], state["session"], _pouvoir_rolls(who))
    plan = L.learning_plan(
        score=card["score"],
        intelligence=who["attributes"]["intelligence"],
        personnalite=who["attributes"]["personnalite"],
        da=card["da"],
        mentor=request.get("mentor"),
    )
    return state, card, plan


@cards_op("card.learn.odds", **_LEARN_CARD,
           summary="Learning a Pouvoir card before the roll: the limit and the exact distribution of the points gained "
           "(the card's score and DA, the learner's INT and PER).")
def _card_learn_odds(request: dict[str, Any]) -> dict[str, Any]:
    _state, card, plan = _pouvoir_plan(request)
    gains = L.gain_distribution(card["score"], plan["limit"], request["gain"])
    return {**plan, "number": card["number"], "score": card["score"], "da": card["da"],
            "points": [{"points": k, **_p(v)} for k, v in gains.items()],
            "improve": _p(sum((v for k, v in gains.items() if k > 0), Fraction(0)))}


@cards_op("card.learn", **_LEARN_CARD, seed=True,
           summary="Learning a Pouvoir card (seeded): d100 capped at the cognitive limit, quality, gain × the XP "
           "multiplier; the card's new score in the returned state, the roll in the learner's progress (returned "
           "character). Once per card and learner per session.")
def _card_learn(request: dict[str, Any]) -> dict[str, Any]:
    state, card, plan = _pouvoir_plan(request)
    rng = rng_from(request)
    tens, units = R.roll_d100(rng)
    gain_value = L.roll_die(request["gain"], D.LEARNING_GAINS, rng)
    result = L.resolve_learning(card["score"], plan["limit"], 10 * tens + units, gain_value)
    library = clone(_library(state))
    LIB.find(library, card["number"])["score"] = result["after"]
    # The roll is recorded on the learner's sheet (its progress), which is how a second roll
    # of the same card in the same session is refused (L.check_once_per_session, 2.4.1).
    who = clone(E.require_entity(request["character"]))
    who["progress"].append({"session": state["session"], "kind": "learning", "target": "pouvoir", "key": card["number"],
                            "before": result["before"], "after": result["after"], "note": card["name"][:200]})
    del who["progress"][: max(0, len(who["progress"]) - E.MAX_PROGRESS)]
    return {"seed": request["seed"], **plan, "number": card["number"], "gain": request["gain"],
            "dice": [tens, units], **result, "state": _with(state, library=library), "character": who}


# ------------------------------------------------------------------ wear (3.4.1)


@cards_op("wear.of", takes={"pu": _SCORE},
           summary="Degree and malus of an item's PU on the wear scale, and the test modifier it gives.")
def _wear_of(request: dict[str, Any]) -> dict[str, Any]:
    w = W.wear_of(request["pu"])
    modifier = {"source": "wear", "value": w["malus"]} if w["malus"] else None
    return {**w, "modifier": modifier}


def items_used(log: list[Any], session: int) -> list[str]:
    """The items (registry numbers) used during ``session``, in the order first used, read from
    the roll log: ``systmj.test`` entries whose subject names an ``item``, and
    ``systmj.combat.exchange`` entries whose subject lists ``items``. Any other entry is
    skipped (the log is the table's, not ours to trust)."""
    used: list[str] = []
    for entry in log:
        if not isinstance(entry, dict) or entry.get("kind") not in ("systmj.test", "systmj.combat.exchange"):
            continue
        request = entry.get("request")
        subject = request.get("subject") if isinstance(request, dict) else None
        if not isinstance(subject, dict) or subject.get("session") != session:
            continue
        found = subject.get("items") if isinstance(subject.get("items"), list) else [subject.get("item")]
        for number in found:
            if isinstance(number, str) and number not in used:
                used.append(number)
    return used


@cards_op("wear.plan", state=True, takes={"log": {"type": "array", "maxItems": 1000, "items": {"type": "object"}}},
           summary="The wear review's list: every card with PU used during the current session (from the log).")
def _wear_plan(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    library = _library(state)
    known = {c["number"]: c for c in library["cards"] if "pu" in c}
    used = [n for n in items_used(request["log"], state["session"]) if n in known]
    return {
        "session": state["session"],
        "items": [{"number": n, "name": known[n]["name"], **W.wear_of(known[n]["pu"])} for n in used],
    }


@cards_op(
    "wear.review", state=True, seed=True,
    takes={
        "items": {
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "items": {
                "type": "object",
                "properties": {"number": _NUMBER, "die": {"enum": list(W.WEAR_DICE)}},
                "required": ["number", "die"],
                "additionalProperties": False,
            },
        },
    },
    summary="End-of-session wear (seeded): each item loses the die the MJ chose (1D4..1D10) in PU.",
)
def _wear_review(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    library, results = W.review(_library(state), request["items"], rng_from(request), state["session"])
    return {"seed": request["seed"], "state": _with(state, library=library), "results": results}


@cards_op("wear.repair", state=True,
           takes={"number": _NUMBER, "points": {"type": "integer", "minimum": 1, "maximum": 99}},
           summary="Entretien & Réparation: the item regains PU (never past 99).")
def _wear_repair(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    library, result = W.repair(_library(state), request["number"], request["points"])
    return {"state": _with(state, library=library), **result}


# ------------------------------------------------------------------ rounds (3.2)

_ROUND_STATE = {"state": _STATE}


def _rounds(state: dict[str, Any]) -> dict[str, Any]:
    if "rounds" not in state:
        raise RulesError("systmj.round.none")
    return state["rounds"]


def armour_pa(library: dict[str, Any], character: dict[str, Any]) -> int:
    """PA of a fighter: the sum of the PA bonus of the armour cards it holds and wears (README
    reading), or the sheet's ``pa_max`` when it wears none."""
    worn = [
        c for c in library["cards"]
        if c["holder"] == character["id"] and c["family"] == "equipement" and "armure" in c["types"] and c["worn"]
    ]
    return min(999, sum(c["pa_bonus"] for c in worn)) if worn else character["pa_max"]


@cards_op(
    "round.start", state=True,
    takes={
        "characters": {"type": "array", "minItems": 1, "maxItems": RD.MAX_ENTITIES,
                       "items": _CHAR},
    },
    summary="Action & Mouvement from round 1 with these entities (their PV from the sheet, their PA from the armour "
    "worn).",
)
def _round_start(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    library = _library(state)
    fighters = [{"id": c["id"], "pv": c["pv_max"], "pa": armour_pa(library, c)} for c in request["characters"]]
    new = S.set_phase(state, "action_mouvement")
    # One counter: the tracker opens at the table's current round (1 from Jeu libre).
    return {"state": {**new, "rounds": {**RD.start(fighters), "round": new["round"]}}}


def _round_op(name: str, summary: str, props: dict[str, Any], fn: Any) -> None:
    @cards_op(name, state=True, takes=props, summary=summary)
    def _handler(request: dict[str, Any]) -> dict[str, Any]:
        state = S.require_state(request["state"])
        rounds = fn(_rounds(state), request)
        new = {**state, "rounds": rounds, "round": rounds["round"]}
        return {"state": new, "view": RD.view(rounds)}


_round_op("round.choose", "An entity's hidden Action or Mouvement for the coming round.",
          {"entity": _ID, "choice": {"enum": list(RD.CHOICES)}},
          lambda r, q: RD.choose(r, q["entity"], q["choice"]))
def _defend(rounds: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    card = request.get("card")
    if card:
        held = next((c for c in _library(request["state"])["cards"] if c["number"] == card), None)
        if held is None or held["holder"] != request["entity"]:
            raise RulesError("systmj.card.not_held", number=card)
    return RD.defend(rounds, request["entity"], request["defence"], card)


@cards_op("round.defend", state=True, takes={"entity": _ID, "defence": {"enum": list(RD.DEFENCES)}},
           may={"card": _NUMBER},
           summary="The defence an entity will try this round when an attack on it succeeds (esquive, parade, "
           "encaissement or none), with the card it holds for it; hidden from players, taken by an exchange "
           "that gives no defence.")
def _round_defend(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    rounds = _defend(_rounds(state), request)
    return {"state": {**state, "rounds": rounds}, "view": RD.view(rounds)}


_round_op("round.reveal", "Every choice is revealed together; they are locked for the round.",
          {}, lambda r, q: RD.reveal(r))
_round_op("round.acted", "An entity has played its one Action or Mouvement of the round.",
          {"entity": _ID}, lambda r, q: RD.acted(r, q["entity"]))
_round_op("round.order", "The MJ's order for the round.",
          {"order": {"type": "array", "maxItems": RD.MAX_ENTITIES, "items": _ID}},
          lambda r, q: RD.reorder(r, q["order"]))
_round_op("round.vitals", "A fighter's current PV and PA.",
          {"entity": _ID, "pv": _POOL, "pa": _POOL},
          lambda r, q: RD.set_vitals(r, q["entity"], q["pv"], q["pa"]))


@cards_op("round.next", state=True,
           summary="The next round: new hidden choices (the same counter as systmj.phase.next_round).")
def _round_next(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    _rounds(state)
    new = S.next_round(state)
    return {"state": new, "view": RD.view(new["rounds"])}


@cards_op("round.view", state=True,
           summary="The round as the table may see it: before the reveal, who has chosen but never what.")
def _round_view(request: dict[str, Any]) -> dict[str, Any]:
    state = S.require_state(request["state"])
    return {"view": RD.view(_rounds(state))}


@cards_op("round.end", state=True, summary="Back to Jeu libre: the round is over.")
def _round_end(request: dict[str, Any]) -> dict[str, Any]:
    return {"state": S.set_phase(S.require_state(request["state"]), "jeu_libre")}


# ------------------------------------------------------------------ combat (3.3)

_ATTRS = {
    "type": "object",
    "properties": {a: _SCORE for a in D.ATTRIBUTES},
    "required": list(D.ATTRIBUTES),
    "additionalProperties": False,
}
_FIGHTER = {
    "type": "object",
    "properties": {
        "id": _ID,
        "attributes": _ATTRS,
        "dissimulation": _SCORE,
        "detection": _SCORE,
        "pv": _POOL,
        "pa": _POOL,
        "aware": {"type": "boolean"},
    },
    "required": ["attributes"],
    "additionalProperties": False,
}
_MOD = {
    "type": "object",
    "properties": {
        "source": {"enum": ["mj", "wear", "other"]},
        "value": {"type": "integer", "minimum": D.MODIFIER_MIN, "maximum": D.MODIFIER_MAX},
        "label": {"type": "string", "maxLength": 80},
    },
    "required": ["source", "value"],
    "additionalProperties": False,
}
_EXCHANGE: dict[str, Any] = {
    "kind": {"enum": list(C.KINDS)},
    "category": {"enum": list(C.RANGED)},
    "attacker": _FIGHTER,
    "defender": _FIGHTER,
    "weapon": LIB.CARD_SCHEMA,
    "defence": {"enum": list(C.DEFENCES)},
    "defence_card": LIB.CARD_SCHEMA,
    "damage": {"type": "array", "minItems": 3, "maxItems": 3, "items": _POOL},
    "modifiers": {"type": "array", "maxItems": 8, "items": _MOD},
    "counter": {"type": "boolean"},
    "state": _STATE,
    "subject": {
        "type": "object",
        "properties": {
            "session": _SESSION,
            "attacker": _ID,
            "defender": _ID,
            "items": {"type": "array", "maxItems": 4, "items": _NUMBER},
        },
        "additionalProperties": False,
    },
}
_EXCHANGE_REQUIRED = ("kind", "attacker", "defender")


@cards_op("combat.score", takes={"formula": {"enum": list(C.FORMULAS)}, "attributes": _ATTRS},
           may={"card": LIB.CARD_SCHEMA},
           summary="A combat score with its formula and numbers (rounded down, + the card's ATT or DEF) and the card's "
           "wear malus.")
def _combat_score(request: dict[str, Any]) -> dict[str, Any]:
    return C.combat_score(request["formula"], request["attributes"], request.get("card"))


def _bound(request: dict[str, Any]) -> dict[str, Any] | None:
    """The round an exchange is bound to, checked before any roll (3.2: one Action or one
    Mouvement per round, « l'une ou l'autre » revealed and locked; 3.3: « Le combat est une
    Action »): when the request carries the table ``state`` with a round tracker holding the
    attacker, the round must be revealed and the attacker must have revealed Action and not
    have acted yet. A counter-attack answers inside the failed attack's Action (see
    :mod:`.combat`): it needs a revealed round only. None when nothing binds the exchange."""
    if "state" not in request:
        return None
    state = S.require_state(request["state"])
    rounds = state.get("rounds")
    attacker = request["attacker"].get("id")
    ids = [e["id"] for e in rounds["entities"]] if rounds else []
    if attacker is None or attacker not in ids:
        return None
    if not rounds["revealed"]:
        raise RulesError("systmj.round.not_revealed")
    entry = rounds["entities"][ids.index(attacker)]
    if not request.get("counter", False):
        if entry["choice"] != "action":
            raise RulesError("systmj.round.not_action", entity=attacker)
        if entry["acted"]:
            raise RulesError("systmj.round.already_acted", entity=attacker)
    return state


def _after(state: dict[str, Any], request: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The round after a bound exchange: the attacker has acted (unless it counter-attacked)
    and a defender of the round keeps the PV and PA the damage left."""
    rounds = state["rounds"]
    if not request.get("counter", False):
        rounds = RD.acted(rounds, request["attacker"]["id"])
    defender = request["defender"].get("id")
    if result["outcome"] == "hit" and any(e["id"] == defender for e in rounds["entities"]):
        rounds = RD.set_vitals(rounds, defender, result["damage"]["pv"], result["damage"]["pa"])
    return {**state, "rounds": rounds}


def _check(request: dict[str, Any]) -> None:
    total = sum(m["value"] for m in request.get("modifiers", []))
    if not D.MODIFIER_MIN <= total <= D.MODIFIER_MAX:
        raise RulesError("systmj.combat.modifiers", total=total)
    for key in ("weapon", "defence_card"):
        if key in request:
            problems = LIB.card_problems(request[key])
            if problems:
                raise RulesError("systmj.card.not_valid", field=f"{key}.{problems[0].field}")


@cards_op("combat.odds", properties=_EXCHANGE, required=_EXCHANGE_REQUIRED,
           summary="Exact chances of an attack before it is rolled: counter-attack, missed, defended, hit; damage and "
           "PV lost.")
def _combat_odds(request: dict[str, Any]) -> dict[str, Any]:
    _check(request)
    _bound(request)
    o = C.exchange_odds(request)
    return {
        "scores": o["scores"],
        "damage_table": o["damage_table"],
        "outcomes": {k: _p(v) for k, v in o["outcomes"].items()},
        "steps": {k: _p(v) for k, v in o["steps"].items()},
        "damage": [{"amount": k, **_p(v)} for k, v in o["damage"].items()],
        "pv_lost": [{"amount": k, **_p(v)} for k, v in o["pv_lost"].items()],
    }


def _declared(request: dict[str, Any], state: dict[str, Any] | None) -> dict[str, Any]:
    """A bound exchange that gives no ``defence`` takes the one the defender declared for the
    round (systmj.round.defend: rounds.py), with its card from the library; none declared is
    no defence tried."""
    if state is None or "defence" in request or request.get("counter", False):
        return request
    defender = request["defender"].get("id")
    entry = next((e for e in state["rounds"]["entities"] if e["id"] == defender), None)
    if entry is None or "defence" not in entry:
        return request
    out = {**request, "defence": entry["defence"]}
    card = next((c for c in _library(state)["cards"] if c["number"] == entry.get("defence_card")), None)
    if card is not None and card["holder"] == defender:
        out["defence_card"] = card
    return out


@cards_op("combat.exchange", properties={**_EXCHANGE, "seed": SEED_SCHEMA},
           required=(*_EXCHANGE_REQUIRED, "seed"),
           summary="One attack rolled (seeded): Discrétion/Détection for a stealth attack, the attack, the defence, "
           "the damage through PA then PV. With the table state, bound to the round: only an attacker who revealed "
           "Action and has not acted; the new state marks it acted and keeps the defender's PV and PA. counter: the "
           "counter-attack a failed attack opened (no defence).")
def _combat_exchange(request: dict[str, Any]) -> dict[str, Any]:
    _check(request)
    state = _bound(request)
    request = _declared(request, state)
    rng = rng_from(request)
    result = C.exchange(request, lambda: R.roll_d100(rng), lambda: rng.randint(1, 6))
    echo = {"subject": request["subject"]} if "subject" in request else {}
    bound = {"state": _after(state, request, result)} if state is not None else {}
    return {"seed": request["seed"], **result, **echo, **bound}


@cards_op(
    "combat.initiative", seed=True,
    takes={
        "fighters": {
            "type": "array",
            "minItems": 1,
            "maxItems": RD.MAX_ENTITIES,
            "items": {
                "type": "object",
                "properties": {"id": _ID, "rapidite": _SCORE},
                "required": ["id", "rapidite"],
                "additionalProperties": False,
            },
        },
    },
    summary="Initiative in open melee (seeded): Rapidité tests, critical successes first, then successes from the "
    "highest roll, then failures (who cannot attack first).",
)
def _initiative(request: dict[str, Any]) -> dict[str, Any]:
    rng = rng_from(request)
    return {"seed": request["seed"], "order": C.initiative(request["fighters"], lambda: R.roll_d100(rng))}
