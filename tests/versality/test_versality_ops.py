"""Versality through the JSON door: seeded replay, player view, odds strings, fuzz."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema
from versality_store import play

from api_calls import versality_character
from tablee.api import handle
from tablee.registry import OPS
from tablee.store import CHARACTER_VALIDATORS, STATE_VALIDATORS


def _game(api, roundtrip):
    c = versality_character(created=True)
    state = api({"op": "versality.state.new"})["state"]
    state = api({"op": "versality.deck.build", "state": state, "character": c, "seed": 11})["state"]
    log = []
    for i in range(12):
        if roundtrip:
            state = json.loads(json.dumps(state))
        diff = ["facile", "epique"][i % 2]
        d = api(
            {
                "op": "versality.test.draw",
                "state": state,
                "character": c,
                "characteristic": "mental",
                "skill": "traquer",
                "difficulty": diff,
                "seed": 100 + i,
            }
        )
        state = json.loads(json.dumps(d["state"])) if roundtrip else d["state"]
        choice = d["test"]["drawn"][-1]["id"] if d["test"]["rule"] == "choose" else None
        req = {
            "op": "versality.test.resolve",
            "state": state,
            "character_id": "ana",
            "seed": 200 + i,
            "force": True,
        }
        if choice:
            req["choice"] = choice
        r = api(req)
        state = r["state"]
        log.append((d["test"]["drawn"], r["result"]["final"]))
    return log, state


def test_seeded_game_replays_after_json_round_trips(api):
    a = _game(api, False)
    b = _game(api, True)
    assert a == b
    assert a[1]["catastrophe"] >= 1  # 12 tests on a 8-card deck: at least one reshuffle


def test_player_view_hides_mj_data(api):
    state = api({"op": "versality.state.new"})["state"]
    state = api(
        {"op": "versality.power.use", "state": state, "character_id": "ana", "characters": ["ana"], "points": 4}
    )["state"]
    state = api({"op": "versality.mj.adjust", "state": state, "tokens": 2})["state"]
    state = api(
        {"op": "versality.deck.build", "state": state, "character": versality_character(created=True), "seed": 1}
    )["state"]
    view = api({"op": "versality.view.player", "state": state})["view"]
    text = json.dumps(view)
    assert "catastrophe" not in view and "tokens" not in view and "power_uses" not in view
    assert "points" not in text
    assert set(view["decks"]["ana"]["piles"]["draw"]["cards"]) == {None}
    assert view["decks"]["ana"]["piles"]["draw"]["count"] == 8


def test_odds_op_exact_strings(api):
    c = versality_character(created=True)  # mental 2 + traquer 3 - facile 1 = 4: draw 4, choose
    r = api(
        {
            "op": "versality.test.odds",
            "character": c,
            "characteristic": "mental",
            "skill": "traquer",
            "difficulty": "facile",
        }
    )
    assert (r["count"], r["rule"]) == (4, "choose")
    final = {x["outcome"]: x["fraction"] for x in r["final"]}
    # 8 cards, 2 oui-et: P(no oui-et among 4) = C(6,4)/C(8,4) = 15/70
    assert final["oui-et"] == "11/14"
    assert sum(__import__("fractions").Fraction(x) for x in final.values()) == 1


def test_session_start_gives_debt_tokens_and_resets_heal(api):
    c = versality_character(heal_used=True)
    c["deck"] = [x for x in c["deck"] if x["kind"] != "non-mais"] + [{"kind": "non-et", "origin": "creation"}]
    state = api({"op": "versality.state.new"})["state"]
    r = api({"op": "versality.session.start", "state": state, "characters": [c]})
    assert r["tokens_gained"] == 1 and r["state"]["tokens"] == 1 and not r["characters"][0]["heal_used"]


def test_resolve_refuses_bad_choices():
    c = versality_character(created=True)
    state = handle({"op": "versality.state.new"})["state"]
    d = play(
        {
            "op": "versality.test.draw",
            "state": state,
            "character": c,
            "characteristic": "physique",
            "skill": "survivre",
            "difficulty": "epique",
            "seed": 5,
        }
    )
    assert d["test"]["rule"] == "worst" and d["test"]["count"] == 6
    r = handle(
        {"op": "versality.test.resolve", "state": d["state"], "character_id": "ana", "seed": 1, "tokens": 1}
    )
    assert r["error"]["code"] == "versality.tokens.not_enough"
    assert r["error"]["params"] == {"asked": 1}  # never the MJ's count: the players read it


def test_validators_reject_garbage_without_raising():
    for bad in (
        None,
        [],
        {"id": 3},
        {**versality_character(), "extra": 1},
        {**versality_character(), "wounds": {}},
    ):
        assert CHARACTER_VALIDATORS["versality"](bad)
        assert STATE_VALIDATORS["versality"](bad)
    assert CHARACTER_VALIDATORS["versality"](versality_character()) == []


# Ops whose requests embed a whole character or table state are too slow to generate with
# hypothesis-jsonschema within the suite budget; the kernel's own fuzz covers every op.
MINE = sorted(
    name
    for name in OPS
    if name.startswith(("versality.", "cards."))
    and not {"character", "state", "healer", "characters"} & set(OPS[name].schema["properties"])
)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=__import__("hypothesis").strategies.data())
def test_fuzz_ops_only_raise_rules_errors(data):
    for name in MINE:
        request = data.draw(from_schema(OPS[name].schema), label=name)
        response = handle(request)
        assert response.get("error", {}).get("code") != "request.internal", (name, response)
        assert response.get("error", {}).get("code") != "request.invalid", (name, response)


def test_new_character_is_in_creation(api):
    c = api({"op": "versality.character.new", "id": "zoe", "name": "Zoé"})["character"]
    assert c["created"] is False
    assert CHARACTER_VALIDATORS["versality"](c) == []


def test_finish_refuses_while_check_has_problems():
    blank = handle({"op": "versality.character.new", "id": "zoe"})["character"]
    problems = handle({"op": "versality.character.check", "character": blank})["problems"]
    r = handle({"op": "versality.character.finish", "character": blank})
    assert r["error"]["code"] == "versality.char.not_finished"
    assert r["error"]["params"] == {"count": len(problems), "field": problems[0]["field"]}
    assert len(problems) >= 4  # power, traits, characteristic and skill points, creation cards


def test_finish_sets_created_once_and_changes_nothing_else(api):
    c = versality_character()
    done = api({"op": "versality.character.finish", "character": c})["character"]
    assert done["created"] is True and c["created"] is False
    assert {k: v for k, v in done.items() if k != "created"} == {k: v for k, v in c.items() if k != "created"}
    r = handle({"op": "versality.character.finish", "character": done})
    assert r["error"]["code"] == "versality.char.already_created"


def test_improvement_cards_only_after_creation(api):
    c = versality_character(improvement_points=3)
    c["deck"].append({"kind": "oui-mais", "origin": "improvement"})
    c["deck"].append({"kind": "non-mais", "origin": "improvement"})
    check = api({"op": "versality.character.check", "character": c})
    assert not check["valid"]
    assert [(p["field"], p["code"], p["params"]) for p in check["problems"]] == [
        ("deck", "versality.deck.improvement_before_creation", {"count": 2})
    ]
    assert handle({"op": "versality.character.finish", "character": c})["error"]["code"] == (
        "versality.char.not_finished"
    )
    created = {**c, "created": True}
    assert api({"op": "versality.character.check", "character": created})["valid"]
    # improve keeps working on a created character
    bought = api({"op": "versality.improve", "character": created, "purchase": {"type": "card", "kind": "oui-mais"}})
    assert bought["character"]["created"] is True and bought["cost"] == 1


def test_validator_requires_a_boolean_created():
    good = versality_character()
    missing = {k: v for k, v in good.items() if k != "created"}
    for bad in (missing, {**good, "created": 1}, {**good, "created": "true"}, {**good, "created": None}):
        problems = CHARACTER_VALIDATORS["versality"](bad)
        assert [p.code for p in problems] == ["versality.char.invalid"], bad.get("created")
    assert CHARACTER_VALIDATORS["versality"]({**good, "created": True}) == []
    r = handle({"op": "versality.character.check", "character": missing})
    assert r["error"]["code"] == "request.invalid"


def test_creation_budgets_bind_creation_only(api):
    """Source: "Caractéristiques et compétences" (3 and 5 points, at most 3 at creation);
    "La progression": afterwards characteristics and skills grow with improvement points."""
    c = versality_character(improvement_points=20)
    grown = api({"op": "versality.character.finish", "character": c})["character"]
    for purchase in ({"type": "characteristic", "name": "physique"}, {"type": "skill", "name": "traquer"}):
        grown = api({"op": "versality.improve", "character": grown, "purchase": purchase})["character"]
    grown["skills"]["traquer"] = 4
    assert api({"op": "versality.character.check", "character": grown})["valid"]
    in_creation = {**grown, "created": False}
    codes = {p["code"] for p in api({"op": "versality.character.check", "character": in_creation})["problems"]}
    assert {"versality.char.characteristic_points", "versality.char.skill_points", "versality.char.skill_max"} <= codes


def test_a_blank_power_cannot_be_bought(api):
    """Source: "Choisir son pouvoir" (the MJ approves a described power): 5 points for an
    empty text bought nothing; the points stay."""
    c = api({"op": "versality.character.finish", "character": versality_character(improvement_points=9)})["character"]
    for purchase in ({"type": "power", "text": ""}, {"type": "power", "text": "  \n\t"}, {"type": "power"}):
        r = handle({"op": "versality.improve", "character": c, "purchase": purchase})
        assert r["error"]["code"] == "versality.improve.power_blank", purchase
    r = api({"op": "versality.improve", "character": c, "purchase": {"type": "power", "text": "Vol"}})
    assert r["cost"] == 5 and r["character"]["improvement_points"] == 4
    assert r["character"]["powers"][-1] == {"text": "Vol", "approved": False}


def _played_state(api, c, tests=3):
    """A table where ``c`` played ``tests`` tests: cards in the discard, a shorter draw pile."""
    empty = api({"op": "versality.state.new"})["state"]
    state = api({"op": "versality.deck.build", "state": empty, "character": c, "seed": 5})["state"]
    for i in range(tests):
        d = api({"op": "versality.test.draw", "state": state, "character": c, "characteristic": "mental",
                 "skill": "traquer", "difficulty": "facile", "seed": 30 + i})
        state = api({"op": "versality.test.resolve", "state": d["state"], "character_id": c["id"], "seed": 40 + i,
                     "choice": d["test"]["drawn"][0]["id"]})["state"]
    return state


def test_deck_sync_adds_only_the_new_cards_to_the_draw_pile(api):
    """Buying a card must not reshuffle the discard back for free ("Les échecs": running out
    of deck costs catastrophe +1 and a token): sync adds the new card(s) to the draw pile only."""
    c = api({"op": "versality.character.finish", "character": versality_character(improvement_points=9)})["character"]
    state = _played_state(api, c)
    before = state["decks"]["ana"]
    assert len(before["piles"]["discard"]["cards"]) == 3 and len(before["piles"]["draw"]["cards"]) == 5
    for kind in ("oui-mais", "non-mais", "oui"):
        c = api({"op": "versality.improve", "character": c, "purchase": {"type": "card", "kind": kind}})["character"]
    r = api({"op": "versality.deck.sync", "state": state, "character": c, "seed": 77})
    deck = r["state"]["decks"]["ana"]
    assert sorted(a["kind"] for a in r["added"]) == ["non-mais", "oui", "oui-mais"]
    assert deck["piles"]["discard"]["cards"] == before["piles"]["discard"]["cards"]  # untouched, same order
    assert deck["piles"]["hand"]["cards"] == []
    assert len(deck["piles"]["draw"]["cards"]) == 5 + 3
    assert set(deck["piles"]["draw"]["cards"]) == set(before["piles"]["draw"]["cards"]) | {a["id"] for a in r["added"]}
    # counts conserved: the table deck now holds exactly the sheet's cards, kind by kind
    kinds = sorted(card["kind"] for card in deck["cards"].values())
    assert kinds == sorted(card["kind"] for card in c["deck"]) and len(deck["cards"]) == 11
    assert (r["state"]["catastrophe"], r["state"]["tokens"]) == (state["catastrophe"], state["tokens"])
    # seeded replay (after a JSON round trip), and a second sync adds nothing and changes nothing
    again = api({"op": "versality.deck.sync", "state": json.loads(json.dumps(state)), "character": c, "seed": 77})
    assert again == r
    idle = api({"op": "versality.deck.sync", "state": r["state"], "character": c, "seed": 1})
    assert idle["added"] == [] and idle["state"] == r["state"]


def test_deck_sync_keeps_a_pending_hand_and_refuses_cards_the_sheet_lacks(api):
    c = api({"op": "versality.character.finish", "character": versality_character(improvement_points=9)})["character"]
    state = _played_state(api, c, tests=1)
    d = api({"op": "versality.test.draw", "state": state, "character": c, "characteristic": "mental",
             "skill": "traquer", "difficulty": "facile", "seed": 3})
    purchase = {"type": "card", "kind": "oui-mais"}
    bought = api({"op": "versality.improve", "character": c, "purchase": purchase})["character"]
    r = api({"op": "versality.deck.sync", "state": d["state"], "character": bought, "seed": 2})
    hand = d["state"]["decks"]["ana"]["piles"]["hand"]["cards"]
    assert r["state"]["decks"]["ana"]["piles"]["hand"]["cards"] == hand
    assert r["state"]["pending"] == d["state"]["pending"]
    # the table holds a card the sheet no longer has: refused, never silently dropped
    table = api({"op": "versality.deck.build", "state": state, "character": bought, "seed": 2})["state"]
    err = handle({"op": "versality.deck.sync", "state": table, "character": c, "seed": 2})["error"]
    assert err["code"] == "versality.deck.sync_extra"
    assert err["params"] == {"kind": "oui-mais", "table": 3, "sheet": 2}
    # no deck on the table yet: it is built from the sheet
    empty = api({"op": "versality.state.new"})["state"]
    fresh = api({"op": "versality.deck.sync", "state": empty, "character": c, "seed": 4})
    assert len(fresh["state"]["decks"]["ana"]["piles"]["draw"]["cards"]) == len(c["deck"]) == len(fresh["added"])


def test_scenario_award_once_per_session_unless_confirmed(api):
    """Source: "La progression : monter de niveau". One award per scenario end: a second
    click in the same session is refused until the MJ confirms (again: true); a new
    session allows the next award without confirmation."""
    mira = {**versality_character(id="mira", name="Mira"), "improvement_points": 1}
    bo = versality_character(id="bo", name="Bo")
    state = api({"op": "versality.state.new"})["state"]
    assert state["awarded_session"] is None
    req = {"op": "versality.scenario.award", "characters": [mira, bo], "objective": True, "unhurt": ["mira"]}
    r = api({**req, "state": state})
    assert [c["improvement_points"] for c in r["characters"]] == [1 + 3, 0 + 2]
    assert [a["points"]["total"] for a in r["awards"]] == [3, 2]
    assert r["state"]["awarded_session"] == 0 and r["state"]["session"] == 0
    again = handle({**req, "state": r["state"], "characters": r["characters"]})
    assert again["error"]["code"] == "versality.scenario.already_awarded"
    assert again["error"]["params"] == {"session": 0}
    confirmed = api({**req, "state": r["state"], "characters": r["characters"], "again": True})
    assert confirmed["characters"][0]["improvement_points"] == 7
    started = api({"op": "versality.session.start", "state": confirmed["state"], "characters": confirmed["characters"]})
    nxt = api({**req, "state": started["state"], "characters": started["characters"], "unhurt": []})
    assert nxt["state"]["awarded_session"] == 1 and nxt["characters"][0]["improvement_points"] == 9
    # the record is part of the validated state: wrong types are rejected, null and ints kept
    assert STATE_VALIDATORS["versality"](nxt["state"]) == []
    for bad in ("1", -1, 10000, True):
        assert STATE_VALIDATORS["versality"]({**state, "awarded_session": bad}), bad
    missing = {k: v for k, v in state.items() if k != "awarded_session"}
    assert [p.code for p in STATE_VALIDATORS["versality"](missing)] == ["versality.state.invalid"]
