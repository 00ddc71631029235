"""The live table's session and referee (static/js/live/session.js, sync.js), run in Node by
tests/live/session_harness.mjs: an MJ device and player devices, each a stand-in app with its
own storage, joined by held in-memory links that the test delivers in any order. The hub's
`live.move` there is a stand-in referee (the real one is py/tablee/referee.py, tests/test_referee.py).

What a table relies on:
- a player's device takes the public table on its first join (its own table backed up first)
  and keeps its language; the MJ's secrets and another player's hand never reach it, in its
  table, its private doc or any byte it received;
- a phone writes nothing: its moves (a draw into its own hand, a sheet edit, a roll) are run
  by the MJ's device on the whole table and reach the others from there; the phone gets the
  referee's answer;
- the hostile phone of issue "the MJ's device referees every move": a direct write, a forged
  presence, another member's id, another player's character, an MJ op, oversized or malformed
  bytes, a flood: each refused, the MJ's table unchanged, nothing relayed, the link still open;
- a move made while the link is down waits, visibly, and is applied after the rejoin (or
  cancelled by the player); a reloaded phone keeps its characters and its waiting moves;
- characters are the MJ's to assign, one player each.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from live_world import (
    HAND_A,
    HAND_B,
    SECRET,
    assert_nothing_hidden_reached,
    char,
    character,
    mj_table,
    phone_table,
    state,
)
from node_harness import NODE

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")


def test_a_player_takes_the_public_table_and_nothing_hidden(node, world):
    s = state(node, world)
    mj, p1, p2 = s["mj"], s["p1"], s["p2"]
    assert p1["joined"] and p2["joined"]
    assert p1["backups"] == 1 and p2["backups"] == 1  # each phone's own table was kept first
    assert p1["doc"]["language"] == "en"  # a device keeps its own language
    assert "quarantine" not in p1["doc"]
    expected = {k: v for k, v in mj["projection"].items()}
    assert {k: v for k, v in p1["doc"].items() if k != "language"} == expected
    assert char(p1["doc"], "a")["secret"] == ""
    assert p1["doc"]["systems"]["theorem"]["piles"]["hand-a"]["cards"] == []
    # Each player's hand reaches that player only.
    assert [h["cards"] for h in p1["private"]["hands"]] == [HAND_A]
    assert [h["cards"] for h in p2["private"]["hands"]] == [HAND_B]
    assert_nothing_hidden_reached(s, "p1", HAND_B)
    assert_nothing_hidden_reached(s, "p2", HAND_A)
    # Presence: the MJ and both players, with their characters, seen from a phone.
    seen = {p["name"]: (p["role"], p["here"], p["characters"]) for p in p2["presence"]}
    assert seen == {"mj": ("mj", True, []), "p1": ("player", True, ["a"]), "p2": ("player", True, ["b"])}


def test_a_roll_an_edit_and_a_draw_from_phones_reach_every_device(node, world):
    entry = {"id": "l2", "at": "9999-01-01T00:00:00.000Z", "kind": "roll", "system": None, "label": "2d6",
             "request": {"op": "roll"}, "result": {"total": 8}}
    node("append", world=world, name="p1", key="log", value=entry)
    node("edit", world=world, name="p2", path=["characters", "b", "name"], value="Brume la Grise")
    node("edit", world=world, name="mj", path=["systems", "theorem", "piles", "table", "cards"], value=["c9"])
    slot = node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"},
                                                          "state": {"forged": True}})
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        doc = s[who]["doc"]
        assert [e["id"] for e in doc["log"]] == ["l1", "l2"], who
        assert doc["log"][1]["at"] != entry["at"], who  # dated by the MJ's device
        assert char(doc, "b")["name"] == "Brume la Grise", who
        assert doc["systems"]["theorem"]["piles"]["table"]["cards"] == ["c9"], who
        assert doc["systems"]["theorem"]["piles"]["draw"]["cards"] == ["c1"], who  # c3 was drawn
    # the draw went into p1's own hand on the MJ's table, and reached p1's private doc only
    mj = s["mj"]["doc"]
    assert mj["systems"]["theorem"]["piles"]["hand-a"]["cards"] == [*HAND_A, "c3"]
    assert [h["cards"] for h in s["p1"]["private"]["hands"]] == [[*HAND_A, "c3"]]
    answer = node("answers", world=world, name="p1")[slot]
    assert answer["drawn"] == 1 and answer["state"]["piles"]["hand-a"]["cards"] == []
    # The MJ's secrets are untouched; the moves are in the MJ's feed.
    assert char(mj, "a")["secret"] == SECRET
    assert mj["systems"]["theorem"]["mj"] == {"threshold": SECRET}
    assert mj["quarantine"][0]["data"]["note"] == SECRET
    assert [(f["name"], f["op"], f["code"]) for f in s["mj"]["feed"][-3:]] == [
        ("p1", "live.log.add", None), ("p2", "live.character.save", None), ("p1", "test.draw", None)] or \
        sorted((f["name"], f["op"]) for f in s["mj"]["feed"][-3:]) == [
        ("p1", "live.log.add"), ("p1", "test.draw"), ("p2", "live.character.save")]
    assert s["mj"]["unseen"] >= 3
    assert_nothing_hidden_reached(s, "p1", HAND_B)
    assert_nothing_hidden_reached(s, "p2", HAND_A)  # (c3 was in the public composition of the draw pile)


def test_a_phone_cannot_edit_or_draw_for_another_players_character(node, world):
    before = state(node, world)["mj"]["doc"]
    node("edit", world=world, name="p1", path=["characters", "b", "pv"], value=0)
    slot = node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "b"}})
    node("settle", world=world)
    s = state(node, world)
    assert s["mj"]["doc"] == before
    assert node("answers", world=world, name="p1")[slot]["error"]["code"] == "live.refused.character"
    assert ["warning", "live.refused.character"] in s["p1"]["notices"]  # the sheet edit, refused
    assert char(s["p1"]["doc"], "b")["pv"] == 10  # the phone shows the table, not its guess
    assert s["p1"]["open"]
    _honest_move_still_works(node, world)
    # an edit of one's own sheet goes through, the blanked secret staying the MJ's
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=7)
    node("settle", world=world)
    s = state(node, world)
    assert char(s["mj"]["doc"], "a")["pv"] == 7 and char(s["p2"]["doc"], "a")["pv"] == 7
    assert char(s["mj"]["doc"], "a")["secret"] == SECRET


def _honest_move_still_works(node, world):
    drawn = state(node, world)["mj"]["doc"]["systems"]["theorem"]["piles"]["hand-a"]["cards"]
    slot = node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}})
    node("settle", world=world)
    s = state(node, world)
    assert node("answers", world=world, name="p1")[slot]["drawn"] == 1
    assert len(s["mj"]["doc"]["systems"]["theorem"]["piles"]["hand-a"]["cards"]) == len(drawn) + 1
    assert char(s["mj"]["doc"], "a")["secret"] == SECRET


@pytest.mark.parametrize("kind,value", [
    ("write", {"characters": [], "log": [], "systems": {}, "note": "p1 wrote this terrible secret"}),
    ("write-private", {"hands": [{"cards": HAND_B}], "characters": ["b"]}),
    ("presence", {"name": "p2", "role": "mj", "member": "m-p2", "characters": ["b"]}),
    ("presence", {"name": "p1", "role": "mj", "member": "m-p1", "characters": []}),
    ("move", {"op": "mj.delete", "character": "b"}),
    ("move", {"op": "test.draw", "character": {"id": "b"}}),
    ("bytes", [255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 1]),
    ("bytes", [2, 0, 5, 123, 34]),
    ("oversize", 300_000),
])
def test_a_hostile_phone_is_refused_and_nothing_is_relayed(node, world, kind, value):
    before = state(node, world)
    node("hostile", world=world, name="p1", kind=kind, value=value)
    node("settle", world=world)
    s = state(node, world)
    assert s["mj"]["doc"] == before["mj"]["doc"]
    assert s["p2"]["doc"] == before["p2"]["doc"]
    assert "p1 wrote" not in "".join(s["p2"]["received"])  # the hub relays nothing it has not accepted
    for who in ("mj", "p2"):  # no forged presence reached anyone
        roles = {(p["id"], p["role"]) for p in s[who]["presence"]}
        assert roles == {(p["id"], p["role"]) for p in before[who]["presence"]}
    assert s["p1"]["open"]  # the link stays open for honest messages
    assert_nothing_hidden_reached(s, "p2", HAND_A)
    if not kind.startswith("write"):  # (what p1 wrote into its own docs is p1's own)
        assert_nothing_hidden_reached(s, "p1", HAND_B)
    _honest_move_still_works(node, world)


def test_a_phone_answering_with_another_members_id_is_refused(node, world):
    node("player", world=world, name="p3", doc=phone_table("p3"))
    assert node("connect", world=world, name="p3", **{"as": "m-p2"}) is False
    node("settle", world=world)
    s = state(node, world)
    assert s["mj"]["notices"][-1] == ["warning", "live.refused.identity"]
    assert s["p2"]["open"] and [h["cards"] for h in s["p2"]["private"]["hands"]] == [HAND_B]
    assert {p["name"] for p in s["mj"]["presence"]} == {"mj", "p1", "p2"}
    # with p2's own key (the same phone, rejoining) it would be admitted
    assert node("connect", world=world, name="p3", **{"as": "m-p3"}) is True


def test_a_flood_of_moves_is_refused_beyond_a_bound_and_the_mjs_rolls_stay(node, world):
    for i in range(60):
        node("hostile", world=world, name="p1", kind="move", value={"op": "live.log.add", "entry": {"id": f"f{i}"}})
    node("settle", world=world)
    s = state(node, world)
    log = s["mj"]["doc"]["log"]
    assert log[0]["id"] == "l1"  # the MJ's roll is still there
    assert 1 < len(log) <= 61
    assert s["p1"]["open"]


def test_a_move_made_offline_waits_and_is_applied_after_the_rejoin(node, world):
    node("disconnect", world=world, name="p1")
    slot = node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}})
    node("edit", world=world, name="p1", path=["characters", "a", "name"], value="Aube (hors ligne)")
    node("settle", world=world)
    s = state(node, world)
    assert s["p1"]["queue"] == ["test.draw", "live.character.save"]  # shown as waiting
    assert s["mj"]["doc"]["systems"]["theorem"]["piles"]["hand-a"]["cards"] == HAND_A
    assert node("answers", world=world, name="p1")[slot] is None
    node("connect", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    assert s["p1"]["queue"] == []
    assert s["mj"]["doc"]["systems"]["theorem"]["piles"]["hand-a"]["cards"] == [*HAND_A, "c3"]
    for who in ("mj", "p1", "p2"):
        assert char(s[who]["doc"], "a")["name"] == "Aube (hors ligne)", who
    assert node("answers", world=world, name="p1")[slot]["drawn"] == 1


def test_a_move_answered_busy_waits_and_is_sent_again_until_it_is_applied(node, world):
    """The referee answers "busy" when the MJ's table changed under a move three times running:
    a state that passes. The phone keeps the move waiting and sends it again (the answer is not
    kept as the move's: the next run plays it), and it is applied once; its page gets that answer."""
    node("churn", world=world, count=3)  # the first run of the move: three tries, three changes
    slot = node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}})
    node("settle", world=world)
    assert state(node, world)["p1"]["queue"] == ["test.draw"]  # answered busy: still waiting
    assert node("answers", world=world, name="p1")[slot] is None
    for _ in range(40):  # the retry comes after 250 ms: wait for its state, not for a time
        node("sleep", ms=50)
        node("settle", world=world)
        if state(node, world)["p1"]["queue"] == []:
            break
    s = state(node, world)
    assert s["p1"]["queue"] == []
    assert s["mj"]["doc"]["systems"]["theorem"]["piles"]["hand-a"]["cards"] == [*HAND_A, "c3"]  # once
    assert node("answers", world=world, name="p1")[slot]["drawn"] == 1


