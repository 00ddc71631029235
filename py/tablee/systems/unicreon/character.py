"""Unicreon characters: document shape, validation, creation rules, inventory and shop.

Source: 004_12a5de9999b9d0ad.txt, "Création de personnages" ("Création", "Caractéristiques",
"Points de vie", "Richesse", "Équipement", "Liste d'équipement") and "Armement".
Readings (rules/README.md, Unicreon, and here): the text's skill list is missing, so skills are
free names with a level; equipment at creation is chosen, not bought (the 40 PO are for play), or
bought with the 40 PO when the table sets ``creation_pay`` (the PO rule is then "PO left + cost
of what was bought = 40"); items the MJ gives for free are custom items with cost 0.
"""

from __future__ import annotations

from typing import Any

from tablee.errors import Problem, RulesError, declare
from tablee.schema import character_head, compiled, fixed_object, integer, record, shape_problems, text

from ...tree import clone
from .data import (
    CARRIED,
    CATALOGUE,
    CHARACTERISTIC_LABELS,
    CHARACTERISTIC_SUM,
    CHARACTERISTICS,
    NPC_TIERS,
    SKILL_LEVELS,
    START_PO,
    START_PV,
)

__all__ = [
    "CHARACTER_SCHEMA",
    "CUSTOM_ITEM_SCHEMA",
    "ITEM_SCHEMA",
    "TEXT_FIELDS",
    "add_item",
    "buy",
    "check_creation",
    "encumbrance",
    "ensure_character",
    "find_item",
    "finish_creation",
    "item_bonus",
    "item_kind",
    "new_character",
    "new_uid",
    "nullable",
    "pays",
    "play_problems",
    "validate_character",
]

declare(
    "unicreon.char.malformed",
    "unicreon.char.invalid",
    "unicreon.char.value",
    "unicreon.char.zero",
    "unicreon.char.sum",
    "unicreon.char.required",
    "unicreon.char.pv",
    "unicreon.char.po",
    "unicreon.char.po_start",
    "unicreon.char.encumbrance",
    "unicreon.char.pv_above_max",
    "unicreon.char.uid_duplicate",
    "unicreon.char.range",
    "unicreon.char.two_armours",
    "unicreon.char.two_shields",
    "unicreon.char.not_finished",
    "unicreon.char.already_created",
    "unicreon.shop.unknown",
    "unicreon.shop.po",
    "unicreon.shop.encumbrance",
    "unicreon.item.unknown",
)

#: The free-text fields of the sheet. Source: "Création" (nom, histoire, origines, métier,
#: description, don, défaut, terrible secret optionnel).
TEXT_FIELDS: tuple[str, ...] = ("story", "origins", "job", "description", "don", "defaut", "secret")
REQUIRED_TEXT: tuple[str, ...] = ("name", "story", "origins", "job", "description", "don", "defaut")

