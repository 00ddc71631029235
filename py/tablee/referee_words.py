"""The live table's referee, its words part: a move's result line made from the op's answer.

A phone's move may name what it is for (its label: « Jet de Force »), never how it came out:
the result line of the entry the referee logs (``result.summary``) and its words
(``summary_words``) are made here from the answer of the referee's own run, the same words the
system's page makes for the same answer on one device (static/js/systems/<id>/…: each recipe
names its page). A phone's ``summary``/``summary_words`` are ignored (the move is applied, they
are not kept: an older phone build sends them), and ``live.log.label`` changes a label only.

An op without a recipe here has no result line (its total and dice stay in the result): a
plain ``roll`` of dice never has one, a system's op has one only when its outcome is in the
rules (a test's success, its degree). "Vérifier / rejouer" asks the same words of a replay
(``live.outcome_words``, :mod:`tablee.referee`; static/js/views/verify.js) and says when an entry's do not follow.

The words are language-neutral (catalogue keys and their values, log-words.js's shape); the
text is said from :data:`TEXTS`, the catalogue texts of those keys in French and English
(static/i18n/<lang>/<system>.json: tests/test_referee_outcome.py keeps them the same), in the
language of the move's own words (else French, the language tables were logged in before).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

__all__ = ["OUTCOMES", "TEXTS", "outcome", "say"]

Words = list[Any]

#: The catalogue texts the outcome words use, by language (the catalogues' own, checked by a test).
TEXTS: dict[str, dict[str, str]] = {
    "fr": {
        "pointzero.ui.critical_success": "Réussite critique",
        "pointzero.ui.critical_failure": "Échec critique",
        "pointzero.ui.success": "Réussite",
        "pointzero.ui.failure": "Échec",
        "pointzero.ui.margin": "Marge",
        "systmj.outcome.automatic_failure": "Échec automatique (Inapte)",
        "systmj.outcome.automatic_success": "Réussite automatique",
        "systmj.outcome.critical_failure": "Échec critique",
        "systmj.outcome.critical_success": "Réussite critique",
        "systmj.outcome.failure": "Échec",
        "systmj.outcome.success": "Réussite",
        "systmj.degree_success.justesse": "de justesse",
        "systmj.degree_success.moyenne": "moyenne",
        "systmj.degree_success.notable": "notable",
        "unicreon.ui.success": "Réussite",
        "unicreon.ui.failure": "Échec",
        "unicreon.ui.target": "Seuil",
        "unicreon.band.bof": "Bof. C'est passé de justesse",
        "unicreon.band.bien": "Bien. Ça commence à ressembler à quelque chose",
        "unicreon.band.super": "Super. Une grande réussite",
        "unicreon.band.top": "Top ! C'est vraiment bien",
        "unicreon.band.extra": "Extra. Réussi à la perfection",
        "systmj.ui.learning_summary": "{quality} : +{points} ({before} → {after})",
        **{f"systmj.quality.{k}": v for k, v in (
            ("bon", "Bon apprentissage"), ("echec_critique", "Échec critique"),
            ("excellent", "Excellent apprentissage"), ("exceptionnel", "Apprentissage exceptionnel"),
            ("legendaire", "Apprentissage légendaire"), ("mauvais", "Mauvais apprentissage"),
            ("mediocre", "Apprentissage médiocre"), ("moyen", "Apprentissage moyen"),
            ("tres_bon", "Très bon apprentissage"))},
        "theorem.ui.log_result": "valeur {value}, score {score} : {level}",
        "theorem.ui.reshuffled_one": "La défausse est retournée ({n} carte).",
        "theorem.ui.reshuffled_other": "La défausse est retournée ({n} cartes).",
        **{f"theorem.level.{k}": v for k, v in (
            ("echec", "Échec"), ("grande", "Grande réussite"), ("moyenne", "Réussite moyenne"),
            ("normale", "Réussite normale"))},
        "versality.ui.played_card": "Carte jouée : {card}",
        "versality.ui.reshuffled": "Deck épuisé : toutes les cartes sont remélangées.",
        "versality.ui.exhausted": "Deck épuisé : toutes ses cartes sont piochées.",
        "versality.ui.penalty": ("Chaque épuisement du deck fait monter l'échelle de catastrophe d'un cran et "
                                 "donne un pion MJ."),
        **{f"versality.outcome.{k}": v for k, v in (
            ("echec-critique", "Échec critique"), ("non-et", "Non, et…"), ("non-mais", "Non, mais…"),
            ("oui", "Oui"), ("oui-et", "Oui, et…"), ("oui-mais", "Oui, mais…"))},
    },
    "en": {
        "pointzero.ui.critical_success": "Critical success",
        "pointzero.ui.critical_failure": "Critical failure",
        "pointzero.ui.success": "Success",
        "pointzero.ui.failure": "Failure",
        "pointzero.ui.margin": "Margin",
        "systmj.outcome.automatic_failure": "Automatic failure (Inapte)",
        "systmj.outcome.automatic_success": "Automatic success",
        "systmj.outcome.critical_failure": "Critical failure",
        "systmj.outcome.critical_success": "Critical success",
        "systmj.outcome.failure": "Failure",
        "systmj.outcome.success": "Success",
        "systmj.degree_success.justesse": "de justesse (narrow)",
        "systmj.degree_success.moyenne": "moyenne (average)",
        "systmj.degree_success.notable": "notable",
        "unicreon.ui.success": "Success",
        "unicreon.ui.failure": "Failure",
        "unicreon.ui.target": "Target",
        "unicreon.band.bof": "Meh. Just made it",
        "unicreon.band.bien": "Good. Starting to look like something",
        "unicreon.band.super": "Super. A great success",
        "unicreon.band.top": "Top! Really good",
        "unicreon.band.extra": "Extra. Perfectly done",
        "systmj.ui.learning_summary": "{quality}: +{points} ({before} → {after})",
        **{f"systmj.quality.{k}": v for k, v in (
            ("bon", "Good learning"), ("echec_critique", "Critical failure"), ("excellent", "Excellent learning"),
            ("exceptionnel", "Exceptional learning"), ("legendaire", "Legendary learning"),
            ("mauvais", "Poor learning"), ("mediocre", "Mediocre learning"), ("moyen", "Average learning"),
            ("tres_bon", "Very good learning"))},
        "theorem.ui.log_result": "value {value}, score {score}: {level}",
        "theorem.ui.reshuffled_one": "The discard is turned over ({n} card).",
        "theorem.ui.reshuffled_other": "The discard is turned over ({n} cards).",
        **{f"theorem.level.{k}": v for k, v in (
            ("echec", "Failure"), ("grande", "Grande réussite"), ("moyenne", "Réussite moyenne"),
            ("normale", "Réussite normale"))},
        "versality.ui.played_card": "Card played: {card}",
        "versality.ui.reshuffled": "Deck exhausted: every card is reshuffled.",
        "versality.ui.exhausted": "Deck exhausted: every card is drawn.",
        "versality.ui.penalty": ("Each time the deck runs out, the catastrophe scale rises one step and the GM "
                                 "gains a token."),
        # (the rules' own words, kept in French in English too)
        **{f"versality.outcome.{k}": v for k, v in (
            ("echec-critique", "Échec critique"), ("non-et", "Non, et…"), ("non-mais", "Non, mais…"),
            ("oui", "Oui"), ("oui-et", "Oui, et…"), ("oui-mais", "Oui, mais…"))},
    },
}

_NBSP, _NNBSP = "\u00a0", "\u202f"


def _french_spaced(text: str) -> str:
    """static/js/i18n.js ``frenchSpaced``: the spaces French typography puts before : ; ? ! %."""
    text = re.sub(r" +(?=:)", _NBSP, text)
    text = re.sub(r" +(?=[;?!%])", _NNBSP, text)
    return re.sub(r" +»", f"{_NBSP}»", re.sub(r"« +", f"«{_NBSP}", text))


_ELIDED = re.compile(r"(^|[\s(«\"'’])"
                     r"(de|De|le|Le|la|La|que|Que|ne|Ne|je|Je|se|Se|me|Me|te|Te|lorsque|puisque|jusque) $")
_VOWEL = re.compile(r"^[aeiouyàâäéèêëîïôöûüùœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÛÜÙŒÆ]")


def _fill(template: str, params: dict[str, str], lang: str) -> str:
    """static/js/i18n.js ``fill`` for the placeholders the recipes use (``{name}``; French
    elides "de" before a vowel)."""
    if lang == "fr":
        template = _french_spaced(template)
    out, last = "", 0
    for m in re.finditer(r"\{(\w+)\}", template):
        out += template[last:m.start()]
        last = m.end()
        if m.group(1) not in params:
            out += m.group(0)
            continue
        value = params[m.group(1)]
        if lang == "fr" and _VOWEL.match(value):
            out = _ELIDED.sub(lambda e: f"{e.group(1)}{e.group(2)[:-1]}'", out)
        out += value
    return out + template[last:]


def say(words: Any, lang: str) -> str | None:
    """``words`` said in ``lang`` from :data:`TEXTS` (log-words.js ``sayIn``): a segment is text,
    ``[key]`` or ``[key, {name: value}]`` (a value text or words of its own); None when a key is
    not one of them."""
    texts = TEXTS.get(lang)
    if texts is None or not isinstance(words, list):
        return None
    out = ""
    for seg in words:
        if isinstance(seg, str):
            out += seg
            continue
        if not (isinstance(seg, list) and 1 <= len(seg) <= 2 and seg[0] in texts):
            return None
        params: dict[str, str] = {}
        for name, value in (seg[1] if len(seg) == 2 and isinstance(seg[1], dict) else {}).items():
            said = value if isinstance(value, str) else say(value, lang)
            if said is None:
                return None
            params[name] = said
        out += _fill(texts[_plural(seg[0], params, lang)], params, lang)
    return out


def _plural(key: str, params: dict[str, str], lang: str) -> str:
    """A ``_one``/``_other`` key in the form ``lang`` says for its ``n`` (i18n.js ``tn``:
    French says "0 carte" and "1 carte", English "1 card" only)."""
    base, _, form = key.rpartition("_")
    if form not in ("one", "other") or not params.get("n", "").isdigit():
        return key
    n = int(params["n"])
    return f"{base}_{'one' if (n in (0, 1) if lang == 'fr' else n == 1) else 'other'}"


def _signed(n: Any) -> str:
    """pointzero/common.js ``signed``: "+3", "−4" (a minus sign), "0"."""
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def _minus(n: Any) -> str:
    """i18n.js ``formatSigned``: "−4" (a minus sign) or the number as written."""
    return f"\u2212{-n}" if n < 0 else str(n)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _pz_test(request: dict[str, Any], answer: dict[str, Any]) -> Words | None:
    """Point Zéro (002_61483667e16cef6b.txt, "Règles de base", "Les réussites critiques"):
    pointzero/test.js ``logResult``: the verdict, then the margin signed."""
    res = answer.get("result")
    if not isinstance(res, dict) or not _int(res.get("margin")):
        return None
    critical = res.get("critical")
    verdict = ("critical_success" if critical == "success" else "critical_failure" if critical == "failure"
               else "success" if res.get("success") is True else "failure")
    key = f"pointzero.ui.{verdict}"
    return [[key], " (", ["pointzero.ui.margin"], f" {_signed(res['margin'])})"]


_SJ_OUTCOMES = ("automatic_failure", "automatic_success", "critical_failure", "critical_success", "failure", "success")
_SJ_DEGREES = ("justesse", "moyenne", "notable")


def _sj_test(request: dict[str, Any], answer: dict[str, Any]) -> Words | None:
    """SYSTMJ (000_d267ce9097809d3e.txt, the d100 roll-under and its degrees of success):
    systmj/test.js ``verdict``: the outcome, and a success's degree after a dash."""
    outcome = answer.get("outcome")
    if outcome not in _SJ_OUTCOMES:
        return None
    if outcome == "success":
        if answer.get("degree") not in _SJ_DEGREES:
            return None
        return [["systmj.outcome.success"], " — ", [f"systmj.degree_success.{answer['degree']}"]]
    return [[f"systmj.outcome.{outcome}"]]


