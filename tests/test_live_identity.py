"""Who is at a live table (static/js/live/session.js, hub.js): a name is unique at the table, a
presence is only a name and a role, and what a player plays comes from the MJ's assignments,
never from what a phone announces. Run in Node by tests/live/session_harness.mjs over held
in-memory links (sync.js's memoryLinkPair({manual}))."""

from __future__ import annotations

import pytest

from live_world import (
    HAND_A,
    HAND_B,
    assert_nothing_hidden_reached,
    phone_table,
    state,
)
from node_harness import NODE

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")


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


def held(node, world, device="lea2", called="p1"):
    """Léa (p1, playing "a") is away; a new device `device` answers under `called`: held."""
    node("disconnect", world=world, name="p1")
    node("player", world=world, name=device, doc=phone_table(device))
    assert node("connect", world=world, name=device, called=called) is False  # not admitted (yet)
    node("settle", world=world)
    return state(node, world)


def wait_closed(node, world, name):
    for _ in range(60):  # its link closes a moment after the refusal went (sync.js Hub.refuse)
        if not state(node, world)[name]["open"]:
            return
        node("sleep", ms=50)
    raise AssertionError(f"{name}'s link stayed open")


@pytest.mark.parametrize("called", ["p1", " P1 "])
def test_a_new_device_under_a_known_away_name_waits_for_the_mj(node, world, called):
    """Léa is away; a new device (its own id and key) answers as « Léa »: not in the player
    list, no table and no hand, its moves not run, told to wait for the MJ, whose page lists it
    as waiting for a choice (Léa's characters named)."""
    before = state(node, world)
    s = held(node, world, called=called)
    assert s["mj"]["claims"] == [{"id": "m-lea2", "name": called, "as": "m-p1", "characters": ["a"]}]
    assert "m-lea2" not in {p["id"] for p in s["mj"]["presence"]}
    assert roster(s, "mj")["p1"] == ("player", False, ["a"])
    assert "m-lea2" not in {p["id"] for p in s["p2"]["presence"]}
    assert ["warning", "live.wait.recognise"] in s["lea2"]["notices"]
    assert s["lea2"]["open"] and not s["lea2"]["joined"]
    assert s["lea2"]["doc"]["characters"] == [] and s["lea2"]["private"]["hands"] == []
    assert_nothing_hidden_reached(s, "lea2", HAND_A + HAND_B)
    assert not any(c in "".join(s["lea2"]["received"]) for c in ("Aube", "Brume", "Campagne"))
    # What it sends is not run: a move, an ask
    node("call", world=world, name="lea2", request={"op": "test.draw", "character": {"id": "a"}, "log": True})
    node("ask", world=world, name="lea2", characters=["a"])
    node("settle", world=world)
    s = state(node, world)
    assert s["mj"]["doc"]["log"] == before["mj"]["doc"]["log"]
    assert not [f for f in s["mj"]["feed"] if f["member"] == "m-lea2"]
    assert all(p["asked"] == [] for p in s["mj"]["presence"])
    # The MJ's « Confirmer » has nothing of it to confirm: it is no member
    node("assign", world=world, name="lea2", characters=["a"])
    node("settle", world=world)
    s = state(node, world)
    assert roster(s, "mj")["p1"] == ("player", False, ["a"]) and s["lea2"]["assigned"] == []


def test_the_mj_gives_the_new_device_its_place_and_the_old_one_is_refused(node, world):
    """« C'est Léa : lui rendre sa place »: the new device takes Léa's place (her name, her
    characters, her hand, what the MJ sent her); her former device is refused from then on, with
    a clear message, also after the MJ's page reloaded."""
    node("append", world=world, name="mj", key="log", value={
        "id": "for-lea", "at": "2026-11-23T10:01:00.000Z", "kind": "roll", "system": None, "label": "FOR-LEA",
        "request": {"op": "roll"}, "result": {"total": 4}, "to": "m-p1"})
    node("settle", world=world)
    held(node, world)
    assert node("recognise", world=world, name="lea2") is True
    node("settle", world=world)
    s = state(node, world)
    assert s["mj"]["claims"] == []
    assert s["lea2"]["joined"] and s["lea2"]["assigned"] == ["a"]
    assert s["lea2"]["private"]["hands"][0]["cards"] == HAND_A
    assert [e["label"] for e in node("ydocs", world=world, name="lea2")["private"]["m-lea2"]["log"]] == ["FOR-LEA"]
    for who in ("mj", "lea2", "p2"):  # one « p1 », present, on the new device
        people = [p for p in s[who]["presence"] if p["name"] == "p1"]
        assert [(p["id"], p["here"], p["characters"]) for p in people] == [("m-lea2", True, ["a"])], who
    assert s["mj"]["feed"][-1]["op"] == "live.recognised" and s["mj"]["feed"][-1]["code"] is None
    mine = node("ydocs", world=world, name="mj")["private"]
    assert mine["m-p1"]["hands"] == [] and mine["m-p1"]["log"] == []  # nothing stays under the former id
    # Its moves are run now, as Léa's
    node("call", world=world, name="lea2", request={"op": "test.draw", "character": {"id": "a"}, "log": True})
    node("settle", world=world)
    assert node("answers", world=world, name="lea2")[-1].get("error") is None
    # Léa's former phone comes back with its own id and key: refused, told why
    for reload in (False, True):
        if reload:
            node("restart", world=world, name="mj")
        assert node("connect", world=world, name="p1") is False
        node("settle", world=world)
        s = state(node, world)
        assert ["warning", "live.refused.replaced"] in s["p1"]["notices"]
        assert not s["p1"]["joined"] or s["p1"]["assigned"] == ["a"]  # (what it held before stays on it)
        assert s["mj"]["feed"][-1]["code"] == "live.refused.replaced"
        assert ["warning", "live.refused.replaced"] in s["mj"]["notices"]
        assert [p["id"] for p in s["mj"]["presence"] if p["name"] == "p1"] == ["m-lea2"]
        wait_closed(node, world, "p1")


