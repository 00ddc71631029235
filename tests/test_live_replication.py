"""The live table's replication: static/js/live/ydoc.js (JSON <-> Y.Doc) and
static/js/live/sync.js (Hub/Member over Links), run in Node by tests/live/harness.mjs (CPython
cannot run Yjs): one node process for the module, JSON lines both ways.

- the mapping round-trips exactly (realistic table documents and arbitrary nested JSON,
  `__proto__`/`constructor` keys, unicode), strictly (a boolean never comes back as a number);
- writing B over A leaves exactly B; writing the same document again makes no Y update; one
  changed field touches that field only;
- replicas that start from one document and edit apart converge, whatever the order their
  updates arrive in, and edits to different records and fields all survive;
- a hub and two members over held and reordered links converge on what the hub wrote; a member
  never receives a byte of the other's private document; a member's own write into a Y doc is
  never taken by the hub nor relayed (the hub is the referee: a member sends moves); a member
  that left catches up on return; presence follows links; hostile bytes are refused, change
  nothing, and leave the link open.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from node_harness import NODE, NodeHarness

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "tests" / "live" / "harness.mjs"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(NODE is None, reason="node is not installed: Yjs runs only in JavaScript"),
]

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORLDS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def node():
    harness = NodeHarness(HARNESS)
    yield harness
    harness.close()


def strict(value):
    """A comparable form of a JSON value where true != 1 and 1 == 1.0 (JSON has one number type)."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("num", float(value))
    if isinstance(value, str):
        return ("str", value)
    if value is None:
        return ("null",)
    if isinstance(value, list):
        return ("list", [strict(v) for v in value])
    assert isinstance(value, dict)
    return ("dict", sorted((k, strict(v)) for k, v in value.items()))


# ---- strategies -------------------------------------------------------------------------------
SAFE = 2**53 - 1
keys = st.one_of(st.sampled_from(["__proto__", "constructor", "toString", "id", "hasOwnProperty", ""]),
                 st.text(max_size=8))
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-SAFE, SAFE),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
)
any_json = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(keys, inner, max_size=5)),
    max_leaves=25,
)
record_ids = st.text(alphabet="abcdef0123456789-", min_size=1, max_size=8)


def keyed(record, max_size=5):
    """Lists of records with unique string ids, as characters and the log are."""
    return st.lists(st.tuples(record_ids, record), max_size=max_size, unique_by=lambda t: t[0]).map(
        lambda pairs: [{**rec, "id": rid} for rid, rec in pairs])


character = st.fixed_dictionaries(
    {"system": st.sampled_from(["unicreon", "versality", "theorem", "systmj", "pointzero"]),
     "name": st.text(max_size=10)},
    optional={"hp": st.integers(0, 30), "notes": st.text(max_size=20),
              "skills": st.dictionaries(keys, scalars, max_size=4),
              "tags": st.lists(st.text(max_size=5), max_size=3), "extra": any_json},
)
log_entry = st.fixed_dictionaries(
    {"at": st.text(max_size=8), "kind": st.sampled_from(["roll", "draw", "test"]), "label": st.text(max_size=10)},
    optional={"result": st.dictionaries(keys, any_json, max_size=3)},
)
table = st.fixed_dictionaries(
    {"schema": st.just(1), "app": st.just("tablee"), "name": st.text(max_size=12),
     "language": st.sampled_from(["fr", "en"]), "characters": keyed(character),
     "log": keyed(log_entry), "systems": st.dictionaries(keys, any_json, max_size=3),
     "settings": st.dictionaries(keys, scalars, max_size=3)},
    optional={"quarantine": st.lists(st.fixed_dictionaries({"kind": st.text(max_size=5), "data": any_json}),
                                     max_size=2)},
)
any_object = st.dictionaries(keys, any_json, max_size=6)


# ---- the mapping ------------------------------------------------------------------------------
@PROPERTY
@given(doc=st.one_of(table, any_object))
def test_round_trip_is_exact(node, doc):
    out = node("roundtrip", json=doc)
    assert strict(out["direct"]) == strict(doc)
    assert strict(out["replicated"]) == strict(doc)  # through Yjs's binary update too


