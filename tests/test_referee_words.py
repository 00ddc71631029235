"""A move carries its own words (py/tablee/referee.py ``move_words``): the label its entry is
logged under (the words a phone's move waits under, « lance des dés », or a roll's expression)
and, when the page knows it before sending, its result line. The referee logs the entry under
them at once: no second move names it, and it is never logged under its bare op. The words
are text only, capped, and never an input of the op nor who did it.

With them travels how the phone worded them in its language (``label_words``,
``summary_words``, ``words_lang``, made by static/js/views/log-words.js ``withWords``), so the
MJ's device and every other phone read the entry in theirs: checked as a table's log entry's
words are (the store's own check), kept only with the text they word and their language,
refused naming the key when out of shape, never who did it.

Oracle: the same move without words (the op's answer and the entry's request, result and
signature are the same), the texts and words as sent, and the store's check of an entry.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from referee_tables import LEA, MIRA, TOM, move, pz_table, pz_test, table
from tablee import referee, referee_words, store
from tablee.errors import RulesError

pytestmark = pytest.mark.usefixtures("every_move_is_its_changes")


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


def test_a_system_move_is_logged_under_its_words_at_once_and_its_result_line_is_the_referees():
    doc = pz_table()
    bare_doc, bare = move(doc, MIRA, pz_test(), seed=31)
    assert _entry(bare_doc, bare)["label"] == ""  # (what the words replace: no title at all)
    after, answer = move(doc, MIRA, {**pz_test(), "label": "Point Zéro : test", "summary": "Réussite (marge +3)"},
                         seed=31)
    entry = _entry(after, answer)
    assert entry["label"] == "Point Zéro : test"
    # (the roll missed by 4: the phone's "Réussite" is not taken)
    assert entry["result"] == {**_entry(bare_doc, bare)["result"], "summary": "Échec (Marge \u22124)"}
    assert entry["request"] == _entry(bare_doc, bare)["request"]
    assert entry["member"] == {"id": MIRA["id"], "name": MIRA["name"]}


def test_words_are_text_capped_and_name_no_one():
    doc, answer = move(table(), TOM, {"op": "roll", "expr": "d6", "label": "MJ\x00 a lancé\n" + "x" * 300,
                                       "summary": "y" * 900}, seed=5)
    entry = _entry(doc, answer)
    assert entry["label"] == ("MJ  a lancé " + "x" * 300)[:200]
    assert "summary" not in entry["result"]  # a roll of dice has no result line, whatever the phone says
    assert entry["who"] == "Tom" and entry["member"]["id"] == TOM["id"]  # the link's, whatever the words say
    blank, answer = move(table(), TOM, {"op": "roll", "expr": "d6", "label": "  "}, seed=5)
    assert _entry(blank, answer)["label"] == "d6"  # empty words: as without


@pytest.mark.parametrize("bad", [{"label": 5}, {"label": None}, {"label": ["x"]}])
def test_words_that_are_not_text_are_refused_and_change_nothing(bad):
    doc = table()
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {"op": "roll", "expr": "2d6", **bad})
    assert info.value.code == "live.refused.invalid"
    assert info.value.params["field"] == next(iter(bad))


def test_a_label_moves_own_label_is_its_field_not_its_words():
    """``live.log.label`` keeps its own ``label`` (the page's words for an entry, known after the
    answer): the move's words are not taken out of it. A result line it carries is not."""
    doc, answer = move(table(), LEA, {"op": "roll", "expr": "3d6", "label": "3d6"}, seed=8)
    after, _ = move(doc, LEA, {"op": "live.log.label", "id": answer["logged"], "label": "Saut du toit",
                               "summary": "Réussi"})
    entry = _entry(after, answer)
    assert entry["label"] == "Saut du toit" and "summary" not in entry["result"]
    assert entry["result"] == _entry(doc, answer)["result"]


def test_move_words_leaves_the_op_request_whole():
    bare, words = referee.move_words({"op": "unicreon.test", "test": {"value": 40}, "label": "Unicreon : test"})
    assert bare == {"op": "unicreon.test", "test": {"value": 40}}
    assert words == {"label": "Unicreon : test"}


#: An English phone's Point Zéro test as its page words it (log-words.js withWords, in English):
#: the move's listed words, then the page's label and result line (live.log.label).
EN_MOVE = {"label": "Point Zéro: skill test", "label_words": [["live.op.pointzero.test.roll"]], "words_lang": "en"}
EN_PAGE = {"label": "3d6 · Tension point", "label_words": ["3d6 · ", ["pointzero.ui.log_tension"]],
           "summary": "Success (Margin +3)",
           "summary_words": [["pointzero.ui.success"], " (", ["pointzero.ui.margin"], " +3)"], "words_lang": "en"}
