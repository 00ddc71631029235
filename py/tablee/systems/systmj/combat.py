"""SYSTMJ combat: combat scores, initiative, the exchange (attack, defence, damage) and its
exact odds.

Source: 000_d267ce9097809d3e.txt, 3.3 (combat is an Action), 3.3.1 (initiative by a
Rapidité roll, only for attacks in force), 3.3.2 (attack in force ((FOR×2)+RES+RAP)/5: a
failure opens a counter-attack with no defence, a success allows a defence; stealth attack
(FOR+(AGI×2)+RAP)/5 after a Discrétion test against the target's Détection: Discrétion
failed, the target counter-attacks with no defence; Détection succeeded, it becomes an attack
in force; a stealth hit allows no defence; ranged attacks: in range, the four weapon
categories' formulas + the weapon's ATT, thrown objects ((FOR×2)+(AGI×2))/5, a defence only
when the target could be aware, never a counter-attack), 3.3.3 (esquive/feinte
(RAP+(AGI×2)+CHA)/5; parade ((FOR×2)+RES+AGI)/5 + the weapon's DEF, applied only with a
weapon card; encaissement ((FOR×2)+(RES×2))/5 + the shield's DEF, applied only with a shield
card), 4.1 field 11 (damage table in three boxes for a d6's 1-2, 3-4, 5-6).

Readings (shared/rules/README.md, SYSTMJ): combat scores are rounded down; the thrown weapon
formula is (2·FOR + 2·AGI)/5 + ATT (the text's bracket is unbalanced); a combat score is a
score on 100 (formula + the weapon's ATT or DEF) tested with d100 like any score, and the
wear malus of the item used applies; "Discrétion" is the skill Dissimulation; damage comes
off PA first while any remain, then PV; initiative order: critical successes, then the other
successes from the highest roll down, then the failures (who cannot attack first).
Reading (shared/rules/README.md line proposed; ours until then), the DEF bonus of a parade
made with a shield: « La parade n'est réalisable qu'avec une arme ou un objet adapté au
combat. Le score de défense n'est appliqué d'en cas d'utilisation d'une arme véritable
(carte Objet) » (3.3.3). A shield is an Équipement card of type « arme », category
« bouclier » (4.1 field 2), so a parade made with a shield card adds that shield's DEF, the
same DEF an encaissement adds; the two differ by their formula only ((FOR×2)+RES+AGI for the
parade, (FOR×2)+(RES×2) for the encaissement). A parade made with a card that is no weapon
(a tool, an armour) is refused: the text applies the DEF of a true weapon only.

Reading (ours), a counter-attack (3.3.2, « aucune Défense ne sera possible »): it is an
attack in force by the target of the failed attack, with no defence; it answers the failed
attack inside that attack's Action, so it neither needs an Action of its own in the round
nor spends one.

Readings (ours): a combat score above 99 is 99 (scores live on 00..99); an attack made
without a weapon card (bare hands, improvised object) adds no ATT and deals the damage table
the MJ gives (default 0/0/0); two fighters with the same initiative roll keep the MJ's order.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ...errors import RulesError, declare
from . import resolution as R
from . import wear as W

__all__ = [
    "FORMULAS",
    "apply_damage",
    "combat_score",
    "exchange",
    "exchange_odds",
    "initiative",
]

declare(
    "systmj.combat.weapon_needed",
    "systmj.combat.wrong_card",
    "systmj.combat.no_defence",
    "systmj.combat.modifiers",
    "systmj.combat.no_card",
    "systmj.combat.counter_force",
)

ABBR = {
    "force": "FOR",
    "resistance": "RES",
    "agilite": "AGI",
    "rapidite": "RAP",
    "intelligence": "INT",
    "personnalite": "PER",
    "chance": "CHA",
}

#: formula id -> (attribute coefficients in the text's order, what the card adds).
FORMULAS: dict[str, tuple[tuple[tuple[str, int], ...], str | None]] = {
    "force": ((("force", 2), ("resistance", 1), ("rapidite", 1)), "att"),
    "stealth": ((("force", 1), ("agilite", 2), ("rapidite", 1)), "att"),
    "thrown": ((("force", 2), ("agilite", 2)), None),
    "jet": ((("force", 2), ("agilite", 2)), "att"),
    "trait": ((("force", 1), ("agilite", 2), ("rapidite", 1)), "att"),
    "poing": ((("agilite", 3), ("rapidite", 1)), "att"),
    "epaule": ((("agilite", 2), ("force", 1), ("rapidite", 1)), "att"),
    "esquive": ((("rapidite", 1), ("agilite", 2), ("chance", 1)), None),
    "parade": ((("force", 2), ("resistance", 1), ("agilite", 1)), "def"),
    "encaissement": ((("force", 2), ("resistance", 2)), "def"),
}
RANGED = ("jet", "trait", "poing", "epaule")
DEFENCES = ("none", "esquive", "parade", "encaissement")
KINDS = ("force", "stealth", "ranged", "thrown")
#: The card a formula's bonus needs: parade needs a weapon, encaissement a shield (3.3.3).
_CARD_NEEDS = {"parade": "arme", "encaissement": "bouclier"}

DiceD100 = Callable[[], tuple[int, int]]
DiceD6 = Callable[[], int]


#: Formulas made with no item at all: « Seuls moyens de défense ne nécessitant pas d'objet ou
#: d'arme, la feinte ou l'esquive » (3.3.3); a thrown object is no weapon card (3.3.2, its
#: formula adds no ATT). A card given for them is refused rather than silently ignored.
NO_CARD = ("esquive", "thrown")
#: Attacks whose formula adds the card's ATT: the card must be a weapon (4.1 field 8, « Pour
#: les armes offensives ou défensives, les scores d'Attaque (ATT) et de Défense (DEF) »).
_WEAPON_ATTACKS = ("force", "stealth")


def _check_card(formula: str, card: dict[str, Any] | None) -> None:
    """The card a formula may use (3.3.2, 3.3.3): a ranged attack needs a weapon of its
    category; an attack in force or a stealth attack adds the ATT of a weapon card only (an
    armour or a tool is refused: its ATT is no attack score); a parade needs a weapon, an
    encaissement a shield; the esquive and a thrown object use no card."""
    if card is None:
        if formula in RANGED:
            raise RulesError("systmj.combat.weapon_needed", formula=formula)
        return
    if formula in NO_CARD:
        raise RulesError("systmj.combat.no_card", formula=formula)
    if card.get("family") != "equipement":
        raise RulesError("systmj.combat.wrong_card", formula=formula)
    if formula in _WEAPON_ATTACKS and "arme" not in card["types"]:
        raise RulesError("systmj.combat.wrong_card", formula=formula)
    if formula in RANGED and formula not in card["categories"]:
        raise RulesError("systmj.combat.wrong_card", formula=formula)
    if formula == "parade" and "arme" not in card["types"]:
        raise RulesError("systmj.combat.wrong_card", formula=formula)
    if formula == "encaissement" and "bouclier" not in card["categories"]:
        raise RulesError("systmj.combat.wrong_card", formula=formula)


def combat_score(formula: str, attributes: dict[str, int], card: dict[str, Any] | None = None) -> dict[str, Any]:
    """A combat score with its numbers: the attribute sum over 5, rounded down, plus the
    card's ATT or DEF (3.3.2, 3.3.3), at most 99; the card's wear malus is a modifier of the
    test (not of the score). ``text`` shows the formula with the numbers put in."""
    _check_card(formula, card)
    terms, adds = FORMULAS[formula]
    total = sum(attributes[a] * k for a, k in terms)
    base = total // 5
    bonus = card[adds] if (card is not None and adds is not None) else 0
    shown = "+".join(f"({ABBR[a]}×{k})" if k > 1 else ABBR[a] for a, k in terms)
    numbers = "+".join(f"({attributes[a]}×{k})" if k > 1 else str(attributes[a]) for a, k in terms)
    text = f"({shown})/5 = ({numbers})/5 = {total}/5 → {base}"
    if adds is not None and card is not None:
        text += f" + {adds.upper()} {bonus} = {base + bonus}"
    score = min(99, base + bonus)
    if score != base + bonus:
        text += " → 99"
    wear = W.wear_of(card["pu"]) if card is not None else None
    return {
        "formula": formula,
        "terms": [{"attribute": a, "coefficient": k, "value": attributes[a]} for a, k in terms],
        "sum": total,
        "base": base,
        "bonus": bonus,
        "bonus_kind": adds if card is not None else None,
        "score": score,
        "text": text,
        "wear": wear,
        "modifiers": [wear["malus"]] if wear and wear["malus"] else [],
    }


def damage_band(d6: int) -> int:
    """Index of the damage table's box for a d6 roll: 1-2 → 0, 3-4 → 1, 5-6 → 2 (4.1, field 11)."""
    return (d6 - 1) // 2