def test_round_trip_keeps_awkward_keys_and_text(node):
    doc = {"__proto__": {"polluted": True}, "constructor": "c", "toString": [1, [2, [3]]], "": None,
           "texte": "Éloïse lance 🎲 « 2d6 »", "characters": [{"id": "__proto__", "name": "x"}],
           "dupes": [{"id": "a"}, {"id": "a", "n": 2}], "n": [0, -1, 1.5, 9007199254740991, -9007199254740991, 1e300]}
    out = node("roundtrip", json=doc)
    assert strict(out["direct"]) == strict(doc) and strict(out["replicated"]) == strict(doc)


def nested(depth: int):
    value = "fond"
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


def test_nesting_reads_exactly_to_twice_the_stores_depth_and_never_throws_beyond(node):
    ok = {"deep": nested(60)}
    assert node("roundtrip", json=ok)["replicated"] == ok
    assert node("deep", depth=63) == {"levels": 64, "leaf": "fond"}
    # a hostile peer's 20 000 levels: cut at MAX_READ_DEPTH (null), no stack overflow
    assert node("deep", depth=20_000) == {"levels": 65, "leaf": None}


@PROPERTY
@given(a=st.one_of(table, any_object), b=st.one_of(table, any_object))
def test_writing_b_over_a_leaves_exactly_b_and_rewriting_b_is_a_no_op(node, a, b):
    out = node("rewrite", a=a, b=b)
    assert strict(out["read"]) == strict(b)
    assert out["againUpdates"] == 0 and out["againTouched"] == []
    if strict(a) == strict(b):
        assert out["updates"] == 0 and out["touched"] == []


@PROPERTY
@given(a=st.one_of(table, any_object), b=st.one_of(table, any_object), data=st.data())
def test_a_write_told_what_the_doc_holds_makes_the_same_changes(node, a, b, data):
    """The MJ's device tells writeJson what the public doc holds (its last view): records equal
    to their previous value are skipped, and the doc still reads B, touched exactly where a
    write that reads the doc's content touches it."""
    if data.draw(st.booleans()) and isinstance(b.get("characters"), list) and b["characters"]:
        b = json.loads(json.dumps(a if isinstance(a.get("characters"), list) else b))  # often: a near copy
        if b["characters"] and isinstance(b["characters"][0], dict):
            b["characters"][0] = {**b["characters"][0], "hp": data.draw(st.integers(0, 3))}
    told = node("rewrite", a=a, b=b, known=True)
    plain = node("rewrite", a=a, b=b)
    assert strict(told["read"]) == strict(b)
    assert told["touched"] == plain["touched"] and told["updates"] == plain["updates"]
    assert told["againUpdates"] == 0 and told["againTouched"] == []


@PROPERTY
@given(doc=table.filter(lambda t: t["characters"]), index=st.integers(0, 100), value=st.integers(1000, 2000),
       field=st.sampled_from(["hp", "notes", "name"]))
def test_one_changed_field_touches_that_field_only(node, doc, index, value, field):
    chars = doc["characters"]
    index %= len(chars)
    new = json.loads(json.dumps(doc))
    new["characters"][index][field] = value
    out = node("rewrite", a=doc, b=new)
    assert strict(out["read"]) == strict(new)
    # the root map's "characters" array holds its kind marker at 0, so record i is item i + 1
    assert out["touched"] == [f"characters/{index + 1}/{field}"]
    assert out["updates"] == 1


def test_appending_a_log_entry_inserts_it_only(node):
    a = {"log": [{"id": "1", "label": "a"}, {"id": "2", "label": "b"}], "characters": [{"id": "c", "hp": 1}]}
    b = {"log": [*a["log"], {"id": "3", "label": "c"}], "characters": [{"id": "c", "hp": 1}]}
    out = node("rewrite", a=a, b=b)
    assert out["read"] == b and out["touched"] == ["log/[]"] and out["updates"] == 1


