"""The live table's referee, each system's moves (py/tablee/systems/<id>/moves.py): Point Zéro's
tests and Tension, SYSTMJ's combat and learning, each from a player's phone on the MJ's whole
table. Unicreon's moves (combat, health and items) are in tests/test_referee_moves_unicreon.py.

Oracle: the same op run on one device with the MJ's records and the referee's seed. The
helpers and the check that every move is its changes are tests/test_referee.py's.
"""

from __future__ import annotations

import copy
import json

import pytest

from referee_tables import MIRA, move, ok, pz_table, pz_test, sj_learning_table, systmj_fight, systmj_table
from tablee.errors import RulesError

pytestmark = pytest.mark.usefixtures("every_move_is_its_changes")


ZED = {"id": "m-zed", "name": "Tom", "characters": ["zed"]}


def test_a_point_zero_test_with_surpassement_is_the_op_on_one_device():
    """Mira sacrifices one die (+2) with a Tension point (+2 dice): the roll is the op's with
    the referee's seed, the gauge rises by one with the roll, the threshold stays the MJ's."""
    doc = pz_table(threshold=3)
    after, answer = move(doc, MIRA, pz_test(tension=True), seed=8)
    expected = dict(pz_test(tension=True)["test"])
    same = ok({"op": "pointzero.test.roll", "test": expected, "seed": 8})
    assert answer["result"] == same["result"] and answer["plan"] == same["plan"]
    assert answer["result"]["surpassement_bonus"] == 2
    assert after["systems"]["pointzero"] == ok({"op": "pointzero.tension.use", "state": doc["systems"]["pointzero"],
                                                "kind": "dice", "who": "Mira (Léa)"})["state"]
    assert after["characters"] == doc["characters"]
    assert answer["state"]["threshold"] is None and "critical" not in answer["state"]
    plain, answer = move(doc, MIRA, pz_test(), seed=8)
    assert plain["systems"]["pointzero"] == doc["systems"]["pointzero"]  # no Tension point: the gauge stays


def test_a_phone_cannot_roll_with_levels_or_a_flag_of_its_own():
    """The levels are the sheet's on the MJ's table (a phone claiming Mécanique 10 rolls its 6),
    Tension critique is the MJ's state's (a phone saying critical false is overruled), Zed's
    test is Zed's player's, and a Méticuleux keep that names no roll of the referee's is refused."""
    doc = pz_table(threshold=3)
    _, answer = move(doc, MIRA, pz_test(skill=10, attribute=10, meticuleux=True), seed=8)
    assert answer["plan"] == ok({"op": "pointzero.test.roll", "test": pz_test()["test"], "seed": 8})["plan"]
    cases = [(MIRA, pz_test(attribute_code="XYZ"), "live.refused.sheet"),
             (MIRA, pz_test(skill_name="Piratage"), "live.refused.sheet"),
             (MIRA, {**pz_test(), "character_id": "zed"}, "live.refused.character"),
             (ZED, pz_test(), "live.refused.character"),
             (MIRA, {**pz_test(), "keep": [0, 1, 2, 3]}, "live.refused.keep"),
             (MIRA, {**pz_test(), "test": "junk"}, "live.refused.invalid")]
    for member, request, code in cases:
        with pytest.raises(RulesError) as info:
            move(doc, member, request)
        assert info.value.code == code, request


