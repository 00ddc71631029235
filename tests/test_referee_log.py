"""A player's move reads like a local one (py/tablee/referee_log.py): the entry the referee
logs for a phone's test or draw carries the same replayable request, outcome fields and
``verify`` digest as the entry the system page writes for the same op made on the MJ's device
with the same seed, and its "Vérifier / rejouer" replays it. A hidden pile's draw keeps its deck
and seed for the MJ's log only: no player's view of the table holds either.

Oracle: the op run on one device with the referee's seed (the page's own request), and the
page's digest computed by the page's own code (static/js/views/verify.js, run by Node).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from node_harness import NODE, ROOT
from referee_tables import (
    LEA,
    MIRA,
    MODS,
    move,
    ok,
    pz_table,
    pz_test,
    sj_learning_table,
    systmj_table,
    table,
    theorem_drawing,
)
from tablee.api import handle
from tablee.referee_log import digest, verify_record

pytestmark = pytest.mark.usefixtures("every_move_is_its_changes")


def _public_entry(doc, eid):
    view = ok({"op": "store.share", "kind": "table", "data": doc, "audience": "player"})["data"]
    return next(e for e in view["log"] if e["id"] == eid)


def _replays(entry):
    """What "Vérifier / rejouer" does with ``entry`` (verify.js ``checkOf`` then ``run``): the
    logged request (or, for a deck draw, its replay op from the logged deck and seed) sent
    again; True when the answer's digest is the logged one."""
    request, record = entry["request"], entry["result"]["verify"]
    deck = request.get("deck")
    seed = request.get("seed", deck.get("seed") if isinstance(deck, dict) else None)
    kinds = {"theorem.action.draw": "action", "theorem.opposition.draw": "opposition",
             "theorem.opposition.side": "side"}
    if request["op"] in kinds:
        request = {"op": "theorem.draw.replay", "kind": kinds[request["op"]],
                   "deck": {"draw": deck["draw"], "discard": deck["discard"]}, "seed": seed}
    elif request["op"] == "versality.test.draw":
        request = {"op": "versality.draw.replay", "deck": {"draw": deck["draw"], "discard": deck["discard"]},
                   "count": request["count"], "seed": seed}
    return digest(ok(request), record["keys"]) == record["digest"]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_referees_digest_is_the_pages_byte_for_byte():
    cases = [
        {"answer": {"drawn": [["epee-07", "denier-roi"]], "events": []}, "keys": ["drawn"]},
        {"answer": {"dice": [0, 8], "roll": 8, "effective": 45, "outcome": "success", "degree": "justesse",
                    "success": True, "note": "é\"\n\u2014😀"}, "keys": ["dice", "roll", "outcome", "note", "absent"]},
        {"answer": {"result": {"total": 17, "dice": [{"value": 6, "kept": True}], "margin": 3.0, "z": None,
                               "Aa": [1, {"b": False}]}}, "keys": ["result"]},
    ]
    page = subprocess.run([NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/verify_digest.mjs"],
                          cwd=ROOT, input=json.dumps(cases), capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(page.stdout) == [verify_record(c["answer"], c["keys"]) for c in cases]


def test_a_point_zero_test_from_a_phone_is_logged_with_its_dice_outcome_and_replay():
    doc = pz_table()
    after, answer = move(doc, MIRA, pz_test(), seed=31)
    local_request = {k: v for k, v in {**pz_test(), "seed": 31}.items() if k != "character_id"}
    local = ok(local_request)  # the page's request on the MJ's device, the referee's seed
    entry = next(e for e in after["log"] if e["id"] == answer["logged"])
    assert entry["request"]["seed"] == 31 and entry["request"]["test"] == local_request["test"]
    assert entry["result"]["verify"] == verify_record(local, ["result"])  # pointzero/test.js VERIFY_KEYS
    assert entry["result"]["total"] == local["result"]["total"]
    assert entry["result"]["terms"] == [{"kind": "dice", "text": f"{local['plan']['dice']}d6", "sign": 1,
                                         "dice": [{"value": d["value"], "kept": d["kept"]}
                                                  for d in local["result"]["dice"]]}]
    assert _replays(entry)
    assert _public_entry(after, entry["id"])["request"]["seed"] == 31  # no hidden pile: the phones may replay


def test_a_systmj_test_and_learning_roll_from_a_phone_are_logged_as_the_pages():
    doc = systmj_table()
    ana = {"id": "m-ana", "name": "Ana", "characters": ["s1"]}
    after, answer = move(doc, ana, {"op": "systmj.test", "score": 45, "modifiers": MODS, "seed": 1}, seed=77)
    local = ok({"op": "systmj.test", "score": 45, "modifiers": MODS, "seed": 77})
    entry = after["log"][-1]
    assert entry["request"] == {"op": "systmj.test", "score": 45, "modifiers": MODS, "seed": 77}
    assert entry["result"]["verify"] == verify_record(local, ["dice", "roll", "effective", "outcome", "degree",
                                                              "success"])
    assert entry["result"]["total"] == local["roll"]
    assert entry["result"]["terms"] == [{"kind": "d100", "text": "d100", "sign": 1,
                                         "dice": [{"value": v, "kept": True} for v in local["dice"]]}]
    assert _replays(entry)

    doc = sj_learning_table()
    asked = {"op": "systmj.learning.roll", "subject": {"character": "s1", "target": "skill", "key": "lire_ecrire"}}
    after, answer = move(doc, ana, asked, seed=21)
    entry = next(e for e in after["log"] if e["id"] == answer["logged"])
    local = ok({k: v for k, v in entry["request"].items()})  # the logged request is the page's: it replays
    assert entry["request"]["seed"] == 21 and local["after"] == answer["character"]["skills"]["lire_ecrire"]
    assert entry["result"]["total"] == local["capped"]
    assert entry["result"]["terms"][0]["dice"] == [{"value": v, "kept": True} for v in local["dice"]]


def test_a_unicreon_test_from_a_phone_is_logged_without_the_character_and_replays():
    uc = ok({"op": "unicreon.character.new", "id": "u1", "name": "Solène"})["character"]
    uc["secret"] = "zq-secret-du-mj-77"
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [uc]
    sol = {"id": "m-sol", "name": "Léa", "characters": ["u1"]}
    test = {"characteristic": "agilite", "difficulty": "difficile", "bonus": 5, "malus": 0}
    after, _ = move(doc, sol, {"op": "unicreon.test", "test": test, "character": {"id": "u1"}}, seed=13)
    local = ok({"op": "unicreon.test", "test": test, "character": uc, "seed": 13})  # the page, one device
    entry = after["log"][-1]
    assert entry["request"] == {"op": "unicreon.test", "seed": 13,
                                "test": {"value": local["value"], "difficulty": "difficile", "bonus": 5, "malus": 0}}
    keys = ["dice", "raw", "real", "target", "success", "band"]  # unicreon/test.js VERIFY_KEYS
    assert entry["result"]["verify"] == verify_record(local, keys)
    assert entry["result"]["total"] == local["raw"]
    assert _replays(entry)
    assert "zq-secret" not in json.dumps(after["log"])


def test_a_theorem_draw_from_a_phone_replays_on_the_mjs_log_and_no_phone_gets_its_deck_or_seed():
    doc = theorem_drawing()
    state = doc["systems"]["theorem"]
    after, answer = move(doc, LEA, {"op": "theorem.action.draw", "character": {"id": "josh"}}, seed=5)
    local = ok({"op": "theorem.action.draw", "state": state, "character": doc["characters"][0], "seed": 5})
    entry = next(e for e in after["log"] if e["id"] == answer["logged"])
    piles = state["deck"]["piles"]
    assert entry["kind"] == "theorem.draw"  # the kind theorem/table.js logs a draw under
    # theorem/table.js logDraw: the deck as it stood, the digest of the card drawn
    assert entry["request"] == {"op": "theorem.action.draw", "character_id": "josh",
                                "deck": {"draw": piles["draw"]["cards"], "discard": piles["discard"]["cards"],
                                         "seed": 5}}
    assert entry["result"]["verify"] == verify_record({"drawn": [[local["result"]["card"]["id"]]]}, ["drawn"])
    assert entry["result"]["result"]["score"] == local["result"]["score"]
    assert _replays(entry)
    public = _public_entry(after, entry["id"])
    assert "deck" not in public["request"] and "seed" not in json.dumps(public["request"])
    assert json.dumps(piles["draw"]["cards"][1:6]) not in json.dumps(public)
    assert "seed" not in answer


def test_a_theorem_opposition_from_a_phone_replays_on_the_mjs_log():
    doc = table()
    a = {"character_id": "josh", "name": "Josh", "base": 0, "start": 0, "sphere": "animalite", "skill": None}
    b = {"name": "Garde", "base": 6, "start": 0}
    after, answer = move(doc, LEA, {"op": "theorem.opposition.draw", "a": a, "b": b}, seed=8)
    assert "error" not in answer, answer
    entry = next(e for e in after["log"] if e["id"] == answer["logged"])
    res = answer["result"]
    assert entry["kind"] == "theorem.opposition"
    assert entry["request"]["op"] == "theorem.opposition.draw" and entry["request"]["deck"]["seed"] == 8
    assert entry["request"]["a"]["base"] == res["base_a"] and entry["request"]["b"]["base"] == res["base_b"]
    chains = [[c["id"] for c in res["chain_a"]], [c["id"] for c in res["chain_b"]]]
    assert entry["result"]["verify"] == verify_record({"drawn": chains}, ["drawn"])
    assert _replays(entry)
    assert "deck" not in _public_entry(after, entry["id"])["request"]


def test_a_versality_test_from_a_phone_is_one_entry_with_its_draw_and_its_resolution():
    from api_calls import versality_character

    c = ok({"op": "versality.character.finish",
            "character": {**versality_character(improvement_points=9), "id": "ana"}})["character"]
    doc = table()
    doc["characters"].append(c)
    doc["systems"]["versality"] = ok({"op": "versality.state.new"})["state"]
    ana = {"id": "m-ana", "name": "Ana", "characters": ["ana"]}
    doc, _ = move(doc, ana, {"op": "versality.deck.build", "character": {"id": "ana"}}, seed=5)
    before = len(doc["log"])
    asked = {"characteristic": "mental", "skill": "traquer", "difficulty": "epique"}
    deck = doc["systems"]["versality"]["decks"]["ana"]
    local = handle({"op": "versality.test.draw", **asked, "state": doc["systems"]["versality"], "character": c,
                    "seed": 6})
    doc, drawn = move(doc, ana, {"op": "versality.test.draw", "character": {"id": "ana"}, **asked}, seed=6)
    pending = doc["systems"]["versality"]["pending"]["ana"]
    choice = {"choice": drawn["test"]["drawn"][0]["id"]} if pending["rule"] == "choose" else {}
    doc, resolved = move(doc, ana, {"op": "versality.test.resolve", "character_id": "ana", **choice}, seed=7)
    assert len(doc["log"]) == before + 1  # one test, one entry, as the page logs it
    entry = doc["log"][-1]
    assert entry["id"] == resolved["logged"] == drawn["logged"] and entry["kind"] == "versality.test"
    assert entry["request"]["op"] == "versality.test.draw" and entry["request"]["count"] == local["test"]["count"]
    assert entry["request"]["deck"]["seed"] == 6 and deck  # the deck as it stood, the draw's seed
    assert entry["request"]["deck"]["draw"] == local["test"]["deck_used"]["draw"]
    assert entry["request"]["resolve"]["op"] == "versality.test.resolve" and "seed" not in entry["request"]["resolve"]
    ids = [d["id"] for d in local["test"]["drawn"]]
    assert entry["result"]["verify"] == verify_record({"drawn": [ids]}, ["drawn"])
    assert entry["result"]["result"]["final"] == resolved["result"]["final"]
    assert _replays(entry)
    public = _public_entry(doc, entry["id"])
    assert "deck" not in public["request"] and "seed" not in json.dumps(public["request"])


def test_the_pages_label_joins_the_referees_entry_and_its_result_line_stays_the_referees():
    doc = pz_table()
    doc, answer = move(doc, MIRA, pz_test(), seed=31)
    entry = next(e for e in doc["log"] if e["id"] == answer["logged"])
    assert entry["result"]["summary"] == "Échec (Marge \u22124)"  # the referee's, from the roll
    after, _ = move(doc, MIRA, {"op": "live.log.label", "id": entry["id"], "label": "Mécanique (6) / ADR (4)",
                                "summary": "Réussite (marge +3)"})
    labelled = next(e for e in after["log"] if e["id"] == entry["id"])
    assert labelled["label"] == "Mécanique (6) / ADR (4)"
    assert labelled["result"] == entry["result"]  # the phone's result line is ignored
    assert labelled["request"] == entry["request"]
    # (a result line of any shape is ignored the same way: never read)
    again, _ = move(doc, MIRA, {"op": "live.log.label", "id": entry["id"], "label": "x", "summary": {"total": 99}})
    assert next(e for e in again["log"] if e["id"] == entry["id"])["result"] == entry["result"]


def test_a_passe_darmes_from_a_phone_is_logged_with_the_pv_lost_and_both_sides_dice():
    from referee_tables import uc_fight

    a = ok({"op": "unicreon.character.new", "id": "ua", "name": "Aya"})["character"]
    b = ok({"op": "unicreon.character.new", "id": "ub", "name": "Ogre"})["character"]
    doc, combat, attacker, defender = uc_fight(a, b)
    lea = {"id": "m-lea", "name": "Léa", "characters": ["ua"]}
    after, answer = move(doc, lea, {"op": "unicreon.combat.attack", "attacker": attacker, "defender": defender}, seed=9)
    same = ok({"op": "unicreon.combat.attack", "attacker": attacker, "defender": defender, "state": combat, "seed": 9})
    entry = next(e for e in after["log"] if e["id"] == answer["logged"])
    x = same["exchange"]
    assert entry["result"]["total"] == x["pv_lost"]  # unicreon/combat.js: the PV lost, each side's d66
    assert entry["result"]["terms"] == [
        {"kind": "d66", "text": "Aya", "sign": 1, "dice": [{"value": v, "kept": True} for v in x["attacker"]["dice"]]},
        {"kind": "d66", "text": "Ogre", "sign": 1, "dice": [{"value": v, "kept": True} for v in x["defender"]["dice"]]}]


def test_each_side_of_an_opposition_drawn_from_its_phone_replays_on_the_mjs_log():
    from referee_tables import TOM

    doc = table()
    a = {"character_id": "josh", "name": "Josh", "base": 0, "start": 0, "sphere": "animalite", "skill": None}
    b = {"character_id": "kim", "name": "Kim", "base": 0, "start": 0, "sphere": "humanite", "skill": None}
    doc, answer = move(doc, LEA, {"op": "theorem.opposition.start", "character_id": "josh", "a": a, "b": b}, seed=3)
    assert "error" not in answer, answer
    for member, cid, side, seed in ((LEA, "josh", "a", 21), (TOM, "kim", "b", 22)):
        state = doc["systems"]["theorem"]
        doc, answer = move(doc, member, {"op": "theorem.opposition.side", "character_id": cid, "side": side}, seed=seed)
        assert "error" not in answer, answer
        local = ok({"op": "theorem.opposition.side", "state": state, "side": side, "seed": seed})
        entry = next(e for e in doc["log"] if e["id"] == answer["logged"])
        assert entry["request"]["op"] == "theorem.opposition.side" and entry["request"]["side"] == side
        assert entry["request"]["deck"]["seed"] == seed
        assert entry["result"]["verify"] == verify_record({"drawn": [[x["id"] for x in local["chain"]]]}, ["drawn"])
        assert _replays(entry)
        assert "deck" not in _public_entry(doc, entry["id"])["request"]


def test_an_opposition_from_a_phones_test_page_logs_each_sides_dice_as_its_page_does():
    doc = table()
    request_ = {"op": "unicreon.opposition", "a": {"value": 30}, "b": {"value": 40}}
    after, _ = move(doc, LEA, {**request_, "seed": 1}, seed=321)
    same = ok({**request_, "seed": 321})
    assert after["log"][-1]["result"]["terms"] == [  # unicreon/test.js: a d66 term per side
        {"kind": "d66", "text": "d66", "sign": 1, "dice": [{"value": v, "kept": True} for v in same[k]["dice"]]}
        for k in ("a", "b")]
    request_ = {"op": "pointzero.opposition.roll", "a": {"kind": "attribute", "attribute": 3, "name": "Mira"},
                "b": {"kind": "attribute", "attribute": 2, "name": "Garde"}}
    after, _ = move(doc, LEA, {**request_, "seed": 1}, seed=321)
    same = ok({**request_, "seed": 321})
    names = ["Mira", "Garde"]
    assert after["log"][-1]["result"]["terms"] == [  # pointzero/test.js diceTerm, named by its side
        {"kind": "dice", "text": names[i], "sign": 1,
         "dice": [{"value": d["value"], "kept": d["kept"]} for d in same[k]["result"]["dice"]]}
        for i, k in enumerate(("a", "b"))]