def test_a_long_list_without_ids_is_updated_in_place(node):
    a = {"quarantine": [{"kind": "character", "data": {"n": i, "tags": [i]}} for i in range(150)]}
    b = json.loads(json.dumps(a))
    b["quarantine"][120]["data"]["n"] = -1
    out = node("rewrite", a=a, b=b)
    assert out["read"] == b and out["touched"] == ["quarantine/121/data/n"] and out["updates"] == 1


def test_reordering_records_keeps_them_all(node):
    a = {"characters": [{"id": x, "n": i} for i, x in enumerate("abcde")]}
    b = {"characters": [a["characters"][i] for i in (4, 0, 1, 3, 2)]}
    assert node("rewrite", a=a, b=b)["read"] == b


# ---- replicas editing apart converge ----------------------------------------------------------
def replicas(node, base, count):
    node("drop")
    node("new", name="r0")
    node("write", name="r0", json=base)
    state = node("state", name="r0")
    for k in range(1, count):
        node("new", name=f"r{k}", **{"from": state})
    node("new", name="r0", **{"from": state})  # r0 afresh too: no replica's own updates hold the base
    return [f"r{k}" for k in range(count)]


def exchange(node, names, order):
    """Each replica receives every other replica's own updates, in an order drawn by the test."""
    own = {name: node("own", name=name) for name in names}
    for name in names:
        others = [u for other in names if other != name for u in own[other]]
        shuffled = [others[i] for i in order(len(others))]
        node("apply", name=name, updates=shuffled)
    return [node("read", name=name) for name in names]


edit = st.one_of(
    st.tuples(st.just("set"), st.integers(0, 10), st.sampled_from(["hp", "name", "notes", "new"]), scalars),
    st.tuples(st.just("del_field"), st.integers(0, 10), st.sampled_from(["hp", "notes"])),
    st.tuples(st.just("add_char"), record_ids),
    st.tuples(st.just("del_char"), st.integers(0, 10)),
    st.tuples(st.just("log"), record_ids, st.text(max_size=6)),
    st.tuples(st.just("del_log"), st.integers(0, 10)),
    st.tuples(st.just("setting"), keys, scalars),
)


def apply_edit(doc, e):
    chars, log = doc["characters"], doc["log"]
    kind = e[0]
    if kind == "set" and chars:
        chars[e[1] % len(chars)][e[2]] = e[3]
    elif kind == "del_field" and chars:
        chars[e[1] % len(chars)].pop(e[2], None)
    elif kind == "add_char" and e[1] not in {c["id"] for c in chars}:
        chars.append({"id": e[1], "name": e[1]})
    elif kind == "del_char" and chars:
        chars.pop(e[1] % len(chars))
    elif kind == "log" and e[1] not in {x["id"] for x in log}:
        log.append({"id": e[1], "label": e[2]})
    elif kind == "del_log" and log:
        log.pop(e[1] % len(log))
    elif kind == "setting":
        doc["settings"][e[1]] = e[2]


def orders(data):
    return lambda n: data.draw(st.permutations(list(range(n))))


@PROPERTY
@given(base=table, edits=st.lists(st.lists(edit, max_size=6), min_size=2, max_size=3), data=st.data())
def test_any_edits_in_any_delivery_order_converge(node, base, edits, data):
    names = replicas(node, base, len(edits))
    for name, seq in zip(names, edits, strict=True):
        doc = json.loads(json.dumps(base))
        for e in seq:
            apply_edit(doc, e)
            node("write", name=name, json=doc)
    reads = exchange(node, names, orders(data))
    assert all(strict(r) == strict(reads[0]) for r in reads[1:])


def assert_mirrored(node, name):
    both = node("mirrored", name=name)
    assert both["mirror"] == both["read"]


@PROPERTY
@given(base=table, edits=st.lists(st.lists(edit, max_size=6), min_size=2, max_size=3), data=st.data(),
       other=st.one_of(table, any_object))
