"""store.share: a player's share link never carries a system's hidden information, and
what it carries is still valid data a player can import.

The oracle: a table is built through the real ops with every system's secrets set (the
Versality catastrophe, tokens and power uses, the Point Zéro threshold, Théorem hands and
deck order, SYSTMJ hidden round choices, a Unicreon terrible secret, log entries holding
decks and thresholds), with a marker text in every secret free-text field; Hypothesis
varies the values and seeds. After ``store.share`` for a player no marker is left anywhere
in the JSON, every secret is at its neutral value, every draw pile is in canonical order, no
hand holds a card, and ``store.open`` takes the result as it is (nothing set apart).
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings

from share_tables import MARK, TABLES, build_table, ok
from tablee import api, share
from tablee.registry import SYSTEM_IDS


def piles(state: dict):
    yield from state["piles"].values()


def card_states(doc: dict):
    systems = doc["systems"]
    yield from systems["versality"]["decks"].values()
    yield systems["theorem"]["deck"]
    yield from systems["theorem"]["arcana"].values()


def all_keys(value):
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield from node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES)
def test_no_secret_survives_a_players_table_share(doc):
    before = copy.deepcopy(doc)
    out = ok({"op": "store.share", "kind": "table", "data": doc, "audience": "player"})["data"]
    assert doc == before  # the MJ's table is untouched
    text = json.dumps(out, ensure_ascii=False)
    assert MARK not in text
    # Still a valid table, taken as it is.
    reopened = ok({"op": "store.open", "document": out})
    assert reopened["quarantined"] == 0 and reopened["document"] == out
    vs, pz, sj = (out["systems"][s] for s in ("versality", "pointzero", "systmj"))
    assert (vs["catastrophe"], vs["tokens"], vs["power_uses"], vs["awarded_session"]) == (0, 0, [], None)
    assert pz["threshold"] is None and pz["entries"] == doc["systems"]["pointzero"]["entries"]
    for state in card_states(out):
        for pile in piles(state):
            if pile["visibility"] == "hidden":
                assert pile["cards"] == sorted(pile["cards"])
            if pile["visibility"] == "owner":
                assert pile["cards"] == []
    # Cards are conserved: each shared card state holds the same cards as the MJ's.
    for mine, shared in zip(card_states(doc), card_states(out), strict=True):
        def held(state):
            return sorted(c for p in piles(state) for c in p["cards"])

        assert held(mine) == held(shared)
    # The MJ's state had hands and an unsorted draw pile: the filter had work to do.
    assert any(p["cards"] for s in card_states(doc) for p in piles(s) if p["visibility"] == "owner")
    if not doc["systems"]["systmj"]["rounds"]["revealed"]:
        assert all(e["choice"] == "" for e in sj["rounds"]["entities"])
    else:
        assert sj["rounds"] == doc["systems"]["systmj"]["rounds"]
    uc = next(c for c in out["characters"] if c["system"] == "unicreon")
    assert uc["secret"] == ""
    keys = set(all_keys(out["log"]))
    assert not keys & {"deck", "threshold", "catastrophe", "tokens", "state"}
    assert out["log"][3] == doc["log"][3]  # a dice roll holds nothing hidden: kept whole
    assert [c["name"] for c in out["characters"]] == [c["name"] for c in doc["characters"]]


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES)
def test_an_mj_share_is_the_opened_table_whole(doc):
    out = ok({"op": "store.share", "kind": "table", "data": doc, "audience": "mj"})["data"]
    assert out == doc and MARK in json.dumps(out, ensure_ascii=False)


@pytest.fixture(scope="module")
def table():
    return build_table(7, 12, 3, 4, 6, 5, "action", False)


def test_character_share_for_a_player_and_for_the_mj(table):
    uc = next(c for c in table["characters"] if c["system"] == "unicreon")
    player = ok({"op": "store.share", "kind": "character", "data": uc, "audience": "player"})["data"]
    assert player == {**uc, "secret": ""}
    assert ok({"op": "store.check_character", "character": player})["ok"]
    assert ok({"op": "store.share", "kind": "character", "data": uc, "audience": "mj"})["data"] == uc
    th = next(c for c in table["characters"] if c["system"] == "theorem")
    assert ok({"op": "store.share", "kind": "character", "data": th, "audience": "player"})["data"] == th


def test_roll_share_for_a_player_drops_the_deck_it_drew_from(table):
    entry = table["log"][0]
    out = ok({"op": "store.share", "kind": "entry", "data": entry, "audience": "player"})["data"]
    # the seed too: with the public discard it tells a reshuffled deck's order (test_share_seeds.py)
    assert "deck" not in out["request"] and "seed" not in out["request"]
    assert {k: v for k, v in out.items() if k != "request"} == {k: v for k, v in entry.items() if k != "request"}


@pytest.mark.parametrize("system", ["theorem", "versality"])
def test_a_logged_draw_answer_keeps_no_deck_order_in_a_players_share(system):
    """A draw's answer names the deck as it stood (``deck_used``: the draw pile in order); a log
    entry holding it, as a page may log a whole answer, reaches a player without it, at any
    depth: with the cards drawn it would tell the order of what is left."""
    order = {"draw": ["c-3", "c-1", "c-2"], "discard": []}
    entry = {"id": "l1", "at": "2026-11-25T10:00:00Z", "kind": f"{system}.draw", "system": system,
             "label": "pioche", "request": {"op": f"{system}.x", "seed": 4},
             "result": {"deck_used": order, "test": {"deck_used": order, "count": 2}, "summary": "ok"}}
    out = ok({"op": "store.share", "kind": "entry", "data": entry, "audience": "player"})["data"]
    assert "c-3" not in json.dumps(out)
    assert out["result"] == {"test": {"count": 2}, "summary": "ok"} and out["request"] == {"op": f"{system}.x"}


@pytest.mark.parametrize(
    ("kind", "data", "code"),
    [
        ("character", {"id": "x", "system": "unicreon", "name": "X"}, "share.invalid"),
        ("character", "not a character", "share.invalid"),
        ("entry", {"id": "l", "kind": "roll"}, "share.invalid"),
        ("table", {"schema": 99, "app": "tablee"}, "store.newer"),
        ("table", [1, 2], "store.not_object"),
    ],
)
def test_invalid_data_is_refused_with_a_code(kind, data, code):
    r = api.handle({"op": "store.share", "kind": kind, "data": data, "audience": "player"})
    assert r["error"]["code"] == code, r


def test_every_system_registers_a_player_filter():
    assert set(share.SHARE_FILTERS) == set(SYSTEM_IDS)


def test_a_system_without_a_filter_is_refused_not_leaked(table, monkeypatch):
    monkeypatch.delitem(share.SHARE_FILTERS, "pointzero")
    # Importing the package again does not register it (already imported): fail closed.
    r = api.handle({"op": "store.share", "kind": "table", "data": table, "audience": "player"})
    assert r["error"]["code"] == "share.no_filter" and r["error"]["params"] == {"system": "pointzero"}


def test_scrub_removes_keys_at_any_depth_and_copies():
    value = {"a": [{"deck": 1, "b": {"deck": [2]}}], "deck": 3, "c": "deck"}
    assert share.scrub(value, frozenset({"deck"})) == {"a": [{"b": {}}], "c": "deck"}
    assert value["deck"] == 3
