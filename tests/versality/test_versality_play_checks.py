"""Versality at the table: improvements compensated like creation, hidden
information in the player answers, decks that break the ledger, the odds and the draw
agreeing on an exhausted deck, inconsistent inputs refused."""

import json
import random
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from versality_store import play

from api_calls import versality_character
from tablee.api import handle
from tablee.systems.versality import rules as R
from tablee.systems.versality import state as S


def created(**over):
    return versality_character(created=True, **over)


def err(request):
    response = handle(request)
    assert "error" in response, response
    return response["error"]


# --------------------------------------------------------------------------- 1. improvements
def test_an_improvement_cannot_leave_three_points_owed(api):
    """Source: "Les échecs" (while the pool can buy a failure card, one must be bought),
    "Améliorer son deck de réussite"; README: improvements are compensated like creation.
    Ledger 12/6: a oui-et (15 → ⌈15/2⌉ = 8, gap 2) may stay owed; a second one (18 → 9,
    gap 3) must come with a non-mais."""
    c = created(improvement_points=9)
    one = api({"op": "versality.improve", "character": c, "purchase": {"type": "card", "kind": "oui-et"}})
    assert one["ledger"]["gap"] == 2 and one["ledger"]["debt"] == 2
    c = one["character"]
    e = err({"op": "versality.improve", "character": c, "purchase": {"type": "card", "kind": "oui-et"}})
    assert e["code"] == "versality.improve.leaves_due"
    assert e["params"] == {"due": 3, "kind": "non-mais"}
    # with its compensation, the same purchase goes through: 18 → 9 owed, 6 + 3 paid
    purchase = {"type": "card", "kind": "oui-et", "compensation": ["non-mais"]}
    two = api({"op": "versality.improve", "character": c, "purchase": purchase})
    assert two["cost"] == 3 and two["character"]["improvement_points"] == 3
    assert [(k["kind"], k["origin"]) for k in two["character"]["deck"][-2:]] == [
        ("oui-et", "improvement"),
        ("non-mais", "improvement"),
    ]
    assert two["ledger"]["gap"] == 0
    assert api({"op": "versality.character.check", "character": two["character"]})["valid"]
    # a compensation card the gap does not allow (a non-et against 3 owed) is refused
    bad = {"type": "card", "kind": "oui-et", "compensation": ["non-et"]}
    assert err({"op": "versality.improve", "character": c, "purchase": bad})["code"] == (
        "versality.improve.failure_not_needed"
    )
    # compensation belongs to a success card
    odd = {"type": "card", "kind": "non-mais", "compensation": ["non-mais"]}
    assert err({"op": "versality.improve", "character": c, "purchase": odd})["code"] == (
        "versality.improve.compensation_success_only"
    )


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    purchases=st.lists(
        st.tuples(st.sampled_from(R.KINDS), st.lists(st.sampled_from(["non-mais", "non-et"]), max_size=2)),
        max_size=12,
    )
)
def test_no_sequence_of_improvements_leaves_a_card_owed(purchases):
    """Whatever a player buys, in any order, every purchase the engine accepts leaves less
    than a card's worth owed (gap < 3), and the deck stays playable."""
    c = created(improvement_points=999)
    for kind, comp in purchases:
        purchase = {"type": "card", "kind": kind}
        if comp:
            purchase["compensation"] = comp
        r = handle({"op": "versality.improve", "character": c, "purchase": purchase})
        if "error" in r:
            assert r["error"]["code"].startswith("versality.improve."), r
            continue
        c = r["character"]
        assert r["ledger"]["gap"] < min(R.FAILURE_VALUES.values())
        assert handle({"op": "versality.character.check", "character": c})["valid"]


def test_session_start_counts_every_owed_point(api):
    """README: every owed point (carte d'avance aside) gives the MJ a token at each session
    start, a card's worth included (an older sheet owing 4), a credit never."""
    owing4 = created()
    owing4["deck"] += [{"kind": "oui-et", "origin": "improvement"}] * 2  # 18 → 9, paid 6: gap 3
    owing4["deck"] += [{"kind": "oui-mais", "origin": "improvement"}, {"kind": "oui-mais", "origin": "improvement"}]
    assert R.ledger(k["kind"] for k in owing4["deck"])["gap"] == 4  # 20 → 10, paid 6
    credit = created(id="bo")
    credit["deck"].append({"kind": "non-et", "origin": "improvement"})  # carte d'avance: 11 paid
    debt1 = created(id="cy")
    debt1["deck"].append({"kind": "oui-mais", "origin": "improvement"})  # 13 → 7, paid 6
    state = api({"op": "versality.state.new"})["state"]
    r = api({"op": "versality.session.start", "state": state, "characters": [owing4, credit, debt1]})
    assert [d["debt"] for d in r["debts"]] == [4, 0, 1]
    assert r["tokens_gained"] == 5 and r["state"]["tokens"] == 5
    again = api({"op": "versality.session.start", "state": r["state"], "characters": r["characters"]})
    assert again["state"]["tokens"] == 10  # at every session start, until paid


