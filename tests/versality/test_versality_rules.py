"""Versality rules: the text's arithmetic and every README reading, as tests."""

import random
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api_calls import versality_character
from tablee.systems.versality import character as C
from tablee.systems.versality import rules as R
from tablee.systems.versality import state as S


def test_deck_arithmetic_of_the_text():
    base = R.ledger(R.BASE_DECK)
    assert base["success_points"] == 7
    full = R.ledger(card["kind"] for card in versality_character()["deck"])
    assert full["success_points"] == 7 + 5 == 12
    assert full["failure_required"] == 6 and full["failure_value"] == 6 and full["gap"] == 0
    assert C.check_creation(versality_character()) == []


def test_creation_problems_have_fields_and_codes():
    c = versality_character(characteristics={"physique": 3, "mental": 1, "personnalite": 0})
    c["skills"]["traquer"] = 4
    c["skills"]["combattre"] = 1
    c["powers"][0]["approved"] = False
    codes = {(p.field, p.code) for p in C.check_creation(c)}
    assert codes == {
        ("characteristics", "versality.char.characteristic_points"),
        ("skills.traquer", "versality.char.skill_max"),
        ("powers.0.approved", "versality.char.power_unapproved"),
    }
    c = versality_character(forces=["a", "b", "c"], faiblesses=["x"])
    assert [p.code for p in C.check_creation(c)] == ["versality.char.traits_count"]
    assert C.check_creation(versality_character(forces=["a", "b", "c"], faiblesses=["x", "y"])) == []


def test_zero_characteristics_allowed():
    c = versality_character(characteristics={"physique": 3, "mental": 0, "personnalite": 0})
    assert C.check_creation(c) == []


def _with_failures(*kinds):
    c = versality_character()
    c["deck"] = [card for card in c["deck"] if card["kind"] not in R.FAILURE_VALUES]
    c["deck"] += [{"kind": k, "origin": "creation"} for k in kinds]
    return c


def test_failure_compensation_choices():
    # 6 points: two non-mais (exact), non-et + debt 1, non-et + advance non-mais, non-mais + non-et? no.
    assert C.check_deck(_with_failures("non-mais", "non-mais")) == []
    debt = _with_failures("non-et")
    assert C.check_deck(debt) == [] and R.ledger(c["kind"] for c in debt["deck"])["debt"] == 1
    advance = _with_failures("non-et", "non-mais")
    assert C.check_deck(advance) == [] and R.ledger(c["kind"] for c in advance["deck"])["credit"] == 2
    # one non-mais leaves 3: a card is still affordable, so the player must continue
    assert {p.code for p in C.check_deck(_with_failures("non-mais"))} == {
        "versality.deck.failure_invalid",
        "versality.deck.compensation_due",
    }
    # three non-mais: the third one was not needed
    assert [p.code for p in C.check_deck(_with_failures("non-mais", "non-mais", "non-mais"))] == [
        "versality.deck.failure_invalid"
    ]


def test_cumulative_compensation_reading():
    # README: failure cards' total must reach ceil(success / 2), cumulatively.
    assert R.ledger(["oui-et"] * 3 + ["non-et"])["gap"] == 0  # ceil(9/2) = 5
    assert R.ledger(["oui-et", "oui-mais"])["gap"] == 2  # ceil(4/2)
    assert R.failure_purchase_allowed(2, "non-et") and R.failure_purchase_allowed(2, "non-mais")
    assert not R.failure_purchase_allowed(4, "non-et")  # 4 pays a non-mais: no advance
    assert not R.failure_purchase_allowed(0, "non-mais")


@pytest.mark.parametrize(
    ("charac", "skill", "diff", "wounds", "expected"),
    [
        (2, 3, 1, 0, {"score": 4, "count": 4, "rule": "choose"}),
        (1, 1, 2, 0, {"score": 0, "count": 2, "rule": "worst"}),
        (0, 1, 5, 0, {"score": -4, "count": 6, "rule": "worst"}),
        (2, 2, 1, 2, {"score": 1, "count": 1, "rule": "choose"}),
        (2, 2, 1, 3, {"score": 0, "count": 2, "rule": "worst"}),
    ],
)
def test_test_plan_readme(charac, skill, diff, wounds, expected):
    assert R.test_plan(charac, skill, diff, wounds) == expected