_WORDS = ("label_words", "summary_words", "words_lang")


def test_a_moves_words_join_its_entry_and_change_nothing_else():
    doc = pz_table()
    bare_doc, bare = move(doc, MIRA, {**pz_test(), "label": EN_MOVE["label"]}, seed=31)
    after, answer = move(doc, MIRA, {**pz_test(), **EN_MOVE, "summary": EN_PAGE["summary"],
                                     "summary_words": EN_PAGE["summary_words"]}, seed=31)
    assert answer == bare  # the op ran without them
    entry, plain = _entry(after, answer), _entry(bare_doc, bare)
    assert entry["label_words"] == EN_MOVE["label_words"] and entry["words_lang"] == "en"
    # the result line is the referee's (the roll missed by 4), said in the label's language
    assert entry["summary_words"] == [["pointzero.ui.failure"], " (", ["pointzero.ui.margin"], " \u22124)"]
    assert entry["result"]["summary"] == "Failure (Margin \u22124)"
    assert {k: v for k, v in entry.items() if k not in _WORDS and k != "result"} == {
        k: v for k, v in plain.items() if k not in _WORDS and k != "result"}
    assert entry["result"] == {**plain["result"], "summary": "Failure (Margin \u22124)"}
    assert not any(k in entry["request"] for k in _WORDS)  # never an input of the op
    assert store.record_ok("entry", entry)
    # A phone of an older build sends no words: its label has none, its result line is French.
    assert "label_words" not in plain and plain["words_lang"] == "fr"


def test_the_pages_words_name_the_entry_the_referee_logged():
    doc, answer = move(pz_table(), MIRA, {**pz_test(), **EN_MOVE}, seed=31)
    referees = _entry(doc, answer)
    after, _ = move(doc, MIRA, {"op": "live.log.label", "id": answer["logged"], **EN_PAGE})
    entry = _entry(after, answer)
    # the label is the page's; the result line stays the referee's (the page's "Success" is not taken)
    assert (entry["label"], entry["result"]["summary"]) == (EN_PAGE["label"], "Failure (Margin \u22124)")
    assert entry["label_words"] == EN_PAGE["label_words"] and entry["words_lang"] == "en"
    assert entry["summary_words"] == referees["summary_words"] and entry["result"] == referees["result"]
    # A label given again without words: the words of the one it replaced go (they would say it).
    again, _ = move(after, MIRA, {"op": "live.log.label", "id": answer["logged"], "label": "Saut du toit"})
    entry = _entry(again, answer)
    assert "label_words" not in entry and entry["summary_words"] == referees["summary_words"]
    # Label words in another language than the result line's are not kept (one language an entry).
    french = {"label": "3d6 · point de Tension", "label_words": ["3d6 · ", ["pointzero.ui.log_tension"]],
              "words_lang": "fr"}
    last, _ = move(again, MIRA, {"op": "live.log.label", "id": answer["logged"], **french})
    entry = _entry(last, answer)
    assert entry["label"] == french["label"] and "label_words" not in entry and entry["words_lang"] == "en"
    assert entry["summary_words"] == referees["summary_words"] and entry["result"] == referees["result"]