def apply_damage(amount: int, pa: int, pv: int) -> dict[str, int]:
    """Damage taken from PA first while any remain, then from PV (README reading); neither
    goes below 0."""
    from_pa = min(pa, amount)
    from_pv = min(pv, amount - from_pa)
    return {"amount": amount, "from_pa": from_pa, "from_pv": from_pv, "pa": pa - from_pa, "pv": pv - from_pv}


def _test(score: dict[str, Any], extra: list[int], d100: DiceD100) -> dict[str, Any]:
    mods = [*score["modifiers"], *extra]
    auto = R.automatic(score["score"])
    dice = None if auto else d100()
    return R.resolve(score["score"], mods, dice=dice)


def _plain(score: int) -> dict[str, Any]:
    return {"score": score, "modifiers": []}


def plan(request: dict[str, Any]) -> dict[str, Any]:
    """The scores an exchange uses, before any roll (shown with their formulas)."""
    a, d = request["attacker"], request["defender"]
    kind = request["kind"]
    weapon = request.get("weapon")
    defence = request.get("defence", "none")
    scores: dict[str, Any] = {}
    if kind in ("force", "stealth"):
        scores["force"] = combat_score("force", a["attributes"], weapon)
    if kind == "stealth":
        scores["stealth"] = combat_score("stealth", a["attributes"], weapon)
        scores["discretion"] = _plain(a.get("dissimulation", 0))
        scores["detection"] = _plain(d.get("detection", 0))
    if kind == "ranged":
        category = request.get("category")
        if category not in RANGED:
            raise RulesError("systmj.combat.weapon_needed", formula=str(category))
        scores["ranged"] = combat_score(category, a["attributes"], weapon)
    if kind == "thrown":
        # A thrown object is no weapon card (NO_CARD): a card given is refused, as for the
        # esquive, not half used (its damage table read, its ATT ignored).
        scores["thrown"] = combat_score("thrown", a["attributes"], weapon)
    if defence != "none":
        scores["defence"] = combat_score(defence, d["attributes"], request.get("defence_card"))
    table = weapon["damage"] if weapon is not None else request.get("damage", [0, 0, 0])
    return {"scores": scores, "damage_table": list(table), "defence": defence}


