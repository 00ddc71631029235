"""`tablee.tree.clone`: the engine's deep copy of JSON data (it replaced ``copy.deepcopy``)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from tablee.tree import clone

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=30,
)


def containers(value, found):
    if isinstance(value, dict | list):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            containers(item, found)
    return found


@given(JSON)
def test_a_clone_equals_its_source_and_shares_no_container_with_it(value):
    copied = clone(value)
    assert copied == value
    mine = {id(c) for c in containers(value, [])}
    assert not any(id(c) in mine for c in containers(copied, []))


def test_a_change_to_the_clone_leaves_the_source_alone():
    source = {"deck": {"piles": {"draw": {"cards": ["a", "b"]}}}, "log": [{"n": 1}]}
    copied = clone(source)
    copied["deck"]["piles"]["draw"]["cards"].pop()
    copied["log"][0]["n"] = 2
    assert source == {"deck": {"piles": {"draw": {"cards": ["a", "b"]}}}, "log": [{"n": 1}]}


def test_what_is_not_json_is_still_copied_deep():
    inner = [1, 2]
    source = {"pair": (inner, 3), "odds": Fraction(1, 3)}
    copied = clone(source)
    assert copied == source
    assert copied["pair"][0] is not inner
