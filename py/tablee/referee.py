"""The live table's referee: a player's move, checked and applied on the MJ's whole table.

DESIGN.md, principle 8: "A phone never writes the table directly: it sends moves (the op
requests it already makes), and the MJ's device, which holds the whole table and runs the
engine, checks each move against the identity of the link it came on, applies it, and
publishes what each device may see." This module is that check and that application, as one
pure op (``live.move``) the MJ's device calls with its whole document, the member the link
belongs to (its id, its name and the characters the MJ assigned to it: never what the
message claims) and the move as the phone sent it.

A move is the request a system page already makes on one device, minus the hidden state: the
referee fills the system's table state in from the MJ's table, replaces every character the
move names by the MJ's record of it (a phone's copy is the player view, never the whole
record), draws the move's seed itself (a phone could choose a seed that draws the card it
wants) and drops the fields only the MJ sets (:attr:`Move.mj_fields`). What the move may
touch is data (:data:`MOVES`), not code branches: which system state it reads and writes,
which request fields name an acting character (each must be one of the member's), whether
the answer is merged into the state (Versality's player ops answer the public state only).

Anything else is refused with a stable code and the table unchanged: an op that is not a
move (an MJ op, ``live.refused.not_a_move``), a character that is not the member's
(``live.refused.character``), a record the store refuses (``live.refused.invalid``). The
answer for the phone holds the op's answer without the whole state: ``state`` is the system
state as any player sees it (the same filter as the public doc, :mod:`tablee.share`).

Two moves are the kernel's own: ``live.character.save`` (a whole-sheet edit of one of the
member's characters; a field the player view hides or blanks keeps the MJ's value, so a
blanked secret is never taken for the player's own; a new id is a character the player made,
added and answered ``created``), ``live.log.label`` (a page's words for the entry the referee
logged for the member's move) and ``live.log.add`` (a roll-log entry without a result,
checked like an imported one, dated by the MJ's device and signed by the member: a ``who``
that is neither the member's name nor one of its characters' becomes the member's name).

The MJ's device rolls: a move whose op takes a seed is logged by the referee from its own run
(:func:`_log_run`), and a phone's log line carrying a request or a result is refused
(``live.refused.result``). What goes back to a phone is filtered: the answer without the
whole state, the deck a draw used, or (after a hidden state was read) the seed; an error with
only the params of :data:`_SAFE_PARAMS` (:func:`phone_error`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import held, share, store
from .errors import RulesError, declare
from .registry import OPS, SEED_SCHEMA, SYSTEM_IDS, from_json, op
from .tree import clone

__all__ = ["MOVES", "Move", "apply_changes", "apply_move", "changes", "is_move", "phone_error"]

declare(
    "live.refused.not_a_move",
    "live.refused.character",
    "live.refused.invalid",
    "live.refused.no_state",
    "live.refused.duplicate",
    "live.refused.result",
    "live.refused.malformed",
    "live.refused.sheet",
    "live.refused.keep",
    "live.refused.no_round",
)

#: Keys of an op's answer that never go back to a phone (the whole state, Versality's merge).
_ANSWER_SECRETS = ("state", "public", "penalties")
#: Keys, at any depth of an op's answer, holding a draw pile's order as it stood before a draw
#: (Théorem's ``deck_used``, Versality's ``test.deck_used``: kept for a replay on one device).
#: A phone never gets them: the order of what is left is the MJ's secret (the issue: "no draw
#: orders"); the MJ's feed keeps the seed to replay a draw.
_DRAW_ORDERS = frozenset({"deck_used"})


@dataclass(frozen=True)
class Move:
    """What a move may touch.

    ``system``: the system whose state the op reads and writes (``None``: no state).
    ``actors``: request fields naming an acting character: ``("character", "record")`` (the
    record, replaced by the MJ's) or ``("character_id", "id")``; each must be the member's.
    ``merge``: the op answers ``public``/``penalties``, merged by ``versality.state.merge``.
    ``mj_fields``: request fields only the MJ sets (dropped from a player's move).
    ``part``: the op's state is this key of the system's state (Unicreon's ``combat``).
    An actor ``("attacker", "cid")`` names a combatant of that state whose ``character_id``
    must be one of the member's; ``("attacker", "fighter")`` a fighter object whose ``id`` must.
    An actor ``("a", "side")`` is a side object of an
    opposition whose ``character_id`` must be one of the member's; ``("b", "side?")`` the
    same when the side names a character at all (an NPC side names none).
    ``state``: the op takes the system state as ``state`` (False: the op is stateless, the
    move still reads and may write the state through ``prepare``/``record``).
    ``prepare(request, ctx)``: fills in what only the MJ's table knows and checks what the
    phone declared against the MJ's record (``ctx``: the member's acting ``character`` as the
    MJ holds it, the system ``state``); it returns the op request (move-only fields removed).
    ``record(answer, request, ctx)``: the new system state the move leaves besides the op's
    own (None: unchanged), e.g. the Tension point a Point Zéro test spends.
    ``log_only``: fields ``prepare`` leaves in the request for the move's log entry only, never
    sent to the op (a Méticuleux choice's ``entry``: the roll it resolves).
    ``sheet(answer, request, ctx)``: the acting character's record as the move leaves it, for an
    op that answers no ``character`` although its outcome belongs on the sheet (a SYSTMJ
    learning roll: the new score and the roll in the sheet's progress); None: unchanged.
    ``needs_state``: False when the move may run on a table without the system's state (a
    Unicreon table holds none until the MJ opens a fight or adds an item): ``prepare`` and
    ``record`` then get ``state`` None.
    An actor ``("healer", "id?")`` is an ``id`` actor the request may leave out; ``("subject",
    "subject")`` a SYSTMJ test subject whose ``character`` must be one of the member's.
    ``others``: request fields naming, by a record the request may leave out, a character the
    move acts on that need not be the member's (the patient of a care item, the victim of a
    poison): a character of the move's system on the MJ's table, replaced by the MJ's record;
    the op's answer of the same key is that character as the move leaves it, written to the
    table and answered as its player view.
    """

    system: str | None
    actors: tuple[tuple[str, str], ...] = ()
    merge: bool = False
    mj_fields: tuple[str, ...] = ()
    part: str | None = None
    state: bool = True
    prepare: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] | None = None
    record: Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], dict[str, Any] | None] | None = None
    log_only: tuple[str, ...] = ()
    sheet: Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], dict[str, Any] | None] | None = None
    needs_state: bool = True
    others: tuple[str, ...] = ()


def _fold(text: str) -> str:
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch)).strip().lower()


def _pz_test(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Point Zéro, a test rolled from a phone (``pointzero.test.roll`` with a move-only
    ``character_id``, one of the member's characters).

    The levels are the sheet's, never the phone's: the attribute named by ``attribute_code``
    and the skill named by ``skill_name`` are read from the MJ's record of the character (a
    name or code the sheet does not hold is refused, ``live.refused.sheet``), Méticuleux from
    its atouts. Tension critique is the MJ's table's: 002_61483667e16cef6b.txt,
    "sURPASSEMENT": « Il n’est pas possible de se surpasser lors d’une Tension critique (cf.
    chapitre "Jauge de Tension") »; rules/README.md (Point Zéro): "when it reaches the threshold
    it is Tension critique (no Surpassement) ... Players see the gauge, never the threshold".
    A phone sees no threshold, so ``critical`` is set here from the whole state (the threshold
    included) and a sacrifice is refused by the op for everyone once the gauge reached it; the
    refusal names no threshold. The table's Tension rule is the state's. A Tension point used
    for the test (``tension``: +2 dice, README "declared before rolling") goes into the gauge
    with the roll, in the same move (:func:`_pz_tension`): the gauge rises once, only if the
    roll is made. ``keep`` (README: "Atout Méticuleux: its holder chooses which dice to keep
    instead of being forced to keep the best") is :func:`_pz_keep`."""
    from .systems.pointzero import tension as T

    if "keep" in request:
        return _pz_keep(request, ctx)
    request.pop("entry", None)
    request.pop("character_id", None)
    character, state = ctx["character"], ctx["state"]
    test = request.get("test")
    if not isinstance(test, dict):
        raise _refuse("live.refused.invalid", field="test")
    test = dict(test)
    attributes = {a.get("code"): a for a in character.get("attributes", []) if isinstance(a, dict)}
    attribute = attributes.get(test.get("attribute_code"))
    if attribute is None:
        raise _refuse("live.refused.sheet", field="test.attribute_code")
    test["attribute"] = attribute.get("level")
    if test.get("kind") == "skill":
        name = test.get("skill_name")
        skill = next((k for k in character.get("skills", []) if isinstance(k, dict) and isinstance(name, str)
                      and isinstance(k.get("name"), str) and k["name"][:60] == name), None)
        if skill is None:
            raise _refuse("live.refused.sheet", field="test.skill_name")
        test["skill"] = skill.get("level")
        test["tension_rule"] = state.get("tension_rule", "missing_dice")
    test["critical"] = _pz_critical(T.require_state(state))
    test["meticuleux"] = any(isinstance(a, str) and _fold(a) == "meticuleux" for a in character.get("atouts", []))
    request["test"] = test
    return request


def _pz_keep(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Point Zéro, a Méticuleux holder choosing the dice kept from a roll the referee made.

    On one device the page rolls the same seed again with ``keep``; at a live table the seed
    is the MJ's device's, never sent to the phone, and a second roll would be a new one. So the
    move names the referee's entry of the roll (``entry``: its id, answered ``logged``) and the
    dice kept; the referee resolves the test of that entry on the dice of that entry, both as
    the MJ's table recorded them (``pointzero.test.resolve``): the phone sends no dice and no
    levels. The entry must be this character's test (``live.refused.keep`` otherwise) with dice
    not chosen yet (a choice is final: the new entry, which names the roll's, says what was
    kept). The Tension point of the roll is not spent again (:func:`_pz_tension`)."""
    cid = request.get("character_id")
    eid = request.get("entry")
    entry = next((e for e in ctx["document"]["log"] if isinstance(e, dict) and isinstance(eid, str)
                  and e.get("id") == eid), None)
    logged = entry.get("request") if isinstance(entry, dict) else None
    if not (isinstance(logged, dict) and entry.get("kind") == "pointzero.test"
            and logged.get("op") == "pointzero.test.roll" and logged.get("character_id") == cid
            and isinstance(logged.get("test"), dict) and logged["test"].get("meticuleux") is True):
        raise _refuse("live.refused.keep")
    if any(isinstance(e, dict) and isinstance(e.get("request"), dict) and e["request"].get("entry") == eid
           for e in ctx["document"]["log"]):
        raise _refuse("live.refused.keep")  # already chosen
    result = entry.get("result")
    result = result.get("result") if isinstance(result, dict) else None
    rolled = result.get("dice") if isinstance(result, dict) else None
    if not isinstance(rolled, list) or not all(isinstance(d, dict) and isinstance(d.get("value"), int) for d in rolled):
        raise _refuse("live.refused.keep")
    return {"op": "pointzero.test.resolve", "test": clone(logged["test"]),
            "dice": [d["value"] for d in rolled], "keep": request["keep"], "entry": eid}


def _pz_critical(state: dict[str, Any]) -> bool:
    from .systems.pointzero import tension as T

    return T.player_view(state)["critical"]


def _pz_tension(answer: dict[str, Any], request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any] | None:
    """The Tension point a Point Zéro skill test used goes into the gauge (rules/README.md:
    "every Tension point a player uses goes into it"), signed with the character's name."""
    from .systems.pointzero import tension as T

    test = request["test"]
    if request.get("op") != "pointzero.test.roll" or not (test.get("kind") == "skill" and test.get("tension") is True):
        return None  # (a Méticuleux choice resolves a roll whose point was spent with it)
    name = ctx["character"].get("name")
    return T.use_point(ctx["state"], "dice", name[:80] if isinstance(name, str) else "", "")


def _uc_defence(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Unicreon, a passe d'armes from the attacker's phone: the defender's protection is not
    the attacker's to choose. It is the one the defender wears or holds on the MJ's record of
    its sheet (inventory ``carried`` "worn" or "hand"; a fighter with no sheet, a generic NPC:
    its first one), as the combat page sets it by default on one device. The defender's
    malus (``defender_malus``, the MJ's) is dropped by :attr:`Move.mj_fields`, and so is the
    defender's skill (``defender_skill``): the skill a defender uses is not the attacker's to
    say (the MJ's combat screen sets it). The attacker's skill (``attacker_skill``, a level) must
    be the level of one of the attacker's skills on the MJ's record of its sheet, as the combat
    page offers them (004_12a5de9999b9d0ad.txt: a character's own skills, Faible +5 to Fort
    +30): a phone cannot give its fighter a skill it does not have (``live.refused.sheet``)."""
    fighters = ctx["state"].get("combatants", [])
    level = request.get("attacker_skill")
    if level is not None:
        fighter = next((f for f in fighters if isinstance(f, dict) and f.get("cid") == request.get("attacker")), {})
        sheet = next((c for c in ctx["document"]["characters"] if isinstance(c, dict)
                      and c.get("id") == fighter.get("character_id")), {})
        if level not in {k.get("level") for k in sheet.get("skills", []) if isinstance(k, dict)}:
            raise _refuse("live.refused.sheet", field="attacker_skill")
    defender = next((f for f in fighters if isinstance(f, dict) and f.get("cid") == request.get("defender")), None)
    request.pop("protection", None)
    if defender is None:
        return request  # the op refuses an unknown defender
    protections = [p for p in defender.get("protections", []) if isinstance(p, dict)]
    sheet = next((c for c in ctx["document"]["characters"] if isinstance(c, dict)
                  and c.get("id") == defender.get("character_id")), None) if defender.get("character_id") else None
    if sheet is None:
        chosen = protections[0] if protections else None
    else:
        on = {i.get("uid") for i in sheet.get("inventory", [])
              if isinstance(i, dict) and i.get("carried") in ("hand", "worn")}
        chosen = next((p for p in protections if p.get("uid") in on), None)
    if chosen is not None:
        request["protection"] = chosen["uid"]
    return request


def _sj_fighter(document: dict[str, Any], rounds: dict[str, Any], cid: Any) -> dict[str, Any]:
    """A SYSTMJ fighter as the MJ's combat screen builds it (systmj/combat.js ``fighter``):
    the MJ's record of the sheet, the PV and PA the round keeps."""
    sheet = next((c for c in document["characters"] if isinstance(c, dict) and c.get("id") == cid
                  and c.get("system") == "systmj"), None)
    if sheet is None:
        raise _refuse("live.refused.invalid", field="defender")
    vitals = next((e for e in rounds["entities"] if e.get("id") == cid), None)
    return {"id": cid, "attributes": clone(sheet["attributes"]),
            "dissimulation": sheet["skills"]["dissimulation"], "detection": sheet["skills"]["detection"],
            "pv": vitals["pv"] if vitals else sheet["pv_max"], "pa": vitals["pa"] if vitals else sheet["pa_max"]}


def _sj_attack(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """SYSTMJ, an attack declared from the attacker's phone (3.3: « Le combat est une Action »).

    The attacker's player sends their side: which of their characters attacks (``attacker.id``),
    whom (``defender.id``), how (``kind``, ``category``) and with which weapon card of theirs
    (``weapon.number``). The referee builds both fighters from the MJ's records (sheet scores,
    the round's PV and PA: a phone cannot inflate them), takes the weapon from the table's
    library (a card the attacker does not hold is refused, ``live.refused.sheet``) and binds
    the attack to the round in progress (a revealed Action not played yet; no round: refused,
    ``live.refused.no_round``). The other side is the defender's: 3.3.2 « S’il réussit son
    attaque en revanche, son adversaire peut tenter une Défense »: the attacker's phone does
    not choose it (``defence``, ``defence_card`` are dropped); the exchange takes the defence
    the defender declared for the round (``systmj.round.defend``: its player's move from their
    phone, the MJ's for an NPC), none declared being no defence tried. What only the MJ sets
    is dropped too: ``modifiers``, a ``damage`` override, ``counter`` (the counter-attack a
    failed attack opens is played on the MJ's screen), ``aware``."""
    state = ctx["state"]
    rounds = state.get("rounds")
    attacker = ctx["character"]["id"]
    if not isinstance(rounds, dict) or all(e.get("id") != attacker for e in rounds.get("entities", [])):
        raise _refuse("live.refused.no_round")
    defender = request.get("defender")
    out = {k: v for k, v in request.items() if k in ("op", "kind", "category", "seed")}
    out["attacker"] = _sj_fighter(ctx["document"], rounds, attacker)
    out["defender"] = _sj_fighter(ctx["document"], rounds, defender.get("id") if isinstance(defender, dict) else None)
    weapon = request.get("weapon")
    if weapon is not None:
        number = weapon.get("number") if isinstance(weapon, dict) else None
        card = next((c for c in state.get("library", {}).get("cards", []) if c.get("number") == number), None)
        if card is None or card.get("holder") != attacker:
            raise _refuse("live.refused.sheet", field="weapon")
        out["weapon"] = clone(card)
    return out


#: The learning qualities by the names of 000_d267ce9097809d3e.txt, 2.4.3 (the table "Jet
#: d'Apprentissage / Qualité de l'apprentissage"): the note a learning roll leaves in the sheet's
#: progress, as the learning page writes it on a French table.
_SJ_QUALITY = {"echec_critique": "Échec critique", "mauvais": "Mauvais apprentissage",
               "mediocre": "Apprentissage médiocre", "moyen": "Apprentissage moyen", "bon": "Bon apprentissage",
               "tres_bon": "Très bon apprentissage", "excellent": "Excellent apprentissage",
               "exceptionnel": "Apprentissage exceptionnel", "legendaire": "Apprentissage légendaire"}
#: The gain of a learning roll made from a phone. 000_d267ce9097809d3e.txt, 2.4.1: the gain is
#: the MJ's to grant (« Le MJ pourra alors lui accorder, par exemple, un jet d'apprentissage
#: quotidien avec un gain modeste (1 point/jour) », 1D4 for a day of travel, 1D10 or 1D20 for
#: a school); rules/README.md (SYSTMJ): "the MJ chooses the gain of the session". A phone
#: cannot grant itself one: the gain is the table's (``systmj.session.gain``, in the state),
#: the modest 1 point until the MJ chose another.
def _sj_gain(state: dict[str, Any] | None) -> str:
    from .systems.systmj import data as D

    gain = state.get("learning_gain") if isinstance(state, dict) else None
    return gain if gain in D.LEARNING_GAINS else "1"


def _sj_score(character: dict[str, Any], key: str) -> int:
    """A SYSTMJ skill score of a sheet (a special skill missing from ``special`` is 0, Inapte:
    entity.py), as the learning page reads it (systmj/common.js ``scoreOf``)."""
    from .systems.systmj import data as D

    if key in D.GENERIC_SKILLS:
        return character["skills"][key]
    special = character.get("special")
    return special.get(key, 0) if isinstance(special, dict) else 0


def _sj_learning(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """SYSTMJ (000_d267ce9097809d3e.txt), a learning roll (2.4) from the phone of the player of
    the character the roll's ``subject.character`` names.

    Everything the roll reads is the MJ's table's, never the phone's numbers: the skill's score,
    INT and PER from the MJ's record of the sheet (2.4.3: « (INT + PER du PJ) / 2 »); the DA,
    which sets the level needed to study alone (2.4.3, "Table des Difficultés d'Apprentissage"),
    is the skill's on the table (a special skill's in the universe, a generic skill's in the
    rules data, as the page offers it by default); the session is the MJ's state's, and the
    rolls already made in it are read from the MJ's record's progress, so the engine's rule of
    one learning roll per skill per session (2.4.1, ``systmj.learning.once_per_session``: the
    period of study read as the session, learning.py ``check_once_per_session``) holds against
    a phone that forgets its own. A mentor (2.4.3, "Apprentissage par mentorat") is a character
    of the table other than the learner and not a créature, as the page offers them; its INT,
    PER and score are read from the MJ's record of it. The gain is the MJ's (2.4.1, see
    :func:`_sj_gain`). Only a skill can be studied (``subject.target`` "skill", a skill the
    table knows: ``live.refused.sheet`` otherwise)."""
    from .systems.systmj import data as D

    character, state = ctx["character"], ctx["state"]
    subject = request.get("subject")
    key = subject.get("key") if isinstance(subject, dict) else None
    if not isinstance(subject, dict) or subject.get("target") != "skill":
        raise _refuse("live.refused.invalid", field="subject.target")
    universe = state.get("universe") if isinstance(state.get("universe"), dict) else {}
    specials = {s.get("id"): s for s in universe.get("special_skills", []) if isinstance(s, dict)}
    if key in D.GENERIC_SKILLS:
        da = D.GENERIC_DA[key]
    elif isinstance(key, str) and key in specials:
        da = specials[key].get("da")
    else:
        raise _refuse("live.refused.sheet", field="subject.key")
    session = state.get("session")
    learned = [{"session": p["session"], "key": p["key"]} for p in character.get("progress", [])
               if isinstance(p, dict) and p.get("kind") == "learning" and p.get("target") == "skill"
               and p.get("session") == session and isinstance(p.get("key"), str)][-300:]
    out = {"op": request["op"], "score": _sj_score(character, key),
           "intelligence": character["attributes"]["intelligence"],
           "personnalite": character["attributes"]["personnalite"], "da": da, "gain": _sj_gain(state),
           "subject": {"character": character["id"], "target": "skill", "key": key, "session": session},
           "learned": learned, "seed": request["seed"]}
    mentor = request.get("mentor")
    if mentor is not None:
        mid = mentor.get("character") if isinstance(mentor, dict) else None
        record = next((c for c in ctx["document"]["characters"] if isinstance(c, dict) and isinstance(mid, str)
                       and c.get("id") == mid and c.get("system") == "systmj"), None)
        if record is None or mid == character["id"] or record.get("kind") == "creature":
            raise _refuse("live.refused.invalid", field="mentor")
        out["mentor"] = {"intelligence": record["attributes"]["intelligence"],
                         "personnalite": record["attributes"]["personnalite"], "score": _sj_score(record, key),
                         "character": mid}
    return out


def _sj_learned(answer: dict[str, Any], request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """The sheet after a learning roll, as the learning page writes it on one device: the new
    score (never past 99: rules/README.md, SYSTMJ, "Scores never exceed 99"; learning.py
    ``apply_gain``; a special skill at 0 leaves ``special``) and the roll in the sheet's progress
    (its session, the skill, before and after, the quality of 000_d267ce9097809d3e.txt 2.4.3's
    table and the mentor as the note), which is what refuses a second roll this session (2.4.1,
    read as one roll per skill per session)."""
    from .systems.systmj import data as D
    from .systems.systmj import entity as E

    record = clone(ctx["character"])
    key, after = request["subject"]["key"], answer["after"]
    if key in D.GENERIC_SKILLS:
        record["skills"][key] = after
    elif after > 0:
        record["special"][key] = after
    else:
        record["special"].pop(key, None)
    note = _SJ_QUALITY.get(answer["quality"], answer["quality"])
    mentor = request.get("mentor")
    if isinstance(mentor, dict):
        name = next((c.get("name") for c in ctx["document"]["characters"]
                     if isinstance(c, dict) and c.get("id") == mentor.get("character")), "")
        note += f" · mentor\u00a0: {name}" if isinstance(name, str) and name.strip() else ""
    record["progress"].append({"session": request["subject"]["session"], "kind": "learning", "target": "skill",
                               "key": key, "before": answer["before"], "after": after, "note": note[:200]})
    del record["progress"][: max(0, len(record["progress"]) - E.MAX_PROGRESS)]
    return record


def _sj_card_gain(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """SYSTMJ, learning a Pouvoir card from its holder's phone (000_d267ce9097809d3e.txt, 4.4:
    « à travers un processus d'Apprentissage (voir 2.4 …) »): the card's score and DA, the
    learner's INT and PER and its rolls of the session are read by the op from the MJ's library
    and record; the gain is the MJ's (2.4.1, :func:`_sj_gain`) and the mentor is dropped
    (the cards page offers none)."""
    request["gain"] = _sj_gain(ctx["state"])
    return request


def _uc_fighter(state: dict[str, Any] | None, cid: Any) -> dict[str, Any] | None:
    """The combatant of the character ``cid`` in the table's open Unicreon fight, or None."""
    combat = state.get("combat") if isinstance(state, dict) else None
    if not isinstance(combat, dict) or combat.get("phase") == "over":
        return None
    return next((f for f in combat.get("combatants", []) if isinstance(f, dict) and f.get("character_id") == cid), None)


def _uc_fight_pv(record: dict[str, Any], state: dict[str, Any] | None) -> dict[str, Any]:
    """``record`` with the PV and down state of its combatant while a fight is open (the
    combatant holds the character's current PV: unicreon/combat.py ``sync_character``)."""
    fighter = _uc_fighter(state, record.get("id"))
    if fighter is None or not isinstance(fighter.get("pv"), int):
        return record
    return {**record, "pv": min(fighter["pv"], record["pv_max"]), "down": fighter.get("down")}


def _uc_health(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Unicreon, a health op on one of the player's characters (004_12a5de9999b9d0ad.txt,
    "Gestion de la santé": damage, care, rest, conditions, the adventure day, a diagnosis).

    The op runs on the MJ's record of the sheet (the phone's copy is the player view, never the
    record) with the PV of the open fight while the character fights, as the sheet page does on
    one device (unicreon/combat.py ``sync_character``: while a fight is open the combatant holds
    the character's current PV; :func:`_uc_synced` copies the result back). A diagnosis
    ("Soins": the healer's Perception test at Moyen) reads the healer's Perception from the MJ's
    record of the healer: ``healer`` names one of the member's characters (the patient when
    absent); a skill for it must be one of the healer's sheet's levels (``live.refused.sheet``).
    An affliction is undiagnosed ("Poisons et maladies": a cause unknown until diagnosed; the
    ``diagnosed`` flag is the MJ's, dropped by :attr:`Move.mj_fields`). The state at 0 PV is
    the MJ's to choose ("Gestion de la santé": « il tombe inconscient ou meurt, au choix de la
    MJ »); a phone could always set it through a sheet save, and this move takes it like one."""
    request["character"] = _uc_fight_pv(request["character"], ctx["state"])
    if request["op"] == "unicreon.health.diagnose":
        healer = request.get("healer")
        record = request["character"] if healer is None else next(
            c for c in ctx["document"]["characters"] if isinstance(c, dict) and c.get("id") == healer)
        request["perception"] = record["characteristics"]["perception"]
        skill = request.get("skill")
        if skill is not None and skill not in {k.get("level") for k in record.get("skills", []) if isinstance(k, dict)}:
            raise _refuse("live.refused.sheet", field="skill")
    return request


def _uc_synced(answer: dict[str, Any], request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any] | None:
    """The open fight with the new PV and down state of the character the move changed, and of
    its patient or victim (an item's ``target``), on their combatants (the sheet page's
    ``syncedCombat`` on one device, ``unicreon.combat.sync``); None: neither fights."""
    state = ctx["state"]
    combat, synced = (state.get("combat") if isinstance(state, dict) else None), False
    for changed in (answer.get("character"), answer.get("target")):
        if isinstance(changed, dict) and _uc_fighter({"combat": combat}, changed.get("id")) is not None:
            combat = _run({"op": "unicreon.combat.sync", "state": combat, "character": changed})["state"]
            synced = True
    return {**state, "combat": combat} if synced else None


def _uc_health_move(**extra: Any) -> Move:
    """A Unicreon health op on one's own character (:func:`_uc_health`)."""
    return Move("unicreon", extra.pop("actors", _REC), state=False, needs_state=False, prepare=_uc_health,
                record=_uc_synced, **extra)


def _uc_item_use(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Unicreon, an item used by one of the player's characters (004_12a5de9999b9d0ad.txt,
    "Soins": a bandage or a kit on oneself or on a patient; "Poisons et maladies": an antidote
    after a diagnosis; "Liste d'équipement": a poison on its victim). The user and the patient
    or victim are the MJ's records (:attr:`Move.others`: the patient may be anyone's character,
    as a passe d'armes may hit anyone's), each with the PV of the open fight while it fights,
    as the sheet page does on one device (:func:`_uc_health`)."""
    request = _uc_health(request, ctx)
    target = request.get("target")
    if isinstance(target, dict) and target.get("id") == request["character"].get("id"):
        # One's own character named as the patient is a use on oneself: two copies of one
        # record would leave the item's use unspent.
        request.pop("target")
        target = None
    if isinstance(target, dict):
        request["target"] = _uc_fight_pv(target, ctx["state"])
    return request


_REC = (("character", "record"),)
_ID = (("character_id", "id"),)

#: op name -> what that op may touch when a player sends it. Every other op is refused.
MOVES: dict[str, Move] = {
    # Théorem (003_0f8319d4d007e1fe.txt): a player's hand, draws, figures, arcana, re-tests.
    "theorem.hand.draw": Move("theorem", _REC),
    "theorem.action.begin": Move("theorem", _REC),
    "theorem.action.draw": Move("theorem", _REC),
    "theorem.action.figure": Move("theorem", _REC),
    "theorem.action.cancel": Move("theorem", _REC),
    "theorem.action.aside": Move("theorem", _ID),
    "theorem.arcane.play": Move("theorem", _REC),
    "theorem.retest.clear": Move("theorem", _ID),
    # A character's side of a chase round, announced as its action (theorem.chase.begin checks
    # that the side is the character's; an NPC side names no character: the MK draws it).
    "theorem.chase.begin": Move("theorem", _REC),
    # An opposition drawn by a player for their character's side ``a`` (its ``character_id``
    # one of theirs). The other side is the MK's (an NPC side, no character) or, when it names
    # a character, must be the member's too: another player's side is that player's to draw.
    # Both sides' scores and chains are public in the answer and the log, as on one device.
    "theorem.opposition.draw": Move("theorem", (("a", "side"), ("b", "side?"))),
    # Versality: the deck, the draw, the card played; the MJ's tokens are the MJ's to spend.
    "versality.deck.build": Move("versality", _REC, merge=True),
    "versality.deck.sync": Move("versality", _REC, merge=True),
    "versality.test.draw": Move("versality", _REC, merge=True),
    "versality.test.resolve": Move("versality", _ID, merge=True, mj_fields=("tokens",)),
    # SYSTMJ: a secret Action/Mouvement choice for one of the player's characters.
    "systmj.round.choose": Move("systmj", (("entity", "id"),)),
    # SYSTMJ cards (000_d267ce9097809d3e.txt, 4: a card's holder): one of the player's
    # characters takes a free card of the table's library, or hands its own back to it. A
    # hand-over between two players is the giver's take-back then the receiver's give, each
    # from their own phone; a card someone holds is refused by the op (systmj.card.held).
    # SYSTMJ combat (3.3): an attack by one of the player's characters, their side only
    # (_sj_attack); the defence each entity will try this round, declared by its own player.
    "systmj.combat.exchange": Move("systmj", (("attacker", "fighter"),), prepare=_sj_attack),
    "systmj.round.defend": Move("systmj", (("entity", "id"),)),
    "systmj.card.give": Move("systmj", _REC),
    "systmj.card.take": Move("systmj", _REC),
    # Point Zéro: a Tension point (the whole table's gauge; its threshold stays hidden).
    "pointzero.tension.use": Move("pointzero"),
    # Point Zéro: a test with its Tension point and Surpassement, by one of the player's
    # characters (its levels read from the MJ's record, Tension critique from the MJ's state).
    "pointzero.test.roll": Move("pointzero", (("character_id", "id"),), state=False, prepare=_pz_test,
                                record=_pz_tension, log_only=("entry",)),
    # Unicreon: a passe d'armes by one of the player's fighters.
    "unicreon.combat.attack": Move("unicreon", (("attacker", "cid"),), part="combat",
                                   mj_fields=("defender_malus", "defender_skill"), prepare=_uc_defence),
    # SYSTMJ learning (2.4): a learning roll for one of the player's characters, named by its
    # subject, on the MJ's record (_sj_learning), the new score and the roll written on the
    # record (_sj_learned), once per skill per session (2.4.1); a Pouvoir card learned by its
    # holder (4.4), the gain the MJ's in both (2.4.1).
    "systmj.learning.roll": Move("systmj", (("subject", "subject"),), state=False, prepare=_sj_learning,
                                 sheet=_sj_learned),
    "systmj.card.learn": Move("systmj", _REC, mj_fields=("mentor",), prepare=_sj_card_gain),
    # Unicreon health ("Gestion de la santé") of one of the player's characters, on the MJ's
    # record and the open fight's PV (_uc_health): the edits of a sheet (damage, care, rest,
    # the state at 0 PV, a new adventure, a condition added or ended) and its two rolls, the
    # adventure day (1d6 PV per condition) and a diagnosis by one of the player's characters.
    "unicreon.health.damage": _uc_health_move(),
    "unicreon.health.heal": _uc_health_move(),
    "unicreon.health.rest": _uc_health_move(),
    "unicreon.health.down": _uc_health_move(),
    "unicreon.health.new_adventure": _uc_health_move(),
    "unicreon.health.afflict": _uc_health_move(mj_fields=("diagnosed",)),
    "unicreon.health.cure": _uc_health_move(),
    "unicreon.health.day": _uc_health_move(),
    "unicreon.health.diagnose": _uc_health_move(actors=(("character", "record"), ("healer", "id?")),
                                                log_only=("healer",)),
    # An item used by one of the player's characters, on itself or on a patient or victim of
    # the table's (_uc_item_use): one use spent, the care, cure or poison the op applies.
    "unicreon.item.use": Move("unicreon", _REC, state=False, needs_state=False, prepare=_uc_item_use,
                              record=_uc_synced, others=("target",)),
    # Unicreon combat (004_12a5de9999b9d0ad.txt, "Combat avancé"): one's own fighter escapes
    # from melee ("Fuite": two actions, or one and an Agilité opposition rolled by the MJ's
    # device), moves into contact with a foe, or picks its thrown weapon back up; the combat
    # page offers them on the player's phone.
    "unicreon.combat.escape": Move("unicreon", (("cid", "cid"),), part="combat"),
    "unicreon.combat.engage": Move("unicreon", (("cid", "cid"),), part="combat"),
    "unicreon.combat.pickup": Move("unicreon", (("cid", "cid"),), part="combat"),
    # Any system: a roll of dice, seeded by the MJ's device.
    "roll": Move(None),
    # The dice tests of the system pages: rolled by the MJ's device too (a phone's own roll
    # could be rerolled until it suits, and its log entry written to say anything).
    "systmj.test": Move(None),
    "unicreon.test": Move(None, _REC),
    "pointzero.opposition.roll": Move(None),
    "unicreon.opposition": Move(None),
}


#: The params of an error a phone may receive: the names of fields and the bounds of the
#: rules, never a value of the table. Everything else is dropped (an op's error may quote
#: what it read: a card of another's hand, a deck order, the MJ's tokens, a ``detail`` or a
#: ``request.internal`` text quoting the state); a message missing a param says "—".
_SAFE_PARAMS = frozenset({"op", "field", "path", "rule", "max", "min", "maximum", "system"})


def _safe_value(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)) or (
        isinstance(value, str) and len(value) <= 64) or value is None


def phone_error(error: Any) -> dict[str, Any]:
    """An error as a phone may receive it: its code and message key, and only the params of
    :data:`_SAFE_PARAMS` that are numbers or short strings; a refusal's store problems keep
    their field and code. ``{"error": ...}`` in, ``{"error": ...}`` out."""
    inner = error.get("error") if isinstance(error, dict) else None
    if not isinstance(inner, dict) or not isinstance(inner.get("code"), str):
        return _refuse("live.refused.malformed").to_json()
    code = inner["code"][:100]
    raw = inner.get("params") if isinstance(inner.get("params"), dict) else {}
    params = {k: v for k, v in raw.items() if k in _SAFE_PARAMS and _safe_value(v)}
    if isinstance(raw.get("problems"), list):
        params["problems"] = [
            {"field": p.get("field") if _safe_value(p.get("field")) else None, "code": p.get("code"), "params": {}}
            for p in raw["problems"][:5] if isinstance(p, dict) and isinstance(p.get("code"), str)]
    return {"error": {"code": code, "message_key": f"error.{code}", "params": params}}


def is_move(name: Any) -> bool:
    """Whether a player may send the op ``name`` as a move."""
    return isinstance(name, str) and (name in MOVES or name in _KERNEL_MOVES)


def _refuse(code: str, **params: Any) -> RulesError:
    return RulesError(code, **params)


def _character_index(document: dict[str, Any], cid: str) -> int:
    for i, character in enumerate(document["characters"]):
        if isinstance(character, dict) and character.get("id") == cid:
            return i
    return -1


def _own(member: dict[str, Any], cid: Any) -> str:
    """``cid`` when it is one of the member's characters, else refused (the id is not echoed
    unless it is a string: the refusal names what the phone sent, nothing of the table)."""
    if not isinstance(cid, str) or cid not in member["characters"]:
        raise _refuse("live.refused.character", character=cid if isinstance(cid, str) else None)
    return cid


def _player_state(system: str, state: dict[str, Any]) -> dict[str, Any]:
    fn = share._filters(system).state
    return fn(clone(state)) if fn else clone(state)


def _run(request: dict[str, Any]) -> dict[str, Any]:
    from .api import handle

    answer = handle(request)
    if "error" in answer:
        raise _Answered(answer)
    return answer


class _Answered(Exception):
    """An op's JSON error, passed on as the move's answer."""

    def __init__(self, answer: dict[str, Any]) -> None:
        super().__init__(answer["error"]["code"])
        self.answer = answer


def _system_move(document: dict[str, Any], member: dict[str, Any], move: dict[str, Any], seed: int,
                 now: str) -> dict[str, Any]:
    name = move["op"]
    spec = MOVES[name]
    from .api import _find

    _find(name)
    props = OPS[name].schema["properties"]
    request = {k: clone(v) for k, v in move.items() if k not in spec.mj_fields}
    if spec.state or isinstance(request.get("state"), dict):
        # A phone's copy of a system state is never taken (the MJ's is filled in below). A
        # ``state`` that is no object is an op's own field (Unicreon's state at 0 PV).
        request.pop("state", None)
    if "seed" in props:
        request["seed"] = seed
    touched: set[str] = set()
    state = document["systems"].get(spec.system) if spec.system is not None else None
    if spec.system is not None and spec.part is not None:
        state = state.get(spec.part) if isinstance(state, dict) else None
    if spec.system is not None and not isinstance(state, dict):
        if spec.needs_state:
            raise _refuse("live.refused.no_state", system=spec.system)
        state = None
    acting: dict[str, Any] | None = None
    for field, kind in spec.actors:
        value = request.get(field)
        if kind == "id?":
            if value is None:
                continue  # not named: the prepare hook reads the acting character instead
            kind = "id"
        if kind == "subject":
            value = value.get("character") if isinstance(value, dict) else None
        if kind == "cid":
            fighters = state.get("combatants", [])
            fighter = next((f for f in fighters if isinstance(f, dict) and f.get("cid") == value), None)
            _own(member, fighter.get("character_id") if fighter else None)
            continue
        if kind in ("side", "side?"):
            if not isinstance(value, dict):
                raise _refuse("live.refused.invalid", field=field)
            if kind == "side?" and "character_id" not in value:
                continue  # an NPC side: the numbers the table declared
            value = value.get("character_id")
        if kind == "fighter":
            value = value.get("id") if isinstance(value, dict) else None
        cid = _own(member, value.get("id") if kind == "record" and isinstance(value, dict) else value)
        at = _character_index(document, cid)
        if at < 0 or (spec.system and document["characters"][at].get("system") != spec.system):
            raise _refuse("live.refused.character", character=cid)
        if kind == "record":
            request[field] = clone(document["characters"][at])
        touched.add(cid)
        acting = acting or document["characters"][at]
    others: set[str] = set()
    for field in spec.others:
        value = request.get(field)
        if value is None:
            continue
        cid = value.get("id") if isinstance(value, dict) else None
        at = _character_index(document, cid) if isinstance(cid, str) else -1
        if at < 0 or document["characters"][at].get("system") != spec.system:
            raise _refuse("live.refused.character", character=cid if isinstance(cid, str) else None)
        request[field] = clone(document["characters"][at])
        others.add(cid)
    ctx = {"character": clone(acting) if acting else None, "state": clone(state), "document": document}
    if spec.prepare is not None:
        request = spec.prepare(request, ctx)
    if spec.system is not None and spec.state:
        request["state"] = clone(state)
    answer = _run({k: v for k, v in request.items() if k not in spec.log_only})
    if spec.sheet is not None:
        sheet = spec.sheet(answer, request, ctx)
        if sheet is not None:
            answer = {**answer, "character": sheet}
    out = document
    if spec.system is not None:
        new_state = answer.get("state") if spec.state else None
        if spec.record is not None and state is not None:
            new_state = spec.record(answer, request, ctx) or new_state
        if spec.merge and "public" in answer:
            merged = _run({"op": "versality.state.merge", "state": request["state"], "public": answer["public"],
                           "penalties": answer.get("penalties", {})})
            new_state = merged["state"]
        if isinstance(new_state, dict) and spec.part is not None:
            out["systems"][spec.system] = {**out["systems"][spec.system], spec.part: new_state}
        elif isinstance(new_state, dict):
            out["systems"][spec.system] = new_state
    changed = answer.get("character")
    if isinstance(changed, dict) and changed.get("id") in touched:
        out["characters"][_character_index(out, changed["id"])] = changed
    for field in spec.others:
        other = answer.get(field)
        if isinstance(other, dict) and other.get("id") in others | touched and other is not changed:
            out["characters"][_character_index(out, other["id"])] = other
    reply = share.scrub({k: v for k, v in answer.items() if k not in _ANSWER_SECRETS}, _DRAW_ORDERS)
    if spec.system is not None or touched:
        # The seed of a move that read a hidden state: with the public discard it would let the
        # phone shuffle again and know the new draw order. The MJ's feed keeps it.
        reply.pop("seed", None)
    if "seed" in props:
        reply["logged"] = _log_run(out, member, name, spec, request, reply, seed, now, touched)
    if isinstance(reply.get("character"), dict) and reply["character"].get("id") in touched:
        reply["character"] = share.share("character", reply["character"], "player")
    for field in spec.others:
        if isinstance(reply.get(field), dict):
            reply[field] = share.share("character", reply[field], "player")
    if spec.system is not None and isinstance(out["systems"].get(spec.system), dict):
        view = _player_state(spec.system, out["systems"][spec.system])
        reply["state"] = view.get(spec.part) if spec.part is not None else view
    return reply


#: The log kind of a move's entry when the system pages log that op under another name (so
#: the pages that read the log, e.g. SYSTMJ's session review, find a phone's tests too).
_LOG_KINDS = {"pointzero.test.roll": "pointzero.test", "versality.test.resolve": "versality.test",
              "unicreon.combat.attack": "unicreon.attack", "pointzero.opposition.roll": "pointzero.opposition",
              "systmj.learning.roll": "systmj.learning", "unicreon.health.day": "unicreon.day",
              "unicreon.health.diagnose": "unicreon.diagnose", "unicreon.combat.escape": "unicreon.escape"}
#: Answer keys read as the total a log entry shows, in this order.
_TOTALS = ("total", "roll", "raw", "score")


def _entry_id(seed: int, now: str) -> str:
    """The id of the log entry of a move seeded with ``seed`` at ``now``: ``live-`` and 16 hex
    digits of a SHA-256 of both. Every device sees the log, and an id that showed the seed
    (it once was ``live-<seed in hex>``) gave away what the reply withholds: with the public
    discard, the seed of a draw from a hidden deck lets a phone shuffle again and know the new
    draw order. Finding a 53-bit seed back from this digest is out of a phone's reach; the id
    stays the same for the same move, so a move applied twice still writes one entry."""
    import hashlib

    return "live-" + hashlib.sha256(f"tablee.live.entry:{seed}:{now}".encode()).hexdigest()[:16]


def _log_run(out: dict[str, Any], member: dict[str, Any], name: str, spec: Move, request: dict[str, Any],
             reply: dict[str, Any], seed: int, now: str, touched: set[str]) -> str:
    """Write the log entry of a random move (an op that takes a seed) into the MJ's table, from
    the referee's own run: its request (the MJ's device's seed) and its answer. A phone never
    writes a result into the log (:func:`_add_entry` refuses one): it could log a roll that
    never happened, or roll until the result suits and log only that one.

    The entry keeps the seed (for "Vérifier / rejouer") only when its request is whole: a
    move that read a hidden state or a character's full record is logged with the character
    ids and without its seed, the way a share filter would take its deck out."""
    # A character record in the request (an actor's, or one a phone sent along: Unicreon's
    # opposition) is logged as its id: a full record may hold what only the MJ sees.
    records = {k for k, v in request.items() if isinstance(v, dict) and "id" in v and "system" in v}
    whole = spec.system is None and not touched and not records
    logged = {k: v for k, v in request.items() if k != "state" and (whole or k != "seed")}
    for field in records | {f for f, kind in spec.actors if kind == "record" and isinstance(logged.get(f), dict)}:
        logged[field] = {"id": logged[field].get("id")}
    for field, kind in spec.actors:
        if kind == "id" and len(touched) == 1:
            logged[field] = next(iter(touched))  # whose move it was (a Méticuleux choice checks it)
    result = {k: v for k, v in reply.items() if k not in ("seed", "character", "state", "logged")}
    total = next((result[k] for k in _TOTALS
                  if isinstance(result.get(k), int) and not isinstance(result[k], bool)), None)
    if name == "roll":
        result = {"total": reply.get("total"), "terms": reply.get("terms", [])}
    elif total is not None:
        result = {"total": total, **result}
    if len(json.dumps(result)) > store.MAX_ENTRY_SIZE:
        result = {k: v for k, v in result.items() if isinstance(v, (int, str, bool)) or v is None}
    names = {c["id"]: c.get("name") for c in out["characters"] if isinstance(c, dict) and c.get("id") in touched}
    who = next((n for n in names.values() if isinstance(n, str) and n), None) or member.get("name") or member["id"]
    entry = {"id": _entry_id(seed, now), "at": now, "kind": _LOG_KINDS.get(name, name), "system": spec.system,
             "who": who[:store.MAX_NAME], "label": str(request.get("expr", ""))[:200] if name == "roll" else "",
             "request": logged, "result": result}
    if spec.system is None and name.split(".")[0] in SYSTEM_IDS:
        entry["system"] = name.split(".")[0]
    checked = share.share("entry", entry, "mj")
    out["log"] = [e for e in out["log"] if not (isinstance(e, dict) and e.get("id") == checked["id"])]
    out["log"].append(checked)
    if len(out["log"]) > store.MAX_LOG:
        del out["log"][: len(out["log"]) - store.MAX_LOG]
    return checked["id"]


def _overlay(full: Any, view: Any, edited: Any) -> Any:
    """``full`` (the MJ's record) with what the player changed from ``view`` (what they saw)
    to ``edited``: a value the player left as seen keeps the MJ's (a blanked secret stays),
    a key the view hid stays the MJ's, a new key is added, a key removed from the view goes."""
    if not (isinstance(full, dict) and isinstance(view, dict) and isinstance(edited, dict)):
        return clone(edited)
    out = clone(full)
    for key, value in edited.items():
        if key not in view:
            if key not in full:
                out[key] = clone(value)  # a new field (the store's check judges it)
            continue  # a key the player never saw (hidden): the MJ's stays
        if view[key] == value:
            continue  # unchanged from what the player saw: the MJ's value stays
        out[key] = _overlay(full.get(key), view[key], value)
    for key in view:
        if key not in edited:
            out.pop(key, None)
    return out


def _save_character(document: dict[str, Any], member: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    edited = move.get("character")
    if not isinstance(edited, dict):
        raise _refuse("live.refused.invalid", field="character")
    at = _character_index(document, edited.get("id")) if isinstance(edited.get("id"), str) else -1
    if at < 0:
        return _new_character(document, edited)
    _own(member, edited.get("id"))
    full = document["characters"][at]
    view = share.share("character", full, "player")
    record = _overlay(full, view, edited)
    record["id"], record["system"] = full["id"], full["system"]
    problems = store.check_character(record)
    if problems:
        raise _refuse("live.refused.invalid", field="character", problems=[p.to_json() for p in problems[:5]])
    document["characters"][at] = record
    return {"character": share.share("character", record, "player")}


def _new_character(document: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """A character a player made on their phone joins the table (and becomes theirs: the MJ's
    device assigns it, ``created``), once the store accepts it like an imported one."""
    problems = store.check_character(record)
    if problems:
        raise _refuse("live.refused.invalid", field="character", problems=[p.to_json() for p in problems[:5]])
    if len(document["characters"]) >= store.MAX_CHARACTERS:
        raise _refuse("live.refused.invalid", field="characters")
    document["characters"].append(clone(record))
    return {"character": share.share("character", record, "player"), "created": record["id"]}


def _add_entry(document: dict[str, Any], member: dict[str, Any], move: dict[str, Any], now: str) -> dict[str, Any]:
    entry = move.get("entry")
    if not isinstance(entry, dict):
        raise _refuse("live.refused.invalid", field="entry")
    if entry.get("request") != {} or entry.get("result") != {}:
        # A roll or an op's result: written by the referee from its own run (:func:`_log_run`),
        # never taken from a phone. What a player may write is a line without one.
        raise _refuse("live.refused.result")
    entry = {k: v for k, v in entry.items() if k != "to"}  # only the MJ sends a line to someone
    entry["at"] = now
    # Signed by the member: its own name or one of its characters' (never "MJ" or another's).
    names = {member.get("name") or member["id"]} | {
        c.get("name") for c in document["characters"] if isinstance(c, dict) and c.get("id") in member["characters"]}
    if entry.get("who") not in names:
        entry["who"] = member.get("name") or member["id"]
    try:
        checked = share.share("entry", entry, "mj")
    except RulesError as exc:
        raise _refuse("live.refused.invalid", field="entry", problems=exc.params.get("problems", [])) from None
    if any(isinstance(e, dict) and e.get("id") == checked["id"] for e in document["log"]):
        raise _refuse("live.refused.duplicate", id=checked["id"])
    document["log"].append(checked)
    if len(document["log"]) > store.MAX_LOG:
        del document["log"][: len(document["log"]) - store.MAX_LOG]
    return {"entry": share.share("entry", checked, "player")}


def _label_entry(document: dict[str, Any], member: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """The label a phone's page gives the entry the referee logged for that phone's move (the
    page words it: "Force (45)"): text only, on an entry the referee wrote (id ``live-…``)
    signed by the member or one of its characters; its request and result stay the referee's."""
    eid, label = move.get("id"), move.get("label")
    if not isinstance(eid, str) or not eid.startswith("live-") or not isinstance(label, str):
        raise _refuse("live.refused.invalid", field="label")
    names = {member.get("name") or member["id"]} | {
        c.get("name") for c in document["characters"] if isinstance(c, dict) and c.get("id") in member["characters"]}
    at = next((i for i, e in enumerate(document["log"]) if isinstance(e, dict) and e.get("id") == eid), -1)
    if at < 0 or document["log"][at].get("who") not in names:
        raise _refuse("live.refused.character", character=None)
    entry = {**document["log"][at], "label": label[:200]}
    try:
        checked = share.share("entry", entry, "mj")
    except RulesError:
        raise _refuse("live.refused.invalid", field="label") from None
    document["log"][at] = checked
    return {"entry": share.share("entry", checked, "player") if "to" not in checked else {"id": eid}}


_KERNEL_MOVES = ("live.character.save", "live.log.add", "live.log.label")


def apply_move(
    document: dict[str, Any], member: dict[str, Any], move: Any, *, seed: int, now: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(new document, answer for the phone)`` after ``member``'s ``move`` on the MJ's whole
    ``document`` (not changed in place). Raises :class:`RulesError` (the table unchanged)
    when the move is refused, or returns the op's own error as the answer (document unchanged).
    ``member`` is ``{"id", "name", "characters"}`` as the MJ's device knows the link's member."""
    if not isinstance(move, dict) or not is_move(move.get("op")):
        name = move.get("op") if isinstance(move, dict) else None
        raise _refuse("live.refused.not_a_move", op=name[:64] if isinstance(name, str) else None)
    if not (isinstance(document.get("systems"), dict) and isinstance(document.get("characters"), list)
            and isinstance(document.get("log"), list)):
        raise _refuse("live.refused.invalid", field="document")
    # What a move changes it replaces: a system's state, a character, the log (a new list).
    # Nothing below changes a record in place, so the table is copied down to those three
    # containers only: a deep copy of a 50-character, 1,000-entry table cost as much as the op.
    out = {**document, "systems": dict(document["systems"]), "characters": list(document["characters"]),
           "log": list(document["log"])}
    try:
        if move["op"] == "live.character.save":
            answer = _save_character(out, member, move)
        elif move["op"] == "live.log.add":
            answer = _add_entry(out, member, move, now)
        elif move["op"] == "live.log.label":
            answer = _label_entry(out, member, move)
        else:
            answer = _system_move(out, member, move, seed, now)
    except _Answered as exc:
        return document, phone_error(exc.answer)
    return out, answer


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """What a move changed, ``after`` from ``before`` (:func:`apply_move`'s document and its
    answer, which shares every record it did not replace): the system states replaced
    (``systems``), and for ``characters`` and ``log`` the records dropped from the front,
    replaced in place and appended (:func:`tablee.share.list_changes`). ``None`` when the change is not of
    that shape (the caller sends the whole document). :func:`apply_changes` makes ``after``
    again; so does the MJ's device (static/js/live/session.js ``applyChanges``), which then
    receives a few records instead of the whole table."""
    containers = ("systems", "characters", "log")
    if set(before) != set(after) or any(after[k] is not before[k] for k in after if k not in containers):
        return None
    return share.container_changes(before, after)


#: ``document`` (a copy) with the :func:`changes` of a move made on it (one function for the
#: referee's changes and the projection's, :func:`tablee.share.apply_changes`).
apply_changes = share.apply_changes


_MEMBER = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "minLength": 1, "maxLength": 64},
        "name": {"type": "string", "maxLength": 80},
        "characters": {"type": "array", "maxItems": 200, "items": {"type": "string", "maxLength": 64}},
    },
    "required": ["id", "characters"],
    "additionalProperties": False,
}


@op(
    "live.move",
    properties={
        "document": {"type": "object"},
        "held": {"type": "string", "minLength": 1, "maxLength": 64},
        "member": _MEMBER,
        "move": {},
        "seed": SEED_SCHEMA,
        "now": {"type": "string", "minLength": 1, "maxLength": 40},
        "changes": {"type": "boolean"},
        "view": {"type": ["string", "null"], "maxLength": 64},
    },
    required=("member", "move", "seed", "now"),
    summary="The live table's referee: a player's move checked against the member's identity and "
    "characters, applied on the MJ's whole table (sent, or the one the worker holds); the new document "
    "(or, asked for, its changes), the player's answer and, asked for, the public view's changes.",
)
def _live_move(request: dict[str, Any]) -> dict[str, Any]:
    """The MJ's table is ``document``, or ``held``: the revision of the table the worker holds
    (:mod:`tablee.held`); another revision than the one held (or none) is answered
    ``{"stale": true}``, and the page sends its table. Read from JSON text, the worker then holds the table the move
    left and answers its revision (``rev``).

    With ``changes``: the answer holds :func:`changes` instead of the whole ``document``
    when the move's changes have that shape (a new entry in a 1,000-entry log is one record to
    send back, not the table). With ``view`` (the live table's projection: null, or the id of
    the worker's last view) an applied move also answers ``projection``, the public view of the
    new table as ``store.share`` with ``since`` answers it (:func:`tablee.share.project`), or
    its error: the page publishes the move without asking again."""
    source = request["document"] if "document" in request else held.table(request.get("held"))
    if source is None:
        return {"stale": True}  # (no table named, or not the one held: the page sends it)
    keep = from_json()
    try:
        document, answer = apply_move(source, request["member"], request["move"],
                                      seed=request["seed"], now=request["now"])
    except RulesError as exc:
        # A refusal: the phone gets it filtered like any error (:func:`phone_error`).
        out = {"applied": False, "refused": exc.code, "answer": phone_error(exc.to_json())}
        return {**out, "rev": _held_rev(request, source)} if keep else out
    if "error" in answer:
        out = {"applied": False, "answer": answer}
        return {**out, "rev": _held_rev(request, source)} if keep else out
    found = changes(source, document) if request.get("changes") else None
    out = {"applied": True, "changes": found} if found is not None else {"applied": True, "document": document}
    out["answer"] = answer
    if keep:
        out["rev"] = held.hold(document)
        if "view" in request:
            try:
                out["projection"] = share.project(document, request["view"])
            except RulesError as exc:
                out["projection"] = exc.to_json()
    return out


def _held_rev(request: dict[str, Any], source: dict[str, Any]) -> str:
    """The revision of ``source`` (a move that changed nothing): the one named, or ``source``
    held now."""
    return request["held"] if "held" in request else held.hold(source)


@op("live.moves", summary="The ops a player may send to the MJ's device as moves.")
def _live_moves(request: dict[str, Any]) -> dict[str, Any]:
    return {"moves": sorted([*MOVES, *_KERNEL_MOVES])}
