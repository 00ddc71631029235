"""SYSTMJ's moves at a live table (000_d267ce9097809d3e.txt): what a player may send from their
phone to the MJ's device, and what the referee (:mod:`tablee.referee`) reads from the MJ's
table to run it.

Declared as :data:`MOVES` (op name -> :class:`tablee.referee.Move`), the referee's registration
API: the referee imports this module the first time a ``systmj.…`` move arrives.
"""

from __future__ import annotations

from typing import Any

from ...referee_kernel import refuse
from ...system import REC, Move
from ...tree import clone

__all__ = ["MOVES"]


def _sj_fighter(document: dict[str, Any], rounds: dict[str, Any], cid: Any) -> dict[str, Any]:
    """A SYSTMJ fighter as the MJ's combat screen builds it (systmj/combat.js ``fighter``):
    the MJ's record of the sheet, the PV and PA the round keeps."""
    sheet = next((c for c in document["characters"] if isinstance(c, dict) and c.get("id") == cid
                  and c.get("system") == "systmj"), None)
    if sheet is None:
        raise refuse("live.refused.invalid", field="defender")
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
        raise refuse("live.refused.no_round")
    defender = request.get("defender")
    out = {k: v for k, v in request.items() if k in ("op", "kind", "category", "seed")}
    out["attacker"] = _sj_fighter(ctx["document"], rounds, attacker)
    out["defender"] = _sj_fighter(ctx["document"], rounds, defender.get("id") if isinstance(defender, dict) else None)
    weapon = request.get("weapon")
    if weapon is not None:
        number = weapon.get("number") if isinstance(weapon, dict) else None
        card = next((c for c in state.get("library", {}).get("cards", []) if c.get("number") == number), None)
        if card is None or card.get("holder") != attacker:
            raise refuse("live.refused.sheet", field="weapon")
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
    from . import data as D

    gain = state.get("learning_gain") if isinstance(state, dict) else None
    return gain if gain in D.LEARNING_GAINS else "1"


def _sj_score(character: dict[str, Any], key: str) -> int:
    """A SYSTMJ skill score of a sheet (a special skill missing from ``special`` is 0, Inapte:
    entity.py), as the learning page reads it (systmj/common.js ``scoreOf``)."""
    from . import data as D

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
    from . import data as D

    character, state = ctx["character"], ctx["state"]
    subject = request.get("subject")
    key = subject.get("key") if isinstance(subject, dict) else None
    if not isinstance(subject, dict) or subject.get("target") != "skill":
        raise refuse("live.refused.invalid", field="subject.target")
    universe = state.get("universe") if isinstance(state.get("universe"), dict) else {}
    specials = {s.get("id"): s for s in universe.get("special_skills", []) if isinstance(s, dict)}
    if key in D.GENERIC_SKILLS:
        da = D.GENERIC_DA[key]
    elif isinstance(key, str) and key in specials:
        da = specials[key].get("da")
    else:
        raise refuse("live.refused.sheet", field="subject.key")
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
            raise refuse("live.refused.invalid", field="mentor")
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
    from . import data as D
    from . import entity as E

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



#: op name -> what that op may touch when a player sends it (tablee.referee.Move).
MOVES: dict[str, Move] = {
    # A secret Action/Mouvement choice for one of the player's characters.
    "systmj.round.choose": Move("systmj", (("entity", "id"),)),
    # Combat (3.3): an attack by one of the player's characters, their side only (_sj_attack);
    # the defence each entity will try this round, declared by its own player.
    "systmj.combat.exchange": Move("systmj", (("attacker", "fighter"),), prepare=_sj_attack),
    "systmj.round.defend": Move("systmj", (("entity", "id"),)),
    # Cards (4: a card's holder): one of the player's characters takes a free card of the
    # table's library, or hands its own back to it. A hand-over between two players is the
    # giver's take-back then the receiver's give, each from their own phone; a card someone
    # holds is refused by the op (systmj.card.held).
    "systmj.card.give": Move("systmj", REC),
    "systmj.card.take": Move("systmj", REC),
    # Learning (2.4): a learning roll for one of the player's characters, named by its subject,
    # on the MJ's record (_sj_learning), the new score and the roll written on the record
    # (_sj_learned), once per skill per session (2.4.1); a Pouvoir card learned by its holder
    # (4.4), the gain the MJ's in both (2.4.1, the table's setting: _sj_gain).
    "systmj.learning.roll": Move("systmj", (("subject", "subject"),), state=False, prepare=_sj_learning,
                                 sheet=_sj_learned, kind="systmj.learning"),
    "systmj.card.learn": Move("systmj", REC, mj_fields=("mentor",), prepare=_sj_card_gain),
    # A test of the test page: rolled by the MJ's device.
    "systmj.test": Move(None),
}