def test_a_meticuleux_holder_chooses_the_dice_kept_from_the_referees_roll():
    """README (Point Zéro): « Atout Méticuleux: its holder chooses which dice to keep ». From a
    phone, the choice names the referee's entry of the roll: the result is the op's on one
    device with the same seed and that keep, on the dice the MJ's table recorded (the phone
    sends neither dice nor levels); the Tension point is not spent again; a choice is final,
    and it is the roll's own character's (Méticuleux on its sheet) or refused."""
    doc = pz_table(threshold=5)
    doc["characters"][0]["atouts"] = ["Méticuleux"]
    rolled_doc, rolled = move(doc, MIRA, pz_test(sacrifice=0, tension=True), seed=8)
    eid = rolled["logged"]
    values = [d["value"] for d in rolled["result"]["dice"]]
    assert len(values) == 8 and rolled["plan"]["keep"] == 4  # 6 + 2 Tension dice, ADR 4 kept
    worst = sorted(sorted(range(len(values)), key=lambda i: values[i])[:4])
    choice = {"op": "pointzero.test.roll", "character_id": "mira", "entry": eid, "keep": worst,
              "test": {**pz_test()["test"], "skill": 10, "attribute": 10}}  # the phone's levels: ignored
    after, kept = move(rolled_doc, MIRA, choice, seed=99)
    full = {**pz_test(sacrifice=0, tension=True)["test"], "meticuleux": True}
    same = ok({"op": "pointzero.test.roll", "test": full, "seed": 8, "keep": worst})
    assert kept["result"] == same["result"] and kept["result"]["kept"] == worst
    assert kept["result"]["total"] == sum(sorted(values)[:4])
    assert after["systems"]["pointzero"] == rolled_doc["systems"]["pointzero"]  # one Tension point, with the roll
    entry = after["log"][-1]
    assert entry["id"] == kept["logged"] != eid and entry["kind"] == "pointzero.test"
    assert entry["request"]["entry"] == eid and entry["request"]["keep"] == worst and entry["who"] == "Mira"
    # Final: a second choice is refused; Zed cannot choose for Mira's roll; nothing changes.
    for member, request in ((MIRA, choice), (ZED, {**choice, "character_id": "zed"}),
                            (MIRA, {**choice, "entry": "live-0000000000000000"})):
        with pytest.raises(RulesError) as info:
            move(after, member, request)
        assert info.value.code in ("live.refused.keep", "live.refused.character"), request
    # Without Méticuleux on the sheet, the roll's dice are the best ones and stay so.
    plain_doc, plain = move(doc, ZED, {**pz_test(), "character_id": "zed"}, seed=8)
    with pytest.raises(RulesError) as info:
        move(plain_doc, ZED, {**choice, "character_id": "zed", "entry": plain["logged"]})
    assert info.value.code == "live.refused.keep"


def test_tension_critique_refuses_surpassement_to_everyone_and_hides_the_threshold():
    """README (Point Zéro): at the threshold it is Tension critique (no Surpassement); 002
    « Il n’est pas possible de se surpasser lors d’une Tension critique ». Reached by Zed's
    Tension point, it refuses Mira's sacrifice although her phone said ``critical: false``;
    every answer and the player's view say Tension critique, none holds the threshold."""
    doc = pz_table(threshold=3, entries=2)
    doc, answer = move(doc, ZED, {"op": "pointzero.tension.use", "kind": "other", "who": "Zed"})
    assert answer["state"]["critical"] is True and answer["state"]["threshold"] is None
    assert ok({"op": "pointzero.tension.view", "state": answer["state"]})["view"]["critical"] is True
    after, refused = move(doc, MIRA, pz_test(critical=False, tension=True), seed=4)
    assert after == doc  # refused: no roll, no Tension point
    assert refused["error"]["code"] == "pointzero.surpassement.tension_critique"
    assert "3" not in json.dumps(refused["error"].get("params", {}))
    after, answer = move(doc, MIRA, pz_test(sacrifice=0), seed=4)
    assert "result" in answer and answer["state"]["critical"] is True
    for text in (json.dumps(answer), json.dumps(refused)):
        assert '"threshold": 3' not in text and '"left"' not in text
    shared = ok({"op": "store.share", "kind": "table", "data": doc, "audience": "player"})["data"]
    assert shared["systems"]["pointzero"]["threshold"] is None and shared["systems"]["pointzero"]["critical"] is True
    below = ok({"op": "store.share", "kind": "table", "data": pz_table(threshold=3, entries=2),
                "audience": "player"})["data"]
    assert "critical" not in below["systems"]["pointzero"]  # not reached: no marker, nothing to infer