CHAR_ENUM = {"enum": list(CHARACTERISTICS)}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null. A type list, not anyOf: same meaning, much cheaper to fuzz."""
    return {**schema, "type": [schema["type"], "null"]}


AMOUNT_SCHEMA = record({"kind": {"enum": ["fixed", "max", "infinite"]}, "value": nullable(integer(0, 999))})
RANGE_SCHEMA = record({"ideal": integer(0, 100000), "max": integer(0, 100000)})
WEAPON_SCHEMA = record({
    "characteristic": CHAR_ENUM,
    "damage": AMOUNT_SCHEMA,
    "ranged": {"type": "boolean"},
    "thrown": {"type": "boolean"},
    "melee_ok": {"type": "boolean"},
    "range": nullable(RANGE_SCHEMA),
    "malus_steps": integer(0, 4),
})
PROTECTION_SCHEMA = record({"characteristic": CHAR_ENUM, "absorb": AMOUNT_SCHEMA})
CATEGORIES = ["bag", "gear", "care", "animal", "weapon", "armour", "shield"]
_ITEM_PROPS: dict[str, Any] = {
    "name": {"type": "string", "maxLength": 80},
    "category": {"enum": CATEGORIES},
    "cost": {"type": "integer", "minimum": 0, "maximum": 1000000},
    "pe": {"type": "integer", "minimum": 0, "maximum": 100000},
    "capacity": {"type": "integer", "minimum": 0, "maximum": 100000},
    "uses": {"type": ["integer", "null"], "minimum": 0, "maximum": 999},
    "heal": {"type": "integer", "minimum": 0, "maximum": 999},
    "cures": {"type": "boolean"},
    "bonus_steps": {"type": "integer", "minimum": 0, "maximum": 5},
    "npc_tier": {"enum": [None, *NPC_TIERS]},
    "carried": {"enum": list(CARRIED)},
    "weapon": nullable(WEAPON_SCHEMA),
    "protection": nullable(PROTECTION_SCHEMA),
}
#: An item a character owns: catalogue stats copied at purchase (``ref`` = catalogue id) or a
#: custom item defined by the MJ (``ref`` null). Source: "Liste d'équipement", "Armement";
#: reading: example items are custom items (rules/README.md, Unicreon).
#: ``afflicts`` (optional): the condition the item gives the target it is used on (a poison).
#: ``free`` (optional, true): the item was got without paying (chosen at creation, given by the
#: MJ): it sells for nothing unless the MJ sets a price (see :func:`sale_price`).
AFFLICTS_SCHEMA: dict[str, Any] = {"enum": [None, "poison", "disease", "infection"]}
ITEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "uid": {"type": "string", "minLength": 1, "maxLength": 40},
        "ref": {"enum": [None, *CATALOGUE]},
        **_ITEM_PROPS,
        "afflicts": AFFLICTS_SCHEMA,
        "free": {"const": True},
    },
    "required": ["uid", "ref", *_ITEM_PROPS],
    "additionalProperties": False,
}
#: What the MJ submits for a custom item (no uid, no ref).
CUSTOM_ITEM_SCHEMA: dict[str, Any] = record({**_ITEM_PROPS, "afflicts": AFFLICTS_SCHEMA}, required=("name", "category"))

SKILL_SCHEMA = record({"name": text(60, 1), "level": {"enum": list(SKILL_LEVELS)}})
CONDITION_SCHEMA = record(
    {"kind": {"enum": ["poison", "disease", "infection"]}, "name": text(80), "diagnosed": {"type": "boolean"}}
)
_CHAR_PROPS: dict[str, Any] = {
    **character_head("unicreon"),
    "created": {"type": "boolean"},
    **{f: text(4000) for f in TEXT_FIELDS},
    "characteristics": fixed_object(CHARACTERISTICS, integer(0, 99)),
    "skills": {"type": "array", "items": SKILL_SCHEMA, "maxItems": 40},
    "pv": {"type": "integer", "minimum": 0, "maximum": 999},
    "pv_max": {"type": "integer", "minimum": 1, "maximum": 999},
    "po": {"type": "integer", "minimum": 0, "maximum": 10000000},
    "inventory": {"type": "array", "items": ITEM_SCHEMA, "maxItems": 200},
    "conditions": {"type": "array", "items": CONDITION_SCHEMA, "maxItems": 20},
    "down": {"enum": [None, "down", "unconscious", "dead"]},
    "ignore_encumbrance": {"type": "boolean"},
    "important_npc": {"type": "boolean"},
}
#: The stored character (document["characters"][i] with system "unicreon").
#:
#: ``created`` is false while the sheet is being created and true once the creation was
#: finished (:func:`finish_creation`): from then on only the rules of play apply, not the
#: starting values of "Création du personnage" (12 PV, 40 PO, every text filled). Every key is
#: required, ``created`` included: no character data was released before it existed, so there
#: is no migration of older documents (they are simply rejected by the validator).
CHARACTER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": _CHAR_PROPS,
    "required": list(_CHAR_PROPS),
    "additionalProperties": False,
}

_validate_shape = compiled(CHARACTER_SCHEMA)


def new_character(*, cid: str = "unicreon-1", name: str = "") -> dict[str, Any]:
    """A blank sheet with the starting values: 12 PV, 40 PO, characteristics summing to 150,
    still in creation (``created`` false).

    Source: "Création du personnage" (12 PV, 40 PO, 150 points)."""
    return {
        "id": cid,
        "system": "unicreon",
        "name": name,
        "created": False,
        **{f: "" for f in TEXT_FIELDS},
        "characteristics": {"puissance": 40, "agilite": 40, "perception": 40, "volonte": 30},
        "skills": [],
        "pv": START_PV,
        "pv_max": START_PV,
        "po": START_PO,
        "inventory": [],
        "conditions": [],
        "down": None,
        "ignore_encumbrance": False,
        "important_npc": False,
    }


def _semantic_problems(character: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    if character["pv"] > character["pv_max"]:
        problems.append(
            Problem(
                "pv", "unicreon.char.pv_above_max", {"pv": character["pv"], "pv_max": character["pv_max"]}
            )
        )
    seen: set[str] = set()
    for i, item in enumerate(character["inventory"]):
        if item["uid"] in seen:
            problems.append(
                Problem(f"inventory.{i}.uid", "unicreon.char.uid_duplicate", {"uid": item["uid"]})
            )
        seen.add(item["uid"])
        weapon = item["weapon"]
        if weapon and weapon["range"] and weapon["range"]["ideal"] > weapon["range"]["max"]:
            problems.append(Problem(f"inventory.{i}.weapon.range", "unicreon.char.range", {}))
    return problems


def validate_character(character: Any) -> list[Problem]:
    """Store validator: shape (types, keys, ranges) and invariants. Never raises."""
    return shape_problems(_validate_shape, character, "unicreon.char.malformed") or _semantic_problems(character)


def ensure_character(character: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a schema-valid character, refused when its invariants are broken."""
    problems = _semantic_problems(character)
    if problems:
        raise RulesError("unicreon.char.invalid", problems=[p.to_json() for p in problems])
    return clone(character)


