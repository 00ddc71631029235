"""Versality: a player op never answers the MJ's data.

The player ops (deck build/sync, test odds/draw/resolve) answer ``view``, ``public`` and
``penalties`` (:mod:`tablee.systems.versality.ops`); the store's op versality.state.merge
rebuilds the whole table state, which must be exactly the state the ops computed before
the split (the :mod:`state` functions with the request's seed are the oracle).
"""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from versality_store import PLAYER_OPS, play

from api_calls import versality_character
from tablee.api import handle
from tablee.errors import RulesError
from tablee.registry import rng_from
from tablee.systems.versality import state as S

CATASTROPHE, TOKENS, NOTE, AWARDED = 4937, 7723, "Note secrète du MJ : zq-pouvoir-87", 4936
MJ_KEYS = {"catastrophe", "tokens", "power_uses", "awarded_session"}
TEST = {"characteristic": "mental", "skill": "traquer"}
DIFFICULTIES = ("facile", "conventionnelle", "complexe", "epique")


def secret(state):
    """The table state with distinctive MJ values (none of them can come from play)."""
    return {
        **copy.deepcopy(state),
        "catastrophe": CATASTROPHE,
        "tokens": TOKENS,
        "session": AWARDED,
        "awarded_session": AWARDED,
        "power_uses": [{"character_id": "ana", "points": 3, "note": NOTE}],
    }


def leaks(value, path="answer"):
    """Every place of a JSON answer that holds an MJ value or an MJ key."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in MJ_KEYS:
                out.append(f"{path}.{k}")
            out += leaks(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += leaks(v, f"{path}[{i}]")
    elif isinstance(value, bool):
        pass
    elif isinstance(value, int) and value in (CATASTROPHE, TOKENS):
        out.append(f"{path}={value}")
    elif isinstance(value, str) and ("zq-pouvoir" in value or "secrète" in value):
        out.append(f"{path}={value!r}")
    return out


def _characters():
    """A finished character and the same after buying a card (deck.sync adds it)."""
    finish = {"op": "versality.character.finish", "character": versality_character(improvement_points=9)}
    c = handle(finish)["character"]
    purchase = {"type": "card", "kind": "oui-mais"}
    return c, handle({"op": "versality.improve", "character": c, "purchase": purchase})["character"]


C0, BOUGHT = _characters()


def _table(seed, draws):
    """A played table: a deck built, then ``draws`` tests drawn and resolved (reshuffles happen)."""
    c = C0
    state = play({"op": "versality.deck.build", "state": S.new_state(), "character": c, "seed": seed})["state"]
    for i in range(draws):
        d = play({"op": "versality.test.draw", "state": state, "character": c, "difficulty": "epique",
                  "seed": seed + i, **TEST})
        hand = d["state"]["pending"]["ana"]
        choice = d["test"]["drawn"][0]["id"] if hand["rule"] == "choose" else None
        state = play({"op": "versality.test.resolve", "state": d["state"], "character_id": "ana",
                      "seed": seed + 100 + i, **({"choice": choice} if choice else {})})["state"]
    return c, state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 999), draws=st.integers(0, 6), difficulty=st.sampled_from(DIFFICULTIES),
       spent=st.integers(0, 3))
def test_no_player_op_answers_the_mj_data(seed, draws, difficulty, spent):
    c, played = _table(seed, draws)
    state = secret(played)
    bought = BOUGHT
    answers = {
        "build": handle({"op": "versality.deck.build", "state": state, "character": c, "seed": seed}),
        "sync": handle({"op": "versality.deck.sync", "state": state, "character": bought, "seed": seed}),
        "odds": handle({"op": "versality.test.odds", "state": state, "character": c, "difficulty": difficulty,
                        "tokens": spent, **TEST}),
    }
    draw = handle({"op": "versality.test.draw", "state": state, "character": c, "difficulty": difficulty,
                   "seed": seed, **TEST})
    answers["draw"] = draw
    after = play({"op": "versality.test.draw", "state": state, "character": c, "difficulty": difficulty,
                  "seed": seed, **TEST})["state"]
    choice = {"choice": draw["test"]["drawn"][-1]["id"]} if after["pending"]["ana"]["rule"] == "choose" else {}
    answers["resolve"] = handle({"op": "versality.test.resolve", "state": after, "character_id": "ana",
                                 "tokens": spent, "seed": seed, **choice})
    assert after["catastrophe"] >= CATASTROPHE and after["power_uses"][0]["note"] == NOTE  # the store keeps them
    for name, answer in answers.items():
        assert "error" not in answer, (name, answer)
        assert "state" not in answer and ("public" in answer) == (name != "odds")
        assert leaks(answer) == [], (name, leaks(answer))
        assert NOTE not in json.dumps(answer, ensure_ascii=False) and "4937" not in json.dumps(answer)


def test_errors_of_player_ops_carry_no_mj_count():
    """A player op refused (pending test, too many tokens, bad choice) says nothing of the MJ's side."""
    c, played = _table(3, 1)
    state = secret(played)
    d = play({"op": "versality.test.draw", "state": state, "character": c, "difficulty": "epique", "seed": 1, **TEST})
    poor = {**d["state"], "tokens": 2}
    errors = [
        handle({"op": "versality.test.draw", "state": d["state"], "character": c, "difficulty": "facile", "seed": 2,
                **TEST}),
        handle({"op": "versality.test.odds", "state": d["state"], "character": c, "difficulty": "facile", **TEST}),
        handle({"op": "versality.test.resolve", "state": d["state"], "character_id": "ana", "choice": "zz",
                "seed": 2}),
        handle({"op": "versality.test.resolve", "state": poor, "character_id": "ana", "tokens": 3, "seed": 2}),
    ]
    codes = [e["error"]["code"] for e in errors]
    assert codes[:2] == ["versality.test.pending"] * 2 and codes[3] == "versality.tokens.not_enough"
    assert errors[3]["error"]["params"] == {"asked": 3}
    for e in errors:
        assert leaks(e) == [] and "2" not in json.dumps(e["error"].get("params", {})), e