ANA = {"id": "m-ana", "name": "Léa", "characters": ["s1"]}
BO = {"id": "m-bo", "name": "Tom", "characters": ["s2"]}


def _fighter(doc, cid):
    c = next(x for x in doc["characters"] if x["id"] == cid)
    v = next(e for e in doc["systems"]["systmj"]["rounds"]["entities"] if e["id"] == cid)
    return {"id": cid, "attributes": c["attributes"], "dissimulation": c["skills"]["dissimulation"],
            "detection": c["skills"]["detection"], "pv": v["pv"], "pa": v["pa"]}


def test_a_systmj_attack_from_a_phone_is_the_attackers_side_only():
    """3.3: Ana's player declares her attack on the Orc with her sword: the fighters are the
    MJ's records (the phone's inflated Force is ignored), the weapon the library's card, the
    Orc's defence the one the MJ declared for it this round (the phone's "none" is ignored),
    and the round marks Ana as having acted: the same exchange on one device."""
    doc, sword, _shield = systmj_fight()
    state = ok({"op": "systmj.round.defend", "state": doc["systems"]["systmj"], "entity": "npc",
                "defence": "esquive"})["state"]
    doc["systems"]["systmj"] = state
    forged = {**_fighter(doc, "s1"), "attributes": {**_fighter(doc, "s1")["attributes"], "force": 99}}
    sent = {"op": "systmj.combat.exchange", "kind": "force", "attacker": forged, "defender": {"id": "npc"},
            "weapon": {"number": sword, "family": "equipement", "att": 99}, "defence": "none",
            "modifiers": [{"source": "mj", "value": 20}], "counter": True}
    after, answer = move(doc, ANA, sent, seed=17)
    library = {c["number"]: c for c in state["library"]["cards"]}
    same = ok({"op": "systmj.combat.exchange", "kind": "force", "attacker": _fighter(doc, "s1"),
               "defender": _fighter(doc, "npc"), "weapon": library[sword], "defence": "esquive", "state": state,
               "seed": 17})
    assert after["systems"]["systmj"] == same["state"]
    assert answer["steps"] == same["steps"] and answer["outcome"] == same["outcome"]
    assert any(s["step"] == "defence" for s in same["steps"]) or same["outcome"] != "hit"
    assert next(e for e in after["systems"]["systmj"]["rounds"]["entities"] if e["id"] == "s1")["acted"] is True
    assert "esquive" not in json.dumps(answer.get("state", {}))  # the declaration stays the MJ's
    again, answer = move(after, ANA, sent, seed=18)
    assert again == after and answer["error"]["code"] == "systmj.round.already_acted"


def test_a_systmj_attack_is_refused_for_another_character_a_weapon_not_held_or_no_round():
    doc, _sword, shield = systmj_fight()
    sent = {"op": "systmj.combat.exchange", "kind": "force", "attacker": {"id": "s1", "attributes": {}},
            "defender": {"id": "npc"}}
    for member, request, code in (
        (BO, sent, "live.refused.character"),  # Ana is Léa's
        (ANA, {**sent, "attacker": {"id": "npc"}}, "live.refused.character"),  # the MJ's Orc
        (ANA, {**sent, "weapon": {"number": shield}}, "live.refused.sheet"),  # Bo's shield
        (ANA, {**sent, "defender": {"id": "nobody"}}, "live.refused.invalid"),
    ):
        with pytest.raises(RulesError) as info:
            move(doc, member, request)
        assert info.value.code == code, request
    free = systmj_table()
    free["systems"]["systmj"]["rounds"] = None
    free["systems"]["systmj"].pop("rounds")
    with pytest.raises(RulesError) as info:
        move(free, ANA, {**sent, "defender": {"id": "s2"}})
    assert info.value.code == "live.refused.no_round"