def _defence_allowed(kind: str, aware: bool, counter: bool = False) -> bool:
    """Force attacks allow a defence; ranged and thrown ones only when the target could be
    aware of the shot (3.3.2, 3.3.3); a stealth hit never; a counter-attack never (3.3.2:
    « S'il échoue, son adversaire est alors en capacité de Contre-attaquer ; dans ce cas,
    aucune Défense ne sera possible. »)."""
    if counter:
        return False
    return kind == "force" or (kind in ("ranged", "thrown") and aware)


def _counter(request: dict[str, Any]) -> bool:
    """Whether the attack is the counter-attack a failed attack opened (3.3.2). It allows no
    defence: one chosen is refused (``systmj.combat.no_defence``), not silently dropped.
    Reading (ours): a failed counter-attack is ``missed`` (it opens no counter-attack in turn)."""
    counter = bool(request.get("counter", False))
    if counter and request["kind"] != "force":
        raise RulesError("systmj.combat.counter_force", kind=request["kind"])
    if counter and request.get("defence", "none") != "none":
        raise RulesError("systmj.combat.no_defence")
    return counter


def _read(request: dict[str, Any]) -> tuple[bool, dict[str, Any], str, list[int], bool]:
    """What an exchange and its odds read from the request, checked in the same order: whether
    it is a counter-attack (:func:`_counter`), its :func:`plan`, the kind of attack, the extra
    modifiers of the attack test and whether the defender is aware (default: yes)."""
    counter = _counter(request)
    p = plan(request)
    extra = [m["value"] for m in request.get("modifiers", [])]
    return counter, p, request["kind"], extra, request["defender"].get("aware", True)


