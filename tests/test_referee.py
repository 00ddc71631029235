"""The live table's referee (py/tablee/referee.py): a player's move on the MJ's whole table.

Oracle: the same op run on one device with the whole state and the referee's seed (what the
MJ's device would do if the player sat at it). Refusals leave the table unchanged. A
Hypothesis property plays random moves from random members in a random delivery order.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "theorem"))
sys.path.insert(0, str(Path(__file__).parent / "versality"))

from th_helpers import character as th_character
from versality_store import play

from referee_tables import LEA, MEMBERS, MOVE, NOW, SECRET, TOM, move, ok, systmj_table, table, uc_fight
from tablee import referee, referee_kernel
from tablee.api import handle
from tablee.errors import RulesError

pytestmark = pytest.mark.usefixtures("every_move_is_its_changes")


def test_a_hand_drawn_from_a_phone_is_what_the_same_op_gives_on_one_device():
    doc = table()
    phone = {"op": "theorem.hand.draw", "character": {"id": "josh"}, "seed": 0}  # its seed is ignored
    after, answer = move(doc, LEA, phone, seed=42)
    same = ok({"op": "theorem.hand.draw", "state": doc["systems"]["theorem"], "character": doc["characters"][0],
               "seed": 42})
    assert after["systems"]["theorem"] == same["state"]
    assert after["characters"] == doc["characters"]
    hand = after["systems"]["theorem"]["arcana"]["josh"]["piles"]["hand"]["cards"]
    assert hand  # drawn on the MJ's table
    # the answer never carries the whole state: its `state` is the player view (no hand)
    assert answer["state"]["arcana"]["josh"]["piles"]["hand"]["cards"] == []
    assert "public" not in answer and "penalties" not in answer


def test_another_players_character_is_refused_and_the_table_unchanged():
    doc = table()
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {"op": "theorem.hand.draw", "character": {"id": "kim"}})
    assert info.value.code == "live.refused.character"
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {"op": "theorem.action.aside", "character_id": "kim", "card": "x"})
    assert info.value.code == "live.refused.character"
    assert doc == before


@pytest.mark.parametrize("request_", [
    {"op": "theorem.turn.next"},  # an MJ op
    {"op": "pointzero.mj.threshold", "threshold": 1},  # the hidden threshold
    {"op": "store.share", "kind": "table", "data": {}, "audience": "mj"},
    {"op": "theorem.view.player", "viewer": "kim"},  # another member's private view
    {"op": "nope"},
    "not an object",
    {"no": "op"},
])
def test_what_is_not_a_move_is_refused(request_):
    doc = table()
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError) as info:
        move(doc, LEA, request_)
    assert info.value.code == "live.refused.not_a_move"
    assert doc == before
    assert SECRET not in json.dumps(info.value.params)


def test_a_tension_point_reaches_the_gauge_but_not_its_threshold():
    doc = table()
    after, answer = move(doc, LEA, {"op": "pointzero.tension.use", "kind": "dice", "who": "Josh"})
    assert len(after["systems"]["pointzero"]["entries"]) == 1
    assert after["systems"]["pointzero"]["threshold"] == 7  # the MJ's value is kept
    assert answer["state"]["threshold"] is None  # the phone sees the player view
    assert "7" not in json.dumps({k: v for k, v in answer.items() if k != "state"}).replace("2026", "")


def test_a_sheet_edit_changes_only_what_the_player_sees():
    doc = table()
    edited = {**th_character("josh"), "name": "Joshua", "realite": 12}
    after, _ = move(doc, LEA, {"op": "live.character.save", "character": edited})
    assert after["characters"][0]["name"] == "Joshua" and after["characters"][0]["realite"] == 12
    assert after["characters"][1:] == doc["characters"][1:]
    with pytest.raises(RulesError) as info:  # the MJ's NPC
        move(doc, LEA, {"op": "live.character.save", "character": {**th_character("pnj"), "notes": ""}})
    assert info.value.code == "live.refused.character"
    made, answer = move(doc, LEA, {"op": "live.character.save", "character": th_character("zoe")})
    assert made["characters"][-1]["id"] == "zoe" and answer["created"] == "zoe"  # a new one, hers
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {"op": "live.character.save", "character": {**th_character("zed"), "spheres": "junk"}})
    assert info.value.code == "live.refused.invalid"
    with pytest.raises(RulesError) as info:  # junk in one's own sheet
        move(doc, LEA, {"op": "live.character.save", "character": {**th_character("josh"), "realite": "x" * 10}})
    assert info.value.code == "live.refused.invalid"


def test_a_blanked_secret_stays_the_mjs():
    """A field the player filter blanks (the view shows a neutral value) keeps the MJ's value
    when the phone sends the sheet back as it saw it (the issue's Unicreon probe)."""
    full = {"a": 1, "secret": "zz", "nested": {"x": 1, "hidden": 5}}
    view = {"a": 1, "secret": "", "nested": {"x": 1}}
    edited = {"a": 2, "secret": "", "nested": {"x": 3, "hidden": 0}}
    assert referee_kernel.overlay(full, view, edited) == {"a": 2, "secret": "zz", "nested": {"x": 3, "hidden": 5}}


def test_a_log_entry_is_dated_by_the_mjs_device_and_checked():
    doc = table()
    entry = {"id": "e1", "at": "9999-01-01", "kind": "note", "system": None, "who": "MJ", "label": "On fuit !",
             "request": {}, "result": {}}
    after, _ = move(doc, LEA, {"op": "live.log.add", "entry": entry})
    assert after["log"][-1]["at"] == NOW
    assert after["log"][-1]["who"] == "Léa"  # not "MJ": signed by the member
    assert after["log"][-1]["member"] == {"id": "m-lea", "name": "Léa"}
    signed, _ = move(doc, LEA, {"op": "live.log.add", "entry": {**entry, "id": "e9", "who": "Josh"}})
    assert signed["log"][-1]["who"] == "Josh (Léa)"  # one of her characters, and who plays it
    with pytest.raises(RulesError) as info:
        move(after, LEA, {"op": "live.log.add", "entry": entry})
    assert info.value.code == "live.refused.duplicate"
    deep: dict = {}
    node = deep
    for _ in range(40):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {"op": "live.log.add", "entry": {**entry, "id": "e2", "extra": deep}})
    assert info.value.code == "live.refused.invalid"