def encumbrance(character: dict[str, Any]) -> dict[str, Any]:
    """Load (PE of items in bags) against the capacity of the bags carried.

    Source: "Équipement": objects carried must fit the bags' capacity; objects in hand or worn do
    not count; the MJ may ignore encumbrance (``ignore_encumbrance``)."""
    load = sum(i["pe"] for i in character["inventory"] if i["carried"] == "bag")
    capacity = sum(i["capacity"] for i in character["inventory"] if i["category"] == "bag")
    over = load > capacity and not character["ignore_encumbrance"]
    return {"load": load, "capacity": capacity, "over": over, "ignored": character["ignore_encumbrance"]}


def check_creation(character: dict[str, Any], *, creation_pay: bool = False) -> list[Problem]:
    """Every rule the sheet breaks, as field-level problems.

    Rules that always hold: "Caractéristiques" / "Création du personnage" (values
    50/40/30/20/10, 150 points all used, none zero: the text has no way for characteristics to
    change, so they stay checked in play), "Équipement" (encumbrance), "Armures et boucliers"
    (one shield and one armour at a time), and the sheet's invariants (PV ≤ PV max, unique
    item uids, ranges).
    Creation-only rules, checked while ``created`` is false: "Création" (name, story, origins,
    job, description, don, défaut required; secret optional), "Points de vie" (12 PV),
    "Richesse" (40 PO: see :func:`_creation_problems` for the table's ``creation_pay``). Reading: these are
    the text's "Création du personnage" starting values; in play PV and PO change freely
    ("Richesse ... peut être utilisée en cours de jeu"; damage, sales, the MJ's gifts).
    ``character`` must already satisfy :data:`CHARACTER_SCHEMA`."""
    problems = list(_semantic_problems(character))
    if not character["created"]:
        problems.extend(_creation_problems(character, creation_pay=creation_pay))
    return problems + play_problems(character)


def play_problems(character: dict[str, Any], *, inventory: bool = True) -> list[Problem]:
    """The rules :func:`check_creation` checks at every stage, without the sheet's invariants
    (see :func:`validate_character`) nor the creation-only rules: characteristics (values, none
    zero, sum 150), encumbrance and one armour / one shield. Every op that takes a character
    refuses a sheet that breaks one of them (issue 8: play accepted 0/0/99/99).
    ``inventory`` False leaves out the two inventory rules, for the ops that put an inventory
    right (drop, sell, carry elsewhere): a sheet over its capacity must stay repairable."""
    problems: list[Problem] = []
    chars = character["characteristics"]
    for c in CHARACTERISTICS:
        if chars[c] == 0:
            problems.append(Problem(f"characteristics.{c}", "unicreon.char.zero", {"characteristic": c}))
        elif chars[c] not in CHARACTERISTIC_LABELS:
            problems.append(
                Problem(
                    f"characteristics.{c}", "unicreon.char.value", {"characteristic": c, "value": chars[c]}
                )
            )
    total = sum(chars[c] for c in CHARACTERISTICS)
    if total != CHARACTERISTIC_SUM:
        problems.append(
            Problem("characteristics", "unicreon.char.sum", {"total": total, "expected": CHARACTERISTIC_SUM})
        )
    if not inventory:
        return problems
    enc = encumbrance(character)
    if enc["over"]:
        problems.append(
            Problem(
                "inventory", "unicreon.char.encumbrance", {"load": enc["load"], "capacity": enc["capacity"]}
            )
        )
    problems.extend(protection_problems(character))
    return problems


