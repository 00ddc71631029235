"""A live table's moves applied exactly once, and no MJ change overwritten by a phone
(static/js/live/hub.js, member.js, sync.js), run in Node by tests/live/session_harness.mjs over
held in-memory links (sync.js's memoryLinkPair({manual})) with its stand-in referee.

- A move sent twice (in a row, at once, or again after the link broke between the MJ's apply
  and the phone's receipt) is applied once, and the phone's page gets one result.
- A phone never sends back, as its own edit, what the referee answered for its move; the MJ's
  undo right after a phone's move stands, however late the phone's page writes the answer.
- A phone's sheet edit made on an older table than the MJ's newer change of the same field is a
  conflict, said on that phone, never applied over the MJ's value; another field still goes.
"""

from __future__ import annotations

import pytest

from live_world import HAND_A, char, state
from node_harness import NODE

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")

DRAW = {"op": "test.draw", "character": {"id": "a"}}


def hand(s, who="mj"):
    if who == "mj":
        return s["mj"]["doc"]["systems"]["theorem"]["piles"]["hand-a"]["cards"]
    return next(h["cards"] for h in s[who]["private"]["hands"] if h["owner"] == "a")


def assert_drawn_once(node, world, slot):
    s = state(node, world)
    assert hand(s) == [*HAND_A, "c3"]  # one card, not two
    assert hand(s, "p1") == [*HAND_A, "c3"]
    assert [f["op"] for f in s["mj"]["feed"]].count("test.draw") == 1
    assert node("answers", world=world, name="p1")[slot]["drawn"] == 1
    assert node("shown", world=world, name="p1")[slot] == 1  # the page got one result
    assert s["p1"]["queue"] == [] and s["p1"]["notices"] == []


def test_a_move_sent_twice_in_a_row_is_applied_once(node, world):
    slot = node("call", world=world, name="p1", request=DRAW)
    node("settle", world=world)
    node("resend", world=world, name="p1")  # the same id, after its answer came
    node("settle", world=world)
    assert_drawn_once(node, world, slot)


def test_a_move_sent_twice_at_once_is_applied_once(node, world):
    slot = node("call", world=world, name="p1", request=DRAW)
    node("resend", world=world, name="p1", times=2)  # before the first reached the MJ's device
    node("settle", world=world)
    assert_drawn_once(node, world, slot)


def test_a_move_sent_again_after_the_link_broke_before_its_answer_is_applied_once(node, world):
    slot = node("call", world=world, name="p1", request=DRAW)
    node("deliver", world=world, name="p1", side="up")
    node("untilAnswered", world=world, name="p1")  # applied on the MJ's device, not yet answered
    assert hand(state(node, world)) == [*HAND_A, "c3"]
    node("disconnect", world=world, name="p1")  # the answer is lost with the link
    assert node("answers", world=world, name="p1")[slot] is None
    assert state(node, world)["p1"]["queue"] == ["test.draw"]  # still waiting on the phone
    node("connect", world=world, name="p1")  # the rejoin sends the waiting move again
    node("settle", world=world)
    assert_drawn_once(node, world, slot)


def test_a_move_sent_again_after_the_mjs_page_reloaded_is_not_run_again(node, world):
    slot = node("call", world=world, name="p1", request=DRAW)
    node("deliver", world=world, name="p1", side="up")
    node("untilAnswered", world=world, name="p1")
    node("disconnect", world=world, name="p1")
    node("restart", world=world, name="mj")  # the answers it kept are in its saved session
    node("connect", world=world, name="p1")
    node("settle", world=world)
    assert_drawn_once(node, world, slot)


