"""A phone's move names what it is for, never how it came out: the result line of the entry the
referee logs is made from the referee's own run (py/tablee/referee_words.py), the words the
system's page makes for the same answer on one device.

Oracle: the page's verdict for the answer of the same op run with the referee's seed on one
device (pointzero/test.js logResult, systmj/test.js verdict, unicreon/test.js roll), said from
the catalogues (static/i18n) as i18n.js fill says them.
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
    catalogue_of,
    french_spaced,
    move,
    ok,
    pz_table,
    pz_test,
    systmj_table,
    table,
)
from tablee import referee_words
from tablee.api import handle

pytestmark = pytest.mark.usefixtures("every_move_is_its_changes")

FORGED = {"summary": "Réussite critique", "summary_words": [["systmj.outcome.critical_success"]]}


def _entry(doc, answer):
    return next(e for e in doc["log"] if e["id"] == answer["logged"])


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_referees_texts_are_the_catalogues(lang):
    catalogue = catalogue_of(lang)
    for key, text in referee_words.TEXTS[lang].items():
        assert catalogue.get(key) == text, key
        assert "|" not in text  # (no plural form: the referee fills names only)


def _page(words, lang):
    """The page's text for words: each key said by the catalogue, as i18n.js t does."""
    catalogue = catalogue_of(lang)
    said = "".join(s if isinstance(s, str) else catalogue[s[0]] for s in words)
    return french_spaced(said) if lang == "fr" else said


def test_a_forged_result_line_on_a_roll_is_not_kept_and_a_roll_has_none():
    """« Jet de Force … 58 … Réussite critique »: the phone's line and words are not kept, and a
    plain roll of dice has no outcome words at all."""
    doc, answer = move(table(), LEA, {"op": "roll", "expr": "1d100", "label": "Jet de Force", **FORGED,
                                      "words_lang": "fr"}, seed=58)
    entry = _entry(doc, answer)
    assert entry["label"] == "Jet de Force"
    assert "summary" not in entry["result"] and "summary_words" not in entry
    assert set(entry["result"]) == {"total", "terms"}


def test_a_relabel_after_seeing_the_dice_changes_the_label_only():
    doc, answer = move(pz_table(), MIRA, pz_test(), seed=31)
    logged = _entry(doc, answer)
    after, _ = move(doc, MIRA, {"op": "live.log.label", "id": answer["logged"], "label": "Jet de Force", **FORGED})
    entry = _entry(after, answer)
    assert entry["label"] == "Jet de Force"
    assert entry["result"] == logged["result"] and entry["summary_words"] == logged["summary_words"]
    assert entry["result"]["summary"] == "Échec (Marge \u22124)"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_point_zero_tests_line_is_the_pages_for_the_referees_roll(lang):
    carried = {"label": "x", "label_words": [["pointzero.ui.log_tension"]], "words_lang": lang}
    doc, answer = move(pz_table(), MIRA, {**pz_test(), **carried, **FORGED}, seed=31)
    entry = _entry(doc, answer)
    local = ok(entry["request"])["result"]  # the page's own request, run on one device
    verdict = ("pointzero.ui.critical_success" if local["critical"] == "success" else "pointzero.ui.critical_failure"
               if local["critical"] == "failure" else "pointzero.ui.success" if local["success"]
               else "pointzero.ui.failure")
    margin = f"+{local['margin']}" if local["margin"] > 0 else f"\u2212{-local['margin']}" if local["margin"] else "0"
    words = [[verdict], " (", ["pointzero.ui.margin"], f" {margin})"]
    assert entry["summary_words"] == words and entry["words_lang"] == lang
    assert entry["result"]["summary"] == _page(words, lang)


@pytest.mark.parametrize("seed", [3, 77, 1234, 99991])
def test_a_systmj_tests_line_is_its_outcome_and_degree(seed):
    doc = systmj_table()
    ana = {"id": "m-ana", "name": "Ana", "characters": ["s1"]}
    after, answer = move(doc, ana, {"op": "systmj.test", "score": 45, "modifiers": MODS, **FORGED}, seed=seed)
    entry = _entry(after, answer)
    local = ok({"op": "systmj.test", "score": 45, "modifiers": MODS, "seed": seed})
    words = ([["systmj.outcome.success"], " — ", [f"systmj.degree_success.{local['degree']}"]]
             if local["outcome"] == "success" else [[f"systmj.outcome.{local['outcome']}"]])
    assert entry["summary_words"] == words
    assert entry["result"]["summary"] == _page(words, "fr")


