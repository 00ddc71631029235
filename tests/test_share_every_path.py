"""Every log entry leaving the MJ's device goes through one filter (py/tablee/share.py
``entry_view``), whatever path it takes: the live table's public doc (``table_view``, the
projection), a player's private doc (``addressed_view``, ``live.private_log``: an entry the MJ
sent to one player), a share link of the entry, of a character or of the whole table.

Over every op a phone's move logs an entry for (every move that takes a seed) and the entries
pages log with a whole character (Unicreon's health ops), no view holds a seed or a deck of a
hidden pile (Théorem, Versality), Point Zéro's threshold or what is left before it, a system's
whole state, or a character's secret (Unicreon's terrible secret, 004_12a5de9999b9d0ad.txt).

Oracle: sentinels put where the MJ's table keeps them, looked for in every byte of each view,
and the keys of hidden state looked for at any depth.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from referee_tables import LEA, MIRA, move, ok, pz_table, pz_test, table
from tablee import referee, share, store
from tablee.api import _find, handle
from tablee.registry import OPS

pytestmark = pytest.mark.usefixtures("every_move_is_its_changes")

SECRET = "zq-terrible-secret-42"
#: Keys that hold a hidden pile's order or what shuffles it, by system (the public discard and a
#: seed tell the order of what is left), and the MJ's own numbers.
HIDDEN_KEYS = {"theorem": {"seed", "deck", "deck_used", "arcana", "hand"},
               "versality": {"seed", "deck", "deck_used", "decks"},
               "pointzero": {"threshold", "left"}}


def _seeded_moves():
    out = []
    for name in referee.all_moves():
        _find(name)
        if "seed" in OPS[name].schema["properties"]:
            out.append(name)
    return sorted(out)


def _keys(node):
    stack, found = [node], set()
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found |= set(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _uc(cid, name):
    c = ok({"op": "unicreon.character.new", "id": cid, "name": name})["character"]
    return {**c, "secret": SECRET}


def _worst_entry(name):
    """An entry of op ``name`` as a page on the MJ's device could log it at worst: its request
    and answer whole, with the seed, the deck as it stood, the system's state, the MJ's numbers
    and a whole character record holding its secret."""
    spec = referee._spec(name)
    system = spec.system or (name.split(".")[0] if "." in name else None)
    record = _uc("uc-secret", "Solène")
    deck = {"draw": ["c-1", "c-2"], "discard": [], "seed": 77}
    hidden = {"seed": 77, "deck": deck, "deck_used": deck, "threshold": 7, "left": 3, "state": {"mj": SECRET},
              "character": record}
    return {"id": f"worst-{name}", "at": "2026-11-25T12:00:00Z", "kind": spec.kind or name, "system": system,
            "who": "MJ", "label": name, "request": {"op": name, **hidden, "nested": {"target": record}},
            "result": {"total": 3, **hidden, "sides": [{"character": record}]}}


def _views(doc, entry, to="m-lea"):
    """Every view of ``entry`` a player may get, by each path it leaves the MJ's device by."""
    whole = {**doc, "log": [*doc["log"], entry]}
    out = {"table": share.share("table", whole, "player")["log"][-1],
           "projection": share.table_view(json.loads(json.dumps(whole)))["log"][-1],
           "entry link": share.share("entry", entry, "player"),
           "private": share.addressed_view({**entry, "to": to})}
    link = handle({"op": "store.share_link", "kind": "entry", "data": entry, "audience": "player"})
    out["entry link payload"] = link["data"]
    return out


def _assert_clean(entry, views):
    system = entry["system"]
    for path, view in views.items():
        assert view is not None, path
        text = json.dumps(view, ensure_ascii=False)
        assert SECRET not in text, (entry["kind"], path)
        keys = _keys(view)
        assert not keys & HIDDEN_KEYS.get(system, set()), (entry["kind"], path, keys & HIDDEN_KEYS.get(system, set()))
        for part in ("request", "result"):
            assert not isinstance(view.get(part, {}).get("state"), dict), (entry["kind"], path)
        assert store.record_ok("entry", view), path


@pytest.mark.parametrize("name", _seeded_moves())
def test_no_entry_of_any_logged_op_reaches_a_player_with_anything_hidden(name):
    doc = table()
    doc["characters"].append(_uc("uc-other", "Autre"))
    entry = _worst_entry(name)
    assert store.record_ok("entry", entry)
    _assert_clean(entry, _views(doc, entry))


def test_every_op_a_move_logs_is_covered():
    assert len(_seeded_moves()) >= 23  # (a new move that logs is in the list above by itself)


@pytest.mark.parametrize("op", ["unicreon.health.damage", "unicreon.health.rest"])
def test_unicreons_terrible_secret_stays_out_of_a_shared_health_entry(op):
    """A page's entry of a health op keeps the character whole in its request and its answer."""
    c = _uc("u1", "Solène")
    asked = {"op": op, "character": c, **({"amount": 3} if op.endswith("damage") else {"kind": "short"})}
    answer = ok(asked)
    entry = {"id": f"page-{op}", "at": "2026-11-25T12:00:00Z", "kind": op, "system": "unicreon", "who": "Solène",
             "label": op, "request": asked, "result": {"character": answer["character"]}}
    assert SECRET in json.dumps(entry)
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [c]
    _assert_clean(entry, _views(doc, entry))
    # (and the character's own share link and the table's)
    assert SECRET not in json.dumps(share.share("character", c, "player"))
    assert SECRET not in json.dumps(share.share("table", {**doc, "log": [entry]}, "player"))


def _real_entries():
    """Entries the referee itself logged for phones' moves (a Point Zéro test, a Théorem draw, a
    Versality test, a Unicreon test)."""
    from referee_tables import theorem_drawing

    out = []
    doc, answer = move(pz_table(), MIRA, pz_test(), seed=31)
    out.append((doc, next(e for e in doc["log"] if e["id"] == answer["logged"])))
    doc = theorem_drawing()
    doc, answer = move(doc, LEA, {"op": "theorem.action.draw", "character": {"id": "josh"}}, seed=5)
    out.append((doc, next(e for e in doc["log"] if e["id"] == answer["logged"])))
    uc = _uc("u1", "Solène")
    doc = ok({"op": "store.new", "name": "Table", "language": "fr"})["document"]
    doc["characters"] = [uc]
    test = {"characteristic": "agilite", "difficulty": "difficile", "bonus": 5, "malus": 0}
    doc, answer = move(doc, {"id": "m-sol", "name": "Léa", "characters": ["u1"]},
                       {"op": "unicreon.test", "test": test, "character": {"id": "u1"}}, seed=13)
    out.append((doc, next(e for e in doc["log"] if e["id"] == answer["logged"])))
    return out


def test_the_referees_own_entries_reach_a_player_clean_by_every_path():
    for doc, entry in _real_entries():
        base = {**doc, "log": [e for e in doc["log"] if e["id"] != entry["id"]]}
        _assert_clean(entry, _views(base, entry))


def test_the_private_log_op_filters_each_entry_and_keeps_the_mjs_secret_rolls():
    entry = _worst_entry("theorem.action.draw")
    answer = ok({"op": "live.private_log", "entries": [{**entry, "to": "m-lea"}, {**entry, "to": "mj"}, {"x": 1}]})
    clean, secret_roll, broken = answer["entries"]
    assert secret_roll is None and broken is None
    assert clean["to"] == "m-lea" and clean["label"] == entry["label"]
    _assert_clean(entry, {"private": clean})
