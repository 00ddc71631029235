"""The live table's referee: who did it comes from the link, never from a name (py/tablee/referee.py,
py/tablee/referee_kernel.py), and a player's entries never push the MJ's out of the log.

The hostile phone's probes of the live table's second round, as the referee sees them: a player
renames their own character "MJ" or to another player's character's name, signs a note or a
Tension point with it, relabels another's roll; a player floods the log with notes.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "theorem"))

from th_helpers import character as th_character

from referee_tables import uc_fight
from tablee import referee, store_shape
from tablee.api import handle
from tablee.errors import RulesError

NOW = "2026-11-28T20:00:00Z"
LEA = {"id": "m-lea", "name": "Léa", "characters": ["josh"]}
TOM = {"id": "m-tom", "name": "Tom", "characters": ["kim"]}


def ok(request):
    answer = handle(request)
    assert "error" not in answer, answer
    return answer


def table():
    """Léa plays Josh, Tom plays Kim (Théorem), a Point Zéro gauge with its hidden threshold."""
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [{**th_character("josh"), "name": "Josh"}, {**th_character("kim"), "name": "Kim"}]
    doc["systems"]["theorem"] = ok({"op": "theorem.state.new", "seed": 7})["state"]
    pz = ok({"op": "pointzero.state.new"})["state"]
    doc["systems"]["pointzero"] = ok({"op": "pointzero.mj.threshold", "state": pz, "threshold": 7})["state"]
    return doc


def move(doc, member, request, seed=11, now=NOW):
    return referee.apply_move(doc, member, request, seed=seed, now=now)


def renamed(doc, member, cid, name):
    """``member``'s phone saves its character ``cid`` under ``name`` (a sheet edit, accepted)."""
    view = ok({"op": "store.share", "kind": "character", "data": next(c for c in doc["characters"] if c["id"] == cid),
               "audience": "player"})["data"]
    after, answer = move(doc, member, {"op": "live.character.save", "character": {**view, "name": name}})
    assert answer["character"]["name"] == name
    return after


def note(eid, who, label="On fuit !"):
    return {"op": "live.log.add", "entry": {"id": eid, "at": NOW, "kind": "note", "system": None, "who": who,
                                            "label": label, "request": {}, "result": {}}}


def test_a_character_renamed_mj_signs_nothing_as_the_mj():
    """Léa renames Josh "MJ" and signs a note "MJ": the line says whose it is (``member``, and
    "MJ (Léa)"), never "MJ" alone; a note signed "MJ" by a phone without such a character is
    hers; a ``member`` the phone forged is replaced by the link's."""
    doc = renamed(table(), LEA, "josh", "MJ")
    after, answer = move(doc, LEA, note("n1", "MJ"))
    entry = after["log"][-1]
    assert entry["who"] == "MJ (Léa)" and entry["member"] == {"id": "m-lea", "name": "Léa"}
    assert answer["entry"]["member"] == {"id": "m-lea", "name": "Léa"}
    forged = note("n2", "MJ")
    forged["entry"]["member"] = {"id": "mj", "name": "MJ"}
    after, _ = move(table(), LEA, forged)
    assert after["log"][-1]["who"] == "Léa" and after["log"][-1]["member"] == {"id": "m-lea", "name": "Léa"}


def test_renaming_ones_character_to_anothers_name_grants_nothing():
    """Léa renames Josh "Kim" (Tom's character's name): she still moves Josh only, cannot draw
    for Tom's Kim, and cannot relabel Tom's roll although its ``who`` now reads like hers: a
    label is matched by member id."""
    doc = table()
    doc, answer = move(doc, TOM, {"op": "theorem.hand.draw", "character": {"id": "kim"}}, seed=5)
    toms = doc["log"][-1]
    assert toms["id"] == answer["logged"] and toms["who"] == "Kim" and toms["member"]["id"] == "m-tom"
    doc = renamed(doc, LEA, "josh", "Kim")
    before = copy.deepcopy(doc)
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {"op": "live.log.label", "id": toms["id"], "label": "Raté, Kim !"})
    assert info.value.code == "live.refused.label"
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {"op": "theorem.hand.draw", "character": {"id": "kim"}})
    assert info.value.code == "live.refused.character"
    assert doc == before
    mine, answer = move(doc, LEA, {"op": "theorem.hand.draw", "character": {"id": "josh"}}, seed=6)
    assert mine["log"][-1]["member"]["id"] == "m-lea" and mine["log"][-1]["who"] == "Kim"
    labelled, _ = move(mine, LEA, {"op": "live.log.label", "id": answer["logged"], "label": "Ma main"})
    assert labelled["log"][-1]["label"] == "Ma main"


