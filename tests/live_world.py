"""The live-table Node tests' shared set-up: one Node process running
tests/live/session_harness.mjs per test module, and a "world" per test (an MJ's table and two
phones, p1 playing "a" and p2 playing "b", joined over held in-memory links and settled).

Test modules import these helpers from here, never from ``conftest``."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager

from node_harness import NodeHarness

_COUNTER = itertools.count()


@contextmanager
def harness(path) -> Iterator[NodeHarness]:
    """One Node process for a module's tests, closed after them."""
    node = NodeHarness(path)
    try:
        yield node
    finally:
        node.close()


@contextmanager
def two_phone_world(node, prefix: str, mj: dict, phone) -> Iterator[str]:
    """A world named ``<prefix><n>``: the MJ's table ``mj``, and two phones (``phone(name)`` gives
    each its table) that join and claim their character; dropped afterwards."""
    name = f"{prefix}{next(_COUNTER)}"
    node("world", world=name, mj=mj)
    for player, claim in (("p1", ["a"]), ("p2", ["b"])):
        node("player", world=name, name=player, doc=phone(player))
        node("connect", world=name, name=player)
        node("claim", world=name, name=player, characters=claim)
    node("settle", world=name)
    try:
        yield name
    finally:
        node("drop", world=name)
