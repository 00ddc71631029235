"""The shared JSON-Schema pieces (tablee.schema) give exactly the schemas the systems wrote out
before they shared them, and the declaration helpers register the same request schemas."""

from __future__ import annotations

from tablee import api
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
