"""SYSTMJ learning (2.4) and experience (2.4.4): limits, DA, the roll lowered to the limit,
the quality table's XP multipliers, the gain distribution against enumeration, scores
never past 99."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api_calls import call, err, error
from tablee.systems.systmj import data as D
from tablee.systems.systmj import learning as L


@pytest.mark.parametrize(
    ("roll", "quality", "mult"),
    [
        (0, "echec_critique", 0),
        (59, "bon", 1),
        (60, "tres_bon", 2),
        (79, "tres_bon", 2),
        (80, "excellent", 3),
        (89, "excellent", 3),
        (90, "exceptionnel", 4),
        (98, "exceptionnel", 4),
        (99, "legendaire", 5),
    ],
)
def test_xp_multipliers_at_the_table_boundaries(roll, quality, mult):
    assert D.learning_quality(roll) == (quality, mult)
    r = L.resolve_learning(score=30, limit=99, roll=roll, gain_value=3)
    assert (r["quality"], r["multiplier"], r["points"], r["after"]) == (quality, mult, 3 * mult, 30 + 3 * mult)


def test_a_roll_above_the_limit_is_lowered_to_it():
    """2.4.3: "Si le jet dépasse cette limite, il est automatiquement abaissé à celle-ci"."""
    limit = L.cognitive_limit(60, 50)  # (60 + 50) / 2
    assert limit == 55
    r = L.resolve_learning(score=40, limit=limit, roll=93, gain_value=4)
    assert (r["capped"], r["lowered"], r["quality"], r["multiplier"], r["after"]) == (55, True, "bon", 1, 44)
    r = L.resolve_learning(score=40, limit=limit, roll=12, gain_value=4)
    assert (r["capped"], r["lowered"]) == (12, False)


def test_limits_self_study_and_mentor():
    assert L.cognitive_limit(61, 50) == 55  # 55.5 rounded down
    # ((60 + 50)/2 + (80 + 70)/2) / 2 = (55 + 75) / 2 = 65
    assert L.cognitive_limit(60, 50, (80, 70)) == 65
    assert L.cognitive_limit(61, 50, (80, 70)) == 65  # 65.25


def test_self_study_is_refused_below_the_da_minimum_and_a_mentor_lifts_it():
    base = {"op": "systmj.learning.odds", "intelligence": 60, "personnalite": 50, "gain": "1"}
    assert err({**base, "score": 35, "da": 2}) == "systmj.learning.da_refused"
    assert call({**base, "score": 36, "da": 2})["limit"] == 55
    # an Inapte student with a mentor at Maîtrise
    mentor = {"intelligence": 80, "personnalite": 70, "score": 51}
    r = call({**base, "score": 0, "da": 5, "mentor": mentor})
    assert (r["mode"], r["limit"]) == ("mentor", 65)
    assert err({**base, "score": 0, "da": 1, "mentor": {**mentor, "score": 50}}) == "systmj.learning.mentor_level"
    assert err({**base, "score": 99, "da": 1, "mentor": mentor}) == "systmj.learning.at_max"


def oracle(score, limit, gain):
    faces = [1] if gain == "1" else range(1, D.LEARNING_GAINS[gain] + 1)
    counts = Counter()
    for roll, face in product(range(100), faces):
        capped = roll if roll < limit else limit
        mult = {0: 0}.get(
            capped, 1 if capped < 60 else 2 if capped < 80 else 3 if capped < 90 else 4 if capped < 99 else 5
        )
        counts[min(99, score + face * mult) - score] += 1
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize("gain", list(D.LEARNING_GAINS))
@pytest.mark.parametrize(("score", "limit"), [(0, 99), (10, 62), (36, 55), (90, 99), (97, 85), (50, 0), (20, 60)])
def test_gain_distribution_matches_enumeration(gain, score, limit):
    assert L.gain_distribution(score, limit, gain) == oracle(score, limit, gain)


def test_learning_odds_door_and_roll_agree():
    req = {"op": "systmj.learning.odds", "score": 40, "intelligence": 60, "personnalite": 50, "da": 2, "gain": "1d4"}
    r = call(req)
    points = {p["points"]: p["fraction"] for p in r["points"]}
    # limit 55: 00 gives nothing, 1..99 all ×1 → 1d4 uniform on 99/100
    assert points == {0: "1/100", 1: "99/400", 2: "99/400", 3: "99/400", 4: "99/400"}
    seen = set()
    for seed in range(60):
        roll = call({**req, "op": "systmj.learning.roll", "seed": seed})
        assert roll["after"] - roll["before"] in points
        assert roll["capped"] == min(roll["roll"], 55) and roll["roll"] == 10 * roll["dice"][0] + roll["dice"][1]
        seen.add(roll["after"] - roll["before"])
    assert seen >= {1, 2, 3, 4}  # 0 needs a 00 (1 in 100)


@given(
    st.integers(0, 98),
    st.integers(0, 99),
    st.integers(0, 99),
    st.sampled_from(list(D.LEARNING_GAINS)),
    st.integers(0, 2**53 - 1),
)
def test_learning_keeps_scores_in_range_and_replays(score, intelligence, personnalite, gain, seed):
    req = {
        "op": "systmj.learning.roll",
        "score": score,
        "intelligence": intelligence,
        "personnalite": personnalite,
        "da": 1,
        "gain": gain,
        "seed": seed,
        "mentor": {"intelligence": 99, "personnalite": 99, "score": 99},
    }
    r = call(req)
    assert 0 <= r["after"] <= 99 and r["after"] >= score
    assert r == call(dict(req))


@given(
    st.lists(st.tuples(st.integers(0, 99), st.sampled_from(list(D.XP_DICE))), min_size=1, max_size=10),
    st.integers(0, 99),
    st.integers(1, 10),
    st.integers(0, 2**53 - 1),
)
def test_xp_keeps_scores_in_range_and_replays(skills, attribute, gain, seed):
    grants = [{"target": "skill", "key": f"sp-k{i}", "score": s, "die": d} for i, (s, d) in enumerate(skills)]
    grants.append(
        {"target": "attribute", "key": "personnalite", "score": attribute, "gain": gain, "reason": "fin de campagne"}
    )
    req = {"op": "systmj.review.grant", "character": "c1", "session": 1, "grants": grants, "seed": seed}
    r = call(req)
    for res, g in zip(r["results"], grants, strict=True):
        assert 0 <= res["after"] <= 99 and res["after"] == min(99, g["score"] + res["points"])
        if g["target"] == "skill":
            assert 1 <= res["points"] <= D.XP_DICE[g["die"]]
    assert r == call(dict(req))


def test_xp_plus_one_and_a_die_and_the_attribute_example():
    grants = [
        {"target": "skill", "key": "nage", "score": 40, "die": "1"},
        {"target": "skill", "key": "detection", "score": 98, "die": "1d6"},
        {
            "target": "attribute",
            "key": "personnalite",
            "score": 50,
            "gain": 5,
            "reason": "Fin de campagne : maturité émotionnelle",
        },
    ]
    r = call({"op": "systmj.review.grant", "character": "c1", "session": 2, "grants": grants, "seed": 5})
    nage, detection, per = r["results"]
    assert (nage["points"], nage["after"], nage["rolled"]) == (1, 41, None)
    assert detection["after"] == 99 and 1 <= detection["rolled"] <= 6  # capped at 99
    assert (per["after"], per["reason"]) == (55, "Fin de campagne : maturité émotionnelle")
    assert [rec["kind"] for rec in r["records"]] == ["xp", "xp", "attribute"]
    assert r["records"][2]["note"] == "Fin de campagne : maturité émotionnelle"


def test_attribute_gain_needs_a_reason_and_no_duplicates():
    g = {"target": "attribute", "key": "force", "score": 50, "gain": 1, "reason": "   "}
    assert (
        err({"op": "systmj.review.grant", "character": "c", "session": 1, "grants": [g], "seed": 1})
        == "systmj.xp.reason_missing"
    )
    s = {"target": "skill", "key": "nage", "score": 5, "die": "1"}
    assert (
        err({"op": "systmj.review.grant", "character": "c", "session": 1, "grants": [s, s], "seed": 1})
        == "systmj.review.duplicate"
    )


def test_a_second_learning_roll_for_the_same_skill_in_the_same_session_is_refused():
    """2.4.1: one learning roll for one period of study (the session): the same skill again in
    the same session is refused with its own code; another skill, or the next session, is not."""
    base = {"score": 30, "intelligence": 60, "personnalite": 60, "da": 1, "gain": "1d4"}
    subject = {"character": "c1", "target": "skill", "key": "lire_ecrire", "session": 3}
    learned = [{"session": 3, "key": "lire_ecrire"}]
    for extra in ({"op": "systmj.learning.roll", "seed": 7}, {"op": "systmj.learning.odds"}):
        refused = error({**extra, **base, "subject": subject, "learned": learned})
        assert refused["code"] == "systmj.learning.once_per_session"
        assert refused["params"]["session"] == 3
        call({**extra, **base, "subject": {**subject, "key": "histoire"}, "learned": learned})
        call({**extra, **base, "subject": {**subject, "session": 4}, "learned": learned})
    first = call({"op": "systmj.learning.roll", "seed": 7, **base, "subject": subject, "learned": []})
    assert first["after"] >= 30
