"""The SYSTMJ card library: the four families of game cards, their fields and closed lists,
registry numbers, and who holds each card.

Source: 000_d267ce9097809d3e.txt, section 4 (four families: Équipement, Ressources, Savoir,
Pouvoirs), 4.1 (the sixteen fields of an Équipement card, EQ-00000), 4.2 (Ressources,
RE-00000), 4.3 (Savoir, SA-00000: the skills a support lets one learn), 4.4 (Pouvoir,
PO-00000; README reading: 4.4 lists the fields of **Pouvoir** cards, the text says "Savoir"
by mistake), the "échelle d'usure" (PU 0..99, see :mod:`.wear`).

Readings (ours):

* The card kernel (:mod:`tablee.cards`) models decks and piles of scalar faces (draws,
  shuffles); SYSTMJ cards are an inventory with list fields (damage table, sub-categories)
  and are never drawn, so the library is its own list of cards, each with its ``holder``
  (a character id, or ``""`` for the table's library). The card kernel's exact fraction JSON
  is reused by the ops.
* Registry numbers are given by the app, per family, from a counter that never goes back
  (``next``): a number is never given twice, even to a card of another table imported later.
* A Pouvoir card's ``score`` is the box its holder fills in (0..99): a secondary special
  skill tested like any skill (2.2, 4.4).
* Weight, slot, load, range and durations are free text (the text gives no unit).
* A new card claims no type it was not given. The type of an Équipement card (4.1, field 2:
  Objets usuels, Armes, Armures, "qui peuvent être cumulatives") and of a Pouvoir card (4.4,
  field 2: Magique … Technologique, "une compétence peut correspondre à plusieurs types") are
  lists the card must state (every card "doit contenir" its type), several at once. A default
  of one of them made every new weapon an "Objet usuel" too (a box ticked beside the "Arme" the
  person ticked), and every new Pouvoir "Magique": so a new card starts with no type and no
  category (:data:`DEFAULTS`), and a save without a type is refused at that field
  (``systmj.card.type_needed``). The one-choice fields (a Ressource's or a Savoir's type) are
  chosen from a list that always shows the value it holds, so their first value stays.

Shape of ``state["library"]``::

    {"next": {"EQ": int, "RE": int, "SA": int, "PO": int},   # the next number of each family
     "cards": [card, ...]}

A card: ``{"number": "EQ-00001", "family": "equipement", "name", "holder", "description",
...the family's fields}`` (see :data:`FAMILY_FIELDS`).
"""

from __future__ import annotations

from typing import Any

from ...errors import Problem, RulesError, declare
from ...schema import compiled, shape_problems
from ...tree import clone
from . import data as D

__all__ = [
    "CARD_SCHEMA",
    "FAMILIES",
    "LIBRARY_SCHEMA",
    "card_problems",
    "delete",
    "find",
    "give",
    "import_card",
    "library_problems",
    "new_library",
    "save_card",
    "take_back",
]

declare(
    "systmj.card.invalid",
    "systmj.card.not_valid",
    "systmj.card.unknown",
    "systmj.card.held",
    "systmj.card.not_held",
    "systmj.card.full",
    "systmj.card.name_empty",
    "systmj.card.number_taken",
    "systmj.card.family_changed",
    "systmj.card.type_needed",
    "systmj.library.invalid",
)

#: family id -> registry prefix (4.1 to 4.4).
FAMILIES: dict[str, str] = {"equipement": "EQ", "ressource": "RE", "savoir": "SA", "pouvoir": "PO"}
PREFIX_FAMILY = {v: k for k, v in FAMILIES.items()}
NUMBER_PATTERN = r"^(EQ|RE|SA|PO)-[0-9]{5}$"
MAX_NUMBER = 99999
MAX_LIBRARY = 400

