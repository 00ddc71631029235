"""The result lines that name a side (an opposition, a passe d'armes, a Théorem card drawn) are
the referee's: made from its own run's answer, the sides named from the MJ's records, never from
what the phone sent (py/tablee/referee_words.py). Oracle: the page's line (pointzero/test.js
``oppose``, unicreon/test.js ``oppose``, unicreon/combat.js ``resultLine``, theorem/chase.js
``opposition``, theorem/table.js ``draw``) said from the catalogues (static/i18n)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from referee_tables import LEA, catalogue_of, french_spaced, move, ok, table, uc_fight
from tablee import referee_words

pytestmark = pytest.mark.usefixtures("every_move_is_its_changes")

FORGED = {"summary": "Réussite critique", "summary_words": [["systmj.outcome.critical_success"]]}


def _t(key, lang, **params):
    """i18n.js ``t`` for the keys these lines use (no elision needed by the names below)."""
    text = catalogue_of(lang)[key]
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _fr(text, lang):
    return french_spaced(text) if lang == "fr" else text


def _logged(doc, member, request, seed, lang):
    carried = {"label": "x", "label_words": [["pointzero.ui.log_tension"]], "words_lang": lang}
    after, answer = move(doc, member, {**request, **carried, **FORGED}, seed=seed)
    assert "error" not in answer, answer
    entry = next(e for e in after["log"] if e["id"] == answer["logged"])
    assert "Réussite critique" not in entry["result"]["summary"] and "systmj" not in str(entry["summary_words"])
    return entry, answer


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("seed", [8, 9, 10, 11])
def test_a_theorem_oppositions_line_names_the_records_character_not_the_phones_name(lang, seed):
    a = {"character_id": "josh", "name": "Le Vainqueur", "base": 0, "start": 0, "sphere": "animalite", "skill": None}
    b = {"name": "Garde", "base": 6, "start": 0}
    entry, answer = _logged(table(), LEA, {"op": "theorem.opposition.draw", "a": a, "b": b}, seed, lang)
    res = answer["result"]  # (the referee's run: the state and sheets are the MJ's)
    winner = (_t("theorem.ui.tie", lang) if res["winner"] is None
              else _t("theorem.ui.winner", lang, name="Josh" if res["winner"] == "a" else "Garde"))
    assert "Le Vainqueur" not in entry["result"]["summary"]
    assert entry["result"]["summary"] == _fr(f"{winner} ({res['score_a']} — {res['score_b']})", lang)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_passe_darmes_line_is_the_pages_with_the_fights_defender(lang):
    a = ok({"op": "unicreon.character.new", "id": "ua", "name": "Aya"})["character"]
    b = ok({"op": "unicreon.character.new", "id": "ub", "name": "Ogre"})["character"]
    doc, combat, attacker, defender = uc_fight(a, b)
    lea = {"id": "m-lea", "name": "Léa", "characters": ["ua"]}
    request = {"op": "unicreon.combat.attack", "attacker": attacker, "defender": defender}
    entry, _ = _logged(doc, lea, request, 9, lang)
    same = ok({**request, "state": combat, "seed": 9})
    x, top = same["exchange"], next(f["pv_max"] for f in combat["combatants"] if f["cid"] == defender)
    line = (_t("unicreon.ui.parry_result" if x["attacker"]["success"] else "unicreon.ui.miss_result", lang, d="Ogre")
            if not x["hit"] else _t("unicreon.ui.hit_absorbed_result", lang, d="Ogre", pv=same["defender_pv"], max=top)
            if not x["pv_lost"] else _t("unicreon.ui.hit_result", lang, d="Ogre", n=x["pv_lost"],
                                        pv=same["defender_pv"], max=top))
    assert entry["result"]["summary"] == _fr(f"{line} ({x['attacker']['raw']} / {x['defender']['raw']})", lang)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_unicreon_oppositions_winner_is_named_from_the_records(lang):
    uc = ok({"op": "unicreon.character.new", "id": "u1", "name": "Solène"})["character"]
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [uc]
    request = {"op": "unicreon.opposition", "a": {"value": 60}, "b": {"value": 5},
               "character_a": {**uc, "name": "Réussite critique"}}
    for seed in (1, 2, 3, 4, 5, 6):
        entry, _ = _logged(doc, LEA, request, seed, lang)
        same = ok({**request, "seed": seed})
        verdict = (_t("unicreon.ui.wins", lang, name="Solène") if same["winner"] == "a"
                   else _t("unicreon.ui.wins", lang, name=_t("unicreon.ui.opponent", lang)) if same["winner"] == "b"
                   else _t("unicreon.ui.mj_choice", lang))
        assert entry["result"]["summary"] == _fr(f"{verdict} ({same['a']['raw']} / {same['b']['raw']})", lang)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_point_zero_oppositions_line_is_the_winner_and_the_totals(lang):
    request = {"op": "pointzero.opposition.roll", "a": {"kind": "attribute", "attribute": 3, "name": "Mira"},
               "b": {"kind": "attribute", "attribute": 2, "name": "Garde"}}
    for seed in (321, 322, 323):
        entry, _ = _logged(table(), LEA, request, seed, lang)
        same = ok({**request, "seed": seed})
        winner = same.get("winner")
        verdict = (_t("pointzero.ui.wins", lang, name="Mira" if winner == "a" else "Garde") if winner in ("a", "b")
                   else _t("pointzero.ui.perfect_tie", lang))
        assert entry["result"]["summary"] == _fr(
            f"{verdict} ({same['a']['result']['total']} / {same['b']['result']['total']})", lang)


@pytest.mark.parametrize(("lang", "text"), [
    ("fr", "Roi d'épée · La défausse est retournée (3\u00a0cartes)."),
    ("en", "King of swords · The discard is turned over (3 cards).")])
def test_a_theorem_draw_still_going_is_the_card_drawn(lang, text):
    answer = {"result": {"done": False, "awaiting": True, "card": {"suit": "epee", "rank": "roi"},
                         "events": [{"type": "reshuffle", "count": 3}]}}
    said, words, _ = referee_words.outcome("theorem.action.draw", {}, answer, lang)
    assert words[0] == ["theorem.ui.card_name", {"rank": [["theorem.rank.roi"]], "suit": [["theorem.suit.epee"]]}]
    assert said.replace("\u00a0", " ") == text.replace("\u00a0", " ")


def _page_says(cases):
    """What log-words.js ``say`` (the page reading an entry's words) says of each case."""
    import json
    import subprocess

    from node_harness import NODE, ROOT

    page = subprocess.run([NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/say_words.mjs"],
                          cwd=ROOT, input=json.dumps(cases), capture_output=True, text=True, timeout=60, check=True)
    return json.loads(page.stdout)


def test_every_recipes_words_read_on_the_page_as_the_referee_wrote_them():
    """The referee's text (Python, from its copy of the catalogue texts) and the page's reading
    of the same words (log-words.js, from the catalogues) are one text, in French and English:
    every recipe, the names and the French elision included."""
    from node_harness import NODE

    if NODE is None:
        pytest.skip("node is not installed")
    ctx = {"names": {"josh": "Josh", "u1": "Éloïse"},
           "state": {"opposition": {"a": {"character_id": "josh", "name": "x"}, "b": {"name": "Garde"}},
                     "combatants": [{"cid": "f2", "kind": "npc", "name": "moyen 2", "ref": "moyen", "pv_max": 9}]}}
    answers = [
        ("pointzero.test.roll", {}, {"result": {"margin": -4, "critical": None, "success": False}}),
        ("systmj.test", {}, {"outcome": "success", "degree": "notable"}),
        ("unicreon.test", {}, {"success": True, "band": "top", "target": -3}),
        ("systmj.learning.roll", {}, {"quality": "tres_bon", "gained": 2, "before": 40, "after": 42}),
        ("versality.test.resolve", {}, {"result": {"final": "oui-mais", "played": {"kind": "oui"},
                                                   "events": [{"type": "exhausted"}]}}),
        ("theorem.action.draw", {}, {"result": {"done": True, "value": 7, "score": 12, "level": "normale",
                                                "events": [{"type": "reshuffle", "count": 1}]}}),
        ("theorem.action.draw", {}, {"result": {"done": False, "card": {"suit": "epee", "rank": "roi"}, "events": []}}),
        ("theorem.action.draw", {}, {"result": {"done": False, "card": {"suit": "coupe", "rank": "7"}}}),
        ("theorem.opposition.draw", {"a": {"character_id": "josh"}, "b": {"name": ""}},
         {"result": {"winner": "b", "score_a": 3, "score_b": 9, "events": [{"type": "reshuffle", "count": 5}]}}),
        ("theorem.opposition.draw", {}, {"result": {"winner": None, "score_a": 9, "score_b": 9}}),
        ("theorem.opposition.side", {"side": "b"}, {"score": 11, "result": {"winner": "a"}, "events": []}),
        ("unicreon.opposition", {"character_a": {"id": "u1"}}, {"a": {"raw": 34}, "b": {"raw": 12}, "winner": "a"}),
        ("unicreon.opposition", {}, {"a": {"raw": 34}, "b": {"raw": 12}, "winner": "b"}),
        ("unicreon.opposition", {}, {"a": {"raw": 34}, "b": {"raw": 12}, "winner": None}),
        ("unicreon.combat.attack", {"defender": "f2"},
         {"exchange": {"hit": True, "pv_lost": 3, "attacker": {"raw": 45, "success": True}, "defender": {"raw": 33}},
          "defender_pv": 6}),
        ("unicreon.combat.attack", {"defender": "f2"},
         {"exchange": {"hit": False, "pv_lost": 0, "attacker": {"raw": 45, "success": True}, "defender": {"raw": 33}},
          "defender_pv": 9}),
        ("unicreon.health.day", {}, {"pv_lost": 3, "character": {"pv": 7}}),
        ("unicreon.combat.escape", {"cid": "f2"}, {"escape": {"success": False}}),
        ("unicreon.combat.escape", {"cid": "f2"}, {"escape": {"success": True}}),
        ("unicreon.health.diagnose", {}, {"test": {"success": False}}),
        ("systmj.card.learn", {}, {"gain": "1d10", "gained": 6, "before": 20, "after": 26}),
        ("theorem.hand.draw", {}, {"count": 1, "events": [{"type": "ka"}, {"type": "reshuffle", "count": 2}]}),
        ("theorem.hand.draw", {}, {"count": 4, "events": []}),
        ("pointzero.opposition.roll", {"a": {"name": "Mira"}, "b": {"name": "Garde"}},
         {"a": {"result": {"total": 11}}, "b": {"result": {"total": 7}}, "winner": "a"}),
    ]
    cases, texts = [], []
    for lang in ("fr", "en"):
        for name, request, answer in answers:
            text, words, said_in = referee_words.outcome(name, request, answer, lang, ctx)
            assert said_in == lang
            cases.append({"words": words, "lang": lang})
            texts.append(text)
    assert _page_says(cases) == texts
    assert referee_words.outcome("theorem.action.draw", {}, answers[6][2], "fr", ctx)[0].startswith("Roi d'épée")


def _verify_draws(entries, characters):
    """« Vérifier / rejouer » (verify.js, run by Node) on draws from a hidden pile: the replay
    through its own op, and the words of the outcome each entry logged (live.outcome_words with
    the table's names), the engine's answers made here."""
    import json
    import subprocess

    from node_harness import NODE, ROOT
    from tablee.api import handle

    kinds = {"theorem.action.draw": "action", "theorem.opposition.draw": "opposition",
             "theorem.opposition.side": "side"}
    names = {c["id"]: c["name"] for c in characters}
    cases = []
    for entry in entries:
        rq = entry["request"]
        deck = {k: rq["deck"][k] for k in ("draw", "discard")}
        if rq["op"] == "versality.test.draw":
            replay = handle({"op": "versality.draw.replay", "deck": deck, "count": rq["count"],
                             "seed": rq["deck"]["seed"]})
            name, asked = "versality.test.resolve", rq["resolve"]
        else:
            replay = handle({"op": "theorem.draw.replay", "kind": kinds[rq["op"]], "deck": deck,
                             "seed": rq["deck"]["seed"]})
            name, asked = rq["op"], rq
        said = handle({"op": "live.outcome_words", "name": name, "request": asked, "answer": entry["result"],
                       "lang": entry.get("words_lang", "fr"), "names": names})
        cases.append({"entry": entry, "characters": characters,
                      "answers": {"theorem.draw.replay": replay, "versality.draw.replay": replay,
                                  "live.outcome_words": said}})
    page = subprocess.run([NODE, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "tests/js/verify_line.mjs"],
                          cwd=ROOT, input=json.dumps(cases), capture_output=True, text=True, timeout=60, check=True)
    return json.loads(page.stdout)


def _forged(entry, text):
    out = {**entry, "result": {**entry["result"], "summary": text}}
    out.pop("summary_words", None)
    return out


def test_verify_checks_the_line_of_a_draw_that_replays_through_its_own_op():
    """A Théorem action, a side of a Théorem opposition and a Versality test replay through
    theorem.draw.replay / versality.draw.replay: their line is checked too (the words of the
    outcome they logged, naming the cards the replay drew)."""
    from api_calls import versality_character
    from node_harness import NODE
    from referee_tables import theorem_drawing

    if NODE is None:
        pytest.skip("node is not installed")
    doc = theorem_drawing()
    after, answer = move(doc, LEA, {"op": "theorem.action.draw", "character": {"id": "josh"}, **FORGED}, seed=5)
    action = next(e for e in after["log"] if e["id"] == answer["logged"])
    other_card = {**action, "result": {**action["result"], "result": {
        **action["result"]["result"], "card": {**action["result"]["result"]["card"], "id": "epee-roi"}}}}

    doc = table()
    a = {"character_id": "josh", "name": "Josh", "base": 0, "start": 0, "sphere": "animalite", "skill": None}
    b = {"character_id": "kim", "name": "Kim", "base": 0, "start": 0, "sphere": "humanite", "skill": None}
    doc, _ = move(doc, LEA, {"op": "theorem.opposition.start", "character_id": "josh", "a": a, "b": b}, seed=3)
    doc, answer = move(doc, LEA, {"op": "theorem.opposition.side", "character_id": "josh", "side": "a", **FORGED},
                       seed=21)
    side = next(e for e in doc["log"] if e["id"] == answer["logged"])
    assert side["result"]["summary"].startswith("Josh\u00a0: score")

    c = ok({"op": "versality.character.finish", "character": {**versality_character(improvement_points=9),
                                                              "id": "ana"}})
    vdoc = table()
    vdoc["characters"].append(c["character"])
    vdoc["systems"]["versality"] = ok({"op": "versality.state.new"})["state"]
    ana = {"id": "m-ana", "name": "Ana", "characters": ["ana"]}
    vdoc, _ = move(vdoc, ana, {"op": "versality.deck.build", "character": {"id": "ana"}}, seed=5)
    asked = {"characteristic": "mental", "skill": "traquer", "difficulty": "epique"}
    vdoc, drawn = move(vdoc, ana, {"op": "versality.test.draw", "character": {"id": "ana"}, **asked}, seed=6)
    pending = vdoc["systems"]["versality"]["pending"]["ana"]
    choice = {"choice": drawn["test"]["drawn"][0]["id"]} if pending["rule"] == "choose" else {}
    vdoc, _ = move(vdoc, ana, {"op": "versality.test.resolve", "character_id": "ana", **choice, **FORGED}, seed=7)
    versality = vdoc["log"][-1]
    assert versality["result"]["summary"]

    characters = doc["characters"] + vdoc["characters"][-1:]
    honest = [action, side, versality]
    forged = [_forged(action, "valeur 9, score 20 : Grande réussite"), _forged(side, "Josh : score 40."),
              _forged(versality, "Oui, et… — Carte jouée : Oui, et…"), other_card]
    assert _verify_draws(honest + forged, characters) == ["same"] * 3 + ["words"] * 4


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_hand_drawn_from_a_phone_is_worded_by_the_referee(lang):
    entry, answer = _logged(table(), LEA, {"op": "theorem.hand.draw", "character": {"id": "josh"}}, 4, lang)
    n = answer["count"]
    line = _t(f"theorem.ui.hand_drawn_{'one' if n in ((0, 1) if lang == 'fr' else (1,)) else 'other'}", lang, n=n)
    if any(e["type"] == "ka" for e in answer["events"]):
        line += " " + _t("theorem.ui.ka_set_aside", lang)
    assert entry["result"]["summary"].startswith(_fr(line, lang))