def test_difficulty_table_and_skills_from_text():
    assert R.DIFFICULTIES == {
        "facile": 1,
        "conventionnelle": 2,
        "inhabituelle": 3,
        "complexe": 4,
        "epique": 5,
    }
    assert R.SKILLS == (
        "traquer",
        "survivre",
        "terroriser",
        "combattre",
        "soulager",
        "comprendre",
        "fureter",
        "resister",
    )


def test_force_faiblesse_and_tokens_readme():
    f = lambda k, **kw: R.apply_modifiers(k, **kw)["final"]  # noqa: E731
    assert f("oui-mais", force=True) == "oui"
    assert f("non-mais", force=True) == "non-mais"  # a force only raises a success
    assert f("oui-et", force=True) == "oui-et"
    assert f("non-et", faiblesse=True) == "echec-critique"
    assert f("oui-mais", faiblesse=True) == "non-mais"
    # text's token examples: 1 -> one step (oui-mais to non-mais), 2 -> 3 steps, 3 -> 5 steps
    assert f("oui-mais", tokens=1) == "non-mais"
    assert f("oui-et", tokens=2) == "non-mais"
    assert f("oui-et", tokens=3) == "echec-critique"
    assert f("non-mais", tokens=3) == "echec-critique"  # floor
    assert f("oui-mais", force=True, faiblesse=True) == "oui-mais"


def test_catastrophe_bands_from_text():
    assert [R.catastrophe_band(v) for v in (0, 5, 6, 10, 11, 15, 16, 99)] == [
        "sous_radars",
        "sous_radars",
        "gene_legere",
        "gene_legere",
        "gene_pregnante",
        "gene_pregnante",
        "tous_moyens",
        "tous_moyens",
    ]


def _brute_final(pile, n, rule, **mods):
    out = {}
    perms = list(permutations(range(len(pile))))
    for p in perms:
        hand = [pile[i] for i in p[: min(n, len(pile))]]
        pick = max if rule == "choose" else min
        card = pick(hand, key=R.OUTCOMES.index)
        fin = R.apply_modifiers(card, **mods)["final"]
        out[fin] = out.get(fin, 0) + Fraction(1, len(perms))
    return out


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from(R.KINDS), min_size=1, max_size=6),
    st.integers(1, 7),
    st.sampled_from(["choose", "worst"]),
    st.booleans(),
    st.booleans(),
    st.integers(0, 3),
)
def test_outcome_odds_match_brute_force(pile, n, rule, force, faiblesse, tokens):
    counts = {k: pile.count(k) for k in set(pile)}
    _, final = R.outcome_distribution(counts, {}, n, rule, force=force, faiblesse=faiblesse, tokens=tokens)
    assert final == _brute_final(pile, n, rule, force=force, faiblesse=faiblesse, tokens=tokens)


def test_base_deck_literal_odds():
    counts = {"oui-et": 1, "oui": 1, "oui-mais": 2}
    card, _ = R.outcome_distribution(counts, {}, 2, "worst")
    assert card == {"oui-mais": Fraction(5, 6), "oui": Fraction(1, 6)}
    card, _ = R.outcome_distribution(counts, {}, 2, "choose")
    assert card == {"oui-et": Fraction(1, 2), "oui": Fraction(1, 3), "oui-mais": Fraction(1, 6)}


def test_wounds_readme():
    c = versality_character()
    c = C.add_wound(c, "physique")
    assert C.wound_status(c) == "blesse"
    c2 = C.add_wound(c, "physique")
    assert C.wound_status(c2) == "hors_de_combat"
    c3 = C.add_wound(C.add_wound(c, "mental"), "personnalite")
    assert C.wound_status(c3) == "hors_de_combat"
    assert C.wound_status(C.add_wound(c2, "mental")) == "incapacite"
    # +1 difficulty per untreated wound
    assert R.test_plan(2, 3, 1, sum(c2["wounds"].values()))["score"] == 2