@pytest.mark.parametrize("late", ["page", "answer"])
def test_the_mjs_undo_right_after_a_phones_move_stands_twenty_times(node, world, late):
    """The phone's move takes 3 PV; the MJ undoes it at once, before the phone has its answer.
    `page`: the phone's page writes the answer into its table after the newer tables arrived
    (a page busy elsewhere); `answer`: the answer reaches the phone after the tables. Each
    time the MJ's value stands on every device, and the phone shows it."""
    for n in range(20):
        pv = char(state(node, world)["mj"]["doc"], "a")["pv"]
        node("call", world=world, name="p1", request={"op": "test.damage", "character": {"id": "a"}, "amount": 3},
             write="late" if late == "page" else "now")
        node("deliver", world=world, name="p1", side="up")
        node("untilAnswered", world=world, name="p1")
        assert char(state(node, world)["mj"]["doc"], "a")["pv"] == pv - 3
        node("edit", world=world, name="mj", path=["characters", "a", "pv"], value=pv)  # the MJ's undo
        if late == "answer":
            for _ in range(5):  # the tables (the MJ's undo) reach the phone, its answer held back
                node("deliver", world=world, name="p1", side="down", skipAnswers=True)
                node("deliver", world=world, name="p1", side="up")
        node("settle", world=world)
        node("pageWrite", world=world, name="p1")
        node("settle", world=world)
        s = state(node, world)
        for who in ("mj", "p1", "p2"):
            assert char(s[who]["doc"], "a")["pv"] == pv, (n, who)
        assert s["p1"]["queue"] == [] and s["p1"]["notices"] == [], n
        assert [f["op"] for f in s["mj"]["feed"]].count("live.character.save") == 0, n


def test_an_edit_made_on_an_older_table_is_a_conflict_never_applied_over_the_mjs_change(node, world):
    node("disconnect", world=world, name="p1")
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=1)  # made offline, on pv 10
    node("edit", world=world, name="mj", path=["characters", "a", "pv"], value=5)  # the MJ's change meanwhile
    node("connect", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        assert char(s[who]["doc"], "a")["pv"] == 5, who
    assert ["warning", "live.refused.conflict"] in s["p1"]["notices"]
    assert s["mj"]["feed"][-1]["code"] == "live.refused.conflict"
    # Another field edited offline while the MJ changed the PV is no conflict: it goes.
    node("disconnect", world=world, name="p1")
    node("edit", world=world, name="p1", path=["characters", "a", "name"], value="Aube la Brave")
    node("edit", world=world, name="mj", path=["characters", "a", "pv"], value=6)
    node("connect", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        assert (char(s[who]["doc"], "a")["name"], char(s[who]["doc"], "a")["pv"]) == ("Aube la Brave", 6), who


def test_a_players_own_quick_edits_are_no_conflict(node, world):
    """Two edits of one field in a row, the second made before the table of the first came back:
    the second was made on the player's own first, not on an older table."""
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=9)
    node("deliver", world=world, name="p1", side="up")
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=8)
    node("settle", world=world)
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=7)
    node("deliver", world=world, name="p1", side="up")
    node("untilAnswered", world=world, name="p1")
    node("deliver", world=world, name="p1", side="down")  # its answer, not yet its table
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=6)
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        assert char(s[who]["doc"], "a")["pv"] == 6, who
    assert s["p1"]["notices"] == []


def test_a_phones_move_is_not_the_mjs_change_to_undo(node, world):
    before = state(node, world)["mj"]["recorded"]
    node("call", world=world, name="p1", request=DRAW)
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=4)
    node("settle", world=world)
    s = state(node, world)
    assert hand(s) == [*HAND_A, "c3"] and char(s["mj"]["doc"], "a")["pv"] == 4
    assert s["mj"]["recorded"] == before  # nothing in the MJ's undo history


