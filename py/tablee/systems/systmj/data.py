"""SYSTMJ tables as data: attributes and their pairs, the ten generic skills, the skill
scale, the MJ's modifier table, the learning difficulty (DA) table and the learning
quality table with its XP multipliers, the gain dice, the default calendar.

Source: 000_d267ce9097809d3e.txt, sections 2.1 (Attributs), 2.2 (échelle de compétence),
2.2.1 (compétences génériques), 2.3.2 (bonus/malus), 2.4.3 (DA table, qualité de
l'apprentissage), 2.4.4 (XP), 1.3 (Chronoste). Readings: shared/rules/README.md (SYSTMJ):
ENDURANCE = RÉSISTANCE, the second "90–98" row of the scale is 99 Légendaire, the malus
column is negative, "Extrêmement simple" is an automatic success, the learning table gives
×1 from 1 to 59 and nothing at 0, the calendar's months are the table's (default Gregorian).
"""

from __future__ import annotations

from typing import Any

#: The seven attributes on 100 (scores 0..99, as every SYSTMJ test). "endurance" in the
#: attribute table and "Résistance" in its description are one attribute (README reading):
#: its id is ``resistance``.
ATTRIBUTES: tuple[str, ...] = (
    "force",
    "resistance",
    "agilite",
    "rapidite",
    "intelligence",
    "personnalite",
    "chance",
)

#: The three pairs of section 2.1, each (actif, passif); Chance stands apart.
PAIRS: dict[str, tuple[str, str]] = {
    "physique": ("force", "resistance"),
    "mouvement": ("agilite", "rapidite"),
    "psychologie": ("intelligence", "personnalite"),
}

#: The ten generic skills (2.2.1), in the text's order, grouped by their five base skills.
SKILL_GROUPS: dict[str, tuple[str, ...]] = {
    "linguistiques": ("lire_ecrire", "parler"),
    "physiques": ("acrobatie", "danse", "nage"),
    "sante": ("cuisine", "premiers_soins"),
    "comportementale": ("dissimulation",),
    "sensorielles": ("detection", "sang_froid"),
}
GENERIC_SKILLS: tuple[str, ...] = tuple(s for group in SKILL_GROUPS.values() for s in group)

SCORE_MIN, SCORE_MAX = 0, 99

#: The skill scale (2.2): (lowest, highest, degree). Reading: the second "90–98" row is 99.
SKILL_SCALE: tuple[tuple[int, int, str], ...] = (
    (0, 0, "inapte"),
    (1, 20, "debutant"),
    (21, 35, "novice"),
    (36, 50, "standard"),
    (51, 65, "maitrise"),
    (66, 79, "specialiste"),
    (80, 89, "expert"),
    (90, 98, "virtuose"),
    (99, 99, "legendaire"),
)

#: Minimum score to train or teach another character (2.2, "Maîtrise"; 2.4.3 mentorat).
MENTOR_MINIMUM = 51

#: The MJ's indicative bonus/malus (2.3.2). ``None`` is "Automatique" (no roll). Reading:
#: the malus column is negative. "normal" (no modifier) is the app's starting choice.
MODIFIERS: dict[str, int | None] = {
    "normal": 0,
    "facilite": 10,
    "aise": 20,
    "tres_facile": 30,
    "extremement_simple": None,
    "petite_difficulte": -10,
    "ardu": -20,
    "tres_difficile": -30,
    "quasiment_impossible": -50,
}

#: Any other value the MJ chooses stays in this range (a whole d100 either way).
MODIFIER_MIN, MODIFIER_MAX = -100, 100

#: Learning difficulty (2.4.3, "Table des Difficultés d'Apprentissage"): DA -> minimum score
#: to study alone (degree named in the text).
DA_TABLE: dict[int, dict[str, Any]] = {
    1: {"minimum": 21, "degree": "novice"},
    2: {"minimum": 36, "degree": "standard"},
    3: {"minimum": 51, "degree": "maitrise"},
    4: {"minimum": 66, "degree": "specialiste"},
    5: {"minimum": 80, "degree": "expert"},
}

#: A DA for the generic skills, from the text's examples (Lecture: DA 1, Soins: DA 2); the
#: others are ours (DA 1, everyday know-how) and the MJ can pick any DA at the session.
GENERIC_DA: dict[str, int] = {**dict.fromkeys(GENERIC_SKILLS, 1), "premiers_soins": 2}

#: Learning quality (2.4.3, "Interprétation du jet d'apprentissage"): (lowest, highest,
#: quality, XP multiplier). Reading: 0 gives no gain; 1..59 give the gain ×1.
LEARNING_QUALITY: tuple[tuple[int, int, str, int], ...] = (
    (0, 0, "echec_critique", 0),
    (1, 9, "mauvais", 1),
    (10, 19, "mediocre", 1),
    (20, 39, "moyen", 1),
    (40, 59, "bon", 1),
    (60, 79, "tres_bon", 2),
    (80, 89, "excellent", 3),
    (90, 98, "exceptionnel", 4),
    (99, 99, "legendaire", 5),
)

#: The gain of a learning session the MJ chooses (2.4.1): 1 point, 1D4, 1D10, 1D20.
LEARNING_GAINS: dict[str, int] = {"1": 1, "1d4": 4, "1d10": 10, "1d20": 20}

#: The experience the MJ awards per skill at the end of a session (2.4.4): +1, or a die for
#: a marked moment ("1D2, 1D4, 1D6…": the list goes on to 1D20 here).
XP_DICE: dict[str, int] = {"1": 1, "1d2": 2, "1d4": 4, "1d6": 6, "1d8": 8, "1d10": 10, "1d12": 12, "1d20": 20}

#: An attribute gain is the MJ's decision (2.4.4): at most this much at once (the text's
#: example is +5 PER after a campaign).
ATTRIBUTE_GAIN_MAX = 10

KINDS: tuple[str, ...] = ("pj", "pnj", "creature")

#: Phases of play (3): Jeu libre, or Action & Mouvement by rounds.
PHASES: tuple[str, ...] = ("jeu_libre", "action_mouvement")

#: The Chronoste's default calendar (1.3; README: the table names the months, default
#: Gregorian). Day and night: the clock counts 24 hours; day runs from ``dawn`` to ``dusk``.
DEFAULT_MONTHS: tuple[tuple[str, int], ...] = (
    ("Janvier", 31),
    ("Février", 28),
    ("Mars", 31),
    ("Avril", 30),
    ("Mai", 31),
    ("Juin", 30),
    ("Juillet", 31),
    ("Août", 31),
    ("Septembre", 30),
    ("Octobre", 31),
    ("Novembre", 30),
    ("Décembre", 31),
)
MINUTES_PER_DAY = 24 * 60
DAWN_HOUR, DUSK_HOUR = 6, 20
UNITS: dict[str, int] = {"minutes": 1, "hours": 60, "days": MINUTES_PER_DAY}


def degree(score: int) -> str:
    """The degree of mastery of a score on the skill scale (2.2)."""
    for low, high, name in SKILL_SCALE:
        if low <= score <= high:
            return name
    raise ValueError(f"score {score} outside 0..99")


def learning_quality(roll: int) -> tuple[str, int]:
    """Quality and XP multiplier of a (capped) learning roll (2.4.3)."""
    for low, high, name, mult in LEARNING_QUALITY:
        if low <= roll <= high:
            return name, mult
    raise ValueError(f"roll {roll} outside 0..99")