@pytest.mark.parametrize("forged", [
    {"kind": "roll", "label": "1d20", "request": {"op": "roll", "expr": "1d20", "seed": 5}, "result": {"total": 20}},
    {"kind": "systmj.test", "system": "systmj", "label": "Force (90)", "request": {},
     "result": {"summary": "Succès critique"}},
    {"kind": "theorem.hand", "system": "theorem", "label": "Main", "request": {"op": "theorem.hand.draw"},
     "result": {}},
])
def test_a_forged_result_in_a_log_entry_is_refused_and_the_log_unchanged(forged):
    """A phone could log a roll that never happened, or roll until it suits and log that one:
    an entry carrying a request or a result is refused, whatever it claims."""
    doc = table()
    before = copy.deepcopy(doc)
    entry = {"id": "forged", "at": NOW, "system": None, "who": "Josh", **forged}
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {"op": "live.log.add", "entry": entry})
    assert info.value.code == "live.refused.result"
    assert doc == before
    r = handle({"op": "live.move", "document": doc, "member": LEA, "move": {"op": "live.log.add", "entry": entry},
                "seed": 1, "now": NOW})
    assert r["applied"] is False and r["refused"] == "live.refused.result"


def test_an_honest_roll_from_a_phone_is_logged_once_by_the_referee_with_its_seed():
    doc = table()
    after, answer = move(doc, LEA, {"op": "roll", "expr": "3d6", "seed": 999}, seed=1234)
    same = ok({"op": "roll", "expr": "3d6", "seed": 1234})
    assert answer["total"] == same["total"] and answer["seed"] == 1234  # the phone's seed is ignored
    [entry] = after["log"]
    assert entry["id"] == answer["logged"] == referee_kernel._entry_id(1234, NOW)
    assert entry["request"] == {"op": "roll", "expr": "3d6", "seed": 1234}
    assert entry["result"] == {"total": same["total"], "terms": same["terms"]}
    assert entry["who"] == "Léa" and entry["at"] == NOW and entry["kind"] == "roll" and entry["label"] == "3d6"
    # the same move delivered twice (the same seed) is still one entry
    again, _ = move(after, LEA, {"op": "roll", "expr": "3d6"}, seed=1234)
    assert [e["id"] for e in again["log"]] == [entry["id"]]


