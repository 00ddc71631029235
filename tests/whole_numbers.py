"""Whole numbers as JSON may carry them (floats_for_ints: 3.0 for 3), for the tests that check every
op takes them alike."""

from __future__ import annotations


def floats_for_ints(value, pick):
    """``value`` with the integers ``pick(i)`` chooses written as floats (bools stay bools)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and abs(value) <= 2**53 and pick():
        return float(value)
    if isinstance(value, dict):
        return {k: v if k == "op" else floats_for_ints(v, pick) for k, v in value.items()}
    if isinstance(value, list):
        return [floats_for_ints(v, pick) for v in value]
    return value