def _creation_problems(character: dict[str, Any], *, creation_pay: bool = False) -> list[Problem]:
    """The starting values of "Création du personnage": texts filled ("Création"), 12 PV
    ("Points de vie"), 40 PO ("Richesse"). They bind the creation only.

    PO: "Tous les personnages commencent avec une richesse de 40 PO, qui peut être utilisée en
    cours de jeu", and "Équipement": "Choisissez des équipements en fonction de votre personnage"
    (coherent with the story, within encumbrance). Reading (rules/README.md, Unicreon): equipment
    at creation is chosen, not bought, so the sheet starts with its 40 PO whatever it chose
    (``unicreon.char.po_start``); with the table setting ``creation_pay`` creation purchases cost
    PO, and PO left + cost of what was bought must make 40 (``unicreon.char.po``)."""
    problems = [
        Problem(f, "unicreon.char.required", {"field": f}) for f in REQUIRED_TEXT if not character[f].strip()
    ]
    if character["pv_max"] != START_PV or character["pv"] != START_PV:
        problems.append(Problem("pv", "unicreon.char.pv", {"pv": character["pv"], "expected": START_PV}))
    if not creation_pay:
        if character["po"] != START_PO:
            problems.append(Problem("po", "unicreon.char.po_start", {"po": character["po"], "expected": START_PO}))
        return problems
    spent = sum(i["cost"] for i in character["inventory"])
    if character["po"] + spent != START_PO:
        problems.append(
            Problem("po", "unicreon.char.po", {"po": character["po"], "spent": spent, "expected": START_PO})
        )
    return problems


def pays(character: dict[str, Any], *, creation_pay: bool = False) -> bool:
    """Whether getting an item costs its price now: always in play; during the creation only with
    the table's ``creation_pay`` (see :func:`_creation_problems`)."""
    return bool(character["created"] or creation_pay)


def finish_creation(character: dict[str, Any], *, creation_pay: bool = False) -> dict[str, Any]:
    """Finish the creation: a copy of the character with ``created`` true, after which the
    creation-only rules (12 PV, 40 PO, texts filled) no longer apply.

    Refused for a character already created (``unicreon.char.already_created``) and while
    :func:`check_creation` reports a problem (``unicreon.char.not_finished``, with the number of
    problems and the first one's field). Source: "Création de personnages" (the sheet is
    complete once every step is done); the finishing step itself is the app's."""
    if character["created"]:
        raise RulesError("unicreon.char.already_created", character=character["id"])
    problems = check_creation(character, creation_pay=creation_pay)
    if problems:
        raise RulesError("unicreon.char.not_finished", count=len(problems), field=problems[0].field)
    out = clone(character)
    out["created"] = True
    return out


def protection_problems(character: dict[str, Any]) -> list[Problem]:
    """At most one armour worn and one shield in hand. Source: "Armures et boucliers"."""
    problems = []
    armours = [i for i in character["inventory"] if i["category"] == "armour" and i["carried"] == "worn"]
    shields = [i for i in character["inventory"] if i["category"] == "shield" and i["carried"] == "hand"]
    if len(armours) > 1:
        problems.append(Problem("inventory", "unicreon.char.two_armours", {"count": len(armours)}))
    if len(shields) > 1:
        problems.append(Problem("inventory", "unicreon.char.two_shields", {"count": len(shields)}))
    return problems


def new_uid(character: dict[str, Any]) -> str:
    """The first free item uid "i<n>" (deterministic)."""
    used = {i["uid"] for i in character["inventory"]}
    n = 1
    while f"i{n}" in used:
        n += 1
    return f"i{n}"


def find_item(character: dict[str, Any], uid: str) -> dict[str, Any]:
    for item in character["inventory"]:
        if item["uid"] == uid:
            return item
    raise RulesError("unicreon.item.unknown", uid=uid)


def item_kind(item: dict[str, Any]) -> str:
    """What makes two owned items "the same item": the catalogue id, or a custom item's name
    (trimmed, case-folded; an unnamed custom item is only itself)."""
    if item["ref"] is not None:
        return f"ref:{item['ref']}"
    name = item["name"].strip().casefold()
    return f"name:{name}" if name else f"uid:{item['uid']}"


def item_bonus(character: dict[str, Any], uids: list[str]) -> tuple[int, list[str]]:
    """The difficulty steps the listed items take off a test, and the uids that counted.

    Source: "Objets usuels" (an item lowers the difficulty from the moment one owns it); reading:
    an item lowers a test's difficulty once, however many of it are carried or listed
    (rules/README.md, Unicreon): each uid counts once, and of several copies of the same item
    (same catalogue id, or custom items of the same name) only the first listed counts. Different
    items still add up ("Bonus/Malus": bonuses add up; the text's cookbook and spices)."""
    seen: set[str] = set()
    steps = 0
    counted: list[str] = []
    for uid in uids:
        item = find_item(character, uid)
        kind = item_kind(item)
        if kind in seen:
            continue
        seen.add(kind)
        if item["bonus_steps"]:
            steps += item["bonus_steps"]
            counted.append(uid)
    return steps, counted


