"""A phone's move is logged in words every device reads in its own language.

At a live table the MJ's device logs a phone's move (py/tablee/referee.py); the phone words its
label and result line in its own language, and sends with them how it worded them
(static/js/live/member.js, views/log-words.js ``withWords``), so the entry reads French on the
French MJ's log and feed (``labelOf``, ``summaryOf``) although an English phone made it.
Run across the real pieces: the phone's member.js in Node (tests/live/words_harness.mjs), the
referee in Python, the entry read back in Node.

Oracle: what a French page says for the same keys (i18n ``t``), and the entry as written when
its words do not say its text.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from node_harness import NODE, ROOT, NodeHarness
from referee_tables import LEA, MIRA, move, pz_table, pz_test, table

pytestmark = [
    pytest.mark.skipif(NODE is None, reason="node is not installed"),
    pytest.mark.usefixtures("every_move_is_its_changes"),
]


@pytest.fixture(scope="module")
def harness():
    h = NodeHarness(ROOT / "tests" / "live" / "words_harness.mjs")
    yield h
    h.close()


def _entry(doc, answer):
    return next(e for e in doc["log"] if e["id"] == answer["logged"])


#: The Point Zéro test page's label and result line (pointzero/test.js), as parts said by t.
PAGE = {"label": ["3d6 · ", ["pointzero.ui.log_tension"]],
        "summary": [["pointzero.ui.success"], " (", ["pointzero.ui.margin"], " +3)"]}


def test_an_english_phones_test_reads_french_on_the_french_mjs_log(harness):
    sent = harness("move", lang="en", request=pz_test())
    assert sent["label"] == "Point Zéro: skill test" and sent["words_lang"] == "en"
    doc, answer = move(pz_table(), MIRA, sent, seed=31)
    entry = _entry(doc, answer)
    # Logged at once under the phone's English words: read French by the MJ, English by the phone.
    french = harness("said", lang="fr", parts=[["live.op.pointzero.test.roll"]])
    assert french == "Point Zéro\u00a0: test de compétence"
    assert harness("read", lang="fr", entry=entry)["label"] == french
    assert harness("read", lang="en", entry=entry)["label"] == "Point Zéro: skill test"
    # The result line is the referee's, made from its own roll (Mira missed by 4), in the
    # language of the phone's words: read French by the MJ, English by the phone.
    assert entry["result"]["summary"] == "Failure (Margin \u22124)"
    assert harness("read", lang="fr", entry=entry)["summary"] == "Échec (Marge \u22124)"
    # Then the page's own label, in English, names the entry (live.log.label); the page's result
    # line (its "Success", whatever it says) is not sent.
    named = harness("label", lang="en", logged=answer["logged"], carried=sent["label"],
                    entry={"kind": "pointzero.test", "system": "pointzero", "request": {"op": "pointzero.test.roll"},
                           **PAGE})
    assert named["op"] == "live.log.label" and named["label"] == "3d6 · Tension point"
    assert not any(k in named for k in ("summary", "summary_words"))
    doc, _ = move(doc, MIRA, named)
    entry = _entry(doc, answer)
    assert entry["label"] == "3d6 · Tension point" and entry["result"]["summary"] == "Failure (Margin \u22124)"
    french = harness("read", lang="fr", entry=entry)
    assert french["label"] == harness("said", lang="fr", parts=PAGE["label"]) == "3d6 · point de Tension"
    assert french["summary"] == harness("said", lang="fr", parts=[["pointzero.ui.failure"], " (",
                                                                   ["pointzero.ui.margin"], " \u22124)"])
    english = harness("read", lang="en", entry=entry)
    assert (english["label"], english["summary"]) == ("3d6 · Tension point", "Failure (Margin \u22124)")


def test_a_forged_result_line_never_reaches_the_log(harness):
    """A hostile phone's roll carrying « Réussite critique » as its result line and words, then
    a relabel of its own entry with another result line after seeing the dice: the entry keeps
    no result line (a roll of dice has none), every device reads none."""
    forged = {"op": "roll", "expr": "1d100", "label": "Jet de Force", "summary": "Réussite critique",
              "summary_words": [["systmj.outcome.critical_success"]], "words_lang": "fr"}
    doc, answer = move(table(), LEA, forged, seed=58)
    entry = _entry(doc, answer)
    assert entry["label"] == "Jet de Force" and "summary" not in entry["result"] and "summary_words" not in entry
    doc, _ = move(doc, LEA, {"op": "live.log.label", "id": answer["logged"], "label": "Jet de Force",
                             "summary": "Réussite critique", "summary_words": [["systmj.outcome.critical_success"]],
                             "words_lang": "fr"})
    entry = _entry(doc, answer)
    assert "summary" not in entry["result"] and "summary_words" not in entry
    for lang in ("fr", "en"):
        assert harness("read", lang=lang, entry=entry)["summary"] == ""
    # What an honest phone sends for a move never carries a result line either.
    sent = harness("move", lang="fr", request=forged)
    assert not any(k in sent for k in ("summary", "summary_words"))


def test_a_french_phones_move_reads_english_on_an_english_page(harness):
    sent = harness("move", lang="fr", request=pz_test())
    doc, answer = move(pz_table(), MIRA, sent, seed=31)
    assert harness("read", lang="en", entry=_entry(doc, answer))["label"] == "Point Zéro: skill test"


def test_a_dice_rolls_expression_is_no_catalogue_text(harness):
    sent = harness("move", lang="en", request={"op": "roll", "expr": "2d6+1", "seed": 4})
    assert sent["label"] == "2d6+1" and not any(k in sent for k in ("label_words", "summary_words", "words_lang"))
    doc, answer = move(table(), LEA, sent, seed=4)
    assert harness("read", lang="fr", entry=_entry(doc, answer))["label"] == "2d6+1"


def test_words_that_do_not_say_the_label_are_not_read(harness):
    """A phone's words reword its own label only: words that say something else than the text
    they came with (a hostile phone's "MJ a annulé…") are not read, the label is shown as
    written; words that say it read as the catalogue's texts, and the signer stays the link's."""
    sent = {**pz_test(), "label": "Léa lance", "label_words": [["live.op.roll"]], "words_lang": "en"}
    doc, answer = move(pz_table(), MIRA, sent, seed=31)
    entry = _entry(doc, answer)
    assert entry["label_words"] == [["live.op.roll"]]  # kept (well formed), but says another text
    assert harness("read", lang="fr", entry=entry)["label"] == "Léa lance"
    assert entry["who"] == "Mira" and entry["member"] == {"id": MIRA["id"], "name": MIRA["name"]}


def test_the_log_signs_a_phones_entry_with_its_member_whatever_its_words_say(harness):
    """A phone whose character is named "MJ", its words saying "MJ" too: the log shows the
    member the link belongs to after it (views/log.js signerOf), as the referee stamped it."""
    doc = pz_table()
    doc["characters"][0]["name"] = "MJ"
    sent = {**pz_test(), "label": "MJ", "label_words": ["MJ"], "words_lang": "fr"}
    doc, answer = move(doc, MIRA, sent, seed=31)
    entry = _entry(doc, answer)
    assert entry["who"] == "MJ" and entry["member"]["name"] == "Léa"
    assert harness("read", lang="fr", entry=entry)["signer"] == "MJ (Léa)"
    # An entry signed with the member already, or by the member alone, or the MJ's own (no member).
    for who, member, shown in (("Aube (Léa)", {"id": "m", "name": "Léa"}, "Aube (Léa)"),
                               ("Léa", {"id": "m", "name": "Léa"}, "Léa"), ("Mira", None, "Mira")):
        e = {**entry, "who": who, **({"member": member} if member else {})}
        if member is None:
            e.pop("member")
        assert harness("read", lang="fr", entry=e)["signer"] == shown


def test_the_referees_result_line_reads_in_each_language_as_its_words_say(harness):
    """The referee's result line (py/tablee/referee_words.py) is read by log-words.js in the
    reader's language from its words: French as the referee wrote it, English as the English
    catalogue says it, for a line with values of its own words (a learning's quality)."""
    from referee_tables import sj_learning_table
    from tablee import referee_words

    ana = {"id": "m-ana", "name": "Ana", "characters": ["s1"]}
    asked = {"op": "systmj.learning.roll", "subject": {"character": "s1", "target": "skill", "key": "lire_ecrire"}}
    entries = []
    doc, answer = move(sj_learning_table(), ana, asked, seed=21)
    entries.append(_entry(doc, answer))
    doc, answer = move(pz_table(), MIRA, pz_test(), seed=31)
    entries.append(_entry(doc, answer))
    from referee_tables import theorem_drawing

    doc, answer = move(theorem_drawing(), LEA, {"op": "theorem.action.draw", "character": {"id": "josh"}}, seed=5)
    entries.append(_entry(doc, answer))
    entry = {**entries[-1], "summary_words": [*entries[-1]["summary_words"], " · ",
                                              ["theorem.ui.reshuffled_one", {"n": "3"}]]}
    entry["result"] = {**entry["result"], "summary": referee_words.say(entry["summary_words"], "fr")}
    entries.append(entry)  # (with a discard turned over: a count said in each language's plural)
    for entry in entries:
        for lang in ("fr", "en"):
            said = harness("read", lang=lang, entry=entry)["summary"]
            assert said.replace("\u00a0", " ").replace("\u202f", " ") == referee_words.say(
                entry["summary_words"], lang).replace("\u00a0", " ").replace("\u202f", " "), (lang, said)
        assert harness("read", lang="fr", entry=entry)["summary"] == entry["result"]["summary"]