def test_a_defence_is_declared_by_its_own_player_and_hidden_from_the_others():
    """Bo's player declares an encaissement with his shield for the round: the MJ's round keeps
    it, no answer and no player's copy shows it, and Ana's attack on Bo then meets it (the
    same exchange on one device with that defence and card). Bo's shield is not Ana's to use,
    nor Bo's defence Léa's to declare; a card he does not hold is refused by the op."""
    doc, sword, shield = systmj_fight()
    declare_ = {"op": "systmj.round.defend", "entity": "s2", "defence": "encaissement", "card": shield}
    after, answer = move(doc, BO, declare_)
    same = ok({**declare_, "state": doc["systems"]["systmj"]})
    assert after["systems"]["systmj"] == same["state"]
    bo = next(e for e in after["systems"]["systmj"]["rounds"]["entities"] if e["id"] == "s2")
    assert bo["defence"] == "encaissement" and bo["defence_card"] == shield
    assert "encaissement" not in json.dumps(answer)
    shared = ok({"op": "store.share", "kind": "table", "data": after, "audience": "player"})["data"]
    assert "encaissement" not in json.dumps(shared["systems"]["systmj"])
    with pytest.raises(RulesError) as info:
        move(doc, ANA, declare_)
    assert info.value.code == "live.refused.character"
    kept, refused = move(doc, BO, {**declare_, "card": sword})
    assert kept == doc and refused["error"]["code"] == "systmj.card.not_held"
    hit, answer = move(after, ANA, {"op": "systmj.combat.exchange", "kind": "force", "attacker": {"id": "s1"},
                                    "defender": {"id": "s2"}, "weapon": {"number": sword}}, seed=5)
    state = after["systems"]["systmj"]
    library = {c["number"]: c for c in state["library"]["cards"]}
    same = ok({"op": "systmj.combat.exchange", "kind": "force", "attacker": _fighter(after, "s1"),
               "defender": _fighter(after, "s2"), "weapon": library[sword], "defence": "encaissement",
               "defence_card": library[shield], "state": state, "seed": 5})
    assert hit["systems"]["systmj"] == same["state"] and answer["steps"] == same["steps"]
    nxt = ok({"op": "systmj.round.next", "state": hit["systems"]["systmj"]})["state"]
    assert all("defence" not in e for e in nxt["rounds"]["entities"])  # a declaration lasts one round


# --- SYSTMJ learning (2.4) from a phone ----------------------------------------------------------


def _learned_on_one_device(doc, answer, key, note):
    """The learning page's own write on one device (systmj/learning.js ``learn``): the new score
    and the roll in the sheet's progress."""
    ana = copy.deepcopy(doc["characters"][0])
    ana["skills"][key] = answer["after"]
    ana["progress"].append({"session": 3, "kind": "learning", "target": "skill", "key": key,
                            "before": answer["before"], "after": answer["after"], "note": note})
    return ana


