"""The referee tests' tables, members and moves: a Théorem table with two players' characters, an
MJ's NPC and a Point Zéro gauge (table), the members who play them, and the JSON door's call
that fails loudly (ok)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "theorem"))

from th_helpers import character as th_character

from tablee import referee
from tablee.api import handle

sys.path.insert(0, str(Path(__file__).parent))
import json

from node_harness import ROOT

NOW = "2026-11-25T12:00:00Z"
LEA = {"id": "m-lea", "name": "Léa", "characters": ["josh"]}
TOM = {"id": "m-tom", "name": "Tom", "characters": ["kim"]}
SECRET = "zq-secret-du-mj-77"


def ok(request):
    answer = handle(request)
    assert "error" not in answer, answer
    return answer


def table():
    """A table with two Théorem characters (Léa plays josh, Tom plays kim), an MJ's NPC and a
    Point Zéro gauge with its hidden threshold."""
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [th_character("josh"), th_character("kim"), {**th_character("pnj"), "notes": SECRET}]
    doc["systems"]["theorem"] = ok({"op": "theorem.state.new", "seed": 7})["state"]
    pz = ok({"op": "pointzero.state.new"})["state"]
    doc["systems"]["pointzero"] = ok({"op": "pointzero.mj.threshold", "state": pz, "threshold": 7})["state"]
    return doc


def move(doc, member, request, seed=11):
    return referee.apply_move(doc, member, request, seed=seed, now=NOW)


MEMBERS = [LEA, TOM, {"id": "m-eve", "name": "Eve", "characters": []}]


MOVE = st.one_of(
    st.builds(lambda c: {"op": "theorem.hand.draw", "character": {"id": c}}, st.sampled_from(["josh", "kim", "pnj"])),
    st.builds(lambda c, s: {"op": "theorem.action.begin", "character": {"id": c}, "sphere": s, "modifier": 0},
              st.sampled_from(["josh", "kim"]), st.sampled_from(["animalite", "humanite"])),
    st.builds(lambda c: {"op": "theorem.action.draw", "character": {"id": c}}, st.sampled_from(["josh", "kim"])),
    st.builds(lambda c: {"op": "theorem.action.cancel", "character": {"id": c}}, st.sampled_from(["josh", "kim"])),
    st.just({"op": "pointzero.tension.use", "kind": "other"}),
    st.builds(lambda c: {"op": "theorem.opposition.draw", "a": {"name": "A", "base": 6, "start": 0, "character_id": c},
                         "b": {"name": "Garde", "base": 6, "start": 0}}, st.sampled_from(["josh", "kim"])),
    st.just({"op": "theorem.turn.next"}),
    st.just({"op": "pointzero.mj.threshold", "threshold": 1}),
)


def uc_fight(a, b):
    """A Unicreon fight of the MJ's table: ``a`` (a player's, side pc) engaged with ``b`` (an
    NPC), initiative rolled, ``a``'s turn with two actions. Returns (doc, combat, a's cid, b's cid)."""
    combat = ok({"op": "unicreon.combat.new"})["state"]
    combat = ok({"op": "unicreon.combat.add_character", "state": combat, "character": a})["state"]
    combat = ok({"op": "unicreon.combat.add_character", "state": combat, "character": b, "side": "npc"})["state"]
    combat = ok({"op": "unicreon.combat.initiative", "state": combat, "seed": 3})["state"]
    attacker = next(f["cid"] for f in combat["combatants"] if f["side"] == "pc")
    defender = next(f["cid"] for f in combat["combatants"] if f["side"] == "npc")
    for f in combat["combatants"]:
        f["engaged"] = [defender if f["cid"] == attacker else attacker]
        f["actions"] = 2
    combat["turn"] = combat["order"].index(attacker)
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [a, b]
    doc["systems"]["unicreon"] = {"custom_items": [], "combat": combat}
    return doc, combat, attacker, defender


def systmj_table():
    s1 = ok({"op": "systmj.character.new", "id": "s1", "name": "Ana"})["character"]
    s2 = ok({"op": "systmj.character.new", "id": "s2", "name": "Bo"})["character"]
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [s1, s2, {**ok({"op": "systmj.character.new", "id": "npc", "name": "Orc"})["character"]}]
    state = ok({"op": "systmj.state.new"})["state"]
    for card in ({"name": "Épée", "types": ["arme"], "categories": ["corps_a_corps"], "att": 5},
                 {"name": "Bouclier", "types": ["arme"], "categories": ["bouclier"], "def": 5}):
        state = ok({"op": "systmj.card.save", "state": state, "card": {"family": "equipement", **card}})["state"]
    doc["systems"]["systmj"] = state
    return doc