# --------------------------------------------------------------------------- 2. hidden information
def _secret_state(api):
    """A table where the MJ holds secrets: catastrophe 37, 23 tokens, a noted power use."""
    c = created()
    state = api({"op": "versality.state.new"})["state"]
    state = api(
        {
            "op": "versality.power.use",
            "state": state,
            "character_id": "ana",
            "characters": ["ana"],
            "points": 5,
            "note": "SECRET-NOTE",
        }
    )["state"]
    state = api({"op": "versality.mj.adjust", "state": state, "catastrophe": 32, "tokens": 23})["state"]
    return c, state


SECRETS = {37, 23, 22}  # catastrophe, tokens, tokens after one spent


def _mj_free(answer):
    """No MJ field (catastrophe, power uses, notes), no power note, and no number equal to
    the catastrophe or token counts anywhere in ``answer``."""
    assert "SECRET-NOTE" not in json.dumps(answer)
    numbers = set()

    def walk(x):
        if isinstance(x, bool):
            return
        if isinstance(x, int):
            numbers.add(x)
        elif isinstance(x, dict):
            assert not {"catastrophe", "power_uses", "note"} & set(x), x
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(answer)
    assert not SECRETS & numbers, SECRETS & numbers


def test_player_ops_answer_with_the_player_projection(api):
    """Each player-facing op answers the screen with ``view``, exactly
    versality.view.player of the new state; apart from ``state`` (for the store), nothing in
    the answer carries the MJ's data. An error (asking more tokens than the MJ holds) never
    carries the MJ's count."""
    c, state = _secret_state(api)
    test = {"characteristic": "mental", "skill": "traquer", "difficulty": "facile"}
    answers = []
    b = api({"op": "versality.deck.build", "state": state, "character": c, "seed": 3})
    answers.append(b)
    s = api({"op": "versality.deck.sync", "state": b["state"], "character": c, "seed": 4})
    answers.append(s)
    d = api({"op": "versality.test.draw", "state": s["state"], "character": c, "seed": 5, **test})
    answers.append(d)
    r = api(
        {
            "op": "versality.test.resolve",
            "state": d["state"],
            "character_id": "ana",
            "choice": d["test"]["drawn"][0]["id"],
            "tokens": 1,
            "seed": 6,
        }
    )
    answers.append(r)
    for a in answers:
        assert a["view"] == api({"op": "versality.view.player", "state": a["state"]})["view"]
        assert set(a["view"]) == {"session", "decks", "pending"}
        _mj_free({k: v for k, v in a.items() if k != "state"})
    assert (r["state"]["catastrophe"], r["state"]["tokens"]) == (37, 22)
    odds = api({"op": "versality.test.odds", "state": r["state"], "character": c, **test})
    _mj_free(odds)
    d2 = api({"op": "versality.test.draw", "state": r["state"], "character": c, "seed": 7, **test})
    e_state = {**d2["state"], "tokens": 2}
    e = err({"op": "versality.test.resolve", "state": e_state, "character_id": "ana", "tokens": 3, "seed": 1,
             "choice": d2["test"]["drawn"][0]["id"]})
    assert e["code"] == "versality.tokens.not_enough" and e["params"] == {"asked": 3}
    assert "2" not in json.dumps(e["params"])


# --------------------------------------------------------------------------- 3. ledger in play
def _draw(c, state=None, seed=1):
    return handle(
        {
            "op": "versality.test.draw",
            "state": state or S.new_state(),
            "character": c,
            "characteristic": "mental",
            "skill": "traquer",
            "difficulty": "facile",
            "seed": seed,
        }
    )


