"""The states every stateful op is fuzzed from (STATES) and the probes that break them one field
at a time (PROBES, mutate): shared by the op state fuzz and the schema refusals' wording."""

from __future__ import annotations

import copy
import random
from typing import Any

from tablee import registry
from tablee.api import handle

#: Values a mutation puts in place of another (whole floats are left out: another change
#: reads 3.0 as 3 in the API layer).
ODD = [None, True, "x", "", 0.5, -1, 10**30, [], {}, [1], {"owner": 1}, "__proto__"]


def ok(request: dict[str, Any]) -> dict[str, Any]:
    response = handle(request)
    assert "error" not in response, response
    return response


def theorem_character(cid: str) -> dict[str, Any]:
    return {
        "id": cid, "system": "theorem", "name": cid.title(),
        "spheres": {"animalite": 4, "humanite": 3, "divinite": 2},
        "skills": [{"name": "Escalade", "level": 2}], "realite": 20, "des_ka": 3, "ka_card": None, "notes": "",
    }


def _states() -> dict[str, list[dict[str, Any]]]:
    """Real states by kind (the system they belong to, ``combat`` for Unicreon's tracker,
    ``cards`` for a bare card state): fresh ones and ones played a little."""
    th = ok({"op": "theorem.state.new", "seed": 1})["state"]
    th2 = ok({"op": "theorem.hand.draw", "state": th, "character": theorem_character("josh"), "seed": 2})["state"]
    th2 = ok({"op": "theorem.mk.hand", "state": th2, "size": 4, "seed": 3})["state"]
    combat = ok({"op": "unicreon.combat.new"})["state"]
    uni = ok({"op": "unicreon.character.new", "id": "uc-fuzz"})["character"]
    combat2 = ok({"op": "unicreon.combat.add_npc", "state": combat, "tier": "moyen", "count": 2})["state"]
    combat2 = ok({"op": "unicreon.combat.add_character", "state": combat2, "character": uni})["state"]
    deck = ok({"op": "cards.deck.new", "seed": 1,
                "definitions": [{"id": f"c{i}", "kind": "number", "value": i} for i in range(6)]})["state"]
    deck2 = ok({"op": "cards.draw", "state": deck, "count": 2, "to": "discard", "seed": 2})["state"]
    return {
        "theorem": [th, th2],
        "systmj": [ok({"op": "systmj.state.new"})["state"]],
        "versality": [ok({"op": "versality.state.new"})["state"]],
        "pointzero": [ok({"op": "pointzero.state.new"})["state"]],
        "combat": [combat, combat2],
        "cards": [deck, deck2],
    }


STATES = _states()


def state_kind(name: str) -> str | None:
    """Which states the op's ``state`` property takes (None: not a state this fuzz knows)."""
    op = registry.OPS[name]
    schema = op.schema["properties"].get("state")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return None
    if name.startswith("cards."):
        return "cards"
    if name.startswith("unicreon.combat."):
        return "combat"
    return op.system if op.system in STATES else None


def _walk(value: Any, rng: random.Random) -> tuple[Any, Any] | None:
    """A (container, key) reached by a random walk from the root, each level's children equally
    likely, stopping at a leaf or, at each step, with probability 1/5: every depth gets its
    share, however wide the deck beside it."""
    spot = None
    item = value
    while isinstance(item, (dict, list)) and len(item):
        key = rng.choice(list(item)) if isinstance(item, dict) else rng.randrange(len(item))
        spot = (item, key)
        item = item[key]
        if rng.random() < 0.2:
            break
    return spot


def mutate(state: dict[str, Any], seed: int) -> dict[str, Any]:
    """``state`` with 1 to 3 seeded mutations (key dropped, value replaced, key renamed)."""
    rng = random.Random(seed)
    out = copy.deepcopy(state)
    for _ in range(rng.randint(1, 3)):
        spot = _walk(out, rng)
        if spot is None:
            break
        container, key = spot
        pick = rng.randrange(3)
        if pick == 0 and isinstance(container, dict):
            del container[key]
        elif pick == 1 and isinstance(container, dict):
            container[rng.choice(["x", "owner", "__proto__", key + "_"])] = container.pop(key)
        else:
            # A copy: the same odd value put in twice, or a later mutation inside it, would
            # otherwise make the state a graph with a cycle (no JSON request ever is one) and
            # change ODD for every later test.
            container[key] = copy.deepcopy(rng.choice(ODD))
    return out


def _spots(value: Any) -> list[tuple[Any, ...]]:
    """A path to each distinct place of the tree: every key of every object, the first item of
    every list, and of a map with many keys (a deck's card definitions) its first two keys."""
    out: list[tuple[Any, ...]] = []
    todo: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while todo:
        item, path = todo.pop()
        if isinstance(item, dict):
            keys = list(item)[:2] if len(item) > 12 else list(item)
        elif isinstance(item, list):
            keys = [0] if item else []
        else:
            continue
        for key in keys:
            out.append((*path, key))
            todo.append((item[key], (*path, key)))
    return out


def structural_probes(state: dict[str, Any]) -> list[dict[str, Any]]:
    """``state`` once with each place dropped (an object's key) or replaced by None, "x" or []."""
    out = []
    for path in _spots(state):
        for how in ("drop", None, "x", []):
            new = copy.deepcopy(state)
            container = new
            for key in path[:-1]:
                container = container[key]
            if how == "drop":
                if not isinstance(container, dict):
                    continue
                del container[path[-1]]
            else:
                container[path[-1]] = copy.deepcopy(how)
            out.append(new)
    return out


#: One op per state kind that reads the whole state: the state check in front of every op is
#: shared, so each place of each state is probed through it once.
PROBES = {
    "theorem": {"op": "theorem.view.player"},
    "systmj": {"op": "systmj.phase.next_round"},
    "versality": {"op": "versality.view.player"},
    "pointzero": {"op": "pointzero.mj.view"},
    "combat": {"op": "unicreon.combat.next"},
    "cards": {"op": "cards.view"},
}