def test_a_move_still_busy_after_every_retry_is_refused_with_its_reason(node, world):
    node("churn", world=world, count=1000)
    slot = node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}})
    for _ in range(400):  # five retries: 250 ms, then twice as long each time (7.75 s in all)
        node("sleep", ms=50)
        node("settle", world=world)
        if node("answers", world=world, name="p1")[slot] is not None:
            break
    assert node("answers", world=world, name="p1")[slot]["error"]["code"] == "live.refused.busy"
    s = state(node, world)
    assert s["p1"]["queue"] == []
    assert s["mj"]["doc"]["systems"]["theorem"]["piles"]["hand-a"]["cards"] == HAND_A


def test_a_waiting_move_can_be_cancelled(node, world):
    node("disconnect", world=world, name="p1")
    slot = node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}})
    node("settle", world=world)
    assert node("cancel", world=world, name="p1") == 1
    node("connect", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    assert s["mj"]["doc"]["systems"]["theorem"]["piles"]["hand-a"]["cards"] == HAND_A
    assert node("answers", world=world, name="p1")[slot]["error"]["code"] == "live.cancelled"


def test_a_reloaded_phone_keeps_its_characters_and_its_waiting_moves(node, world):
    node("disconnect", world=world, name="p2")
    node("restart", world=world, name="p2")
    node("edit", world=world, name="p2", path=["characters", "b", "pv"], value=1)
    node("restart", world=world, name="p2")  # reloaded again while the move waits
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=9)
    node("settle", world=world)
    s = state(node, world)
    assert s["p2"]["assigned"] == ["b"] and s["p2"]["queue"] == ["live.character.save"]
    node("connect", world=world, name="p2")
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        assert (char(s[who]["doc"], "a")["pv"], char(s[who]["doc"], "b")["pv"]) == (9, 1), who
    assert s["p2"]["backups"] == 1  # the resumed phone did not take the table a second time
    assert [h["cards"] for h in s["p2"]["private"]["hands"]] == [HAND_B]


