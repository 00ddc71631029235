"""A move carries its own words (py/tablee/referee.py ``move_words``): the label its entry is
logged under (the words a phone's move waits under, « lance des dés », or a roll's expression)
and, when the page knows it before sending, its result line. The referee logs the entry under
them at once: no second move names it, and it is never logged under its bare op. The words
are text only, capped, and never an input of the op nor who did it.

Oracle: the same move without words (the op's answer and the entry's request, result and
signature are the same), and the texts as sent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tablee import referee
from tablee.errors import RulesError
from test_referee import (  # noqa: F401  (the autouse fixture applies here too)
    LEA,
    TOM,
    _every_move_is_its_changes,
    move,
    table,
)
from test_referee_moves import MIRA, _pz_table, _pz_test


def _entry(doc, answer):
    return next(e for e in doc["log"] if e["id"] == answer["logged"])


def test_a_waiting_rolls_words_are_its_entrys_label_and_change_nothing_else():
    plain_doc, plain = move(table(), LEA, {"op": "roll", "expr": "2d6"}, seed=99)
    doc, answer = move(table(), LEA, {"op": "roll", "expr": "2d6", "label": "Saut du toit"}, seed=99)
    assert answer == plain  # the op ran without them: same dice, same entry id
    entry, bare = _entry(doc, answer), _entry(plain_doc, plain)
    assert entry["label"] == "Saut du toit"
    assert {k: v for k, v in entry.items() if k != "label"} == {k: v for k, v in bare.items() if k != "label"}
    assert "label" not in entry["request"]  # never logged as an input of the op
    assert bare["label"] == "2d6"  # a roll without words is logged under its expression


def test_a_system_move_is_logged_under_its_words_and_result_line_at_once():
    doc = _pz_table()
    bare_doc, bare = move(doc, MIRA, _pz_test(), seed=31)
    assert _entry(bare_doc, bare)["label"] == ""  # (what the words replace: no title at all)
    after, answer = move(doc, MIRA, {**_pz_test(), "label": "Point Zéro : test", "summary": "Réussite (marge +3)"},
                         seed=31)
    entry = _entry(after, answer)
    assert entry["label"] == "Point Zéro : test"
    assert entry["result"] == {**_entry(bare_doc, bare)["result"], "summary": "Réussite (marge +3)"}
    assert entry["request"] == _entry(bare_doc, bare)["request"]
    assert entry["member"] == {"id": MIRA["id"], "name": MIRA["name"]}


def test_words_are_text_capped_and_name_no_one():
    doc, answer = move(table(), TOM, {"op": "roll", "expr": "d6", "label": "MJ\x00 a lancé\n" + "x" * 300,
                                       "summary": "y" * 900}, seed=5)
    entry = _entry(doc, answer)
    assert entry["label"] == ("MJ  a lancé " + "x" * 300)[:200]
    assert entry["result"]["summary"] == "y" * 500
    assert entry["who"] == "Tom" and entry["member"]["id"] == TOM["id"]  # the link's, whatever the words say
    blank, answer = move(table(), TOM, {"op": "roll", "expr": "d6", "label": "  "}, seed=5)
    assert _entry(blank, answer)["label"] == "d6"  # empty words: as without


@pytest.mark.parametrize("bad", [{"label": 5}, {"label": None}, {"label": ["x"]}, {"summary": {"total": 99}}])
def test_words_that_are_not_text_are_refused_and_change_nothing(bad):
    doc = table()
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {"op": "roll", "expr": "2d6", **bad})
    assert info.value.code == "live.refused.invalid"
    assert info.value.params["field"] == next(iter(bad))


def test_a_label_moves_own_label_is_its_field_not_its_words():
    """``live.log.label`` keeps its own ``label`` (the page's words for an entry, known after the
    answer): the move's words are not taken out of it."""
    doc, answer = move(table(), LEA, {"op": "roll", "expr": "3d6", "label": "3d6"}, seed=8)
    after, _ = move(doc, LEA, {"op": "live.log.label", "id": answer["logged"], "label": "Saut du toit",
                               "summary": "Réussi"})
    entry = _entry(after, answer)
    assert entry["label"] == "Saut du toit" and entry["result"]["summary"] == "Réussi"


def test_move_words_leaves_the_op_request_whole():
    bare, words = referee.move_words({"op": "unicreon.test", "test": {"value": 40}, "label": "Unicreon : test"})
    assert bare == {"op": "unicreon.test", "test": {"value": 40}}
    assert words == {"label": "Unicreon : test"}
