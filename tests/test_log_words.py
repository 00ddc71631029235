"""A log entry reads in the reader's language, whatever the language of the device that logged it.

The pages word an entry's label and result line from the catalogues in their own language; the
entry keeps how (``label_words``, ``summary_words``, ``words_lang``: static/js/views/log-words.js,
stored by app.addLog) and the log page, the home page and the live feed say it again in the
page's language. tests/js/log_words.mjs makes the common entries of the five systems as their
pages do (tests, draws, oppositions, a dice-tray roll, a note), logs them in French and in
English, and reads them back in both; the store (py/tablee/store.py) and the page's guard
(static/js/guard.js) accept the words and refuse them out of bounds.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from node_harness import NODE
from tablee import store
from tablee.errors import RulesError

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests/js/log_words.mjs"

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def run(*args: str, stdin: str = "") -> dict:
    done = subprocess.run(
        [NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(SCRIPT), *args],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120, check=True,
    )
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def read() -> dict:
    return run()


#: case -> (label on a French page, label on an English page, result line fr, result line en)
EXPECTED = {
    "systmj_test": ("Cuisine (45 → 40)", "Cuisine (cook) (45 → 40)", "", ""),
    "systmj_exchange": ("Attaque contre Bruno", "Attack on Bruno", "", ""),
    "versality_test": ("Personnalité + Combattre · Facile (−1)", "Personality + Fight · Easy (−1)", "", ""),
    "versality_draw": ("Cartes piochées (3)", "Cards drawn (3)", "", ""),
    "pointzero_test": ("3d6 · point de Tension", "3d6 · Tension point", "Réussite (Marge +3)", "Success (Margin +3)"),
    "theorem_draw": ("3 arcanes piochés.", "3 arcana drawn.", "", ""),
    "theorem_opposition": ("Opposition\u00a0: Alice contre Bruno", "Opposition: Alice against Bruno", "", ""),
    "unicreon_opposition": ("Opposition contre Bruno", "Opposition against Bruno", "", ""),
    "unicreon_test": ("Très difficile · bonus ×10", "Very hard · bonus ×10", "", ""),
    # A value that is catalogue text itself is reworded too (one level down).
    "systmj_learning": ("Apprentissage\u00a0: Cuisine", "Learning: Cuisine (cook)", "", ""),
    "undo_sheet": ("Annulé\u00a0: Fiche modifiée\u00a0: Ana", "Undone: Sheet changed: Ana", "", ""),
    "theorem_action": ("Tirage\u00a0: Valet d'épée — Humanité + Escrime · exploit +2",
                       "Draw: Jack of swords — Humanité + Escrime · exploit +2", "", ""),
    # Names stay as written, even one shaped like a card ("Pierre de Lune") or named like one.
    "theorem_named": ("Opposition\u00a0: Pierre de Lune contre Valet",
                      "Opposition: Pierre de Lune against Valet", "", ""),
    # Result lines: sentences one after another, figures in brackets, parts joined with " — ".
    "pointzero_opposition": ("3d6", "3d6", "Alice l'emporte (11 / 7)", "Alice wins (11 / 7)"),
    "unicreon_day": ("2d6", "2d6", "Journée d'aventure\u00a0: 3 PV perdus (9 PV). Réussite (Seuil +5)",
                     "Adventure day: 3 PV lost (9 PV). Success (Target +5)"),
    "versality_result": ("3d6", "3d6", "Oui, mais… — Carte jouée\u00a0: Oui", "Oui, mais… — Card played: Oui"),
    "undo_name": ("Rétabli\u00a0: Nom de la table modifié", "Redone: Table name changed", "", ""),
    # No catalogue text in them: shown as written, in every language.
    "roll": ("3d6+2", "3d6+2", "", ""),
    "note": ("Alice ouvre la porte", "Alice ouvre la porte", "", ""),
    # A player's words that happen to hold a short catalogue word ("Annuler", "Mental"):
    # the system's "Mental" is found as a word, « Annuler »'s are never looked for in a text.
    "note_words": ("Annuler la fête de Mental", "Annuler la fête de Mental", "", ""),
}


@pytest.mark.parametrize("logged_in", ["fr", "en"])
@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_an_entry_reads_in_the_readers_language(read, case, logged_in):
    fr_label, en_label, fr_summary, en_summary = EXPECTED[case]
    got = read[f"{logged_in}:{case}"]
    stored = got["stored"]
    assert stored["label"] == (fr_label if logged_in == "fr" else en_label)  # written as the page said it
    assert got["read"]["fr"]["label"] == fr_label
    assert got["read"]["en"]["label"] == en_label
    assert got["read"]["fr"]["summary"] == fr_summary
    assert got["read"]["en"]["summary"] == en_summary
    if case in ("roll", "note", "note_words"):
        assert "label_words" not in stored and "words_lang" not in stored
    elif fr_summary:
        assert stored["summary_words"] and stored["words_lang"] == logged_in
    else:
        assert stored["words_lang"] == logged_in


def test_an_older_french_entry_reads_in_english(read):
    """An entry logged before the words were kept (its label alone) is read as French on an
    English page; an English one is left as written."""
    assert read["fr:versality_test"]["read"]["en"]["bare"] == "Personality + Fight · Easy (−1)"
    assert read["fr:unicreon_opposition"]["read"]["en"]["bare"] == "Opposition against Bruno"
    assert read["en:systmj_test"]["read"]["en"]["bare"] == "Cuisine (cook) (45 → 40)"


def test_words_that_no_longer_say_the_line_are_not_used(read):
    """Point Zéro's choice of dice re-words a logged result line: the words kept for the first
    line ("Failure (Margin -2)") must not bring it back on a French page."""
    assert read["stale"]["words"] == [["pointzero.ui.failure"], " (", ["pointzero.ui.margin"], " -2)"]
    assert read["stale"]["fr"] == "Success (Margin +1)"


def table(log):
    return {**store.new_document("T", "fr"), "log": log}


def test_the_store_keeps_the_words(read):
    entries = [{"id": f"e{i}", "at": "2026-11-28T10:00:00.000Z", "request": {}, **v["stored"]}
               for i, v in enumerate(x for k, x in read.items() if k != "stale")]
    loaded, migrated = store.load_document(table(entries))
    assert migrated is None
    assert [e.get("label_words") for e in loaded["log"]] == [e.get("label_words") for e in entries]
    pointzero = next(e for e in loaded["log"] if e["kind"] == "pointzero.test")
    assert pointzero["summary_words"] == [["pointzero.ui.success"], " (", ["pointzero.ui.margin"], " +3)"]


BASE = {"id": "x", "at": "2026-11-28T10:00:00.000Z", "kind": "roll", "system": None, "label": "Attaque",
        "request": {}, "result": {}}


@pytest.mark.parametrize(("extra", "path", "reason"), [
    ({"label_words": ["a"] * 25}, "log.0.label_words", "too_many"),
    ({"label_words": ["a" * 201]}, "log.0.label_words.0", "too_long"),
    ({"label_words": [[12]]}, "log.0.label_words.0.0", "type"),
    ({"summary_words": [["k", {"n": 3}]]}, "log.0.summary_words.0.1.n", "type"),
    ({"label_words": [["k", {}, {}]]}, "log.0.label_words.0", "too_many"),
    ({"label_words": [["k"]], "words_lang": "de"}, "log.0.words_lang", "enum"),
    # a value's own words, two levels down at most
    ({"label_words": [["k", {"a": [["k2", {"b": [["k3", {"c": [["k4"]]}]]}]]}]]},
     "log.0.label_words.0.1.a.0.1.b.0.1.c", "type"),
    ({"label_words": [["k", {str(i): "x" * 199 for i in range(8)}]] * 2}, "log.0.label_words", "too_long"),
])
def test_the_store_refuses_words_out_of_bounds(extra, path, reason):
    with pytest.raises(RulesError) as info:
        store.load_document(table([{**BASE, **extra}]))
    assert info.value.params["path"] == path and info.value.params["reason"] == reason


def test_the_page_guard_accepts_the_words_and_refuses_them_out_of_bounds():
    got = run("guard", stdin=json.dumps(store.limits_live()))
    answers = got["answers"]
    assert answers["logged"] is None
    assert answers["too_many"] == {"path": "log.0.label_words", "reason": "too_many", "params": {"max": 24}}
    assert answers["long_text"] == {"path": "log.0.label_words.0", "reason": "too_long", "params": {"max": 200}}
    assert answers["key_type"]["path"] == "log.0.label_words.0.0" and answers["key_type"]["reason"] == "type"
    assert answers["params_type"]["path"] == "log.0.label_words.0.1.n"
    assert answers["lang"]["path"] == "log.0.words_lang" and answers["lang"]["reason"] == "enum"
    assert answers["nested_ok"] is None
    assert answers["too_deep"]["path"] == "log.0.label_words.0.1.a.0.1.b.0.1.c"
    assert answers["too_deep"]["reason"] == "type"


#: The keys a page words its log entry's label with, read from the pages themselves (a `label:`
#: given to addLog or logDraw), so a new page's entry is covered the day it lands.
LOGGED = re.compile(r'(?:addLog|logDraw)\(.*?label: tn?\("([a-z_.]+)"')


def logged_label_keys() -> list[str]:
    keys = set()
    for path in (ROOT / "static/js/systems").rglob("*.js"):
        keys.update(LOGGED.findall(path.read_text(encoding="utf-8")))
    return sorted(keys)


def test_every_label_a_page_logs_from_one_key_reads_in_the_other_language():
    keys = logged_label_keys()
    assert {"systmj.combat.log", "theorem.ui.opposition_log", "unicreon.ui.opposition_vs",
            "versality.ui.heal_log", "theorem.ui.hand_drawn"} <= set(keys), keys
    params = {"name": "Alice", "a": "Alice", "b": "Bruno", "d": "Bruno", "target": "Bruno", "skill": "Escrime",
              "n": 3, "count": 3, "session": 2}
    rows = run("keys", stdin=json.dumps([[k, params] for k in keys]))
    wrong = [r for r in rows if r["read"] != r["want"]]
    assert not wrong, wrong
    # Each was found as a key (not kept as written): read across languages it changed words.
    across = {r["key"] for r in rows if r["from"] != r["to"] and r["words"]}
    assert across == set(keys), set(keys) - across
