"""Generated and mutated table documents, for the loader fuzz (tests/test_store_safety.py) and
the browser's render fuzz (e2e/test_data_safety.py). Seeded: the same seed gives the same
documents, so a failure names its seed and replays.

A document starts valid (a few Unicreon and Versality characters from the systems' own
``new_character``, roll log entries, the systems' table states) and then takes 0 to 6
mutations anywhere in its tree: a key removed, a value replaced by a hostile one (other
types, ids like ``__proto__`` / ``constructor`` / ``toString``, numbers as names, long text,
deep nesting, NaN), a list item duplicated, an unknown key added, a string stretched.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

from tablee.store import new_document
from tablee.systems.unicreon.character import new_character as unicreon_character
from tablee.systems.versality.character import new_character as versality_character
from tablee.systems.versality.state import new_state as versality_state

HOSTILE_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "0", "1e3", "", "<b>x</b>"]


def _hostile_value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(14)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 7, 41, 81, 2**53, -(2**63), 10**30])
    if pick == 3:
        return rng.choice([0.5, -0.0, 1e308, float("nan"), float("inf")])
    if pick == 4:
        return rng.choice(HOSTILE_KEYS)
    if pick == 5:
        return "x" * rng.choice([0, 1, 60, 61, 80, 81, 100, 201, 4001])
    if pick == 6:
        return "<img src=x onerror=alert(1)>"
    if pick == 7 and depth < 3:
        return [_hostile_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 8 and depth < 3:
        return {rng.choice(HOSTILE_KEYS): _hostile_value(rng, depth + 1) for _ in range(rng.randrange(4))}
    if pick == 9:
        nested: Any = 1
        for _ in range(rng.choice([5, 31, 40])):
            nested = [nested]
        return nested
    if pick == 10:
        return rng.randrange(1000)  # a number where a name is expected
    if pick == 11:
        return "é" * rng.choice([79, 80, 81])
    if pick == 12:
        return {"id": rng.choice(HOSTILE_KEYS), "system": "versality", "name": "x"}
    return ""


def base_document(rng: random.Random) -> dict[str, Any]:
    doc = new_document("Table fuzz", rng.choice(["fr", "en"]))
    ids = rng.sample(HOSTILE_KEYS[:6] + [f"c{i}" for i in range(6)], rng.randrange(0, 6))
    for i, cid in enumerate(ids):
        if i % 2:
            doc["characters"].append(unicreon_character(cid=cid or "x", name=f"U{i}"))
        else:
            doc["characters"].append(versality_character(cid or "x", f"V{i}"))
    for i in range(rng.randrange(0, 4)):
        doc["log"].append({
            "id": f"log-{i}", "at": "2026-01-01T10:00:00.000Z", "kind": "roll", "system": None,
            "label": "2d6", "request": {"op": "roll", "expr": "2d6", "seed": i}, "result": {"total": 7},
        })
    if rng.random() < 0.5:
        doc["systems"]["versality"] = versality_state()
    if rng.random() < 0.5:
        doc["systems"]["unicreon"] = {"combat": None, "custom_items": []}
    return doc


def _containers(value: Any, out: list[Any]) -> list[Any]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (dict, list)):
            out.append(item)
            stack.extend(item.values() if isinstance(item, dict) else item)
    return out


def mutate(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    for _ in range(rng.randrange(0, 7)):
        target = rng.choice(_containers(doc, []))
        if isinstance(target, dict):
            keys = list(target)
            action = rng.randrange(4)
            if action == 0 and keys:
                del target[rng.choice(keys)]
            elif action == 1 and keys:
                target[rng.choice(keys)] = _hostile_value(rng)
            elif action == 2:
                target[rng.choice([*HOSTILE_KEYS, "extra"])] = _hostile_value(rng)
            elif keys:
                key = rng.choice(keys)
                if isinstance(target[key], str):
                    target[key] = target[key] * rng.choice([0, 2, 50])
        elif target:
            action = rng.randrange(3)
            i = rng.randrange(len(target))
            if action == 0:
                target.append(copy.deepcopy(target[i]))
            elif action == 1:
                target[i] = _hostile_value(rng)
            else:
                del target[i]
    return doc


def documents(seed: int, count: int) -> Iterator[Any]:
    """``count`` documents: mostly mutated tables, some plain hostile JSON values."""
    rng = random.Random(seed)
    for _ in range(count):
        if rng.random() < 0.05:
            yield _hostile_value(rng)
        else:
            yield mutate(base_document(rng), rng)
