"""Every worked example of 002_61483667e16cef6b.txt, with the dice forced to the example's.

Readings: rules/README.md (Point Zéro): the first example's "Moyenne (15)" is Difficile.
"""

from __future__ import annotations

import pytest

from tablee.api import handle
from tablee.systems.pointzero import resolution as R


def resolve(test: dict, dice: list[int], **extra) -> dict:
    r = handle({"op": "pointzero.test.resolve", "test": test, "dice": dice, **extra})
    assert "error" not in r, r
    return r


def test_mira_jump_fails_by_eleven():
    """"test de Compétence": Acrobaties (3) / Vigueur (3), difficulty 15, 1, 1 and 2 = 4."""
    r = resolve(
        {"kind": "skill", "skill": 3, "attribute": 3, "difficulty": "difficile",
         "skill_name": "Acrobaties", "attribute_code": "VIG"},
        [1, 1, 2],
    )
    res = r["result"]
    assert r["notation"] == "Acrobaties/VIG[15]"
    assert (res["total"], res["success"], res["margin"], res["critical"]) == (4, False, -11, None)
    assert [d["kept"] for d in res["dice"]] == [True, True, True]


def test_cornice_keeps_every_die_and_adds_one_per_point_of_difference():
    """Acrobaties (3) / Adresse (4) [10]: 2, 3, 6 + 1 = 12, a success."""
    r = resolve({"kind": "skill", "skill": 3, "attribute": 4, "difficulty": "moyen"}, [2, 3, 6])
    assert r["plan"]["dice"] == 3 and r["plan"]["keep"] == 3 and r["plan"]["difference_bonus"] == 1
    assert (r["result"]["total"], r["result"]["success"], r["result"]["margin"]) == (12, True, 2)


def test_beam_attribute_test_sums_every_die():
    """"Test d'Attribut": Vigueur (3) [10], 2, 4 and 6 = 12, a success; notation VIG[10]."""
    r = resolve({"kind": "attribute", "attribute": 3, "difficulty": 10, "attribute_code": "VIG"}, [2, 4, 6])
    assert r["notation"] == "VIG[10]"
    assert (r["result"]["total"], r["result"]["success"], r["result"]["margin"]) == (12, True, 2)


def test_infiltration_opposition_the_guard_wins_14_to_11():
    """"Test en opposition": Mira's Discrétion/ADR (5/4) totals 11, the guard's Vigilance/PER 14."""
    mira = {"kind": "skill", "skill": 5, "attribute": 4, "skill_name": "Discrétion", "attribute_code": "ADR"}
    guard = {"kind": "skill", "skill": 3, "attribute": 3, "skill_name": "Vigilance", "attribute_code": "PER"}
    r = handle({"op": "pointzero.opposition.resolve", "a": mira, "b": guard,
                "dice_a": [1, 2, 3, 3, 3], "dice_b": [4, 4, 6]})
    assert (r["a"]["result"]["total"], r["b"]["result"]["total"]) == (11, 14)
    assert (r["winner"], r["reason"], r["margin"]) == ("b", "total", 3)
    assert r["a"]["notation"] == "Discrétion/ADR" and r["b"]["notation"] == "Vigilance/PER"
    assert [d["kept"] for d in r["a"]["result"]["dice"]] == [False, True, True, True, True]


LOCK = {"kind": "skill", "skill": 6, "attribute": 4, "difficulty": "difficile",
        "modifiers": ["legere_defavorable"], "skill_name": "Mécanique", "attribute_code": "ADR"}


def test_lock_one_die_sacrificed_16_plus_2_beats_17():
    """"sURPASSEMENT": Mécanique 6 / Adresse 4 [17], one die sacrificed, 1 3 3 4 6 keep four
    = 16 + 2 = 18, a success; at most two dice could have been sacrificed (+4)."""
    r = resolve({**LOCK, "sacrifice": 1}, [1, 3, 3, 4, 6])
    res = r["result"]
    assert r["notation"] == "Mécanique/ADR[17]"
    assert r["plan"]["dice"] == 5 and r["plan"]["keep"] == 4
    assert (res["kept_sum"], res["surpassement_bonus"], res["total"]) == (16, 2, 18)
    assert res["success"] is True and res["margin"] == 1
    assert [d["value"] for d in res["dice"] if not d["kept"]] == [1]
    odds = handle({"op": "pointzero.test.odds", "test": {**LOCK, "sacrifice": 1}})
    assert odds["surpassement"]["allowed"] == [0, 1, 2]
    assert odds["surpassement"]["refused"][0]["count"] == 3
    assert [c["bonus"] for c in odds["comparison"]] == [0, 2, 4]