# ---------------------------------------------------------------- closed lists (4.1 to 4.4)
#: 4.1, field 2: the three types, cumulative.
EQ_TYPES = ("objet_usuel", "arme", "armure")
#: 4.1, field 2: the derived categories of each type (cumulative).
EQ_CATEGORIES: dict[str, tuple[str, ...]] = {
    "objet_usuel": ("contenant", "outil_instrument", "vehicule", "vetement", "objet_magique_bijou"),
    "arme": ("bouclier", "corps_a_corps", "jet", "trait", "poing", "epaule", "explosif"),
    "armure": (),  # armours name the body parts they protect (field ``slot``)
}
ALL_EQ_CATEGORIES = tuple(c for cs in EQ_CATEGORIES.values() for c in cs)
#: 4.1, field 3.
QUALITIES = ("mediocre", "moyenne", "bonne", "excellente", "luxueuse", "exceptionnelle")
#: 4.1, field 4 ("" = no size: the item does not fit a body).
SIZES = ("", "petite", "moyenne", "grande", "exceptionnelle")
#: 4.2, field 2: the three types and their sub-types.
RE_TYPES: dict[str, tuple[str, ...]] = {
    "ingredient_consommable": (
        "alcool", "animal", "baie", "baume", "boisson", "champignon", "drogue", "epice", "fleur", "fruit",
        "herbe", "inconnu", "legume", "magique", "materiau", "medicament", "mineral", "nourriture", "onguent",
        "organique", "plante", "poison", "potion", "racine", "substance", "synthetique",
    ),
    "munition": ("balle", "carburant", "carreau", "cartouche", "charge", "fleche", "autre"),
    "titre_propriete": ("batiment", "domaine", "terrain", "zone", "structure", "vehicule", "autre"),
}
#: 4.3, field 2.
SA_TYPES = (
    "livre", "grimoire", "parchemin", "plan", "recette", "schema", "algorithme", "base_de_donnees",
    "terminal", "support_stockage", "document", "autre",
)
#: 4.4, field 2 (cumulative).
PO_TYPES = ("magique", "manuelle", "intellectuelle", "physique", "psychique", "technologique")

# ---------------------------------------------------------------- schemas


def _text(n: int) -> dict[str, Any]:
    return {"type": "string", "maxLength": n}


def _set_of(values: tuple[str, ...], n: int | None = None) -> dict[str, Any]:
    return {"type": "array", "uniqueItems": True, "maxItems": n or len(values), "items": {"enum": list(values)}}


_SCORE = {"type": "integer", "minimum": D.SCORE_MIN, "maximum": D.SCORE_MAX}
_POINTS = {"type": "integer", "minimum": 0, "maximum": 999}
#: A skill a Savoir card lets one learn (4.3, field 8): a generic skill, a primary special
#: skill (``sp-…``) or a Pouvoir card (``PO-…``).
SKILL_REF = {
    "type": "string",
    "pattern": r"^(sp-[a-z0-9]{1,32}|PO-[0-9]{5}|" + "|".join(D.GENERIC_SKILLS) + r")$",
}

#: family -> {field: schema}; every field is required on a stored card (defaults on creation).
FAMILY_FIELDS: dict[str, dict[str, Any]] = {
    "equipement": {
        "types": {**_set_of(EQ_TYPES), "minItems": 1},
        "categories": _set_of(ALL_EQ_CATEGORIES),
        "quality": {"enum": list(QUALITIES)},
        "size": {"enum": list(SIZES)},
        "weight": _text(40),
        "slot": _text(60),
        "load": _text(60),
        "att": _SCORE,
        "def": _SCORE,
        "er_skills": _text(120),
        "pu": _SCORE,
        "damage": {"type": "array", "minItems": 3, "maxItems": 3, "items": _POINTS},
        "pa_bonus": _POINTS,
        "range": _text(60),
        "ammunition": _text(120),
        "charge_duration": _text(60),
        "effect_duration": _text(60),
        "worn": {"type": "boolean"},
    },
    "ressource": {
        "type": {"enum": list(RE_TYPES)},
        "subtype": {"enum": sorted({s for ss in RE_TYPES.values() for s in ss})},
        "effect_duration": _text(60),
        "conservation": _text(60),
        "owner": _text(80),
        "surface": _text(40),
        "location": _text(120),
    },
    "savoir": {
        "type": {"enum": list(SA_TYPES)},
        "author": _text(80),
        "language": _text(60),
        "weight": _text(40),
        "pu": _SCORE,
        "requires": _text(120),
        "skills": {"type": "array", "uniqueItems": True, "maxItems": 20, "items": SKILL_REF},
    },
    "pouvoir": {
        "types": {**_set_of(PO_TYPES), "minItems": 1},
        "families": {"type": "array", "maxItems": 10, "items": {"type": "string", "minLength": 1, "maxLength": 60}},
        "da": {"type": "integer", "minimum": 1, "maximum": 5},
        "cost": _text(120),
        "score": _SCORE,
    },
}