def test_a_save_writes_the_updates_since_the_last_one_not_the_whole_table(node, world):
    """A phone's Y docs are saved as a base (each doc whole) and the updates made since, appended: a
    move's save writes that move's updates, and a reload rebuilds the same docs from both. The
    MJ's device saves none (its docs are made again from its table)."""
    mj = node("saved", world=world, name="mj")
    assert mj["base"] is None and mj["delta"] is None and "public" not in mj["record"]
    for who in ("p2", "p1"):
        first = node("saved", world=world, name=who)
        assert "public" not in first["record"] and "private" not in first["record"]
        assert first["base"]["role"] == "player"
    node("edit", world=world, name="mj", path=["characters", "a", "pv"], value=3)
    node("settle", world=world)
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=4)
    node("settle", world=world)
    for pv, who in ((11, "p2"), (12, "p1")):
        before = node("saved", world=world, name=who)
        node("edit", world=world, name="mj", path=["characters", "b", "pv"], value=pv)
        node("settle", world=world)
        after = node("saved", world=world, name=who)
        assert after["base"] == before["base"], who  # the whole table is not written again
        updates = before["delta"]["updates"] if before["delta"] else []
        assert after["delta"]["base"] == after["base"]["id"]
        assert after["delta"]["updates"][:len(updates)] == updates
        assert len(after["delta"]["updates"]) == len(updates) + 1
    s = state(node, world)
    assert char(s["p1"]["doc"], "a")["pv"] == 4 and char(s["p1"]["doc"], "b")["pv"] == 12
    for who in ("p1", "mj"):  # a reload (its planned save lost) rebuilds the same docs
        docs = node("ydocs", world=world, name=who)
        node("restartAsIs", world=world, name=who)
        node("settle", world=world)  # (the MJ's from its table: its worker answers first)
        assert node("ydocs", world=world, name=who) == docs, who