def test_a_systmj_learning_roll_from_a_phone_is_the_op_on_the_mjs_record():
    """2.4.2-2.4.3: Ana's player studies Lire/écrire alone from the phone. The phone's numbers
    (score 98, INT and PER 99, DA 1 for a skill it would not reach, the 1D20 gain, session 7, no
    roll made yet, its own seed) are ignored: the roll is the op on one device with the MJ's
    record (score 30, INT 60, PER 40), the table's DA and session, the gain the MJ's to grant
    (2.4.1: a phone rolls the modest one) and the MJ's device's seed; the new score and the roll
    land on the MJ's record as the page writes them, the referee logs it once, and the answer
    carries no seed nor the MJ's declared defence. A second roll of that skill this session is
    refused by the engine's rule (2.4.1, once per skill per session), the table unchanged."""
    doc = sj_learning_table()
    forged = {"op": "systmj.learning.roll", "score": 98, "intelligence": 99, "personnalite": 99, "da": 1,
              "gain": "1d20", "subject": {"character": "s1", "target": "skill", "key": "lire_ecrire", "session": 7},
              "learned": [], "seed": 5}
    after, answer = move(doc, ANA, forged, seed=21)
    same = ok({"op": "systmj.learning.roll", "score": 30, "intelligence": 60, "personnalite": 40, "da": 1,
               "gain": "1", "subject": {"character": "s1", "target": "skill", "key": "lire_ecrire", "session": 3},
               "learned": [], "seed": 21})
    assert {k: answer[k] for k in ("roll", "limit", "quality", "before", "after", "gain")} == {
        k: same[k] for k in ("roll", "limit", "quality", "before", "after", "gain")}
    assert same["limit"] == 50 and same["before"] == 30
    from tablee.systems.systmj.moves import _SJ_QUALITY
    assert after["characters"][0] == _learned_on_one_device(doc, same, "lire_ecrire", _SJ_QUALITY[same["quality"]])
    assert after["characters"][1:] == doc["characters"][1:] and after["systems"] == doc["systems"]
    assert answer["character"]["skills"]["lire_ecrire"] == same["after"]
    entries = [e for e in after["log"] if e["id"] == answer["logged"]]
    assert len(after["log"]) == len(doc["log"]) + 1 and len(entries) == 1
    assert entries[0]["kind"] == "systmj.learning" and entries[0]["who"] == "Ana"
    assert entries[0]["request"]["subject"]["character"] == "s1" and entries[0]["request"]["gain"] == "1"
    assert "seed" not in answer and "esquive" not in json.dumps(answer)
    again, refused = move(after, ANA, forged, seed=22)
    assert again == after and refused["error"]["code"] == "systmj.learning.once_per_session"


def test_a_phones_learning_rolls_gain_what_the_mj_chose_for_the_session():
    """2.4.1: the MJ chooses the gain (« 1 point, 1D4, 1D10 ou 1D20 »), kept in the table state
    by ``systmj.session.gain``: a learning roll and a Pouvoir card learned from a phone gain
    that, whatever the phone asks; the choice is the MJ's op, never a move."""
    doc = sj_learning_table()
    doc["systems"]["systmj"] = ok({"op": "systmj.session.gain", "state": doc["systems"]["systmj"],
                                   "gain": "1d10"})["state"]
    assert doc["systems"]["systmj"]["learning_gain"] == "1d10"
    sent = {"op": "systmj.learning.roll", "score": 30, "intelligence": 60, "personnalite": 40, "da": 1, "gain": "1",
            "subject": {"character": "s1", "target": "skill", "key": "lire_ecrire"}, "learned": []}
    after, answer = move(doc, ANA, sent, seed=21)
    same = ok({**sent, "gain": "1d10", "subject": {**sent["subject"], "session": 3}, "seed": 21})
    assert answer["gain"] == "1d10" and answer["after"] == same["after"] and answer["roll"] == same["roll"]
    assert after["log"][-1]["request"]["gain"] == "1d10"
    r = ok({"op": "systmj.card.save", "state": doc["systems"]["systmj"],
            "card": {"family": "pouvoir", "name": "Nécromancie", "da": 2, "types": ["magique"], "score": 40}})
    number = r["card"]["number"]
    r = ok({"op": "systmj.card.give", "state": r["state"], "character": doc["characters"][0], "number": number})
    doc["systems"]["systmj"], doc["characters"][0] = r["state"], r["character"]
    _, answer = move(doc, ANA, {"op": "systmj.card.learn", "character": {"id": "s1"}, "number": number, "gain": "1"})
    assert answer["gain"] == "1d10"
    with pytest.raises(RulesError) as info:
        move(doc, ANA, {"op": "systmj.session.gain", "gain": "1d20"})
    assert info.value.code == "live.refused.not_a_move"