def test_a_players_annuler_undoes_their_own_last_sheet_change_and_never_a_draw(node, world):
    log = len(state(node, world)["mj"]["doc"]["log"])
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=4)
    node("settle", world=world)
    node("undo", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    assert node("undone", world=world, name="p1") is True
    for who in ("mj", "p1", "p2"):
        assert char(s[who]["doc"], "a")["pv"] == 10, who
    added = s["mj"]["doc"]["log"][log:]
    assert [(e["kind"], e["who"]) for e in added] == [("undo", "p1")]  # « Annulé », signed by the player
    # A draw is never undone (no re-roll): refused, said on the phone, no « Annulé » line.
    node("call", world=world, name="p1", request=DRAW)
    node("settle", world=world)
    node("undo", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    assert node("undone", world=world, name="p1") is False
    assert ["warning", "live.refused.undo"] in s["p1"]["notices"]
    assert hand(s) == [*HAND_A, "c3"]
    assert [e["kind"] for e in s["mj"]["doc"]["log"][log:]] == ["undo"]
    # A sheet change the MJ changed again since is not undone over the MJ's value.
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=3)
    node("settle", world=world)
    node("edit", world=world, name="mj", path=["characters", "a", "pv"], value=8)
    node("settle", world=world)
    node("undo", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    assert char(s["mj"]["doc"], "a")["pv"] == 8 and ["warning", "live.refused.conflict"] in s["p1"]["notices"]


def test_annuler_on_a_character_the_mj_gave_to_another_is_refused(node, world):
    """Mo (p1) renames Aube, the MJ gives Aube to p2, Mo presses « Annuler »: the name stays,
    no « Annulé » line, the refusal said on Mo's phone in a sentence."""
    node("edit", world=world, name="p1", path=["characters", "a", "name"], value="Aube la Rouge")
    node("settle", world=world)
    node("assign", world=world, name="p2", characters=["a", "b"])
    node("settle", world=world)
    log = len(state(node, world)["mj"]["doc"]["log"])
    node("undo", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    assert node("undone", world=world, name="p1") is False
    assert ["warning", "live.refused.undo_not_yours"] in s["p1"]["notices"]
    assert s["mj"]["feed"][-1]["code"] == "live.refused.undo_not_yours"
    for who in ("mj", "p2"):
        assert char(s[who]["doc"], "a")["name"] == "Aube la Rouge", who
    assert s["mj"]["doc"]["log"][log:] == []


DAMAGE = {"op": "test.damage", "character": {"id": "a"}, "amount": 1}


def test_a_move_sent_again_forty_moves_back_after_the_mjs_reload_is_not_run_again(node, world):
    """A phone keeps at most MAX_QUEUE moves waiting, and sends again only those: the MJ's saved
    session keeps that many answers per member, so after the MJ's page reloaded, a move sent
    again 40 moves back gets its answer again and is not run twice."""
    assert node("bounds")["kept"] >= node("bounds")["queue"] >= 40
    for i in range(41):
        node("call", world=world, name="p1", request=DAMAGE)
        if i % 10 == 9:
            node("settle", world=world)  # (fewer at once than the table runs for one member)
    node("settle", world=world)
    s = state(node, world)
    assert char(s["mj"]["doc"], "a")["pv"] == 10 - 41
    node("restart", world=world, name="mj")  # the MJ's page reloads
    node("disconnect", world=world, name="p1")
    assert node("connect", world=world, name="p1") is True
    node("settle", world=world)
    node("resendAt", world=world, name="p1", back=40)  # its answer lost, say: sent again
    node("settle", world=world)
    s = state(node, world)
    assert char(s["mj"]["doc"], "a")["pv"] == 10 - 41  # not applied twice
    assert [f["op"] for f in s["mj"]["feed"]].count("test.damage") == 41


def test_annuler_never_takes_back_a_field_no_player_sees(node, world):
    """A save that changed a field the player view hides (the MJ's notes: a referee letting it
    through, say) is not undone by the player: refused, the MJ's value stays as it is."""
    node("edit", world=world, name="mj", path=["characters", "a", "mj_notes"], value="MJ-ONLY")
    node("settle", world=world)
    forged = {**char(state(node, world)["p1"]["doc"], "a"), "mj_notes": "PHONE"}
    node("hostile", world=world, name="p1", kind="move", value={"op": "live.character.save", "character": forged})
    node("settle", world=world)
    node("undo", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    assert node("undone", world=world, name="p1") is False
    assert ["warning", "live.refused.undo_not_yours"] in s["p1"]["notices"]
    assert char(s["mj"]["doc"], "a")["mj_notes"] == "PHONE"  # (not put back to the MJ's by the player)