def test_the_mj_refuses_the_new_device_and_leas_place_stays_hers(node, world):
    held(node, world)
    assert node("refuseClaim", world=world, name="lea2") is True
    node("settle", world=world)
    s = state(node, world)
    assert ["warning", "live.refused.name_taken"] in s["lea2"]["notices"]  # asked for another name
    assert s["mj"]["claims"] == [] and s["mj"]["feed"][-1]["code"] == "live.refused.name_taken"
    wait_closed(node, world, "lea2")
    assert node("recognise", world=world, name="lea2") is False  # nothing left to choose
    # Léa's own phone comes back with its key: her place, her characters
    assert node("connect", world=world, name="p1") is True
    node("settle", world=world)
    s = state(node, world)
    assert roster(s, "mj")["p1"] == ("player", True, ["a"]) and s["p1"]["private"]["hands"][0]["cards"] == HAND_A


def test_a_claim_no_longer_holds_once_the_player_is_back(node, world):
    """Léa's own phone comes back while a new device waits under her name: the MJ's « C'est
    Léa » then changes nothing (the device is told the name is taken)."""
    held(node, world)
    assert node("connect", world=world, name="p1") is True
    node("settle", world=world)
    assert node("recognise", world=world, name="lea2") is False
    node("settle", world=world)
    s = state(node, world)
    assert ["warning", "live.refused.name_taken"] in s["lea2"]["notices"]
    assert roster(s, "mj")["p1"] == ("player", True, ["a"]) and s["mj"]["claims"] == []
    assert s["lea2"]["assigned"] == [] and s["lea2"]["private"]["hands"] == []


def test_a_waiting_device_that_answers_again_waits_once(node, world):
    """The new device answers a second invitation while it waits: one request on the MJ's page,
    its first link closed without a refusal, and « C'est Léa » admits it on the last one."""
    held(node, world)
    assert node("connect", world=world, name="lea2", called="p1") is False
    node("settle", world=world)
    s = state(node, world)
    assert [c["id"] for c in s["mj"]["claims"]] == ["m-lea2"]
    assert ["warning", "live.refused.name_taken"] not in s["lea2"]["notices"]
    assert node("recognise", world=world, name="lea2") is True
    node("settle", world=world)
    s = state(node, world)
    assert s["lea2"]["joined"] and s["lea2"]["open"] and s["lea2"]["assigned"] == ["a"]


def test_a_known_member_cannot_take_another_known_members_name(node, world):
    """Mo (p2, its own id and key) rejoins as « p1 » while Léa is away: refused, not held (it is
    not a new device for Léa), and its place and Léa's are unchanged."""
    node("disconnect", world=world, name="p1")
    node("disconnect", world=world, name="p2")
    before = state(node, world)
    assert node("connect", world=world, name="p2", called="p1") is False
    node("settle", world=world)
    s = state(node, world)
    assert ["warning", "live.refused.name_taken"] in s["p2"]["notices"]
    assert s["mj"]["claims"] == [] and roster(s, "mj") == roster(before, "mj")


def test_an_impostor_cannot_get_leas_character_with_one_tap(node, world):
    """The hostile phone of the issue: a new id with its own key answers as « Léa » (away).
    Nothing of hers shows for it, its presence does not show as hers, it asks for nothing the MJ
    could confirm; refused by the MJ, it gets a name of its own and, asking for Aube, only a
    button that says it takes Aube from Léa."""
    s = held(node, world, device="imp")
    node("hostile", world=world, name="imp", kind="presence", value={"name": "p1", "role": "player", "member": "m-p1"})
    node("ask", world=world, name="imp", characters=["a"])
    node("settle", world=world)
    s = state(node, world)
    assert roster(s, "mj")["p1"] == ("player", False, ["a"])
    assert all(p["id"] != "m-imp" and p["asked"] == [] for p in s["mj"]["presence"])
    assert_nothing_hidden_reached(s, "imp", HAND_A + HAND_B)
    node("refuseClaim", world=world, name="imp")
    node("settle", world=world)
    wait_closed(node, world, "imp")
    # (its page announces itself honestly again: a forged presence would keep it unseen)
    honest = {"name": "Imp", "role": "player", "member": "m-imp"}
    node("hostile", world=world, name="imp", kind="presence", value=honest)
    assert node("connect", world=world, name="imp", called="Imp") is True
    node("ask", world=world, name="imp", characters=["a"])
    node("settle", world=world)
    s = state(node, world)
    assert roster(s, "mj")["Imp"] == ("player", True, []) and roster(s, "mj")["p1"] == ("player", False, ["a"])
    assert s["imp"]["private"]["hands"] == []


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
