"""A player's first move on a fresh live table (py/tablee/referee.py ``_first_state``): in each of
the five systems, a table whose only content is the characters accepts a phone's first test or
draw, logged on the MJ's table, with the system's state begun as its rules begin it
(``<system>.state.new``): players play as soon as their characters exist.

Oracle: the same op on one device, on the state ``<system>.state.new`` makes (with the seed the
referee derives for a shuffle), and the refusal of a move that truly needs something the MJ
opens (Unicreon's fight) saying so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api_calls import versality_character
from i18n_words import worded
from node_harness import NODE
from referee_tables import NOW, move, ok
from tablee import referee
from tablee.api import handle
from tablee.errors import RulesError

pytestmark = pytest.mark.usefixtures("every_move_is_its_changes")


def _fresh(*characters):
    """A table as the MJ's device holds it after creating the characters and nothing else."""
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = list(characters)
    assert doc["systems"] == {}
    return doc


def _member(cid):
    return {"id": f"m-{cid}", "name": "Léa", "characters": [cid]}


def _logged(after, answer):
    """The MJ's log entry of the move (answered ``logged``), signed by the link's member."""
    entry = next(e for e in after["log"] if e["id"] == answer["logged"])
    assert entry["member"]["name"] == "Léa"
    return entry


def _first(doc, member, request, seed):
    """The move as the MJ's device runs it (the ``live.move`` op): applied, with its answer."""
    r = handle({"op": "live.move", "document": doc, "member": member, "move": request, "seed": seed, "now": NOW})
    assert r["applied"] is True, r
    assert "error" not in r["answer"]
    after, answer = move(doc, member, request, seed=seed)
    assert after == r["document"] and answer == r["answer"]
    return after, answer


def test_point_zero_first_test_begins_the_gauge_without_a_threshold():
    """Point Zéro: a skill test with a Tension point on a table the MJ only made characters on.
    The gauge starts empty and takes the point (rules/README.md, "Jauge de Tension"); no
    threshold is needed to count, so the phone is never refused for the MJ's secret."""
    c = ok({"op": "pointzero.character.new", "id": "mira", "name": "Mira"})["character"]
    c["skills"] = [{"name": "Mécanique", "level": 6}]
    doc = _fresh(c)
    test = {"kind": "skill", "attribute_code": "ADR", "skill_name": "Mécanique", "difficulty": 17,
            "sacrifice": 0, "tension": True}
    after, answer = _first(doc, _member("mira"), {"op": "pointzero.test.roll", "test": test, "character_id": "mira"},
                           seed=8)
    begun = ok({"op": "pointzero.state.new"})["state"]
    assert after["systems"]["pointzero"] == ok({"op": "pointzero.tension.use", "state": begun, "kind": "dice",
                                                "who": "Mira (Léa)"})["state"]
    assert after["systems"]["pointzero"]["threshold"] is None
    assert _logged(after, answer)["kind"] == "pointzero.test"
    assert len(answer["state"]["entries"]) == 1 and answer["state"]["threshold"] is None
    # a Tension point used alone begins it too
    after, answer = _first(doc, _member("mira"), {"op": "pointzero.tension.use", "kind": "other", "who": "x",
                                                  "note": ""}, seed=3)
    assert len(after["systems"]["pointzero"]["entries"]) == 1


def test_theorem_first_draw_shuffles_the_centre_as_a_new_table_does():
    """Théorem: a player's first arcana hand and first action on a table holding only their
    character: the 56 cards are shuffled at the centre by the referee (a seed of its own, never
    the move's), then the hand is the op's on that table."""
    c = ok({"op": "theorem.character.new", "id": "josh", "name": "Josh"})["character"]
    doc = _fresh(c)
    after, answer = _first(doc, _member("josh"), {"op": "theorem.hand.draw", "character": {"id": "josh"}}, seed=42)
    begun = ok({"op": "theorem.state.new", "seed": (42 ^ referee._FIRST_STATE_SALT) % 2**53})["state"]
    same = ok({"op": "theorem.hand.draw", "state": begun, "character": c, "seed": 42})
    assert after["systems"]["theorem"] == same["state"]
    assert _logged(after, answer)["kind"] == "theorem.hand"
    assert "seed" not in answer and "deck_used" not in json.dumps(answer)
    after, answer = _first(doc, _member("josh"), {"op": "theorem.action.begin", "character": {"id": "josh"},
                                                  "sphere": "animalite", "modifier": 0}, seed=5)
    assert "theorem" in after["systems"]