@pytest.mark.parametrize("seed", [13, 14, 15, 16])
def test_a_unicreon_tests_line_is_its_band_and_target(seed):
    uc = ok({"op": "unicreon.character.new", "id": "u1", "name": "Solène"})["character"]
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [uc]
    sol = {"id": "m-sol", "name": "Léa", "characters": ["u1"]}
    test = {"characteristic": "agilite", "difficulty": "facile", "bonus": 0, "malus": 0}
    after, answer = move(doc, sol, {"op": "unicreon.test", "test": test, "character": {"id": "u1"}, **FORGED},
                         seed=seed)
    local = ok({"op": "unicreon.test", "test": test, "character": uc, "seed": seed})
    verdict = ([["unicreon.ui.success"], " — ", [f"unicreon.band.{local['band']}"]] if local["success"]
               else [["unicreon.ui.failure"]])
    target = f"\u2212{-local['target']}" if local["target"] < 0 else str(local["target"])
    words = [*verdict, " (", ["unicreon.ui.target"], f" {target})"]
    entry = _entry(after, answer)
    assert entry["summary_words"] == words
    assert entry["result"]["summary"] == _page(words, "fr")


def test_an_op_without_outcome_words_has_no_result_line():
    """A Théorem arcane's line is its page's effect text, which the referee does not word yet: none."""
    doc, answer = move(table(), LEA, {"op": "roll", "expr": "2d6", **FORGED}, seed=4)
    assert "summary" not in _entry(doc, answer)["result"]
    answer = ok({"op": "live.outcome_words", "name": "theorem.arcane.play", "answer": {"result": {}}})
    assert answer["summary"] is None and answer["known"] is False
    assert ok({"op": "live.outcome_words", "name": "roll", "answer": {"total": 3}})["known"] is True


def test_the_outcome_words_op_gives_the_replays_words():
    """What « Vérifier / rejouer » compares an entry's result line with: the same words."""
    doc, answer = move(pz_table(), MIRA, pz_test(), seed=31)
    entry = _entry(doc, answer)
    replay = ok(entry["request"])
    said = ok({"op": "live.outcome_words", "name": entry["request"]["op"], "request": entry["request"],
               "answer": replay, "lang": "fr"})
    assert (said["summary"], said["words"]) == (entry["result"]["summary"], entry["summary_words"])