def test_no_log_entry_id_gives_the_seed_of_a_draw_away():
    """Every device sees the log: the id of a draw's entry must not carry the seed the answer
    and the entry withhold (with the public discard it would tell the order of a reshuffle).
    The id was ``live-<seed in hex>``."""
    doc = table()
    doc, _ = move(doc, LEA, {"op": "theorem.hand.draw", "character": {"id": "josh"}}, seed=0x5EED5EED5)
    entry = doc["log"][-1]
    assert entry["id"] == "live-" + __import__("hashlib").sha256(
        f"tablee.live.entry:{0x5EED5EED5}:{NOW}".encode()).hexdigest()[:16]
    public = ok({"op": "store.share", "kind": "table", "data": doc, "audience": "player"})["data"]
    for text in (json.dumps(public), json.dumps(entry)):
        assert "5eed5eed5" not in text.lower() and str(0x5EED5EED5) not in text
    # Two moves never share an entry: another seed, or the same seed at another moment.
    assert len({referee_kernel._entry_id(s, t) for s in (1, 2) for t in (NOW, "2026-11-25T12:00:01Z")}) == 4


def test_a_system_test_from_a_phone_is_rolled_and_logged_by_the_referee():
    doc = table()
    after, answer = move(doc, LEA, {"op": "systmj.test", "score": 45, "seed": 1}, seed=77)
    same = ok({"op": "systmj.test", "score": 45, "seed": 77})
    assert answer["outcome"] == same["outcome"] and answer["dice"] == same["dice"]
    entry = after["log"][-1]
    assert entry["kind"] == "systmj.test" and entry["system"] == "systmj"
    assert entry["request"]["seed"] == 77 and entry["result"]["total"] == same["roll"]
    assert entry["result"]["outcome"] == same["outcome"]


def test_a_draw_answer_and_its_log_entry_never_carry_the_deck_order():
    """theorem.action.draw answers ``deck_used``: the whole draw pile, top first. It must not
    reach the phone (it would tell the next cards of everyone), nor the log the phones see."""
    doc = table()
    doc, _ = move(doc, LEA, {"op": "theorem.hand.draw", "character": {"id": "josh"}}, seed=4)
    doc, _ = move(doc, LEA, {"op": "theorem.action.begin", "character": {"id": "josh"}, "sphere": "animalite",
                             "modifier": 0})
    draw = doc["systems"]["theorem"]["deck"]["piles"]["draw"]["cards"]
    doc, answer = move(doc, LEA, {"op": "theorem.action.draw", "character": {"id": "josh"}}, seed=5)
    assert "deck_used" not in json.dumps(answer)
    assert json.dumps(draw[1:6]) not in json.dumps(answer)
    assert "seed" not in answer  # with the public discard, it would tell the order of a reshuffle
    entry = doc["log"][-1]
    assert entry["kind"] == "theorem.draw" and entry["who"] == "Josh"  # as theorem/table.js logs it
    # The MJ's log replays it (the deck as it stood, the seed inside it: referee_log.py); no
    # player's view of the table holds either (tests/test_referee_log.py for the replay).
    assert "deck_used" not in json.dumps(entry) and "seed" not in entry["request"]
    assert entry["request"]["character_id"] == "josh" and entry["request"]["deck"]["seed"] == 5
    public = ok({"op": "store.share", "kind": "table", "data": doc, "audience": "player"})["data"]
    assert json.dumps(draw[1:6]) not in json.dumps(public["log"])
    assert "seed" not in json.dumps(public["log"][-1]["request"])


def test_an_op_error_reaches_the_phone_without_the_tables_values(monkeypatch):
    """An op's error may quote what it read (``request.internal`` quotes the exception's text,
    a ``detail`` quotes a value): the phone gets the code and the whitelisted params only."""
    from tablee.registry import OPS

    def broken(request):
        raise KeyError(SECRET)

    import dataclasses

    monkeypatch.setitem(OPS, "roll", dataclasses.replace(OPS["roll"], handler=broken))
    doc = table()
    assert SECRET in json.dumps(handle({"op": "roll", "expr": "1d6", "seed": 1}))  # leaks on one device
    after, answer = move(doc, LEA, {"op": "roll", "expr": "1d6"})
    assert after == doc
    assert answer["error"]["code"] == "request.internal" and answer["error"]["params"] == {}
    assert SECRET not in json.dumps(answer)