def test_a_mirror_follows_every_update_as_a_whole_read_does(node, base, edits, data, other):
    """The phone's table follows the public doc from each update's events (ydoc.js ``mirror``):
    after every update, in any delivery order, from any number of writers (concurrent inserts
    of one id included), and over a whole other document written on top, it reads exactly what
    ``readJson`` reads, key order included."""
    names = replicas(node, base, len(edits))
    node("new", name="phone", **{"from": node("state", name=names[0])})
    node("mirror", name="phone")
    for name, seq in zip(names, edits, strict=True):
        doc = json.loads(json.dumps(base))
        for e in seq:
            apply_edit(doc, e)
            node("write", name=name, json=doc)
    updates = [u for name in names for u in node("own", name=name)]
    for i in orders(data)(len(updates)):
        node("apply", name="phone", updates=[updates[i]])
        assert_mirrored(node, "phone")
    node("write", name=names[0], json=other)
    node("apply", name="phone", updates=node("own", name=names[0]))
    assert_mirrored(node, "phone")


@PROPERTY
@given(base=table, data=st.data(), count=st.integers(2, 3))
def test_edits_of_different_records_and_fields_all_survive(node, base, data, count):
    """Replica k edits only its own character, may delete its own 'drop' record (in the same
    writes: a positional diff would then move records' content between Y maps and lose the
    others' edits), appends its own log entries and sets its own setting."""
    base = json.loads(json.dumps(base))
    base["characters"] = ([{"id": f"drop-{k}", "name": f"d{k}"} for k in range(count)]
                          + [{"id": f"own-{k}", "name": f"n{k}", "hp": 1} for k in range(count)] + base["characters"])
    names = replicas(node, base, count)
    mine = {}
    for k, name in enumerate(names):
        doc = json.loads(json.dumps(base))
        steps = data.draw(st.lists(st.one_of(
            st.tuples(st.just("set"), st.sampled_from(["hp", "notes", "x"]), scalars),
            st.tuples(st.just("log"), st.text(max_size=5)),
            st.tuples(st.just("setting"), scalars), st.just(("drop",))), max_size=5))
        for n, step in enumerate(steps):
            if step[0] == "set":
                next(c for c in doc["characters"] if c["id"] == f"own-{k}")[step[1]] = step[2]
            elif step[0] == "drop":  # one write deletes a record and edits another
                doc["characters"] = [c for c in doc["characters"] if c["id"] != f"drop-{k}"]
                next(c for c in doc["characters"] if c["id"] == f"own-{k}")["dropped"] = n
            elif step[0] == "log":
                doc["log"].append({"id": f"r{k}-{n}", "label": step[1]})
            else:
                doc["settings"][f"own-{k}"] = step[1]
            node("write", name=name, json=doc)
        mine[k] = doc
    reads = exchange(node, names, orders(data))
    final = reads[0]
    assert all(strict(r) == strict(final) for r in reads[1:])
    by_id = {c["id"]: c for c in final["characters"]}
    for k, doc in mine.items():
        own = next(c for c in doc["characters"] if c["id"] == f"own-{k}")
        assert strict(by_id[f"own-{k}"]) == strict(own)
        assert (f"drop-{k}" in by_id) == any(c["id"] == f"drop-{k}" for c in doc["characters"])
        if f"drop-{k}" in by_id:
            assert by_id[f"drop-{k}"] == {"id": f"drop-{k}", "name": f"d{k}"}
        own_log = [x["id"] for x in doc["log"] if x["id"].startswith(f"r{k}-")]
        assert [x["id"] for x in final["log"] if x["id"].startswith(f"r{k}-")] == own_log
        if f"own-{k}" in doc["settings"]:
            assert strict(final["settings"][f"own-{k}"]) == strict(doc["settings"][f"own-{k}"])
    # the records nobody touched are there, in their order
    untouched = [c["id"] for c in base["characters"][2 * count:]]
    assert [c["id"] for c in final["characters"] if c["id"] in set(untouched)] == untouched


def test_same_field_edited_on_two_replicas_ends_equal(node):
    base = {"characters": [{"id": "eloise", "name": "Éloïse", "hp": 10, "notes": ""}], "log": []}
    names = replicas(node, base, 2)
    node("write", name="r0", json={**base, "characters": [{**base["characters"][0], "hp": 7}]})
    node("write", name="r1", json={**base, "characters": [{**base["characters"][0], "hp": 4, "notes": "blessée"}]})
    a, b = exchange(node, names, lambda n: list(range(n)))
    assert a == b
    assert a["characters"][0]["hp"] in (7, 4)  # one of the two, the same everywhere
    assert a["characters"][0]["notes"] == "blessée"  # the other field survives