def test_versality_first_deck_and_draw_need_nothing_of_the_mj():
    """Versality: the deck built and the first test drawn from a phone on a fresh table (no
    catastrophe, no MJ token: the state ``versality.state.new`` makes), logged on the MJ's."""
    c = ok({"op": "versality.character.finish", "character": {**versality_character(improvement_points=9),
                                                               "id": "ana"}})["character"]
    doc = _fresh(c)
    ana = _member("ana")
    doc, _ = _first(doc, ana, {"op": "versality.deck.build", "character": {"id": "ana"}}, seed=5)
    assert "ana" in doc["systems"]["versality"]["decks"]
    doc, answer = _first(doc, ana, {"op": "versality.test.draw", "character": {"id": "ana"},
                                    "characteristic": "mental", "skill": "traquer", "difficulty": "epique"}, seed=6)
    assert "ana" in doc["systems"]["versality"]["pending"]
    pending = doc["systems"]["versality"]["pending"]["ana"]
    choice = {"choice": answer["test"]["drawn"][0]["id"]} if pending["rule"] == "choose" else {}
    doc, answer = _first(doc, ana, {"op": "versality.test.resolve", "character_id": "ana", **choice}, seed=7)
    assert _logged(doc, answer)["kind"] == "versality.test"


def test_a_first_test_drawn_straight_away_on_versality_is_the_op_on_a_new_state():
    """The first Versality move may be the draw itself (a deck the op builds on the way)."""
    c = ok({"op": "versality.character.finish", "character": {**versality_character(improvement_points=9),
                                                               "id": "ana"}})["character"]
    doc = _fresh(c)
    request = {"op": "versality.deck.sync", "character": {"id": "ana"}}
    after, _ = _first(doc, _member("ana"), request, seed=9)
    assert set(after["systems"]) == {"versality"}


def test_systmj_first_test_and_learning_roll_on_a_fresh_table():
    """SYSTMJ: a d100 test and a learning roll from a phone on a table with only the character:
    the learning roll reads the table's session and gain from the state SYSTMJ begins with
    (``systmj.state.new``: session 1, Jeu libre)."""
    s1 = ok({"op": "systmj.character.new", "id": "s1", "name": "Ana"})["character"]
    s1["skills"] = {**s1["skills"], "lire_ecrire": 30}
    doc = _fresh(s1)
    ana = _member("s1")
    after, answer = _first(doc, ana, {"op": "systmj.test", "score": 45}, seed=77)
    assert _logged(after, answer)["kind"] == "systmj.test"
    after, answer = _first(doc, ana, {"op": "systmj.learning.roll",
                                      "subject": {"character": "s1", "target": "skill", "key": "lire_ecrire"}},
                           seed=21)
    assert after["systems"]["systmj"] == ok({"op": "systmj.state.new"})["state"]
    assert _logged(after, answer)["kind"] == "systmj.learning"


def test_unicreon_first_test_and_care_on_a_fresh_table_and_a_fight_not_open_said_so():
    """Unicreon: a test and a wound from a phone need no table state; a passe d'armes before the
    MJ opens a fight is refused as that (``live.refused.no_fight``), the table unchanged."""
    uc = ok({"op": "unicreon.character.new", "id": "u1", "name": "Solène"})["character"]
    doc = _fresh(uc)
    sol = _member("u1")
    test = {"characteristic": "agilite", "difficulty": "difficile", "bonus": 0, "malus": 0}
    after, answer = _first(doc, sol, {"op": "unicreon.test", "test": test, "character": {"id": "u1"}}, seed=13)
    assert _logged(after, answer)["kind"] == "unicreon.test"
    after, _ = _first(doc, sol, {"op": "unicreon.health.damage", "character": {"id": "u1"}, "amount": 2}, seed=1)
    assert after["characters"][0]["pv"] == uc["pv"] - 2
    with pytest.raises(RulesError) as info:
        move(doc, sol, {"op": "unicreon.combat.attack", "attacker": "c1", "defender": "c2"})
    assert info.value.code == "live.refused.no_fight"


@pytest.mark.skipif(NODE is None, reason="node is not installed: the page's i18n layer runs in JavaScript")
def test_a_refusal_naming_a_game_says_its_name_never_its_id():
    """Every error message whose ``system`` param is a game's id reads the game's name
    (static/js/i18n.js ``errorMessage``): « Point Zéro », never « pointzero »."""
    errors = [{"code": "live.refused.no_state", "message_key": "error.live.refused.no_state",
               "params": {"system": "pointzero"}},
              {"code": "share.no_filter", "message_key": "error.share.no_filter", "params": {"system": "versality"}}]
    words = worded(errors)
    for lang in ("fr", "en"):
        assert "Point Zéro" in words[lang][0] and "pointzero" not in words[lang][0], words[lang][0]
        assert "Versality" in words[lang][1] and "versality" not in words[lang][1], words[lang][1]


def test_the_no_state_refusal_names_no_game_by_its_id_in_either_language():
    """The refusals a phone may read about a table not begun name the game as people know it:
    the catalogues' {system} is filled with the game's name by the page (static/js/i18n.js)."""
    root = Path(__file__).resolve().parent.parent / "static" / "i18n"
    for lang in ("fr", "en"):
        live = json.loads((root / lang / "live.json").read_text(encoding="utf-8"))
        assert "error.live.refused.no_fight" in live and "live.why.live.refused.no_fight" in live
        for key in ("error.live.refused.no_state", "error.live.refused.no_fight"):
            assert "pointzero" not in live[key] and "unicreon" not in live[key]
