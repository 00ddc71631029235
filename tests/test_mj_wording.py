"""« le MJ » / « la MJ »: one convention per system, as its rule text uses it.

The conventions (read in /work/shared/rules/; noted at the top of each system's page module):
- SYSTMJ (000): "le MJ" ("Le MJ décide…"); Point Zéro (002): "le MJ" ("le seuil fixé par le MJ").
- Versality (001): epicene, "le ou la MJ", "au Meneur, ou à la Meneuse": "le ou la MJ" where an
  article is needed, else "MJ" with no article ("Écran MJ", "pions MJ").
- Théorem (003): the maître de Ka, "le MK": never "MJ".
- Unicreon (004): "la MJ" ("la MJ fait un seul jet pour tous les PNJ").
- Shared strings (core, cards, safety, kernel, live) that are not about one system: epicene like
  Versality (no gendered article alone before "MJ"); a system's own summary follows its system.

Each check is run on the French strings of the namespace (the English ones say "GM" or keep the
system's French term, one per system) and the scanner is itself checked on strings that break
the rule, so a check that cannot fail would show here. Combat lines name fighters of any gender:
the gendered phrases once written ("n'est pas atteint", "s'est enfui", "Inconscient") are gone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

I18N = Path(__file__).resolve().parent.parent / "static" / "i18n"
FLAGS = re.IGNORECASE

#: An epicene form, removed before looking for a gendered article.
EPICENE = re.compile(r"\b(le ou la|du ou de la|au ou à la|la ou le) MJ\b", FLAGS)
#: A masculine article or contraction before MJ / MK.
MASCULINE = re.compile(r"(\b(le|du|au|un)|\bl'|\bl’)\s*M[JK]\b", FLAGS)
#: A feminine article before MJ / MK ("de la", "à la" included).
FEMININE = re.compile(r"\b(la|une)\s+M[JK]\b", FLAGS)


def strings(ns: str, lang: str = "fr") -> dict[str, str]:
    return json.loads((I18N / lang / f"{ns}.json").read_text(encoding="utf-8"))


def problems(text: str, convention: str) -> list[str]:
    """What in ``text`` breaks ``convention`` ("le", "la", "epicene", "mk")."""
    found: list[str] = []
    if convention == "le":
        found += [m.group(0) for m in FEMININE.finditer(text)]
    elif convention == "la":
        found += [m.group(0) for m in MASCULINE.finditer(text)]
    elif convention == "epicene":
        rest = EPICENE.sub("", text)
        found += [m.group(0) for m in MASCULINE.finditer(rest)] + [m.group(0) for m in FEMININE.finditer(rest)]
    elif convention == "mk":
        found += re.findall(r"\bMJ\b|\bmeneu(?:r|se)\b", text, FLAGS)
        found += [m.group(0) for m in FEMININE.finditer(text)]
    return found


CONVENTIONS = {"systmj": "le", "pointzero": "le", "versality": "epicene", "theorem": "mk", "unicreon": "la"}
SHARED = ("core", "cards", "safety", "kernel", "live")


@pytest.mark.parametrize(("ns", "convention"), sorted(CONVENTIONS.items()))
def test_each_system_says_mj_one_way(ns, convention):
    bad = {k: problems(v, convention) for k, v in strings(ns).items() if problems(v, convention)}
    assert not bad, f"{ns} uses the {convention!r} convention: {bad}"


def test_each_system_speaks_of_its_mj_at_all():
    """The scan has something to scan: each system names its MJ (or MK) in its strings."""
    for ns, convention in CONVENTIONS.items():
        term = r"\bMK\b|maître de Ka" if convention == "mk" else r"\bMJ\b"
        assert any(re.search(term, v, FLAGS) for v in strings(ns).values()), ns


@pytest.mark.parametrize("ns", SHARED)
def test_shared_strings_follow_the_system_they_speak_of(ns):
    bad = {}
    for key, text in strings(ns).items():
        system = next((s for s in CONVENTIONS if f".{s}." in f".{key}."), None)
        found = problems(text, CONVENTIONS[system] if system else "epicene")
        if found:
            bad[key] = found
    assert not bad, bad


@pytest.mark.parametrize(
    ("text", "convention", "caught"),
    [
        ("Écran de la MJ", "le", ["la MJ"]),
        ("Au choix de la MJ", "le", ["la MJ"]),
        ("Le MJ doit approuver", "la", ["Le MJ"]),
        ("Raison du MJ", "la", ["du MJ"]),
        ("Je suis le MJ", "epicene", ["le MJ"]),
        ("Décision de la MJ", "epicene", ["la MJ"]),
        ("Le ou la MJ doit approuver", "epicene", []),
        ("Réservé au ou à la MJ", "epicene", []),
        ("Pions MJ", "epicene", []),
        ("Modificateur du MJ", "mk", ["MJ"]),
        ("Modificateur du MK", "mk", []),
        ("la MJ fait un seul jet", "la", []),
        ("Bonus ou malus du MJ", "le", []),
    ],
)
def test_the_scanner_catches_what_breaks_a_convention(text, convention, caught):
    assert problems(text, convention) == caught


#: Gendered combat lines once written, and the phrasing they became: a fighter is named, never
#: agreed with ("Alice Moreau n'est pas atteint" → "Coup paré par Alice Moreau : aucun dégât").
GENDERED = [
    r"n'est pas atteinte?\b",
    r"s'est enfuie?\b",
    r"\bperd \{n\} PV \(",
    r"^Inconsciente?$",
    r"\{(?:name|d|a|who)\} (?:est|a été) (?:blessée?|touchée?|atteinte?|tuée?|supprimée?)\b(?!·)",
]
SYSTEMS = sorted(CONVENTIONS)


@pytest.mark.parametrize("ns", SYSTEMS)
def test_no_gendered_combat_phrase(ns):
    bad = {k: v for k, v in strings(ns).items() if any(re.search(p, v) for p in GENDERED)}
    assert not bad, bad


@pytest.mark.parametrize(
    "text", ["Raté : {d} n'est pas atteint.", "{name} s'est enfui.", "Touché : {d} perd {n} PV ({pv} PV).",
             "Inconscient", "{name} a été supprimé."]
)
def test_the_gendered_phrases_are_caught(text):
    assert any(re.search(p, text) for p in GENDERED)


def test_the_damage_lines_say_what_is_left_of_what():
    """The passe d'armes lines (Unicreon) and the SYSTMJ damage step: lost, then left of the
    maximum, the PA/PV split said plainly, in both languages."""
    for lang in ("fr", "en"):
        uc = strings("unicreon", lang)
        for key in ("unicreon.ui.hit_result", "unicreon.ui.damage_line"):
            assert all(p in uc[key] for p in ("−{", "{pv}", "{max}")), (lang, key, uc[key])
        sj = strings("systmj", lang)["systmj.combat.damage_line"]
        assert all(p in sj for p in ("{pa}", "{pv}", "{pa_left}", "{pv_left}", "{pv_max}")), (lang, sj)
