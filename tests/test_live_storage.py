"""What a live table keeps on each device (static/js/live/ystore.js, session.js, sync.js), run in
Node by tests/live/storage_harness.mjs: an MJ's device and phones over in-memory links, each
over its own storage counted in characters as localStorage is, the table saved by storage.js.

What a long campaign relies on:
- the MJ's device keeps its table once: no Y state beside it (its docs are made again from the
  table at each start), so its live keys stay small against the table after many moves;
- a phone keeps its Y state packed: less than its table, not 1.9 times it in base64; of a large
  table, its private doc alone (the public one would be a second copy of its table: on WebKit, which
  counts the packed characters two bytes each, a phone of a full-log campaign stood at 50 % of the
  storage), and a reload shows its table until the sync gives the hub's state whole;
- the MJ's docs made again (a restart, or a copy lost) are a new generation: a phone holding an
  older one, or a copy saved before generations, drops it and ends with exactly the MJ's table,
  no log entry twice; its moves made while away are applied once, after the reset.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from live_world import harness
from node_harness import NODE

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "tests" / "live" / "storage_harness.mjs"

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")

LIVE = ("tablee.live", "tablee.live.y", "tablee.live.y.delta")


@pytest.fixture(scope="module")
def node():
    with harness(HARNESS) as running:
        yield running


def full_log_table(entries: int = 1000) -> dict:
    """A campaign whose log is at its cap: each new entry pushes the oldest out."""
    log = [{"id": f"log-{n:04d}", "at": f"2026-11-01T10:{n % 60:02d}:00.000Z", "system": None, "kind": "roll",
            "label": "3d6", "who": "MJ", "request": {"op": "roll", "expr": "3d6", "seed": n},
            "result": {"total": 3 + n % 16, "terms": [{"kind": "dice", "text": "3d6", "dice": [1 + n % 6, 2, 3]}]}}
           for n in range(entries)]
    characters = [{"id": f"c{n}", "system": "unicreon", "name": f"Personnage {n}", "pv": 10,
                   "notes": "Une note de campagne. " * 20} for n in range(20)]
    return {"schema": 1, "app": "tablee", "name": "Campagne", "language": "fr", "characters": characters,
            "log": log, "systems": {}, "settings": {}}


def phone_table(name: str) -> dict:
    return {"schema": 1, "app": "tablee", "name": f"Table de {name}", "language": "fr", "characters": [],
            "log": [], "systems": {}, "settings": {}}


_COUNT = iter(range(10**6))


@pytest.fixture
def world(node):
    name = f"s{next(_COUNT)}"
    node("world", world=name, mj=full_log_table())
    for phone in ("p1", "p2"):
        node("player", world=name, name=phone, doc=phone_table(phone))
        node("connect", world=name, name=phone)
    try:
        yield name
    finally:
        node("drop", world=name)


def live_chars(sizes: dict) -> int:
    return sum(v for k, v in sizes.items() if k in LIVE)


def log_ids(doc: dict) -> list:
    return [e["id"] for e in doc["log"]]


def test_the_mjs_device_keeps_its_table_once_and_a_phone_its_y_state_packed(node, world):
    answers = node("moves", world=world, name="p1", count=40)
    assert all(a.startswith("live-") for a in answers)
    mj = node("sizes", world=world, name="mj")
    table = mj["tablee.document"]
    assert "tablee.live.y" not in mj and "tablee.live.y.delta" not in mj  # no second copy of the table
    assert live_chars(mj) < table / 20, mj
    for phone in ("p1", "p2"):
        sizes = node("sizes", world=world, name=phone)
        assert sizes["tablee.live.y"] < sizes["tablee.document"], (phone, sizes)  # (base64: 1.9 times it)
        assert live_chars(sizes) < 1.2 * sizes["tablee.document"], (phone, sizes)
        backups = [k for k in sizes if k.startswith("tablee.backup.")]
        assert len(backups) == 1 and sizes[backups[0]] < 1000  # its own table before it joined, once
    s = node("state", world=world)
    assert log_ids(s["p1"]["doc"]) == log_ids(s["mj"]["doc"]) and len(s["mj"]["doc"]["log"]) == 1000


@pytest.mark.parametrize("lose", ["nothing", "save", "y"])
def test_an_mjs_restart_makes_its_docs_again_and_a_phone_resets_to_exactly_its_table(node, world, lose):
    """`lose`: the MJ's page reloads after a save, after a crash (its planned save lost), or with
    its Y state gone (what made a phone merge two histories before generations)."""
    node("moves", world=world, name="p1", count=5)
    before = node("state", world=world)
    for phone in ("p1", "p2"):
        node("disconnect", world=world, name=phone)
    node("restart", world=world, name="mj", lose=lose != "nothing", wipeY=lose == "y")
    s = node("state", world=world)
    assert s["mj"]["epoch"] != before["mj"]["epoch"]
    assert s["mj"]["public"]["log"] == s["mj"]["view"]["log"]  # made again from the table
    for phone in ("p1", "p2"):
        node("connect", world=world, name=phone)
    node("moves", world=world, name="p1", count=3)
    s = node("state", world=world)
    for phone in ("p1", "p2"):
        assert s[phone]["epoch"] == s["mj"]["epoch"], phone
        assert s[phone]["public"] == s["mj"]["public"], phone  # the hub's docs, not two histories
        ids = log_ids(s[phone]["doc"])
        assert ids == log_ids(s["mj"]["doc"]) and len(set(ids)) == len(ids) == 1000, phone
        assert s[phone]["backups"] == 1, phone  # the reset backs nothing up again


def test_a_phone_holding_a_copy_saved_before_generations_drops_it(node, world):
    node("moves", world=world, name="p1", count=3)
    node("disconnect", world=world, name="p1")
    node("oldCopy", world=world, name="p1")
    node("restart", world=world, name="p1")
    node("restart", world=world, name="mj")  # (its links close with its page)
    node("connect", world=world, name="p2")
    node("moves", world=world, name="p2", count=2)  # (the table went on meanwhile)
    node("connect", world=world, name="p1")
    s = node("state", world=world)
    assert s["p1"]["epoch"] == s["mj"]["epoch"]
    assert s["p1"]["public"] == s["mj"]["public"]
    assert log_ids(s["p1"]["doc"]) == log_ids(s["mj"]["doc"])
    saved = node("sizes", world=world, name="p1")
    assert saved["tablee.live.y"] < saved["tablee.document"]  # saved again, packed, of the new generation


def test_a_move_waiting_on_a_phone_through_the_reset_is_applied_once(node, world):
    node("disconnect", world=world, name="p1")
    node("moves", world=world, name="p1", count=2, wait=False)
    assert node("state", world=world)["p1"]["queue"] == 2
    node("restart", world=world, name="p1")  # the phone reloads too: its queue is in its record
    node("restart", world=world, name="mj")  # (its links close with its page)
    node("connect", world=world, name="p1")
    node("connect", world=world, name="p2")
    node("settle", world=world)
    s = node("state", world=world)
    assert s["p1"]["queue"] == 0
    mine = [a["id"] for a in s["mj"]["accepted"] if a["member"] == "m-p1"]
    assert len(mine) == 2
    for who in ("mj", "p1", "p2"):
        ids = log_ids(s[who]["doc"])
        assert all(ids.count(i) == 1 for i in mine), who
        assert len(set(ids)) == len(ids), who
    assert log_ids(s["p1"]["doc"]) == log_ids(s["mj"]["doc"])


def large_table() -> dict:
    """A campaign whose public doc is past what a phone keeps (ystore.js PUBLIC_Y_MAX_BYTES), in
    French as the app writes it (U+202F, "’": the table's text is 16-bit, stored 8-bit)."""
    doc = full_log_table()
    for c in doc["characters"]:
        c["notes"] = "L’équipée vers la côte\u202f; la dette envers la guilde\u202f! " * 200
    return doc


def test_a_phone_keeps_only_its_own_doc_of_a_large_table_and_a_reload_takes_the_hubs_whole(node):
    name = "large"
    node("world", world=name, mj=large_table())
    try:
        for phone in ("p1", "p2"):
            node("player", world=name, name=phone, doc=phone_table(phone))
            node("connect", world=name, name=phone)
        assert all(a.startswith("live-") for a in node("moves", world=name, name="p1", count=20))
        base = node("ybase", world=name, name="p1")
        assert base["private"] and not base["public"], base
        sizes = node("bytes", world=name, name="p1")  # (as WebKit counts them)
        assert sizes["tablee.document"] < 1.1 * node("sizes", world=name, name="p1")["tablee.document"]  # stored 8-bit
        assert sum(v for k, v in sizes.items() if k in LIVE) < sizes["tablee.document"] / 50, sizes
        before = node("state", world=name)
        # reloaded away from the table: its table shows, the public doc is empty until the sync
        node("disconnect", world=name, name="p1")
        node("restart", world=name, name="p1")
        s = node("state", world=name)
        assert not s["p1"]["public"].get("characters"), s["p1"]["public"].keys()
        assert log_ids(s["p1"]["doc"]) == log_ids(before["mj"]["doc"])
        got = node("connect", world=name, name="p1")
        s = node("state", world=name)
        assert s["p1"]["public"] == s["mj"]["public"] and log_ids(s["p1"]["doc"]) == log_ids(s["mj"]["doc"])
        assert got["received"] > 100_000  # (the hub's state whole)
        assert s["p1"]["backups"] == 1  # its table is not backed up again
        assert all(a.startswith("live-") for a in node("moves", world=name, name="p1", count=3))
        s = node("state", world=name)
        assert log_ids(s["p1"]["doc"]) == log_ids(s["mj"]["doc"]) == log_ids(s["p2"]["doc"])
    finally:
        node("drop", world=name)