def test_the_saved_updates_are_folded_into_a_new_base_once_they_outgrow_it(node, world):
    """Appending for ever would make each save longer: past 32 kB (or a quarter of the base) the
    updates are folded into a new base; a delta left from an older base is never read."""
    first = node("saved", world=world, name="p1")
    for n in range(12):
        node("edit", world=world, name="mj", path=["characters", "a", "name"], value=f"{n}-" + "x" * 8000)
        node("settle", world=world)
        node("saved", world=world, name="p1")
    node("settle", world=world)  # (the fold waits for an idle moment)
    after = node("saved", world=world, name="p1")
    assert after["base"]["id"] != first["base"]["id"]
    assert after["delta"] is None or len(json.dumps(after["delta"], ensure_ascii=False)) < 32 * 1024
    docs = node("ydocs", world=world, name="p1")
    assert docs["public"]["characters"][0]["name"].startswith("11-")
    node("restartAsIs", world=world, name="p1")
    assert node("ydocs", world=world, name="p1") == docs


def test_a_session_saved_in_the_record_itself_is_read_and_its_next_save_writes_the_y_keys(node, world):
    """A session saved by a version that kept the Y docs in the record reloads from it."""
    for who in ("mj", "p2"):
        docs = node("ydocs", world=world, name=who)
        node("legacy", world=world, name=who)
        node("restartAsIs", world=world, name=who)
        assert node("ydocs", world=world, name=who) == docs, who
        saved = node("saved", world=world, name=who)
        # (the MJ's device keeps no Y state: its docs are made again from its table)
        assert (saved["base"] is not None) == (who == "p2") and "public" not in saved["record"], who
        node("restartAsIs", world=world, name=who)
        node("settle", world=world)
        assert node("ydocs", world=world, name=who) == docs, who
    node("connect", world=world, name="p2")  # (the reloaded pages link again)
    node("settle", world=world)
    node("edit", world=world, name="p2", path=["characters", "b", "pv"], value=2)
    node("settle", world=world)
    assert char(state(node, world)["mj"]["doc"], "b")["pv"] == 2