def test_an_error_keeps_only_the_params_proven_safe():
    error = {"error": {"code": "versality.tokens.not_enough", "message_key": "x", "params": {
        "asked": 3, "max": 3, "field": "tokens", "detail": SECRET, "card": "arcane-05", "hand": ["arcane-01"],
        "problems": [{"field": "notes", "code": "store.too_long", "params": {"value": SECRET}}]}}}
    safe = referee.phone_error(error)
    assert safe == {"error": {"code": "versality.tokens.not_enough", "message_key": "error.versality.tokens.not_enough",
                              "params": {"max": 3, "field": "tokens",
                                         "problems": [{"field": "notes", "code": "store.too_long", "params": {}}]}}}
    assert referee.phone_error("junk")["error"]["code"] == "live.refused.malformed"


def test_versality_moves_are_merged_and_the_mj_tokens_stay_the_mjs():
    from api_calls import versality_character

    c = ok({"op": "versality.character.finish",
            "character": {**versality_character(improvement_points=9), "id": "ana"}})["character"]
    doc = table()
    doc["characters"].append(c)
    doc["systems"]["versality"] = {**ok({"op": "versality.state.new"})["state"], "tokens": 3, "catastrophe": 5}
    ana = {"id": "m-ana", "name": "Ana", "characters": ["ana"]}
    doc, answer = move(doc, ana, {"op": "versality.deck.build", "character": {"id": "ana"}}, seed=5)
    oracle = play({"op": "versality.deck.build", "state": {**ok({"op": "versality.state.new"})["state"], "tokens": 3,
                   "catastrophe": 5}, "character": c, "seed": 5})["state"]
    assert doc["systems"]["versality"] == oracle
    assert answer["state"]["tokens"] == 0 and answer["state"]["catastrophe"] == 0  # the player filter's neutral values
    doc, answer = move(doc, ana, {"op": "versality.test.draw", "character": {"id": "ana"}, "characteristic": "mental",
                                  "skill": "traquer", "difficulty": "epique"}, seed=6)
    assert "ana" in doc["systems"]["versality"]["pending"]
    pending = doc["systems"]["versality"]["pending"]["ana"]
    choice = {"choice": answer["test"]["drawn"][0]["id"]} if pending["rule"] == "choose" else {}
    doc, answer = move(doc, ana, {"op": "versality.test.resolve", "character_id": "ana", "tokens": 3, **choice}, seed=7)
    assert "ana" not in doc["systems"]["versality"]["pending"]
    assert doc["systems"]["versality"]["tokens"] == 3  # a player cannot spend the MJ's tokens


def test_the_op_is_registered_and_answers_json_errors():
    doc = table()
    r = handle({"op": "live.move", "document": doc, "member": LEA, "move": {"op": "theorem.turn.next"}, "seed": 1,
                "now": NOW})
    assert r["applied"] is False and r["answer"]["error"]["code"] == "live.refused.not_a_move"
    r = handle({"op": "live.move", "document": doc, "member": LEA, "move": {"op": "theorem.action.draw",
                "character": {"id": "josh"}}, "seed": 1, "now": NOW})
    assert r["applied"] is False and r["answer"]["error"]["code"].startswith("theorem.")  # no action announced
    assert "theorem.hand.draw" in handle({"op": "live.moves"})["moves"]


# ------------------------------------------------------------------ property


def _hand(doc, cid):
    return set(doc["systems"]["theorem"]["arcana"].get(cid, {}).get("piles", {}).get("hand", {}).get("cards", []))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=st.lists(st.tuples(st.sampled_from(range(len(MEMBERS))), MOVE), min_size=1, max_size=8),
       order=st.randoms(use_true_random=False))