#: A new card's fields before the person fills them in; no type is claimed (module docstring).
DEFAULTS: dict[str, dict[str, Any]] = {
    "equipement": {
        "types": [], "categories": [], "quality": "moyenne", "size": "", "weight": "", "slot": "",
        "load": "", "att": 0, "def": 0, "er_skills": "", "pu": 99, "damage": [0, 0, 0], "pa_bonus": 0,
        "range": "", "ammunition": "", "charge_duration": "", "effect_duration": "", "worn": False,
    },
    "ressource": {
        "type": "ingredient_consommable", "subtype": "inconnu", "effect_duration": "", "conservation": "",
        "owner": "", "surface": "", "location": "",
    },
    "savoir": {"type": "livre", "author": "", "language": "", "weight": "", "pu": 99, "requires": "", "skills": []},
    "pouvoir": {"types": [], "families": [], "da": 1, "cost": "", "score": 0},
}
#: The families whose type is a list of several (4.1 and 4.4, field 2): at least one is stated.
TYPED_FAMILIES = ("equipement", "pouvoir")

_COMMON = {
    "number": {"type": "string", "pattern": NUMBER_PATTERN},
    "name": {"type": "string", "minLength": 1, "maxLength": 80},
    "holder": {"type": "string", "maxLength": 64},
    "description": _text(2000),
}


def _family_schema(family: str) -> dict[str, Any]:
    props = {**_COMMON, "family": {"const": family}, **FAMILY_FIELDS[family]}
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


#: A stored card: one of the four families (the ``family`` field picks the schema).
CARD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["family"],
    "properties": {"family": {"enum": list(FAMILIES)}},
    "allOf": [
        {"if": {"properties": {"family": {"const": f}}}, "then": _family_schema(f)} for f in FAMILIES
    ],
}

LIBRARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "next": {
            "type": "object",
            "properties": {p: {"type": "integer", "minimum": 1, "maximum": MAX_NUMBER + 1} for p in FAMILIES.values()},
            "required": list(FAMILIES.values()),
            "additionalProperties": False,
        },
        "cards": {"type": "array", "maxItems": MAX_LIBRARY, "items": CARD_SCHEMA},
    },
    "required": ["next", "cards"],
    "additionalProperties": False,
}

_S = "https://json-schema.org/draft/2020-12/schema"
_card_shape = compiled({"$schema": _S, **CARD_SCHEMA})
_library_shape = compiled({"$schema": _S, **LIBRARY_SCHEMA})


def new_library() -> dict[str, Any]:
    return {"next": dict.fromkeys(FAMILIES.values(), 1), "cards": []}


def card_problems(card: Any) -> list[Problem]:
    """Problems of an untrusted card (never raises): shape, the registry prefix matches the
    family (4.1 to 4.4), the categories belong to the chosen types (4.1), the sub-type to the
    resource type (4.2), the name is not blank."""
    problems = shape_problems(_card_shape, card, "systmj.card.invalid")
    if problems:
        return problems
    if card["number"][:2] != FAMILIES[card["family"]]:
        return [Problem("number", "systmj.card.invalid", {"detail": "prefix"})]
    if not card["name"].strip():
        return [Problem("name", "systmj.card.name_empty")]
    if card["family"] == "equipement":
        allowed = {c for t in card["types"] for c in EQ_CATEGORIES[t]}
        for c in card["categories"]:
            if c not in allowed:
                return [Problem("categories", "systmj.card.invalid", {"detail": c})]
    if card["family"] == "ressource" and card["subtype"] not in RE_TYPES[card["type"]]:
        return [Problem("subtype", "systmj.card.invalid", {"detail": card["subtype"]})]
    return []


def library_problems(library: Any) -> list[Problem]:
    """Store hook for ``state["library"]``: shape, every card valid, numbers unique and
    below their family's counter (so the app never gives a number twice)."""
    problems = shape_problems(_library_shape, library, "systmj.library.invalid")
    if problems:
        return [Problem(f"library.{p.field}".rstrip("."), p.code, p.params) for p in problems]
    seen: set[str] = set()
    for i, card in enumerate(library["cards"]):
        for p in card_problems(card):
            return [Problem(f"library.cards.{i}.{p.field}".rstrip("."), p.code, p.params)]
        number = card["number"]
        if number in seen:
            return [Problem(f"library.cards.{i}.number", "systmj.card.number_taken", {"number": number})]
        seen.add(number)
        if int(number[3:]) >= library["next"][number[:2]]:
            return [Problem(f"library.cards.{i}.number", "systmj.card.invalid", {"detail": "counter"})]
    return []


def find(library: dict[str, Any], number: str) -> dict[str, Any]:
    for card in library["cards"]:
        if card["number"] == number:
            return card
    raise RulesError("systmj.card.unknown", number=number)


def _require(card: dict[str, Any]) -> dict[str, Any]:
    if isinstance(card.get("name"), str) and not card["name"].strip():
        raise RulesError("systmj.card.name_empty", field="name")
    if card.get("family") in TYPED_FAMILIES and card.get("types") == []:
        raise RulesError("systmj.card.type_needed", field="types")
    problems = card_problems(card)
    if problems:
        p = problems[0]
        code = p.code if p.code != "systmj.card.invalid" else "systmj.card.not_valid"
        raise RulesError(code, field=p.field, **p.params)
    return card