def test_a_character_made_on_a_phone_joins_the_table_as_that_players(node, world):
    node("append", world=world, name="p2", key="characters", value=character("n", "Nouvelle"))
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        assert char(s[who]["doc"], "n")["name"] == "Nouvelle", who
    assert s["p2"]["assigned"] == ["b", "n"]


def test_characters_are_asked_for_and_assigned_by_the_mj_one_player_each(node, world):
    node("ask", world=world, name="p2", characters=["a", "b"])
    node("settle", world=world)
    s = state(node, world)
    assert s["p2"]["assigned"] == ["b"]  # asking is not getting: no hand of "a" yet
    assert_nothing_hidden_reached(s, "p2", HAND_A)
    asked = {p["name"]: p["asked"] for p in s["mj"]["presence"]}
    assert asked["p2"] == ["a", "b"]
    node("assign", world=world, name="p2", characters=["a", "b"])
    node("settle", world=world)
    s = state(node, world)
    assert s["p2"]["assigned"] == ["a", "b"] and s["p1"]["assigned"] == []  # taken from p1
    assert [h["cards"] for h in s["p2"]["private"]["hands"]] == [HAND_A, HAND_B]
    assert s["p1"]["private"]["hands"] == []


MOVES = st.lists(
    st.tuples(
        st.sampled_from(["p1", "p2"]),
        st.one_of(
            st.tuples(st.just("draw"), st.sampled_from(["a", "b"])),
            st.tuples(st.just("pv"), st.sampled_from(["a", "b"]), st.integers(0, 20)),
        ),
    ),
    min_size=1,
    max_size=8,
)


def test_the_phone_that_moved_gets_its_answer_before_the_table_it_made(node, world):
    """The MJ's device publishes a move's table right after it sent the answer (the hub's
    `onanswered`): the phone that moved is answered first, then every phone gets the table."""
    before = len(state(node, world)["p1"]["received"])
    node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}})
    node("settle", world=world)
    s = state(node, world)
    new = s["p1"]["received"][before:]
    answer = next(i for i, m in enumerate(new) if m.startswith("\x03"))
    table = next(i for i, m in enumerate(new) if m.startswith("\x00\x06public"))
    assert answer < table
    assert s["p1"]["doc"]["systems"]["theorem"]["piles"]["draw"]["cards"] == ["c1"]
    assert {k: v for k, v in s["p2"]["doc"].items() if k != "language"} == s["mj"]["projection"]


