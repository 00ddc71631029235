"""The live-table Node tests' shared set-up: one Node process running
tests/live/session_harness.mjs per test module, and a "world" per test (an MJ's table and two
phones, p1 playing "a" and p2 playing "b", joined over held in-memory links and settled).

Test modules import these helpers from here, never from ``conftest``."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from node_harness import NodeHarness

_COUNTER = itertools.count()


@contextmanager
def harness(path) -> Iterator[NodeHarness]:
    """One Node process for a module's tests, closed after them."""
    node = NodeHarness(path)
    try:
        yield node
    finally:
        node.close()


@contextmanager
def two_phone_world(node, prefix: str, mj: dict, phone) -> Iterator[str]:
    """A world named ``<prefix><n>``: the MJ's table ``mj``, and two phones (``phone(name)`` gives
    each its table) that join and claim their character; dropped afterwards."""
    name = f"{prefix}{next(_COUNTER)}"
    node("world", world=name, mj=mj)
    for player, claim in (("p1", ["a"]), ("p2", ["b"])):
        node("player", world=name, name=player, doc=phone(player))
        node("connect", world=name, name=player)
        node("claim", world=name, name=player, characters=claim)
    node("settle", world=name)
    try:
        yield name
    finally:
        node("drop", world=name)


ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "tests" / "live" / "session_harness.mjs"


SECRET = "SECRET-OF-THE-MJ"
HAND_A = ["arcane-HAND-A-1", "arcane-HAND-A-2"]
HAND_B = ["arcane-HAND-B-1"]


def character(cid: str, name: str, **more) -> dict:
    return {"id": cid, "system": "unicreon", "name": name, "secret": "", "pv": 10, "skills": [], **more}


def mj_table() -> dict:
    return {
        "schema": 1, "app": "tablee", "name": "Campagne", "language": "fr",
        "characters": [character("a", "Aube", secret=SECRET), character("b", "Brume")],
        "log": [{"id": "l1", "at": "2026-11-23T10:00:00.000Z", "kind": "roll", "system": None, "label": "d6",
                 "request": {"op": "roll"}, "result": {"total": 3}}],
        "systems": {
            "theorem": {"mj": {"threshold": SECRET}, "round": 1, "piles": {
                "draw": {"cards": ["c3", "c1"], "visibility": "hidden", "owner": None},
                "hand-a": {"cards": HAND_A, "visibility": "owner", "owner": "a"},
                "hand-b": {"cards": HAND_B, "visibility": "owner", "owner": "b"},
                "table": {"cards": [], "visibility": "public", "owner": None},
            }},
            "unicreon": {"round": 2, "fighters": ["a", "b"]},
        },
        "settings": {},
        "quarantine": [{"kind": "character", "path": "characters.9", "problems": [], "data": {"note": SECRET}}],
    }


def phone_table(name: str) -> dict:
    return {"schema": 1, "app": "tablee", "name": f"Table de {name}", "language": "en", "characters": [],
            "log": [], "systems": {}, "settings": {}}


def state(node, world):
    return node("state", world=world)


def char(doc, cid):
    return next(c for c in doc["characters"] if c["id"] == cid)


def assert_nothing_hidden_reached(s, player, others_hand):
    text = json.dumps(s[player]["doc"]) + json.dumps(s[player]["private"]) + "".join(s[player]["received"])
    assert SECRET not in text
    for card in others_hand:
        assert card not in text
