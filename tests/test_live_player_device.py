"""A player's phone offers only what the table accepts (static/js/live/member.js), run in Node by
tests/live/session_harness.mjs over held in-memory links with its stand-in referee.

- A character deleted on a phone (another player's, an NPC, or its own: no move deletes one,
  only the MJ's device does) is said refused on that phone, and its table shows the MJ's
  public view again, the character back; the MJ's table and the other phone are untouched.
- What the phone's system pages ask of the gate (static/js/live/private.js ``ownsCharacter``):
  the characters at the table as published, beside the ones the MJ assigned.
"""

from __future__ import annotations

import pytest

from live_world import state
from node_harness import NODE

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript")


@pytest.mark.parametrize("victim", ["b", "a"])
def test_a_character_deleted_on_a_phone_is_refused_there_and_comes_back(node, world, victim):
    before = state(node, world)
    mj_characters = before["mj"]["doc"]["characters"]
    kept = [c for c in before["p1"]["doc"]["characters"] if c["id"] != victim]
    node("edit", world=world, name="p1", path=["characters"], value=kept)  # the list page's delete
    node("settle", world=world)
    s = state(node, world)
    assert ["warning", "live.refused.delete"] in s["p1"]["notices"]
    # the phone's table is the MJ's public view again: the character is back, as published
    assert [c["id"] for c in s["p1"]["doc"]["characters"]] == [c["id"] for c in mj_characters]
    assert s["p1"]["doc"]["characters"] == before["p1"]["doc"]["characters"]
    # nothing reached the MJ's table or the other phone
    assert s["mj"]["doc"]["characters"] == mj_characters
    assert s["p2"]["doc"]["characters"] == before["p2"]["doc"]["characters"]
    assert s["p1"]["queue"] == []

def test_the_phone_knows_the_characters_at_the_table_and_its_own(node, world):
    s = state(node, world)
    assert s["p1"]["private"]["characters"] == ["a"]
    assert sorted(s["p1"]["private"]["table"]) == ["a", "b"]


def test_a_move_and_the_words_its_page_gives_it_are_one_line_of_the_mjs_feed(node, world):
    """A quiet feed: the page's words for a move's entry (``live.log.label``, sent after the
    answer) reword the move's line, never make one of their own; the unseen count is the lines."""
    before = state(node, world)["mj"]
    node("call", world=world, name="p1", request={"op": "test.draw", "character": {"id": "a"}, "log": True,
                                                  "label": "tire une carte"})
    node("settle", world=world)
    node("addLog", world=world, name="p1", entry={"kind": "test.draw", "label": "Tirage · As de cœur",
                                                   "request": {"op": "test.draw"}, "result": {"summary": "Réussite"}})
    node("settle", world=world)
    s = state(node, world)["mj"]
    entry = s["doc"]["log"][-1]
    assert entry["label"] == "Tirage · As de cœur"  # the words reached the entry
    feed = s["feed"][len(before["feed"]):]
    assert [f["op"] for f in feed] == ["test.draw"]
    assert s["unseen"] == before["unseen"] + 1