@pytest.mark.parametrize(("who", "signed"), [
    ("MJ", "Léa"),  # the MJ's name: not hers to sign
    ("Kim", "Léa"),  # another player's character
    ("", "Léa"),  # nobody named: still hers
    ("Josh", "Josh (Léa)"),  # her own character, with who plays it
])
def test_a_tension_point_is_signed_by_the_link_not_by_the_who_sent(who, signed):
    """``pointzero.tension.use`` from a phone stores the member's identity, never the ``who``
    the phone sent (rules/README.md, Point Zéro: every point a player uses goes into the gauge)."""
    after, _ = move(table(), LEA, {"op": "pointzero.tension.use", "kind": "other", "who": who, "note": "Alarme"})
    assert after["systems"]["pointzero"]["entries"] == [{"kind": "other", "who": signed, "note": "Alarme"}]


def test_a_tension_point_of_a_character_renamed_mj_still_names_its_player():
    doc = renamed(table(), LEA, "josh", "MJ")
    after, _ = move(doc, LEA, {"op": "pointzero.tension.use", "kind": "dice", "who": "MJ"})
    assert after["systems"]["pointzero"]["entries"][-1]["who"] == "MJ (Léa)"


def test_a_label_goes_only_on_the_members_own_entries():
    """Tom cannot label Léa's roll; nobody labels an entry the referee did not write for them,
    even one whose ``who`` is their name (the MJ's own line about them, an entry of an older
    version without ``member``)."""
    doc, answer = move(table(), LEA, {"op": "roll", "expr": "3d6"}, seed=1234)
    entry = doc["log"][-1]
    assert entry["member"] == {"id": "m-lea", "name": "Léa"} and entry["who"] == "Léa"
    with pytest.raises(RulesError) as info:
        move(doc, TOM, {"op": "live.log.label", "id": answer["logged"], "label": "x"})
    assert info.value.code == "live.refused.label"
    old = {k: v for k, v in entry.items() if k != "member"}
    doc["log"].append({**old, "id": "live-0123456789abcdef"})
    with pytest.raises(RulesError) as info:
        move(doc, LEA, {"op": "live.log.label", "id": "live-0123456789abcdef", "label": "x"})
    assert info.value.code == "live.refused.label"
    labelled, reply = move(doc, LEA, {"op": "live.log.label", "id": answer["logged"], "label": "Saut"})
    assert labelled["log"][-2] == {**entry, "label": "Saut"} and reply["entry"]["label"] == "Saut"


def _entry(i, member=None, to=None):
    e = {"id": f"e{i}", "at": NOW, "kind": "roll", "system": None, "who": "MJ", "label": f"mj {i}",
         "request": {"op": "roll", "expr": "1d20", "seed": i}, "result": {"total": 1 + i % 20, "terms": []}}
    if member is not None:
        e["member"] = {"id": member["id"], "name": member["name"]}
        e["who"] = member["name"]
    if to is not None:
        e["to"] = to
    return e