def test_no_phone_gets_a_table_the_mjs_device_has_not_saved(node, world):
    """The public doc is written once the MJ's device saved the move's table (phones write
    nothing back: a table they got and the MJ's device then lost in a crash would stay on them).
    The phone that moved has its answer at once."""
    node("writes", world=world, hold=True)
    slot = node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}})
    node("settle", world=world)
    s = state(node, world)
    assert node("answers", world=world, name="p1")[slot]["drawn"] == 1
    assert s["mj"]["doc"]["systems"]["theorem"]["piles"]["draw"]["cards"] == ["c1"]  # applied, not yet saved
    for who in ("p1", "p2"):
        assert s[who]["doc"]["systems"]["theorem"]["piles"]["draw"]["cards"] == ["c1", "c3"], who
    node("writes", world=world, hold=False)
    node("settle", world=world)
    s = state(node, world)
    for who in ("p1", "p2"):
        assert {k: v for k, v in s[who]["doc"].items() if k != "language"} == s["mj"]["projection"], who


def test_the_worker_is_named_the_mjs_table_only_while_it_holds_it(node, world):
    """The MJ's device sends its table to the worker only when the worker does not hold it
    (py/tablee/held.py): after its projection (held) and after each move (the table the move
    made) a move names the revision; after the MJ's own edit the projection sends it again; a
    worker that holds nothing (started again) answers stale and gets the table. Each time the
    MJ's table is the fold of the accepted moves and every phone's table is its projection."""

    def check():
        node("settle", world=world)
        s = state(node, world)
        w = node("worker", world=world)
        assert w["rev"] == w["session"] and w["same"], w  # the revision named is the MJ's own table
        for who in ("p1", "p2"):
            assert {k: v for k, v in s[who]["doc"].items() if k != "language"} == s["mj"]["projection"], who
        return s, w

    _, first = check()
    for n in range(3):
        node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}})
        node("edit", world=world, name="p2", path=["characters", "b", "pv"], value=n)
        check()
    s, w = check()
    assert w["whole"] == first["whole"]  # six moves, none sent the table
    # The MJ renames the table: its projection sends (and the worker holds) the new one.
    node("edit", world=world, name="mj", path=["name"], value="Campagne d'hiver")
    check()
    node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}})
    s, w = check()
    assert w["whole"] == first["whole"] and s["mj"]["doc"]["name"] == "Campagne d'hiver"
    # The MJ's edit and a move at once: the move made on the table before the edit is run again
    # on the new one, sent whole.
    node("edit", world=world, name="mj", path=["characters", "a", "pv"], value=17)
    node("call", world=world, name="p2", request={"op": "test.draw", "character": {"id": "b"}})
    check()
    # The worker still holds the table before the MJ's edit (its projection did not keep the new
    # one): the next move sends the table, never names the revision of the one before.
    node("worker", world=world, sharesOnly=True)
    node("edit", world=world, name="mj", path=["characters", "b", "pv"], value=4)
    node("settle", world=world)
    whole = node("worker", world=world)["whole"]
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=5)
    s, w = check()
    assert w["whole"] == whole + 1 and char(s["mj"]["doc"], "b")["pv"] == 4 and char(s["mj"]["doc"], "a")["pv"] == 5
    node("worker", world=world, sharesOnly=False)
    # A worker started again holds nothing: the revision named is stale, the table goes whole.
    node("worker", world=world, forget=True)
    node("edit", world=world, name="p2", path=["characters", "b", "pv"], value=9)
    s, w = check()
    assert w["stale"] == first["stale"] + 1
    mj = s["mj"]
    assert char(mj["doc"], "a")["pv"] == 5 and char(mj["doc"], "b")["pv"] == 9
    assert mj["doc"]["systems"]["theorem"]["piles"]["draw"]["cards"] == []  # c3, c1 drawn
    assert_nothing_hidden_reached(s, "p1", HAND_B)
    assert_nothing_hidden_reached(s, "p2", HAND_A)