def test_two_new_characters_added_apart_both_arrive(node):
    base = {"characters": [], "log": []}
    names = replicas(node, base, 2)
    node("write", name="r0", json={"characters": [{"id": "a", "name": "A"}], "log": []})
    node("write", name="r1", json={"characters": [{"id": "b", "name": "B"}], "log": []})
    a, b = exchange(node, names, lambda n: list(reversed(range(n))))
    assert a == b and sorted(c["id"] for c in a["characters"]) == ["a", "b"]


# ---- sync: a hub and two members over links -----------------------------------------------------
SENTINELS = {"A": "SECRET-A-7f3c", "B": "SECRET-B-91d2"}
actors = st.sampled_from(["hub", "A", "B"])
# Only the hub writes (a member's writes are refused: see test_a_members_writes_never_leave_it).
world_step = st.one_of(
    st.tuples(st.just("char"), st.just("hub"), st.sampled_from(["hp", "notes"]), scalars),
    st.tuples(st.just("log"), st.just("hub"), st.text(max_size=5)),
    st.tuples(st.just("priv"), st.sampled_from(["hub:A", "hub:B"]), st.sampled_from(["k", "m"]),
              st.text(max_size=5)),
    st.tuples(st.just("deliver"), st.sampled_from(["hub>A", "A>hub", "hub>B", "B>hub"]), st.integers(1, 4)),
    st.tuples(st.just("detach"), st.sampled_from(["A", "B"])),
    st.tuples(st.just("attach"), st.sampled_from(["A", "B"])),
    st.tuples(st.just("reload"), st.sampled_from(["A", "B"])),
)


def world_script(steps):
    """Harness steps: an actor edits its own character ('c-'+actor); priv values written by the hub
    into B's private doc carry B's sentinel; log ids are unique."""
    out = [["flush"]]  # the first sync (the hub's table) arrives before anyone edits
    for n, s in enumerate(steps):
        if s[0] == "char":
            out.append(["char", s[1], f"c-{s[1]}", s[2], s[3]])
        elif s[0] == "log":
            out.append(["log", s[1], f"{s[1]}-{n}", s[2]])
        elif s[0] == "priv":
            owner = s[1].removeprefix("hub:")
            out.append(["priv", s[1], s[2], f"{SENTINELS[owner]} {s[3]}"])
        else:
            out.append(list(s))
    return out


def expected_chars(script):
    last: dict[str, dict] = {}
    for s in script:
        if s[0] == "char":
            last.setdefault(s[2], {"id": s[2], "name": s[2]})[s[3]] = s[4]
    return last


def test_private_documents_and_the_hubs_table_reach_only_their_member(node):
    view = node("world", name="lit", members=["A", "B"], sentinels=SENTINELS, steps=[
        ["char", "hub", "c-hub", "hp", 12], ["priv", "hub:B", "hand2", SENTINELS["B"] + " arcane"], ["flush"]])
    node("world_drop", name="lit")
    for m in ("A", "B"):
        assert view["members"][m]["public"] == view["hub"]["public"]
        assert view["members"][m]["private"] == view["hub"]["private"].get(m, {})
        other = "B" if m == "A" else "A"
        assert view["members"][m]["leaked"][other] is False
        assert SENTINELS[other] not in json.dumps(view["members"][m])
    assert view["hub"]["private"]["B"]["hand2"] == SENTINELS["B"] + " arcane"