def test_play_refuses_a_deck_that_breaks_the_creation_ledger(api):
    """Source: "Créer son deck de résolution" (cards are never removed), "Les échecs";
    build, sync, draw and odds refuse with the check's own message."""
    stripped = created()
    stripped["deck"] = [k for k in stripped["deck"] if k["kind"] != "non-mais"]
    check = api({"op": "versality.character.check", "character": stripped})
    first = check["problems"][0]
    assert (first["code"], first["params"]) == ("versality.deck.failure_invalid", {"required": 6, "value": 0})
    requests = [
        {"op": "versality.deck.build", "state": S.new_state(), "character": stripped, "seed": 1},
        {"op": "versality.deck.sync", "state": S.new_state(), "character": stripped, "seed": 1},
        {"op": "versality.test.odds", "character": stripped, "characteristic": "mental", "skill": "traquer",
         "difficulty": "facile"},
    ]
    for request in requests:
        e = err(request)
        assert (e["code"], e["params"]) == (first["code"], first["params"]), request["op"]
    # a table deck built when the sheet was sound: the draw checks the sheet again
    table = api({"op": "versality.deck.build", "state": S.new_state(), "character": created(), "seed": 1})["state"]
    e = _draw(stripped, table)["error"]
    assert (e["code"], e["params"]) == (first["code"], first["params"])
    # an unfinished character (creation not validated) cannot draw, even with a sound deck
    unfinished = versality_character()
    assert api({"op": "versality.character.check", "character": unfinished})["valid"]
    assert _draw(unfinished)["error"]["code"] == "versality.deck.not_created"
    assert _draw(created())["test"]["count"] == 4


# --------------------------------------------------------------------------- 4. exhausted deck
def _state_with(pile, discard, seed):
    """A table deck of the sample character with ``pile`` cards to draw and ``discard``
    in the discard (the rest of the 8 cards are moved out by real tests)."""
    c = created()
    rng = random.Random(seed)
    state = S.build_deck(S.new_state(), c, rng)
    deck = state["decks"]["ana"]
    ids = list(deck["piles"]["draw"]["cards"])
    deck["piles"]["draw"]["cards"] = ids[:pile]
    deck["piles"]["discard"]["cards"] = ids[pile : pile + discard]
    for cid in ids[pile + discard :]:
        del deck["cards"][cid]
    return c, state


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    pile=st.integers(1, 8),
    discard=st.integers(0, 7),
    difficulty=st.sampled_from(list(R.DIFFICULTIES)),
    skill=st.sampled_from(list(R.SKILLS)),
    seed=st.integers(0, 2**32),
)
def test_odds_and_draw_agree_on_an_exhausted_deck(pile, discard, difficulty, skill, seed):
    """What the odds announce (cards drawn, reshuffle, exhaustion, penalties)
    is what the draw does: cards shown, events, catastrophe +1 and a token per exhaustion."""
    discard = min(discard, 8 - pile)
    c, state = _state_with(pile, discard, seed)
    test = {"characteristic": "physique", "skill": skill, "difficulty": difficulty}
    odds = handle({"op": "versality.test.odds", "state": state, "character": c, **test})
    d = play({"op": "versality.test.draw", "state": state, "character": c, "seed": seed, **test})
    drawn = d["test"]["drawn"]
    assert len(drawn) == odds["drawn"] == min(odds["count"], pile + discard)
    types = [e["type"] for e in d["test"]["events"] if e["type"] != "catastrophe"]
    assert types == ["reshuffle"] * odds["reshuffle"] + ["exhausted"] * odds["exhausted"]
    assert d["state"]["catastrophe"] == odds["penalties"] == d["state"]["tokens"]
    assert odds["reshuffle"] == (odds["count"] > pile and discard > 0)
    # the announced odds are the exact law of the card played (brute force over orders)
    kinds_pile = [state["decks"]["ana"]["cards"][x]["kind"] for x in state["decks"]["ana"]["piles"]["draw"]["cards"]]
    kinds_discard = [
        state["decks"]["ana"]["cards"][x]["kind"] for x in state["decks"]["ana"]["piles"]["discard"]["cards"]
    ]
    if pile + discard <= 7:
        assert {r["outcome"]: r["fraction"] for r in odds["card"]} == _brute(
            kinds_pile, kinds_discard, odds["count"], odds["rule"]
        )


def _brute(pile, discard, n, rule):
    """Oracle: every order of the pile, and of the discard when it is reshuffled in."""
    counts = {}
    total = 0
    for top in permutations(pile):
        for order in permutations(discard) if n > len(pile) else [()]:
            hand = list(top[:n]) + list(order[: max(0, n - len(pile))])
            pick = min if rule == "worst" else max
            k = pick(hand, key=R.OUTCOMES.index)
            counts[k] = counts.get(k, 0) + 1
            total += 1
    out = {k: "0/1" for k in R.OUTCOMES}
    for k, v in counts.items():
        f = Fraction(v, total)
        out[k] = f"{f.numerator}/{f.denominator}"
    return out


