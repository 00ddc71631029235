"""Unicreon characters and duels as the journeys seed them (character, with_items, duel_state, seed_document), and the page opened at a route (go)."""

from __future__ import annotations

from browser_support import new_table


def go(page, route: str) -> None:
    page.goto(page.url.split("#")[0] + route)


def character(cid: str, name: str) -> dict:
    """A finished character (created): Puissance 20 (Fort), a couteau long in hand, 0 PO left."""
    return {
        "id": cid, "system": "unicreon", "name": name, "created": True, "story": "Ancienne gardienne de phare.",
        "origins": "Les côtes du nord", "job": "Escrimeuse", "description": "Grande, cheveux gris",
        "don": "Voit dans le noir", "defaut": "A peur des chats", "secret": "",
        "characteristics": {"puissance": 20, "agilite": 40, "perception": 40, "volonte": 50},
        "skills": [], "pv": 12, "pv_max": 12, "po": 0, "conditions": [], "down": None,
        "ignore_encumbrance": False, "important_npc": False,
        "inventory": [{
            "uid": "i1", "ref": "couteau_long", "name": "", "cost": 50, "pe": 0, "category": "weapon",
            "capacity": 0, "uses": None, "heal": 0, "cures": False, "bonus_steps": 0, "npc_tier": None,
            "carried": "hand", "protection": None,
            "weapon": {"characteristic": "agilite", "damage": {"kind": "fixed", "value": 2}, "ranged": False,
                       "thrown": False, "melee_ok": True, "range": None, "malus_steps": 0},
        }],
    }


def seed_document(app_with, characters: list[dict], combat: dict | None = None):
    """The app opened on a new table holding these characters (and this fight): one engine boot."""
    return app_with(new_table(characters, {"unicreon": {"combat": combat, "custom_items": []}} if combat is not None else None))


def with_items(c: dict, *refs: str) -> dict:
    from tablee.systems.unicreon.data import CATALOGUE

    for n, ref in enumerate(refs):
        c["inventory"].append({"uid": f"x{n}", "ref": ref, "name": "", **CATALOGUE[ref]})
    return c


def duel_state(bea: dict) -> tuple[dict, str, str]:
    """Béa against a PNJ moyen (every characteristic 40), Béa's turn (forced dice), engaged."""
    from tablee.systems.unicreon import combat as cb
    from tablee.systems.unicreon import combat_state as cs

    state = cb.add_npcs(cb.add_character(cs.new_state(), bea), tier="moyen")
    pc, foe = (c["cid"] for c in state["combatants"])
    state = cb.engage(cb.initiative_from_dice(state, {pc: [6, 6]}, [1, 1]), pc, foe)
    return state, pc, foe