def _next_number(library: dict[str, Any], family: str) -> str:
    prefix = FAMILIES[family]
    n = library["next"][prefix]
    if n > MAX_NUMBER or len(library["cards"]) >= MAX_LIBRARY:
        raise RulesError("systmj.card.full", max=MAX_LIBRARY)
    library["next"][prefix] = n + 1
    return f"{prefix}-{n:05d}"


def save_card(library: dict[str, Any], fields: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Create (no ``number``) or replace (``number`` of a card in the library) a card from a
    form. A new card gets the next registry number of its family (4.1 to 4.4: unique,
    given by the app) and starts in the library; an edited card keeps its number, family
    and holder. Anything invalid raises and changes nothing. Returns (library, card)."""
    new = clone(library)
    family = fields.get("family")
    if not isinstance(family, str) or family not in FAMILIES:
        raise RulesError("systmj.card.not_valid", field="family")
    number = fields.get("number")
    if number is not None and not isinstance(number, str):
        raise RulesError("systmj.card.not_valid", field="number")
    if number is None:
        card = {**DEFAULTS[family], **{k: v for k, v in fields.items() if k != "holder"}, "holder": ""}
        card.setdefault("description", "")
        card["name"] = str(card.get("name", "")).strip() if isinstance(card.get("name"), str) else card.get("name")
        card["number"] = f"{FAMILIES[family]}-00000"  # checked below, replaced when valid
        _require(card)
        card["number"] = _next_number(new, family)
        new["cards"].append(card)
        return new, card
    old = find(new, number)
    if old["family"] != family:
        raise RulesError("systmj.card.family_changed", number=number)
    card = {**old, **fields, "holder": old["holder"]}
    if isinstance(card.get("name"), str):
        card["name"] = card["name"].strip()
    _require(card)
    new["cards"][new["cards"].index(old)] = card
    return new, card


def import_card(library: dict[str, Any], data: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A card from outside (another table's export): checked whole as untrusted data, then
    stored in the library under a fresh number of this table (its own number and holder are
    not this table's). A bad card raises with the field at fault and changes nothing."""
    if not isinstance(data, dict):
        raise RulesError("systmj.card.not_valid", field="")
    probe = {**data}
    family = probe.get("family")
    if isinstance(family, str) and family in FAMILIES:
        # a field the other table left out takes its default; every given field is checked
        probe = {"description": "", **DEFAULTS[family], **probe}
        probe["number"] = f"{FAMILIES[family]}-00000"
        probe["holder"] = ""
    _require(probe)
    fields = {k: v for k, v in probe.items() if k not in ("number", "holder")}
    return save_card(library, fields)


def give(library: dict[str, Any], character: dict[str, Any], number: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A card of the library goes to a character (its ``holder``; the number joins the
    sheet's ``cards``). A card held by someone must be taken back first."""
    new, who = clone(library), clone(character)
    card = find(new, number)
    if card["holder"]:
        raise RulesError("systmj.card.held", number=number, holder=card["holder"])
    if len(who["cards"]) >= 200:
        raise RulesError("systmj.card.full", max=200)
    card["holder"] = who["id"]
    if number not in who["cards"]:
        who["cards"].append(number)
    return new, who


def take_back(library: dict[str, Any], character: dict[str, Any], number: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The card goes back to the table's library."""
    new, who = clone(library), clone(character)
    card = find(new, number)
    if card["holder"] != who["id"]:
        raise RulesError("systmj.card.not_held", number=number)
    card["holder"] = ""
    who["cards"] = [n for n in who["cards"] if n != number]
    return new, who


def delete(library: dict[str, Any], number: str) -> dict[str, Any]:
    """Delete a card of the library (4: the registry numbers are unique, so the family's
    counter does not go back and the number is never given again). A card a character holds
    is refused (``systmj.card.held``: take it back first, so no sheet keeps a number that no
    longer exists); a deleted Pouvoir card leaves the skills of the Savoir cards (4.3 field 8,
    « La ou les Compétences que le support de Savoir permet de mobiliser »)."""
    new = clone(library)
    card = find(new, number)
    if card["holder"]:
        raise RulesError("systmj.card.held", number=number, holder=card["holder"])
    new["cards"] = [c for c in new["cards"] if c["number"] != number]
    for other in new["cards"]:
        if other["family"] == "savoir":
            other["skills"] = [s for s in other["skills"] if s != number]
    return new