def test_a_systmj_learning_roll_reads_the_mentor_from_the_mjs_record_and_is_the_learners_own():
    """2.4.3, "Apprentissage par mentorat": Bo mentors Ana; the mentor's INT, PER and score are
    the MJ's record of Bo, not the phone's. Another player's character is refused, and so is
    a study the table does not know or a mentor who is the learner."""
    doc = sj_learning_table()
    sent = {"op": "systmj.learning.roll", "score": 0, "intelligence": 0, "personnalite": 0, "da": 5, "gain": "1",
            "subject": {"character": "s1", "target": "skill", "key": "lire_ecrire"},
            "mentor": {"intelligence": 99, "personnalite": 99, "score": 99, "character": "s2"}}
    after, answer = move(doc, ANA, sent, seed=8)
    same = ok({"op": "systmj.learning.roll", "score": 30, "intelligence": 60, "personnalite": 40, "da": 1,
               "gain": "1", "subject": {"character": "s1", "target": "skill", "key": "lire_ecrire", "session": 3},
               "learned": [], "mentor": {"intelligence": 80, "personnalite": 70, "score": 70, "character": "s2"},
               "seed": 8})
    assert answer["limit"] == same["limit"] == (60 + 40 + 80 + 70) // 4 and answer["after"] == same["after"]
    assert after["characters"][0]["progress"][-1]["note"].endswith("mentor\u00a0: Bo")
    for member, request, code in (
        (BO, sent, "live.refused.character"),  # Ana is Léa's
        (ANA, {**sent, "subject": {**sent["subject"], "character": "npc"}}, "live.refused.character"),
        (ANA, {**sent, "subject": {**sent["subject"], "key": "sp-inconnue"}}, "live.refused.sheet"),
        (ANA, {**sent, "subject": {**sent["subject"], "target": "attribute"}}, "live.refused.invalid"),
        (ANA, {**sent, "mentor": {**sent["mentor"], "character": "s1"}}, "live.refused.invalid"),
    ):
        with pytest.raises(RulesError) as info:
            move(doc, member, request)
        assert info.value.code == code, request


def test_a_pouvoir_card_is_learned_by_its_holder_with_the_mjs_gain():
    """4.4 (a Pouvoir card learned « à travers un processus d'Apprentissage (voir 2.4 …) »):
    Ana's player learns the card Ana holds; the card, INT and PER are the MJ's, the gain the
    MJ's to grant (2.4.1: the phone's 1D20 rolls as 1 point), the mentor the phone names is
    dropped. Bo's player cannot learn it for Ana."""
    doc = sj_learning_table()
    state = doc["systems"]["systmj"]
    r = ok({"op": "systmj.card.save", "state": state, "card": {"family": "pouvoir", "name": "Nécromancie", "da": 2,
                                                                  "types": ["magique"], "score": 40}})
    number = r["card"]["number"]
    r = ok({"op": "systmj.card.give", "state": r["state"], "character": doc["characters"][0], "number": number})
    doc["systems"]["systmj"], doc["characters"][0] = r["state"], r["character"]
    sent = {"op": "systmj.card.learn", "character": {"id": "s1"}, "number": number, "gain": "1d20",
            "mentor": {"intelligence": 99, "personnalite": 99, "score": 99}}
    after, answer = move(doc, ANA, sent, seed=4)
    same = ok({"op": "systmj.card.learn", "state": doc["systems"]["systmj"], "character": doc["characters"][0],
               "number": number, "gain": "1", "seed": 4})
    assert after["systems"]["systmj"] == same["state"] and after["characters"][0] == same["character"]
    assert answer["gain"] == "1" and answer["limit"] == 50 and "seed" not in answer
    assert "esquive" not in json.dumps(answer)
    with pytest.raises(RulesError) as info:
        move(doc, BO, sent)
    assert info.value.code == "live.refused.character"