_UC_BANDS = ("bof", "bien", "super", "top", "extra")


def _uc_test(request: dict[str, Any], answer: dict[str, Any]) -> Words | None:
    """Unicreon (004_12a5de9999b9d0ad.txt, "Les tests", the bands of a success): unicreon/test.js
    ``roll``: success and its band, or failure; then the target."""
    if not isinstance(answer.get("success"), bool) or not _int(answer.get("target")):
        return None
    if answer["success"]:
        if answer.get("band") not in _UC_BANDS:
            return None
        verdict: Words = [["unicreon.ui.success"], " — ", [f"unicreon.band.{answer['band']}"]]
    else:
        verdict = [["unicreon.ui.failure"]]
    return [*verdict, " (", ["unicreon.ui.target"], f" {_minus(answer['target'])})"]


_SJ_QUALITIES = ("bon", "echec_critique", "excellent", "exceptionnel", "legendaire", "mauvais", "mediocre", "moyen",
                 "tres_bon")


def _sj_learning(request: dict[str, Any], answer: dict[str, Any]) -> Words | None:
    """SYSTMJ (000_d267ce9097809d3e.txt, 2.3 "L'apprentissage"): systmj/learning.js: the
    learning's quality, the points gained, the score before and after."""
    if answer.get("quality") not in _SJ_QUALITIES:
        return None
    if not all(_int(answer.get(k)) for k in ("gained", "before", "after")):
        return None
    return [["systmj.ui.learning_summary", {"quality": [[f"systmj.quality.{answer['quality']}"]],
                                            "points": str(answer["gained"]), "before": str(answer["before"]),
                                            "after": str(answer["after"])}]]


