"""The shared JSON-Schema pieces (tablee.schema) give exactly the schemas the systems wrote out
before they shared them, and the declaration helpers register the same request schemas."""

from __future__ import annotations

import pytest

from tablee import api, registry
from tablee.registry import SystemOps
from tablee.schema import ID_SCHEMA, array, character_head, integer, named_levels, record, text


def test_pieces_are_the_literal_schemas():
    assert integer(1, 100) == {"type": "integer", "minimum": 1, "maximum": 100}
    assert text(80) == {"type": "string", "maxLength": 80}
    assert text(40, 1) == {"type": "string", "minLength": 1, "maxLength": 40}
    assert record({"a": ID_SCHEMA, "b": text(3)}, required=("a",)) == {
        "type": "object", "properties": {"a": ID_SCHEMA, "b": {"type": "string", "maxLength": 3}},
        "required": ["a"], "additionalProperties": False,
    }
    assert array(text(5), 6) == {"type": "array", "maxItems": 6, "items": {"type": "string", "maxLength": 5}}
    assert array(text(5), 6, min_items=1)["minItems"] == 1
    assert character_head("theorem", name_min=1) == {
        "id": {"type": "string", "minLength": 1, "maxLength": 64},
        "system": {"const": "theorem"},
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
    }
    assert named_levels(40, integer(0, 10)) == {"type": "array", "maxItems": 40, "items": {
        "type": "object",
        "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 60},
                       "level": {"type": "integer", "minimum": 0, "maximum": 10}},
        "required": ["name", "level"], "additionalProperties": False,
    }}


def test_state_and_rules_ops_keep_their_request_schemas():
    ops = {o["op"]: o["schema"] for o in api.describe_live()["ops"]}
    view = ops["versality.view.player"]
    assert set(view["required"]) == {"op", "state"} and set(view["properties"]) == {"op", "state"}
    assert view["additionalProperties"] is False
    assert set(ops["theorem.rules"]["properties"]) == {"op"}


def test_open_record_lets_other_keys_pass():
    assert record({"session": integer(1, 9), "key": text(64)}, closed=False) == {
        "type": "object",
        "properties": {"session": {"type": "integer", "minimum": 1, "maximum": 9},
                       "key": {"type": "string", "maxLength": 64}},
        "required": ["session", "key"],
    }


# ------------------------------------------------------------------ SystemOps, the per-system op declarer

STATE = {"type": "object", "maxProperties": 3}
CHAR = {"type": "object", "maxProperties": 4}


@pytest.fixture
def table(monkeypatch):
    """An empty op table for the declarations below (the real one stays as the systems made it)."""
    monkeypatch.setattr(registry, "OPS", {})
    return registry.OPS


def _handler(request):
    return {"echo": request}


def test_system_op_lays_out_flags_takes_may_and_seed_in_order(table):
    declare = SystemOps("theorem", state=STATE, character=CHAR)
    declare("x.roll", state=True, character=True, takes={"a": text(3)}, may={"b": integer(0, 2)}, seed=True,
            summary="s")(_handler)
    op = declare.ops["theorem.x.roll"]
    assert table == {}  # declared in the system's table; installed when the system loads
    assert (op.system, op.summary, op.handler) == ("theorem", "s", _handler)
    assert list(op.schema["properties"]) == ["op", "state", "character", "a", "b", "seed"]
    assert op.schema["required"] == ["op", "state", "character", "a", "seed"]
    # The very schema objects: the state guards find a state property by identity.
    assert op.schema["properties"]["state"] is STATE
    assert op.schema["properties"]["character"] is CHAR
    assert op.schema["properties"]["seed"] is registry.SEED_SCHEMA
    assert op.schema["properties"]["op"] == {"const": "theorem.x.roll"}