def test_hiding_place_four_ones_is_a_critical_failure():
    """Discrétion (5) / Adresse (4) [15], one die sacrificed, four 1s: total 6, critical failure."""
    r = resolve({"kind": "skill", "skill": 5, "attribute": 4, "difficulty": 15, "sacrifice": 1}, [1, 1, 1, 1])
    res = r["result"]
    assert (res["total"], res["success"], res["critical"]) == (6, False, "failure")


def test_darkness_modifier_15_plus_2_is_17_and_total_darkness_plus_5():
    """"Modificateurs de difficulté": difficile (15) + 2 in the half-light = 17; + 5 in darkness."""
    assert R.difficulty_value("difficile", [2]) == 17
    assert R.difficulty_value("difficile", [5]) == 20
    assert R.difficulty_value("difficile", [2, 2, -5]) == 14  # modifiers stack


def test_notation_of_the_text():
    """"Acrobaties/ADR[15]" and "VIG[10]" (the text's own notation examples)."""
    assert R.notation("skill", "ADR", 15, "Acrobaties") == "Acrobaties/ADR[15]"
    assert R.notation("attribute", "VIG", 10) == "VIG[10]"


@pytest.mark.parametrize(
    ("test", "dice", "critical", "success"),
    [
        ({"kind": "skill", "skill": 3, "attribute": 2, "difficulty": 12}, [6, 6, 6], "success", True),
        ({"kind": "skill", "skill": 3, "attribute": 2, "difficulty": 13}, [6, 6, 6], None, False),
        ({"kind": "skill", "skill": 3, "attribute": 2, "difficulty": 12}, [6, 6, 5], None, True),
        ({"kind": "attribute", "attribute": 2, "difficulty": 2}, [1, 1], "failure", False),
        ({"kind": "skill", "skill": 4, "attribute": 2, "difficulty": 10, "sacrifice": 2}, [6, 6], "success", True),
    ],
)
def test_criticals_read_every_die_rolled(test, dice, critical, success):
    """"Réussites et échecs critiques"; README: every die rolled (after sacrifices); a
    critical success needs a success; a critical failure is a failure (our reading)."""
    res = resolve(test, dice)["result"]
    assert (res["critical"], res["success"]) == (critical, success)


def test_skill_at_zero_offers_the_attribute_test():
    """README: a skill at 0 cannot be rolled as a skill test; the attribute test is offered."""
    r = handle({"op": "pointzero.test.odds", "test": {"kind": "skill", "skill": 0, "attribute": 3, "difficulty": 10}})
    assert r["error"]["code"] == "pointzero.test.skill_zero"
    assert r["error"]["params"] == {"attribute": 3}


def test_meticuleux_chooses_the_kept_dice():
    """README: the holder of Méticuleux picks which dice to keep; others keep the best."""
    test = {"kind": "skill", "skill": 4, "attribute": 2, "difficulty": 5}
    best = resolve(test, [1, 3, 5, 6])["result"]
    assert best["kept"] == [2, 3] and best["total"] == 11
    chosen = resolve({**test, "meticuleux": True}, [1, 3, 5, 6], keep=[0, 1])["result"]
    assert chosen["kept"] == [0, 1] and chosen["total"] == 4 and chosen["success"] is False
    refused = handle({"op": "pointzero.test.resolve", "test": test, "dice": [1, 3, 5, 6], "keep": [0, 1]})
    assert refused["error"]["code"] == "pointzero.test.not_meticuleux"
    wrong = handle({"op": "pointzero.test.resolve", "test": {**test, "meticuleux": True},
                    "dice": [1, 3, 5, 6], "keep": [0]})
    assert wrong["error"]["code"] == "pointzero.test.keep_invalid"


def test_tension_die_adds_two_dice_that_may_be_sacrificed():
    """README (Jauge de Tension): +2 dice on a skill test, sacrificeable by the usual rules."""
    test = {"kind": "skill", "skill": 4, "attribute": 4, "difficulty": 15, "tension": True}
    r = handle({"op": "pointzero.test.odds", "test": test})
    assert r["plan"]["dice"] == 6 and r["plan"]["keep"] == 4
    assert r["surpassement"]["allowed"] == [0, 1, 2]
    crit = handle({"op": "pointzero.test.odds", "test": {"kind": "skill", "skill": 4, "attribute": 4, "difficulty": 15,
                                                         "tension": True, "critical": True, "sacrifice": 1}})
    assert crit["surpassement"]["allowed"] == [0]
    assert crit["sacrifice_refused"]["code"] == "pointzero.surpassement.tension_critique"
    assert crit["odds"] is None
