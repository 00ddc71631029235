"""Characters and sheets the first evening's browser journeys share (the walks, the headlines, the
odds bars, the faces): made with the engine's own ops, as a new table holds them."""

from __future__ import annotations

from browser_support import ok
from tablee.api import handle


def theorem_joshua() -> dict:
    c = ok({"op": "theorem.character.new", "id": "th-josh", "name": "Joshua"})["character"]
    c["spheres"]["animalite"] = 4
    c["skills"] = [{"name": "Discrétion", "level": 3}]
    return c


def sj_entity(cid: str, name: str) -> dict:
    c = ok({"op": "systmj.entity.new", "id": cid, "name": name})["character"]
    c["pv_max"] = 20
    return c


def sheet(cid: str, name: str, skills: list[tuple[str, int]], atouts: list[str]) -> dict:
    return {
        "id": cid, "system": "pointzero", "name": name,
        "attributes": [{"code": "VIG", "name": "Vigueur", "level": 3}, {"code": "ADR", "name": "Adresse", "level": 2},
                       {"code": "PER", "name": "Perception", "level": 3}, {"code": "COG", "name": "Cognition", "level": 2}],
        "skills": [{"name": n, "level": lv} for n, lv in skills], "atouts": atouts, "notes": "",
    }


# ------------------------------------------------------------------ SYSTMJ
def systmj_character() -> dict:
    c = ok({"op": "systmj.character.new", "id": "sj-ada", "name": "Ada"})["character"]
    c["skills"]["detection"] = 47
    c["attributes"]["agilite"] = 35
    return c


# ------------------------------------------------------------------ Théorem
def theorem_table() -> tuple[dict, dict]:
    josh = ok({"op": "theorem.character.new", "id": "th-josh", "name": "Joshua"})["character"]
    josh["spheres"] = {"animalite": 4, "humanite": 2, "divinite": 3}
    josh["skills"] = [{"name": "Escalade", "level": 2}]
    josh["realite"] = 20
    return josh, ok({"op": "theorem.state.new", "seed": 7})["state"]


def pz_sheet() -> dict:
    c = handle({"op": "pointzero.character.new", "id": "pz-eve", "name": "Ève"})["character"]
    c["attributes"][0]["level"] = 3
    c["skills"] = [{"name": "Escalade", "level": 3}]
    return c
