"""Who is at a live table (static/js/live/session.js, hub.js): a name is unique at the table, a
presence is only a name and a role, and what a player plays comes from the MJ's assignments,
never from what a phone announces. Run in Node by tests/live/session_harness.mjs over held
in-memory links (sync.js's memoryLinkPair({manual}))."""

from __future__ import annotations

import pytest

from live_world import harness, two_phone_world
from node_harness import NODE
from test_live_session import HARNESS, mj_table, phone_table, state

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")


@pytest.fixture(scope="module")
def node():
    with harness(HARNESS) as running:
        yield running


@pytest.fixture
def world(node):
    with two_phone_world(node, "who", mj_table(), phone_table) as name:
        yield name


def roster(s, who):
    return {p["name"]: (p["role"], p["here"], p["characters"]) for p in s[who]["presence"]}


@pytest.mark.parametrize("called", ["p1", " P1 ", "mj", "MJ"])
def test_a_new_member_under_a_name_already_at_the_table_is_asked_for_another(node, world, called):
    """A second "Léa" (a new member id with its own key) while Léa is at the table is refused,
    whatever the case or spaces; the MJ's own name too. The phone is told why; the MJ's list,
    its feed aside, does not change, and nothing of Léa's moves."""
    before = state(node, world)
    node("player", world=world, name="imp", doc=phone_table("imp"), called=called)  # (the name typed)
    assert node("connect", world=world, name="imp", called=called) is False
    node("settle", world=world)
    s = state(node, world)
    assert ["warning", "live.refused.name_taken"] in s["imp"]["notices"]  # asked to choose another
    assert not s["imp"]["joined"]
    for _ in range(60):  # its link closes a moment after the refusal went (sync.js Hub.refuse)
        if not state(node, world)["imp"]["open"]:
            break
        node("sleep", ms=50)
    assert not state(node, world)["imp"]["open"]
    assert roster(s, "mj") == roster(before, "mj")
    assert s["mj"]["feed"][-1]["code"] == "live.refused.name_taken"
    assert roster(s, "p2") == roster(before, "p2")
    assert s["p1"]["open"]
    # Under a name of its own it joins, and its presence says that name (accepted as its own)
    assert node("connect", world=world, name="imp", called="Imp") is True
    node("settle", world=world)
    s = state(node, world)
    assert roster(s, "mj")["Imp"] == ("player", True, [])
    assert roster(s, "p1")["Imp"] == ("player", True, [])
    assert s["mj"]["feed"][-1]["code"] != "live.refused.presence"


def test_a_player_away_can_come_back_on_a_new_phone_and_gets_nothing_without_the_mj(node, world):
    """Léa's phone was wiped (a new member id, the same name) while she was away: admitted, and
    her characters are hers again only once the MJ chooses to hand them over."""
    node("disconnect", world=world, name="p1")
    node("player", world=world, name="lea2", doc=phone_table("lea2"))
    assert node("connect", world=world, name="lea2", called="p1") is True
    node("ask", world=world, name="lea2", characters=["a"])
    node("settle", world=world)
    s = state(node, world)
    assert s["lea2"]["assigned"] == [] and s["lea2"]["private"]["hands"] == []


@pytest.mark.parametrize("value", [
    {"name": "p2", "role": "player", "member": "m-p2", "characters": ["a", "b"]},
    {"name": "p2", "role": "player", "member": "m-p2", "note": {"x": {"y": {"z": 1}}}},
    {"name": "<b>p2</b>", "role": "player", "member": "m-p2"},
])
def test_a_presence_is_only_a_name_and_a_role_and_claims_no_character(node, world, value):
    before = state(node, world)
    node("hostile", world=world, name="p2", kind="presence", value=value)
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1"):
        assert roster(s, who)["p2"] == ("player", True, ["b"]), who  # from the MJ's assignments
        assert roster(s, who) == roster(before, who), who
    assert s["mj"]["feed"][-1]["code"] == "live.refused.presence"


def test_what_a_player_plays_is_what_the_mj_assigned(node, world):
    node("assign", world=world, name="p2", characters=["a", "b"])
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        assert roster(s, who)["p2"][2] == ["a", "b"], who
        assert roster(s, who)["p1"][2] == [], who


def test_a_phone_away_from_the_table_never_shows_itself_present(node, world):
    node("disconnect", world=world, name="p1")
    s = state(node, world)
    assert roster(s, "p1")["p1"][1] is False  # its own line says away, as its link does
    assert s["p1"]["open"] is False
    node("connect", world=world, name="p1")
    node("settle", world=world)
    assert roster(state(node, world), "p1")["p1"][1] is True


def test_a_waiting_move_is_named_in_words_and_logged_under_them_once_answered(node, world):
    """Listed under the words of its move, never its op id; once the MJ's device answers it
    after the phone's page was reloaded (the page that would have named it is gone), its entry
    in the log gets those words."""
    node("disconnect", world=world, name="p1")
    node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}, "log": True})
    node("settle", world=world)
    s = state(node, world)
    assert s["p1"]["queue"] == ["test.draw"] and s["p1"]["queueLabels"] == ["words of test.draw"]
    node("restart", world=world, name="p1")  # the page reloads: its waiting move is kept, not its page
    assert state(node, world)["p1"]["queueLabels"] == ["words of test.draw"]
    node("connect", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    entry = next(e for e in s["mj"]["doc"]["log"] if e["id"].startswith("live-"))
    assert entry["label"] == "words of test.draw"
    assert s["p1"]["queue"] == [] and s["p1"]["notices"] == []
