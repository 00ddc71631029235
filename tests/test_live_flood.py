"""A player cannot crowd out a live table (static/js/live/hub.js, sync.js): a member's moves and
notes go at the table's pace (a token bucket: 30 a minute, a burst of 10), the rest refused with
a message on that phone; every kind of refusal reaches the MJ's feed, grouped by member so a
flood hides nothing, and the feed's unseen count is its lines marked new. Run in Node by
tests/live/session_harness.mjs over held in-memory links (sync.js's memoryLinkPair({manual}))."""

from __future__ import annotations

import pytest

from live_world import state
from node_harness import NODE

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")


def note(i):
    return {"op": "live.log.add", "entry": {"id": f"flood-{i}", "kind": "note", "label": f"n{i}", "request": {},
                                            "result": {}}}


def test_a_flood_of_notes_goes_at_the_tables_pace_and_the_mj_sees_it_as_one_line(node, world):
    node("rate", world=world, perMinute=30, burst=10)
    node("append", world=world, name="mj", key="log", value={
        "id": "mj-secret", "at": "2026-11-23T10:05:00.000Z", "kind": "roll", "system": None, "label": "d20",
        "request": {"op": "roll"}, "result": {"total": 17}, "to": "mj"})
    node("settle", world=world)
    before = state(node, world)["mj"]
    for i in range(60):
        node("hostile", world=world, name="p1", kind="move", value=note(i))
    node("settle", world=world)
    s = state(node, world)
    log = s["mj"]["doc"]["log"]
    added = [e for e in log if e["id"].startswith("flood-")]
    assert 10 <= len(added) <= 12  # the burst, and what the bucket refilled meanwhile
    assert [e["id"] for e in log[:2]] == ["l1", "mj-secret"]  # the MJ's entries stay
    feed = s["mj"]["feed"][len(before["feed"]):]
    refused = [f for f in feed if f["code"]]
    assert len(refused) == 1  # one line for p1's refusals, not 48
    assert refused[0]["name"] == "p1" and refused[0]["count"] == 60 - len(added)
    assert refused[0]["kinds"] == {"live.refused.rate": 60 - len(added)}
    assert s["mj"]["unseen"] == before["unseen"] + len(feed)  # each line new once
    assert s["p1"]["open"]


def test_an_honest_phones_actions_beyond_the_pace_wait_and_go(node, world):
    """The refused ones stay waiting on the phone (said once) and are sent again once the table
    takes them. (A faster pace than the table's real one, the same rule: no test sleeps 10 s.)"""
    node("rate", world=world, perMinute=1200, burst=3)
    for i in range(6):
        entry = {"kind": "note", "label": f"note {i}", "request": {}, "result": {}}
        node("addLog", world=world, name="p2", entry=entry)
    for _ in range(100):
        node("settle", world=world)
        if state(node, world)["p2"]["queue"] == []:
            break
        node("sleep", ms=20)
    s = state(node, world)
    notes = [e["label"] for e in s["mj"]["doc"]["log"] if e["label"].startswith("note")]
    assert notes == [f"note {i}" for i in range(6)]
    assert s["p2"]["notices"].count(["warning", "live.refused.rate"]) == 1


@pytest.mark.parametrize("kind,value,code", [
    ("write", {"characters": [], "log": [], "systems": {}}, "live.refused.write"),
    ("presence", {"name": "p1", "role": "mj", "member": "m-p1"}, "live.refused.presence"),
    ("bytes", [2, 0, 5, 123, 34], "live.refused.malformed"),
    ("oversize", 300_000, "live.refused.too_large"),
])
def test_every_kind_of_refusal_reaches_the_mjs_feed_grouped_by_member_and_kind(node, world, kind, value, code):
    before = state(node, world)["mj"]
    for i in range(3):
        sent = {**value, "note": str(i)} if kind == "write" else value  # (a write differs each time)
        node("hostile", world=world, name="p1", kind=kind, value=sent)
        node("settle", world=world)
    node("hostile", world=world, name="p1", kind="move", value={"op": "test.draw", "character": {"id": "b"}})
    node("settle", world=world)
    s = state(node, world)["mj"]
    feed = s["feed"][len(before["feed"]):]
    assert [(f["name"], f["code"], f["count"]) for f in feed] == [("p1", code, 3), ("p1", "live.refused.character", 1)]
    assert feed[0]["kinds"] == {code: 3}
    assert s["unseen"] == before["unseen"] + 2  # one line each, each new once
