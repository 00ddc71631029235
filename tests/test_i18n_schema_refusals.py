"""Every schema refusal reads entirely in the page's language, naming the field by its label.

A play-through found « Cette demande ne peut pas être traitée : data.modifier must be integer. » in
15 of 45 refusals drawn from the five systems' schemas: a system's own check of a state it
holds passed fastjsonschema's English sentence on. Here every kind of refusal of every op's
schema (tests/schema_refusals.py: each keyword of each value the schema describes, broken
once), every refusal of the systems' character and state schemas as the store's checks give
them, and the refusals of the states the engine checks before an op runs, are worded through
the page's own i18n layer (tests/js/i18n_render.mjs) in French and in English: no English word in
French, no French word in English, no path or code, and the field named as the catalogue
labels it ("Modificateur : un nombre entier", "Score : 99 au plus").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import fastjsonschema
import pytest

from i18n_words import english, raw_ids, worded
from schema_refusals import broken, minimal, refusals, rule_refusals
from tablee import registry, store
from tablee.api import _validator, _with_violation, handle, load_all
from tablee.errors import RulesError
from tablee.schema import compile_schema, schema_params

#: French words that have no business in an English sentence.
FRENCH = re.compile(
    r"\b(le|la|les|un|une|des|du|doit|être|valeur|nombre|entier|texte|au|plus|moins|est|pas|"
    r"caractères?|éléments?|entrées?|donnée|inconnue|remplir|fiche|liste|oui|non|ou|attendue)\b"
    r"|[àâçéèêëîïôûùüÿœ]",
    re.IGNORECASE,
)
#: What the validator wrote, which must never reach a person.
VALIDATOR = re.compile(
    r"\bdata\b|\[\d+\]|\bproperties\b|must (?:not )?(?:be (?:integer|string|object|array|boolean|number|null|"
    r"bigger|smaller|longer|shorter|valid|unique)|contain|match)"
)


#: Names the interface writes the same in both languages.
PROPER = re.compile(r"Point Zéro|Théorem|Tablée")


def french(text: str) -> list[str]:
    return [m.group(0) for m in FRENCH.finditer(PROPER.sub("", text))]


def _distinct(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One refusal per wording (the last name of the field, the keyword, its limit): what the
    page's words depend on; the walk gives thousands of refusals that read the same."""
    out = {}
    for e in errors:
        p = e.get("params", {})
        field = str(p.get("field", e.get("field", "")))
        out.setdefault((e["code"], field.rsplit(".", 2)[-2:].__repr__(), p.get("rule"), repr(p.get("limit"))), e)
    return list(out.values())