def test_system_op_without_fields_takes_the_op_alone(table):
    declare = SystemOps("pointzero")
    declare("rules", summary="tables")(_handler)
    schema = declare.ops["pointzero.rules"].schema
    assert schema["properties"] == {"op": {"const": "pointzero.rules"}} and schema["required"] == ["op"]


def test_system_op_shared_request_gives_the_roll_the_odds_fields_and_a_seed(table):
    declare = SystemOps("unicreon", state=STATE)
    shared = {"state": True, "takes": {"cid": text(9)}, "may": {"aim": {"type": "boolean"}}}
    declare("escape.odds", **shared, summary="odds")(_handler)
    declare("escape", **shared, seed=True, summary="roll")(_handler)
    odds, roll = declare.ops["unicreon.escape.odds"].schema, declare.ops["unicreon.escape"].schema
    assert {k: v for k, v in roll["properties"].items() if k not in ("op", "seed")} == {
        k: v for k, v in odds["properties"].items() if k != "op"}
    assert roll["required"][1:] == [*odds["required"][1:], "seed"]


def test_system_op_general_form_is_op_as_written(table):
    declare = SystemOps("versality", state=STATE)
    declare("t", properties={"state": STATE, "c": text(2)}, required=("c",), summary="s")(_handler)
    schema = declare.ops["versality.t"].schema
    assert list(schema["properties"]) == ["op", "state", "c"] and schema["required"] == ["op", "c"]


@pytest.mark.parametrize(
    ("declarer", "kwargs", "message"),
    [
        (dict(state=STATE), dict(state=True, properties={"c": {}}), "alone"),
        (dict(state=STATE), dict(required=("c",), takes={"c": {}}), "alone"),
        (dict(state=STATE), dict(state=True, takes={"state": {}}), "twice"),
        (dict(), dict(takes={"a": {}}, may={"a": {}}), "twice"),
        (dict(), dict(seed=True, may={"seed": {}}), "twice"),
        (dict(), dict(state=True), "no state schema"),
        (dict(state=STATE), dict(character=True), "no character schema"),
    ],
)
def test_system_op_refuses_a_declaration_it_cannot_lay_out(table, declarer, kwargs, message):
    with pytest.raises(ValueError, match=message):
        SystemOps("systmj", **declarer)("bad", summary="s", **kwargs)
    assert table == {}


def test_system_op_refuses_an_unknown_system():
    with pytest.raises(ValueError, match="unknown system"):
        SystemOps("dnd5e")


def test_every_odds_op_declared_with_its_roll_takes_the_same_fields():
    """The convention (docs/ARCHITECTURE.md): an odds op takes the inputs of its roll, which adds
    only its seed. Checked on every pair whose two requests are one shared declaration."""
    pairs = [
        ("systmj.test.odds", "systmj.test"),
        ("systmj.learning.odds", "systmj.learning.roll"),
        ("systmj.card.learn.odds", "systmj.card.learn"),
        ("systmj.combat.odds", "systmj.combat.exchange"),
        ("pointzero.opposition.odds", "pointzero.opposition.roll"),
        ("unicreon.opposition.odds", "unicreon.opposition"),
        ("unicreon.health.diagnose.odds", "unicreon.health.diagnose"),
        ("unicreon.health.day.odds", "unicreon.health.day"),
        ("unicreon.combat.attack.odds", "unicreon.combat.attack"),
        ("unicreon.combat.escape.odds", "unicreon.combat.escape"),
        ("unicreon.test.odds", "unicreon.test"),
    ]
    ops = {o["op"]: o["schema"] for o in api.describe_live()["ops"]}
    for odds, roll in pairs:
        o, r = ops[odds], ops[roll]
        assert {k: v for k, v in r["properties"].items() if k not in ("op", "seed")} == {
            k: v for k, v in o["properties"].items() if k != "op"}, (odds, roll)
        assert r["properties"]["seed"] == registry.SEED_SCHEMA
        assert sorted(r["required"]) == sorted([*o["required"], "seed"]), (odds, roll)