def test_the_merge_refuses_tokens_the_mj_does_not_hold_and_bad_public_parts():
    c, played = _table(5, 0)
    d = handle({"op": "versality.test.draw", "state": played, "character": c, "difficulty": "facile", "seed": 1,
                **TEST})
    pen = {**d["penalties"], "mj_tokens_spent": 1}
    e = handle({"op": "versality.state.merge", "state": played, "public": d["public"], "penalties": pen})
    assert e["error"]["code"] == "versality.tokens.not_enough" and e["error"]["params"] == {"asked": 1}
    broken = copy.deepcopy(d["public"])
    broken["pending"]["zoe"] = broken["pending"]["ana"]  # a pending test without a deck
    e = handle({"op": "versality.state.merge", "state": played, "public": broken, "penalties": d["penalties"]})
    assert e["error"]["code"] == "versality.state.invalid"
    sneaky = {**d["public"], "catastrophe": 0}
    e = handle({"op": "versality.state.merge", "state": played, "public": sneaky, "penalties": d["penalties"]})
    assert e["error"]["code"] == "request.invalid"  # a public part never sets an MJ field


# (b) op + merge == the state the op computed before the split (same seed): the oracle is the
# state functions the old ops called, with the request's RNG.
def _old_state(request, c):
    rng = rng_from(request)
    state = request["state"]
    if request["op"] == "versality.deck.build":
        return S.build_deck(state, c, rng)
    if request["op"] == "versality.deck.sync":
        return S.sync_deck(state, request["character"], rng)[0]
    if request["op"] == "versality.test.draw":
        return S.draw_test(state, c, request["characteristic"], request["skill"], request["difficulty"], rng)[0]
    return S.resolve_test(state, request["character_id"], rng, choice=request.get("choice"),
                          force=request.get("force", False), faiblesse=request.get("faiblesse", False),
                          tokens=request.get("tokens", 0))[0]