_TH_LEVELS = ("echec", "grande", "moyenne", "normale")


def _th_action(request: dict[str, Any], answer: dict[str, Any]) -> Words | None:
    """Théorem (003_0f8319d4d007e1fe.txt, "2) Les actions": value, score and level of success):
    theorem/table.js ``draw``: the finished action's result, and a discard turned over. An
    action still drawing (a figure to play, a chain) has the card's name as its line on the
    page: no words here."""
    res = answer.get("result")
    if not isinstance(res, dict) or res.get("done") is not True or res.get("chase_side"):
        return None
    if res.get("level") not in _TH_LEVELS or not (_int(res.get("value")) and _int(res.get("score"))):
        return None
    words: Words = [["theorem.ui.log_result", {"value": str(res["value"]), "score": str(res["score"]),
                                               "level": [[f"theorem.level.{res['level']}"]]}]]
    turned = [e.get("count") for e in res.get("events") or [] if isinstance(e, dict) and e.get("type") == "reshuffle"]
    if turned and all(_int(n) for n in turned):
        words.append(" · ")
        for i, n in enumerate(turned):
            words += [" "] if i else []
            words.append([f"theorem.ui.reshuffled_{'one' if n == 1 else 'other'}", {"n": str(n)}])
    return words


_VS_OUTCOMES = ("echec-critique", "non-et", "non-mais", "oui", "oui-et", "oui-mais")


