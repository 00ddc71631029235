"""Every message a person reads is a sentence of the interface language.

tests/js/i18n_render.mjs renders every key of static/i18n, in both languages, through the page's
own i18n layer (static/js/i18n.js: plural forms, inline `{n|one|other}` words, French elision)
with sample parameters (a name where the parameter names a thing, else 1, then 2). Each
rendering is then checked: no "1 points" (a count of one with a plural noun), no raw id (an
unfilled placeholder, a message key, "arcane-03", a snake_case or a system's code name), no
English word in French. The checks are themselves tried on texts that break them, so a check
that cannot fail would show here.
"""

from __future__ import annotations

import json
import re

import pytest

from i18n_words import english, raw_ids, rendered, worded
from node_harness import NODE, ROOT
from tablee.api import handle

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

#: Words ending in "s" that are singular (French "1 fois", English "1 bonus").
SINGULAR_S = {
    "fr": {"fois", "pas", "cas", "sens", "mois", "bras", "corps", "temps", "succès", "progrès", "prix", "avis",
           "accès", "dos", "os", "repos", "choix", "poids", "cours", "discours", "recours", "secours", "plus",
           "moins", "tous", "lors", "vers", "dans", "sous", "sans", "après", "près", "dès", "depuis", "hors",
           "alors", "jamais", "toujours", "puis", "très", "trop", "surplus", "jus", "as", "ans", "ms", "refus"},
    "en": {"is", "was", "has", "this", "bonus", "minus", "plus", "pass", "class", "chess", "less", "across",
           "always", "its", "us", "as", "yes", "does", "gets", "makes", "takes", "needs", "costs", "gives",
           "loses", "says", "shows", "means", "stays", "keeps", "goes", "wins", "rolls", "draws", "plays", "ms",
           "success", "weakness", "begins", "exists", "strikes", "access", "process"},
}
#: "1 points": a count of one (not part of a bigger number, a decimal or a range) then a plural noun.
ONE_THEN_PLURAL = re.compile(r"(?<![\d,.\-−+/×])\b1 (?:[a-zà-ÿ]+ )?([A-Za-zÀ-ÿ]+s)\b")


#: French typography (static/js/i18n.js, frenchSpaced): a space a line may break at, before a
#: high sign or inside « », lets a phone start a line with ":" or "?".
BREAKABLE_BEFORE_SIGN = re.compile(r"[ \t\n][:;?!»%]|«[ \t\n]")


def breakable_signs(text: str) -> list[str]:
    return [m.group(0) for m in BREAKABLE_BEFORE_SIGN.finditer(text)]


def one_plural(text: str, lang: str) -> list[str]:
    return [m.group(0) for m in ONE_THEN_PLURAL.finditer(text) if m.group(1).lower() not in SINGULAR_S[lang]]


@pytest.mark.parametrize(
    ("check", "bad", "good"),
    [
        (lambda s: one_plural(s, "fr"), "Coûte 1 points.", "Coûte 1 point ; 21 points ; 1,5 points."),
        (lambda s: one_plural(s, "en"), "Costs 1 points.", "Costs 1 point; 21 points."),
        (raw_ids, "État de theorem : arcane-03 (error.theorem.char.invalid) {n}", "État de la table Théorem : La Lune"),
        (english, "Fiche invalide : data.test.skill must be integer",
         "Fiche invalide : la compétence doit être un nombre entier"),
        (breakable_signs, "Échec : 21 % ; « Alice » ?",
         "Échec\u00a0: 21\u202f%\u202f; «\u00a0Alice\u00a0»\u202f? À 20:47, stun:stun.example.org:3478"),
    ],
)
def test_the_checks_catch_what_they_look_for(check, bad, good):
    assert check(bad)
    assert not check(good)


def test_the_i18n_layer_writes_french_elision_and_plurals():
    r = rendered()
    # The layer itself, through keys that use it (a plural key asked by its base name is in
    # the i18n unit below; here the rendering of real keys).
    assert r["fr"]["home.count_one"] == ["1 personnage à cette table."]
    assert all(not one_plural(text, "fr") for text in r["fr"]["home.count_other"])


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_message_is_a_sentence_of_its_language(lang):
    problems = {}
    for key, texts in rendered()[lang].items():
        found = []
        for text in texts:
            found += one_plural(text, lang) + raw_ids(text)
            if lang == "fr":
                found += english(text)
        if found:
            problems[key] = sorted(set(found))
    assert not problems, f"{len(problems)} messages: " + json.dumps(problems, ensure_ascii=False, indent=1)