def test_a_members_writes_never_leave_it(node):
    """A member writing into its own copies (a hostile page): the hub takes none of it, relays
    none of it, and the link stays open."""
    view = node("world", name="mw", members=["A", "B"], sentinels=SENTINELS, steps=[
        ["char", "hub", "c-hub", "hp", 12], ["flush"],
        ["priv", "A", "note", SENTINELS["A"] + " mine"], ["char", "A", "c-A", "notes", SENTINELS["A"]],
        ["log", "A", "a-1", "forged"], ["flush"]])
    node("world_drop", name="mw")
    hub = view["hub"]
    assert "note" not in hub["private"]["A"] and "mine" not in json.dumps(hub)
    assert "c-A" not in json.dumps(hub["public"]) and "a-1" not in json.dumps(hub["public"])
    assert SENTINELS["A"] not in json.dumps(view["members"]["B"])
    assert view["members"]["B"]["public"] == hub["public"]
    assert hub["attached"] == ["A", "B"] and view["members"]["A"]["connected"]


@WORLDS
@given(steps=st.lists(world_step, max_size=14))
def test_hub_and_members_converge_over_held_links_and_never_leak(node, steps):
    script = world_script(steps)
    view = node("world", name="w", members=["A", "B"], sentinels=SENTINELS, steps=script)
    node("world_drop", name="w")
    hub = view["hub"]
    assert hub["attached"] == ["A", "B"]
    for m, other in (("A", "B"), ("B", "A")):
        mine = view["members"][m]
        assert strict(mine["public"]) == strict(hub["public"])
        assert strict(mine["private"]) == strict(hub["private"][m])
        assert mine["leaked"][other] is False, f"{m} received bytes of {other}'s private document"
        assert mine["presence"] == ["A", "B", "MJ"]
    assert hub["presence"] == ["A", "B", "MJ"]
    # each actor's character holds what it last set (nobody else edits it); every log entry arrived
    chars = {c["id"]: c for c in hub["public"].get("characters", [])}
    for cid, fields in expected_chars(script).items():
        assert strict(chars[cid]) == strict(fields)
    logged = [s[2] for s in script if s[0] == "log"]
    assert sorted(x["id"] for x in hub["public"].get("log", [])) == sorted(logged)


def test_presence_follows_the_links(node):
    view = node("world", name="p", members=["A", "B"], sentinels=SENTINELS, steps=[["flush"]])
    assert view["hub"]["presence"] == ["A", "B", "MJ"] == view["members"]["A"]["presence"]
    assert view["members"]["A"]["synced"] is True and view["members"]["A"]["syncedCalls"] == 1
    view = node("world_step", name="p", steps=[["detach", "A"], ["flush"]])
    assert view["members"]["A"]["synced"] is False
    assert view["hub"]["presence"] == ["B", "MJ"] and view["members"]["B"]["presence"] == ["B", "MJ"]
    assert view["members"]["A"]["presence"] == ["A"] and not view["members"]["A"]["connected"]
    assert view["hub"]["attached"] == ["B"]
    view = node("world_step", name="p", steps=[["attach", "A"], ["flush"]])
    for who in (view["hub"], view["members"]["A"], view["members"]["B"]):
        assert who["presence"] == ["A", "B", "MJ"]
    assert view["members"]["A"]["synced"] is True and view["members"]["A"]["syncedCalls"] == 2
    node("world_drop", name="p")


def test_a_member_who_left_catches_up_on_return(node):
    view = node("world", name="r", members=["A", "B"], sentinels=SENTINELS, steps=[
        ["char", "hub", "c-hub", "hp", 5], ["flush"], ["detach", "A"],
        ["char", "hub", "c-hub", "hp", 6], ["log", "hub", "h-1", "roll"], ["priv", "hub:A", "card", "new"],
        ["flush"]], settle=False)
    assert view["members"]["A"]["public"]["characters"] == [{"id": "c-hub", "name": "c-hub", "hp": 5}]
    view = node("world_step", name="r", steps=[["attach", "A"], ["flush"]])
    node("world_drop", name="r")
    hub = view["hub"]
    for m in ("A", "B"):
        assert view["members"][m]["public"] == hub["public"]
    assert {c["id"]: c for c in hub["public"]["characters"]}["c-hub"]["hp"] == 6
    assert [x["id"] for x in hub["public"]["log"]] == ["h-1"]
    assert view["members"]["A"]["private"]["card"] == "new"