def _vs_resolve(request: dict[str, Any], answer: dict[str, Any]) -> Words | None:
    """Versality (001_28decc945b538010.txt, "Le tirage", "Les résultats"): versality/test.js
    ``resolve``: the outcome, the card played, and when the deck ran out, what it did."""
    res = answer.get("result")
    played = res.get("played") if isinstance(res, dict) else None
    if not isinstance(played, dict) or res.get("final") not in _VS_OUTCOMES or played.get("kind") not in _VS_OUTCOMES:
        return None
    words: Words = [[f"versality.outcome.{res['final']}"], " — ",
                    ["versality.ui.played_card", {"card": [[f"versality.outcome.{played['kind']}"]]}]]
    events = [e for e in res.get("events") or [] if isinstance(e, dict) and e.get("type") in ("reshuffle", "exhausted")]
    if events:
        words.append(" · ")
        for e in events:
            words += [["versality.ui.reshuffled" if e["type"] == "reshuffle" else "versality.ui.exhausted"], " "]
        words.append(["versality.ui.penalty"])
    return words


#: op name -> how its page words its result line from its answer (module docstring).
OUTCOMES: dict[str, Callable[[dict[str, Any], dict[str, Any]], Words | None]] = {
    "pointzero.test.roll": _pz_test,
    "systmj.test": _sj_test,
    "unicreon.test": _uc_test,
    "systmj.learning.roll": _sj_learning,
    "versality.test.resolve": _vs_resolve,
    "theorem.action.draw": _th_action,
}


def _joined(words: Words) -> Words:
    """Adjacent literal texts made one (log-words.js's shape)."""
    out: Words = []
    for seg in words:
        if isinstance(seg, str) and out and isinstance(out[-1], str):
            out[-1] += seg
        else:
            out.append(seg)
    return out


def outcome(name: str, request: Any, answer: Any, lang: str = "fr") -> tuple[str, Words, str] | None:
    """``(result line, its words, their language)`` of op ``name``'s ``answer`` (to
    ``request``), said in ``lang`` (French when it is not one of :data:`TEXTS`); None when the
    op has no outcome words or the answer is not of the op's shape."""
    recipe = OUTCOMES.get(name)
    if recipe is None or not isinstance(answer, dict):
        return None
    words = recipe(request if isinstance(request, dict) else {}, answer)
    if not words:
        return None
    words = _joined(words)
    lang = lang if lang in TEXTS else "fr"
    text = say(words, lang)
    return (text, words, lang) if text is not None else None