def test_at_the_cap_a_players_entry_pushes_out_the_oldest_entry_while_players_fill_half_the_log():
    """The log at its 1,000 cap, five member entries in it: Léa's note, her roll and Tom's note
    each push out the oldest entry (the MJ's secret roll first), as the MJ's own device does;
    every member entry stays."""
    doc = table()
    doc["log"] = [_entry(i, to="mj" if i == 0 else None) for i in range(995)]
    doc["log"][10:10] = [_entry(1000 + i, member=TOM if i % 2 else LEA) for i in range(5)]
    assert len(doc["log"]) == store_shape.MAX_LOG
    mj_ids = [e["id"] for e in doc["log"] if "member" not in e]
    doc, _ = move(doc, LEA, note("n1", "Léa"))
    doc, answer = move(doc, LEA, {"op": "roll", "expr": "1d6"}, seed=3)
    doc, _ = move(doc, TOM, note("n2", "Tom"))
    assert len(doc["log"]) == store_shape.MAX_LOG
    assert [e["id"] for e in doc["log"] if "member" not in e] == mj_ids[3:]
    members = [e["id"] for e in doc["log"] if "member" in e]
    assert members == ["e1000", "e1001", "e1002", "e1003", "e1004", "n1", answer["logged"], "n2"]


def test_a_flood_of_notes_never_takes_the_mjs_history_out_of_the_log():
    """The probe: 32 earlier entries, among them the MJ's secret rolls and a roll sent to one
    player only, then 1,000 notes from one phone. The MJ's 32 entries are all still there,
    in their order, and the log holds the phone's newest notes."""
    doc = table()
    doc["log"] = [_entry(i, to="mj" if i in (3, 9, 20) else "m-tom" if i == 12 else None) for i in range(32)]
    before = json.dumps(doc["log"])
    for i in range(1000):
        doc, _ = move(doc, LEA, note(f"flood-{i}", "Léa", label="spam"))
    assert len(doc["log"]) == store_shape.MAX_LOG
    assert json.dumps(doc["log"][:32]) == before
    assert doc["log"][32]["id"] == "flood-32" and doc["log"][-1]["id"] == "flood-999"


def test_a_log_full_of_the_mjs_entries_keeps_every_players_line():
    """A long campaign: the log full of the MJ's entries. Six players' rolls at the same moment
    (one move after the other on the MJ's device) each push out the oldest entry: all six are
    in the log, none pushed out by the next player's."""
    doc = table()
    doc["log"] = [_entry(i) for i in range(store_shape.MAX_LOG)]
    for n in range(6):
        doc, _ = move(doc, LEA if n % 2 else TOM, note(f"n{n}", "Léa" if n % 2 else "Tom"))
    ids = [e["id"] for e in doc["log"]]
    assert ids[0] == "e6" and ids[-6:] == [f"n{n}" for n in range(6)] and len(ids) == store_shape.MAX_LOG


def _uc_fight():
    """Léa's fighter Brune (side pc) engaged with the MJ's NPC Ogre, Brune's turn."""
    a = ok({"op": "unicreon.character.new", "id": "ua", "name": "Brune"})["character"]
    b = ok({"op": "unicreon.character.new", "id": "ub", "name": "Ogre"})["character"]
    doc, _, mine, foe = uc_fight(a, b)
    return doc, mine, foe


@pytest.mark.parametrize("request_", [
    {"op": "unicreon.combat.attack"},
    {"op": "unicreon.combat.escape", "mode": "opposition"},
])
def test_a_unicreon_attack_or_escape_from_a_phone_is_signed_with_the_fighters_name(request_):
    """The combat page signs a passe d'armes and an escape with the fighter's name on one device;
    from a phone the referee's entry does the same (not the player's name), and carries the
    player as ``member``."""
    doc, mine, foe = _uc_fight()
    lea = {"id": "m-lea", "name": "Léa", "characters": ["ua"]}
    fields = {"attacker": mine, "defender": foe} if request_["op"].endswith("attack") else {"cid": mine, "from": foe}
    after, answer = move(doc, lea, {**request_, **fields}, seed=9)
    assert "error" not in answer, answer
    [entry] = after["log"]
    assert entry["who"] == "Brune" and entry["member"] == {"id": "m-lea", "name": "Léa"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["mj", "lea", "tom"]), min_size=1, max_size=60), st.integers(0, 40))