def _check_fits(character: dict[str, Any]) -> None:
    enc = encumbrance(character)
    if enc["over"]:
        raise RulesError("unicreon.shop.encumbrance", load=enc["load"], capacity=enc["capacity"])


def add_item(character: dict[str, Any], item: dict[str, Any], *, pay: bool) -> dict[str, Any]:
    """Add an item (a copy of ``item`` with a fresh uid), paying its cost when ``pay``; refused
    when PO are short or when it does not fit the bags. Returns the new character."""
    out = clone(character)
    if pay and item["cost"] > out["po"]:
        raise RulesError("unicreon.shop.po", cost=item["cost"], po=out["po"])
    new = clone(item)
    new["uid"] = new_uid(out)
    new.pop("free", None)
    if not pay:
        new["free"] = True
    out["inventory"].append(new)
    if pay:
        out["po"] -= item["cost"]
    _check_fits(out)
    return out


def buy(
    character: dict[str, Any], ref: str, *, carried: str | None = None, creation_pay: bool = False
) -> dict[str, Any]:
    """Buy a catalogue item: PO deducted, refused when short or too heavy for the bags. During the
    creation the item is chosen, not bought (no PO), unless the table sets ``creation_pay``.

    Source: "Liste d'équipement", "Armement" (prices), "Richesse", "Équipement" ("Choisissez des
    équipements"); reading rules/README.md, Unicreon (equipment at creation is chosen)."""
    if ref not in CATALOGUE:
        raise RulesError("unicreon.shop.unknown", ref=ref)
    item = {"uid": "", "ref": ref, "name": "", **clone(CATALOGUE[ref])}
    if carried is not None:
        item["carried"] = carried
    elif _slot_taken(character, item):
        # A second armour is not worn over the first, nor a second shield held: it goes in a bag
        # ("Armures et boucliers": one armour worn, one shield in hand).
        item["carried"] = "bag"
    return add_item(character, item, pay=pays(character, creation_pay=creation_pay))


def _slot_taken(character: dict[str, Any], item: dict[str, Any]) -> bool:
    """True when ``item`` would be a second worn armour or a second shield in hand."""
    slot = {"armour": "worn", "shield": "hand"}.get(item["category"])
    if slot is None or item["carried"] != slot:
        return False
    return any(i["category"] == item["category"] and i["carried"] == slot for i in character["inventory"])


def custom_item(spec: dict[str, Any]) -> dict[str, Any]:
    """A full item from the MJ's partial spec (defaults: gear, 0 PO, 0 PE, in a bag)."""
    item: dict[str, Any] = {
        "uid": "",
        "ref": None,
        "name": "",
        "category": "gear",
        "cost": 0,
        "pe": 0,
        "capacity": 0,
        "uses": None,
        "heal": 0,
        "cures": False,
        "bonus_steps": 0,
        "npc_tier": None,
        "carried": "bag",
        "weapon": None,
        "protection": None,
        "afflicts": None,
    }
    item.update(clone(spec))
    if (
        item["weapon"]
        and item["weapon"]["range"]
        and item["weapon"]["range"]["ideal"] > item["weapon"]["range"]["max"]
    ):
        raise RulesError("unicreon.char.range")
    return item


def sale_price(item: dict[str, Any]) -> int:
    """What an item sells for when the MJ sets no price: its cost when it was paid, nothing when
    it was got free. Source: "Richesse", « Tous les personnages commencent avec une richesse de
    40 PO, qui peut être utilisée en cours de jeu », and "Équipement" (« Choisissez des
    équipements »): equipment at creation is chosen, not bought (README, Unicreon). The text
    gives no resale rule, so an item chosen free cannot turn into PO on top of the 40 PO:
    it sells for 0, whether during the creation or in play; the MJ may still set a price."""
    return 0 if item.get("free") else item["cost"]


def set_carried(character: dict[str, Any], uid: str, carried: str) -> dict[str, Any]:
    out = clone(character)
    find_item(out, uid)["carried"] = carried
    _check_fits(out)
    return out


def remove_item(character: dict[str, Any], uid: str, *, refund: int = 0) -> dict[str, Any]:
    out = clone(character)
    item = find_item(out, uid)
    out["inventory"].remove(item)
    out["po"] += refund
    return out
