"""Who takes a place at a live table, tried as a hostile phone would (static/js/live/admission.js,
names.js, hub.js writePrivate), run in Node by tests/live/session_harness.mjs over held in-memory
links with its stand-in referee and filters.

- A device whose place the MJ gave to another (« C'est Léa : lui rendre sa place ») stays out
  whatever key and name it brings, also after the MJ's page reloaded; what the MJ had sent it
  goes to the recognised device, never to a link presenting the former id.
- Names that look alike are one name: case, accents, combining marks, Cyrillic and Greek
  look-alikes, zero-width characters, spacing; refused while the player is present, held for
  the MJ's « C'est Léa ? » while away.
- An entry the MJ sends to one player reaches that player's private doc filtered like a public
  one: no seed, no deck, no threshold, no secret.
"""

from __future__ import annotations

import json

import pytest

from live_world import mj_table, phone_table, state, two_phone_world
from node_harness import NODE

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")

#: An entry the MJ sent to Léa (p1) only, holding what no phone may get: a draw's seed and the
#: hidden order of its deck, Point Zéro's threshold and what is left before it.
SENT = {"id": "for-lea", "at": "2026-11-23T10:01:00.000Z", "kind": "theorem.action", "system": "theorem",
        "label": "FOR-LEA", "request": {"op": "theorem.action.draw", "seed": 987654321,
                                        "deck": {"draw": ["DECK-ORDER-1", "DECK-ORDER-2"], "seed": 987654321}},
        "result": {"threshold": "THRESHOLD-7", "left": "LEFT-3", "total": 4}, "to": "m-p1"}
HIDDEN = ("987654321", "DECK-ORDER", "THRESHOLD-7", "LEFT-3")


def everything(s, who):
    return json.dumps(s[who]["doc"]) + json.dumps(s[who]["private"]) + "".join(s[who]["received"])


def private_log(node, world, who):
    """The log in `who`'s own private doc, as its phone holds it."""
    docs = node("ydocs", world=world, name=who)["private"]
    return next(iter(docs.values()), {}).get("log", [])


def test_an_entry_sent_to_one_player_reaches_it_filtered(node, world):
    node("append", world=world, name="mj", key="log", value=SENT)
    node("settle", world=world)
    s = state(node, world)
    mine = [e for e in private_log(node, world, "p1") if e["id"] == "for-lea"]
    assert len(mine) == 1 and mine[0]["label"] == "FOR-LEA" and mine[0]["result"]["total"] == 4
    for text in HIDDEN:
        assert text not in everything(s, "p1"), text
        assert text not in everything(s, "p2"), text
    assert all(e["id"] != "for-lea" for e in private_log(node, world, "p2"))


def _recognised(node, world):
    """Léa (p1) is away; her new device lea2 is recognised as her by the MJ."""
    node("append", world=world, name="mj", key="log", value=SENT)
    node("settle", world=world)
    node("disconnect", world=world, name="p1")
    node("player", world=world, name="lea2", doc=phone_table("lea2"))
    assert node("connect", world=world, name="lea2", called="p1") is False
    node("settle", world=world)
    assert node("recognise", world=world, name="lea2") is True
    node("settle", world=world)


def test_a_replaced_id_is_refused_with_any_key_and_name_also_after_the_mjs_reload(node, world):
    _recognised(node, world)
    s = state(node, world)
    # What the MJ had sent to Léa's former device is sent to her new one, and named so
    assert [e["to"] for e in s["mj"]["doc"]["log"] if e["id"] == "for-lea"] == ["m-lea2"]
    assert [e["id"] for e in private_log(node, world, "lea2")] == ["for-lea"]
    assert not any(text in json.dumps(private_log(node, world, "lea2")) for text in HIDDEN)
    node("player", world=world, name="zed", doc=phone_table("zed"))
    for attempt, reload in enumerate((False, True, True)):
        if reload:
            node("restart", world=world, name="mj")
            node("settle", world=world)
        # Léa's former id (public: presence carries it), a key of its own, a name of its own
        called = ("Zed", "Zoé", "p1")[attempt]
        former = {"as": "m-p1", "key": f"fresh-{attempt}", "called": called}
        assert node("connect", world=world, name="zed", **former) is False
        node("settle", world=world)
        s = state(node, world)
        assert s["mj"]["feed"][-1]["code"] == "live.refused.replaced", attempt
        assert not s["zed"]["joined"]
        assert "m-p1" not in {p["id"] for p in s["mj"]["presence"]}
        assert [p["id"] for p in s["mj"]["presence"] if p["name"] == "p1"] == ["m-lea2"]
        assert "FOR-LEA" not in everything(s, "zed")
        assert node("ydocs", world=world, name="mj")["private"].get("m-p1", {}).get("log", []) == []
        assert [e["to"] for e in s["mj"]["doc"]["log"] if e["id"] == "for-lea"] == ["m-lea2"]


