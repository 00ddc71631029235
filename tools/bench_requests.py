"""The requests `make bench` times in the worker: the heaviest exact-odds request of
each system, one cheap first op per system, and the kernel's roll and first odds.

``REQUESTS`` is a list of plain dicts, each::

    {"id": str,             # stable name for the report ("theorem.heavy", "unicreon.first"...)
     "system": str | None,  # the system whose package the request imports (None: the kernel)
     "kind": "heavy" | "first" | "kernel",
     "what": str,           # one line for the report
     "request": dict}       # a complete, valid request for tablee.api.handle (JSON-ready)

"heavy" is the heaviest odds request of its system (goal: <= 50 ms p95 in the worker);
"first" a cheap op, timed as "first answer of one op of each system" right after ready (it
imports that system's package); "kernel" the dice ops (``odds`` is the first icepool import).

The large inputs (a shuffled Théorem deck, a Unicreon fight, a 20-card Versality deck) are
built once at import by the rules engine itself from fixed seeds and literal choices, so they
stay valid as the rules evolve; the requests themselves are plain JSON.
tests/test_bench_requests.py checks every request answers without error in CPython.

Repeating one request hits the engine's memos: Théorem's chain odds are memoized per deck
composition (in play the deck changes after each draw, so most odds requests are uncached:
about 20 ms CPU in CPython for this one, against about 4 ms repeated), Versality's draw
sequences likewise. Read a repeated p50/p95 with that in mind.

``python tools/bench_requests.py`` times them in CPython (CPU time of the first call in a
fresh interpreter, imports and schema compilation included, then p50/p95 repeated).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

__all__ = ["REQUESTS"]


def _ok(request: dict[str, Any]) -> dict[str, Any]:
    from tablee.api import handle

    answer = handle(request)
    if "error" in answer:
        raise RuntimeError(f"bench set-up request {request['op']} failed: {answer['error']}")
    return answer


# ---------------------------------------------------------------- Théorem


def _theorem_character() -> dict[str, Any]:
    return {
        "id": "josh",
        "system": "theorem",
        "name": "Josh",
        "spheres": {"animalite": 4, "humanite": 3, "divinite": 2},
        "skills": [{"name": "Escalade", "level": 2}, {"name": "Discrétion", "level": 3}],
        "realite": 20,
        "des_ka": 3,
        "ka_card": None,
        "notes": "",
    }


def _theorem_heavy() -> dict[str, Any]:
    """A draw from the full 56-card deck (16 figures: every figure chain), an exploit on top."""
    state = _ok({"op": "theorem.state.new", "seed": 7})["state"]
    return {
        "op": "theorem.action.odds",
        "state": state,
        "character": _theorem_character(),
        "sphere": "animalite",
        "skill": "Escalade",
        "modifier": -2,
        "exploit": 1,
    }


# ---------------------------------------------------------------- Unicreon


def _unicreon_heavy() -> dict[str, Any]:
    """A passe d'armes: an archer (bow, throwing knives, leather armour) shoots a wolf of a pack at
    40 m (past the bow's ideal range: one step harder), the wolf defends, damage and absorption."""
    character = _ok({"op": "unicreon.character.new", "id": "robin"})["character"]
    character.update(id="robin", name="Robin", po=500)
    for ref in ("arc", "couteau_lancer", "armure_cuir"):
        character = _ok({"op": "unicreon.shop.buy", "character": character, "ref": ref})["character"]
    state = _ok({"op": "unicreon.combat.new"})["state"]
    added = _ok({"op": "unicreon.combat.add_character", "state": state, "character": character})
    state, robin = added["state"], added["cid"]
    pack = _ok({"op": "unicreon.combat.add_npc", "state": state, "beast": "canides", "count": 3})
    state, wolf = pack["state"], pack["cids"][0]
    bow = next(item["uid"] for item in character["inventory"] if item["ref"] == "arc")
    return {"op": "unicreon.combat.attack.odds", "state": state, "attacker": robin, "defender": wolf,
            "weapon": bow, "distance": 40}


# ---------------------------------------------------------------- Versality

#: Success cards bought with improvement points after creation, in this order, until the deck
#: holds 20 cards; a failure card is added as compensation whenever the ledger asks for one.
_VERSALITY_BUYS = [
    "oui-mais", "oui-mais", "oui-et", "oui", "oui-mais", "oui", "oui-mais", "oui", "oui-mais", "oui", "oui",
]


def _versality_character() -> dict[str, Any]:
    from tablee.api import handle

    c = _ok({"op": "versality.character.new", "id": "ana"})["character"]
    c.update(
        name="Ana",
        powers=[{"text": "Télékinésie", "approved": True}],
        forces=["agile", "rusée"],
        faiblesses=["colérique"],
        traits_approved=True,
        characteristics={"physique": 1, "mental": 2, "personnalite": 0},
        skills={**c["skills"], "traquer": 3, "combattre": 2},
    )
    c["deck"] += [{"kind": "oui-et", "origin": "creation"}, {"kind": "oui", "origin": "creation"}]
    c["deck"] += [{"kind": "non-mais", "origin": "creation"}] * 2
    c = _ok({"op": "versality.character.finish", "character": c})["character"]
    c["improvement_points"] = 200
    for kind in _VERSALITY_BUYS:
        if len(c["deck"]) >= 20:
            break
        request = {"op": "versality.improve", "character": c, "purchase": {"type": "card", "kind": kind}}
        answer = handle(request)
        if answer.get("error", {}).get("code") == "versality.improve.leaves_due":
            request["purchase"]["compensation"] = [answer["error"]["params"]["kind"]]
            answer = handle(request)
        c = _ok(request)["character"] if "error" in answer else answer["character"]
    if len(c["deck"]) != 20:
        raise RuntimeError(f"the bench's Versality deck has {len(c['deck'])} cards, not 20")
    return c


def _versality_heavy() -> dict[str, Any]:
    """Personnalité 0, no skill, épique (5): score −5, draw 7 from the 20-card deck, the worst applies."""
    return {
        "op": "versality.test.odds",
        "character": _versality_character(),
        "characteristic": "personnalite",
        "skill": "survivre",
        "difficulty": "epique",
        "force": True,
        "faiblesse": True,
    }


# ---------------------------------------------------------------- SYSTMJ

_ATTACKER = {"force": 40, "resistance": 30, "agilite": 50, "rapidite": 60, "intelligence": 50,
             "personnalite": 50, "chance": 20}
_DEFENDER = {"force": 33, "resistance": 47, "agilite": 21, "rapidite": 58, "intelligence": 50,
             "personnalite": 50, "chance": 9}


def _systmj_card(number: str, **fields: Any) -> dict[str, Any]:
    card = {"types": ["arme"], "categories": [], "quality": "moyenne", "size": "", "weight": "", "slot": "",
            "load": "", "att": 0, "def": 0, "er_skills": "", "pu": 70, "damage": [0, 0, 0], "pa_bonus": 0,
            "range": "", "ammunition": "", "charge_duration": "", "effect_duration": "", "worn": False,
            "family": "equipement", "name": "X", "holder": "", "description": "", "number": number}
    card.update(fields)
    return card


def _systmj_heavy() -> dict[str, Any]:
    """A force attack with a sword (damage 2/4/6) against a parry with a sword, PV and PA lost."""
    sword = _systmj_card("EQ-00001", name="Épée", categories=["corps_a_corps"], att=10, damage=[2, 4, 6],
                         **{"def": 8})
    return {
        "op": "systmj.combat.odds",
        "kind": "force",
        "attacker": {"attributes": _ATTACKER, "dissimulation": 50},
        "defender": {"attributes": _DEFENDER, "detection": 40, "pv": 20, "pa": 3, "aware": True},
        "weapon": sword,
        "defence": "parade",
        "defence_card": copy.deepcopy(sword),
    }


# ---------------------------------------------------------------- the list


def _build() -> list[dict[str, Any]]:
    pz_side = {"kind": "skill", "skill": 8, "attribute": 4, "tension": True}
    return [
        {"id": "theorem.heavy", "system": "theorem", "kind": "heavy",
         "what": "Théorem: a draw from the full deck with figure chains",
         "request": _theorem_heavy()},
        {"id": "pointzero.heavy.test", "system": "pointzero", "kind": "heavy",
         "what": "Point Zéro: a 10-dice test, every Surpassement option compared",
         "request": {"op": "pointzero.test.odds",
                     "test": {**pz_side, "difficulty": 20, "modifiers": []}}},
        {"id": "pointzero.heavy.opposition", "system": "pointzero", "kind": "heavy",
         "what": "Point Zéro: an opposition of two 10-dice pools with tie-breaks",
         "request": {"op": "pointzero.opposition.odds", "a": dict(pz_side), "b": dict(pz_side)}},
        {"id": "unicreon.heavy", "system": "unicreon", "kind": "heavy",
         "what": "Unicreon: a passe d'armes (attack, defence, damage, absorption)",
         "request": _unicreon_heavy()},
        {"id": "versality.heavy", "system": "versality", "kind": "heavy",
         "what": "Versality: a draw of 7 from a 20-card deck, the worst card applies",
         "request": _versality_heavy()},
        {"id": "systmj.heavy", "system": "systmj", "kind": "heavy",
         "what": "SYSTMJ: an attack with a parry and damage",
         "request": _systmj_heavy()},
        {"id": "systmj.first", "system": "systmj", "kind": "first", "what": "SYSTMJ: a d100 test",
         "request": {"op": "systmj.test", "score": 55, "seed": 1}},
        {"id": "versality.first", "system": "versality", "kind": "first", "what": "Versality: a new character",
         "request": {"op": "versality.character.new", "id": "ana"}},
        {"id": "pointzero.first", "system": "pointzero", "kind": "first", "what": "Point Zéro: a test rolled",
         "request": {"op": "pointzero.test.roll",
                     "test": {"kind": "skill", "skill": 2, "attribute": 2, "difficulty": 10}, "seed": 1}},
        {"id": "theorem.first", "system": "theorem", "kind": "first", "what": "Théorem: a new table (deck shuffled)",
         "request": {"op": "theorem.state.new", "seed": 1}},
        {"id": "unicreon.first", "system": "unicreon", "kind": "first", "what": "Unicreon: a test rolled",
         "request": {"op": "unicreon.test", "test": {"value": 50, "difficulty": "moyen"}, "seed": 1}},
        {"id": "kernel.roll", "system": None, "kind": "kernel", "what": "a dice roll (3d6)",
         "request": {"op": "roll", "expr": "3d6", "seed": 1}},
        {"id": "kernel.odds", "system": None, "kind": "kernel", "what": "exact odds of 4d6kh3 (icepool)",
         "request": {"op": "odds", "expr": "4d6kh3", "at_least": 12}},
    ]


REQUESTS: list[dict[str, Any]] = _build()


def _time_in_cpython(repeats: int = 30) -> None:
    """Each request in a fresh interpreter: the first call (imports included), then warm p50/p95."""
    import json
    import subprocess

    code = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
request = json.loads(sys.stdin.read())
from tablee.api import handle_json
text = json.dumps(request)
t = time.process_time(); answer = handle_json(text); first = time.process_time() - t
assert '"error"' not in answer[:12], answer[:300]
times = []
for _ in range(int(sys.argv[2])):
    t = time.process_time(); handle_json(text); times.append(time.process_time() - t)
times.sort()
print(json.dumps([first * 1000, times[len(times) // 2] * 1000, times[int(len(times) * 0.95)] * 1000]))
"""
    print(f"{'request':30} {'first ms':>9} {'p50 ms':>8} {'p95 ms':>8}")
    for item in REQUESTS:
        done = subprocess.run([sys.executable, "-c", code, str(ROOT / "py"), str(repeats)],
                              input=json.dumps(item["request"]), capture_output=True, text=True, check=True)
        first, p50, p95 = json.loads(done.stdout)
        print(f"{item['id']:30} {first:9.1f} {p50:8.2f} {p95:8.2f}")


if __name__ == "__main__":
    _time_in_cpython()