# One world for all the examples (a function-scoped fixture): each example's moves land on the
# table the previous ones left, which the property covers as well.
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(moves=MOVES, order=st.permutations(["p1", "p2"]))
def test_random_moves_in_any_delivery_order_are_the_sequence_of_the_accepted_ones(node, world, moves, order):
    start = state(node, world)["mj"]
    for who, move in moves:
        if move[0] == "draw":
            node("call", world=world, name=who, request={"op": "test.draw", "character": {"id": move[1]}})
        else:
            node("edit", world=world, name=who, path=["characters", move[1], "pv"], value=move[2])
    node("settle", world=world, order=order)
    s = state(node, world)
    mj = s["mj"]
    accepted = mj["accepted"][len(start["accepted"]):]
    assert all(a["member"]["characters"] == (["a"] if a["member"]["id"] == "m-p1" else ["b"]) for a in accepted)
    replayed = node("replay", mj=start["doc"], accepted=accepted)
    assert replayed == mj["doc"]
    for who in ("p1", "p2"):
        assert {k: v for k, v in s[who]["doc"].items() if k != "language"} == mj["projection"], who
    assert char(mj["doc"], "a")["secret"] == SECRET
    assert_nothing_hidden_reached(s, "p1", HAND_B)
    assert_nothing_hidden_reached(s, "p2", HAND_A)  # (a drawn card was in the draw pile's public composition)


# ---------------------------------------------------------------- the merge rules, literally


def test_private_view_holds_the_owned_piles_of_the_claimed_characters_only(node):
    doc = mj_table()
    assert node("pure", fn="privateView", args=[doc, ["a"]]) == {"hands": [
        {"system": "theorem", "path": "systems.theorem.piles.hand-a", "owner": "a", "cards": HAND_A}]}
    assert node("pure", fn="privateView", args=[doc, []]) == {"hands": []}


def test_a_phone_keeps_its_language_and_records_set_apart(node):
    pub = {"name": "T", "characters": []}
    local = {"name": "X", "language": "en", "quarantine": [1], "characters": [{"id": "z"}]}
    adopted = node("pure", fn="adopt", args=[pub, local])
    assert adopted == {"name": "T", "characters": [], "language": "en", "quarantine": [1]}
    assert node("pure", fn="shared", args=[local]) == {"name": "X", "characters": [{"id": "z"}]}


def test_a_roll_sent_to_one_player_reaches_that_phone_only_and_a_secret_roll_no_phone(node, world):
    """The MJ's "Envoyer à…" (``to``: the member id) goes into that player's private doc only
    and shows in that phone's log; "Jet secret" (``to: "mj"``) stays on the MJ's device."""
    base = {"at": "2026-11-23T11:00:00.000Z", "kind": "roll", "system": None, "request": {"op": "roll"},
            "result": {"total": 12}}
    node("append", world=world, name="mj", key="log", value={**base, "id": "s1", "label": "SECRET-ROLL", "to": "mj"})
    node("append", world=world, name="mj", key="log", value={**base, "id": "p1only", "label": "FOR-P1", "to": "m-p1"})
    node("settle", world=world)
    s = state(node, world)
    assert [e["id"] for e in s["mj"]["doc"]["log"]] == ["l1", "s1", "p1only"]
    assert [e["id"] for e in s["p1"]["doc"]["log"]] == ["l1", "p1only"]  # in its log, at its date
    assert [e["id"] for e in s["p2"]["doc"]["log"]] == ["l1"]
    for player in ("p1", "p2"):
        text = json.dumps(s[player]["doc"]) + "".join(s[player]["received"])
        assert "SECRET-ROLL" not in text, player
    assert "FOR-P1" not in json.dumps(s["p2"]["doc"]) + "".join(s["p2"]["received"])
    assert "FOR-P1" not in json.dumps(s["mj"]["projection"])
    # p1 does not send the line back as its own (no move), and the MJ's table is as it was
    assert all(f["op"] != "live.log.add" for f in s["mj"]["feed"] if f["name"] == "p1")


def test_a_phones_page_logging_a_moves_result_writes_nothing(node, world):
    """A page logs its result after its move: the referee logged it already (from its own run),
    so the phone adds nothing and sends nothing; a line without a move's result is sent."""
    before = state(node, world)["mj"]["doc"]["log"]
    node("addLog", world=world, name="p1", entry={"kind": "test", "label": "forged?", "request": {"op": "test.draw"},
                                                   "result": {"total": 99}})
    node("addLog", world=world, name="p1", entry={"kind": "note", "label": "Une note", "request": {}, "result": {}})
    node("settle", world=world)
    s = state(node, world)
    labels = [e["label"] for e in s["mj"]["doc"]["log"]]
    assert labels == [e["label"] for e in before] + ["Une note"]
    assert [e["label"] for e in s["p1"]["doc"]["log"]] == labels
