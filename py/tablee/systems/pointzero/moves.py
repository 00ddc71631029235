"""Point Zéro's moves at a live table (002_61483667e16cef6b.txt): what a player may send from
their phone to the MJ's device, and what the referee (:mod:`tablee.referee`) reads from the
MJ's table to run it.

Declared as :data:`MOVES` (op name -> :class:`tablee.referee.Move`), the referee's registration
API: the referee imports this module the first time a ``pointzero.…`` move arrives.
"""

from __future__ import annotations

from typing import Any

from ...referee_kernel import refuse, signature
from ...system import Move
from ...tree import clone

__all__ = ["MOVES"]


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
    from . import tension as T

    if "keep" in request:
        return _pz_keep(request, ctx)
    request.pop("entry", None)
    request.pop("character_id", None)
    character, state = ctx["character"], ctx["state"]
    test = request.get("test")
    if not isinstance(test, dict):
        raise refuse("live.refused.invalid", field="test")
    test = dict(test)
    attributes = {a.get("code"): a for a in character.get("attributes", []) if isinstance(a, dict)}
    attribute = attributes.get(test.get("attribute_code"))
    if attribute is None:
        raise refuse("live.refused.sheet", field="test.attribute_code")
    test["attribute"] = attribute.get("level")
    if test.get("kind") == "skill":
        name = test.get("skill_name")
        skill = next((k for k in character.get("skills", []) if isinstance(k, dict) and isinstance(name, str)
                      and isinstance(k.get("name"), str) and k["name"][:60] == name), None)
        if skill is None:
            raise refuse("live.refused.sheet", field="test.skill_name")
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
    # whose roll it was: the result's ``character_id`` (the request is the page's, replayable as
    # it is: tablee/referee_log.py)
    result = entry.get("result") if isinstance(entry, dict) else None
    owner = result.get("character_id") if isinstance(result, dict) else None
    if not (isinstance(logged, dict) and entry.get("kind") == "pointzero.test" and isinstance(entry.get("member"), dict)
            and logged.get("op") == "pointzero.test.roll" and owner == cid
            and isinstance(logged.get("test"), dict) and logged["test"].get("meticuleux") is True):
        raise refuse("live.refused.keep")
    if any(isinstance(e, dict) and isinstance(e.get("request"), dict) and e["request"].get("entry") == eid
           for e in ctx["document"]["log"]):
        raise refuse("live.refused.keep")  # already chosen
    result = entry.get("result")
    result = result.get("result") if isinstance(result, dict) else None
    rolled = result.get("dice") if isinstance(result, dict) else None
    if not isinstance(rolled, list) or not all(isinstance(d, dict) and isinstance(d.get("value"), int) for d in rolled):
        raise refuse("live.refused.keep")
    return {"op": "pointzero.test.resolve", "test": clone(logged["test"]),
            "dice": [d["value"] for d in rolled], "keep": request["keep"], "entry": eid}


def _pz_critical(state: dict[str, Any]) -> bool:
    from . import tension as T

    return T.player_view(state)["critical"]


def _pz_tension(answer: dict[str, Any], request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any] | None:
    """The Tension point a Point Zéro skill test used goes into the gauge (rules/README.md:
    "every Tension point a player uses goes into it"), signed with the character's name and the
    name its player joined with (:func:`tablee.referee.signature`: "Aube (Léa)")."""
    from . import tension as T

    test = request["test"]
    if request.get("op") != "pointzero.test.roll" or not (test.get("kind") == "skill" and test.get("tension") is True):
        return None  # (a Méticuleux choice resolves a roll whose point was spent with it)
    return T.use_point(ctx["state"], "dice", signature(ctx["member"], ctx["character"].get("name")), "")



def _pz_point(request: dict[str, Any], ctx: dict[str, Any]) -> dict[str, Any]:
    """Point Zéro, a Tension point used from a phone (rules/README.md, Point Zéro: "every
    Tension point a player uses goes into it ... Other uses are the MJ's call: record them as
    free-text entries that still add their point to the gauge"). Who used it comes from the
    link, never from the ``who`` the phone sent: the member's name (the one they joined with),
    with the name of one of their characters when the phone named one of theirs ("Aube
    (Léa)"). A character renamed "MJ" or to another player's character's name is still signed
    with its player's name; a ``who`` naming no character of theirs is the member alone."""
    who = request.get("who")
    names = {c.get("name") for c in ctx["document"]["characters"]
             if isinstance(c, dict) and c.get("id") in ctx["member"]["characters"]}
    request["who"] = signature(ctx["member"], who if isinstance(who, str) and who in names else None)
    return request


#: op name -> what that op may touch when a player sends it (tablee.referee.Move).
MOVES: dict[str, Move] = {
    # A Tension point (the whole table's gauge; its threshold stays hidden), signed by the link.
    "pointzero.tension.use": Move("pointzero", prepare=_pz_point),
    # A test with its Tension point and Surpassement, by one of the player's characters (its
    # levels read from the MJ's record, Tension critique from the MJ's state).
    "pointzero.test.roll": Move("pointzero", (("character_id", "id"),), state=False, prepare=_pz_test,
                                record=_pz_tension, log_only=("entry",), kind="pointzero.test"),
    # An opposition of two tests from a phone's test page: rolled by the MJ's device.
    "pointzero.opposition.roll": Move(None, kind="pointzero.opposition"),
}