def test_french_never_breaks_a_line_before_a_high_sign_and_english_is_untouched():
    """French puts a space before ":" ";" "?" "!" "%" and inside « »; a plain one let a 360 px phone
    start a line with the sign. Every French message, rendered through the page's layer with
    sample parameters, and the colon helper the templates use, has a no-break one there (the
    layer's convention: U+00A0 before ":" and inside « », U+202F before ";" "?" "!" "%"); English,
    which has no such space, gets none."""
    r = rendered()
    problems = {key: sorted(set(found)) for key, texts in r["fr"].items()
                if (found := [s for text in texts for s in breakable_signs(text)])}
    assert not problems, f"{len(problems)} messages: " + json.dumps(problems, ensure_ascii=False, indent=1)
    assert r["fr"]["colon()"] == ["Escrime\u00a0: 12"]
    assert r["fr"]["engine.ready"][0] == "Moteur de règles\u00a0: prêt"
    assert r["fr"]["quarantine.delete_confirm"][0] == "Supprimer définitivement cet élément\u202f?"
    assert r["en"]["colon()"] == ["Escrime: 12"]
    english_ = json.dumps(r["en"], ensure_ascii=False)
    assert "\u00a0" not in english_ and "\u202f" not in english_


PZ_TEST = {"kind": "skill", "skill": 2, "attribute": 2, "difficulty": "moyen"}
#: Requests the engine's schemas refuse, one per JSON Schema keyword a person can meet, and the
#: French sentence each must read as (the field named by its label).
SCHEMA_CASES = [
    ({"op": "pointzero.test.odds", "test": {**PZ_TEST, "skill": "a"}}, "Compétence\u00a0: un nombre entier"),
    ({"op": "pointzero.test.odds", "test": {**PZ_TEST, "skill": 11}}, "Compétence\u00a0: 10 au plus"),
    ({"op": "pointzero.test.odds", "test": {**PZ_TEST, "skill": -1}}, "Compétence\u00a0: 0 au moins"),
    ({"op": "pointzero.test.odds", "test": {**PZ_TEST, "skill_name": "x" * 61}},
     "Compétence\u00a0: 60 caractères au plus"),
    ({"op": "unicreon.test.odds", "test": {"skill": "expert"}}, "Compétence\u00a0: une des valeurs proposées"),
]


@pytest.mark.parametrize(("request_", "sentence"), SCHEMA_CASES)
def test_schema_errors_are_french_sentences_naming_the_field(request_, sentence):
    error = handle(request_)["error"]
    assert error["code"] == "request.invalid"
    assert "must" in error["params"]["detail"]  # the validator's English is what used to show
    words = worded([error])
    assert sentence in words["fr"][0], words["fr"][0]
    assert not english(words["fr"][0]) and not raw_ids(words["fr"][0]), words["fr"][0]
    assert "Skill: " in words["en"][0] and "data." not in words["en"][0]


def test_french_says_tour_as_the_rule_texts_do_never_round():
    """One word for one thing: SYSTMJ's text plays its phases "par tours" (000, 3.2: « Les phases
    d'Action & Mouvement fonctionnent par tours »), Unicreon's fights go "tour" by "tour", and
    Théorem's chase counts "manches" (003, 3: « Joshua remporte la première manche »). The home
    page said "rounds" where the SYSTMJ pages said "tours": no French text says "round"."""
    found = {}
    for path in sorted((ROOT / "static/i18n/fr").glob("*.json")):
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            words = re.findall(r"\brounds?\b", re.sub(r"\{[^{}]*\}", "", text), re.IGNORECASE)
            if words:
                found[key] = text
    assert not found, found


def test_english_says_gm_never_mj():
    """English said "the MJ" in some places and "the GM" in others: it says "GM" everywhere (the
    French keeps "MJ"; a French term a page names on purpose, "Je suis MJ", is no English text)."""
    found = {}
    for path in sorted((ROOT / "static/i18n/en").glob("*.json")):
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            if re.search(r"\bMJ\b", text):
                found[key] = text
    assert not found, found
    gm = [t for path in (ROOT / "static/i18n/en").glob("*.json")
          for t in json.loads(path.read_text(encoding="utf-8")).values() if re.search(r"\bGM\b", t)]
    assert len(gm) > 50
    assert rendered()["en"]["pointzero.ui.mj_title"][0] == "Point Zéro — GM's screen"