def exchange(request: dict[str, Any], d100: DiceD100, d6: DiceD6) -> dict[str, Any]:
    """One attack resolved step by step with the given dice (3.3.2, 3.3.3, 4.1 field 11).

    Outcomes: ``counter_attack`` (attack in force failed, or Discrétion failed: the target
    strikes back with no defence), ``missed`` (a ranged or thrown attack failed: never a
    counter-attack), ``defended``, ``hit`` (with the damage through PA then PV)."""
    counter, p, kind, extra, aware = _read(request)
    scores = p["scores"]
    steps: list[dict[str, Any]] = []
    attack_key = {"force": "force", "ranged": "ranged", "thrown": "thrown"}.get(kind, "force")
    if kind == "stealth":
        disc = _test(scores["discretion"], [], d100)
        steps.append({"step": "discretion", **disc})
        if not disc["success"]:
            return {**p, "steps": steps, "outcome": "counter_attack", "kind_played": "stealth"}
        det = _test(scores["detection"], [], d100)
        steps.append({"step": "detection", **det})
        attack_key = "force" if det["success"] else "stealth"
    played = "stealth" if attack_key == "stealth" else ("force" if kind == "stealth" else kind)
    att = _test(scores[attack_key], extra, d100)
    steps.append({"step": "attack", "formula": attack_key, **att})
    if not att["success"]:
        outcome = "counter_attack" if played == "force" and not counter else "missed"
        return {**p, "steps": steps, "outcome": outcome, "kind_played": played}
    if "defence" in scores and _defence_allowed(played, aware, counter):
        dfn = _test(scores["defence"], [], d100)
        steps.append({"step": "defence", "formula": p["defence"], **dfn})
        if dfn["success"]:
            return {**p, "steps": steps, "outcome": "defended", "kind_played": played}
    roll = d6()
    amount = p["damage_table"][damage_band(roll)]
    dmg = apply_damage(amount, request["defender"].get("pa", 0), request["defender"].get("pv", 0))
    steps.append({"step": "damage", "d6": roll, "band": damage_band(roll), **dmg})
    return {**p, "steps": steps, "outcome": "hit", "kind_played": played, "damage": dmg}


def _success(score: dict[str, Any], extra: list[int]) -> Fraction:
    return R.test_odds(score["score"], [*score["modifiers"], *extra])["success"]


def exchange_odds(request: dict[str, Any]) -> dict[str, Any]:
    """Exact chances of an exchange before it is rolled: each outcome, the damage dealt
    and the PV lost (the tests check them against every dice combination)."""
    counter, p, kind, extra, aware = _read(request)
    scores = p["scores"]
    outcomes = {"counter_attack": Fraction(0), "missed": Fraction(0), "defended": Fraction(0), "hit": Fraction(0)}
    branches: list[tuple[Fraction, str]] = []  # (probability, attack played)
    if kind == "stealth":
        pd = _success(scores["discretion"], [])
        outcomes["counter_attack"] += 1 - pd
        pdet = _success(scores["detection"], [])
        branches = [(pd * pdet, "force"), (pd * (1 - pdet), "stealth")]
    else:
        branches = [(Fraction(1), kind)]
    steps = {}
    for weight, played in branches:
        key = "stealth" if played == "stealth" else ("force" if played == "force" else kind)
        pa = _success(scores[key], extra)
        steps[f"attack_{key}"] = pa
        outcomes["counter_attack" if played == "force" and not counter else "missed"] += weight * (1 - pa)
        if "defence" in scores and _defence_allowed(played, aware, counter):
            pdef = _success(scores["defence"], [])
            steps["defence"] = pdef
            outcomes["defended"] += weight * pa * pdef
            outcomes["hit"] += weight * pa * (1 - pdef)
        else:
            outcomes["hit"] += weight * pa
    pa_now, pv_now = request["defender"].get("pa", 0), request["defender"].get("pv", 0)
    damage: dict[int, Fraction] = {}
    pv_lost: dict[int, Fraction] = {}
    for band in range(3):
        amount = p["damage_table"][band]
        share = outcomes["hit"] / 3
        damage[amount] = damage.get(amount, Fraction(0)) + share
        lost = apply_damage(amount, pa_now, pv_now)["from_pv"]
        pv_lost[lost] = pv_lost.get(lost, Fraction(0)) + share
    miss = 1 - outcomes["hit"]
    damage[0] = damage.get(0, Fraction(0)) + miss
    pv_lost[0] = pv_lost.get(0, Fraction(0)) + miss
    return {
        **p,
        "outcomes": outcomes,
        "steps": steps,
        "damage": {k: v for k, v in sorted(damage.items()) if v},
        "pv_lost": {k: v for k, v in sorted(pv_lost.items()) if v},
    }


def initiative(fighters: list[dict[str, Any]], d100: DiceD100) -> list[dict[str, Any]]:
    """Initiative in open melee (3.3.1; README reading): every fighter tests Rapidité; critical
    successes first, then the other successes from the highest roll down, then the failures,
    who cannot attack first. Equal rolls keep the given (MJ's) order."""
    rolled = []
    for i, f in enumerate(fighters):
        r = R.resolve(f["rapidite"], [], dice=None if R.automatic(f["rapidite"]) else d100())
        rank = 0 if r["outcome"] == "critical_success" else (1 if r["success"] else 2)
        roll = r["roll"] if r["roll"] is not None else -1
        rolled.append((rank, -roll if rank < 2 else 0, i, {"id": f["id"], **r, "may_attack_first": rank < 2}))
    rolled.sort(key=lambda t: t[:3])
    return [t[3] for t in rolled]
