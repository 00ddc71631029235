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

from .referee_texts import TEXTS

__all__ = ["OUTCOMES", "TEXTS", "outcome", "say"]

Words = list[Any]
#: What the referee knows besides the op's request and answer: ``names`` (character id -> its name
#: in the MJ's records) and ``state`` (the system's state before the move, the MJ's).
Ctx = dict[str, Any]

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


def _text(value: Any, cap: int = 80) -> str | None:
    """A name as a line says it: text, cut, control characters made spaces; None when empty."""
    if not isinstance(value, str):
        return None
    text = "".join(" " if ord(c) < 32 or 127 <= ord(c) < 160 else c for c in value[:cap]).strip()
    return text or None


def _recorded(ctx: Ctx, cid: Any) -> str | None:
    """The name of character ``cid`` in the MJ's records (``ctx["names"]``), else None."""
    names = ctx.get("names") if isinstance(ctx.get("names"), dict) else {}
    return _text(names.get(cid)) if isinstance(cid, str) else None


def _pz_test(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
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


def _sj_test(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
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


def _uc_test(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
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


def _sj_learning(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
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


def _th_turned(events: Any) -> Words:
    """theorem/common.js ``eventsText``: each discard turned over, one after the other."""
    turned = [e.get("count") for e in events or [] if isinstance(e, dict) and e.get("type") == "reshuffle"]
    if not isinstance(events, list) or not all(_int(n) for n in turned):
        return []
    words: Words = []
    for i, n in enumerate(turned):
        words += [" "] if i else []
        words.append([f"theorem.ui.reshuffled_{'one' if n == 1 else 'other'}", {"n": str(n)}])
    return words


def _th_card(card: Any) -> Words | None:
    """theorem/common.js ``cardName``: "7 de coupe", "Roi de denier"."""
    if not isinstance(card, dict) or card.get("suit") not in ("baton", "coupe", "denier", "epee"):
        return None
    rank = card.get("rank")
    if isinstance(rank, str) and rank.isdigit() and len(rank) <= 2:
        said: Any = rank
    elif rank in ("valet", "cavalier", "reine", "roi"):
        said = [[f"theorem.rank.{rank}"]]
    else:
        return None
    return [["theorem.ui.card_name", {"rank": said, "suit": [[f"theorem.suit.{card['suit']}"]]}]]


def _th_action(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """Théorem (003_0f8319d4d007e1fe.txt, "2) Les actions": value, score and level of success):
    theorem/table.js ``draw``: a finished action's result, else the card drawn (a figure to
    play, a chain going on); then a discard turned over."""
    res = answer.get("result")
    if not isinstance(res, dict):
        return None
    if res.get("done") is True and not res.get("chase_side"):
        if res.get("level") not in _TH_LEVELS or not (_int(res.get("value")) and _int(res.get("score"))):
            return None
        words: Words | None = [["theorem.ui.log_result", {"value": str(res["value"]), "score": str(res["score"]),
                                                          "level": [[f"theorem.level.{res['level']}"]]}]]
    else:
        words = _th_card(res.get("card"))
    if words is None:
        return None
    turned = _th_turned(res.get("events"))
    return [*words, " · ", *turned] if turned else words


def _th_side_name(side: Any, key: str, ctx: Ctx) -> Any:
    """A side of a Théorem opposition as the chase page names it (theorem/chase.js ``sideName``):
    a side played by a character is named by the MJ's record of it, never by what a phone
    typed; a side of no character by the name it was given, else "Premier camp"."""
    side = side if isinstance(side, dict) else {}
    return (_recorded(ctx, side.get("character_id")) or (None if side.get("character_id") else _text(side.get("name")))
            or [[f"theorem.ui.side_{key}"]])


def _th_opposition(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """Théorem (003_0f8319d4d007e1fe.txt, "Les oppositions"): theorem/chase.js ``opposition``:
    the winner (or the strict tie), both scores, a discard turned over."""
    res = answer.get("result")
    if not isinstance(res, dict) or res.get("winner") not in ("a", "b", None) or "winner" not in res:
        return None
    if not (_int(res.get("score_a")) and _int(res.get("score_b"))):
        return None
    winner: Words = ([["theorem.ui.tie"]] if res["winner"] is None else
                     [["theorem.ui.winner", {"name": _th_side_name(request.get(res["winner"]), res["winner"], ctx)}]])
    turned = _th_turned(res.get("events"))
    return [*winner, f" ({res['score_a']} — {res['score_b']})", *([" ", *turned] if turned else [])]


def _th_side(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """Théorem, one side of a waiting opposition drawn (theorem/opposition.js
    ``waitingOpposition``): the side's score, the outcome once both have drawn, a discard
    turned over. The sides are the MJ's state before the move (a replay's: the sides its entry
    logged, :func:`tablee.referee_log._th_side_request`)."""
    state = ctx.get("state") if isinstance(ctx.get("state"), dict) else {}
    held = state.get("opposition") if isinstance(state.get("opposition"), dict) else request.get("sides")
    held = held if isinstance(held, dict) else {}
    key = request.get("side")
    if key not in ("a", "b") or not _int(answer.get("score")):
        return None
    words: Words = [["theorem.ui.side_drew", {"name": _th_side_name(held.get(key), key, ctx),
                                              "score": str(answer["score"])}]]
    res = answer.get("result")
    if isinstance(res, dict) and res.get("winner") in ("a", "b", None) and "winner" in res:
        words += [" ", ["theorem.ui.tie"] if res["winner"] is None else
                  ["theorem.ui.winner", {"name": _th_side_name(held.get(res["winner"]), res["winner"], ctx)}]]
    turned = _th_turned(answer.get("events"))
    return [*words, " ", *turned] if turned else words


def _uc_name(ctx: Ctx, record: Any, fallback: str) -> Any:
    """unicreon/common.js ``nameOf`` of a character a phone named (its id): the MJ's record's."""
    cid = record.get("id") if isinstance(record, dict) else None
    if isinstance(cid, str) and cid in (ctx.get("names") or {}):
        return _recorded(ctx, cid) or [["unicreon.ui.unnamed"]]
    return [[fallback]]


def _uc_opposition(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """Unicreon (004_12a5de9999b9d0ad.txt, "Les oppositions"): unicreon/test.js ``oppose``: who
    wins (or a tie the MJ settles), each side's d66."""
    sides = [answer.get(k) if isinstance(answer.get(k), dict) else {} for k in ("a", "b")]
    if not all(_int(side.get("raw")) for side in sides) or answer.get("winner") not in ("a", "b", None):
        return None
    winner = answer.get("winner")
    verdict: Words = ([["unicreon.ui.mj_choice"]] if winner is None else [["unicreon.ui.wins", {
        "name": _uc_name(ctx, request.get(f"character_{winner}"), "unicreon.ui.unnamed" if winner == "a"
                         else "unicreon.ui.opponent")}]])
    return [*verdict, f" ({sides[0]['raw']} / {sides[1]['raw']})"]


def _uc_fighter(ctx: Ctx, cid: Any) -> dict[str, Any] | None:
    state = ctx.get("state") if isinstance(ctx.get("state"), dict) else {}
    fight = state if "combatants" in state else state.get("combat") if isinstance(state.get("combat"), dict) else {}
    return next((f for f in fight.get("combatants") or [] if isinstance(f, dict) and f.get("cid") == cid), None)


def _uc_fighter_name(ctx: Ctx, fighter: dict[str, Any]) -> Any:
    """unicreon/combat.js ``cname``: a character's name (the MJ's record's), or an NPC's, its
    kind said short when it is its kind's ("PNJ moyen 2")."""
    if fighter.get("kind") == "character":
        return _recorded(ctx, fighter.get("id")) or _text(fighter.get("name")) or [["unicreon.ui.unnamed"]]
    name = _text(fighter.get("name")) or ""
    m = re.search(r"\s(\d+)$", name)
    base = re.sub(r"\s\d+$", "", name)
    ref = fighter.get("ref")
    if base == ref and f"unicreon.ui.short.{ref}" in TEXTS["fr"]:
        return [[f"unicreon.ui.short.{ref}"], *([f" {m.group(1)}"] if m else [])]
    return f"{base} {m.group(1)}" if m else base


def _uc_attack(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """Unicreon (004_12a5de9999b9d0ad.txt, "Le combat", a passe d'armes): unicreon/combat.js
    ``attack``/``resultLine``: missed, parried, all absorbed or the PV lost, then each side's
    d66. The defender is the fight's (the MJ's state before the move)."""
    x = answer.get("exchange")
    defender = _uc_fighter(ctx, request.get("defender"))
    if not isinstance(x, dict) or defender is None or not _int(answer.get("defender_pv")):
        return None
    sides = [x.get(k) if isinstance(x.get(k), dict) else {} for k in ("attacker", "defender")]
    if not all(_int(side.get("raw")) for side in sides) or not _int(defender.get("pv_max")):
        return None
    d = _uc_fighter_name(ctx, defender)
    pv, top = str(answer["defender_pv"]), str(defender["pv_max"])
    if not x.get("hit"):
        line: Words = [["unicreon.ui.parry_result" if sides[0].get("success") else "unicreon.ui.miss_result", {"d": d}]]
    elif not x.get("pv_lost"):
        line = [["unicreon.ui.hit_absorbed_result", {"d": d, "pv": pv, "max": top}]]
    else:
        line = [["unicreon.ui.hit_result", {"d": d, "n": str(x["pv_lost"]), "pv": pv, "max": top}]]
    return [*line, f" ({sides[0]['raw']} / {sides[1]['raw']})"]


def _uc_escape(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """Unicreon (004_12a5de9999b9d0ad.txt, "Le combat", breaking contact): unicreon/combat.js's
    escape: failed, else out of contact, naming the fighter (the fight's, the MJ's state)."""
    fighter = _uc_fighter(ctx, request.get("cid"))
    if fighter is None or not isinstance(answer.get("escape", {}), dict):
        return None
    failed = (answer.get("escape") or {}).get("success") is False
    key = "unicreon.ui.escape_failed" if failed else "unicreon.ui.escaped"
    return [[key, {"name": _uc_fighter_name(ctx, fighter)}]]


def _pz_opposition(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """Point Zéro (002_61483667e16cef6b.txt, "Les oppositions"): pointzero/test.js ``oppose``:
    who wins (or a perfect tie), each side's total. A side is named by the MJ's record of its
    character, else by the name it was given (an NPC's), as its dice term is."""
    if isinstance(answer.get("sides"), list):
        rolled = answer["sides"]
        asked = request.get("sides") if isinstance(request.get("sides"), list) else []
    else:
        rolled = [answer.get("a"), answer.get("b")]
        asked = [request.get("a"), request.get("b")]
    totals = [(r.get("result") or {}).get("total") if isinstance(r, dict) else None for r in rolled]
    if not totals or not all(_int(n) for n in totals):
        return None
    winner = answer.get("winner")
    at = 0 if winner == "a" else 1 if winner == "b" else winner if _int(winner) else None
    if at is not None and not 0 <= at < len(rolled):
        return None
    verdict: Words = [["pointzero.ui.perfect_tie"]]
    if at is not None:
        side = asked[at] if at < len(asked) and isinstance(asked[at], dict) else {}
        dice = (rolled[at].get("result") or {}).get("dice") or []
        name = _recorded(ctx, side.get("character_id")) or _text(side.get("name")) or f"{len(dice)}d6"
        verdict = [["pointzero.ui.wins", {"name": name}]]
    return [*verdict, f" ({' / '.join(str(n) for n in totals)})"]


def _uc_day(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """Unicreon (004_12a5de9999b9d0ad.txt, "Gestion de la santé", the adventure day):
    unicreon/sheet.js ``day``: the PV lost and the PV left."""
    character = answer.get("character") if isinstance(answer.get("character"), dict) else {}
    if not (_int(answer.get("pv_lost")) and _int(character.get("pv"))):
        return None
    return [["unicreon.ui.day_lost", {"n": str(answer["pv_lost"]), "pv": str(character["pv"])}]]


def _uc_diagnose(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """Unicreon (004_12a5de9999b9d0ad.txt, "Poisons et maladies", a diagnosis): unicreon/sheet.js
    ``diagnose``: success or failure of the Perception test."""
    test = answer.get("test")
    if not isinstance(test, dict) or not isinstance(test.get("success"), bool):
        return None
    return [["unicreon.ui.success" if test["success"] else "unicreon.ui.failure"]]


_SJ_GAINS = ("1", "1d10", "1d20", "1d4")


def _sj_card_learn(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """SYSTMJ (000_d267ce9097809d3e.txt, 4.4, learning a Pouvoir card): systmj/cards.js: the
    gain die, the points gained, the score before and after."""
    points = answer.get("gained", answer.get("points"))
    if str(answer.get("gain")) not in _SJ_GAINS or not all(_int(v) for v in (points, answer.get("before"),
                                                                               answer.get("after"))):
        return None
    return [["systmj.ui.learn_gain", {"gain": [[f"systmj.gain.{answer['gain']}"]], "points": str(points),
                                      "before": str(answer["before"]), "after": str(answer["after"])}]]


def _th_hand(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
    """Théorem (003_0f8319d4d007e1fe.txt, the arcana drawn into a hand): theorem/table.js
    ``drawHand``: the count drawn, the Ka card set aside, a discard turned over."""
    if not _int(answer.get("count")) or not isinstance(answer.get("events", []), list):
        return None
    n = answer["count"]
    words: Words = [[f"theorem.ui.hand_drawn_{'one' if n == 1 else 'other'}", {"n": str(n)}]]
    if any(isinstance(e, dict) and e.get("type") == "ka" for e in answer.get("events", [])):
        words += [" ", ["theorem.ui.ka_set_aside"]]
    turned = _th_turned(answer.get("events", []))
    return [*words, " ", *turned] if turned else words


_VS_OUTCOMES = ("echec-critique", "non-et", "non-mais", "oui", "oui-et", "oui-mais")


def _vs_resolve(request: dict[str, Any], answer: dict[str, Any], ctx: Ctx) -> Words | None:
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
OUTCOMES: dict[str, Callable[[dict[str, Any], dict[str, Any], Ctx], Words | None]] = {
    "pointzero.test.roll": _pz_test,
    "systmj.test": _sj_test,
    "unicreon.test": _uc_test,
    "systmj.learning.roll": _sj_learning,
    "versality.test.resolve": _vs_resolve,
    "theorem.action.draw": _th_action,
    "theorem.opposition.draw": _th_opposition,
    "theorem.opposition.side": _th_side,
    "unicreon.opposition": _uc_opposition,
    "unicreon.combat.attack": _uc_attack,
    "pointzero.opposition.roll": _pz_opposition,
    "unicreon.combat.escape": _uc_escape,
    "unicreon.health.day": _uc_day,
    "unicreon.health.diagnose": _uc_diagnose,
    "systmj.card.learn": _sj_card_learn,
    "theorem.hand.draw": _th_hand,
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


def outcome(name: str, request: Any, answer: Any, lang: str = "fr",
            ctx: Ctx | None = None) -> tuple[str, Words, str] | None:
    """``(result line, its words, their language)`` of op ``name``'s ``answer`` (to
    ``request``), said in ``lang`` (French when it is not one of :data:`TEXTS`); None when the
    op has no outcome words or the answer is not of the op's shape. ``ctx``: the names of the
    MJ's records and the state before the move (:data:`Ctx`), for the lines that name a side."""
    recipe = OUTCOMES.get(name)
    if recipe is None or not isinstance(answer, dict):
        return None
    words = recipe(request if isinstance(request, dict) else {}, answer, ctx or {})
    if not words:
        return None
    words = _joined(words)
    lang = lang if lang in TEXTS else "fr"
    text = say(words, lang)
    return (text, words, lang) if text is not None else None