#: Names a person reads as « Léa »: case, spacing, accents (precomposed, combining, none),
#: Cyrillic е and а with a combining accent, Greek capitals, zero-width and invisible
#: characters, a soft hyphen, fullwidth letters.
LOOK_ALIKES = ["LÉA", " léa  ", "Lea", "Le\u0301a", "L\u0435\u0301\u0430", "L\u0395\u0391", "Lé\u03b1",
               "L\u200béa", "Lé\u200da", "\u2060Léa\ufeff", "Lé\u00ada", "\uff2c\uff45a", "Léa\u00a0", "l\u00e9\u0430"]


@pytest.fixture
def lea_world(node):
    with two_phone_world(node, "alike", mj_table(), phone_table) as name:
        node("player", world=name, name="lea", doc=phone_table("lea"), called="Léa")
        assert node("connect", world=name, name="lea", called="Léa") is True
        node("claim", world=name, name="lea", characters=["a"])
        node("settle", world=name)
        yield name


@pytest.mark.parametrize("called", LOOK_ALIKES)
def test_a_name_that_looks_like_a_present_players_is_refused_and_held_when_away(node, lea_world, called):
    world = lea_world
    node("player", world=world, name="imp", doc=phone_table("imp"), called=called)
    assert node("connect", world=world, name="imp", called=called) is False
    node("settle", world=world)
    s = state(node, world)
    assert ["warning", "live.refused.name_taken"] in s["imp"]["notices"]
    assert not s["imp"]["joined"] and "m-imp" not in {p["id"] for p in s["mj"]["presence"]}
    # Léa away: the same device waits for the MJ's « C'est Léa ? », as Léa's
    node("disconnect", world=world, name="lea")
    node("player", world=world, name="imp2", doc=phone_table("imp2"), called=called)
    assert node("connect", world=world, name="imp2", called=called) is False
    node("settle", world=world)
    s = state(node, world)
    assert [(c["id"], c["as"]) for c in s["mj"]["claims"]] == [("m-imp2", "m-lea")]
    assert ["warning", "live.wait.recognise"] in s["imp2"]["notices"]


@pytest.mark.parametrize("called", ["Léo", "Lia", "Lena", "Léa 2", "Élise"])
def test_a_name_that_only_resembles_is_another_player(node, lea_world, called):
    world = lea_world
    node("player", world=world, name="new", doc=phone_table("new"), called=called)
    assert node("connect", world=world, name="new", called=called) is True
    node("settle", world=world)
    assert "m-new" in {p["id"] for p in state(node, world)["mj"]["presence"]}


def test_the_name_key_folds_what_people_do_not_see(node):
    keys = node("nameKeys", names=["Léa", *LOOK_ALIKES, "", "\u200b \u00ad", 5])
    assert set(keys[1:len(LOOK_ALIKES) + 1]) == {keys[0]}
    assert keys[-3:] == ["", "", ""]


def test_a_device_answering_as_the_mjs_secret_rolls_is_refused(node, world):
    """A secret roll of the MJ's is an entry sent `to: "mj"`: a phone choosing "mj" as its
    member id is refused, and nothing the MJ rolled in secret reaches it."""
    secret = {**SENT, "id": "secret", "label": "SECRET-ROLL", "to": "mj"}
    node("append", world=world, name="mj", key="log", value=secret)
    node("settle", world=world)
    node("player", world=world, name="sly", doc=phone_table("sly"))
    assert node("connect", world=world, name="sly", **{"as": "mj"}, called="Sly") is False
    node("settle", world=world)
    s = state(node, world)
    assert s["mj"]["feed"][-1]["code"] == "live.refused.identity"
    assert "SECRET-ROLL" not in everything(s, "sly")
