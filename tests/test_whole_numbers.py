"""Whole numbers sent as floats (``3.0``) are integers for every op of every system.

JSON has one number type and ``3.0`` is a valid JSON Schema integer, so the page (or an
imported file) may send it; :func:`tablee.api.whole_numbers` normalises every request
once, before validation. The property: a request with its integers written as floats gets
exactly the answer of the request itself, and never ``request.internal``. That property is
checked for every op of every system on the requests tests/test_api_core.py generates from
each op's schema (one generation for both properties: it is the slow part); here, the cases
that once failed and the normaliser itself.
"""

from __future__ import annotations

import pytest

from tablee import api
from whole_numbers import floats_for_ints

api.load_all()


PZ_SIDE = {"kind": "skill", "skill": 3, "attribute": 2, "attribute_code": "ADR", "skill_name": "Discrétion"}


@pytest.mark.parametrize(
    "request_",
    [
        {"op": "pointzero.test.odds", "test": {**PZ_SIDE, "difficulty": 10, "sacrifice": 1}},
        {"op": "pointzero.test.roll", "test": {**PZ_SIDE, "difficulty": 10}, "seed": 7},
        {"op": "pointzero.test.resolve", "test": {**PZ_SIDE, "difficulty": 10}, "dice": [6, 2, 5]},
        {"op": "pointzero.opposition.odds", "a": PZ_SIDE, "b": {**PZ_SIDE, "skill": 2}},
        {"op": "pointzero.opposition.roll", "a": PZ_SIDE, "b": {**PZ_SIDE, "skill": 2}, "seed": 3},
        {"op": "roll", "expr": "2d6", "seed": 5},
    ],
)
def test_point_zero_takes_whole_floats(request_):
    """Was ``request.internal`` (``TypeError: slice indices…``) for ``"skill": 3.0``."""
    floaty = floats_for_ints(request_, lambda: True)
    got = api.handle(floaty)
    assert "error" not in got, got
    assert got == api.handle(request_)


def test_fractional_float_is_refused_as_invalid_not_internal():
    r = api.handle({"op": "pointzero.test.odds", "test": {**PZ_SIDE, "skill": 2.5, "difficulty": 10}})
    assert r["error"]["code"] == "request.invalid"


def test_normalising_leaves_the_request_untouched():
    request = {"op": "x", "a": [1.0, {"b": 2.5, "c": 3.0}], "d": True}
    out = api.whole_numbers(request)
    assert out == {"op": "x", "a": [1, {"b": 2.5, "c": 3}], "d": True}
    assert type(out["a"][0]) is int and type(out["a"][1]["c"]) is int and out["d"] is True
    assert request["a"][0] == 1.0 and type(request["a"][0]) is float
    plain = {"op": "x", "a": [1, 2]}
    assert api.whole_numbers(plain) is plain
