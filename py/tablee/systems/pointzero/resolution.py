"""Point Zéro tests: the plan of a test, its resolution from given dice, exact odds, oppositions.

Source: 002_61483667e16cef6b.txt, "test de Compétence", "Test d'Attribut", "Test en
opposition", "Modificateurs de difficulté", "sURPASSEMENT", "Réussites et échecs critiques".
Readings (rules/README.md, Point Zéro):

* roll skill-level d6 and keep attribute-level best; when the skill is lower than the
  attribute, keep every die rolled and add +1 per point of difference;
* critical success: the test succeeds and every die rolled (after sacrifices) shows 6;
  critical failure: every die rolled shows 1;
* a skill at 0 cannot be rolled as a skill test (the attribute test is offered instead);
* Jauge de Tension: a Tension point gives +2 dice on a skill test, declared before the
  roll; those dice may be sacrificed by the usual rules; no Surpassement in Tension critique;
* opposition ties: higher skill level, then higher attribute level, then a perfect tie.

Readings of ours (where the text and the README are silent), written here once:

* **Dice rolled vs attribute.** The pool is skill level + 2 per Tension point − dice
  sacrificed; the dice kept are the attribute level. When the pool is smaller than the
  attribute, every die is kept. The bonus is a **table setting** (:data:`TENSION_RULES`),
  because the text ("Si le niveau de la Compétence est inférieur à celui de l'Attribut du
  Test, chaque point d'écart octroie un bonus de +1 sur le total du jet de dé") predates
  the Tension dice and players read it two ways. ``missing_dice`` (the default): each
  missing die is +1, the difference counted against the dice actually rolled, so a
  Tension die fills a missing die and never makes the bonus grow (Acrobaties 2 / ADR 4
  with a Tension point: 4 dice, +0). ``difference``: the literal reading, +1 per point
  between the skill and the attribute levels whatever the Tension dice (the same test:
  4 dice, +2). With no Tension die both are exactly the text's rule (Mira's cornice:
  Acrobaties 3 / ADR 4, three dice + 1).
* **A critical failure is a failure**, even when the bonuses bring the total up to the
  difficulty (an "échec" critique). A critical success needs the test to succeed (README).
* **Surpassement** is for skill tests only (the text: "améliorer le résultat d'un Test de
  Compétence"); an attribute test takes no Tension dice either (README: "+2 dice on a
  skill test").
* **Difficulty** is the ladder value (or a number the MJ gives) plus the stacked
  modifiers, not clamped: a difficulty at or below the lowest total succeeds unless the
  roll is a critical failure.
* **Tension critique is read when the test is declared**: the Tension point used for
  this very test does not take back the Surpassement already declared with it (the
  player cannot know the hidden threshold); it binds the next tests.
* **Opposition**: an attribute test counts as skill level 0 for the tie-break; with no
  difficulty there is no success, so no critical either (the result shows the dice).
  "Deux personnages (ou plus)": with three or more sides the highest total wins; sides
  tied on the highest total are split by skill level, then attribute level; two or more
  still level is a perfect tie among them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...errors import RulesError, declare
from ...odds import fraction_text, percent
from .data import DIFFICULTIES, SURPASSEMENT_BONUS, TENSION_DICE

if TYPE_CHECKING:  # icepool is imported by the odds functions only (issue 14: lazy loading)
    import icepool

__all__ = [
    "TENSION_RULES",
    "Plan",
    "difficulty_value",
    "notation",
    "opposition_odds",
    "opposition_odds_many",
    "plan_test",
    "prob",
    "resolve",
    "resolve_opposition",
    "resolve_opposition_many",
    "roll_dice",
    "surpassement_options",
    "test_odds",
    "total_die",
]

declare(
    "pointzero.test.attribute_zero",
    "pointzero.test.skill_zero",
    "pointzero.test.tension_attribute",
    "pointzero.test.dice_count",
    "pointzero.test.keep_invalid",
    "pointzero.test.not_meticuleux",
    "pointzero.surpassement.attribute_test",
    "pointzero.surpassement.tension_critique",
    "pointzero.surpassement.too_many",
    "pointzero.surpassement.below_attribute",
)

#: The readings a table may choose for Tension dice when the skill is below the attribute
#: (module docstring, "Dice rolled vs attribute"); the first is the default.
TENSION_RULES = ("missing_dice", "difference")



@dataclass(frozen=True)
class Plan:
    """What a declared test rolls: ``dice`` d6, ``keep`` of them kept, flat bonuses."""

    kind: str  # "skill" | "attribute"
    skill: int  # the skill level (0 for an attribute test)
    attribute: int
    tension: bool
    sacrifice: int
    dice: int
    keep: int
    difference_bonus: int
    surpassement_bonus: int

    @property
    def bonus(self) -> int:
        return self.difference_bonus + self.surpassement_bonus

    @property
    def min_total(self) -> int:
        return self.keep + self.bonus

    @property
    def max_total(self) -> int:
        return 6 * self.keep + self.bonus

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "skill": self.skill,
            "attribute": self.attribute,
            "tension": self.tension,
            "tension_dice": TENSION_DICE if self.tension else 0,
            "sacrifice": self.sacrifice,
            "dice": self.dice,
            "keep": self.keep,
            "difference_bonus": self.difference_bonus,
            "surpassement_bonus": self.surpassement_bonus,
            "bonus": self.bonus,
        }


def prob(p: Fraction) -> dict[str, Any]:
    """A probability as JSON: the exact fraction and a display percent."""
    return {"p": fraction_text(p), "percent": percent(p)}


def difficulty_value(difficulty: str | int, modifiers: list[int] | tuple[int, ...] = ()) -> int:
    """The difficulty of a test: a ladder row or a number, plus stacked modifiers.

    Source: "test de Compétence" (la difficulté de base … puis majorée ou minorée),
    "Modificateurs de difficulté" (±2 légère, ±5 forte, cumulatifs); the darkness
    example: Difficile 15 + 2 = 17."""
    base = DIFFICULTIES[difficulty] if isinstance(difficulty, str) else int(difficulty)
    return base + sum(modifiers)


def notation(kind: str, attribute_code: str, difficulty: int | None, skill_name: str | None = None) -> str:
    """The text's notation: ``Compétence/ATTR[Difficulté]`` or ``ATTR[Difficulté]``; an
    opposition has no difficulty (``Discrétion/ADR``). Source: "test de Compétence" (NB),
    "Test d'Attribut"."""
    head = f"{skill_name}/{attribute_code}" if kind == "skill" and skill_name else attribute_code
    return head if difficulty is None else f"{head}[{difficulty}]"


def pool_size(kind: str, skill: int, tension: bool) -> int:
    """Dice of the test before any sacrifice: skill (+2 with a Tension point) or attribute."""
    return skill + (TENSION_DICE if tension else 0) if kind == "skill" else 0


def _surpassement_reasons(kind: str, dice: int, attribute: int, count: int, critical: bool) -> list[dict[str, Any]]:
    """Why ``count`` sacrificed dice are refused (empty: allowed). Source: "sURPASSEMENT"."""
    if count == 0:
        return []
    if kind != "skill":
        return [{"code": "pointzero.surpassement.attribute_test", "params": {}}]
    reasons = []
    if critical:
        reasons.append({"code": "pointzero.surpassement.tension_critique", "params": {}})
    if count > dice // 2:
        reasons.append({"code": "pointzero.surpassement.too_many", "params": {"max": dice // 2, "dice": dice}})
    if dice - count < attribute:
        reasons.append(
            {
                "code": "pointzero.surpassement.below_attribute",
                "params": {"remaining": dice - count, "attribute": attribute},
            }
        )
    return reasons


def surpassement_options(kind: str, dice: int, attribute: int, *, critical: bool = False) -> dict[str, Any]:
    """The sacrifices the rules allow for a test of ``dice`` dice (Tension dice included).

    Source: "sURPASSEMENT": at most half the dice (rounded down), the dice left at least
    the attribute level, none during a Tension critique; +2 per die. Returns ``allowed``
    (0 always, then every allowed count) and ``refused``: each count from 1 to ``dice``
    that is not allowed, with the reasons (error codes and params)."""
    allowed = [0]
    refused = []
    for count in range(1, dice + 1):
        reasons = _surpassement_reasons(kind, dice, attribute, count, critical)
        if reasons:
            refused.append({"count": count, "reasons": reasons})
        else:
            allowed.append(count)
    return {"allowed": allowed, "max": allowed[-1], "refused": refused}


def plan_test(
    kind: str,
    attribute: int,
    skill: int = 0,
    *,
    sacrifice: int = 0,
    tension: bool = False,
    critical: bool = False,
    tension_rule: str = TENSION_RULES[0],
) -> Plan:
    """Plan a declared test, or raise the rule it breaks.

    Source: "test de Compétence" (skill-level d6, keep attribute-level best; "chaque point
    d'écart octroie un bonus de +1"), "Test d'Attribut" (attribute-level d6, sum all),
    "sURPASSEMENT"; readings: see the module docstring (``tension_rule``: the table's
    reading of Tension dice below the attribute)."""
    if attribute < 1:
        raise RulesError("pointzero.test.attribute_zero")
    if kind == "attribute":
        if tension:
            raise RulesError("pointzero.test.tension_attribute")
        if sacrifice:
            raise RulesError("pointzero.surpassement.attribute_test")
        return Plan("attribute", 0, attribute, False, 0, attribute, attribute, 0, 0)
    if skill < 1:
        raise RulesError("pointzero.test.skill_zero", attribute=attribute)
    dice = pool_size(kind, skill, tension)
    reasons = _surpassement_reasons(kind, dice, attribute, sacrifice, critical)
    if reasons:
        raise RulesError(reasons[0]["code"], **reasons[0]["params"])
    rolled = dice - sacrifice
    keep = min(rolled, attribute)
    difference = max(0, attribute - skill) if tension_rule == "difference" else attribute - keep
    return Plan(
        "skill",
        skill,
        attribute,
        tension,
        sacrifice,
        rolled,
        keep,
        difference,
        SURPASSEMENT_BONUS * sacrifice,
    )


def roll_dice(plan: Plan, rng: random.Random) -> list[int]:
    """The dice of a test, rolled with the request's RNG."""
    return [rng.randrange(6) + 1 for _ in range(plan.dice)]


def _best(dice: list[int], keep: int) -> list[int]:
    """Indices of the ``keep`` best dice (the earliest of equal values first)."""
    order = sorted(range(len(dice)), key=lambda i: (-dice[i], i))
    return sorted(order[:keep])


def resolve(
    plan: Plan,
    dice: list[int],
    difficulty: int | None,
    *,
    keep: list[int] | None = None,
    meticuleux: bool = False,
) -> dict[str, Any]:
    """Resolve a test from its dice.

    The best ``plan.keep`` dice are kept unless the holder of the atout Méticuleux names
    the kept dice (``keep``: exactly ``plan.keep`` distinct indices). Total = kept dice +
    difference bonus + surpassement bonus; success when total ≥ difficulty; margin =
    total − difficulty; criticals as in the module docstring. ``difficulty`` None is an
    opposition test (no success, no critical). Source: "test de Compétence",
    "sURPASSEMENT", "Réussites et échecs critiques"; README (Méticuleux, criticals)."""
    if len(dice) != plan.dice:
        raise RulesError("pointzero.test.dice_count", expected=plan.dice, given=len(dice))
    best = _best(dice, plan.keep)
    if keep is None:
        kept = best
    else:
        if sorted(set(keep)) != sorted(keep) or len(keep) != plan.keep or any(not 0 <= i < plan.dice for i in keep):
            raise RulesError("pointzero.test.keep_invalid", expected=plan.keep)
        kept = sorted(keep)
        if kept != best and sorted(dice[i] for i in kept) != sorted(dice[i] for i in best) and not meticuleux:
            raise RulesError("pointzero.test.not_meticuleux")
    kept_sum = sum(dice[i] for i in kept)
    total = kept_sum + plan.bonus
    all_six = all(d == 6 for d in dice)
    all_one = all(d == 1 for d in dice)
    out: dict[str, Any] = {
        "dice": [{"value": d, "kept": i in kept} for i, d in enumerate(dice)],
        "kept": kept,
        "kept_sum": kept_sum,
        "difference_bonus": plan.difference_bonus,
        "surpassement_bonus": plan.surpassement_bonus,
        "total": total,
        "difficulty": difficulty,
        "all_six": all_six,
        "all_one": all_one,
    }
    if difficulty is None:
        out.update(success=None, margin=None, critical=None)
        return out
    success = total >= difficulty and not all_one
    critical = "failure" if all_one else "success" if success and all_six else None
    out.update(success=success, margin=total - difficulty, critical=critical)
    return out


def total_die(plan: Plan) -> icepool.Die:
    """The exact distribution of a test's total (icepool): the ``keep`` highest of
    ``dice`` d6, plus the flat bonuses."""
    import icepool

    if plan.keep < plan.dice:
        die = icepool.d6.pool(plan.dice).highest(plan.keep).sum()
    else:
        die = plan.dice @ icepool.d6
    return die + plan.bonus


def _distribution(die: icepool.Die) -> list[tuple[int, Fraction]]:
    den = die.denominator()
    return [(int(o), Fraction(q, den)) for o, q in sorted(die.items()) if q]


def test_odds(plan: Plan, difficulty: int) -> dict[str, Any]:
    """Exact odds of a test: success, failure, each critical, the margin's distribution.

    Success excludes the critical failure (every die 1: one outcome in 6^dice); a critical
    success is the one all-6 outcome when its total reaches the difficulty."""
    dist = _distribution(total_die(plan))
    single = Fraction(1, 6**plan.dice)
    reach = sum((p for t, p in dist if t >= difficulty), Fraction(0))
    crit_fail = single
    success = reach - (single if plan.min_total >= difficulty else 0)
    crit_success = single if plan.max_total >= difficulty else Fraction(0)
    mean = sum((t * p for t, p in dist), Fraction(0))
    return {
        "difficulty": difficulty,
        "success": prob(success),
        "failure": prob(1 - success),
        "critical_success": prob(crit_success),
        "critical_failure": prob(crit_fail),
        "mean_total": fraction_text(mean),
        "mean_total_value": round(float(mean), 4),
        "min_total": plan.min_total,
        "max_total": plan.max_total,
        "margin": [{"margin": t - difficulty, "total": t, **prob(p)} for t, p in dist],
    }


def resolve_opposition(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Who wins an opposition: ``a``/``b`` are ``{"total", "skill", "attribute"}``.

    Source: "Test en opposition": the higher result wins; on a tie, the higher skill level,
    then the higher attribute level; else a perfect tie (``winner`` None). The margin is
    the winner's result minus the loser's."""
    if a["total"] != b["total"]:
        winner, reason = ("a" if a["total"] > b["total"] else "b"), "total"
    elif a["skill"] != b["skill"]:
        winner, reason = ("a" if a["skill"] > b["skill"] else "b"), "skill"
    elif a["attribute"] != b["attribute"]:
        winner, reason = ("a" if a["attribute"] > b["attribute"] else "b"), "attribute"
    else:
        winner, reason = None, "perfect_tie"
    return {"winner": winner, "reason": reason, "margin": abs(a["total"] - b["total"])}


def opposition_odds(plan_a: Plan, plan_b: Plan) -> dict[str, Any]:
    """Exact odds of an opposition, tie-breaks included, by combining both exact totals.

    ``a_wins``/``b_wins``/``perfect_tie`` sum to 1; ``tie_on_total`` is the chance the
    totals are equal (settled by the levels: ``tie_goes_to``). ``eventual`` is what
    happens when a winner must be named (a perfect tie re-rolls both tests until one wins:
    a/(a+b)); None when every roll is a perfect tie (it cannot be settled)."""
    da, db = _distribution(total_die(plan_a)), _distribution(total_die(plan_b))
    above = below = equal = Fraction(0)
    for ta, pa in da:
        for tb, pb in db:
            if ta > tb:
                above += pa * pb
            elif ta < tb:
                below += pa * pb
            else:
                equal += pa * pb
    tie = resolve_opposition(
        {"total": 0, "skill": plan_a.skill, "attribute": plan_a.attribute},
        {"total": 0, "skill": plan_b.skill, "attribute": plan_b.attribute},
    )
    a_wins = above + (equal if tie["winner"] == "a" else 0)
    b_wins = below + (equal if tie["winner"] == "b" else 0)
    perfect = equal if tie["winner"] is None else Fraction(0)
    decided = a_wins + b_wins
    return {
        "a_wins": prob(a_wins),
        "b_wins": prob(b_wins),
        "perfect_tie": prob(perfect),
        "tie_on_total": prob(equal),
        "tie_goes_to": tie["winner"],
        "tie_reason": tie["reason"],
        "eventual": (
            {"a_wins": prob(a_wins / decided), "b_wins": prob(b_wins / decided)} if decided else None
        ),
    }


def _key(side: dict[str, Any]) -> tuple[int, int]:
    return (side["skill"], side["attribute"])


def resolve_opposition_many(sides: list[dict[str, Any]]) -> dict[str, Any]:
    """Who wins an opposition of any number of sides, each ``{"total", "skill", "attribute"}``.

    Source: "Test en opposition": "Deux personnages (ou plus) [...] le vainqueur est celui
    qui obtient le résultat le plus élevé"; "En cas d'égalité sur les résultats, le
    vainqueur est celui qui possède le niveau de Compétence le plus élevé. S'il y'a encore
    égalité, les personnages sont départagés sur le niveau de leur Attribut. A ce stade, si
    personne ne remporte le Test, c'est une égalité parfaite." Only the sides tied on the
    highest total are split. ``winner`` is the index (None: a perfect tie between the
    sides in ``tied``); ``reason`` as :func:`resolve_opposition`; ``margin`` is the
    winner's total minus the next best total."""
    top = max(s["total"] for s in sides)
    contenders = [i for i, s in enumerate(sides) if s["total"] == top]
    reason = "total"
    if len(contenders) > 1:
        reason = "skill"
        best = max(sides[i]["skill"] for i in contenders)
        contenders = [i for i in contenders if sides[i]["skill"] == best]
    if len(contenders) > 1:
        reason = "attribute"
        best = max(sides[i]["attribute"] for i in contenders)
        contenders = [i for i in contenders if sides[i]["attribute"] == best]
    others = sorted((s["total"] for s in sides), reverse=True)
    margin = top - others[1] if len(others) > 1 else 0
    if len(contenders) > 1:
        return {"winner": None, "reason": "perfect_tie", "tied": contenders, "margin": margin}
    return {"winner": contenders[0], "reason": reason, "tied": [], "margin": margin}


def opposition_odds_many(plans: list[Plan]) -> dict[str, Any]:
    """Exact odds that each side of an opposition wins, the tie-breaks included.

    Side ``i`` wins when every other side ``j`` has a lower total, or the same total and a
    lower (skill, attribute) key (:func:`resolve_opposition_many`); the totals are
    independent, so P(i wins) = Σ_t P(Xi = t) · Π_j [P(Xj < t) + P(Xj = t)·(key_j < key_i)].
    ``perfect_tie`` is what is left. ``eventual``: when a winner must be named, a perfect
    tie is a new opposition of the same sides ("les adversaires sont départagés par un
    nouveau Test en opposition"): each side's share of the decided outcomes (None when no
    roll is ever decided). Reading (ours): the new test is between all the sides again."""
    dists = [dict(_distribution(total_die(p))) for p in plans]
    keys = [(p.skill, p.attribute) for p in plans]
    wins: list[Fraction] = []
    for i, di in enumerate(dists):
        total = Fraction(0)
        for t, pt in di.items():
            term = pt
            for j, dj in enumerate(dists):
                if j == i:
                    continue
                below = sum((q for u, q in dj.items() if u < t), Fraction(0))
                if keys[j] < keys[i]:
                    below += dj.get(t, Fraction(0))
                term *= below
                if not term:
                    break
            total += term
        wins.append(total)
    decided = sum(wins, Fraction(0))
    return {
        "wins": [prob(w) for w in wins],
        "perfect_tie": prob(1 - decided),
        "eventual": [prob(w / decided) for w in wins] if decided else None,
    }