MALFORMED = {
    "not_a_list": {"label_words": "Tension point"},
    "too_many": {"label_words": ["a"] * 25},
    "long_text": {"label_words": ["a" * 201]},
    "key_type": {"label_words": [[12]]},
    "three_parts": {"label_words": [["k", {}, "x"]]},
    "param_type": {"label_words": [["pointzero.ui.margin", {"n": 3}]]},
    "too_deep": {"label_words": [["k", {"a": [["k2", {"b": [["k3", {"c": [["k4"]]}]]}]]}]]},
    "too_large": {"label_words": [["k", {f"p{i}": "x" * 190 for i in range(8)}]] * 2},
    "lang": {"label_words": [["pointzero.ui.log_tension"]], "words_lang": "de"},
    "lang_type": {"words_lang": ["en"]},
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
@pytest.mark.parametrize("op", ["move", "label"])
def test_malformed_words_are_refused_naming_their_key_and_change_nothing(case, op):
    """The store's own check of an entry's words (store_records.words_problem): a phone whose
    words a table would refuse is told which, and nothing is logged."""
    bad = MALFORMED[case]
    doc, answer = move(pz_table(), MIRA, {**pz_test(), **EN_MOVE}, seed=31)
    texts = {"label": "3d6 · Tension point", "summary": "Success (Margin +3)", "words_lang": "en"}
    request = ({**pz_test(), **texts, **bad} if op == "move"
               else {"op": "live.log.label", "id": answer["logged"], **texts, **bad})
    with pytest.raises(RulesError) as info:
        move(doc, MIRA, request, seed=32)
    assert info.value.code == "live.refused.invalid"
    assert info.value.params["field"] == ("words_lang" if case == "lang" else next(iter(bad)))
    assert info.value.params["problems"][0]["field"].split(".")[0] == info.value.params["field"]
    # The same words in a table's entry: the store refuses them too (one check of them).
    assert not store.record_ok("entry", {**_entry(doc, answer), **texts, **bad, "label": texts["label"]})


def test_words_without_their_text_or_their_language_are_not_kept():
    doc = pz_table()
    cases = [
        {"label_words": [["pointzero.ui.log_tension"]], "words_lang": "en"},  # no label to say
        {"label": "Tension point", "label_words": [["pointzero.ui.log_tension"]]},  # no language: never read
        {"label": "Tension point", "words_lang": "en"},  # a language and no words
        {"label": "  ", "label_words": [["pointzero.ui.log_tension"]], "words_lang": "en"},  # blank text
        {"summary_words": [["pointzero.ui.success"]], "words_lang": "en", "label": "x"},  # no result line
    ]
    for carried in cases:
        after, answer = move(doc, MIRA, {**pz_test(), **carried}, seed=31)
        entry = _entry(after, answer)
        assert "label_words" not in entry, carried
        # (the referee's own result line, in French: none of the phone's)
        assert entry["words_lang"] == "fr" and entry["summary_words"][0] == ["pointzero.ui.failure"], carried


def test_words_never_sign_the_entry():
    """Words saying "MJ" (or naming another player) reword the label only: the entry's signer
    is the link's member and its acting character, as without them."""
    carried = {"label": "MJ", "label_words": ["MJ"], "summary": "Tom", "summary_words": [["pointzero.ui.success"]],
               "words_lang": "fr"}
    plain_doc, plain = move(table(), TOM, {"op": "roll", "expr": "d6"}, seed=5)
    doc, answer = move(table(), TOM, {"op": "roll", "expr": "d6", **carried}, seed=5)
    entry, bare = _entry(doc, answer), _entry(plain_doc, plain)
    assert (entry["who"], entry["member"]) == (bare["who"], bare["member"]) == ("Tom", {"id": "m-tom", "name": "Tom"})
    assert entry["label_words"] == ["MJ"] and not any(k in entry for k in ("who_words", "member_words"))


def test_a_versality_tests_words_are_its_resolutions():
    """A Versality test is one entry (the draw's, joined by its resolution): its label and result
    line are the resolution's when it carries them, and so are their words."""
    from api_calls import versality_character
    from referee_tables import ok

    c = ok({"op": "versality.character.finish",
            "character": {**versality_character(improvement_points=9), "id": "ana"}})["character"]
    doc = table()
    doc["characters"].append(c)
    doc["systems"]["versality"] = ok({"op": "versality.state.new"})["state"]
    ana = {"id": "m-ana", "name": "Ana", "characters": ["ana"]}
    doc, _ = move(doc, ana, {"op": "versality.deck.build", "character": {"id": "ana"}}, seed=5)
    asked = {"characteristic": "mental", "skill": "traquer", "difficulty": "epique"}
    drawn_words = {"label": "Versality: draw", "label_words": ["Versality: draw"], "summary": "Draw",
                   "summary_words": ["Draw"], "words_lang": "en"}
    doc, drawn = move(doc, ana, {"op": "versality.test.draw", "character": {"id": "ana"}, **asked, **drawn_words},
                      seed=6)
    assert "summary_words" not in _entry(doc, drawn)  # a draw's outcome line is never the phone's
    pending = doc["systems"]["versality"]["pending"]["ana"]
    choice = {"choice": drawn["test"]["drawn"][0]["id"]} if pending["rule"] == "choose" else {}
    label = "Mental + Traquer · Épique"
    words = ["Mental + ", ["versality.skill.traquer"], " · ", ["versality.difficulty.epique"]]
    doc, resolved = move(doc, ana, {"op": "versality.test.resolve", "character_id": "ana", **choice, "label": label,
                                    "label_words": words, "words_lang": "fr"}, seed=7)
    entry = _entry(doc, resolved)
    assert entry["id"] == drawn["logged"] and entry["label"] == label
    assert (entry["label_words"], entry["words_lang"]) == (words, "fr")
    # the result line is the referee's, from the resolution: its outcome and the card played
    final, kind = resolved["result"]["final"], resolved["result"]["played"]["kind"]
    assert entry["summary_words"][:3] == [[f"versality.outcome.{final}"], " — ",
                                          ["versality.ui.played_card", {"card": [[f"versality.outcome.{kind}"]]}]]
    assert entry["result"]["summary"].startswith(f"{referee_words.TEXTS['fr'][f'versality.outcome.{final}']} — ")