def test_the_table_is_the_sequence_of_the_accepted_moves(moves, order):
    """Whatever order the links deliver in, the table is the fold of the moves accepted in that
    order, a refused move changes nothing, and no answer holds another player's hand."""
    doc = table()
    delivered = list(enumerate(moves))
    order.shuffle(delivered)
    accepted = []
    for seed, (who, request) in delivered:
        member = MEMBERS[who]
        before = copy.deepcopy(doc)
        try:
            doc, answer = move(doc, member, request, seed=seed)
        except RulesError as exc:
            assert doc == before
            assert exc.code in {"live.refused.not_a_move", "live.refused.character"}
            named = request.get("character") or request.get("a") or {}
            owned = (named.get("id") or named.get("character_id")) in member["characters"]
            assert not owned or exc.code != "live.refused.character"
            continue
        if "error" in answer:
            assert doc == before
            continue
        accepted.append((member, request, seed))
        text = json.dumps(answer)
        view = answer.get("state", {})
        for owner, arcana in view.get("arcana", {}).items():  # no hand travels in a view, not even one's own
            assert arcana["piles"]["hand"]["cards"] == [], owner
        assert SECRET not in text and "deck_used" not in text  # nor a draw pile's order
        assert "threshold" not in answer.get("state", {}) or answer["state"]["threshold"] is None
    replay = table()
    for member, request, seed in accepted:
        replay, _ = move(replay, member, request, seed=seed)
    assert replay == doc
    assert doc["systems"]["pointzero"]["threshold"] == 7


def test_a_secret_round_choice_from_a_phone_stays_hidden_until_the_reveal():
    """SYSTMJ 3.2 (py/tablee/systems/systmj/rounds.py): the choices are revealed together; a
    player chooses for their own character only, and their answer shows nobody's choice."""
    s1 = ok({"op": "systmj.character.new", "id": "s1", "name": "Ana"})["character"]
    s2 = ok({"op": "systmj.character.new", "id": "s2", "name": "Bo"})["character"]
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [s1, s2]
    state = ok({"op": "systmj.state.new"})["state"]
    doc["systems"]["systmj"] = ok({"op": "systmj.round.start", "state": state, "characters": [s1, s2]})["state"]
    ana = {"id": "m-ana", "name": "Ana", "characters": ["s1"]}
    after, answer = move(doc, ana, {"op": "systmj.round.choose", "entity": "s1", "choice": "mouvement"})
    chosen = {e["id"]: e["choice"] for e in after["systems"]["systmj"]["rounds"]["entities"]}
    assert chosen == {"s1": "mouvement", "s2": ""}
    # the answer's state is the player view: nobody's choice, not even one's own
    assert {e["choice"] for e in answer["state"]["rounds"]["entities"]} == {""}
    assert '"choice": "mouvement"' not in json.dumps(answer)
    with pytest.raises(RulesError) as info:
        move(after, ana, {"op": "systmj.round.choose", "entity": "s2", "choice": "action"})
    assert info.value.code == "live.refused.character"
    with pytest.raises(RulesError) as info:
        move(after, ana, {"op": "systmj.round.reveal"})
    assert info.value.code == "live.refused.not_a_move"


def test_a_passe_darmes_from_a_phone_by_ones_own_fighter_only():
    """Unicreon's combat state is ``systems.unicreon.combat``: the attacker named by its
    combatant id must be one of the member's characters; the result is the op's on one device."""
    a = ok({"op": "unicreon.character.new", "id": "ua", "name": "A"})["character"]
    b = ok({"op": "unicreon.character.new", "id": "ub", "name": "B"})["character"]
    doc, combat, attacker, defender = uc_fight(a, b)
    lea = {"id": "m-lea", "name": "Léa", "characters": ["ua"]}
    request = {"op": "unicreon.combat.attack", "attacker": attacker, "defender": defender}
    after, answer = move(doc, lea, request, seed=9)
    same = handle({**request, "state": combat, "seed": 9})
    assert "error" not in answer and "error" not in same, (answer, same)
    assert after["systems"]["unicreon"]["combat"] == same["state"]
    assert answer["exchange"] == same["exchange"] and "combatants" in answer["state"]
    with pytest.raises(RulesError) as info:
        move(doc, lea, {**request, "attacker": defender, "defender": attacker})
    assert info.value.code == "live.refused.character"