def _problems_of(check, schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The first problem a store check gives for each broken value of ``schema`` that is still an
    object (the store refuses any other first: ``store.char.not_object``, ``store.not_object``)."""
    for value in broken(schema):
        if not isinstance(value, dict):
            continue
        problems = check(value)
        if problems:
            yield problems[0].to_json()


def _records(schema: Any) -> Iterator[dict[str, Any]]:
    """``schema`` and the records it holds one level down (a system's fight in its state)."""
    if isinstance(schema, dict):
        yield schema
        for sub in (schema.get("properties") or {}).values():
            for alt in (sub, *(sub.get("anyOf") or sub.get("oneOf") or [])) if isinstance(sub, dict) else ():
                if isinstance(alt, dict) and alt.get("properties"):
                    yield alt


def _guard_refusals() -> Iterator[dict[str, Any]]:
    """The schema refusals of the states the engine checks before an op runs, by their own
    checks: every broken state the op's request schema lets through (the others are refused as
    ``request.invalid`` before the check runs, above). A guard whose request schema is loose
    (Unicreon's fight) checks the state with its own schema: the systems' state records are
    broken for it too. Kept: the refusals that come from a schema (they carry its keyword, or
    the validator's English)."""
    states = [r for schema in store.STATE_SCHEMAS.values() for r in _records(schema)]
    for schema, require in registry.STATE_GUARDS:
        passes = compile_schema(schema)
        for source in (schema, *(states if not schema.get("properties") else ())):
            for value in broken(source):
                try:
                    passes(value)
                except fastjsonschema.JsonSchemaException:
                    continue
                try:
                    require(value)
                except RulesError as exc:
                    error = _with_violation(exc).to_json()["error"]
                    params = error["params"]
                    if "rule" in params or any(VALIDATOR.search(str(v)) for v in params.values()):
                        yield error
                except Exception:  # api.handle reports it as request.state_invalid
                    continue


def _all_schema_refusals() -> list[dict[str, Any]]:
    load_all()
    errors = [e for found in refusals().values() for e in found]
    for system, schema in store.CHARACTER_SCHEMAS.items():
        errors += _problems_of(store.CHARACTER_VALIDATORS[system], schema)
    for system, schema in store.STATE_SCHEMAS.items():
        errors += _problems_of(store.STATE_VALIDATORS[system], schema)
    errors += _guard_refusals()
    return errors


@pytest.mark.slow
def test_every_refusal_of_every_schema_reads_in_the_page_language():
    errors = _all_schema_refusals()
    shown = _distinct(errors)
    assert len(errors) > 5000 and len(shown) > 500, (len(errors), len(shown))
    assert {e["code"] for e in errors} >= {"request.invalid", "unicreon.state.malformed", "theorem.char.invalid"}
    rules = {e["params"].get("rule") for e in shown}
    assert rules >= {"type", "minimum", "maximum", "minLength", "maxLength", "maxItems", "minItems", "enum",
                     "const", "required", "additionalProperties", "pattern", "maxProperties"}, rules
    words = worded(shown)
    bad = {}
    for error, fr, en in zip(shown, words["fr"], words["en"], strict=True):
        found = english(fr) + raw_ids(fr) + [f"en: {w}" for w in french(en) + raw_ids(en)]
        found += [f"validator: {w}" for w in VALIDATOR.findall(fr) + VALIDATOR.findall(en)]
        if found:
            bad[fr] = (en, sorted(set(found)), error["params"])
    some = json.dumps(dict(list(bad.items())[:20]), ensure_ascii=False, indent=1)
    assert not bad, f"{len(bad)} of {len(shown)}: {some}"


#: The params a rule's refusal words (a path, a reason code, a kind of thing): never shown as they are.
WORDED_PARAMS = ("field", "detail", "path", "reason", "kind", "pile", "op")


def _leaks(error: dict[str, Any], text: str, validator: bool = True) -> list[str]:
    """The params of ``error`` that ``text`` shows as the engine wrote them (a field path, a
    reason code), and what else of it reads as a code or the validator's words (in French:
    English has its own "data"); ids the
    request itself named (a card's, a combatant's) are the person's own and left out."""
    params = error["params"]
    leaks = [f"{k}={v}" for k, v in params.items()
             if k in WORDED_PARAMS and isinstance(v, str) and len(v) > 2 and v in text]
    for k, v in params.items():
        if k not in WORDED_PARAMS and isinstance(v, str) and v:
            text = text.replace(v, "")
    return leaks + raw_ids(text) + [f"validator: {w}" for w in (VALIDATOR.findall(text) if validator else ())]


@pytest.mark.slow
def test_every_refusal_the_rules_raise_names_its_field_and_reason_in_words():
    """« La création n'est pas terminée : … (d'abord : characteristics) », « L'état de la table
    Versality est invalide (cards.card.not_in_pile) », « État de combat incohérent (seating names
    an unknown or repeated seat) »: a rule's refusal put the engine's path or words in its
    sentence. Every refusal a fuzz of every op reaches (tests/schema_refusals.py,
    ``rule_refusals``) reads in words of the catalogue, in French and in English."""
    errors = rule_refusals()
    codes = {e["code"] for e in errors}
    assert len(errors) > 120, len(errors)
    assert codes >= {"versality.char.not_finished", "versality.state.invalid", "unicreon.state.invalid",
                     "unicreon.char.not_finished", "theorem.state.invalid"}, codes
    assert any(e["params"].get("detail") == "cards.card.not_in_pile" for e in errors)
    words = worded(errors)
    bad = {}
    for error, fr, en in zip(errors, words["fr"], words["en"], strict=True):
        found = _leaks(error, fr) + english(_leaks_free(error, fr))
        found += [f"en: {w}" for w in _leaks(error, en, validator=False) + french(_leaks_free(error, en))]
        if found:
            bad[fr] = (en, sorted(set(found)), error["code"], error["params"])
    some = json.dumps(dict(list(bad.items())[:20]), ensure_ascii=False, indent=1, default=str)
    assert not bad, f"{len(bad)} of {len(errors)}: {some}"


def _leaks_free(error: dict[str, Any], text: str) -> str:
    """``text`` without the ids the request named (checked for the other language's words)."""
    for k, v in error["params"].items():
        if k not in WORDED_PARAMS and isinstance(v, str) and v:
            text = text.replace(v, "")
    return text


def test_a_rule_refusal_reads_as_words():
    """The walk's examples, as a person reads them."""
    c = handle({"op": "versality.character.new", "id": "vs-a", "name": "Ana"})["character"]
    error = handle({"op": "versality.character.finish", "character": c})["error"]
    fr, en = (w[0] for w in worded([error]).values())
    assert error["code"] == "versality.char.not_finished" and "(d'abord\u00a0: " in fr, fr
    assert error["params"]["field"] not in fr and error["params"]["field"] not in en
    state = handle({"op": "unicreon.combat.new"})["state"]
    error = handle({"op": "unicreon.combat.next", "state": {**state, "seating": ["nobody"]}})["error"]
    words = worded([error])
    want = "État de combat incohérent (une place est attribuée à un combattant absent, ou deux fois)."
    assert words["fr"][0] == want, words
    assert words["en"][0] == "Inconsistent combat state (a seat is given to a missing combatant, or twice).", words
    # A state the engine could not read (api.handle's request.state_invalid) names no op either.
    crashed = {"code": "request.state_invalid", "message_key": "error.request.state_invalid",
               "params": {"op": "versality.view.player", "field": "decks.ana.piles"}}
    fr, en = (w[0] for w in worded([crashed]).values())
    assert "versality" not in fr + en and "(Piles)" in fr and "(Piles)" in en, (fr, en)


#: Refusals a person meets, and how each reads (the field as the page labels it).
WORDED = [
    ({"op": "systmj.test.odds", "score": "12"}, "Score\u00a0: un nombre entier", "Score: a whole number"),
    ({"op": "systmj.test.odds", "score": 120}, "Score\u00a0: 99 au plus", "Score: 99 at most"),
    ({"op": "systmj.test.odds"}, "Score\u00a0: à remplir", "Score: required"),
    ({"op": "pointzero.test.odds", "test": {"kind": "skill", "skill": 11, "attribute": 2, "difficulty": "moyen"}},
     "Compétence\u00a0: 10 au plus", "Skill: 10 at most"),
    ({"op": "pointzero.test.odds", "test": {"kind": "skill", "skill": 2, "attribute": 2, "skill_name": "x" * 61}},
     "Compétence\u00a0: 60 caractères au plus", "Skill: 60 characters at most"),
    ({"op": "unicreon.test.odds", "test": {"skill": "expert"}},
     "Compétence\u00a0: une des valeurs proposées", "Skill: one of the values offered"),
]


@pytest.mark.parametrize(("request_", "fr", "en"), WORDED)
def test_a_refusal_names_the_field_and_the_rule(request_, fr, en):
    error = handle(request_)["error"]
    assert error["code"] == "request.invalid", error
    words = worded([error])
    assert words["fr"][0] == f"Refusé sans rien changer — {fr}.", words["fr"][0]
    assert words["en"][0] == f"Refused, nothing changed — {en}.", words["en"][0]


def test_a_state_refused_by_its_own_check_says_which_field_and_rule():
    """Unicreon's fight is checked by its own schema before an op runs: the refusal carried
    « data.round must be integer » as its only words; it now carries the field and the rule."""
    state = handle({"op": "unicreon.combat.new"})["state"]
    error = handle({"op": "unicreon.combat.initiative.odds", "state": {**state, "round": "x"}})["error"]
    assert error["code"] == "unicreon.state.malformed", error
    assert (error["params"]["field"], error["params"]["rule"], error["params"]["limit"]) == ("round", "type", "integer")
    words = worded([error])
    assert words["fr"][0] == "État de combat illisible (Tour\u00a0: un nombre entier).", words["fr"][0]
    assert "must" not in words["en"][0] and "Round: a whole number" in words["en"][0], words["en"][0]


def test_a_missing_key_and_a_list_item_are_named_as_the_forms_name_them():
    """fastjsonschema names the object that lacks a key and writes list items as ``[0]``; the
    forms attach a problem to ``skills.0.level``: the refusal names the missing key's path."""
    validate = fastjsonschema.compile({"type": "object", "properties": {"skills": {"type": "array", "items": {
        "type": "object", "required": ["name", "level"], "properties": {"level": {"type": "integer"}}}}}})
    for value, field, rule in (({"skills": [{"name": "a"}]}, "skills.0.level", "required"),
                               ({"skills": [{"name": "a", "level": 1}, {"name": "b", "level": "x"}]},
                                "skills.1.level", "type")):
        with pytest.raises(fastjsonschema.JsonSchemaValueException) as caught:
            validate(value)
        params = schema_params(caught.value)
        assert (params["field"], params["rule"]) == (field, rule)


def test_the_walk_breaks_what_it_says():
    """The refusal walk itself: the smallest request of an op passes, each broken one fails."""
    load_all()
    name = "pointzero.test.odds"
    schema = registry.OPS[name].schema
    request = {**minimal(schema), "op": name}
    assert request == {"op": name, "test": {"kind": "skill", "attribute": 0}}
    _validator(name)(request)  # passes the schema (the rules may refuse it: no skill, no difficulty)
    # (the request not an object, or without its op, is refused before its schema is read)
    variants = [v for v in broken(schema, request) if isinstance(v, dict) and "op" in v]
    assert len(variants) > 20
    assert all(handle(v).get("error", {}).get("code") == "request.invalid" for v in variants)