STEP = st.tuples(
    st.sampled_from(["round"] * 8 + ["build", "sync", "draw", "resolve"]),
    st.integers(0, 2**31),
    st.sampled_from(DIFFICULTIES),
    st.integers(0, 3),
    st.booleans(),
    st.integers(0, 7),
)


def _request(kind, state, c, bought, seed, difficulty, spent, flag, pick):
    if kind == "build":
        return {"op": "versality.deck.build", "state": state, "character": c, "seed": seed}
    if kind == "sync":
        return {"op": "versality.deck.sync", "state": state, "character": bought if flag else c, "seed": seed}
    if kind == "draw":
        return {"op": "versality.test.draw", "state": state, "character": c, "difficulty": difficulty,
                "seed": seed, **TEST}
    req = {"op": "versality.test.resolve", "state": state, "character_id": "ana", "tokens": spent,
           "force": flag, "faiblesse": not flag, "seed": seed}
    hand = state["decks"].get("ana", {}).get("piles", {}).get("hand", {}).get("cards", [])
    if hand and state["pending"]["ana"]["rule"] == "choose":
        req["choice"] = hand[pick % len(hand)]
    return req


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    catastrophe=st.sampled_from([0, 1, 9, 9998, 9999]),
    tokens=st.sampled_from([0, 1, 3, 9997, 9999]),
    warm=st.sampled_from([0, 5, 6, 7]),
    steps=st.lists(STEP, min_size=8, max_size=24),
)
def test_op_and_merge_give_the_state_the_op_gave(catastrophe, tokens, warm, steps):
    """Random play (a round is a draw then its resolve; builds, syncs and lone draws or
    resolves too, refused ones included), MJ counts near the 9999 cap: every step of op +
    merge equals the state the op computed before the split, and refusals agree."""
    c, bought = C0, BOUGHT
    start = _table(warm, warm)[1] if warm else S.new_state()  # warm: a draw pile nearly run out
    state = {**start, "catastrophe": catastrophe, "tokens": tokens,
             "power_uses": [{"character_id": "ana", "points": 2, "note": NOTE}]}
    for kind, seed, difficulty, spent, flag, pick in steps:
        for part in ("draw", "resolve") if kind == "round" else (kind,):
            req = _request(part, state, c, bought, seed, difficulty, spent, flag, pick)
            assert req["op"] in PLAYER_OPS
            try:
                expected = _old_state(copy.deepcopy(req), c)
            except RulesError as exc:  # the op (or the merge) refuses it with the same code
                assert play(req)["error"]["code"] == exc.code
                continue
            got = play(req)
            assert "error" not in got, got
            assert got["state"] == expected
            state = got["state"]
    assert state["power_uses"][0]["note"] == NOTE


def test_merge_applies_the_ops_caps_at_9999():
    """A draw that runs the deck out at the 9999 caps, then a resolve spending 3 tokens from
    9999: op + merge equals the op's former state (catastrophe stays 9999; tokens 9999 - 3)."""
    c = C0
    warm = _table(0, 7)[1]  # the draw pile holds 1 card: an épique draw reshuffles
    state = {**warm, "catastrophe": 9999, "tokens": 9999}
    req = {"op": "versality.test.draw", "state": state, "character": c, "difficulty": "epique", "seed": 8, **TEST}
    d = play(req)
    assert d["penalties"]["catastrophe_added"] == d["penalties"]["mj_tokens_added"] >= 1
    assert d["state"] == _old_state(copy.deepcopy(req), c)
    assert (d["state"]["catastrophe"], d["state"]["tokens"]) == (9999, 9999)
    req = {"op": "versality.test.resolve", "state": d["state"], "character_id": "ana", "tokens": 3, "seed": 9}
    if d["state"]["pending"]["ana"]["rule"] == "choose":
        req["choice"] = d["test"]["drawn"][0]["id"]
    r = play(req)
    assert r["penalties"]["mj_tokens_spent"] == 3
    assert r["state"] == _old_state(copy.deepcopy(req), c)
    assert r["state"]["tokens"] == 9996 + r["penalties"]["mj_tokens_added"]