def test_a_sheet_save_cannot_carry_junk_or_take_a_blanked_secret():
    """The hostile phone's probes: a value nested 40 levels deep, 1.5 MB of junk, a Unicreon
    terrible secret sent back blanked (as the player view shows it)."""
    doc = table()
    deep: dict = {}
    node = deep
    for _ in range(40):
        node["x"] = {}
        node = node["x"]
    for junk in ({"skills": deep}, {"notes": "x" * 1_500_000}, {"extra": deep}):
        with pytest.raises(RulesError) as info:
            move(doc, LEA, {"op": "live.character.save", "character": {**th_character("josh"), **junk}})
        assert info.value.code == "live.refused.invalid", junk
    uc = ok({"op": "unicreon.character.new", "id": "u1", "name": "Solène"})["character"]
    doc["characters"].append({**uc, "secret": SECRET})
    sol = {"id": "m-sol", "name": "Sol", "characters": ["u1"]}
    shared = ok({"op": "store.share", "kind": "character", "data": doc["characters"][-1], "audience": "player"})
    view = shared["data"]
    assert view["secret"] == ""
    after, answer = move(doc, sol, {"op": "live.character.save", "character": {**view, "name": "Solène la Brave"}})
    assert after["characters"][-1]["secret"] == SECRET and after["characters"][-1]["name"] == "Solène la Brave"
    assert SECRET not in json.dumps(answer)


def test_a_secret_roll_and_a_roll_sent_to_one_player_never_reach_the_public_table():
    """The MJ's "Jet secret" (``to: "mj"``) and "Envoyer à…" (``to``: a member id) are in the
    MJ's table only: the public projection (what every phone syncs) and a player's share of
    the entry leave them out; a phone cannot address a line to anyone."""
    doc = table()
    base = {"at": NOW, "kind": "roll", "system": None, "who": "MJ", "label": "1d20",
            "request": {"op": "roll", "expr": "1d20", "seed": 3}, "result": {"total": 17, "terms": []}}
    doc["log"] = [{**base, "id": "open"}, {**base, "id": "secret", "to": "mj"},
                  {**base, "id": "for-lea", "to": "m-lea"}]
    opened = ok({"op": "store.open", "document": doc})
    assert [e["id"] for e in opened["document"]["log"]] == ["open", "secret", "for-lea"]  # valid, kept
    public = ok({"op": "store.share", "kind": "table", "data": doc, "audience": "player"})["data"]
    assert [e["id"] for e in public["log"]] == ["open"]
    for entry in doc["log"][1:]:
        assert handle({"op": "store.share", "kind": "entry", "data": entry, "audience": "player"})["error"]["code"] \
            == "share.private_entry"
        assert ok({"op": "store.share", "kind": "entry", "data": entry, "audience": "mj"})["data"]["to"] == entry["to"]
    note = {"id": "n1", "at": NOW, "kind": "note", "system": None, "label": "psst", "request": {}, "result": {},
            "to": "m-tom"}
    after, _ = move(table(), LEA, {"op": "live.log.add", "entry": note})
    assert "to" not in after["log"][-1]
    bad = {**base, "id": "x", "to": ""}
    assert ok({"op": "store.open", "document": {**doc, "log": [bad]}})["quarantined"] == 1


def test_a_page_words_the_entry_the_referee_logged_but_not_its_result():
    """``live.log.label``: the phone's page names the referee's entry for its move ("3d6 —
    saut"); only its label changes, only on an entry the referee logged for that member."""
    doc = table()
    doc, answer = move(doc, LEA, {"op": "roll", "expr": "3d6"}, seed=1234)
    entry = doc["log"][-1]
    labelled, _ = move(doc, LEA, {"op": "live.log.label", "id": answer["logged"], "label": "Saut du toit"})
    assert labelled["log"][-1] == {**entry, "label": "Saut du toit"}
    with pytest.raises(RulesError) as info:  # Tom's phone, Léa's entry
        move(doc, TOM, {"op": "live.log.label", "id": answer["logged"], "label": "x"})
    assert info.value.code == "live.refused.label"
    doc["log"].append({**entry, "id": "l-mj", "who": "Léa"})  # not one the referee logged
    for bad in ({"id": "l-mj", "label": "x"}, {"id": answer["logged"], "label": 5}, {"id": "live-0", "label": "x"}):
        with pytest.raises(RulesError):
            move(doc, LEA, {"op": "live.log.label", **bad})


@pytest.mark.parametrize(("request_", "kind"), [
    ({"op": "unicreon.opposition", "a": {"value": 30}, "b": {"value": 40}}, "unicreon.opposition"),
    ({"op": "pointzero.opposition.roll", "a": {"kind": "attribute", "attribute": 3},
      "b": {"kind": "attribute", "attribute": 2}}, "pointzero.opposition"),
])
def test_an_opposition_from_a_phones_test_page_is_rolled_and_logged_by_the_referee(request_, kind):
    doc = table()
    after, answer = move(doc, LEA, {**request_, "seed": 1}, seed=321)
    same = ok({**request_, "seed": 321})
    assert {k: v for k, v in answer.items() if k != "logged"} == same
    entry = after["log"][-1]
    assert entry["kind"] == kind and entry["request"] == {**request_, "seed": 321} and entry["who"] == "Léa"


