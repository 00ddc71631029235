"""The live table's session (issue 15, static/js/live/session.js), run in Node by
tests/live/session_harness.mjs: an MJ device and player devices, each a stand-in app with its
own storage, joined by held in-memory links that the test delivers in any order.

What a table relies on:
- a player's device takes the public table on its first join (its own table backed up first)
  and keeps its language; the MJ's secrets and another player's hand never reach it, in its
  table, its private doc or any byte it received;
- a roll, a character edit and a card move made on one device reach the others; what the MJ's
  filter hides stays on the MJ's device through every merge;
- concurrent edits of two characters both survive; concurrent edits of one field end equal
  everywhere and the replaced value stays findable on the device that wrote it;
- a player who left catches up on return, both ways, and so does a reloaded page;
- the merge rules themselves (overlay, mergePublic, held, privateView) on literal cases.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from node_harness import NODE, NodeHarness

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "tests" / "live" / "session_harness.mjs"

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")

SECRET = "SECRET-OF-THE-MJ"
HAND_A = ["arcane-HAND-A-1", "arcane-HAND-A-2"]
HAND_B = ["arcane-HAND-B-1"]


@pytest.fixture(scope="module")
def node():
    harness = NodeHarness(HARNESS)
    yield harness
    harness.close()


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


counter = iter(range(10**6))


@pytest.fixture
def world(node):
    name = f"w{next(counter)}"
    node("world", world=name, mj=mj_table())
    for player, claim in (("p1", ["a"]), ("p2", ["b"])):
        node("player", world=name, name=player, doc=phone_table(player))
        node("connect", world=name, name=player)
        node("claim", world=name, name=player, characters=claim)
    node("settle", world=name)
    yield name
    node("drop", world=name)


def state(node, world):
    return node("state", world=world)


def char(doc, cid):
    return next(c for c in doc["characters"] if c["id"] == cid)


def assert_nothing_hidden_reached(s, player, others_hand):
    text = json.dumps(s[player]["doc"]) + json.dumps(s[player]["private"]) + "".join(s[player]["received"])
    assert SECRET not in text
    for card in others_hand:
        assert card not in text


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


def test_a_roll_an_edit_and_a_card_move_reach_every_device(node, world):
    entry = {"id": "l2", "at": "2026-11-23T10:05:00.000Z", "kind": "roll", "system": None, "label": "2d6",
             "request": {"op": "roll"}, "result": {"total": 8}}
    node("append", world=world, name="p1", key="log", value=entry)
    node("edit", world=world, name="p2", path=["characters", "b", "name"], value="Brume la Grise")
    node("edit", world=world, name="mj", path=["systems", "theorem", "piles", "table", "cards"], value=["c9"])
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        doc = s[who]["doc"]
        assert [e["id"] for e in doc["log"]] == ["l1", "l2"], who
        assert char(doc, "b")["name"] == "Brume la Grise", who
        assert doc["systems"]["theorem"]["piles"]["table"]["cards"] == ["c9"], who
    # The MJ's secrets went through every merge untouched.
    mj = s["mj"]["doc"]
    assert char(mj, "a")["secret"] == SECRET
    assert mj["systems"]["theorem"]["mj"] == {"threshold": SECRET}
    assert mj["systems"]["theorem"]["piles"]["hand-a"]["cards"] == HAND_A
    assert mj["quarantine"][0]["data"]["note"] == SECRET
    assert_nothing_hidden_reached(s, "p1", HAND_B)
    assert_nothing_hidden_reached(s, "p2", HAND_A)


def test_a_player_edit_of_a_state_with_nothing_hidden_is_merged_and_one_with_secrets_is_not(node, world):
    node("edit", world=world, name="p1", path=["systems", "unicreon", "round"], value=3)
    node("edit", world=world, name="p2", path=["systems", "theorem", "round"], value=7)
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        assert s[who]["doc"]["systems"]["unicreon"]["round"] == 3, who
        # Théorem's state holds the MJ's secrets: the MJ's state stays, and is published again.
        assert s[who]["doc"]["systems"]["theorem"]["round"] == 1, who
    assert s["mj"]["notices"] == [["warning", "live.held"]]
    # The phone whose change was taken back is told so; the other phone, which changed a
    # state with nothing hidden, is not.
    assert s["p2"]["notices"] == [["warning", "live.held_mine"]]
    assert s["p1"]["notices"] == []


def test_concurrent_edits_of_two_characters_both_survive(node, world):
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=4)
    node("edit", world=world, name="p2", path=["characters", "b", "pv"], value=6)
    node("edit", world=world, name="mj", path=["characters", "a", "skills"], value=[{"name": "Nage"}])
    node("settle", world=world, order=["p2", "p1"])
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        doc = s[who]["doc"]
        assert (char(doc, "a")["pv"], char(doc, "b")["pv"], char(doc, "a")["skills"]) == (4, 6, [{"name": "Nage"}]), who
    assert char(s["mj"]["doc"], "a")["secret"] == SECRET


def test_concurrent_edits_of_one_field_end_equal_and_the_replaced_value_stays_findable(node, world):
    node("edit", world=world, name="p1", path=["characters", "b", "name"], value="Brume (Léa)")
    node("edit", world=world, name="p2", path=["characters", "b", "name"], value="Brume (Mo)")
    node("settle", world=world)
    s = state(node, world)
    names = {who: char(s[who]["doc"], "b")["name"] for who in ("mj", "p1", "p2")}
    assert len(set(names.values())) == 1, names
    winner = names["mj"]
    assert winner in ("Brume (Léa)", "Brume (Mo)")
    loser_device = "p2" if winner == "Brume (Léa)" else "p1"
    lost = "Brume (Mo)" if loser_device == "p2" else "Brume (Léa)"
    kept = [(o["path"], o["value"], o["by"]) for o in s[loser_device]["overwritten"]]
    assert ("characters[b].name", lost, winner) in kept


def test_a_player_who_left_catches_up_both_ways(node, world):
    node("disconnect", world=world, name="p1")
    node("edit", world=world, name="mj", path=["characters", "a", "pv"], value=2)
    node("edit", world=world, name="p1", path=["characters", "a", "name"], value="Aube (hors ligne)")
    node("settle", world=world)
    s = state(node, world)
    assert char(s["p1"]["doc"], "a")["pv"] == 10 and char(s["mj"]["doc"], "a")["name"] == "Aube"
    away = {p["name"]: p["here"] for p in s["mj"]["presence"]}
    assert away["p1"] is False and away["p2"] is True
    node("connect", world=world, name="p1")
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        a = char(s[who]["doc"], "a")
        assert (a["pv"], a["name"]) == (2, "Aube (hors ligne)"), who
    assert char(s["mj"]["doc"], "a")["secret"] == SECRET
    assert {p["name"]: p["here"] for p in s["mj"]["presence"]}["p1"] is True


def test_a_reloaded_phone_resumes_from_its_saved_state(node, world):
    node("disconnect", world=world, name="p2")
    saved = node("saved", world=world, name="p2")
    assert saved["role"] == "player" and saved["joined"] is True and saved["public"]
    node("restart", world=world, name="p2")
    node("edit", world=world, name="p2", path=["characters", "b", "pv"], value=1)
    node("edit", world=world, name="p1", path=["characters", "a", "pv"], value=9)
    node("settle", world=world)
    node("connect", world=world, name="p2")
    node("settle", world=world)
    s = state(node, world)
    for who in ("mj", "p1", "p2"):
        assert (char(s[who]["doc"], "a")["pv"], char(s[who]["doc"], "b")["pv"]) == (9, 1), who
    assert s["p2"]["backups"] == 1  # the resumed phone did not take the table a second time
    assert [len(s[w]["doc"]["characters"]) for w in ("mj", "p1", "p2")] == [2, 2, 2]


EDITS = st.lists(
    st.tuples(
        st.sampled_from(["mj", "p1", "p2"]),
        st.sampled_from(["a", "b"]),
        st.sampled_from(["name", "pv", "note"]),
        st.one_of(st.integers(0, 20), st.text(max_size=8)),
    ),
    min_size=1,
    max_size=8,
)


# One world for all the examples (a function-scoped fixture): each example's edits land on the
# table the previous ones left, which the property covers as well.
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(edits=EDITS, order=st.permutations(["p1", "p2"]))
def test_any_edits_in_any_delivery_order_converge_and_keep_the_secrets(node, world, edits, order):
    for who, cid, field, value in edits:
        node("edit", world=world, name=who, path=["characters", cid, field], value=value)
    node("settle", world=world, order=order)
    s = state(node, world)
    mj = s["mj"]["doc"]
    for who in ("p1", "p2"):
        assert {k: v for k, v in s[who]["doc"].items() if k != "language"} == s["mj"]["projection"], who
    assert char(mj, "a")["secret"] == SECRET
    assert mj["systems"]["theorem"]["mj"] == {"threshold": SECRET}
    assert_nothing_hidden_reached(s, "p1", HAND_B)
    assert_nothing_hidden_reached(s, "p2", HAND_A)


# ---------------------------------------------------------------- the merge rules, literally


def test_overlay_takes_what_changed_and_keeps_what_the_view_never_had(node):
    full = {"name": "Aube", "secret": "s", "stats": {"for": 1, "hidden": 2}, "gone": 1}
    before = {"name": "Aube", "stats": {"for": 1}, "gone": 1}
    after = {"name": "Aube!", "stats": {"for": 3}}
    assert node("pure", fn="overlay", args=[full, before, after]) == {
        "name": "Aube!", "secret": "s", "stats": {"for": 3, "hidden": 2}}


def test_merge_public_adds_deletes_and_keeps_the_mjs_own_changes(node):
    full = {"name": "T", "characters": [{"id": "a", "s": 1}, {"id": "b"}, {"id": "new-mj"}], "log": [],
            "systems": {"x": {"mj": 1, "v": 1}}}
    before = {"name": "T", "characters": [{"id": "a"}, {"id": "b"}], "log": [], "systems": {"x": {"v": 1}}}
    after = {"name": "T2", "characters": [{"id": "a", "n": 2}, {"id": "p"}],
             "log": [{"id": "e", "at": "1"}], "systems": {"x": {"v": 2}}}
    merged = node("pure", fn="mergePublic", args=[full, before, after])
    assert merged["characters"] == [{"id": "a", "s": 1, "n": 2}, {"id": "new-mj"}, {"id": "p"}]
    assert merged["log"] == [{"id": "e", "at": "1"}] and merged["name"] == "T2"
    assert merged["systems"] == {"x": {"mj": 1, "v": 1}}  # hidden parts: the MJ's state stays
    assert node("pure", fn="held", args=[full, before, after]) == ["x"]
    # Point Zéro's filter only blanks the threshold: a player's Tension point merges, the
    # MJ's threshold stays.
    full = {"characters": [], "log": [], "systems": {"pointzero": {"threshold": 7, "entries": [1]}}}
    before = {"characters": [], "log": [], "systems": {"pointzero": {"threshold": None, "entries": [1]}}}
    after = {"characters": [], "log": [], "systems": {"pointzero": {"threshold": None, "entries": [1, 2]}}}
    merged = node("pure", fn="mergePublic", args=[full, before, after])
    assert merged["systems"] == {"pointzero": {"threshold": 7, "entries": [1, 2]}}
    assert node("pure", fn="held", args=[full, before, after]) == []


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