def test_whatever_the_order_a_members_entry_costs_the_mj_an_entry_only_while_players_fill_half_the_log(steps, room):
    """A log ``room`` entries short of its cap (a small cap here, the same rule), the MJ's entries
    added by the app (oldest out first) and the players' notes by the referee, in any order: a
    player's note pushes out the oldest entry while the members' entries are at most half the
    cap, else the oldest member entry; the MJ's entries never fall under half the log but by
    the MJ's own."""
    cap = 40
    doc = table()
    doc["log"] = [_entry(i) for i in range(cap - room)]
    for n, who in enumerate(steps):
        if who == "mj":
            doc["log"] = [*doc["log"], _entry(5000 + n)][-cap:]
            continue
        member = LEA if who == "lea" else TOM
        before = [e["id"] for e in doc["log"]]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(store_shape, "MAX_LOG", cap)
            doc, _ = move(doc, member, note(f"n{n}", member["name"]))
        after = [e["id"] for e in doc["log"]]
        assert len(after) <= cap and after[-1] == f"n{n}"
        members = [i for i in before if i.startswith("n")] + [f"n{n}"]
        if len(before) < cap:
            assert after == [*before, f"n{n}"]
        elif len(members) <= cap // 2:
            assert after == [*before[1:], f"n{n}"]  # the oldest entry, whoever's
        else:
            assert after == [i for i in before if i != members[0]] + [f"n{n}"]  # the oldest member entry


def test_a_full_logs_cut_reaches_the_mjs_device_as_a_few_records_not_the_whole_log():
    """A player's entry at the cap cuts the oldest player entry out of the middle of the log; the
    MJ's device receives that as the move's changes (``referee.changes``): the first record
    dropped, the records before the cut set one place earlier, the new one added, never the
    1,000 entries whole while the cut is within the first hundred; the changes make the
    referee's log again."""
    doc = table()
    # (three entries in four the players': past half the log, a cut takes the oldest member entry)
    doc["log"] = [_entry(i, member=LEA if i % 4 else None) for i in range(store_shape.MAX_LOG)]
    for n in range(20):
        after, _ = move(doc, TOM, note(f"n{n}", "Tom"))
        found = referee.changes(doc, after)
        assert "all" not in found["log"], n
        assert len(found["log"].get("set", {})) <= 3 + 3 * n and found["log"]["add"][0]["id"] == f"n{n}"
        assert referee.apply_changes(copy.deepcopy(doc), json.loads(json.dumps(found)))["log"] == after["log"]
        doc = after
    kept = [f"e{i}" for i in range(store_shape.MAX_LOG) if i % 4 == 0]
    assert [e["id"] for e in doc["log"] if "member" not in e] == kept


def test_the_public_views_change_for_a_cut_is_a_few_records_too():
    """The same cut in the public view the move answers (``projection``, what every phone's doc
    is written from): a few records, which make the new public view from the previous one."""
    from tablee.api import handle_json

    doc = table()
    doc["log"] = [_entry(i, member=LEA if i % 4 == 3 else None, to="mj" if i == 5 else None)
                  for i in range(store_shape.MAX_LOG)]

    def live(request):
        return json.loads(handle_json(json.dumps({"op": "live.move", "member": TOM, "now": NOW, "changes": True,
                                                  **request})))

    first = live({"document": doc, "move": note("n0", "Tom"), "seed": 1, "view": None})
    view, mj = first["projection"]["data"], referee.apply_changes(doc, first["changes"])
    rev, since = first["rev"], first["projection"]["view"]
    for n in range(1, 6):
        answer = live({"held": rev, "move": note(f"n{n}", "Tom"), "seed": 1 + n, "view": since})
        assert answer["applied"] and "all" not in answer["projection"]["changes"]["log"], n
        view = referee.apply_changes(view, answer["projection"]["changes"])
        mj = referee.apply_changes(mj, answer["changes"])
        rev, since = answer["rev"], answer["projection"]["view"]
    assert view == ok({"op": "store.share", "kind": "table", "data": mj, "audience": "player"})["data"]
    assert view["log"][-1]["id"] == "n5" and "e5" not in [e["id"] for e in view["log"]]  # (the MJ's secret)