# ------------------------------------------------------------------ the moves of every system

def _no_draw_order(answer, state):
    """The answer names no draw pile in the order it stands on the MJ's table (the draw pile's
    order is the MJ's secret), and holds no ``deck_used``."""
    text = json.dumps(answer)
    assert "deck_used" not in text
    order = state["deck"]["piles"]["draw"]["cards"]
    assert json.dumps(order) not in text


def test_a_theorem_answer_never_carries_the_draw_pile_order():
    """The ops answer ``deck_used`` (the draw pile as it stood, for a replay on one device):
    the order of what is left in the deck. A phone's answer drops it, at any depth."""
    doc = table()
    doc, _ = move(doc, LEA, {"op": "theorem.action.begin", "character": {"id": "josh"}, "sphere": "animalite",
                             "modifier": 0})
    full = doc["systems"]["theorem"]
    same = ok({"op": "theorem.action.draw", "state": full, "character": doc["characters"][0], "seed": 3})
    assert "deck_used" in same  # what one device keeps for its replay
    after, answer = move(doc, LEA, {"op": "theorem.action.draw", "character": {"id": "josh"}}, seed=3)
    assert after["systems"]["theorem"] == same["state"]
    _no_draw_order(answer, after["systems"]["theorem"])


def _chase(doc, a, b):
    return ok({"op": "theorem.chase.start", "state": doc["systems"]["theorem"], "a": a, "b": b, "target": 3})["state"]


def test_a_chase_side_is_begun_by_its_own_player_only():
    """Théorem 3) « se traite alors comme un tirage d'opposition classique »: a character's side
    of a chase round is that character's action (theorem.chase.begin with its sheet), sent by
    the player who plays it; an NPC side is the MK's to draw; the result is the op's on one device."""
    doc = table()
    doc["systems"]["theorem"] = _chase(doc, {"name": "Josh", "base": 6, "start": 0, "character_id": "josh"},
                                       {"name": "Garde", "base": 5, "start": 0})
    request = {"op": "theorem.chase.begin", "side": "a", "character": {"id": "josh"}, "exploit": 1}
    after, answer = move(doc, LEA, request, seed=21)
    same = ok({**request, "state": doc["systems"]["theorem"], "character": doc["characters"][0], "seed": 21})
    assert after["systems"]["theorem"] == same["state"]
    assert after["characters"][0] == same["character"] and after["characters"][0]["realite"] == 19  # exploit paid
    assert after["characters"][1:] == doc["characters"][1:]
    _no_draw_order(answer, after["systems"]["theorem"])
    assert SECRET not in json.dumps(answer)
    for refused, member in (({**request, "character": {"id": "kim"}}, LEA),  # not hers
                            (request, TOM),  # Josh is Léa's
                            ({"op": "theorem.chase.begin", "side": "b"}, LEA)):  # the MK's NPC side
        with pytest.raises(RulesError) as info:
            move(doc, member, refused)
        assert info.value.code == "live.refused.character"
    for mk_op in ({"op": "theorem.chase.round"}, {"op": "theorem.chase.end"},
                  {"op": "theorem.chase.start", "a": {"name": "x", "base": 1, "start": 0},
                   "b": {"name": "y", "base": 1, "start": 0}, "target": 3}):
        with pytest.raises(RulesError) as info:
            move(doc, LEA, mk_op)
        assert info.value.code == "live.refused.not_a_move"


def test_an_opposition_is_drawn_for_ones_own_side():
    """An opposition draw from a phone: side ``a`` is the player's character, side ``b`` an NPC
    (the MK's numbers) or one of the player's own; another player's character is theirs to draw."""
    doc = table()
    a = {"name": "Josh", "base": 7, "start": 0, "character_id": "josh"}
    npc = {"name": "Garde", "base": 6, "start": 1}
    request = {"op": "theorem.opposition.draw", "a": a, "b": npc}
    after, answer = move(doc, LEA, request, seed=5)
    same = ok({**request, "state": doc["systems"]["theorem"], "seed": 5})
    assert after["systems"]["theorem"] == same["state"] and after["characters"] == doc["characters"]
    assert answer["result"] == same["result"]
    _no_draw_order(answer, after["systems"]["theorem"])
    for refused in ({**request, "a": npc},  # no character of hers on side a
                    {**request, "a": {**a, "character_id": "kim"}},
                    {**request, "b": {**npc, "character_id": "kim"}}):  # Tom's side is Tom's
        with pytest.raises(RulesError) as info:
            move(doc, LEA, refused)
        assert info.value.code == "live.refused.character"
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {**request, "a": "junk"})
    assert info.value.code == "live.refused.invalid"