def pz_character(cid, name, *, atouts=()):
    c = ok({"op": "pointzero.character.new", "id": cid, "name": name})["character"]
    c["skills"] = [{"name": "Mécanique", "level": 6}]
    c["attributes"][1]["level"] = 4  # ADR
    c["atouts"] = list(atouts)
    return c


def pz_table(threshold=3, entries=0):
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [pz_character("mira", "Mira"), pz_character("zed", "Zed")]
    state = ok({"op": "pointzero.mj.threshold", "state": ok({"op": "pointzero.state.new"})["state"],
                "threshold": threshold})["state"]
    for _ in range(entries):
        state = ok({"op": "pointzero.tension.use", "state": state, "kind": "other", "who": "MJ"})["state"]
    doc["systems"]["pointzero"] = state
    return doc


MIRA = {"id": "m-mira", "name": "Léa", "characters": ["mira"]}


def pz_test(**fields):
    """The request Point Zéro's test page makes (pointzero/test.js spec()) for Mira's
    Mécanique/ADR[17] (002, "sURPASSEMENT", the text's example), plus the move's character."""
    test = {"kind": "skill", "attribute": 4, "attribute_code": "ADR", "skill": 6, "skill_name": "Mécanique",
            "difficulty": 17, "critical": False, "meticuleux": False, "sacrifice": 1, "tension": False,
            "tension_rule": "missing_dice", **fields}
    return {"op": "pointzero.test.roll", "test": test, "seed": 1, "character_id": "mira"}


def systmj_fight():
    """Ana (Léa's) and Bo (Tom's) against the MJ's Orc, round 1 revealed: Ana and the Orc
    chose Action, Bo Mouvement; Ana holds the sword, Bo the shield."""
    doc = systmj_table()
    for c in doc["characters"]:
        c["attributes"] = {**c["attributes"], "force": 60, "resistance": 50, "agilite": 55, "rapidite": 50,
                           "chance": 40}
        c["pv_max"], c["pa_max"] = 12, 2
    state = doc["systems"]["systmj"]
    sword, shield = (c["number"] for c in state["library"]["cards"])
    s1, s2 = doc["characters"][:2]
    r = ok({"op": "systmj.card.give", "state": state, "character": s1, "number": sword})
    state, doc["characters"][0] = r["state"], r["character"]
    r = ok({"op": "systmj.card.give", "state": state, "character": s2, "number": shield})
    state, doc["characters"][1] = r["state"], r["character"]
    state = ok({"op": "systmj.round.start", "state": state, "characters": doc["characters"]})["state"]
    for cid, choice in (("s1", "action"), ("s2", "mouvement"), ("npc", "action")):
        state = ok({"op": "systmj.round.choose", "state": state, "entity": cid, "choice": choice})["state"]
    doc["systems"]["systmj"] = ok({"op": "systmj.round.reveal", "state": state})["state"]
    return doc, sword, shield


def sj_learning_table():
    """Ana (Léa's: INT 60, PER 40, Lire/écrire 30) and Bo (Tom's) in session 3, and the MJ's
    Orc, whose defence declared for the round is the MJ's secret (rounds.py)."""
    doc, _sword, _shield = systmj_fight()
    ana = doc["characters"][0]
    ana["attributes"] = {**ana["attributes"], "intelligence": 60, "personnalite": 40}
    ana["skills"] = {**ana["skills"], "lire_ecrire": 30}
    bo = doc["characters"][1]
    bo["attributes"] = {**bo["attributes"], "intelligence": 80, "personnalite": 70}
    bo["skills"] = {**bo["skills"], "lire_ecrire": 70}
    state = ok({"op": "systmj.round.defend", "state": doc["systems"]["systmj"], "entity": "npc",
                "defence": "esquive"})["state"]
    doc["systems"]["systmj"] = {**state, "session": 3}
    return doc


MODS = [{"source": "mj", "value": 10, "label": "Bonus"}]


def theorem_drawing():
    doc = table()
    doc, _ = move(doc, LEA, {"op": "theorem.hand.draw", "character": {"id": "josh"}}, seed=4)
    doc, _ = move(doc, LEA, {"op": "theorem.action.begin", "character": {"id": "josh"}, "sphere": "animalite",
                             "modifier": 0})
    return doc


def catalogue_of(lang):
    out = {}
    for path in sorted((ROOT / "static" / "i18n" / lang).glob("*.json")):
        out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


def french_spaced(text):
    text = re.sub(r" +(?=:)", "\u00a0", text)
    return re.sub(r" +(?=[;?!%])", "\u202f", text)
