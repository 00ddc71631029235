"""Unicreon data tables, transcribed from the rule text.

Source: 004_12a5de9999b9d0ad.txt (Unicreon v0.22.0, d6 edition); readings: rules/README.md (Unicreon).
Ids are French (accents dropped); every id has an i18n label ``unicreon.<table>.<id>``.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ARMOURS",
    "BAGS",
    "BESTIARY",
    "CARRIED",
    "CATALOGUE",
    "CHARACTERISTICS",
    "CHARACTERISTIC_LABELS",
    "CHARACTERISTIC_SUM",
    "DIFFICULTIES",
    "DIFFICULTY_STEP",
    "GEAR",
    "NPC_TIERS",
    "RANGES",
    "RESULT_BANDS",
    "SKILL_LEVELS",
    "START_PO",
    "START_PV",
    "WEAPONS",
    "band_for",
    "data_tables",
]

#: Source: "Caractéristiques". Ids of the four characteristics, in the text's order.
CHARACTERISTICS: tuple[str, ...] = ("puissance", "agilite", "perception", "volonte")

#: Source: "Valeurs de caractéristiques" table (lower is better).
CHARACTERISTIC_LABELS: dict[int, str] = {10: "expert", 20: "fort", 30: "bon", 40: "moyen", 50: "faible"}

#: Source: "Création du personnage": assign 150 points, all used, none zero.
CHARACTERISTIC_SUM = 150
#: Source: "Points de vie" / "Richesse".
START_PV = 12
START_PO = 40

#: Source: "Niveaux de difficulté" (value added to the characteristic).
DIFFICULTIES: dict[str, int] = {
    "facile": -10,
    "moyen": 0,
    "difficile": 10,
    "tres_difficile": 20,
    "improbable": 30,
    "impossible": 40,
}
#: One bonus/malus step moves one row of the difficulty ladder.
DIFFICULTY_STEP = 10

#: Source: "Interprétation des résultats": résultat réel bands (low, high). In the d6 edition the
#: résultat réel runs 1-6, so "super" and "extra" never occur (rules/README.md, Unicreon).
RESULT_BANDS: tuple[tuple[str, int, int], ...] = (
    ("bof", 1, 2),
    ("bien", 3, 4),
    ("top", 5, 6),
    ("super", 7, 8),
    ("extra", 9, 99),
)


def band_for(real: int) -> str:
    """The interpretation band of a résultat réel. Source: "Interprétation des résultats"."""
    for band, low, high in RESULT_BANDS:
        if low <= real <= high:
            return band
    return "bof"


#: Skill levels; reading: skills LOWER the target (rules/README.md, Unicreon; "PNJ génériques").
SKILL_LEVELS: dict[str, int] = {"faible": 5, "moyen": 10, "bon": 20, "fort": 30}

#: Where an item is carried. Only "bag" items count against bag capacity. Source: "Équipement":
#: "On ne tient pas compte de l'encombrement des objets portés à la main ... ou sur soi."
#: Reading: animals follow their owner and do not count either ("following").
CARRIED: tuple[str, ...] = ("bag", "hand", "worn", "following")


def _item(
    cost: int,
    pe: int,
    category: str,
    *,
    capacity: int = 0,
    uses: int | None = None,
    heal: int = 0,
    cures: bool = False,
    bonus_steps: int = 0,
    npc_tier: str | None = None,
    carried: str = "bag",
    afflicts: str | None = None,
) -> dict[str, Any]:
    return {
        "cost": cost,
        "pe": pe,
        "category": category,
        "capacity": capacity,
        "uses": uses,
        "heal": heal,
        "cures": cures,
        "bonus_steps": bonus_steps,
        "npc_tier": npc_tier,
        "carried": carried,
        "weapon": None,
        "protection": None,
        "afflicts": afflicts,
    }


#: Source: "Liste d'équipement", "Sacs". Bags are worn: they give capacity, they do not use it.
BAGS: dict[str, dict[str, Any]] = {
    "bourse": _item(5, 0, "bag", capacity=2, carried="worn"),
    "sacoche": _item(10, 0, "bag", capacity=5, carried="worn"),
    "sac_a_dos": _item(20, 0, "bag", capacity=15, carried="worn"),
    "grand_sac_a_dos": _item(30, 0, "bag", capacity=25, carried="worn"),
    "valise": _item(50, 0, "bag", capacity=40, carried="worn"),
    "malle": _item(80, 0, "bag", capacity=150, carried="worn"),
}

#: Source: "Liste d'équipement" price tables (5, 10, 20, 50, 100, 200 PO).
#: "Bonus aux tests de ..." items lower the difficulty one step when they apply ("Objets usuels").
#: Reading: a ration is one use (1 repas); poison is one dose; antidote one use.
#: Poison: "Perte de 1d6 PV par jour": used on a target, it gives the target a poison condition
#: (``afflicts``), which costs 1d6 PV per adventure day ("Poisons et maladies").
#: Antidote: "Guérit un poison ou une maladie". "Soins" says an antidote or a médicament "fera
#: regagner un nombre fixe de PV" but no list gives that number for the catalogue antidote, so it
#: heals 0 PV here; the MJ gives a custom care item that cures and heals N PV (e.g. the text's
#: "médicament [3 PV]") when her antidote restores PV.
GEAR: dict[str, dict[str, Any]] = {
    "torche": _item(5, 1, "gear"),
    "bandage": _item(5, 1, "care", uses=2, heal=1),
    "briquet": _item(5, 1, "gear"),
    "ration": _item(5, 2, "gear", uses=1),
    "trousse_basique": _item(10, 2, "care", uses=4, heal=2),
    "boussole_carte": _item(10, 1, "gear", bonus_steps=1),
    "longue_vue": _item(10, 2, "gear", bonus_steps=1),
    "corde_escalade": _item(10, 2, "gear", bonus_steps=1),
    "trousse_avancee": _item(20, 2, "care", uses=4, heal=4),
    "poison": _item(20, 1, "gear", uses=1, afflicts="poison"),
    "antidote": _item(20, 1, "care", uses=1, cures=True),
    "grappin": _item(20, 1, "gear", bonus_steps=1),
    "bottes_silencieuses": _item(20, 2, "gear", bonus_steps=1),
    "outils_crochetage": _item(20, 1, "gear", bonus_steps=1),
    "instrument": _item(20, 4, "gear", bonus_steps=1),
    "deguisement": _item(50, 3, "gear"),
    "grand_animal": _item(100, 12, "animal", npc_tier="moyen", carried="following"),
    "destrier": _item(200, 450, "animal", npc_tier="fort", carried="following"),
}

#: Source: "Combat à distance" range table (metres: ideal, maximum). Reading: "Arc long" is the
#: table's "Grand arc"; the fronde and the one-hand crossbow have no range in the text (the MJ judges).
RANGES: dict[str, dict[str, int]] = {
    "couteau_lancer": {"ideal": 3, "max": 10},
    "arbalete": {"ideal": 15, "max": 30},
    "arc": {"ideal": 30, "max": 80},
    "arc_long": {"ideal": 150, "max": 250},
}


def _weapon(
    cost: int,
    characteristic: str,
    kind: str,
    value: int | None,
    *,
    ranged: bool = False,
    thrown: bool = False,
    melee_ok: bool | None = None,
    malus_steps: int = 0,
    ref: str = "",
) -> dict[str, Any]:
    item = _item(cost, 0, "weapon", carried="hand")
    item["weapon"] = {
        "characteristic": characteristic,
        "damage": {"kind": kind, "value": value},
        "ranged": ranged,
        "thrown": thrown,
        "melee_ok": (not ranged) if melee_ok is None else melee_ok,
        "range": RANGES.get(ref),
        "malus_steps": malus_steps,
    }
    return item


#: Source: "Armement", "Armes au contact" and "Armes à distance". "avec malus" is read as one
#: difficulty step harder on the wielder's attack test (the text does not size it).
#: ``melee_ok`` on a ranged weapon: usable au corps-à-corps ("Combat au contact": only when easily
#: handled with one hand, "c'est bon pour les couteaux de lancer, mais pas pour les arcs, les
#: arbalètes"). Reading (rules/README.md, Unicreon): throwing knives and shuriken yes; bows,
#: crossbows (the one-hand crossbow too) and slings never.
WEAPONS: dict[str, dict[str, Any]] = {
    "couteau_long": _weapon(50, "agilite", "fixed", 2),
    "poing_americain": _weapon(50, "puissance", "fixed", 2),
    "epee_courte": _weapon(50, "agilite", "max", 4),
    "baton_ferre": _weapon(50, "puissance", "max", 3),
    "nunchaku": _weapon(100, "agilite", "max", 6),
    "fleuret": _weapon(100, "agilite", "fixed", 5),
    "epee_deux_mains": _weapon(100, "puissance", "fixed", 5),
    "hache": _weapon(100, "puissance", "max", 7),
    "hallebarde": _weapon(200, "agilite", "fixed", 6),
    "masse_armes": _weapon(200, "puissance", "fixed", 8),
    "fleau_armes": _weapon(200, "volonte", "max", 9, malus_steps=1),
    "epee_legendaire": _weapon(200, "agilite", "max", 9),
    "fronde": _weapon(50, "perception", "fixed", 2, ranged=True, melee_ok=False, ref="fronde"),
    "couteau_lancer": _weapon(
        50, "agilite", "fixed", 2, ranged=True, thrown=True, melee_ok=True, ref="couteau_lancer"
    ),
    "arc": _weapon(50, "perception", "max", 4, ranged=True, melee_ok=False, ref="arc"),
    "arbalete_une_main": _weapon(
        100, "agilite", "fixed", 4, ranged=True, melee_ok=False, ref="arbalete_une_main"
    ),
    "arc_long": _weapon(100, "puissance", "max", 6, ranged=True, melee_ok=False, ref="arc_long"),
    "arbalete": _weapon(
        200, "perception", "max", 9, ranged=True, melee_ok=False, malus_steps=1, ref="arbalete"
    ),
}


def _protection(
    cost: int, category: str, characteristic: str, kind: str, value: int | None
) -> dict[str, Any]:
    item = _item(cost, 0, category, carried="worn" if category == "armour" else "hand")
    item["protection"] = {"characteristic": characteristic, "absorb": {"kind": kind, "value": value}}
    return item


#: Source: "Armement", "Boucliers et armures".
ARMOURS: dict[str, dict[str, Any]] = {
    "armure_cuir": _protection(50, "armour", "agilite", "fixed", 1),
    "bouclier_bois": _protection(50, "shield", "puissance", "fixed", 1),
    "cotte_mailles": _protection(100, "armour", "puissance", "fixed", 2),
    "bouclier_bois_ferre": _protection(100, "shield", "agilite", "fixed", 2),
    "armure_plates": _protection(200, "armour", "puissance", "fixed", 4),
    "bouclier_metal": _protection(200, "shield", "puissance", "fixed", 4),
}

#: Every item one can buy, by id.
CATALOGUE: dict[str, dict[str, Any]] = {**BAGS, **GEAR, **WEAPONS, **ARMOURS}

#: Source: "PNJ génériques". ``skills`` lists the levels of the tier's special skills.
NPC_TIERS: dict[str, dict[str, Any]] = {
    "faible": {"value": 50, "pv": 8, "damage": 2, "skills": ["faible"]},
    "moyen": {"value": 40, "pv": 12, "damage": 3, "skills": ["faible", "moyen"]},
    "fort": {"value": 30, "pv": 18, "damage": 5, "skills": ["moyen", "bon"]},
    "mortel": {"value": 20, "pv": 25, "damage": 9, "skills": ["fort", "fort", "fort"]},
}

#: Source: "Bestiaire : Animaux". Reading: the rodents' "Score de Volonté : 11" is kept as 11; the
#: great mammals' "Volonté : 50 à 40" defaults to 50 (``volonte_range`` lets the MJ pick 40).
#: Reading: a beast attacks with its better (lower) of Puissance and Agilité (``attack``).
BESTIARY: dict[str, dict[str, Any]] = {
    "rongeurs": {
        "pv": 2,
        "damage": 1,
        "attack": "agilite",
        "characteristics": {"puissance": 50, "agilite": 20, "perception": 50, "volonte": 11},
    },
    "canides": {
        "pv": 6,
        "damage": 3,
        "attack": "puissance",
        "characteristics": {"puissance": 30, "agilite": 30, "perception": 40, "volonte": 50},
    },
    "grands_felins": {
        "pv": 8,
        "damage": 4,
        "attack": "puissance",
        "characteristics": {"puissance": 20, "agilite": 30, "perception": 20, "volonte": 40},
    },
    "grands_mammiferes": {
        "pv": 20,
        "damage": 6,
        "attack": "puissance",
        "volonte_range": [40, 50],
        "characteristics": {"puissance": 10, "agilite": 50, "perception": 40, "volonte": 50},
    },
}


def data_tables() -> dict[str, Any]:
    """Every table the UI needs, JSON-ready (fresh copies)."""
    import copy

    return copy.deepcopy(
        {
            "characteristics": list(CHARACTERISTICS),
            "characteristic_values": [
                {"value": v, "label": k} for v, k in sorted(CHARACTERISTIC_LABELS.items())
            ],
            "characteristic_sum": CHARACTERISTIC_SUM,
            "start_pv": START_PV,
            "start_po": START_PO,
            "difficulties": [{"id": k, "value": v} for k, v in DIFFICULTIES.items()],
            "difficulty_step": DIFFICULTY_STEP,
            "result_bands": [{"id": b, "min": lo, "max": hi} for b, lo, hi in RESULT_BANDS],
            "skill_levels": [{"id": k, "value": v} for k, v in SKILL_LEVELS.items()],
            "carried": list(CARRIED),
            "bags": BAGS,
            "gear": GEAR,
            "weapons": WEAPONS,
            "armours": ARMOURS,
            "ranges": RANGES,
            "npc_tiers": NPC_TIERS,
            "bestiary": BESTIARY,
        }
    )