def test_systmj_cards_are_taken_and_handed_back_by_their_own_player():
    """SYSTMJ 4 (a card's ``holder``): Ana's player takes a free card of the library for Ana
    and hands it back; Bo's card is Bo's player's; a card someone holds is refused by the op.
    Each step is the op on one device (the state and the sheet compared)."""
    doc = systmj_table()
    ana = {"id": "m-ana", "name": "Ana", "characters": ["s1"]}
    bo = {"id": "m-bo", "name": "Bo", "characters": ["s2"]}
    number = doc["systems"]["systmj"]["library"]["cards"][0]["number"]
    give = {"op": "systmj.card.give", "character": {"id": "s1"}, "number": number}
    after, answer = move(doc, ana, give)
    same = ok({**give, "state": doc["systems"]["systmj"], "character": doc["characters"][0]})
    assert after["systems"]["systmj"] == same["state"] and after["characters"][0] == same["character"]
    assert after["characters"][0]["cards"] == [number] and after["characters"][1:] == doc["characters"][1:]
    assert answer["character"]["cards"] == [number]
    with pytest.raises(RulesError) as info:  # Bo's player cannot give to Ana, nor take Ana's card
        move(after, bo, give)
    assert info.value.code == "live.refused.character"
    with pytest.raises(RulesError) as info:
        move(after, bo, {"op": "systmj.card.take", "character": {"id": "s1"}, "number": number})
    assert info.value.code == "live.refused.character"
    held, answer = move(after, bo, {"op": "systmj.card.give", "character": {"id": "s2"}, "number": number})
    assert held == after and answer["error"]["code"] == "systmj.card.held"  # the op's refusal, nothing changed
    back, _ = move(after, ana, {"op": "systmj.card.take", "character": {"id": "s1"}, "number": number})
    same = ok({"op": "systmj.card.take", "state": after["systems"]["systmj"], "character": after["characters"][0],
               "number": number})
    assert back["systems"]["systmj"] == same["state"] and back["characters"][0]["cards"] == []
    taken, _ = move(back, bo, {"op": "systmj.card.give", "character": {"id": "s2"}, "number": number})
    assert taken["characters"][1]["cards"] == [number]  # the hand-over: a take-back, then a give
    for mj_op in ({"op": "systmj.card.delete", "number": number}, {"op": "systmj.card.save", "card": {}}):
        with pytest.raises(RulesError) as info:
            move(doc, ana, mj_op)
        assert info.value.code == "live.refused.not_a_move"


def test_systmj_choices_stay_hidden_in_every_answer_until_the_reveal():
    """After Bo chose Action and Ana chooses Mouvement, nothing in Ana's answer says Bo's
    choice, nor hers (the player view has every choice empty before the reveal)."""
    doc = systmj_table()
    s1, s2 = doc["characters"][:2]
    doc["systems"]["systmj"] = ok({"op": "systmj.round.start", "state": doc["systems"]["systmj"],
                                   "characters": [s1, s2]})["state"]
    bo = {"id": "m-bo", "name": "Bo", "characters": ["s2"]}
    ana = {"id": "m-ana", "name": "Ana", "characters": ["s1"]}
    doc, answer_bo = move(doc, bo, {"op": "systmj.round.choose", "entity": "s2", "choice": "action"})
    doc, answer_ana = move(doc, ana, {"op": "systmj.round.choose", "entity": "s1", "choice": "mouvement"})
    for answer in (answer_bo, answer_ana):
        text = json.dumps(answer)
        assert '"choice": "action"' not in text and '"choice": "mouvement"' not in text
    assert {e["id"]: e["choice"] for e in doc["systems"]["systmj"]["rounds"]["entities"]} == {
        "s1": "mouvement", "s2": "action"}