def varuint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def varstring(s: str) -> bytes:
    raw = s.encode()
    return varuint(len(raw)) + raw


HOSTILE = {
    "empty": b"",
    "truncated": varuint(0) + varuint(40) + b"pub",
    "unknown doc": varuint(0) + varstring("private:B") + varuint(0) + varuint(0),
    "unknown kind": varuint(7) + varstring("public"),
    "awareness with a doc": varuint(1) + varstring("public") + varuint(0),
    "bad sync type": varuint(0) + varstring("public") + varuint(9),
    "garbage update": varuint(0) + varstring("public") + varuint(2) + varuint(5) + b"\xff\xff\xff\xff\xff",
    "oversized": varuint(0) + varstring("public") + varuint(2) + varuint(2_000_000) + b"\x00" * 2_000_000,
}


def presence_of(client_id: int, state: str) -> bytes:
    """Our envelope around a y-protocols awareness update for one client, at a high clock."""
    update = varuint(1) + varuint(client_id) + varuint(1000) + varstring(state)
    return varuint(1) + varstring("") + varuint(len(update)) + update


SPOOFS = {"the MJ away": ("hub", "null"), "B away": ("B", "null"), "passing for B": ("B", '{"name": "A as B"}')}


@pytest.mark.parametrize("case", list(HOSTILE) + list(SPOOFS))
def test_hostile_bytes_are_refused_change_nothing_and_leave_the_link_open(node, case):
    before = node("world", name="h", members=["A", "B"], sentinels=SENTINELS,
                  steps=[["char", "hub", "c-hub", "hp", 3], ["flush"]])
    if case in SPOOFS:
        whom, state = SPOOFS[case]
        target = before["hub"] if whom == "hub" else before["members"][whom]
        raw = presence_of(target["clientId"], state)
    else:
        raw = HOSTILE[case]
    out = node("world_inject", name="h", member="A", bytes=base64.b64encode(raw).decode())
    node("world_drop", name="h")
    assert out["hubAttached"] == ["A", "B"] and out["linkOpen"] is True
    assert out["view"]["hub"]["public"] == before["hub"]["public"]
    assert out["view"]["hub"]["private"] == before["hub"]["private"]
    assert out["view"]["hub"]["presence"] == ["A", "B", "MJ"]


def test_a_member_may_update_its_own_presence(node):
    before = node("world", name="own", members=["A", "B"], sentinels=SENTINELS, steps=[["flush"]])
    out = node("world_inject", name="own", member="A",
               bytes=base64.b64encode(presence_of(before["members"]["A"]["clientId"], '{"name": "A2"}')).decode())
    view = node("world_step", name="own", steps=[["flush"]])
    node("world_drop", name="own")
    assert out["hubAttached"] == ["A", "B"] and out["linkOpen"] is True
    assert view["hub"]["presence"] == ["A2", "B", "MJ"] == view["members"]["B"]["presence"]


def test_a_reloaded_member_restored_from_its_saved_y_state_catches_up(node):
    """The phone's page reloaded while away: its docs come back from Y.encodeStateAsUpdate
    (a new Yjs client id), then it rejoins: what the hub wrote meanwhile reaches it."""
    node("world", name="reload", members=["A", "B"], sentinels=SENTINELS, steps=[
        ["char", "hub", "c-A", "hp", 1], ["flush"], ["detach", "A"], ["reload", "A"],
        ["char", "hub", "c-hub", "notes", "meanwhile"], ["priv", "hub:A", "card", "drawn"], ["flush"]], settle=False)
    view = node("world_step", name="reload", steps=[["attach", "A"], ["flush"]])
    node("world_drop", name="reload")
    hub = view["hub"]
    chars = {c["id"]: c for c in hub["public"]["characters"]}
    assert chars["c-A"]["hp"] == 1 and chars["c-hub"]["notes"] == "meanwhile"
    for m in ("A", "B"):
        assert view["members"][m]["public"] == hub["public"]
        assert view["members"][m]["presence"] == ["A", "B", "MJ"]
    assert view["members"]["A"]["private"] == hub["private"]["A"] and hub["private"]["A"]["card"] == "drawn"