def test_a_draw_longer_than_the_whole_deck_exhausts_it_as_announced(api):
    """The whole deck (8 cards) in the draw pile, nothing discarded, a test drawing 10
    (personnalité 0 + survivre 0 − épique 5 − 3 untreated wounds = −8 → 2 + 8 cards): every
    card is drawn, the deck is exhausted: catastrophe +1, one token; the odds said so before."""
    c = created()
    c["wounds"] = {"physique": 1, "mental": 1, "personnalite": 1}
    test = {"characteristic": "personnalite", "skill": "survivre", "difficulty": "epique"}
    state = api({"op": "versality.deck.build", "state": S.new_state(), "character": c, "seed": 2})["state"]
    odds = api({"op": "versality.test.odds", "state": state, "character": c, **test})
    assert (odds["count"], odds["drawn"], odds["reshuffle"], odds["exhausted"], odds["penalties"]) == (
        10,
        8,
        False,
        True,
        1,
    )
    d = api({"op": "versality.test.draw", "state": state, "character": c, "seed": 3, **test})
    assert len(d["test"]["drawn"]) == 8
    assert (d["state"]["catastrophe"], d["state"]["tokens"]) == (1, 1)
    assert [e["type"] for e in d["test"]["events"]] == ["exhausted", "catastrophe"]


# --------------------------------------------------------------------------- 5. inputs
def test_a_character_listed_twice_is_refused(api):
    c = created()
    c["deck"].append({"kind": "oui-mais", "origin": "improvement"})  # owes 1: a token each time it counts
    state = api({"op": "versality.state.new"})["state"]
    for op in ("versality.session.start", "versality.scenario.award"):
        extra = {"objective": True} if op == "versality.scenario.award" else {}
        e = err({"op": op, "state": state, "characters": [c, c], **extra})
        assert (e["code"], e["params"]) == ("versality.characters.duplicate", {"character": "ana"}), op
    e = err({"op": "versality.scenario.award", "state": state, "characters": [c], "objective": True,
             "unhurt": ["zed"]})
    assert (e["code"], e["params"]) == ("versality.scenario.unknown_character", {"character": "zed"})
    assert api({"op": "versality.session.start", "state": state, "characters": [c]})["tokens_gained"] == 1


def test_power_use_by_an_unknown_character_is_refused(api):
    state = api({"op": "versality.state.new"})["state"]
    e = err({"op": "versality.power.use", "state": state, "character_id": "zed", "characters": ["ana"], "points": 2})
    assert (e["code"], e["params"]) == ("versality.power.unknown_character", {"character": "zed"})
    ok = api({"op": "versality.power.use", "state": state, "character_id": "ana", "characters": ["ana"], "points": 2})
    assert ok["state"]["catastrophe"] == 2


def test_an_incapacitated_healer_cannot_heal(api):
    """Source: "Blessure, incapacité et mort": an incapacitated character makes no test."""
    healer = created(id="bo", incapacitated=True, wounds={"physique": 2, "mental": 1, "personnalite": 0})
    target = created(wounds={"physique": 1, "mental": 0, "personnalite": 0})
    request = {"op": "versality.heal", "healer": healer, "target": target, "characteristic": "physique",
               "outcome": "oui"}
    e = err(request)
    assert (e["code"], e["params"]) == ("versality.heal.incapacitated", {"healer": "bo"})
    fine = {**healer, "incapacitated": False, "wounds": {"physique": 0, "mental": 0, "personnalite": 0}}
    assert api({**request, "healer": fine})["target"]["wounds"]["physique"] == 0


@pytest.mark.parametrize("module", ["rules", "character", "ops"])
def test_the_readme_readings_are_cited(module):
    """The two readings once only in code comments cite the README."""
    import inspect

    from tablee.systems.versality import character, ops, rules

    src = inspect.getsource({"rules": rules, "character": character, "ops": ops}[module])
    if module == "rules":
        doc = rules.apply_modifiers.__doc__
        assert "rules/README.md" in doc and "the force applies first" in doc
    elif module == "character":
        doc = character.improvement_points.__doc__
        assert "rules/README.md" in doc and "earned only with the objective" in doc
    else:
        assert "every owed point (carte d'avance" in src


def test_player_pages_never_read_the_mj_state():
    """The player pages (list, sheet, test and their shared helpers) reach
    the table state only through table.js (the player projection and player calls); the MJ
    screen is the only other reader of the whole state, and it sits behind its switch."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "static" / "js" / "systems" / "versality"
    for name in ("list.js", "sheet.js", "test.js", "common.js"):
        src = (root / name).read_text(encoding="utf-8")
        code = "\n".join(line for line in src.splitlines() if not line.lstrip().startswith("//"))
        for forbidden in ("systems.versality", "systems?.versality", "fullState", "catastrophe", "power_uses",
                          "state.tokens"):
            assert forbidden not in code, (name, forbidden)
    table = (root / "table.js").read_text(encoding="utf-8")
    assert "export async function playerCall" in table and "versality.view.player" in table
    # The MJ screen is masked by the one MJ switch of every system (share/mj-mode.js mjOnly).
    page = (root.parent / "versality.js").read_text(encoding="utf-8")
    assert "mj: { render: mjOnly(mj.render) }" in page
