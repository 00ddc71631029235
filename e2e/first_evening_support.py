"""Characters the first evening's browser walks share (e2e/test_first_evening_walk.py and
e2e/test_first_evening_undo_names.py): made with the engine's own ops, as a new table holds them."""

from __future__ import annotations

from browser_support import ok


def theorem_joshua() -> dict:
    c = ok({"op": "theorem.character.new", "id": "th-josh", "name": "Joshua"})["character"]
    c["spheres"]["animalite"] = 4
    c["skills"] = [{"name": "Discrétion", "level": 3}]
    return c


def sj_entity(cid: str, name: str) -> dict:
    c = ok({"op": "systmj.entity.new", "id": cid, "name": name})["character"]
    c["pv_max"] = 20
    return c