def _verify(entries):
    """What « Vérifier / rejouer » says of each entry (verify.js run by Node), the engine's
    answers made here: the replay of its request, and the words of that replay."""
    cases = []
    for entry in entries:
        replay = handle(entry["request"])
        said = handle({"op": "live.outcome_words", "name": entry["request"]["op"], "request": entry["request"],
                       "answer": replay, "lang": entry.get("words_lang", "fr")})
        cases.append({"entry": entry, "answers": {entry["request"]["op"]: replay, "live.outcome_words": said}})
    page = subprocess.run([NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/verify_line.mjs"],
                          cwd=ROOT, input=json.dumps(cases), capture_output=True, text=True, timeout=60, check=True)
    return json.loads(page.stdout)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_verify_says_when_a_result_line_does_not_follow_from_its_replay():
    """The dice replay the same, the line was written by someone: said so, for an entry of the
    referee's made over (an older entry logged with a phone's line) and for a roll of dice."""
    doc, answer = move(pz_table(), MIRA, pz_test(), seed=31)
    honest = _entry(doc, answer)
    doc, answer = move(table(), LEA, {"op": "roll", "expr": "1d100", "label": "Jet de Force"}, seed=58)
    roll = _entry(doc, answer)
    forged_roll = {**roll, "result": {**roll["result"], "summary": "Réussite critique"},
                   "summary_words": [["systmj.outcome.critical_success"]], "words_lang": "fr"}
    forged_words = {**honest, "summary_words": [["pointzero.ui.critical_success"], " (", ["pointzero.ui.margin"],
                                                " \u22124)"]}
    forged_text = {**honest, "result": {**honest["result"], "summary": "Réussite critique (Marge +9)"}}
    forged_text.pop("summary_words")
    english = {**honest, "words_lang": "en", "label_words": [["pointzero.ui.log_tension"]],
               "result": {**honest["result"], "summary": "Failure (Margin \u22124)"}}
    assert _verify([honest, roll, english, forged_roll, forged_words, forged_text]) == [
        "same", "same", "same", "words", "words", "words"]


def _page_words(cases):
    """The words a page stores for each text it logged (log-words.js wordsOf, what app.addLog
    keeps: the page reads its own line back into words), run by Node."""
    page = subprocess.run([NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/words_roundtrip.mjs"],
                          cwd=ROOT, input=json.dumps(cases), capture_output=True, text=True, timeout=60, check=True)
    return json.loads(page.stdout)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_pages_own_unicreon_lines_verify_as_the_same_for_every_band_and_an_unnamed_side():
    """An MJ's own Unicreon test (unicreon/test.js ``roll``: « Réussite — Bof. C'est passé de
    justesse (cible 24) ») logged with the words the page reads back from it, then « Vérifier /
    rejouer »: the same, whichever band came out. A band's text holds two sentences; the page
    once cut it in two and left it as text, and the replay then said the line did not follow
    from its dice (the test page's journey failed whenever its roll succeeded)."""
    from tablee.referee_log import digest

    keys = ["dice", "raw", "real", "target", "success", "band"]
    entries, bands = [], set()
    for seed in range(80):
        value = 10 if seed % 2 else 40
        request = {"op": "unicreon.test", "test": {"value": value, "difficulty": "moyen"}, "seed": seed}
        answer = handle(request)
        if (answer["band"], answer["success"]) in bands:
            continue
        bands.add((answer["band"], answer["success"]))
        for lang in ("fr", "en"):
            text, said, _ = referee_words.outcome("unicreon.test", request, answer, lang)
            [words] = _page_words([{"words": said, "lang": lang, "system": "unicreon"}])
            entries.append({"id": f"e{seed}{lang}", "kind": "unicreon.test", "system": "unicreon", "label": "Volonté",
                            "request": request, "summary_words": words, "words_lang": lang,
                            "result": {"total": answer["raw"], "summary": text,
                                       "verify": {"keys": keys, "digest": digest(answer, keys)}}})
    assert {band for band, success in bands if success} == {"bof", "bien", "top"} and (None, False) in bands
    # A page may leave a name as text where the referee keys it (« Adversaire l'emporte »: the
    # unnamed side): the same line, read as written in every language, never another outcome.
    request = next(r for r in ({"op": "unicreon.opposition", "a": {"value": 30}, "b": {"value": 40}, "seed": seed}
                               for seed in range(40)) if handle(r)["winner"] == "b")
    answer = handle(request)
    text, said, _ = referee_words.outcome("unicreon.opposition", request, answer, "fr")
    [words] = _page_words([{"words": said, "lang": "fr", "system": "unicreon"}])
    assert words != said and words[0] == ["unicreon.ui.wins", {"name": "Adversaire"}]
    entries.append({"id": "opp", "kind": "unicreon.opposition", "system": "unicreon", "label": "Opposition",
                    "request": request, "summary_words": words, "words_lang": "fr",
                    "result": {"summary": text, "verify": {"keys": ["winner"], "digest": digest(answer, ["winner"])}}})
    assert _verify(entries) == ["same"] * len(entries)


def test_a_systmj_learning_rolls_line_is_the_pages():
    from referee_tables import sj_learning_table

    ana = {"id": "m-ana", "name": "Ana", "characters": ["s1"]}
    asked = {"op": "systmj.learning.roll", "subject": {"character": "s1", "target": "skill", "key": "lire_ecrire"}}
    after, answer = move(sj_learning_table(), ana, {**asked, **FORGED}, seed=21)
    entry = _entry(after, answer)
    catalogue = catalogue_of("fr")
    page = french_spaced(catalogue["systmj.ui.learning_summary"]).format(
        quality=catalogue[f"systmj.quality.{answer['quality']}"], points=answer["gained"], before=answer["before"],
        after=answer["after"])
    assert entry["result"]["summary"] == page
    assert entry["summary_words"] == [["systmj.ui.learning_summary", {
        "quality": [[f"systmj.quality.{answer['quality']}"]], "points": str(answer["gained"]),
        "before": str(answer["before"]), "after": str(answer["after"])}]]


def test_a_theorem_actions_line_is_its_value_score_and_level():
    from referee_tables import theorem_drawing

    doc = theorem_drawing()
    after, answer = move(doc, LEA, {"op": "theorem.action.draw", "character": {"id": "josh"}, **FORGED}, seed=5)
    res = answer["result"]
    assert res["done"] is True  # (a number card: the action is over)
    entry = _entry(after, answer)
    catalogue = catalogue_of("fr")
    page = french_spaced(catalogue["theorem.ui.log_result"]).format(
        value=res["value"], score=res["score"], level=catalogue[f"theorem.level.{res['level']}"])
    assert entry["result"]["summary"] == page
    assert entry["summary_words"] == [["theorem.ui.log_result", {
        "value": str(res["value"]), "score": str(res["score"]), "level": [[f"theorem.level.{res['level']}"]]}]]


@pytest.mark.parametrize(("lang", "n", "text"), [("fr", 0, "(0 carte)"), ("fr", 1, "(1 carte)"),
                                                 ("fr", 3, "(3 cartes)"), ("en", 1, "(1 card)"),
                                                 ("en", 0, "(0 cards)")])
def test_a_count_is_said_in_its_languages_plural(lang, n, text):
    assert text in referee_words.say([["theorem.ui.reshuffled_one", {"n": str(n)}]], lang)
