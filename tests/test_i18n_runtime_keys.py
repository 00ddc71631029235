"""Every message key a page builds at run time exists in both languages.

Most keys are written whole in static/js (`t("home.title")`) and checked with their texts
(tests/test_i18n_sentences.py, tests/test_site.py). Some are built from a value the page holds
(`t(`versality.skill.${k}`)`, `t("error." + code)`): a value with no key shows the raw key to a
person. This test reads every such template in static/js and:

* checks that each one is known here: its values come from the engine (a constant of the rules
  package, an enum of a published schema, a literal the engine answers) and every key they can
  give has a French and an English text, or they come from the page itself (a constant list in
  the same file: named in ``PAGE_VALUES`` with where they come from, and the key checked to
  exist for at least one value). A new template nobody classified fails;
* for the values the engine gives, checks every key in both languages.

The set of values is read from the engine, never copied: a new outcome, band or condition the
engine starts to answer is a missing key here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from tablee import referee
from tablee.errors import declared_codes
from tablee.registry import SYSTEM_IDS
from tablee.systems.pointzero import data as PZ
from tablee.systems.systmj import combat as SJC
from tablee.systems.systmj import data as SJ
from tablee.systems.systmj import entity as SJE
from tablee.systems.systmj import library as SJL
from tablee.systems.systmj import resolution as SJR
from tablee.systems.systmj import rounds as SJRD
from tablee.systems.systmj import wear as SJW
from tablee.systems.theorem import data as TH
from tablee.systems.theorem import state as THS
from tablee.systems.unicreon import character as UCC
from tablee.systems.unicreon import combat_state as UCS
from tablee.systems.unicreon import data as UC
from tablee.systems.versality import character as VSC
from tablee.systems.versality import rules as VS
from tablee.systems.versality import state as VSS

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "static" / "js"
I18N = ROOT / "static" / "i18n"
PY = ROOT / "py" / "tablee"


def read_template(text: str, i: int) -> tuple[int, list[str], list[str]]:
    """The template literal starting at ``text[i]`` (a backtick): (index after it, its literal
    parts, its ``${…}`` expressions). Nested templates and strings inside an expression are
    skipped whole."""
    assert text[i] == "`"
    i += 1
    parts, exprs = [""], []
    while True:
        ch = text[i]
        if ch == "\\":
            parts[-1] += text[i : i + 2]
            i += 2
        elif ch == "`":
            return i + 1, parts, exprs
        elif text.startswith("${", i):
            i += 2
            start, depth = i, 0
            while True:
                ch = text[i]
                if ch == "`":
                    i = read_template(text, i)[0]
                    continue
                if ch in "\"'":
                    i += 1
                    while text[i] != ch:
                        i += 2 if text[i] == "\\" else 1
                elif ch == "{":
                    depth += 1
                elif ch == "}":
                    if depth == 0:
                        break
                    depth -= 1
                i += 1
            exprs.append(text[start:i])
            parts.append("")
            i += 1
        else:
            parts[-1] += ch
            i += 1


CALL = re.compile(r"\b(?:t|tn|has)\(\s*`")
#: A key joined with `+` ("error." + code): the same run-time key, written the other way.
CONCAT = re.compile(r"\b(?:t|tn|has)\(\s*([\"'])([\w.]*\.)\1\s*\+")


def runtime_templates(source: str) -> set[str]:
    """The run-time message keys of a JS source, each as a pattern with ``*`` for every value
    the page puts in (``versality.skill.*``)."""
    found = set()
    for m in CALL.finditer(source):
        _, parts, exprs = read_template(source, m.end() - 1)
        if exprs:
            found.add("*".join(parts))
    for m in CONCAT.finditer(source):
        found.add(m.group(2) + "*")
    return found


def all_templates() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sorted(JS.rglob("*.js")):
        for pattern in runtime_templates(path.read_text(encoding="utf-8")):
            out.setdefault(pattern, []).append(str(path.relative_to(JS)))
    return out


def messages(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted((I18N / lang).glob("*.json")):
        out.update(json.loads(path.read_text(encoding="utf-8")))
    return out


def source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def literals(module: str, key: str) -> set[str]:
    """The string literals the engine module ``module`` (a path under py/tablee) answers under
    ``key``: ``"key": "value"`` and ``key = "value"`` (also the last literal of a tuple
    assignment ``winner, key = …, "value"``)."""
    text = (PY / module).read_text(encoding="utf-8")
    found = set(re.findall(rf'"{key}":\s*"(\w+)"', text))
    found |= set(re.findall(rf'\b{key}\s*=\s*"(\w+)"', text))
    found |= set(re.findall(rf'\b\w+,\s*{key}\s*=\s*.*,\s*"(\w+)"\s*$', text, re.MULTILINE))
    return found


def enum(schema: dict, *path: str) -> set[str]:
    """The string values of the enum at ``path`` in a published schema (properties/items walked)."""
    node = schema
    for name in path:
        node = node["items"] if name == "[]" else node["properties"][name]
    return {v for v in node["enum"] if isinstance(v, str)}


def keys(values: Iterable) -> set[str]:
    return {str(v) for v in values}


#: Templates whose values the engine gives: pattern -> the values (read from the engine).
ENGINE_VALUES: dict[str, Callable[[], set[str]]] = {
    "error.*": lambda: set(declared_codes()),
    # the MJ's feed: every move a phone may send (and the session's own notes), every refusal
    "live.op.*": lambda: set(referee.MOVES) | set(referee._KERNEL_MOVES) | {"live.ask", "live.identity"},
    "live.why.*": lambda: {c for c in declared_codes() if c.startswith("live.refused.")},
    "home.playable.*": lambda: set(SYSTEM_IDS),
    "system.*.mechanic": lambda: set(SYSTEM_IDS),
    "system.*.summary": lambda: set(SYSTEM_IDS),
    "pointzero.difficulty.*": lambda: keys(PZ.DIFFICULTIES),
    "pointzero.modifier.*": lambda: keys(PZ.MODIFIERS),
    "pointzero.ui.reason_*": lambda: literals("systems/pointzero/resolution.py", "reason"),
    # Who a tie on the total goes to: never "total" (the totals are equal), a perfect tie has none.
    "pointzero.ui.tie_to_*": lambda: literals("systems/pointzero/resolution.py", "reason") - {"total", "perfect_tie"},
    "systmj.attr.*": lambda: keys(SJ.ATTRIBUTES),
    "systmj.skill.*": lambda: keys(SJ.GENERIC_SKILLS),
    "systmj.pair.*": lambda: keys(SJ.PAIRS),
    "systmj.group.*": lambda: keys(SJ.SKILL_GROUPS),
    "systmj.degree.*": lambda: {row[2] for row in SJ.SKILL_SCALE},
    "systmj.mod.*": lambda: keys(SJ.MODIFIERS),
    "systmj.da.*": lambda: keys(SJ.DA_TABLE),
    "systmj.quality.*": lambda: {row[2] for row in SJ.LEARNING_QUALITY},
    "systmj.gain.*": lambda: keys(SJ.LEARNING_GAINS),
    "systmj.xp.*": lambda: keys(SJ.XP_DICE),
    "systmj.kind.*": lambda: keys(SJ.KINDS),
    "systmj.unit.*": lambda: keys(SJ.UNITS),
    "systmj.progress.*": lambda: enum(SJE.PROGRESS_SCHEMA, "kind"),
    "systmj.outcome.*": lambda: keys(SJR.OUTCOMES),
    "systmj.degree_success.*": lambda: keys(SJR.DEGREES),
    "systmj.row.*": lambda: keys(SJR.ROWS),
    "systmj.family.*": lambda: keys(SJL.FAMILIES),
    "systmj.family_for.*": lambda: keys(SJL.FAMILIES),
    "systmj.wear.*": lambda: {row[2] for row in SJW.WEAR_SCALE},
    "systmj.combat.kinds.*": lambda: keys(SJC.KINDS),
    "systmj.combat.defences.*": lambda: keys(SJC.DEFENCES),
    "systmj.combat.step.*": lambda: literals("systems/systmj/combat.py", "step"),
    "systmj.combat.verdict.*": lambda: literals("systems/systmj/combat.py", "outcome"),
    "systmj.combat.choice.*": lambda: keys(SJRD.CHOICES),
    "theorem.sphere.*": lambda: keys(TH.SPHERES),
    "theorem.suit.*": lambda: keys(TH.SUITS),
    "theorem.rank.*": lambda: keys(TH.FIGURES),
    "theorem.level.*": lambda: keys(TH.LEVELS),
    "theorem.ladder.*": lambda: {row["id"] for row in TH.MODIFIER_LADDER},
    "theorem.ui.wait_*": lambda: {
        THS.retest_status({"fails": {"c": {"count": n, "skill": 1}}}, "c")["wait"] for n in range(1, 6)
    },
    # Why a record is refused: the loader's (py/tablee/store.py) and the pre-save guard's
    # (static/js/guard.js, which mirrors it in the page), both shown with these words.
    "store.reason.*": lambda: set(re.findall(r'_Invalid\((?:\w+|_join\([^)]*\)),\s*"(\w+)"', source(PY / "store.py")))
    | set(re.findall(r'reason="(\w+)"', source(PY / "store.py")))
    | set(re.findall(r'reason: "(\w+)"', source(JS / "guard.js"))),
    "unicreon.char.*": lambda: keys(UC.CHARACTERISTICS),
    "unicreon.difficulty.*": lambda: keys(UC.DIFFICULTIES),
    "unicreon.band.*": lambda: {row[0] for row in UC.RESULT_BANDS},
    "unicreon.skill.*": lambda: keys(UC.SKILL_LEVELS),
    "unicreon.carried.*": lambda: keys(UC.CARRIED),
    "unicreon.item.*": lambda: keys(UC.CATALOGUE),
    "unicreon.tier.*": lambda: keys(UC.NPC_TIERS),
    "unicreon.beast.*": lambda: keys(UC.BESTIARY),
    "unicreon.category.*": lambda: keys(UCC.CATEGORIES),
    "unicreon.condition.*": lambda: enum(UCC.CHARACTER_SCHEMA, "conditions", "[]", "kind"),
    "unicreon.down.*": lambda: enum(UCC.CHARACTER_SCHEMA, "down"),
    "unicreon.ui.phase_*": lambda: enum(UCS.STATE_SCHEMA, "phase"),
    "unicreon.ui.reason_*": lambda: literals("systems/unicreon/resolution.py", "reason"),
    "versality.characteristic.*": lambda: keys(VS.CHARACTERISTICS),
    "versality.skill.*": lambda: keys(VS.SKILLS),
    "versality.difficulty.*": lambda: keys(VS.DIFFICULTIES),
    "versality.outcome.*": lambda: keys(VS.OUTCOMES),
    "versality.catastrophe.*": lambda: {band["id"] for band in VS.CATASTROPHE_BANDS},
    "versality.rule.*": lambda: enum(VSS.PENDING_SCHEMA, "rule"),
    "versality.ui.rule_applied_*": lambda: enum(VSS.PENDING_SCHEMA, "rule"),
    "versality.status.*": lambda: set(re.findall(r'"(\w+)"', VSC.wound_status.__doc__ or "")),
    "versality.ui.origin.*": lambda: enum(VSC.CHARACTER_SCHEMA, "deck", "[]", "origin"),
}

#: Templates whose values the page itself holds (a constant list or a choice made in the same
#: file, the shell's own states): where the values come from. Each is checked to name at least
#: one existing key (a misspelt prefix shows), and fr/en parity is tests/test_site.py's.
PAGE_VALUES: dict[str, str] = {
    "*.*": "versality/common.js, versality/sheet.js: a prefix and a label key the same file names",
    "csv.col.*": "views/exports.js: the CSV's own column list",
    "engine.*": "render.js: the engine states of static/js/engine.js",
    "engine.progress.*": "engine-progress.js: the steps of static/js/engine.js's onEngineProgress",
    "filekind.*": "views/filekind.js: the kinds it recognises",
    "lang.name_*": "render.js: the two interface languages",
    "lang.switch_to_*": "render.js: the two interface languages",
    "live.bad.*": "views/live.js: the live codes of static/js/live (join, offer)",
    "live.remote.bad.*": "views/live-remote.js: the TURN setting's checks (live/ice-servers.js checkRemote)",
    "live.scan_*": "views/scan.js: the states a scan fails in (refused, absent, no_decoder, no_decoder_offline)",
    "live.state.*": "views/live.js: the connection states of static/js/live",
    "nav.*": "render.js: the nav routes and the system ids",
    "quarantine.kind.*": "views/table.js: the kinds of records the loader sets apart (storage.js)",
    "save.refused.*": "save-queue.js: the guard's reasons (guard.js)",
    "save.state.*": "save-queue.js, boot.js: the save states they set themselves",
    "schema.field.*": "i18n.js: the field names it knows, else the raw name is not used",
    "schema.rule.*": "i18n.js: the JSON Schema keywords it words",
    "reason.*": "i18n.js: the reason codes a rule's refusal gives as its detail, when worded (else the field's label)",
    "share.kind.*": "i18n.js: the kinds of shared things share.invalid names, when worded",
    "schema.type.*": "i18n.js: the JSON types",
    "share.audience_*": "views/share.js: its audience list",
    "share.bad.*": "views/share.js: ShareError codes of share/codec.js",
    "systmj.cardf.*": "systmj/cards.js: its FIELDS table (card fields per family)",
    "systmj.cardh.*": "systmj/cards.js: its FIELDS table",
    "systmj.cards.help_*": "systmj/cards.js: its list fields",
    "systmj.combat.outcome.*": "systmj/combat.js: its odds rows",
    "systmj.combat.score.*": "systmj/combat.js: its score rows",
    "systmj.cv.*": "systmj/cards.js, combat.js: card field values of its FIELDS table",
    "theorem.field.*": "theorem/common.js: the sheet's field names",
    "theorem.ui.*": "theorem/mk.js: the success table's columns",
    "undo.label.*": "undo-bar.js: the change kinds it knows, else 'other'",
    "unicreon.amount.*": "unicreon/common.js: the damage amount kinds of its items",
    "unicreon.field.*": "unicreon/sheet.js: its TEXT_FIELDS",
    "unicreon.ui.amount_*": "unicreon/sheet.js: its amount choices",
    "unicreon.ui.band_short.*": "unicreon/test.js: the band list it lays out",
    "unicreon.ui.escape_*": "unicreon/combat.js: its two escape modes",
    "unicreon.ui.mode_*": "unicreon/test.js: its opposition modes",
    "unicreon.ui.shop_*": "unicreon/sheet.js: its shop groups",
    "unicreon.ui.short.*": "unicreon/combat.js: its short names of tiers and beasts",
    "unicreon.value.*": "unicreon/common.js: its VALUE_LABEL table",
    "versality.step.*": "versality/test.js: the step kinds of a resolve",
    "versality.ui.mj_adjusted_*": "versality/mj.js: the two fields it adjusts",
    "versality.ui.tokens_*": "versality/test.js: its token counts",
    "pointzero.ui.tension_rule_*": "pointzero/mj.js: its tension rule list",
}


def test_the_scanner_finds_templates_nested_and_joined():
    source = """
      t(`versality.skill.${k}`); tn(`a.b.${x ? "c" : `${y}_d`}`, n);
      t("error." + code); t("plain.key"); has(`x.${a}.y`);
    """
    assert runtime_templates(source) == {"versality.skill.*", "a.b.*", "error.*", "x.*.y"}


def test_every_runtime_key_is_known_here():
    templates = all_templates()
    unknown = {p: files for p, files in templates.items() if p not in ENGINE_VALUES and p not in PAGE_VALUES}
    assert not unknown, "run-time keys to classify (ENGINE_VALUES or PAGE_VALUES): " + json.dumps(unknown, indent=1)
    # An entry for a template that is gone is dead weight: it would hide a real one later.
    gone = sorted((set(ENGINE_VALUES) | set(PAGE_VALUES)) - set(templates))
    assert not gone, gone


def worded(texts: dict[str, str], key: str) -> bool:
    """A text for ``key``, or its plural forms (i18n.js ``tn`` asks ``key_one``/``key_other``)."""
    return any(str(texts.get(k, "")).strip() for k in (key, f"{key}_other"))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_key_the_engine_values_can_give_exists(lang):
    texts = messages(lang)
    missing = {}
    for pattern, values in ENGINE_VALUES.items():
        vals = values()
        assert vals, f"{pattern}: no value read from the engine (the reader is broken)"
        absent = sorted(key for key in (pattern.replace("*", v, 1) for v in vals) if not worded(texts, key))
        if absent:
            missing[pattern] = absent
    assert not missing, f"{lang}: " + json.dumps(missing, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_page_template_names_existing_keys(lang):
    texts = messages(lang)
    for pattern in PAGE_VALUES:
        regex = re.compile("^" + ".+".join(re.escape(part) for part in pattern.split("*")) + "$")
        assert any(regex.match(k) for k in texts), f"{lang}: no key matches {pattern}"


def test_a_missing_key_is_reported():
    """The check itself: a value the engine gives with no text is reported."""
    texts = messages("fr")
    values = ENGINE_VALUES["versality.outcome.*"]() | {"pas-de-texte"}
    absent = [v for v in values if f"versality.outcome.{v}" not in texts]
    assert absent == ["pas-de-texte"]