def test_heal_once_per_game_never_self():
    a = C.add_wound(versality_character(), "mental")
    b = versality_character(id="bob")
    with pytest.raises(Exception, match=r"versality.heal.self"):
        C.heal(a, a, "mental", True)
    out = C.heal(b, a, "mental", True)
    assert out["target"]["wounds"]["mental"] == 0 and out["healer"]["heal_used"]
    with pytest.raises(Exception, match=r"versality.heal.used"):
        C.heal(out["healer"], C.add_wound(a, "mental"), "mental", True)


def test_improvement_points_and_prices_readme():
    assert C.improvement_points(survived_unhurt=True, objective=True, catastrophe=10)["total"] == 3
    assert C.improvement_points(survived_unhurt=True, objective=True, catastrophe=11)["total"] == 2
    assert C.improvement_points(survived_unhurt=False, objective=False, catastrophe=0)["total"] == 0
    c = versality_character(improvement_points=20)
    assert C.purchase_cost(c, {"type": "characteristic", "name": "personnalite"}) == 1 + 3
    assert C.purchase_cost(c, {"type": "skill", "name": "survivre"}) == 1  # score 0 -> at least 1
    assert C.purchase_cost(c, {"type": "skill", "name": "traquer"}) == 3
    assert C.purchase_cost(c, {"type": "power"}) == 5
    out = C.improve(c, {"type": "card", "kind": "oui-et"})  # 15 -> ceil 8, gap 2: debt or advance
    assert out["cost"] == 3 and out["ledger"]["debt"] == 2
    out = C.improve(out["character"], {"type": "card", "kind": "non-et"})  # carte d'avance
    assert out["cost"] == 0 and out["ledger"]["credit"] == 3
    with pytest.raises(Exception, match=r"versality.improve.failure_not_needed"):
        C.improve(out["character"], {"type": "card", "kind": "non-mais"})


def test_resolve_reshuffles_empty_deck_and_feeds_mj():
    """One card per test (mental 2 + traquer 3 − complexe 4 = 1): the eighth test plays the
    deck's last card, which empties it: reshuffled at once, catastrophe +1, one token."""
    c = versality_character(created=True)
    st = S.build_deck(S.new_state(), c, random.Random(1))
    for i in range(8):
        st, info = S.draw_test(st, c, "mental", "traquer", "complexe", random.Random(2 + i))
        assert info["rule"] == "choose" and len(info["drawn"]) == 1 and info["events"] == []
        st, res = S.resolve_test(st, "ana", random.Random(3), choice=info["drawn"][0]["id"])
        assert st["catastrophe"] == (1 if i == 7 else 0)
    assert [e["type"] for e in res["events"]][-2:] == ["reshuffle", "catastrophe"]
    assert st["catastrophe"] == 1 and st["tokens"] == 1
    assert len(st["decks"]["ana"]["piles"]["draw"]["cards"]) == 8


def test_steps_list_only_modifiers_that_move_the_outcome():
    """A force on oui-et (already the top) or a faiblesse/tokens at the floor changes
    nothing: the result must not show a step "Oui, et… → Oui, et…"."""
    assert R.apply_modifiers("oui-et", force=True)["steps"] == []
    assert R.apply_modifiers("echec-critique", faiblesse=True, tokens=2)["steps"] == []
    r = R.apply_modifiers("oui-et", force=True, faiblesse=True)
    assert r["steps"] == [{"by": "faiblesse", "from": "oui-et", "to": "oui"}] and r["final"] == "oui"
    r = R.apply_modifiers("non-et", faiblesse=True, tokens=1)
    assert r["steps"] == [{"by": "faiblesse", "from": "non-et", "to": "echec-critique"}]
    assert R.apply_modifiers("oui", tokens=2)["steps"] == [{"by": "tokens", "spent": 2, "from": "oui", "to": "non-et"}]
    for kind in R.OUTCOMES:
        for mods in ({"force": True}, {"faiblesse": True}, {"tokens": 3}):
            assert all(s["from"] != s["to"] for s in R.apply_modifiers(kind, **mods)["steps"])
